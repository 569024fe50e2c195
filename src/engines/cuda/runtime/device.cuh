// The device layer every CUDA engine uses: error checking, the run context
// (device, stream, memory budget), RAII device buffers, and the graph's
// device copy cached on the gsp::detail::Graph. Implemented in device.cu.
//
// Rules for engines:
// - Every CUDA call goes through GSP_CUDA(...); every launch is followed by
//   GSP_CUDA_LAUNCH(). Failures throw gsp::detail::Error: GSP_ERR_DEVICE with
//   CUDA's text, or GSP_ERR_DEVICE_OUT_OF_MEMORY for allocation failures.
// - Device memory comes from DeviceBuffer<T>, allocated through the
//   RunContext so that options.device_memory_limit is honoured (allocations
//   past the budget throw GSP_ERR_DEVICE_OUT_OF_MEMORY before calling CUDA).
// - Work runs on ctx.stream() (the caller's stream when options.cuda_stream
//   is set). Synchronise only through ctx.sync().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/engine.h"

namespace gsp::detail::gpu {

// Throws Error for a failed CUDA call; `what` names the call site.
void check_cuda(cudaError_t err, const char* what, const char* file, int line);

#define GSP_CUDA(call) ::gsp::detail::gpu::check_cuda((call), #call, __FILE__, __LINE__)
#define GSP_CUDA_LAUNCH() ::gsp::detail::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

// Per-run state: selects options.device for the calling thread, owns or
// borrows the stream, tracks bytes allocated against the budget
// (options.device_memory_limit, or the device's free memory when 0).
class RunContext {
 public:
  RunContext(const RunOptions& options, RunStats* stats);
  ~RunContext();
  RunContext(const RunContext&) = delete;
  RunContext& operator=(const RunContext&) = delete;

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  const cudaDeviceProp& props() const { return props_; }
  const RunOptions& options() const { return options_; }
  RunStats* stats() const { return stats_; }

  // Bytes this run may still allocate.
  size_t budget_left() const { return budget_ - used_; }
  size_t budget() const { return budget_; }
  // Reserve / release budget (DeviceBuffer does this for you). reserve()
  // throws GSP_ERR_DEVICE_OUT_OF_MEMORY naming `what` when over budget.
  void reserve(size_t bytes, const char* what);
  void release(size_t bytes);

  void sync() const;  // cudaStreamSynchronize with checking

 private:
  const RunOptions& options_;
  RunStats* stats_;
  int device_ = 0;
  int previous_device_ = 0;
  cudaStream_t stream_ = nullptr;
  bool own_stream_ = false;
  cudaDeviceProp props_{};
  size_t budget_ = 0;
  size_t used_ = 0;
};

// cudaOccupancyMaxActiveBlocksPerMultiprocessor of kernel on device (the
// current one), no dynamic shared memory, asked once per process for each
// (kernel, device, threads): the answer never changes, and the query costs
// host time on every call.
int resident_blocks_per_sm(const void* kernel, int device, int threads);

// Blocks for a cooperative (persistent) launch of kernel with `threads`
// threads per block: every block must be resident at once.
template <class K>
int coop_blocks(RunContext& ctx, K kernel, int threads, int per_sm_cap, int64_t useful_blocks) {
  if (!ctx.props().cooperativeLaunch) {
    throw Error(GSP_ERR_UNSUPPORTED, std::string("device '") + ctx.props().name +
                                         "' does not support cooperative launches, which this "
                                         "engine needs");
  }
  int occ = resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), ctx.device(), threads);
  if (occ < 1) throw Error(GSP_ERR_DEVICE, "persistent kernel cannot be resident on this device");
  if (occ > per_sm_cap) occ = per_sm_cap;
  int64_t b = static_cast<int64_t>(occ) * ctx.props().multiProcessorCount;
  if (useful_blocks < 1) useful_blocks = 1;
  if (b > useful_blocks) b = useful_blocks;
  return static_cast<int>(b);
}

