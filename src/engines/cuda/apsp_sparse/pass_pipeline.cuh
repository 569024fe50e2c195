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
//   [[noreturn]] void overflow(int32_t f1, int32_t f2);
//       throws the GSP_ERR_OVERFLOW that flags[0] stands for (the
//       searches: core/engine.h's throw_overflow for the arc f1 -> f2).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "apsp_sparse/held_rows.cuh"
#include "core/host_task.h"
#include "core/pred_repair.h"
#include "runtime/stage_clock.cuh"

namespace gsp::detail::gpu::sparse {

// A pass's narrow rows (RowSink::columns): out[r][j] = dist[r][cols[j]].
template <class W>
__global__ void gather_columns_kernel(const W* dist, int64_t n, const int32_t* cols, int64_t t, int64_t rows, W* out) {
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
// engine's set-up; the page-locking runs on the run's device. Staging a
// new array's rows instead, and locking it only for later runs, was slower
// on an H100 host (first call 0.33 s against 0.22 s: copies into fresh
// pageable memory run at a few GB/s, and locking 2 GiB takes 0.06 s there).
struct ResultReady {
  RowSink::Destination dest;
  bool direct = false;
  std::unique_ptr<HostTask> task;
  // When the task started, made the array (faulted in) and locked it, for
  // GSP_CUDA_TRACE (PassTrace).
  std::chrono::steady_clock::time_point began, made, locked;
};

// GSP_CUDA_TRACE: a pass-based engine's timeline on stderr, one line an
// event (milliseconds since the process's first traced event), to see where
// a call's time goes (set-up, a first call's result array, held rows, the
// passes).
class PassTrace {
 public:
  explicit PassTrace(bool on) : on_(on), origin_(origin()) {}
  void at(const char* what, int64_t a = -1, int64_t b = -1) const {
    if (on_)
      std::fprintf(stderr, "gsp pass trace: %9.3f ms %s %lld %lld\n", ms(std::chrono::steady_clock::now()), what,
                   static_cast<long long>(a), static_cast<long long>(b));
  }
  void ready(const ResultReady& r) const {
    if (on_) {
      std::fprintf(stderr, "gsp pass trace: result array task began %.3f ms, made %.3f ms, locked %.3f ms\n",
                   ms(r.began), ms(r.made), ms(r.locked));
    }
  }

 private:
  static std::chrono::steady_clock::time_point origin() {
    static const std::chrono::steady_clock::time_point first = std::chrono::steady_clock::now();
    return first;
  }
  double ms(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration<double, std::milli>(t - origin_).count();
  }
  bool on_;
  std::chrono::steady_clock::time_point origin_;
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
  // Locked in pieces (core/gpu_runtime.h): a whole registration would stall
  // the passes' CUDA calls until it ended.
  const size_t piece = job.options->test_lock_piece_bytes > 0 ? job.options->test_lock_piece_bytes : kLockPieceBytes;
  ready->task = std::make_unique<HostTask>([r, sink, device, late_ms, piece] {
    r->began = std::chrono::steady_clock::now();
    if (late_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(late_ms));
    sink->prepare_destination(piece);
    r->made = std::chrono::steady_clock::now();
    GSP_CUDA(cudaSetDevice(device));  // page-locking is a CUDA call: this run's device, no other
    r->direct = sink->destination(&r->dest) && r->dest.page_locked;
    r->locked = std::chrono::steady_clock::now();
  });
  return ready;
}

// Runs job.sources in passes of `width` through an engine (run_passes
// below). Each pass: started; the previous pass handed over while it runs
// (hand_over); its rows emitted and sent on behind it (emit_and_send).
// check_all_rows: every predecessor row is checked (else only those of
// passes whose flags[3] is set). Stages: the passes compute (the copies of
// earlier passes overlap them), the last pass's rows copy.
template <class W, class Engine>
class PassRunner {
 public:
  PassRunner(RunContext& ctx, const ApspJob& job, int32_t width, bool check_all_rows, Engine& engine,
             std::unique_ptr<ResultReady> ready)
      : ctx_(ctx),
        job_(job),
        n_(job.graph->n()),
        width_(width),
        paths_(job.options->want_paths),
        check_all_rows_(check_all_rows),
        engine_(engine),
        ready_(std::move(ready)),
        out_dist_(ctx, static_cast<size_t>(width) * n_, "sparse APSP distance rows"),
        out_pred_(ctx, paths_ ? static_cast<size_t>(width) * n_ : 0, "sparse APSP predecessor rows"),
        held_(ctx, n_, paths_, job.num_sources),
        flags_(ctx, 4, "sparse APSP pass flags"),
        check_pass_(check_all_rows),
        cols_(paths_ ? nullptr : job.sink->columns()),
        t_(cols_ != nullptr ? static_cast<int64_t>(cols_->size()) : 0),
        trace_(job.options->tuning.cuda_trace) {
    host_flags_.allocate(4 * sizeof(int));
    if (cols_ != nullptr) prepare_narrow();
  }

  void run(StageClock& clock) {
    Pass pending;
    for (int64_t at = 0;; at += width_) {
      Pass pass;
      pass.first = static_cast<int32_t>(std::min<int64_t>(at, job_.num_sources));
      pass.count = std::min(width_, job_.num_sources - pass.first);
      if (pass.count > 0) engine_.start(job_.sources + pass.first, pass.count);
      trace_.at("pass started", pass.first, pass.count);
      if (!asked_ && cols_ == nullptr) ask_destination();  // while the first pass runs
      if (pending.count > 0) hand_over(pending);
      trace_.at("previous pass handed over", pending.first, pending.count);
      if (pass.count <= 0) break;
      // Where the result's array is being made ready: this pass's rows are
      // held too, or (ready, or no room) the held ones go now. Decided while
      // this pass computes once rows are held (the copies overlap it), else
      // after it (the first pass's time lets a quick making end: a repeated
      // call's array comes ready from the cache).
      const bool early = held_.waiting();
      if (early) pass.held = decide_hold(pass);
      engine_.wait();
      trace_.at("pass searched", pass.first, pass.count);
      if (!early) pass.held = decide_hold(pass);
      emit_and_send(pass);
      trace_.at(pass.held ? "pass emitted, rows held" : "pass emitted", pass.first, pass.count);
      clock.mark(Stage::kCompute);
      pending = pass;
    }
    if (ready_ != nullptr) resolve();  // every pass ended before the array was ready
    finish_held();
    trace_.at("rows delivered");
    clock.mark(Stage::kCopy);
    clock.finish();
  }

 private:
  struct Pass {
    int32_t first = 0;
    int32_t count = 0;
    bool held = false;  // rows held on the device (HeldRows) at held_at
    size_t held_at = 0;
  };

  // Checks (and repairs) a block of predecessor rows in host memory where
  // the pass being handed over needs it.
  void check_rows(int32_t first, int32_t rows, void* dist, int32_t* pred) {
    if (!check_pass_ || pred == nullptr) return;
    repair_pred_block(job_.graph->view<W>(), job_.sources + first, rows, static_cast<const W*>(dist), pred, scratch_);
  }
  void make_staged() {
    staged_ = std::make_unique<RowDeliverer>(ctx_, job_);
    staged_->set_fix(
        [this](int32_t first, int32_t rows, void* dist, int32_t* pred) { check_rows(first, rows, dist, pred); });
  }

  // Narrow rows (a table without paths): only the sink's columns cross the
  // bus, gathered on the device into narrow_ and copied to narrow_host_.
  void prepare_narrow() {
    d_cols_.allocate(ctx_, static_cast<size_t>(t_), "sparse APSP sink columns");
    narrow_.allocate(ctx_, static_cast<size_t>(width_) * static_cast<size_t>(t_), "sparse APSP narrow rows");
    narrow_host_.allocate(static_cast<size_t>(width_) * static_cast<size_t>(t_) * sizeof(W));
    GSP_CUDA(cudaMemcpyAsync(d_cols_.get(), cols_->data(), static_cast<size_t>(t_) * sizeof(int32_t),
                             cudaMemcpyHostToDevice, ctx_.stream()));
  }

  // While the first pass runs, the result may allocate (where no host
  // thread is making it ready).
  void ask_destination() {
    asked_ = true;
    if (ready_ != nullptr) return;
    direct_ = job_.sink->destination(&dest_) && dest_.page_locked;
    if (!direct_) make_staged();
  }

  // Whether `pass` holds its rows on the device; where the array became
  // ready (or the device has no room), the held rows go now (resolve).
  bool decide_hold(const Pass& pass) {
    if (ready_ == nullptr) return false;
    if (ready_->task->done() || !held_.room_for(pass.first, pass.count)) {
      resolve();
      return false;
    }
    return true;
  }

  // The array is ready (or its making failed: rethrown): the held rows go,
  // straight into it (the copies overlap the passes; the next hand-over
  // finishes them) or through staging.
  void resolve() {
    trace_.at("waiting for the result array");
    ready_->task->join();
    trace_.ready(*ready_);
    direct_ = ready_->direct;
    dest_ = ready_->dest;
    ready_.reset();
    if (direct_) {
      held_.send(dest_, copy_.get());
      return;
    }
    make_staged();
    held_.send_staged([&](int32_t first, int32_t count, const W* d, const int32_t* p, bool check) {
      check_pass_ = check;
      staged_->deliver(first, count, d, p, copy_.get());
    });
  }

  // The held passes whose rows crossed: checked and handed to the sink, in
  // order (before any later pass).
  void finish_held() {
    held_.finish([&](int32_t first, int32_t count, bool check) {
      check_pass_ = check;
      rows_in_place(first, count);
    });
  }
  void rows_in_place(int32_t first, int32_t count) {
    const size_t at = static_cast<size_t>(first) * n_;
    check_rows(first, count, static_cast<W*>(dest_.dist) + at,
               (paths_ && dest_.pred != nullptr) ? dest_.pred + at : nullptr);
    job_.sink->rows_written(first, count);
  }

  // Hands the emitted pass over. Returns when out_dist_ / out_pred_ are
  // free again.
  void hand_over(const Pass& pass) {
    finish_held();
    GSP_CUDA(cudaEventSynchronize(flagged_.get()));
    const int* f = static_cast<const int*>(host_flags_.get());
    if (f[0] != 0) engine_.overflow(f[1], f[2]);
    check_pass_ = paths_ && (check_all_rows_ || f[3] != 0);
    if (pass.held) {
      held_.add(pass.first, pass.count, pass.held_at, check_pass_);
    } else if (cols_ != nullptr) {
      GSP_CUDA(cudaEventSynchronize(copied_.get()));
      job_.sink->narrow_rows(pass.first, pass.count, narrow_host_.get());
    } else if (direct_) {
      GSP_CUDA(cudaEventSynchronize(copied_.get()));
      rows_in_place(pass.first, pass.count);
    } else {
      staged_->deliver(pass.first, pass.count, out_dist_.get(), paths_ ? out_pred_.get() : nullptr, copy_.get());
    }
    job_.options->report(static_cast<double>(pass.first + pass.count) / job_.num_sources);
  }

  // The previous pass's rows are out (hand_over returned): emits this
  // one's, then copies them on the copy stream behind the kernels (or holds
  // them on the device while the result's array is being made ready).
  void emit_and_send(Pass& pass) {
    W* to_dist = pass.held ? held_.next_dist() : out_dist_.get();
    int32_t* to_pred = !paths_ ? nullptr : pass.held ? held_.next_pred() : out_pred_.get();
    GSP_CUDA(cudaMemsetAsync(flags_.get(), 0, 4 * sizeof(int), ctx_.stream()));
    engine_.emit(pass.count, to_dist, to_pred, flags_.get());
    GSP_CUDA(cudaEventRecord(emitted_.get(), ctx_.stream()));
    GSP_CUDA(cudaStreamWaitEvent(copy_.get(), emitted_.get(), 0));
    GSP_CUDA(cudaMemcpyAsync(host_flags_.get(), flags_.get(), 4 * sizeof(int), cudaMemcpyDeviceToHost, copy_.get()));
    GSP_CUDA(cudaEventRecord(flagged_.get(), copy_.get()));
    if (cols_ != nullptr) {
      send_narrow(pass.count);
    } else if (pass.held) {
      pass.held_at = held_.take(pass.count);
    } else if (direct_) {
      const size_t out_at = static_cast<size_t>(pass.first) * n_;
      const size_t labels = static_cast<size_t>(pass.count) * n_;
      copy_to_host(static_cast<W*>(dest_.dist) + out_at, out_dist_.get(), labels * sizeof(W), dest_.lock_piece,
                   copy_.get());
      if (paths_ && dest_.pred != nullptr) {
        copy_to_host(dest_.pred + out_at, out_pred_.get(), labels * sizeof(int32_t), dest_.lock_piece, copy_.get());
      }
      GSP_CUDA(cudaEventRecord(copied_.get(), copy_.get()));
    }
  }
  void send_narrow(int32_t count) {
    const int64_t cells = static_cast<int64_t>(count) * t_;
    if (cells > 0) {
      const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(blocks_for(cells, 256), 65535LL * 8));
      gather_columns_kernel<W>
          <<<blocks, 256, 0, copy_.get()>>>(out_dist_.get(), n_, d_cols_.get(), t_, count, narrow_.get());
      GSP_CUDA_LAUNCH();
      GSP_CUDA(cudaMemcpyAsync(narrow_host_.get(), narrow_.get(), static_cast<size_t>(cells) * sizeof(W),
                               cudaMemcpyDeviceToHost, copy_.get()));
    }
    GSP_CUDA(cudaEventRecord(copied_.get(), copy_.get()));
  }

  RunContext& ctx_;
  const ApspJob& job_;
  const int32_t n_;
  const int32_t width_;
  const bool paths_;
  const bool check_all_rows_;
  Engine& engine_;
  std::unique_ptr<ResultReady> ready_;
  DeviceBuffer<W> out_dist_;
  DeviceBuffer<int32_t> out_pred_;
  // Rows held while a large result's array is made ready
  // (start_result_ready): the passes that end before it is ready write
  // theirs there, and they cross at full speed once it is (resolve()).
  HeldRows<W> held_;
  DeviceBuffer<int> flags_;
  PinnedBuffer host_flags_;
  CopyStream copy_;
  Event emitted_, flagged_, copied_;
  PredRepairScratch scratch_;
  bool check_pass_;  // the rows being handed over need the host check
  RowSink::Destination dest_;
  bool direct_ = false;
  bool asked_ = false;
  std::unique_ptr<RowDeliverer> staged_;
  const std::vector<int32_t>* cols_;
  const int64_t t_;
  PassTrace trace_;
  DeviceBuffer<int32_t> d_cols_;
  DeviceBuffer<W> narrow_;
  PinnedBuffer narrow_host_;
  // Last, so first to go: waits for both streams when the run leaves its
  // scope, by error too (a pass may still run while the previous one's rows
  // are handed over; nothing it uses may be freed under it).
  DrainStreams drain_{ctx_.stream(), copy_.get()};
};

template <class W, class Engine>
void run_passes(RunContext& ctx, const ApspJob& job, int32_t width, bool check_all_rows, StageClock& clock,
                Engine& engine, std::unique_ptr<ResultReady> ready) {
  PassRunner<W, Engine>(ctx, job, width, check_all_rows, engine, std::move(ready)).run(clock);
}

}  // namespace gsp::detail::gpu::sparse
