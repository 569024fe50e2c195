// HostBuffer: page-locked host memory for staging and results, with a
// pageable fallback; used by the dense engines (minplus_tile.cuh and its
// users) and the MPI block engine (block_fw.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#include "core/gpu_runtime.h"
#include "runtime/device.cuh"

namespace gsp::detail::gpu::dense {

// Page-locked host memory (cudaHostAlloc, or a buffer from the pinned cache when
// `cached`; from 4 MiB on otherwise, a buffer of the result-buffer cache:
// mapped, faulted in on threads and registered, kept for the next run,
// where cudaHostAlloc takes about 30 ms each 64 MiB), falling back to
// pageable memory when pinning fails. Freed (or handed back to its cache)
// on scope exit: the caller must have finished every asynchronous copy
// from or to it by then.
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(size_t bytes, bool cached = false) { allocate(bytes, cached); }
  ~HostBuffer() { reset(); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void allocate(size_t bytes, bool cached = false) {
    reset();
    if (bytes == 0) bytes = 1;
    cached_ = cached;
    if (cached) {
      size_t got = 0;
      ptr_ = pinned_cache_take(bytes, &got);
      if (ptr_ != nullptr) {
        pinned_ = true;
        bytes_ = got;
        return;
      }
    }
    if (!cached && bytes >= kFromResults) {
      size_t got = 0;
      ptr_ = result_buffer_take(bytes, &got);
      if (ptr_ != nullptr) {
        pinned_ = from_results_ = true;
        bytes_ = got;
        return;
      }
    }
    if (cudaHostAlloc(&ptr_, bytes, cudaHostAllocPortable) == cudaSuccess) {
      pinned_ = true;
      bytes_ = bytes;
      return;
    }
    (void)cudaGetLastError();
    ptr_ = std::malloc(bytes);
    if (ptr_ == nullptr) throw std::bad_alloc();
    pinned_ = false;
  }
  void reset() {
    if (ptr_ != nullptr) {
      if (from_results_)
        result_buffer_give(ptr_, bytes_);
      else if (pinned_ && cached_)
        pinned_cache_give(ptr_, bytes_);
      else if (pinned_)
        cudaFreeHost(ptr_);
      else
        std::free(ptr_);
    }
    ptr_ = nullptr;
    from_results_ = false;
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  bool pinned() const { return pinned_; }

 private:
  static constexpr size_t kFromResults = size_t(4) << 20;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
  bool pinned_ = false;
  bool cached_ = false;
  bool from_results_ = false;
};

}  // namespace gsp::detail::gpu::dense
