// Rows of a finished device distance matrix (and predecessor matrix) to the
// caller, for the dense APSP engines (apsp_floyd_warshall.cu in-core,
// apsp_minplus.cu): gathered on the device into the API's representation,
// predecessors checked (and bad rows rebuilt on the host), and copied to the
// job's sink. When the sink keeps all rows in one host array (a result, a
// caller's buffer: RowSink::destination), the device copies each block
// straight into it on a second stream while the next block is gathered and
// checked, and the rows are announced at the end: one pass over the bus,
// no staging, no host copy. Otherwise blocks go through page-locked staging
// to sink->rows() (streams).
#pragma once

#include <algorithm>
#include <vector>

#include "core/pred_repair.h"
#include "apsp_dense/minplus_tile.cuh"
#include "runtime/stage_clock.cuh"

namespace gsp::detail::gpu::dense {

// Gathers rows src[0..rows) of D/P into out (rows x n, API representation:
// GSP_I32_INF / +inf for unreachable, pred -1 there). D's first row is
// vertex row_base's (a device holding a band of rows: fw_multi_device.cu).
template <class Ops, class W>
__global__ void gather_rows_kernel(const typename Ops::T* D, const int32_t* P, int64_t ld, int32_t n,
                                   const int32_t* src, int32_t rows, W* out_d, int32_t* out_p, int64_t row_base) {
  const int64_t total = (int64_t)rows * n;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n, j = e % n;
    const int64_t s = src[r];
    const int64_t at = (s - row_base) * ld + j;
    const typename Ops::T v = D[at];
    const bool inf = Ops::is_inf(v);
    out_d[e] = inf ? Dist<W>::inf() : (W)v;
    if (out_p != nullptr) out_p[e] = (inf || s == j) ? -1 : P[at];
  }
}

// Predecessor rows are checked before delivery. The rule pred[i][j] =
// pred[k][j] keeps every predecessor arc tight, but with zero-weight
// cycles the blocked and squaring orders can leave a row whose
// predecessors form a cycle of tight zero arcs. The check: pointer doubling
// on each delivered row (anc <- anc[anc], ceil(log2 n) + 1 rounds); every
// reachable vertex must end at the row's source. A bad row is rebuilt on the
// host (rebuild_pred_row, src/core/pred_repair.h), which yields a tree.
// Only where rows can cycle at all (preds_need_check, same header: not on
// int32 graphs whose every arc weighs > 0). This is the device's own form
// of pred_row_is_tree (one pass per row there, O(n log n) parallel work
// here), not a second copy of it.
template <int kUnused = 0>
__global__ void anc_init_kernel(const int32_t* pred, int32_t* anc, int32_t n, int64_t total) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int32_t p = pred[e];
    anc[e] = p < 0 ? (int32_t)(e % n) : p;
  }
}
template <int kUnused = 0>
__global__ void anc_step_kernel(const int32_t* a, int32_t* b, int32_t n, int64_t total) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n;
    b[e] = a[r * n + a[e]];
  }
}
template <class W>
__global__ void anc_check_kernel(const int32_t* anc, const W* dist, const int32_t* src, int32_t n, int64_t total,
                                 int* bad) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n;
    if (dist[e] != Dist<W>::inf() && anc[e] != src[r]) bad[r] = 1;
  }
}

