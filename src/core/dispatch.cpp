// Option normalisation, backend/algorithm choice, and running engines into
// results or streams.
#include "core/dispatch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/float_overflow.h"
#include "core/gpu_backend.h"
#include "core/host_memory.h"
#include "cpu/cpu_engines.h"

namespace gsp::detail {

namespace {

// The size of gsp_options in libgsp 0.1, the first version: no caller can
// legitimately pass less.
constexpr size_t kOptionsV1Size = sizeof(gsp_options);
constexpr uint32_t kKnownRunFlags = GSP_NO_PATHS;
constexpr int kMaxAlgorithm = GSP_SSSP_ATOMIC_64;

bool is_sssp(gsp_algorithm a) {
  switch (a) {
    case GSP_SSSP_DIJKSTRA: case GSP_SSSP_BELLMAN_FORD: case GSP_SSSP_DELTA_STEPPING:
    case GSP_SSSP_ATOMIC_LOCK: case GSP_SSSP_ATOMIC_64: case GSP_SSSP_HARISH:
    case GSP_SSSP_SPMV_CSR: case GSP_SSSP_SPMV_ELL: case GSP_SSSP_GPU_DIJKSTRA:
      return true;
    default:
      return false;
  }
}

bool needs_nonnegative(gsp_algorithm a) {
  switch (a) {
    case GSP_SSSP_BELLMAN_FORD: case GSP_SSSP_SPMV_CSR: case GSP_SSSP_SPMV_ELL:
    case GSP_APSP_FLOYD_WARSHALL: case GSP_APSP_MINPLUS: case GSP_APSP_JOHNSON:
      return false;
    default:
      return true;
  }
}

std::string algo_str(gsp_algorithm a) { return std::string("'") + gsp_algorithm_name(a) + "'"; }

// Decides the backend for an explicit algorithm.
gsp_backend choose_backend(const RunOptions& o, gsp_algorithm algo) {
  std::string why;
  switch (o.backend) {
    case GSP_BACKEND_CPU:
      if (!cpu::supports(algo)) {
        throw Error(GSP_ERR_UNSUPPORTED, "algorithm " + algo_str(algo) +
                                             " has no CPU engine; use GSP_BACKEND_CUDA or GSP_BACKEND_AUTO");
      }
      return GSP_BACKEND_CPU;
    case GSP_BACKEND_CUDA:
      if (!gpu::usable(&why)) throw Error(GSP_ERR_NO_DEVICE, "CUDA backend requested but not usable: " + why);
      if (!gpu::supports(algo)) {
        throw Error(GSP_ERR_UNSUPPORTED, "algorithm " + algo_str(algo) + " has no CUDA engine; use GSP_BACKEND_CPU");
      }
      return GSP_BACKEND_CUDA;
    default:
      if (gpu::supports(algo) && gpu::usable(nullptr)) return GSP_BACKEND_CUDA;
      if (cpu::supports(algo)) return GSP_BACKEND_CPU;
      gpu::usable(&why);
      throw Error(GSP_ERR_NO_DEVICE, "algorithm " + algo_str(algo) + " runs only on CUDA, which is not usable: " + why);
  }
}

bool cuda_preferred(const RunOptions& o) {
  if (o.backend == GSP_BACKEND_CPU) return false;
  if (o.backend == GSP_BACKEND_CUDA) return true;
  return gpu::usable(nullptr);
}

gsp_algorithm auto_sssp(const Graph& g, const RunOptions& o) {
  if (g.has_negative_weight()) return GSP_SSSP_BELLMAN_FORD;
  return cuda_preferred(o) ? GSP_SSSP_DELTA_STEPPING : GSP_SSSP_DIJKSTRA;
}

// APSP choice (measured in bench/RESULTS.md, doc/algorithms.md):
// - dense graphs, or small ones, with all rows wanted: Floyd-Warshall (n^3
//   but regular);
// - negative weights: Johnson on the CPU, Floyd-Warshall on CUDA when all
//   rows are wanted (Johnson has no CUDA engine);
// - sparse on CUDA: task-parallel, except on deep graphs (average out-degree
//   below 3: rings, roads), where its round count grows with the depth and
//   one heap Dijkstra per thread wins;
// - sparse on the CPU: one Dijkstra per source.
gsp_algorithm auto_apsp(const Graph& g, int32_t num_sources, const RunOptions& o) {
  const double n = g.n();
  const double m = static_cast<double>(g.m());
  const bool all = num_sources == g.n();
  const bool dense = m >= n * n / 16.0;
  const bool deep = m < 3.0 * n;
  const bool cuda = cuda_preferred(o);
  if (g.has_negative_weight()) {
    if (cuda && all) return GSP_APSP_FLOYD_WARSHALL;
    if (!cuda && all && (dense || n <= 256)) return GSP_APSP_FLOYD_WARSHALL;
    return GSP_APSP_JOHNSON;
  }
  if (cuda) {
    if (all && (dense || (n <= 2048 && !deep))) return GSP_APSP_FLOYD_WARSHALL;
    // task-parallel's launch grid caps n near 2.1 M vertices
    return deep || n > 2.0e6 ? GSP_APSP_HEAP : GSP_APSP_TASK_PARALLEL;
  }
  if (all && (dense || n <= 256)) return GSP_APSP_FLOYD_WARSHALL;
  return GSP_APSP_HEAP;
}

class Timer {
 public:
  Timer() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

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
};

Plan plan_run(const Graph& g, const RunOptions& o, bool sssp, int32_t num_sources) {
  gsp_algorithm algo = o.algorithm;
  if (algo == GSP_ALGO_AUTO) {
    algo = sssp ? auto_sssp(g, o) : auto_apsp(g, num_sources, o);
  } else if (sssp && !is_sssp(algo)) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "algorithm " + algo_str(algo) + " is an APSP algorithm; use gsp_apsp_run");
  } else if (!sssp && is_sssp(algo)) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "algorithm " + algo_str(algo) + " is an SSSP algorithm; use gsp_sssp_run");
  }
  if (needs_nonnegative(algo) && g.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT, "algorithm " + algo_str(algo) +
                                             " needs non-negative weights; the graph's smallest weight is " +
                                             std::to_string(g.min_weight()) +
                                             " (use bellman-ford, johnson or floyd-warshall)");
  }
  Plan p{algo, choose_backend(o, algo)};
  // AUTO with no CUDA engine for the AUTO-chosen algorithm falls back to the CPU.
  return p;
}

