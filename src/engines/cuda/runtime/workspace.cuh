// A run's work arrays carved out of one device allocation (each array
// 256-byte aligned), taken from the device layer's stream-ordered pool so
// that repeated runs pay no cudaMalloc / cudaFree (cudaFree synchronises the
// device), or from a DeviceBuffer when the pool is off
// (GSP_CUDA_SSSP_POOL=0) or unsupported. Used by every CUDA SSSP engine.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "runtime/device.cuh"

namespace gsp::detail::gpu {

class Workspace {
 public:
  template <class T>
  void add(T** slot, size_t count) {
    offset_ = (offset_ + 255) & ~static_cast<size_t>(255);
    items_[num_].slot = reinterpret_cast<void**>(slot);
    items_[num_].offset = offset_;
    ++num_;
    offset_ += count * sizeof(T);
    if (num_ > kMax) throw Error(GSP_ERR_INTERNAL, "sssp workspace: too many arrays");
  }
  size_t bytes() const { return offset_; }
  // The run's budget is charged as before (ctx.reserve); the memory comes
  // from the device layer's stream-ordered pool (workspace_pool), which keeps
  // memory between runs, so a repeated run pays no cudaMalloc / cudaFree
  // (cudaFree synchronises the device). GSP_CUDA_SSSP_POOL=0 falls back to
  // cudaMalloc.
  void allocate(RunContext& ctx, const char* what) {
    const size_t bytes = offset_ == 0 ? 1 : offset_;
    cudaMemPool_t pool = workspace_pool(ctx.device());
    if (pool != nullptr) {
      ctx.reserve(bytes, what);
      void* p = nullptr;
      cudaError_t err = cudaMallocFromPoolAsync(&p, bytes, pool, ctx.stream());
      if (err != cudaSuccess) {
        ctx.release(bytes);
        (void)cudaGetLastError();
        check_cuda(err, what, __FILE__, __LINE__);
      }
      pooled_ = static_cast<unsigned char*>(p);
      pooled_bytes_ = bytes;
      ctx_ = &ctx;
    } else {
      buf_.allocate(ctx, bytes, what);
    }
    unsigned char* base = pooled_ != nullptr ? pooled_ : buf_.get();
    for (int i = 0; i < num_; ++i) *items_[i].slot = base + items_[i].offset;
  }
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() {
    if (pooled_ != nullptr) {
      cudaFreeAsync(pooled_, ctx_->stream());
      ctx_->release(pooled_bytes_);
    }
  }

 private:
  static constexpr int kMax = 32;
  struct Item {
    void** slot;
    size_t offset;
  };
  Item items_[kMax + 1]{};
  int num_ = 0;
  size_t offset_ = 0;
  DeviceBuffer<unsigned char> buf_;
  unsigned char* pooled_ = nullptr;
  size_t pooled_bytes_ = 0;
  RunContext* ctx_ = nullptr;
};

}  // namespace gsp::detail::gpu