// Marks bad[r] = 1 for each of `rows` gathered rows (pred p, dist d, sources
// src) whose predecessors do not all lead to the row's source. anc0 / anc1:
// rows x n scratch.
template <class W>
void check_pred_rows(const int32_t* p, const W* d, const int32_t* src, int32_t rows, int32_t n, int32_t* anc0,
                     int32_t* anc1, int* bad, cudaStream_t s) {
  const int64_t work = (int64_t)rows * n;
  if (work == 0) return;
  int rounds = 1;
  while (((int64_t)1 << rounds) < (int64_t)n + 1) ++rounds;
  const unsigned blocks = (unsigned)std::min<int64_t>(blocks_for(work, 256), 65535LL * 8);
  anc_init_kernel<><<<blocks, 256, 0, s>>>(p, anc0, n, work);
  GSP_CUDA_LAUNCH();
  int32_t* a = anc0;
  int32_t* b = anc1;
  for (int it = 0; it < rounds; ++it) {
    anc_step_kernel<><<<blocks, 256, 0, s>>>(a, b, n, work);
    GSP_CUDA_LAUNCH();
    std::swap(a, b);
  }
  anc_check_kernel<W><<<blocks, 256, 0, s>>>(a, d, src, n, work, bad);
  GSP_CUDA_LAUNCH();
}

// A second stream and one "gathered" / "copied" event pair per buffer slot,
// for the in-place delivery. Destroyed first (declared last): it waits for
// its copies before the buffers they read are freed.
struct CopyLane {
  cudaStream_t stream = nullptr;
  cudaEvent_t gathered[2] = {}, copied[2] = {};
  CopyLane() {
    GSP_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int i = 0; i < 2; ++i) {
      GSP_CUDA(cudaEventCreateWithFlags(&gathered[i], cudaEventDisableTiming));
      GSP_CUDA(cudaEventCreateWithFlags(&copied[i], cudaEventDisableTiming));
    }
  }
  ~CopyLane() {
    if (stream != nullptr) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
    for (int i = 0; i < 2; ++i) {
      if (gathered[i] != nullptr) cudaEventDestroy(gathered[i]);
      if (copied[i] != nullptr) cudaEventDestroy(copied[i]);
    }
  }
  CopyLane(const CopyLane&) = delete;
  CopyLane& operator=(const CopyLane&) = delete;
};

