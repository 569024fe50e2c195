// The contract between the dispatcher (src/dispatch/dispatch.cpp) and every
// engine, CPU (src/engines/cpu/) or CUDA (src/engines/cuda/). Engines see only these types:
// no C API handles, no CUDA types.
//
// Failure: an engine throws gsp::detail::Error (src/core/error.h) with a
// status and a message naming the problem; std::bad_alloc becomes
// GSP_ERR_OUT_OF_MEMORY in the API layer. Engines must free what they
// allocated on every path (RAII).
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/graph.h"
#include "core/tuning.h"
#include "gsp/gsp.h"

namespace gsp::detail {

// The run options, normalised from the caller's gsp_options (size honoured,
// defaults filled, values checked).
struct ChBase;  // core/road_index.h

struct RunOptions {
  gsp_backend backend = GSP_BACKEND_AUTO;
  gsp_algorithm algorithm = GSP_ALGO_AUTO;
  int32_t device = 0;
  bool want_paths = true;
  bool rows_any_order = false;     // GSP_ROWS_ANY_ORDER: a stream may get its blocks in any order
  double delta = 0;                // 0: engine chooses
  int32_t num_threads = 0;         // resolved: >= 1 once dispatch has run
  size_t device_memory_limit = 0;  // 0: what the device has free
  void* cuda_stream = nullptr;
  gsp_progress_fn progress = nullptr;
  void* progress_user = nullptr;
  // gsp_options::limit: vertices farther than it are reported unreachable
  // (the dispatcher cuts finished rows; engines may stop early at it).
  double limit = std::numeric_limits<double>::infinity();
  // gsp_options::num_devices: 0 lets the dispatcher choose, k >= 1 asks for
  // devices device .. device + k - 1 (checked against the devices there are
  // when CUDA runs: dispatch/multi_device.h).
  int32_t num_devices = 0;
  // gsp_options::index: the road index the caller gave (the dispatcher
  // checks it is the graph's before a run answers from it); null: none.
  const ChBase* index = nullptr;
  // The run's one snapshot of the tuning knobs (core/tuning.h), taken when
  // the options are made (normalize_options(), api/run_options.h: once per call); engines read
  // their knobs here and never call tuning() themselves, so one run sees one
  // value of each knob however many engines it passes through.
  Tuning tuning = gsp::detail::tuning();
  // Test builds (GSP_TEST_FAIL_DEVICE, core/tuning.h): the part of a
  // multi-device run on this device ordinal fails as if out of device
  // memory; -1: none.
  int32_t test_fail_device = -1;
  // Test builds (GSP_TEST_RESULT_READY_DELAY_MS): milliseconds by which a
  // pass-based sparse APSP engine's result array is made ready late; 0: none.
  int32_t test_result_ready_delay_ms = 0;
  // Test builds (GSP_TEST_LOCK_PIECE_KB): the pieces, in bytes, in which a
  // pass-based engine locks a result array made ready beside its passes;
  // 0: gpu::kLockPieceBytes.
  size_t test_lock_piece_bytes = 0;

  // Report progress in [0,1]; throws Error(GSP_ERR_CANCELLED) when the
  // callback asks to stop. Cheap when no callback is set.
  void report(double fraction) const {
    if (progress != nullptr && progress(progress_user, fraction) != 0) {
      throw Error(GSP_ERR_CANCELLED, "cancelled by the progress callback");
    }
  }
};

// The stages of a run that gsp_run_info reports (setup_seconds ...
// paths_seconds; doc/run-info.md says what each engine counts where).
// Engines add the time of a stage where they can tell it apart cheaply;
// the stages are disjoint parts of the run (their sum is at most `seconds`),
// and a stage left at 0 was not measured.
enum class Stage { kSetup, kCompute, kCopy, kPaths };
constexpr int kStageCount = 4;

// What an engine fills in about its run (the API copies it to gsp_run_info).
struct RunStats {
  gsp_backend backend = GSP_BACKEND_CPU;
  gsp_algorithm algorithm = GSP_ALGO_AUTO;
  int32_t device = -1;
  int32_t num_devices = 1;  // CUDA devices used, from `device` upward
  std::string device_name;
  double seconds = 0;         // set by dispatch around the engine call
  double upload_seconds = 0;  // set by CUDA engines when they uploaded the graph
  int64_t iterations = 0;
  int64_t relaxations = 0;
  double stage_seconds[kStageCount] = {0, 0, 0, 0};  // indexed by Stage

