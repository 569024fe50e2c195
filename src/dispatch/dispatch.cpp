// Backend and algorithm choice, and running engines into
// results or streams.
#include "dispatch/dispatch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/algorithms.h"
#include "dispatch/cpu_cost_model.h"
#include "dispatch/cuda_apsp_job.h"
#include "dispatch/cuda_cost_model.h"
#include "dispatch/device_startup.h"
#include "dispatch/distance_limit.h"
#include "dispatch/multi_device.h"
#include "dispatch/float_overflow.h"
#include "core/gpu_runtime.h"
#include "core/host_memory.h"
#include "core/row_merger.h"
#include "dispatch/road_index_runs.h"
#include "dispatch/row_sinks.h"
#include "core/tuning.h"
#include "core/graph_build.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cuda/cuda_backend.h"

namespace gsp::detail {

namespace {

std::string algo_str(gsp_algorithm a) { return std::string("'") + gsp_algorithm_name(a) + "'"; }

// Where a run may go before its algorithm is known: `cuda` when CUDA is
// requested or (backend AUTO) usable; `cold_cpu` when backend AUTO keeps the
// job on the CPU instead of starting the device (dispatch/device_startup.h).
struct Lean {
  bool cuda = false;
  bool cold_cpu = false;
};

// Estimated CPU seconds of the job, for the start-up rule: one source, or
// one row per source spread over the threads (the CPU heap engine, each row
// by the faster one-thread engine).
double cpu_job_seconds(const Graph& g, const RunOptions& o, bool sssp, int32_t num_sources) {
  const int32_t threads = std::max<int32_t>(1, o.num_threads);
  if (sssp) return cpu_sssp_seconds_estimate(g, threads);
  const int32_t k = std::max<int32_t>(1, num_sources);
  const CpuSsspCosts one = cpu_sssp_costs(g, 1);
  return std::min(one.dijkstra, one.delta_stepping) * k / std::min(threads, k);
}

Lean lean_of(const Graph& g, const RunOptions& o, bool sssp, int32_t num_sources) {
  if (o.backend == GSP_BACKEND_CPU) return {};
  if (o.backend == GSP_BACKEND_CUDA) return {true, false};
  if (o.cuda_stream == nullptr && !gpu::started() && cold_start_prefers_cpu(cpu_job_seconds(g, o, sssp, num_sources))) {
    return {false, true};
  }
  return {gpu::usable(nullptr), false};
}

// Johnson with paths stays on the CPU under AUTO. On CUDA its reduced
// graph has a zero-cost arc for every arc of the potentials' tree, so each
// row's predecessors are checked (and often rebuilt) on the host: on the
// H200 host NY with 64 sources took 0.37 s on CUDA against 0.42 s on 16
// CPU threads, a random graph of 65,536 vertices 3.2 s against 0.20 s;
// without paths (tables) the device wins, NY 1000 x 1000 0.25 s against
// 3.3 s (bench_johnson, bench/RESULTS.md).
Lean johnson_lean(const RunOptions& o, gsp_algorithm algo, Lean lean) {
  if (o.backend == GSP_BACKEND_AUTO && algo == GSP_APSP_JOHNSON && o.want_paths) lean.cuda = false;
  return lean;
}

// Decides the backend for a resolved algorithm.
gsp_backend choose_backend(const RunOptions& o, gsp_algorithm algo, const Lean& lean) {
  std::string why;
  switch (o.backend) {
    case GSP_BACKEND_CPU:
      if (!cpu::supports(algo)) {
        throw Error(GSP_ERR_UNSUPPORTED,
                    "algorithm " + algo_str(algo) + " has no CPU engine; use GSP_BACKEND_CUDA or GSP_BACKEND_AUTO");
      }
      return GSP_BACKEND_CPU;
    case GSP_BACKEND_CUDA:
      if (!gpu::usable(&why)) throw Error(GSP_ERR_NO_DEVICE, "CUDA backend requested but not usable: " + why);
      if (!gpu::supports(algo)) {
        throw Error(GSP_ERR_UNSUPPORTED, "algorithm " + algo_str(algo) + " has no CUDA engine; use GSP_BACKEND_CPU");
      }
      return GSP_BACKEND_CUDA;
    default:
      if (lean.cuda && gpu::supports(algo)) return GSP_BACKEND_CUDA;
      if (cpu::supports(algo)) return GSP_BACKEND_CPU;
      // kept on the CPU by the start-up rule, but only CUDA has this engine
      if (gpu::supports(algo) && gpu::usable(nullptr)) return GSP_BACKEND_CUDA;
      gpu::usable(&why);
      throw Error(GSP_ERR_NO_DEVICE, "algorithm " + algo_str(algo) + " runs only on CUDA, which is not usable: " + why);
  }
}

gsp_algorithm auto_sssp(const Graph& g, const RunOptions& o, bool cuda) {
  if (g.has_negative_weight()) return GSP_SSSP_BELLMAN_FORD;
  return cuda ? GSP_SSSP_DELTA_STEPPING : cpu_sssp_choice(g, o.num_threads);
}

// APSP choice (doc/algorithms.md):
// - negative weights: Johnson (Bellman-Ford potentials, then the sources
//   on reduced costs), except Floyd-Warshall for all rows where it is the
//   better engine: on CUDA where the cost model would pick a dense engine
//   for the same graph without negative arcs, on the CPU for dense or small
//   graphs;
// - on CUDA: the engine the cost model (dispatch/cuda_cost_model.h) estimates
//   fastest;
// - on the CPU: Floyd-Warshall for all rows of dense or small graphs, else
//   one Dijkstra per source.
gsp_algorithm auto_apsp(const Graph& g, int32_t num_sources, const RunOptions& o, bool cuda) {
  const double n = g.n();
  const double m = static_cast<double>(g.m());
  const bool all = num_sources == g.n();
  const bool dense = m >= n * n / 16.0;
  if (cuda) {
    const gsp_algorithm best =
        cuda_apsp_choice(g, num_sources, o.want_paths, static_cast<double>(o.device_memory_limit));
    if (!g.has_negative_weight()) return best;
    const bool dense_engine = best == GSP_APSP_FLOYD_WARSHALL || best == GSP_APSP_MINPLUS;
    return all && dense_engine ? GSP_APSP_FLOYD_WARSHALL : GSP_APSP_JOHNSON;
  }
  if (g.has_negative_weight()) {
    return all && (dense || n <= 256) ? GSP_APSP_FLOYD_WARSHALL : GSP_APSP_JOHNSON;
  }
  if (all && (dense || n <= 256)) return GSP_APSP_FLOYD_WARSHALL;
  return GSP_APSP_HEAP;
}

class Timer {
 public:
  Timer() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  std::chrono::steady_clock::time_point t0_;
};

void finish_stats(RunStats* stats, gsp_backend backend, gsp_algorithm algo, double wall) {
  stats->backend = backend;
  stats->algorithm = algo;
  if (stats->seconds <= 0) stats->seconds = std::max(0.0, wall - stats->upload_seconds);
  if (backend == GSP_BACKEND_CPU) stats->device = -1;
}

// Resolves algorithm and backend for a run and checks the weights.
struct Plan {
  gsp_algorithm algorithm;
  gsp_backend backend;
  bool cold_cpu = false;  // on the CPU by the start-up rule: charge its time
};

// AUTO's lean for rows from a road index: the device sweeps a row about
// 30 times faster than a CPU thread (NY on the H200 host: 0.3 against
// 9.7 ms), once started (the start-up rule, as lean_of).
Lean index_lean(const Graph& g, const RunOptions& o, int32_t rows) {
  if (o.backend == GSP_BACKEND_CPU) return {};
  if (o.backend == GSP_BACKEND_CUDA) return {true, false};
  if (o.cuda_stream == nullptr && !gpu::started() &&
      cold_start_prefers_cpu(cpu_index_rows_seconds(g, rows, o.num_threads))) {
    return {false, true};
  }
  return {gpu::usable(nullptr), false};
}

Plan plan_run(const Graph& g, const RunOptions& o, bool sssp, int32_t num_sources) {
  if (index_for(g, o) != nullptr) {
    const Lean lean = index_lean(g, o, sssp ? 1 : num_sources);
    Plan p{GSP_CH, choose_backend(o, GSP_CH, lean)};
    p.cold_cpu = lean.cold_cpu && p.backend == GSP_BACKEND_CPU;
    return p;
  }
  gsp_algorithm algo = o.algorithm;
  const Lean lean = lean_of(g, o, sssp, num_sources);
  if (algo == GSP_ALGO_AUTO) {
    algo = sssp ? auto_sssp(g, o, lean.cuda) : auto_apsp(g, num_sources, o, lean.cuda);
  } else if (sssp && !is_sssp(algo)) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "algorithm " + algo_str(algo) + " is an APSP algorithm; use gsp_apsp_run");
  } else if (!sssp && is_sssp(algo)) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "algorithm " + algo_str(algo) + " is an SSSP algorithm; use gsp_sssp_run");
  }
  if (!accepts_negative_weights(algo) && g.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                "algorithm " + algo_str(algo) + " needs non-negative weights; the graph's smallest weight is " +
                    std::to_string(g.min_weight()) + " (use bellman-ford, johnson or floyd-warshall)");
  }
  Plan p{algo, choose_backend(o, algo, johnson_lean(o, algo, lean))};
  p.cold_cpu = lean.cold_cpu && p.backend == GSP_BACKEND_CPU;
  return p;
}