// The in-place delivery (see the top of the file): blocks of `block` rows
// alternate between two device buffers; block b's gather and check run on
// the compute stream while block b - 1 crosses the bus on the copy lane.
template <class Ops, class W>
void deliver_rows_in_place(RunContext& ctx, const ApspJob& job, const typename Ops::T* D, const int32_t* P, int64_t ld,
                           bool paths, const RowSink::Destination& dst, int32_t block, const int32_t* d_src,
                           StageClock* clock, int64_t row_base) {
  auto mark = [clock](Stage st) {
    if (clock != nullptr) clock->mark(st);
  };
  const int32_t n = job.graph->n();
  const int32_t ns = job.num_sources;
  const bool check = paths && preds_need_check<W>(job.graph->m(), job.graph->min_weight());
  const size_t cells = (size_t)block * (size_t)n;
  DeviceBuffer<W> d_out[2];
  DeviceBuffer<int32_t> p_out[2], anc0, anc1;
  DeviceBuffer<int> d_bad;
  for (int i = 0; i < 2; ++i) {
    d_out[i].allocate(ctx, cells, "APSP row block (distances)");
    if (paths) p_out[i].allocate(ctx, cells, "APSP row block (predecessors)");
  }
  if (check) {
    anc0.allocate(ctx, cells, "APSP predecessor check");
    anc1.allocate(ctx, cells, "APSP predecessor check");
    d_bad.allocate(ctx, (size_t)ns, "APSP predecessor check flags");
    GSP_CUDA(cudaMemsetAsync(d_bad.get(), 0, (size_t)ns * sizeof(int), ctx.stream()));
  }
  CopyLane lane;
  const cudaStream_t cs = ctx.stream();
  for (int32_t first = 0, b = 0; first < ns; first += block, ++b) {
    const int32_t rows = std::min(block, ns - first);
    const int64_t work = (int64_t)rows * n;
    const int slot = b & 1;
    if (work == 0) continue;
    // The copy of block b - 2 read this slot last.
    if (b >= 2) GSP_CUDA(cudaStreamWaitEvent(cs, lane.copied[slot], 0));
    const unsigned blocks = (unsigned)std::min<int64_t>(blocks_for(work, 256), 65535LL * 8);
    gather_rows_kernel<Ops, W><<<blocks, 256, 0, cs>>>(D, P, ld, n, d_src + first, rows, d_out[slot].get(),
                                                       paths ? p_out[slot].get() : nullptr, row_base);
    GSP_CUDA_LAUNCH();
    mark(Stage::kCopy);
    GSP_CUDA(cudaEventRecord(lane.gathered[slot], cs));
    GSP_CUDA(cudaStreamWaitEvent(lane.stream, lane.gathered[slot], 0));
    const size_t at = (size_t)first * (size_t)n;
    GSP_CUDA(cudaMemcpyAsync(static_cast<W*>(dst.dist) + at, d_out[slot].get(), (size_t)work * sizeof(W),
                             cudaMemcpyDeviceToHost, lane.stream));
    if (paths) {
      GSP_CUDA(cudaMemcpyAsync(dst.pred + at, p_out[slot].get(), (size_t)work * sizeof(int32_t), cudaMemcpyDeviceToHost,
                               lane.stream));
    }
    GSP_CUDA(cudaEventRecord(lane.copied[slot], lane.stream));
    if (check) {
      check_pred_rows<W>(p_out[slot].get(), d_out[slot].get(), d_src + first, rows, n, anc0.get(), anc1.get(),
                         d_bad.get() + first, cs);
      mark(Stage::kPaths);
    }
  }
  std::vector<int> bad(check ? (size_t)ns : 0);
  if (check) {
    GSP_CUDA(cudaMemcpyAsync(bad.data(), d_bad.get(), (size_t)ns * sizeof(int), cudaMemcpyDeviceToHost, cs));
  }
  ctx.sync();
  GSP_CUDA(cudaStreamSynchronize(lane.stream));
  mark(Stage::kCopy);  // the last blocks' copies
  if (check) {
    const CsrView<W> g = job.graph->view<W>();
    PredRepairScratch scratch;
    for (int32_t r = 0; r < ns; ++r) {
      if (bad[(size_t)r] == 0) continue;
      const size_t at = (size_t)r * (size_t)n;
      rebuild_pred_row<W>(g, job.sources[r], static_cast<const W*>(dst.dist) + at, dst.pred + at, scratch);
    }
    mark(Stage::kPaths);
  }
  for (int32_t first = 0; first < ns; first += block) job.sink->rows_written(first, std::min(block, ns - first));
}