  void add(Stage s, double secs) { stage_seconds[static_cast<int>(s)] += secs; }
  double stage(Stage s) const { return stage_seconds[static_cast<int>(s)]; }
  bool any_stage() const {
    for (double t : stage_seconds) {
      if (t > 0) return true;
    }
    return false;
  }
};

// RunStats::device_name of a run on several CUDA devices:
// "4 x NVIDIA H100 80GB HBM3 (devices 0-3)".
inline std::string devices_label(int32_t first, int32_t count, const std::string& name) {
  return std::to_string(count) + " x " + name + " (devices " + std::to_string(first) + "-" +
         std::to_string(first + count - 1) + ")";
}

// Host clock for the stages of a CPU engine (or the host part of a CUDA
// one): lap(s) adds the time since the last lap (or construction) to stage s
// of `stats` (nothing when stats is null).
class StageLaps {
 public:
  explicit StageLaps(RunStats* stats) : stats_(stats), t_(now()) {}
  void lap(Stage s) {
    const double t = now();
    if (stats_ != nullptr) stats_->add(s, t - t_);
    t_ = t;
  }
  void skip() { t_ = now(); }  // time since the last lap belongs to no stage

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  RunStats* stats_;
  double t_;
};

// Distance traits per weight type.
template <class W>
struct Dist;
template <>
struct Dist<float> {
  static constexpr float inf() { return std::numeric_limits<float>::infinity(); }
};
template <>
struct Dist<double> {
  static constexpr double inf() { return std::numeric_limits<double>::infinity(); }
};
template <>
struct Dist<int32_t> {
  static constexpr int32_t inf() { return GSP_I32_INF; }
};

// One SSSP run. dist has n entries of the graph's weight type; pred has n
// entries or is null when paths were not asked for. The engine writes every
// entry: inf / -1 for unreachable vertices, pred[source] = -1.
struct SsspJob {
  const Graph* graph = nullptr;
  int32_t source = 0;
  gsp_algorithm algorithm = GSP_ALGO_AUTO;  // resolved, never AUTO
  const RunOptions* options = nullptr;
  void* dist = nullptr;
  int32_t* pred = nullptr;
  RunStats* stats = nullptr;
  // dist and pred are CUDA device memory of options->device (gsp_sssp_run_device):
  // only CUDA engines get such a job, and they copy device to device.
  bool results_on_device = false;
  // >= 0: the caller reads only this vertex's distance and path (a point-to-
  // point query, dispatch/dispatch_table.cpp). An engine may stop once it is
  // final; the row then holds the vertices final by then and every other
  // one unreached, as a distance limit would cut it, and *stopped_early is
  // set. Engines that cannot stop ignore it.
  int32_t stop_at = -1;
  bool* stopped_early = nullptr;
};

// Receives finished APSP rows, in source order, in blocks. dist is
// rows x n values of the weight type, pred rows x n or null. Implementations
// copy what they need before returning; they may throw Error (e.g. cancelled).
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) = 0;
  // A hint: how many rows an engine should hand over at once at most
  // (bounded host memory while streaming).
  virtual int32_t preferred_block_rows() const { return 256; }

  // Rows in place. A sink that keeps every row of the job in one host array
  // (a result, a caller's buffer) says where: row i's distances at
  // dist + i * n values of the weight type, its predecessors at pred + i * n
  // (null without paths). An engine may then write rows there itself (a
  // device-to-host copy straight into the result, no staging) and announce
  // them with rows_written(), in order, instead of calling rows(). Returns
  // false for sinks without such an array (streams). It may allocate the
  // array: an engine asks while the device still computes, so that the
  // allocation overlaps the computation.
  // page_locked: whether the device copies into the array at full speed.
  // A result's array that is not (too large to be worth locking for one
  // use: gpu::result_buffer_worth_locking) gets its rows through the
  // engine's page-locked staging and rows() instead.
  // lock_piece: nonzero where the arrays are page-locked in pieces
  // (prepare_destination(piece)): a device copy into them must not cross a
  // multiple of lock_piece bytes of the address space (the CUDA layer's
  // copy_to_host splits copies so).
  struct Destination {
    void* dist = nullptr;
    int32_t* pred = nullptr;
    bool page_locked = true;
    size_t lock_piece = 0;
  };
  virtual bool destination(Destination* out) {
    (void)out;
    return false;
  }
  // The first half of destination() for an engine whose device computes a
  // long while before it writes the rows (Floyd-Warshall): allocates the
  // array and faults its pages in, with no CUDA call, so that a host thread
  // of the engine can do it while the device computes; destination() then
  // only page-locks it (gpu::result_buffer_lock). A no-op for sinks without
  // a destination or whose array exists. Call it at most once, before
  // destination(), and not while another call on the sink runs.
  // lock_piece (0, or a power of two): the engine locks the array while its
  // device computes, in pieces of this many bytes (gpu::kLockPieceBytes),
  // and copies as Destination::lock_piece says; 0: locked whole.
  virtual void prepare_destination(size_t lock_piece) { (void)lock_piece; }
  // Whether a sink keeps every row in one host array (destination() would
  // say yes); asks for nothing, allocates nothing.
  virtual bool has_destination() const { return false; }
  // The order rows() may come in: as the contract above says (kInOrder);
  // any order, each row once, one call at a time (kAnyOrder); or any order
  // and from several threads at once for disjoint rows (kAnyThread: sinks
  // that only write each row's own cells). Only a run on several devices
  // (dispatch/multi_device.h) uses the freedom.
  enum class Order { kInOrder, kAnyOrder, kAnyThread };
  virtual Order order() const { return Order::kInOrder; }

  // Narrow rows: a sink that keeps only some columns of every row (a
  // table's targets) and no predecessors names them here; an engine may
  // then gather those columns on the device and hand over narrow_rows()
  // (columns()->size() distances a row, in the order of columns()) instead
  // of whole rows: on a road graph's table that is T values a row crossing
  // the bus instead of n. Null: whole rows only.
  virtual const std::vector<int32_t>* columns() const { return nullptr; }
  virtual void narrow_rows(int32_t first_index, int32_t num_rows, const void* dist) {
    (void)first_index;
    (void)num_rows;
    (void)dist;
    throw Error(GSP_ERR_INTERNAL, "narrow rows handed to a sink that keeps whole rows");
  }

  // Rows [first_index, first_index + num_rows) are in the destination,
  // finished (predecessors repaired). Only after destination() returned true.
  virtual void rows_written(int32_t first_index, int32_t num_rows) {
    (void)first_index;
    (void)num_rows;
  }
};