// Float engines add in float, where a cycle whose weights sum to zero or a
// little above it can evaluate below zero (1e-3 + 1e6 - 1e6 rounds to 0, so
// x + 1e-3 + 1e6 - 1e6 can come out below x). So on a float graph a
// negative-cycle verdict is taken only from the CPU Bellman-Ford, whose labels
// are double (engines/cpu/sssp/sssp_core.h): any other engine's verdict is checked by it.
// True when `e` is such a verdict, to be checked. (Without negative arcs no
// engine can see a negative cycle, in float either: adding w >= 0 never
// lowers a sum. Such a verdict would be a bug, and is not hidden.)
bool float_cycle_verdict_to_check(const Graph& g, const Plan& p, const Error& e) {
  return e.status() == GSP_ERR_NEGATIVE_CYCLE && is_float_dtype(g.dtype()) && g.has_negative_weight() &&
         !(p.algorithm == GSP_APSP_JOHNSON || (p.backend == GSP_BACKEND_CPU && p.algorithm == GSP_SSSP_BELLMAN_FORD));
}

std::vector<int32_t> expand_sources(const Graph& g, const int32_t* sources, int32_t num_sources, bool* all) {
  std::vector<int32_t> list;
  if (sources == nullptr) {
    *all = true;
    list.resize(static_cast<size_t>(g.n()));
    for (int32_t i = 0; i < g.n(); i++) list[i] = i;
    return list;
  }
  require(num_sources >= 1, GSP_ERR_INVALID_ARGUMENT,
          "num_sources must be >= 1 when sources is given, got " + std::to_string(num_sources));
  list.assign(sources, sources + num_sources);
  for (int32_t i = 0; i < num_sources; i++) require_entry_index(list[i], g.n(), "sources", i);
  *all = false;
  return list;
}