// Float engines add in float, where a cycle whose weights sum to zero or a
// little above it can evaluate below zero (1e-3 + 1e6 - 1e6 rounds to 0, so
// x + 1e-3 + 1e6 - 1e6 can come out below x). So on a float graph a
// negative-cycle verdict is taken only from the CPU Bellman-Ford, whose labels
// are double (cpu/sssp_core.h): any other engine's verdict is checked by it.
// True when `e` is such a verdict, to be checked. (Without negative arcs no
// engine can see a negative cycle, in float either: adding w >= 0 never
// lowers a sum. Such a verdict would be a bug, and is not hidden.)
bool float_cycle_verdict_to_check(const Graph& g, const Plan& p, const Error& e) {
  return e.status() == GSP_ERR_NEGATIVE_CYCLE && g.dtype() == GSP_F32 && g.has_negative_weight() &&
         !(p.backend == GSP_BACKEND_CPU &&
           (p.algorithm == GSP_SSSP_BELLMAN_FORD || p.algorithm == GSP_APSP_JOHNSON));
}

// memcpy split over up to `threads` threads for large blocks (first-touch
// page faults of a fresh result dominate a single-threaded copy).
void parallel_copy(void* dst, const void* src, size_t bytes, int32_t threads) {
  constexpr size_t kChunk = size_t(16) << 20;
  const size_t parts = std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), bytes / kChunk);
  if (parts <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const size_t step = (bytes + parts - 1) / parts;
  std::vector<std::thread> pool;
  try {
    for (size_t i = 1; i < parts; i++) {
      const size_t at = i * step, len = std::min(step, bytes - at);
      pool.emplace_back([=] { std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, len); });
    }
  } catch (...) {
    for (auto& t : pool) t.join();
    throw;
  }
  std::memcpy(dst, src, std::min(step, bytes));
  for (auto& t : pool) t.join();
}

