// Shared pieces of the sparse APSP engines (apsp_heap.cu, apsp_task_parallel.cu):
// device-side distance arithmetic, fills, an interleaved -> row-major
// transpose, pinned host memory, and the row deliverer that hands finished
// rows to job.sink in source order, in blocks, overlapping the
// device-to-host copy of one block with the sink's work on the previous one.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "core/gpu_runtime.h"
#include "runtime/engines.cuh"
#include "runtime/stage_clock.cuh"
#include "runtime/weight_traits.cuh"

namespace gsp::detail::gpu::sparse {

// ------------------------------------------------------------ device math

template <class W>
__host__ __device__ constexpr W dist_inf() {
  return Dist<W>::inf();
}

// d + w for w >= 0 and finite d; false when an int32 sum would reach
// GSP_I32_INF (the caller raises the overflow flag).
template <class W, class = std::enable_if_t<std::is_floating_point_v<W>>>
__device__ inline bool add_dist(W d, W w, W* out) {
  *out = d + w;
  return true;
}
__device__ inline bool add_dist(int32_t d, int32_t w, int32_t* out) {
  long long s = static_cast<long long>(d) + static_cast<long long>(w);
  if (s >= static_cast<long long>(INT32_MAX)) return false;
  *out = static_cast<int32_t>(s);
  return true;
}

// atomicMin for non-negative distances (runtime/weight_traits.cuh).
template <class W>
__device__ inline void atomic_min_dist(W* p, W v) {
  WeightTraits<W>::atomic_min_nonneg(p, v);
}

template <class T>
__global__ void fill_kernel(T* p, size_t count, T value) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (; i < count; i += stride) p[i] = value;
}

template <class T>
inline void fill(RunContext& ctx, T* p, size_t count, T value) {
  if (count == 0) return;
  unsigned blocks = blocks_for(static_cast<int64_t>(std::min<size_t>(count, size_t(1) << 26)), 256);
  fill_kernel<T><<<blocks, 256, 0, ctx.stream()>>>(p, count, value);
  GSP_CUDA_LAUNCH();
}

// in: rows x cols (row-major, row = vertex, col = problem slot), out: the
// first out_rows columns transposed, out[c * rows + r] = in[r * cols + c].
template <class T>
__global__ void transpose_kernel(const T* __restrict__ in, T* __restrict__ out, int32_t rows, int32_t cols,
                                 int32_t out_rows) {
  __shared__ T tile[32][33];
  int32_t c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
  for (int32_t k = threadIdx.y; k < 32; k += 8) {
    int32_t r = r0 + k, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[k][threadIdx.x] = in[static_cast<size_t>(r) * cols + c];
  }
  __syncthreads();
  for (int32_t k = threadIdx.y; k < 32; k += 8) {
    int32_t c = c0 + k, r = r0 + threadIdx.x;
    if (c < out_rows && r < rows) out[static_cast<size_t>(c) * rows + r] = tile[threadIdx.x][k];
  }
}

template <class T>
inline void transpose(RunContext& ctx, const T* in, T* out, int32_t rows, int32_t cols, int32_t out_rows) {
  dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  transpose_kernel<T><<<grid, dim3(32, 8), 0, ctx.stream()>>>(in, out, rows, cols, out_rows);
  GSP_CUDA_LAUNCH();
}

// The batch width for `total` problems when at most `max_batch` fit: as
// few batches as max_batch allows, of equal width (so the last one does
// not run nearly empty), rounded up to a multiple of `align` when that
// still fits.
inline int64_t balanced_batch(int64_t max_batch, int64_t total, int64_t align) {
  if (max_batch >= total) return total;
  int64_t batches = (total + max_batch - 1) / max_batch;
  int64_t b = (total + batches - 1) / batches;
  int64_t up = (b + align - 1) / align * align;
  return up <= max_batch ? up : b;
}

// ------------------------------------------------------------ checks

inline void require_non_negative(const ApspJob& job, const char* engine) {
  if (job.graph->has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                std::string("the CUDA engine ") + engine +
                    " needs non-negative weights; use GSP_APSP_JOHNSON or GSP_APSP_FLOYD_WARSHALL");
  }
}

inline void fill_stats(RunContext& ctx, const ApspJob& job) {
  RunStats* st = job.stats;
  if (st == nullptr) return;
  st->backend = GSP_BACKEND_CUDA;
  st->algorithm = job.algorithm;
  st->device = ctx.device();
  st->device_name = ctx.props().name;
}

// Reads a device flag word (overflow) after the stream drained it.
inline void throw_if_overflow(RunContext& ctx, const int32_t* d_flag) {
  int32_t h = 0;
  GSP_CUDA(cudaMemcpyAsync(&h, d_flag, sizeof h, cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.sync();
  if (h != 0) {
    throw Error(GSP_ERR_OVERFLOW,
                "an int32 distance would overflow (reach GSP_I32_INF); use GSP_F64 weights or "
                "smaller weights");
  }
}

// ------------------------------------------------------------ host side

// Pinned host memory, freed on scope exit.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() { reset(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  // From 4 MiB on (row staging: two to four blocks of up to 64 MiB a run)
  // the buffer comes from the result-buffer cache (made fast, kept for the
  // next run: memory_cache.cu), where cudaHostAlloc took about 35 ms for
  // each 64 MiB on every run; smaller ones (flags, narrow rows) from
  // cudaHostAlloc.
  void allocate(size_t bytes) {
    reset();
    if (bytes >= kFromCache) {
      p_ = result_buffer_take(bytes, &cached_bytes_);
      if (p_ != nullptr) return;
    }
    cudaError_t err = cudaHostAlloc(&p_, bytes == 0 ? 1 : bytes, cudaHostAllocDefault);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      p_ = nullptr;
      throw Error(GSP_ERR_OUT_OF_MEMORY, "cudaHostAlloc of " + std::to_string(bytes) +
                                             " bytes of pinned host memory failed: " + cudaGetErrorString(err));
    }
  }
  void* get() const { return p_; }

 private:
  static constexpr size_t kFromCache = size_t(4) << 20;
  void reset() {
    if (p_ != nullptr && cached_bytes_ > 0)
      result_buffer_give(p_, cached_bytes_);
    else if (p_ != nullptr)
      cudaFreeHost(p_);
    p_ = nullptr;
    cached_bytes_ = 0;
  }
  void* p_ = nullptr;
  size_t cached_bytes_ = 0;  // > 0: a buffer of the result cache
};