// Runs the sources of `list` by plan `p` (plan_run() for them, made once
// per call: the caller may have chosen its result memory by it).
void run_apsp_planned(const Graph& g, const std::vector<int32_t>& list, bool all, const RunOptions& o, Plan p,
                      RowSink* sink, RunStats* stats) {
  ApspJob job;
  job.graph = &g;
  job.sources = list.data();
  job.num_sources = static_cast<int32_t>(list.size());
  job.all_sources = all;
  job.algorithm = p.algorithm;
  job.options = &o;
  // Many sources on the CPU by the heap engine: each row by one-thread
  // delta-stepping for GSP_APSP_DELTA_STEPPING; for AUTO by whichever
  // single-source engine the CPU model estimates faster on one thread.
  if (p.backend == GSP_BACKEND_CPU && p.algorithm == GSP_APSP_DELTA_STEPPING) {
    job.rows_by_delta_stepping = true;
  } else if (p.backend == GSP_BACKEND_CPU && p.algorithm == GSP_APSP_HEAP && o.algorithm == GSP_ALGO_AUTO) {
    const CpuSsspCosts one = cpu_sssp_costs(g, 1);
    job.rows_by_delta_stepping = one.delta_stepping < one.dijkstra;
  }
  // Overflow is judged on the rows as the engine left them, then the limit cuts them.
  require_limit_allowed(g, o);
  LimitSink limited(g, o.limit, sink);
  RowSink* const cut = has_limit(o) ? &limited : sink;
  FloatOverflowSink checked(g, list.data(), cut);
  job.sink = float_overflow_possible(g) ? &checked : cut;
  job.stats = stats;
  Timer t;
  o.report(0.0);
  try {
    if (p.algorithm == GSP_CH) {
      run_index_apsp(*o.index, p.backend, job);
    } else if (p.backend == GSP_BACKEND_CUDA) {
      run_cuda_apsp_job(job, RowMerger::serialises(*job.sink));
    } else {
      cpu::apsp(job);
    }
  } catch (const Error& e) {
    // Only the dense engines accept negative arcs here, and they report a
    // cycle before they deliver a row, so Johnson can deliver every row.
    if (!float_cycle_verdict_to_check(g, p, e) || cpu::has_negative_cycle(g)) throw;
    p = Plan{GSP_APSP_JOHNSON, GSP_BACKEND_CPU};
    job.algorithm = p.algorithm;
    *stats = RunStats{};
    cpu::apsp(job);
  }
  o.report(1.0);
  if (p.cold_cpu) charge_cold_cpu_run(t.seconds());
  finish_stats(stats, p.backend, p.algorithm, t.seconds());
}

