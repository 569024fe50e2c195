// The host side of the pass-based sparse APSP engines (batched
// delta-stepping, apsp_delta_stepping.cu; min-plus SpMM, apsp_spmm.cu):
// the sources run in passes of `width`. Each pass is started on the run's
// stream, and while it runs the previous pass's rows are handed over: its
// int32 overflow verdict is read, then its rows, already copying on a
// second stream, go straight into the result when the sink has one
// (page-locked: full-speed copies), else through pinned staging blocks to
// the sink; a sink that keeps only some columns (a table without paths:
// RowSink::columns) gets just those, gathered on the device. Rows whose
// predecessors may not form a tree are checked and rebuilt on the host
// (core/pred_repair.h) before the sink sees them.
//
// An engine supplies (all on ctx.stream()):
//   void start(const int32_t* sources, int32_t count);  enqueue a pass
//   void wait();                                        wait for it (throws when it failed)
//   void emit(int32_t count, W* dist, int32_t* pred, int* flags);
//       enqueue the kernels that write the pass's rows (count x n,
//       row-major; pred null without paths) and its flags: flags[0] != 0
//       with (flags[1], flags[2]) an arc whose int32 sum would overflow,
//       flags[3] != 0 when some predecessor row needs the host check. The
//       flags are zeroed before emit.
#pragma once

#include <algorithm>
#include <memory>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "core/pred_repair.h"
#include "runtime/stage_clock.cuh"

namespace gsp::detail::gpu::sparse {

// A pass's narrow rows (RowSink::columns): out[r][j] = dist[r][cols[j]].
template <class W>
__global__ void gather_columns_kernel(const W* dist, int64_t n, const int32_t* cols, int64_t t, int64_t rows,
                                      W* out) {
  const int64_t total = rows * t;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    out[e] = dist[(e / t) * n + cols[e % t]];
  }
}

// Waits for both streams when the run leaves its scope, by error too: a
// pass may still be running while the previous one's rows are handed over,
// and nothing it uses may be freed under it.
struct DrainStreams {
  cudaStream_t a;
  cudaStream_t b;
  ~DrainStreams() {
    cudaStreamSynchronize(a);
    cudaStreamSynchronize(b);
  }
};