// Through page-locked staging to sink->rows(), block by block (streams).
template <class Ops, class W>
void deliver_rows_staged(RunContext& ctx, const ApspJob& job, const typename Ops::T* D, const int32_t* P, int64_t ld,
                         bool paths, int32_t block, const int32_t* d_src, StageClock* clock, int64_t row_base) {
  auto mark = [clock](Stage st) {
    if (clock != nullptr) clock->mark(st);
  };
  const int32_t n = job.graph->n();
  const int32_t ns = job.num_sources;
  const bool check = paths && preds_need_check<W>(job.graph->m(), job.graph->min_weight());
  const size_t cells = (size_t)block * (size_t)n;
  DeviceBuffer<W> d_out(ctx, cells, "APSP row block (distances)");
  DeviceBuffer<int32_t> p_out;
  if (paths) p_out.allocate(ctx, cells, "APSP row block (predecessors)");
  HostBuffer h_d(cells * sizeof(W));
  HostBuffer h_p(paths ? cells * sizeof(int32_t) : 0);
  DeviceBuffer<int32_t> anc0, anc1;
  DeviceBuffer<int> d_bad;
  std::vector<int> bad;
  PredRepairScratch scratch;
  if (check) {
    anc0.allocate(ctx, cells, "APSP predecessor check");
    anc1.allocate(ctx, cells, "APSP predecessor check");
    d_bad.allocate(ctx, (size_t)block, "APSP predecessor check flags");
    bad.resize((size_t)block);
  }
  for (int32_t first = 0; first < ns; first += block) {
    const int32_t rows = std::min(block, ns - first);
    const int64_t work = (int64_t)rows * n;
    if (work > 0) {
      const unsigned blocks = (unsigned)std::min<int64_t>(blocks_for(work, 256), 65535LL * 8);
      gather_rows_kernel<Ops, W><<<blocks, 256, 0, ctx.stream()>>>(D, P, ld, n, d_src + first, rows, d_out.get(),
                                                                   paths ? p_out.get() : nullptr, row_base);
      GSP_CUDA_LAUNCH();
      GSP_CUDA(
          cudaMemcpyAsync(h_d.as<W>(), d_out.get(), (size_t)work * sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
      if (paths) {
        GSP_CUDA(cudaMemcpyAsync(h_p.as<int32_t>(), p_out.get(), (size_t)work * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                 ctx.stream()));
      }
      mark(Stage::kCopy);
      if (check) {
        GSP_CUDA(cudaMemsetAsync(d_bad.get(), 0, (size_t)rows * sizeof(int), ctx.stream()));
        check_pred_rows<W>(p_out.get(), d_out.get(), d_src + first, rows, n, anc0.get(), anc1.get(), d_bad.get(),
                           ctx.stream());
        GSP_CUDA(
            cudaMemcpyAsync(bad.data(), d_bad.get(), (size_t)rows * sizeof(int), cudaMemcpyDeviceToHost, ctx.stream()));
      }
    }
    ctx.sync();
    if (check && work > 0) mark(Stage::kPaths);
    if (check && work > 0) {
      const CsrView<W> g = job.graph->view<W>();
      for (int32_t r = 0; r < rows; ++r) {
        if (bad[(size_t)r]) {
          rebuild_pred_row<W>(g, job.sources[first + r], h_d.as<W>() + (size_t)r * n, h_p.as<int32_t>() + (size_t)r * n,
                              scratch);
        }
      }
      mark(Stage::kPaths);
    }
    job.sink->rows(first, rows, h_d.as<W>(), paths ? h_p.as<int32_t>() : nullptr);
    mark(Stage::kCopy);
  }
}

// Hands the job's rows of a device matrix (D, P with leading dimension ld)
// to job.sink, converted to the API's representation: in place when the
// sink has a destination (ask for it early, while the device computes, so
// that its allocation overlaps: `dst` non-null), else staged. With a stage
// clock, the gathering and copying is marked copy and the predecessor check
// and rebuild paths. D's first row is vertex row_base's (0: the whole matrix).
template <class Ops, class W>
void deliver_rows_device(RunContext& ctx, const ApspJob& job, const typename Ops::T* D, const int32_t* P, int64_t ld,
                         bool paths, const RowSink::Destination* dst = nullptr, StageClock* clock = nullptr,
                         int64_t row_base = 0) {
  const int32_t ns = job.num_sources;
  if (ns <= 0) return;
  RowSink::Destination here;
  if (dst == nullptr && job.sink->destination(&here) && here.page_locked) dst = &here;
  const int32_t block = std::max(1, std::min(job.sink->preferred_block_rows(), ns));
  DeviceBuffer<int32_t> d_src(ctx, (size_t)ns, "APSP source list");
  GSP_CUDA(
      cudaMemcpyAsync(d_src.get(), job.sources, (size_t)ns * sizeof(int32_t), cudaMemcpyHostToDevice, ctx.stream()));
  if (dst != nullptr) {
    deliver_rows_in_place<Ops, W>(ctx, job, D, P, ld, paths, *dst, block, d_src.get(), clock, row_base);
  } else {
    deliver_rows_staged<Ops, W>(ctx, job, D, P, ld, paths, block, d_src.get(), clock, row_base);
  }
}

}  // namespace gsp::detail::gpu::dense