void run_apsp_into(const Graph& g, const std::vector<int32_t>& list, bool all, const RunOptions& o, RowSink* sink,
                   RunStats* stats) {
  run_apsp_planned(g, list, all, o, plan_run(g, o, false, static_cast<int32_t>(list.size())), sink, stats);
}

// A result of rows x n distances (and as many predecessors): refused at
// once when it cannot fit (host_memory.h).
void require_result_memory(size_t rows, int32_t n, bool paths, gsp_dtype dtype) {
  const uint64_t cells = bytes_mul(rows, static_cast<uint64_t>(n));
  require_host_memory(bytes_mul(cells, weight_bytes(dtype) + (paths ? 4 : 0)), [&] {
    return "a result of " + std::to_string(rows) + (rows == 1 ? " row" : " rows") + " x " + std::to_string(n) +
           " vertices (distances" + (paths ? " and predecessors)" : ")");
  });
}

// A caller's device array (gsp_device.h): device memory of `device`.
void require_device_array(const void* p, int32_t device, const char* name) {
  const int32_t d = gpu::pointer_device(p);
  if (d != device) {
    throw Error(GSP_ERR_INVALID_ARGUMENT,
                std::string(name) + " is not CUDA device memory of device " + std::to_string(device) +
                    (d < 0 ? " (it is host memory)" : " (it is on device " + std::to_string(d) + ")"));
  }
}

}  // namespace

std::unique_ptr<Paths> run_sssp(const GraphPtr& graph, int32_t source, const RunOptions& o) {
  const Graph& g = *graph;
  require_index(source, g.n(), "source");
  require_limit_allowed(g, o);
  Plan p = plan_run(g, o, true, 1);
  auto paths = std::make_unique<Paths>();
  paths->graph = graph;
  paths->n = g.n();
  paths->dtype = g.dtype();
  paths->sources = {source};
  paths->row_of[source] = 0;
  paths->has_paths = o.want_paths;
  Timer t;
  // A CUDA run writes its result into page-locked buffers when it can (the
  // copy from the device then runs at full speed; memory_cache.cu).
  const bool pinned = p.backend == GSP_BACKEND_CUDA;
  require_result_memory(1, g.n(), o.want_paths, g.dtype());
  SsspJob job;
  job.dist = with_weight_type(g.dtype(), [&](auto w) -> void* {
    auto& a = paths->dist_array<decltype(w)>();
    allocate_result(a, g.n(), pinned);
    return a.data();
  });
  if (o.want_paths) allocate_result(paths->pred, g.n(), pinned);

  job.graph = &g;
  job.source = source;
  job.algorithm = p.algorithm;
  job.options = &o;
  job.pred = o.want_paths ? paths->pred.data() : nullptr;
  job.stats = &paths->stats;
  o.report(0.0);
  try {
    if (p.algorithm == GSP_CH) {
      run_index_sssp(*o.index, p.backend, job);
    } else if (p.backend == GSP_BACKEND_CUDA) {
      gpu::sssp(job);
    } else {
      cpu::sssp(job);
    }
  } catch (const Error& e) {
    if (!float_cycle_verdict_to_check(g, p, e)) throw;
    // The CPU Bellman-Ford answers: its own verdict, or the distances.
    p = Plan{GSP_SSSP_BELLMAN_FORD, GSP_BACKEND_CPU};
    job.algorithm = p.algorithm;
    paths->stats = RunStats{};
    cpu::sssp(job);
  }
  if (float_overflow_possible(g)) check_float_row(g, source, job.dist);
  if (has_limit(o)) cut_rows(g, o.limit, job.dist, job.pred, 1);
  o.report(1.0);
  if (p.cold_cpu) charge_cold_cpu_run(t.seconds());
  finish_stats(&paths->stats, p.backend, p.algorithm, t.seconds());
  return paths;
}