// Runs job.sources in passes of `width` through `engine`. check_all_rows:
// every predecessor row is checked (else only those of passes whose
// flags[3] is set). Stages: the passes compute (the copies of earlier
// passes overlap them), the last pass's rows copy.
template <class W, class Engine>
void run_passes(RunContext& ctx, const ApspJob& job, int32_t width, bool check_all_rows, StageClock& clock,
                Engine& engine) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const bool paths = job.options->want_paths;
  const size_t out_labels = static_cast<size_t>(width) * n;
  DeviceBuffer<W> out_dist(ctx, out_labels, "sparse APSP distance rows");
  DeviceBuffer<int32_t> out_pred(ctx, paths ? out_labels : 0, "sparse APSP predecessor rows");
  DeviceBuffer<int> flags(ctx, 4, "sparse APSP pass flags");
  PinnedBuffer host_flags;
  host_flags.allocate(4 * sizeof(int));
  CopyStream copy;
  Event emitted, flagged, copied;
  DrainStreams drain{ctx.stream(), copy.get()};

  PredRepairScratch scratch;
  bool check_pass = check_all_rows;  // the rows being handed over
  auto check_rows = [&](int32_t first, int32_t rows, void* dist, int32_t* pred) {
    if (!check_pass || pred == nullptr) return;
    repair_pred_block(graph.view<W>(), job.sources + first, rows, static_cast<const W*>(dist), pred, scratch);
  };
  RowSink::Destination dest;
  bool direct = false;
  bool asked = false;
  std::unique_ptr<RowDeliverer> staged;
  // Narrow rows (a table without paths): only the sink's columns cross the
  // bus, gathered on the device into `narrow` and copied to `narrow_host`.
  const std::vector<int32_t>* cols = paths ? nullptr : job.sink->columns();
  const int64_t t = cols != nullptr ? static_cast<int64_t>(cols->size()) : 0;
  DeviceBuffer<int32_t> d_cols;
  DeviceBuffer<W> narrow;
  PinnedBuffer narrow_host;
  if (cols != nullptr) {
    d_cols.allocate(ctx, static_cast<size_t>(t), "sparse APSP sink columns");
    narrow.allocate(ctx, static_cast<size_t>(width) * static_cast<size_t>(t), "sparse APSP narrow rows");
    narrow_host.allocate(static_cast<size_t>(width) * static_cast<size_t>(t) * sizeof(W));
    GSP_CUDA(cudaMemcpyAsync(d_cols.get(), cols->data(), static_cast<size_t>(t) * sizeof(int32_t),
                             cudaMemcpyHostToDevice, ctx.stream()));
  }

  // Hands the emitted pass [first, first + count) over. Returns when
  // out_dist / out_pred are free again.
  auto hand_over = [&](int32_t first, int32_t count) {
    GSP_CUDA(cudaEventSynchronize(flagged.get()));
    const int* f = static_cast<const int*>(host_flags.get());
    if (f[0] != 0) throw_overflow(f[1], f[2]);
    check_pass = paths && (check_all_rows || f[3] != 0);
    if (cols != nullptr) {
      GSP_CUDA(cudaEventSynchronize(copied.get()));
      job.sink->narrow_rows(first, count, narrow_host.get());
    } else if (direct) {
      GSP_CUDA(cudaEventSynchronize(copied.get()));
      const size_t at = static_cast<size_t>(first) * n;
      check_rows(first, count, static_cast<W*>(dest.dist) + at,
                 (paths && dest.pred != nullptr) ? dest.pred + at : nullptr);
      job.sink->rows_written(first, count);
    } else {
      staged->deliver(first, count, out_dist.get(), paths ? out_pred.get() : nullptr, copy.get());
    }
    job.options->report(static_cast<double>(first + count) / job.num_sources);
  };

  int32_t pending_first = 0;
  int32_t pending_count = 0;
  for (int64_t at = 0;; at += width) {
    const int32_t first = static_cast<int32_t>(std::min<int64_t>(at, job.num_sources));
    const int32_t count = std::min(width, job.num_sources - first);
    if (count > 0) engine.start(job.sources + first, count);
    if (!asked && cols == nullptr) {  // while the first pass runs: the result may allocate
      asked = true;
      direct = job.sink->destination(&dest);
      if (!direct) {
        staged = std::make_unique<RowDeliverer>(ctx, job);
        staged->set_fix(check_rows);
      }
    }
    if (pending_count > 0) hand_over(pending_first, pending_count);
    if (count <= 0) break;
    engine.wait();

    // The previous pass's rows are out (hand_over returned): emit this
    // one's, then copy them on the copy stream behind the kernels.
    const size_t labels = static_cast<size_t>(count) * n;
    GSP_CUDA(cudaMemsetAsync(flags.get(), 0, 4 * sizeof(int), ctx.stream()));
    engine.emit(count, out_dist.get(), paths ? out_pred.get() : nullptr, flags.get());
    clock.mark(Stage::kCompute);
    GSP_CUDA(cudaEventRecord(emitted.get(), ctx.stream()));
    GSP_CUDA(cudaStreamWaitEvent(copy.get(), emitted.get(), 0));
    GSP_CUDA(cudaMemcpyAsync(host_flags.get(), flags.get(), 4 * sizeof(int), cudaMemcpyDeviceToHost, copy.get()));
    GSP_CUDA(cudaEventRecord(flagged.get(), copy.get()));
    if (cols != nullptr) {
      const int64_t cells = static_cast<int64_t>(count) * t;
      if (cells > 0) {
        const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(blocks_for(cells, 256), 65535LL * 8));
        gather_columns_kernel<W><<<blocks, 256, 0, copy.get()>>>(out_dist.get(), n, d_cols.get(), t, count,
                                                                  narrow.get());
        GSP_CUDA_LAUNCH();
        GSP_CUDA(cudaMemcpyAsync(narrow_host.get(), narrow.get(), static_cast<size_t>(cells) * sizeof(W),
                                 cudaMemcpyDeviceToHost, copy.get()));
      }
      GSP_CUDA(cudaEventRecord(copied.get(), copy.get()));
    } else if (direct) {
      const size_t out_at = static_cast<size_t>(first) * n;
      GSP_CUDA(cudaMemcpyAsync(static_cast<W*>(dest.dist) + out_at, out_dist.get(), labels * sizeof(W),
                               cudaMemcpyDeviceToHost, copy.get()));
      if (paths && dest.pred != nullptr) {
        GSP_CUDA(cudaMemcpyAsync(dest.pred + out_at, out_pred.get(), labels * sizeof(int32_t),
                                 cudaMemcpyDeviceToHost, copy.get()));
      }
      GSP_CUDA(cudaEventRecord(copied.get(), copy.get()));
    }
    pending_first = first;
    pending_count = count;
  }
  clock.mark(Stage::kCopy);
  clock.finish();
}

}  // namespace gsp::detail::gpu::sparse
