// The device-array part of the CUDA runtime seam (core/gpu_runtime.h): what
// memory a caller's pointer is, and copies between the caller's device
// arrays and the host (gsp_graph_create_csr_device, gsp_sssp_run_device).
#include <string>

#include "core/gpu_runtime.h"
#include "engines/cuda/runtime/device.cuh"

namespace gsp::detail::gpu {

int32_t pointer_device(const void* p) {
  std::string why;
  if (!usable(&why)) throw Error(GSP_ERR_NO_DEVICE, why);
  cudaPointerAttributes a{};
  const cudaError_t err = cudaPointerGetAttributes(&a, p);
  if (err != cudaSuccess) {
    cudaGetLastError();  // an unknown pointer is host memory to us, not a sticky error
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

void* default_stream() { return static_cast<void*>(cudaStreamLegacy); }

void copy_memory(void* dst, const void* src, size_t bytes, int32_t device, void* stream) {
  if (bytes == 0) return;
  int previous = 0;
  GSP_CUDA(cudaGetDevice(&previous));
  GSP_CUDA(cudaSetDevice(device));
  const cudaStream_t s = stream != nullptr ? static_cast<cudaStream_t>(stream) : cudaStreamLegacy;
  const cudaError_t copy = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
  const cudaError_t wait = copy == cudaSuccess ? cudaStreamSynchronize(s) : copy;
  cudaSetDevice(previous);
  GSP_CUDA(wait);
}

}  // namespace gsp::detail::gpu
