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
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "core/host_task.h"
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

// From this size on, a result array with a destination is made ready on a
// host thread while the engine sets up and its first passes run: below it,
// faulting in and page-locking take about a pass or less.
constexpr double kPrepareBesideBytes = 256.0 * (1 << 20);

// A result array being made ready (RowSink::prepare_destination, then
// destination) on a host thread: a first call's array is new memory to
// fault in and page-lock (NY, 1024 rows with paths: 2.2 GB, about 0.1 s,
// several passes). The faulting in makes no CUDA call and overlaps the
// engine's set-up; the page-locking runs on the run's device.
struct ResultReady {
  RowSink::Destination dest;
  bool direct = false;
  std::unique_ptr<HostTask> task;
};

// Started by a pass-based engine first thing; null where the sink has no
// destination, keeps narrow rows, or the array is small.
template <class W>
std::unique_ptr<ResultReady> start_result_ready(RunContext& ctx, const ApspJob& job) {
  const bool paths = job.options->want_paths;
  const size_t cell_bytes = sizeof(W) + (paths ? sizeof(int32_t) : 0);
  const int32_t late_ms = job.options->test_result_ready_delay_ms;  // test builds only
  const bool large =
      static_cast<double>(job.num_sources) * job.graph->n() * static_cast<double>(cell_bytes) >= kPrepareBesideBytes;
  if ((!paths && job.sink->columns() != nullptr) || !job.sink->has_destination() || (!large && late_ms <= 0)) {
    return nullptr;
  }
  auto ready = std::make_unique<ResultReady>();
  ResultReady* r = ready.get();
  const int device = ctx.device();
  RowSink* sink = job.sink;
  ready->task = std::make_unique<HostTask>([r, sink, device, late_ms] {
    if (late_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(late_ms));
    sink->prepare_destination();
    GSP_CUDA(cudaSetDevice(device));  // page-locking is a CUDA call: this run's device, no other
    r->direct = sink->destination(&r->dest) && r->dest.page_locked;
  });
  return ready;
}

