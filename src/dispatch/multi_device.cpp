// Several CUDA devices in one process (see multi_device.h).
#include "dispatch/multi_device.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dispatch/cuda_cost_model.h"
#include "core/gpu_runtime.h"
#include "core/row_merger.h"
#include "engines/cuda/cuda_backend.h"

namespace gsp::detail {

namespace {

// Engines whose rows are independent searches: their sources can be split.
bool splits_sources(gsp_algorithm a) {
  return a == GSP_APSP_HEAP || a == GSP_APSP_TASK_PARALLEL || a == GSP_APSP_DELTA_STEPPING || a == GSP_APSP_SPMM;
}

bool can_split(gsp_algorithm a, bool all_sources) {
  return splits_sources(a) || (a == GSP_APSP_FLOYD_WARSHALL && all_sources);
}

// AUTO spreads a job only when one device is estimated to take this long:
// below it, starting the other devices (about 0.1-0.3 s each the first
// time in a process) and the per-device set-up cost more than they save.
constexpr double kSpreadFromSeconds = 0.25;
// ... and when the devices' estimate is at most this fraction of one's.
constexpr double kSpreadGain = 0.8;
// Extra time charged to a spread run over its share of the work: the
// parts' set-up and, for Floyd-Warshall, the steps' panel exchange.
constexpr double kSpreadOverhead = 0.1;

// Sources per chunk, at least: the engines keep their speed from this many
// on (heap: one thread per source, 8192 fill an H100; task-parallel: its
// batches; delta-stepping and SpMM: passes of 128).
int32_t min_chunk(gsp_algorithm a) {
  switch (a) {
    case GSP_APSP_HEAP: return 8192;
    case GSP_APSP_TASK_PARALLEL: return 4096;
    default: return 512;
  }
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Chunks: where rows go to the caller as they finish (a stream), about four
// per device (so that a slow device or chunk delays little, and streamed
// rows wait little for their turn); where they are kept until the end (a
// result, the caller's arrays, a table), one per device: every chunk is a
// run of the one-device engine, and its passes cost about the same for 625
// sources as for 2,500 (NY 10,000 x 10,000 table on 4 H100s: about 64 ms a
// chunk; 4 chunks a device took 0.516 s against 1.293 s on one device, so
// 0.40x where the work alone would give 0.25x). Never below the engine's
// minimum nor above a device's share.
int32_t chunk_rows(gsp_algorithm a, int32_t sources, int32_t devices, bool rows_kept) {
  const int64_t share = ceil_div(sources, devices);
  if (rows_kept) return static_cast<int32_t>(std::max<int64_t>(1, share));
  const int64_t c = std::min(share, std::max<int64_t>(ceil_div(sources, 4 * int64_t(devices)), min_chunk(a)));
  return static_cast<int32_t>(std::max<int64_t>(1, c));
}

// Whether the sink keeps every row until the run ends (a result, the
// caller's arrays, a table's cells) rather than passing rows on to the
// caller as they come.
bool rows_kept(const RowSink& sink) { return sink.has_destination() || sink.order() == RowSink::Order::kAnyThread; }

// The many-source engines on several devices: chunks of sources, taken in
// order by whichever device is free, each run by the one-device engine.
class SourceSplit {
 public:
  SourceSplit(const ApspJob& job, int32_t devices)
      : job_(job),
        devices_(devices),
        chunk_(chunk_rows(job.algorithm, job.num_sources, devices, rows_kept(*job.sink))),
        merger_(job.sink, job.num_sources, job.graph->n(), job.graph->dtype(), chunk_starts()) {}

  // The devices on threads of their own; the caller's thread hands
  // streamed rows to the sink and calls the progress callback (so the
  // caller's callbacks run on its thread, as on one device).
  void run() {
    running_.assign(static_cast<size_t>(devices_), 0.0);
    merger_.run_beside(
        devices_, [&](int d) { device_loop(d); }, [&] { tick(); }, [&] { stopped_.store(true); });
    fill_stats();
  }

 private:
  struct DeviceState {
    SourceSplit* split = nullptr;
    int32_t device = 0;  // index among the run's devices
    int32_t rows = 0;    // of the chunk it runs now
  };

  std::vector<int32_t> chunk_starts() const {
    std::vector<int32_t> starts;
    for (int64_t b = 0; b < job_.num_sources; b += chunk_) starts.push_back(static_cast<int32_t>(b));
    if (starts.empty()) starts.push_back(0);
    return starts;
  }

  void device_loop(int32_t d) {
    const RunOptions& o = *job_.options;
    RunOptions mine = o;
    mine.device = o.device + d;
    mine.num_devices = 1;
    DeviceState state{this, d, 0};
    mine.progress = &SourceSplit::part_progress;
    mine.progress_user = &state;
    if (mine.test_fail_device == mine.device) {
      throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY,
                  "device " + std::to_string(mine.device) + ": out of device memory (GSP_TEST_FAIL_DEVICE)");
    }
    for (;;) {
      if (stopped_.load()) return;
      const int32_t c = next_.fetch_add(1);
      if (c >= merger_.parts()) return;
      ApspJob part = job_;
      part.sources = job_.sources + merger_.part_begin(c);
      part.num_sources = merger_.part_rows(c);
      part.all_sources = false;
      part.options = &mine;
      part.sink = merger_.part(c);
      part.num_devices = 1;
      RunStats stats;
      part.stats = &stats;
      state.rows = part.num_sources;
      try {
        gpu::apsp(part);
      } catch (const Error& e) {
        throw Error(e.status(), "device " + std::to_string(mine.device) + ": " + e.message());
      }
      finished(stats, d, part.num_sources);
    }
  }

  // A part's progress (on its device's thread): its engine stops (throws)
  // once the run is stopped; the fraction is kept for tick().
  static int part_progress(void* user, double fraction) {
    auto* s = static_cast<DeviceState*>(user);
    return s->split->progress(s->device, static_cast<double>(s->rows) * std::clamp(fraction, 0.0, 1.0));
  }
  int progress(int32_t device, double rows_of_running_chunk) {
    if (stopped_.load()) return 1;
    std::lock_guard<std::mutex> lock(progress_mu_);
    running_[static_cast<size_t>(device)] = rows_of_running_chunk;
    return 0;
  }
  // On the caller's thread: the rows done over every device to the caller's
  // callback, which may cancel.
  void tick() {
    const RunOptions& o = *job_.options;
    if (o.progress == nullptr) return;
    double f = 0;
    {
      std::lock_guard<std::mutex> lock(progress_mu_);
      double rows = static_cast<double>(rows_done_);
      for (double r : running_) rows += r;
      f = std::min(1.0, rows / std::max(1.0, static_cast<double>(job_.num_sources)));
      if (f <= reported_) return;
      reported_ = f;
    }
    o.report(f);
  }

  void finished(const RunStats& s, int32_t device, int32_t rows) {
    std::lock_guard<std::mutex> lock(progress_mu_);
    rows_done_ += rows;
    running_[static_cast<size_t>(device)] = 0;
    if (name_.empty()) name_ = s.device_name;
    iterations_ += s.iterations;
    relaxations_ += s.relaxations;
    upload_ += s.upload_seconds;
    for (int i = 0; i < kStageCount; ++i) stages_[i] += s.stage_seconds[i];
  }

  // The whole run: the first device and how many, the parts' counts summed,
  // each stage's time per device (the parts' sum over the devices: the
  // devices ran side by side).
  void fill_stats() {
    if (job_.stats == nullptr) return;
    RunStats& s = *job_.stats;
    s.backend = GSP_BACKEND_CUDA;
    s.algorithm = job_.algorithm;
    s.device = job_.options->device;
    s.num_devices = devices_;
    s.device_name = devices_label(job_.options->device, devices_, name_);
    s.iterations = iterations_;
    s.relaxations = relaxations_;
    s.upload_seconds = upload_;
    for (int i = 0; i < kStageCount; ++i) s.stage_seconds[i] = stages_[i] / devices_;
  }

  const ApspJob& job_;
  const int32_t devices_;
  const int32_t chunk_;
  RowMerger merger_;
  std::atomic<int32_t> next_{0};
  std::atomic<bool> stopped_{false};
  std::mutex progress_mu_;
  std::vector<double> running_;  // rows done of each device's running chunk
  int64_t rows_done_ = 0;
  double reported_ = 0;
  std::string name_;
  int64_t iterations_ = 0, relaxations_ = 0;
  double upload_ = 0;
  double stages_[kStageCount] = {0, 0, 0, 0};
};

}  // namespace

int32_t plan_devices(const Graph& g, const RunOptions& o, gsp_algorithm algorithm, int32_t num_sources,
                     bool all_sources, bool rows_serialise) {
  const int32_t usable = std::max(0, gpu::device_count() - o.device);
  if (o.num_devices >= 1) {
    require(o.num_devices <= usable, GSP_ERR_INVALID_ARGUMENT,
            "options->num_devices = " + std::to_string(o.num_devices) + ", but " + std::to_string(usable) +
                " CUDA device" + (usable == 1 ? " is" : "s are") +
                " usable from options->device = " + std::to_string(o.device) + " on");
    return can_split(algorithm, all_sources) ? o.num_devices : 1;
  }
  if (usable <= 1 || o.cuda_stream != nullptr || !can_split(algorithm, all_sources)) return 1;
  if (rows_serialise && splits_sources(algorithm)) return 1;
  const double bytes = static_cast<double>(o.device_memory_limit);
  const double one = cuda_apsp_costs(g, num_sources, o.want_paths, bytes).of(algorithm);
  if (!(one >= kSpreadFromSeconds)) return 1;
  double spread = 0;
  if (algorithm == GSP_APSP_FLOYD_WARSHALL) {
    spread = one / usable * (1.0 + kSpreadOverhead);
  } else {
    const int32_t share = static_cast<int32_t>(ceil_div(num_sources, usable));
    if (share < min_chunk(algorithm)) return 1;
    spread = cuda_apsp_costs(g, share, o.want_paths, bytes).of(algorithm) * (1.0 + kSpreadOverhead);
  }
  return spread <= kSpreadGain * one ? usable : 1;
}

void run_cuda_apsp(const ApspJob& job, int32_t devices) {
  if (devices <= 1 || job.num_sources <= 0) {
    gpu::apsp(job);
    return;
  }
  if (job.algorithm == GSP_APSP_FLOYD_WARSHALL) {
    ApspJob all = job;
    all.num_devices = devices;
    gpu::apsp(all);
    return;
  }
  SourceSplit(job, devices).run();
}

}  // namespace gsp::detail