void run_sssp_device(const GraphPtr& graph, int32_t source, const RunOptions& o, void* dist, int32_t* pred,
                     RunStats* stats) {
  const Graph& g = *graph;
  require(dist != nullptr, GSP_ERR_INVALID_ARGUMENT, "distances must not be NULL");
  require(pred == nullptr || o.want_paths, GSP_ERR_INVALID_ARGUMENT,
          "predecessors is not NULL but options->flags has GSP_NO_PATHS; pass NULL for no predecessors");
  require_device_array(dist, o.device, "distances");
  if (pred != nullptr) require_device_array(pred, o.device, "predecessors");
  require_index(source, g.n(), "source");
  require_limit_allowed(g, o);
  RunOptions run = o;
  run.want_paths = pred != nullptr;
  if (run.cuda_stream == nullptr) run.cuda_stream = gpu::default_stream();
  // The caller's data is on the device: AUTO stays there (no start-up rule)
  // wherever the algorithm has a CUDA engine.
  if (run.backend == GSP_BACKEND_AUTO && (run.algorithm == GSP_ALGO_AUTO || gpu::supports(run.algorithm))) {
    run.backend = GSP_BACKEND_CUDA;
  }
  Plan p = plan_run(g, run, true, 1);
  Timer t;
  const size_t n = static_cast<size_t>(g.n()), dist_bytes = n * weight_bytes(g.dtype());
  SsspJob job;
  job.graph = &g;
  job.source = source;
  job.algorithm = p.algorithm;
  job.options = &run;
  job.stats = stats;
  run.report(0.0);
  // On CUDA the engine copies its result device to device; the host sees
  // it only where a rule needs it (an overflow check, a limit).
  bool on_device = false;
  if (p.backend == GSP_BACKEND_CUDA) {
    job.dist = dist;
    job.pred = pred;
    job.results_on_device = true;
    try {
      if (p.algorithm == GSP_CH) {
        run_index_sssp(*run.index, GSP_BACKEND_CUDA, job);  // the sweep emits into the caller's arrays
      } else {
        gpu::sssp(job);
      }
      on_device = true;
    } catch (const Error& e) {
      if (!float_cycle_verdict_to_check(g, p, e)) throw;
      p = Plan{GSP_SSSP_BELLMAN_FORD, GSP_BACKEND_CPU};
      *stats = RunStats{};
    }
  }
  const bool host_rules = float_overflow_possible(g) || has_limit(run);
  if (!on_device || host_rules) {
    std::vector<char> host_dist(dist_bytes);
    std::vector<int32_t> host_pred(pred != nullptr ? n : 0);
    if (on_device) {
      gpu::copy_memory(host_dist.data(), dist, dist_bytes, run.device, run.cuda_stream);
      if (pred != nullptr) gpu::copy_memory(host_pred.data(), pred, n * sizeof(int32_t), run.device, run.cuda_stream);
    } else {
      job.algorithm = p.algorithm;
      job.dist = host_dist.data();
      job.pred = pred != nullptr ? host_pred.data() : nullptr;
      job.results_on_device = false;
      if (p.algorithm == GSP_CH) {
        run_index_sssp(*run.index, GSP_BACKEND_CPU, job);
      } else {
        cpu::sssp(job);
      }
    }
    if (float_overflow_possible(g)) check_float_row(g, source, host_dist.data());
    if (has_limit(run)) cut_rows(g, run.limit, host_dist.data(), pred != nullptr ? host_pred.data() : nullptr, 1);
    gpu::copy_memory(dist, host_dist.data(), dist_bytes, run.device, run.cuda_stream);
    if (pred != nullptr) gpu::copy_memory(pred, host_pred.data(), n * sizeof(int32_t), run.device, run.cuda_stream);
  }
  run.report(1.0);
  if (p.cold_cpu) charge_cold_cpu_run(t.seconds());
  finish_stats(stats, p.backend, p.algorithm, t.seconds());
}