// One APSP / multi-source run: rows for sources[0..num_sources), delivered
// through sink in order (sink->rows may be called with any block size, but
// first_index must run 0, k1, k2, ... without gaps).
struct ApspJob {
  const Graph* graph = nullptr;
  const int32_t* sources = nullptr;  // never null here: dispatch expands "all"
  int32_t num_sources = 0;
  bool all_sources = false;                 // sources[i] == i for every vertex
  gsp_algorithm algorithm = GSP_ALGO_AUTO;  // resolved, never AUTO
  const RunOptions* options = nullptr;
  RowSink* sink = nullptr;
  RunStats* stats = nullptr;
  // GSP_APSP_HEAP on the CPU: compute each row with one-thread
  // delta-stepping instead of Dijkstra (AUTO's choice from the CPU cost
  // model, made by the dispatcher; sources still spread over the threads).
  bool rows_by_delta_stepping = false;
  // CUDA devices options->device .. + num_devices - 1 share the job (only
  // the multi-device Floyd-Warshall takes such a job: dispatch/multi_device.h
  // splits the sources of the other engines itself).
  int32_t num_devices = 1;
};

// Adds two distances for relaxation, exactly: returns false when the sum
// does not fit the type's finite range (the caller throws GSP_ERR_OVERFLOW
// for int32). Only call with a finite d. Floats add plainly: an overflowed
// sum is +inf, which never improves a label, and dispatch decides on the
// finished rows whether a reachable distance overflowed
// (dispatch/float_overflow.h), for every engine of both backends.
inline bool checked_add(int32_t d, int32_t w, int32_t* out) {
  int64_t s = static_cast<int64_t>(d) + static_cast<int64_t>(w);
  if (s >= static_cast<int64_t>(GSP_I32_INF) || s <= static_cast<int64_t>(INT32_MIN)) return false;
  *out = static_cast<int32_t>(s);
  return true;
}
inline bool checked_add(float d, float w, float* out) {
  *out = d + w;
  return true;
}
inline bool checked_add(double d, double w, double* out) {
  *out = d + w;
  return true;
}

[[noreturn]] inline void throw_overflow(int32_t u, int32_t v) {
  throw Error(GSP_ERR_OVERFLOW, "an int32 distance would overflow relaxing arc " + std::to_string(u) + " -> " +
                                    std::to_string(v) + "; use GSP_F64 weights or smaller weights");
}

}  // namespace gsp::detail