// Collects rows into a Paths result.
class CollectSink final : public RowSink {
 public:
  CollectSink(Paths* p, int32_t threads) : p_(p), threads_(threads) {}
  void rows(int32_t first, int32_t count, const void* dist, const int32_t* pred) override {
    const size_t n = static_cast<size_t>(p_->n);
    const size_t at = static_cast<size_t>(first) * n;
    const size_t len = static_cast<size_t>(count) * n;
    void* to = p_->dtype == GSP_F32 ? static_cast<void*>(p_->dist_f32.data() + at) : p_->dist_i32.data() + at;
    parallel_copy(to, dist, len * 4, threads_);
    if (p_->has_paths && pred != nullptr) parallel_copy(p_->pred.data() + at, pred, len * sizeof(int32_t), threads_);
    delivered_ += count;
  }
  int32_t preferred_block_rows() const override { return 256; }
  int32_t delivered() const { return delivered_; }

 private:
  Paths* p_;
  int32_t threads_;
  int32_t delivered_ = 0;
};

// Hands rows to the caller's callback; checks order.
class StreamSink final : public RowSink {
 public:
  StreamSink(gsp_rows_fn fn, void* user, int32_t n) : fn_(fn), user_(user), n_(n) {}
  void rows(int32_t first, int32_t count, const void* dist, const int32_t* pred) override {
    if (first != next_) {
      throw Error(GSP_ERR_INTERNAL, "rows delivered out of order: got " + std::to_string(first) + ", expected " +
                                        std::to_string(next_));
    }
    next_ += count;
    if (fn_(user_, first, count, dist, pred) != 0) {
      throw Error(GSP_ERR_CANCELLED, "cancelled by the rows callback at row " + std::to_string(first));
    }
  }
  // Bounded host memory: about 64 MiB of distances + predecessors per block.
  int32_t preferred_block_rows() const override {
    const int64_t per_row = static_cast<int64_t>(n_) * 8;
    return static_cast<int32_t>(std::clamp<int64_t>((64ll << 20) / std::max<int64_t>(per_row, 1), 1, 1024));
  }
  int32_t delivered() const { return next_; }

 private:
  gsp_rows_fn fn_;
  void* user_;
  int32_t n_;
  int32_t next_ = 0;
};

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
  for (int32_t i = 0; i < num_sources; i++) {
    if (list[i] < 0 || list[i] >= g.n()) {
      throw Error(GSP_ERR_INVALID_ARGUMENT, "sources[" + std::to_string(i) + "] = " + std::to_string(list[i]) +
                                                " is out of range [0, " + std::to_string(g.n()) + ")");
    }
  }
  *all = false;
  return list;
}