namespace {

// Copies `count` values of `bytes` each from the caller's device array
// (checked to be device memory of o.device) into `out`.
void copy_from_device(std::vector<char>& out, const void* p, size_t count, size_t bytes, const char* name,
                      const RunOptions& o, void* stream) {
  out.resize(count * bytes);
  if (count == 0) return;
  require_device_array(p, o.device, name);
  gpu::copy_memory(out.data(), p, out.size(), o.device, stream);
}

// The device-array entries need CUDA even where no array is read (m = 0).
// (The weight type was checked by the API; the graph builders check the rest.)
void require_cuda_usable() {
  std::string why;
  if (!gpu::usable(&why)) throw Error(GSP_ERR_NO_DEVICE, why);
}
}  // namespace

GraphPtr build_graph_from_device(int32_t n, const int64_t* offsets, const int32_t* targets, const void* weights,
                                 gsp_dtype dtype, bool undirected, const RunOptions& o) {
  require_cuda_usable();
  require(n >= 1, GSP_ERR_INVALID_ARGUMENT, "num_vertices must be >= 1, got " + std::to_string(n));
  require(offsets != nullptr, GSP_ERR_INVALID_ARGUMENT, "offsets must not be NULL");
  void* const stream = o.cuda_stream != nullptr ? o.cuda_stream : gpu::default_stream();
  const size_t un = static_cast<size_t>(n);
  require_host_memory(bytes_mul(8, un + 1), "the graph's offsets");
  std::vector<char> off;
  copy_from_device(off, offsets, un + 1, sizeof(int64_t), "offsets", o, stream);
  // The host call's offset checks, in its order, before anything is sized
  // from offsets[n] (the same status and message as gsp_graph_create_csr).
  check_csr_offsets(n, reinterpret_cast<const int64_t*>(off.data()));
  int64_t m = 0;
  std::memcpy(&m, off.data() + un * sizeof(int64_t), sizeof m);
  require(m == 0 || targets != nullptr, GSP_ERR_INVALID_ARGUMENT, "targets must not be NULL when offsets[n] > 0");
  const size_t um = static_cast<size_t>(m), wb = weight_bytes(dtype);
  require_host_memory(bytes_mul(4 + wb, um), "a copy of the graph's " + std::to_string(m) + " arcs");
  std::vector<char> tgt, w;
  copy_from_device(tgt, targets, um, sizeof(int32_t), "targets", o, stream);
  if (weights != nullptr) copy_from_device(w, weights, um, wb, "weights", o, stream);
  return build_graph_csr(n, reinterpret_cast<const int64_t*>(off.data()), reinterpret_cast<const int32_t*>(tgt.data()),
                         weights != nullptr ? w.data() : nullptr, dtype, undirected);
}

GraphPtr build_graph_coo_from_device(int32_t n, int64_t m, const int32_t* sources, const int32_t* targets,
                                     const void* weights, gsp_dtype dtype, bool undirected, const RunOptions& o) {
  require_cuda_usable();
  require(m >= 0, GSP_ERR_INVALID_ARGUMENT, "num_edges must be >= 0, got " + std::to_string(m));
  require(m == 0 || (sources != nullptr && targets != nullptr), GSP_ERR_INVALID_ARGUMENT,
          "sources and targets must not be NULL when num_edges > 0");
  void* const stream = o.cuda_stream != nullptr ? o.cuda_stream : gpu::default_stream();
  const size_t um = static_cast<size_t>(m), wb = weight_bytes(dtype);
  require_host_memory(bytes_mul(8 + wb, um), "a copy of the graph's " + std::to_string(m) + " arcs");
  std::vector<char> src, tgt, w;
  copy_from_device(src, sources, um, sizeof(int32_t), "sources", o, stream);
  copy_from_device(tgt, targets, um, sizeof(int32_t), "targets", o, stream);
  if (weights != nullptr) copy_from_device(w, weights, um, wb, "weights", o, stream);
  return build_graph_coo(n, m, reinterpret_cast<const int32_t*>(src.data()),
                         reinterpret_cast<const int32_t*>(tgt.data()), weights != nullptr ? w.data() : nullptr, dtype,
                         undirected);
}

