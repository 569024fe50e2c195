// The stage times of a CUDA run, for gsp_run_info (RunStats::stage_seconds,
// core/engine.h; doc/run-info.md lists what each engine counts where).
//
// One timeline per run: a CUDA event on the run's stream at the start and at
// the end of each stage, so the stages are consecutive intervals and never
// add up to more than the run. An event times the device where the stream
// is busy and the host where it is idle (a mark recorded after host work,
// on a drained stream, completes at once), so host stages such as a
// predecessor repair after the last synchronisation are marked the same way.
// Nothing here synchronises in a loop: marks are read as they complete
// (cudaEventQuery) and the rest by finish(), which the engine calls after
// its last synchronisation. A graph upload inside an interval (device_graph
// adds its time to upload_seconds, which gsp_run_info reports apart) is
// taken out of that interval. Any failure of the clock's own CUDA calls
// only loses the stage times, never the run.
#pragma once

#include <cuda_runtime.h>

#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "runtime/device.cuh"

namespace gsp::detail::gpu {

namespace stage_detail {

// Timing events kept for the next run, per device (creating and destroying
// an event costs about as much as recording one; a run records a handful).
struct EventPool {
  std::mutex mu;
  std::map<int, std::vector<cudaEvent_t>> free;
};
inline EventPool& event_pool() {
  static EventPool* pool = new EventPool;  // never destroyed: no CUDA calls at exit
  return *pool;
}

}  // namespace stage_detail

// Destroys the pooled events (release_cached_memory(): nothing is kept).
inline void release_stage_events() {
  stage_detail::EventPool& pool = stage_detail::event_pool();
  std::lock_guard<std::mutex> lock(pool.mu);
  int previous = 0;
  const bool have_previous = cudaGetDevice(&previous) == cudaSuccess;
  for (auto& [device, events] : pool.free) {
    if (cudaSetDevice(device) != cudaSuccess) continue;
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    events.clear();
  }
  if (have_previous) cudaSetDevice(previous);
  (void)cudaGetLastError();
}

class StageClock {
 public:
  // Starts the timeline now (after the engine's graph upload, ideally).
  // Does nothing when the run keeps no stats.
  explicit StageClock(RunContext& ctx) : ctx_(ctx), stats_(ctx.stats()) {
    if (stats_ == nullptr) return;
    upload_ = stats_->upload_seconds;
    push(Stage::kSetup, 0.0);  // the start (its stage is not used)
  }
  ~StageClock() {
    for (const Mark& m : marks_) give(m.ev);
  }
  StageClock(const StageClock&) = delete;
  StageClock& operator=(const StageClock&) = delete;

  // The work enqueued (and the host time spent) since the last mark belongs
  // to stage s. Consecutive marks of one stage share an event.
  void mark(Stage s) {
    if (!on()) return;
    const double up = stats_->upload_seconds - upload_;
    upload_ = stats_->upload_seconds;
    if (marks_.size() >= 2 && marks_.back().stage == s) {
      Mark& last = marks_.back();
      last.upload += up;
      if (!ok(cudaEventRecord(last.ev, ctx_.stream()))) off();
    } else {
      push(s, up);
    }
    if (marks_.size() > 4) harvest(false);
  }

  // Waits for the last mark (the engine has synchronised: it is complete or
  // about to be) and adds every interval to the run's stats.
  void finish() {
    if (on()) harvest(true);
  }

 private:
  struct Mark {
    cudaEvent_t ev;
    Stage stage;
    double upload;  // upload seconds inside the interval that ends here
  };

  bool on() const { return stats_ != nullptr && !marks_.empty(); }

  // True for cudaSuccess; any other answer is cleared from the thread's
  // last error, so that it cannot surface at the engine's next launch check.
  static bool ok(cudaError_t e) {
    if (e == cudaSuccess) return true;
    (void)cudaGetLastError();
    return false;
  }

  void push(Stage s, double upload) {
    cudaEvent_t ev = take();
    if (ev == nullptr || !ok(cudaEventRecord(ev, ctx_.stream()))) {
      if (ev != nullptr) give(ev);
      off();
      return;
    }
    marks_.push_back(Mark{ev, s, upload});
  }

  // Adds the intervals whose end has completed (all of them when `wait`:
  // the marks are on one stream, so once the last is complete all are).
  void harvest(bool wait) {
    if (wait && marks_.size() >= 2 && !ok(cudaEventSynchronize(marks_.back().ev))) return off();
    while (marks_.size() >= 2) {
      const Mark& end = marks_[1];
      if (!wait && !ok(cudaEventQuery(end.ev))) return;  // not complete yet (cudaErrorNotReady)
      float ms = 0;
      if (!ok(cudaEventElapsedTime(&ms, marks_[0].ev, end.ev))) return off();
      const double secs = 1e-3 * static_cast<double>(ms) - end.upload;
      if (secs > 0) stats_->add(end.stage, secs);
      give(marks_[0].ev);
      marks_.pop_front();
    }
  }

  // Stops timing; what was added so far stays.
  void off() {
    for (const Mark& m : marks_) give(m.ev);
    marks_.clear();
  }

  cudaEvent_t take() {
    stage_detail::EventPool& pool = stage_detail::event_pool();
    {
      std::lock_guard<std::mutex> lock(pool.mu);
      std::vector<cudaEvent_t>& v = pool.free[ctx_.device()];
      if (!v.empty()) {
        cudaEvent_t e = v.back();
        v.pop_back();
        return e;
      }
    }
    cudaEvent_t e = nullptr;
    return ok(cudaEventCreate(&e)) ? e : nullptr;
  }
  void give(cudaEvent_t e) {
    stage_detail::EventPool& pool = stage_detail::event_pool();
    std::lock_guard<std::mutex> lock(pool.mu);
    pool.free[ctx_.device()].push_back(e);
  }

  RunContext& ctx_;
  RunStats* stats_;
  double upload_ = 0;  // upload_seconds at the last mark
  std::deque<Mark> marks_;
};

}  // namespace gsp::detail::gpu