// Runs job.sources in passes of `width` through `engine`. check_all_rows:
// every predecessor row is checked (else only those of passes whose
// flags[3] is set). Stages: the passes compute (the copies of earlier
// passes overlap them), the last pass's rows copy.
template <class W, class Engine>
void run_passes(RunContext& ctx, const ApspJob& job, int32_t width, bool check_all_rows, StageClock& clock,
                Engine& engine, std::unique_ptr<ResultReady> ready) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const bool paths = job.options->want_paths;
  const size_t out_labels = static_cast<size_t>(width) * n;
  DeviceBuffer<W> out_dist(ctx, out_labels, "sparse APSP distance rows");
  DeviceBuffer<int32_t> out_pred(ctx, paths ? out_labels : 0, "sparse APSP predecessor rows");
  DeviceBuffer<W> held_dist;  // rows held while the result's array is made ready (below)
  DeviceBuffer<int32_t> held_pred;
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

  // A large result array made ready beside the engine's set-up and first
  // passes (start_result_ready): the passes that end before it is ready
  // write their rows into `held` on the device instead of out_dist, and
  // they cross at full speed once it is (resolve()). Where the device has
  // no room to hold them, the next pass waits.
  const size_t cell_bytes = sizeof(W) + (paths ? sizeof(int32_t) : 0);
  struct Held {
    int32_t first, count;
    size_t at;  // labels into held_dist / held_pred
    bool check;
  };
  std::vector<Held> held;     // passes whose rows wait on the device
  std::vector<Held> flushing;  // held passes whose rows are crossing (event `flushed`)
  Event flushed;
  size_t held_used = 0;
  bool no_room = false;  // the held arrays could not be allocated

  // The held passes whose rows crossed: checked and handed to the sink, in
  // order (before any later pass).
  auto finish_flush = [&] {
    if (flushing.empty()) return;
    GSP_CUDA(cudaEventSynchronize(flushed.get()));
    for (const Held& h : flushing) {
      const size_t out_at = static_cast<size_t>(h.first) * n;
      check_pass = h.check;
      check_rows(h.first, h.count, static_cast<W*>(dest.dist) + out_at,
                 (paths && dest.pred != nullptr) ? dest.pred + out_at : nullptr);
      job.sink->rows_written(h.first, h.count);
    }
    flushing.clear();
  };

  // Hands the emitted pass [first, first + count) over. Returns when
  // out_dist / out_pred are free again.
  auto hand_over = [&](int32_t first, int32_t count, bool was_held, size_t held_at) {
    finish_flush();
    GSP_CUDA(cudaEventSynchronize(flagged.get()));
    const int* f = static_cast<const int*>(host_flags.get());
    if (f[0] != 0) throw_overflow(f[1], f[2]);
    check_pass = paths && (check_all_rows || f[3] != 0);
    if (was_held) {
      held.push_back(Held{first, count, held_at, check_pass});
    } else if (cols != nullptr) {
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

  // The rows held so far, to the array (or staged, where the sink gave
  // none after all), in order. Into the array they cross on the copy
  // stream while the passes go on; the next hand-over finishes them
  // (finish_flush). The held arrays stay until the run ends (freeing them
  // now would wait for the device).
  auto flush_held = [&] {
    if (held.empty()) return;
    if (direct) {
      for (const Held& h : held) {
        const size_t out_at = static_cast<size_t>(h.first) * n, labels = static_cast<size_t>(h.count) * n;
        GSP_CUDA(cudaMemcpyAsync(static_cast<W*>(dest.dist) + out_at, held_dist.get() + h.at, labels * sizeof(W),
                                 cudaMemcpyDeviceToHost, copy.get()));
        if (paths && dest.pred != nullptr) {
          GSP_CUDA(cudaMemcpyAsync(dest.pred + out_at, held_pred.get() + h.at, labels * sizeof(int32_t),
                                   cudaMemcpyDeviceToHost, copy.get()));
        }
      }
      GSP_CUDA(cudaEventRecord(flushed.get(), copy.get()));
      flushing = held;
    } else {
      for (const Held& h : held) {
        check_pass = h.check;
        staged->deliver(h.first, h.count, held_dist.get() + h.at, paths ? held_pred.get() + h.at : nullptr,
                        copy.get());
      }
    }
    held.clear();
  };
  // The array is ready (or its making failed: rethrown): the held rows go.
  auto resolve = [&] {
    ready->task->join();
    direct = ready->direct;
    dest = ready->dest;
    ready.reset();
    if (!direct) {
      staged = std::make_unique<RowDeliverer>(ctx, job);
      staged->set_fix(check_rows);
    }
    flush_held();
  };
  // Whether the device can hold `count` more rows (the held arrays are
  // allocated at the first pass held: room for every row still to come,
  // within half of what the budget has left).
  auto room_for = [&](int32_t first, int32_t count) {
    if (no_room) return false;
    if (held_dist.get() == nullptr) {
      const size_t row_bytes = static_cast<size_t>(n) * cell_bytes;
      const size_t rows = std::min<size_t>(static_cast<size_t>(job.num_sources - first), ctx.budget_left() / 2 / row_bytes);
      try {
        if (rows < static_cast<size_t>(count)) throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "no room");
        held_dist.allocate(ctx, rows * n, "sparse APSP rows held for the result");
        if (paths) held_pred.allocate(ctx, rows * n, "sparse APSP predecessor rows held for the result");
      } catch (const Error&) {
        held_dist.reset();
        held_pred.reset();
        no_room = true;
        return false;
      }
    }
    return held_used + static_cast<size_t>(count) * n <= held_dist.size();
  };

  int32_t pending_first = 0;
  int32_t pending_count = 0;
  bool pending_held = false;
  size_t pending_at = 0;
  for (int64_t at = 0;; at += width) {
    const int32_t first = static_cast<int32_t>(std::min<int64_t>(at, job.num_sources));
    const int32_t count = std::min(width, job.num_sources - first);
    if (count > 0) engine.start(job.sources + first, count);
    if (!asked && cols == nullptr) {  // while the first pass runs: the result may allocate
      asked = true;
      if (ready == nullptr) {
        direct = job.sink->destination(&dest) && dest.page_locked;
        if (!direct) {
          staged = std::make_unique<RowDeliverer>(ctx, job);
          staged->set_fix(check_rows);
        }
      }
    }
    if (pending_count > 0) hand_over(pending_first, pending_count, pending_held, pending_at);
    if (count <= 0) break;
    // Where the result's array is being made ready: this pass's rows are
    // held too, or (ready, or no room) the held ones go now. Decided while
    // this pass computes once rows are held (the copies overlap it), else
    // after it (the first pass's time lets a quick making end: a repeated
    // call's array comes ready from the cache).
    bool hold = false;
    bool decided = false;
    auto decide = [&] {
      decided = true;
      if (ready == nullptr) return;
      if (ready->task->done() || !room_for(first, count)) {
        resolve();
      } else {
        hold = true;
      }
    };
    if (!held.empty()) decide();
    engine.wait();
    if (!decided) decide();

    // The previous pass's rows are out (hand_over returned): emit this
    // one's, then copy them on the copy stream behind the kernels (or hold
    // them on the device while the result's array is being made ready).
    const size_t labels = static_cast<size_t>(count) * n;
    W* to_dist = hold ? held_dist.get() + held_used : out_dist.get();
    int32_t* to_pred = !paths ? nullptr : hold ? held_pred.get() + held_used : out_pred.get();
    GSP_CUDA(cudaMemsetAsync(flags.get(), 0, 4 * sizeof(int), ctx.stream()));
    engine.emit(count, to_dist, to_pred, flags.get());
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
    } else if (hold) {
      pending_at = held_used;
      held_used += labels;
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
    pending_held = hold;
  }
  if (ready != nullptr) resolve();  // every pass ended before the array was ready
  finish_flush();
  clock.mark(Stage::kCopy);
  clock.finish();
}

}  // namespace gsp::detail::gpu::sparse