void run_apsp_into(const Graph& g, const std::vector<int32_t>& list, bool all, const RunOptions& o,
                   RowSink* sink, RunStats* stats) {
  Plan p = plan_run(g, o, false, static_cast<int32_t>(list.size()));
  ApspJob job;
  job.graph = &g;
  job.sources = list.data();
  job.num_sources = static_cast<int32_t>(list.size());
  job.all_sources = all;
  job.algorithm = p.algorithm;
  job.options = &o;
  FloatOverflowSink checked(g, list.data(), sink);
  job.sink = float_overflow_possible(g) ? &checked : sink;
  job.stats = stats;
  Timer t;
  o.report(0.0);
  try {
    if (p.backend == GSP_BACKEND_CUDA) gpu::apsp(job); else cpu::apsp(job);
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
  finish_stats(stats, p.backend, p.algorithm, t.seconds());
}

// count elements of a result array: page-locked (gpu::result_buffer_take())
// when `pinned` and the CUDA layer can give it, else ordinary memory.
template <class T>
void allocate_result(HostArray<T>& array, int32_t count, bool pinned) {
  const size_t bytes = static_cast<size_t>(count) * sizeof(T);
  size_t got = 0;
  void* p = pinned ? gpu::result_buffer_take(bytes, &got) : nullptr;
  if (p != nullptr) {
    array.adopt(static_cast<T*>(p), static_cast<size_t>(count), got, gpu::result_buffer_give);
  } else {
    array.resize_uninitialized(static_cast<size_t>(count));
  }
}

// A result of rows x n distances (and as many predecessors): refused at
// once when it cannot fit (host_memory.h).
void require_result_memory(size_t rows, int32_t n, bool paths) {
  const uint64_t cells = bytes_mul(rows, static_cast<uint64_t>(n));
  require_host_memory(bytes_mul(cells, paths ? 8 : 4),
                      "a result of " + std::to_string(rows) + (rows == 1 ? " row" : " rows") + " x " +
                          std::to_string(n) + " vertices (distances" + (paths ? " and predecessors)" : ")"));
}

}  // namespace

RunOptions normalize_options(const gsp_options* options) {
  RunOptions r;
  r.num_threads = 0;
  if (options != nullptr) {
    if (options->size < kOptionsV1Size) {
      throw Error(GSP_ERR_INVALID_ARGUMENT, "options->size is " + std::to_string(options->size) +
                                                ", smaller than gsp_options of libgsp 0.1 (" +
                                                std::to_string(kOptionsV1Size) + "); call gsp_options_init first");
    }
    // Fields beyond what this library knows are ignored; the caller's size
    // covers at least every field of version 0.1.
    gsp_options o;
    std::memcpy(&o, options, sizeof o);
    // A C caller may store any int in the enum fields; loading such a value
    // as a C++ enum is undefined (UBSan: -fsanitize=enum), so check the
    // stored integers before reading the fields as enums.
    int backend_raw = 0, algorithm_raw = 0;
    static_assert(sizeof(o.backend) == sizeof(int) && sizeof(o.algorithm) == sizeof(int), "enum size");
    std::memcpy(&backend_raw, reinterpret_cast<const char*>(&o) + offsetof(gsp_options, backend), sizeof(int));
    std::memcpy(&algorithm_raw, reinterpret_cast<const char*>(&o) + offsetof(gsp_options, algorithm), sizeof(int));
    if (backend_raw != GSP_BACKEND_AUTO && backend_raw != GSP_BACKEND_CPU && backend_raw != GSP_BACKEND_CUDA) {
      throw Error(GSP_ERR_INVALID_ARGUMENT, "options->backend = " + std::to_string(backend_raw) +
                                                " is not a gsp_backend");
    }
    if (algorithm_raw < 0 || algorithm_raw > kMaxAlgorithm) {
      throw Error(GSP_ERR_INVALID_ARGUMENT, "options->algorithm = " + std::to_string(algorithm_raw) +
                                                " is not a gsp_algorithm");
    }
    require(o.device >= 0, GSP_ERR_INVALID_ARGUMENT, "options->device = " + std::to_string(o.device) + " is negative");
    require((o.flags & ~kKnownRunFlags) == 0, GSP_ERR_INVALID_ARGUMENT,
            "options->flags has unknown bits: " + std::to_string(o.flags & ~kKnownRunFlags));
    require(std::isfinite(o.delta) && o.delta >= 0, GSP_ERR_INVALID_ARGUMENT,
            "options->delta = " + std::to_string(o.delta) + " must be finite and >= 0");
    require(o.num_threads >= 0, GSP_ERR_INVALID_ARGUMENT,
            "options->num_threads = " + std::to_string(o.num_threads) + " is negative");
    r.backend = o.backend;
    r.algorithm = o.algorithm;
    r.device = o.device;
    r.want_paths = (o.flags & GSP_NO_PATHS) == 0;
    r.delta = o.delta;
    r.num_threads = o.num_threads;
    r.device_memory_limit = o.device_memory_limit;
    r.cuda_stream = o.cuda_stream;
    r.progress = o.progress;
    r.progress_user = o.progress_user;
  }
  if (r.num_threads == 0) r.num_threads = static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  return r;
}