std::unique_ptr<Paths> run_apsp(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                                const RunOptions& o) {
  const Graph& g = *graph;
  bool all = false;
  std::vector<int32_t> list = expand_sources(g, sources, num_sources, &all);
  auto paths = std::make_unique<Paths>();
  paths->graph = graph;
  paths->n = g.n();
  paths->dtype = g.dtype();
  paths->has_paths = o.want_paths;
  const size_t rows = list.size();
  const size_t n = static_cast<size_t>(g.n());
  if (rows != 0 && n > SIZE_MAX / 8 / rows) throw std::bad_alloc();
  require_result_memory(rows, g.n(), o.want_paths, g.dtype());
  for (size_t i = 0; i < rows; i++) paths->row_of.emplace(list[i], static_cast<int32_t>(i));
  // The arrays are allocated when the engine first needs them; page-locked
  // (and reused across runs) for CUDA runs, whose rows the device copies
  // straight in. Engines deliver every row (checked below): no zero-fill.
  // The plan, made once: the result's memory and the engine follow it.
  const Plan p = plan_run(g, o, false, static_cast<int32_t>(rows));
  ArraySink sink(paths.get(), static_cast<int32_t>(rows), p.backend == GSP_BACKEND_CUDA, o.num_threads);
  run_apsp_planned(g, list, all, o, p, &sink, &paths->stats);
  require_rows_delivered(sink.delivered(), static_cast<int64_t>(rows));
  RowSink::Destination arrays;
  sink.destination(&arrays);  // allocates a result of no rows
  paths->sources = std::move(list);
  return paths;
}

void run_apsp_into_arrays(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& o,
                          void* dist, int32_t* pred, RunStats* stats) {
  require(dist != nullptr, GSP_ERR_INVALID_ARGUMENT, "distances must not be NULL");
  require(pred == nullptr || o.want_paths, GSP_ERR_INVALID_ARGUMENT,
          "predecessors is not NULL but options->flags has GSP_NO_PATHS; pass NULL for no predecessors");
  const Graph& g = *graph;
  bool all = false;
  std::vector<int32_t> list = expand_sources(g, sources, num_sources, &all);
  RunOptions run = o;
  run.want_paths = pred != nullptr;
  ArraySink sink(dist, pred, g.n(), g.dtype(), o.num_threads);
  run_apsp_into(g, list, all, run, &sink, stats);
  require_rows_delivered(sink.delivered(), static_cast<int64_t>(list.size()));
}

void plan_for(const Graph& graph, bool sssp, int32_t num_sources, const RunOptions& options, gsp_backend* backend,
              gsp_algorithm* algorithm) {
  const Plan p = plan_run(graph, options, sssp, sssp ? 1 : num_sources <= 0 ? graph.n() : num_sources);
  *backend = p.backend;
  *algorithm = p.algorithm;
}

void run_apsp_stream(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& o,
                     gsp_rows_fn on_rows, void* user) {
  require(on_rows != nullptr, GSP_ERR_INVALID_ARGUMENT, "on_rows must not be NULL");
  const Graph& g = *graph;
  bool all = false;
  std::vector<int32_t> list = expand_sources(g, sources, num_sources, &all);
  StreamSink sink(on_rows, user, g.n(), static_cast<int32_t>(list.size()), o.rows_any_order);
  RunStats stats;
  run_apsp_into(g, list, all, o, &sink, &stats);
  require_rows_delivered(sink.delivered(), static_cast<int64_t>(list.size()));
}

}  // namespace gsp::detail