// A second stream, for copies that overlap the run's own stream: created
// non-blocking, drained and destroyed on scope exit (so buffers it reads
// outlive its copies even when the run unwinds with an error).
class CopyStream {
 public:
  CopyStream() { GSP_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~CopyStream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  CopyStream(const CopyStream&) = delete;
  CopyStream& operator=(const CopyStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { GSP_CUDA(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// Hands finished rows (row-major on the device, n values each of the graph's
// weight type) to job.sink in blocks of at most block_rows, in order. Two pinned
// staging buffers: the copy of block k+1 runs while the sink reads block k.
class RowDeliverer {
 public:
  RowDeliverer(RunContext& ctx, const ApspJob& job) : ctx_(ctx), job_(job) {
    n_ = job.graph->n();
    want_paths_ = job.options->want_paths;
    int32_t pref = job.sink->preferred_block_rows();
    if (pref < 1) pref = 1;
    dist_row_bytes_ = static_cast<size_t>(n_) * weight_bytes(job.graph->dtype());
    const size_t row_bytes = static_cast<size_t>(n_) * sizeof(int32_t);
    const size_t cap_bytes = size_t(64) << 20;  // per staging buffer
    int64_t by_mem = static_cast<int64_t>(std::max<size_t>(1, cap_bytes / dist_row_bytes_));
    block_rows_ = static_cast<int32_t>(std::min<int64_t>({pref, by_mem, job.num_sources}));
    if (block_rows_ < 1) block_rows_ = 1;
    for (int i = 0; i < 2; i++) {
      dist_[i].allocate(dist_row_bytes_ * block_rows_);
      if (want_paths_) pred_[i].allocate(row_bytes * block_rows_);
    }
  }

  // Called on each block of rows in host memory before the sink sees it:
  // fix(first_index, rows, dist, pred) (e.g. a predecessor repair).
  void set_fix(std::function<void(int32_t, int32_t, void*, int32_t*)> fix) { fix_ = std::move(fix); }

  // Rows for job indices [first, first + count): d_dist (count x n) and
  // d_pred (count x n, ignored without paths) on the device, row-major.
  // The copies run on `stream` (null: ctx.stream()); work queued there
  // before this call is waited for. Returns when every row has been read.
  void deliver(int32_t first, int32_t count, const void* d_dist, const int32_t* d_pred, cudaStream_t stream = nullptr) {
    cudaStream_t st = stream != nullptr ? stream : ctx_.stream();
    const size_t row_bytes = static_cast<size_t>(n_) * sizeof(int32_t);
    const size_t dist_row_bytes = dist_row_bytes_;
    int32_t blocks = (count + block_rows_ - 1) / block_rows_;
    for (int32_t k = 0; k <= blocks; k++) {
      if (k < blocks) {
        int32_t r0 = k * block_rows_;
        int32_t rows = std::min(block_rows_, count - r0);
        int b = k & 1;
        GSP_CUDA(cudaMemcpyAsync(dist_[b].get(), static_cast<const char*>(d_dist) + r0 * dist_row_bytes,
                                 rows * dist_row_bytes, cudaMemcpyDeviceToHost, st));
        if (want_paths_) {
          GSP_CUDA(cudaMemcpyAsync(pred_[b].get(), reinterpret_cast<const char*>(d_pred) + r0 * row_bytes,
                                   rows * row_bytes, cudaMemcpyDeviceToHost, st));
        }
        GSP_CUDA(cudaEventRecord(ev_[b].get(), st));
      }
      if (k > 0) {
        int32_t j = k - 1;
        int b = j & 1;
        int32_t r0 = j * block_rows_;
        int32_t rows = std::min(block_rows_, count - r0);
        GSP_CUDA(cudaEventSynchronize(ev_[b].get()));
        if (fix_) {
          fix_(first + r0, rows, dist_[b].get(), want_paths_ ? static_cast<int32_t*>(pred_[b].get()) : nullptr);
        }
        job_.sink->rows(first + r0, rows, dist_[b].get(),
                        want_paths_ ? static_cast<const int32_t*>(pred_[b].get()) : nullptr);
      }
    }
  }

 private:
  RunContext& ctx_;
  const ApspJob& job_;
  int32_t n_ = 0;
  bool want_paths_ = true;
  int32_t block_rows_ = 1;
  size_t dist_row_bytes_ = 0;
  PinnedBuffer dist_[2], pred_[2];
  Event ev_[2];
  std::function<void(int32_t, int32_t, void*, int32_t*)> fix_;
};

}  // namespace gsp::detail::gpu::sparse