// Device memory of count T's, charged to the run's budget, freed on scope exit.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(RunContext& ctx, size_t count, const char* what) { allocate(ctx, count, what); }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }

  void allocate(RunContext& ctx, size_t count, const char* what) {
    reset();
    const size_t bytes = count * sizeof(T);
    ctx.reserve(bytes, what);
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
    if (err != cudaSuccess) {
      ctx.release(bytes);
      (void)cudaGetLastError();
      check_cuda(err, what, __FILE__, __LINE__);
    }
    ptr_ = static_cast<T*>(p);
    count_ = count;
    ctx_ = &ctx;
  }
  void reset() {
    if (ptr_ != nullptr) {
      cudaFree(ptr_);
      ctx_->release(count_ * sizeof(T));
    }
    ptr_ = nullptr;
    count_ = 0;
    ctx_ = nullptr;
  }
  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  void swap(DeviceBuffer& o) noexcept {
    T* p = ptr_;
    ptr_ = o.ptr_;
    o.ptr_ = p;
    size_t c = count_;
    count_ = o.count_;
    o.count_ = c;
    RunContext* x = ctx_;
    ctx_ = o.ctx_;
    o.ctx_ = x;
  }
  T* ptr_ = nullptr;
  size_t count_ = 0;
  RunContext* ctx_ = nullptr;
};

// The graph's CSR on the device for one weight type.
template <class W>
struct DeviceCsr {
  int32_t n = 0;
  int64_t m = 0;
  const int64_t* offsets = nullptr;
  const int32_t* targets = nullptr;
  const W* weights = nullptr;
};

// The graph's device copy, uploaded on first use on ctx.device() and cached
// on the Graph (once, under its device mutex; freed with the graph). The
// reverse graph is uploaded only when asked for. Time spent uploading is
// added to ctx.stats()->upload_seconds. The cached copy is not charged to
// the run's budget, but its size is subtracted from the budget when it is
// created within this run.
template <class W>
DeviceCsr<W> device_graph(RunContext& ctx, const Graph& graph);
template <class W>
DeviceCsr<W> device_reverse_graph(RunContext& ctx, const Graph& graph);

// Memory kept between runs for speed (one per process, thread-safe); all of
// it is returned by release_cached_memory() (gsp_release_cached_memory).
//
// A stream-ordered pool per device for per-run workspaces: up to 128 MiB
// stays reserved between runs, so repeated runs pay no cudaMalloc/cudaFree.
// nullptr when the device has no memory pools or GSP_CUDA_SSSP_POOL=0
// (then use DeviceBuffer).
cudaMemPool_t workspace_pool(int device);
// Page-locked host buffers of the out-of-core engines: pinning costs about
// 0.2 s per GB, so a finished run hands its buffers back (at most two, the
// largest) for the next one. GSP_DENSE_PINNED_CACHE=0 turns this off.
// take(): the smallest cached buffer of at least `bytes` (its size in *got),
// or nullptr; give(): keep (or free) a buffer the caller is done with.
void* pinned_cache_take(size_t bytes, size_t* got);
void pinned_cache_give(void* p, size_t bytes);
// Frees the pinned cache, trims every workspace pool to nothing and destroys
// the run-info stage clocks' pooled events (stage_clock.cuh).
void release_cached_memory();

// Lets `device` read and write `peer`'s memory directly (NVLink or PCIe
// peer to peer), once per ordered pair and process; false when the pair
// cannot (copies between them then go through host memory, slower).
bool enable_peer_access(int device, int peer);

// Device-to-host copy of `bytes` on `stream` into host memory page-locked
// in pieces (RowSink::Destination::lock_piece; 0: whole, one copy): one
// copy per piece, none across a multiple of `piece` bytes of the address
// space, which the driver refuses (core/gpu_runtime.h, kLockPieceBytes).
inline void copy_to_host(void* dst, const void* src, size_t bytes, size_t piece, cudaStream_t stream) {
  char* to = static_cast<char*>(dst);
  const char* from = static_cast<const char*>(src);
  while (bytes > 0) {
    size_t len = bytes;
    if (piece > 0) len = std::min(len, piece - reinterpret_cast<uintptr_t>(to) % piece);
    GSP_CUDA(cudaMemcpyAsync(to, from, len, cudaMemcpyDeviceToHost, stream));
    to += len;
    from += len;
    bytes -= len;
  }
}

// Launch geometry helper.
inline unsigned blocks_for(int64_t work, int threads) {
  int64_t b = (work + threads - 1) / threads;
  return static_cast<unsigned>(b < 1 ? 1 : b);
}

}  // namespace gsp::detail::gpu