std::unique_ptr<Paths> run_sssp(const GraphPtr& graph, int32_t source, const RunOptions& o) {
  const Graph& g = *graph;
  if (source < 0 || source >= g.n()) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "source = " + std::to_string(source) + " is out of range [0, " +
                                              std::to_string(g.n()) + ")");
  }
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
  require_result_memory(1, g.n(), o.want_paths);
  if (g.dtype() == GSP_F32) {
    allocate_result(paths->dist_f32, g.n(), pinned);
  } else {
    allocate_result(paths->dist_i32, g.n(), pinned);
  }
  if (o.want_paths) allocate_result(paths->pred, g.n(), pinned);

  SsspJob job;
  job.graph = &g;
  job.source = source;
  job.algorithm = p.algorithm;
  job.options = &o;
  job.dist = g.dtype() == GSP_F32 ? static_cast<void*>(paths->dist_f32.data()) : paths->dist_i32.data();
  job.pred = o.want_paths ? paths->pred.data() : nullptr;
  job.stats = &paths->stats;
  o.report(0.0);
  try {
    if (p.backend == GSP_BACKEND_CUDA) gpu::sssp(job); else cpu::sssp(job);
  } catch (const Error& e) {
    if (!float_cycle_verdict_to_check(g, p, e)) throw;
    // The CPU Bellman-Ford answers: its own verdict, or the distances.
    p = Plan{GSP_SSSP_BELLMAN_FORD, GSP_BACKEND_CPU};
    job.algorithm = p.algorithm;
    paths->stats = RunStats{};
    cpu::sssp(job);
  }
  if (float_overflow_possible(g)) check_float_row(g, source, paths->dist_f32.data());
  o.report(1.0);
  finish_stats(&paths->stats, p.backend, p.algorithm, t.seconds());
  return paths;
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
  require_result_memory(rows, g.n(), o.want_paths);
  // Engines deliver every row (checked below), so no zero-fill.
  if (g.dtype() == GSP_F32) paths->dist_f32.resize_uninitialized(rows * n); else paths->dist_i32.resize_uninitialized(rows * n);
  if (o.want_paths) paths->pred.resize_uninitialized(rows * n);
  for (size_t i = 0; i < rows; i++) paths->row_of.emplace(list[i], static_cast<int32_t>(i));
  CollectSink sink(paths.get(), o.num_threads);
  run_apsp_into(g, list, all, o, &sink, &paths->stats);
  if (sink.delivered() != static_cast<int32_t>(rows)) {
    throw Error(GSP_ERR_INTERNAL, "engine delivered " + std::to_string(sink.delivered()) + " of " +
                                      std::to_string(rows) + " rows");
  }
  paths->sources = std::move(list);
  return paths;
}

void plan_for(const Graph& graph, bool sssp, int32_t num_sources, const RunOptions& options,
              gsp_backend* backend, gsp_algorithm* algorithm) {
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
  StreamSink sink(on_rows, user, g.n());
  RunStats stats;
  run_apsp_into(g, list, all, o, &sink, &stats);
  if (sink.delivered() != static_cast<int32_t>(list.size())) {
    throw Error(GSP_ERR_INTERNAL, "engine delivered " + std::to_string(sink.delivered()) + " of " +
                                      std::to_string(list.size()) + " rows");
  }
}

}  // namespace gsp::detail
