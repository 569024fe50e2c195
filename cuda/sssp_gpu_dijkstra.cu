// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void sssp_gpu_dijkstra(RunContext&, const SsspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine sssp_gpu_dijkstra is not built yet");
}

}  // namespace gsp::detail::gpu
