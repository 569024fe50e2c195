// Many-to-many tables (gsp_table_run, gsp_table_run_into): the lists'
// checks, the backend choice (the all-pairs plan for the K sources), and
// the two ways a table is computed: the CPU's early-exit engine
// (engines/cpu/apsp_sparse/table_dijkstra.cpp), or a CUDA all-pairs engine whose rows pass
// through a sink that keeps only the target columns (and climbs each row's
// predecessors into the row's tree of paths), so that n-wide rows exist one
// block at a time, never for all K sources.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/distance_limit.h"
#include "dispatch/cpu_cost_model.h"
#include "dispatch/cuda_apsp_job.h"
#include "dispatch/cuda_cost_model.h"
#include "dispatch/device_startup.h"
#include "dispatch/dispatch.h"
#include "dispatch/float_overflow.h"
#include "dispatch/multi_device.h"
#include "dispatch/road_index_runs.h"
#include "core/gpu_runtime.h"
#include "core/host_memory.h"
#include "core/result_memory.h"
#include "dispatch/row_sinks.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cuda/cuda_backend.h"

namespace gsp::detail {

namespace {

void check_list(const Graph& g, const int32_t* list, int32_t count, const char* name, const char* count_name) {
  require(count >= 0, GSP_ERR_INVALID_ARGUMENT,
          std::string(count_name) + " = " + std::to_string(count) + " is negative");
  require(list != nullptr || count == 0, GSP_ERR_INVALID_ARGUMENT,
          std::string(name) + " is NULL but " + count_name + " = " + std::to_string(count));
  for (int32_t i = 0; i < count; ++i) require_entry_index(list[i], g.n(), name, i);
}

// Keeps the target columns of the rows a CUDA engine delivers: distances
// into the table, and (with predecessors) each row's paths to its targets
// as one tree (TablePaths, PathTreeBuilder).
class TableSink final : public RowSink {
 public:
  TableSink(const Graph& g, const int32_t* sources, int32_t num_sources, const int32_t* targets, int32_t num_targets,
            void* dist, TablePaths* paths, int32_t threads)
      : g_(g),
        sources_(sources),
        targets_(targets),
        t_(num_targets),
        dist_(dist),
        paths_(paths),
        sources_count_(num_sources),
        threads_(std::max(1, threads)),
        columns_(targets, targets + num_targets) {}

  // Rows in any order and from several threads at once (a run on several
  // devices, dispatch/multi_device.h): each row writes only its own cells
  // and its own source's paths.
  Order order() const override { return Order::kAnyThread; }
  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override {
    require(first_index >= 0 && num_rows >= 0 && first_index <= sources_count_ - num_rows, GSP_ERR_INTERNAL,
            "table: an engine delivered rows past the sources");
    next_.fetch_add(num_rows);
    require(paths_ == nullptr || pred != nullptr, GSP_ERR_INTERNAL,
            "table: an engine delivered rows without predecessors");
    with_weight_type(g_.dtype(), [&](auto w0) {
      using W = decltype(w0);
      const size_t n = static_cast<size_t>(g_.n());
      auto one_row = [&](int32_t r) {
        const int32_t i = first_index + r;
        const W* d = static_cast<const W*>(dist) + static_cast<size_t>(r) * n;
        W* cells = static_cast<W*>(dist_) + static_cast<size_t>(i) * static_cast<size_t>(t_);
        for (int32_t j = 0; j < t_; ++j) cells[j] = d[targets_[j]];
        if (paths_ == nullptr) return;
        std::vector<uint8_t> reachable(static_cast<size_t>(t_));
        for (int32_t j = 0; j < t_; ++j) reachable[static_cast<size_t>(j)] = cells[j] != Dist<W>::inf();
        std::unique_ptr<PathTreeBuilder> builder = builders_.take();
        builder->build(pred + static_cast<size_t>(r) * n, g_.n(), sources_[i], targets_, t_, reachable.data(),
                       paths_->row(i), paths_->ends(i), paths_->lengths(i));
        builders_.give(std::move(builder));
      };
      // With paths each row climbs from its T targets to its source (on a
      // road graph each row's tree holds tens of thousands of vertices):
      // the block's rows side by side, each writing only its own cells and
      // tree, on the CPU engines' pooled threads (the first failure is
      // rethrown).
      cpu::for_each_index(paths_ == nullptr ? 1 : threads_, num_rows, one_row);
    });
  }
  // Without paths only the target columns matter: an engine may gather
  // them on the device and hand over narrow rows.
  const std::vector<int32_t>* columns() const override { return paths_ == nullptr ? &columns_ : nullptr; }
  void narrow_rows(int32_t first_index, int32_t num_rows, const void* dist) override {
    require(paths_ == nullptr && first_index >= 0 && num_rows >= 0 && first_index <= sources_count_ - num_rows,
            GSP_ERR_INTERNAL, "table: an engine delivered narrow rows past the sources");
    const size_t bytes = weight_bytes(g_.dtype()) * static_cast<size_t>(t_) * static_cast<size_t>(num_rows);
    std::memcpy(static_cast<char*>(dist_) +
                    weight_bytes(g_.dtype()) * static_cast<size_t>(t_) * static_cast<size_t>(first_index),
                dist, bytes);
    next_.fetch_add(num_rows);
  }
  // Bounded host memory: about 64 MiB of distances and predecessors a block.
  int32_t preferred_block_rows() const override {
    const int64_t per_row = static_cast<int64_t>(g_.n()) * 8;
    return static_cast<int32_t>(std::clamp<int64_t>((int64_t(64) << 20) / std::max<int64_t>(per_row, 1), 1, 1024));
  }
  int32_t delivered() const { return next_.load(); }

 private:
  const Graph& g_;
  const int32_t* sources_;
  const int32_t* targets_;
  int32_t t_;
  void* dist_;
  TablePaths* paths_;
  BuilderPool builders_;
  int32_t sources_count_;
  int32_t threads_;
  std::vector<int32_t> columns_;  // the targets
  std::atomic<int32_t> next_{0};  // rows delivered
};

// One source on CUDA with the algorithm left to AUTO (a point-to-point
// query the CPU gave up on, a 1 x T table): the single-source engine AUTO
// runs for gsp_sssp_run, whose whole row is one copy into page-locked
// memory; the many-source engines' passes cost it more (Graph65536: 0.89 ms
// against 0.27 ms). With one distinct target the engine may stop once that
// target is final (SsspJob::stop_at; delta-stepping does, at the end of
// the target's bucket). Its row's target columns make the cells. Returns
// the algorithm that ran.
gsp_algorithm cuda_table_one_source(const Graph& g, const TableJob& t) {
  RunOptions o = *t.options;
  o.want_paths = t.paths != nullptr;
  o.backend = GSP_BACKEND_CUDA;
  gsp_backend backend = GSP_BACKEND_CUDA;
  gsp_algorithm algorithm = GSP_ALGO_AUTO;
  plan_for(g, true, 1, o, &backend, &algorithm);
  const int32_t s = t.sources[0];
  bool one_target = true;
  for (int32_t j = 1; j < t.num_targets; ++j) one_target = one_target && t.targets[j] == t.targets[0];
  bool stopped = false;
  HostArray<int32_t> pred;
  if (o.want_paths) allocate_result(pred, static_cast<size_t>(g.n()), true);
  TableSink sink(g, t.sources, 1, t.targets, t.num_targets, t.dist, t.paths, 1);
  FloatOverflowSink checked(g, t.sources, &sink);
  with_weight_type(g.dtype(), [&](auto w0) {
    using W = decltype(w0);
    HostArray<W> dist;
    allocate_result(dist, static_cast<size_t>(g.n()), true);
    SsspJob job;
    job.graph = &g;
    job.source = s;
    job.algorithm = algorithm;
    job.options = &o;
    job.dist = dist.data();
    job.pred = o.want_paths ? pred.data() : nullptr;
    job.stats = t.stats;
    job.stop_at = one_target ? t.targets[0] : -1;
    job.stopped_early = &stopped;
    gpu::sssp(job);
    // The row's target columns, as the all-pairs engines' rows are kept. A
    // row cut at the target's bucket has unreached vertices past arcs out
    // of reached ones, which the float row rule would call overflows: the
    // target was reached, so its distance fits (as the CPU's early exit
    // decides), and such a row skips the rule.
    RowSink* out = !stopped && float_overflow_possible(g) ? static_cast<RowSink*>(&checked) : &sink;
    out->rows(0, 1, dist.data(), o.want_paths ? pred.data() : nullptr);
  });
  return algorithm;
}

// The table on CUDA: the plan's all-pairs engine for the K sources (one
// source under AUTO: the single-source engine). Returns the algorithm that
// ran.
gsp_algorithm cuda_table(const Graph& g, const TableJob& t, gsp_algorithm algorithm) {
  if (t.num_sources == 1 && t.options->algorithm == GSP_ALGO_AUTO && algorithm != GSP_CH) {
    return cuda_table_one_source(g, t);
  }
  RunOptions o = *t.options;
  o.want_paths = t.paths != nullptr;
  bool all = t.num_sources == g.n();
  for (int32_t i = 0; all && i < t.num_sources; ++i) all = t.sources[i] == i;
  TableSink sink(g, t.sources, t.num_sources, t.targets, t.num_targets, t.dist, t.paths, o.num_threads);
  FloatOverflowSink checked(g, t.sources, &sink);
  ApspJob job;
  job.graph = &g;
  job.sources = t.sources;
  job.num_sources = t.num_sources;
  job.all_sources = all;
  job.algorithm = algorithm;
  job.options = &o;
  job.sink = float_overflow_possible(g) ? static_cast<RowSink*>(&checked) : &sink;
  job.stats = t.stats;
  if (algorithm == GSP_CH) {
    run_index_apsp(*o.index, GSP_BACKEND_CUDA, job);  // the index's rows (the plan checked it is the graph's)
  } else {
    run_cuda_apsp_job(job, false);
  }
  require_rows_delivered(sink.delivered(), t.num_sources);
  return algorithm;
}

void check_lists(const Graph& g, const int32_t* sources, int32_t num_sources, const int32_t* targets,
                 int32_t num_targets) {
  check_list(g, sources, num_sources, "sources", "num_sources");
  check_list(g, targets, num_targets, "targets", "num_targets");
}

// Targets up to which AUTO keeps a table of at most one source per thread
// on the CPU's early-exit search.
constexpr int32_t kFewTableTargets = 64;

// The share of the device's estimated time that AUTO's point-to-point bet
// may spend on the CPU. A far target then costs at most (1 + share) times
// the device's estimated time, a target the CPU settles within the share
// costs CPU time only; one just beyond it pays the share and the device,
// 1 + 1 / share times what the CPU alone would have spent. Random pairs on
// a road graph are far almost always, and the bar is the worst
// query, so the share is small: an even split (share 1, the classic
// ski-rental rule) would double every far query. NY on the H200: the
// estimate of one source is about 3.5 ms and the device answers the
// farthest target in about 2.5 ms; with an eighth (0.44 ms of searching
// first) the worst of 200 random pairs took 3.12-3.24 ms.
constexpr double kCpuShareOfDevice = 0.05;

// Vertices a CPU search may settle before AUTO's point-to-point bet is lost:
// as many as one thread settles in kCpuShareOfDevice of the time the CUDA
// engine is estimated to take for the K sources
// (dispatch/cuda_cost_model.h), at least 1024.
int64_t point_to_point_budget(const Graph& g, int32_t num_sources, gsp_algorithm algorithm, bool paths) {
  const CudaApspCosts c = cuda_apsp_costs(g, std::max(1, num_sources), paths);
  const double device = c.of(algorithm) * kCpuShareOfDevice;
  const double per_vertex = cpu_dijkstra_seconds_per_settled(g);
  return static_cast<int64_t>(std::max(1024.0, std::min(device / per_vertex, 1e15)));
}

// Plans and runs on checked lists; dist holds K x T values, paths (or
// null) gets every cell's path.
void table_into(const Graph& g, const int32_t* sources, int32_t num_sources, const int32_t* targets,
                int32_t num_targets, const RunOptions& o, void* dist, TablePaths* paths, RunStats* stats) {
  // The all-pairs plan for these sources: the same option, algorithm and
  // weight checks as gsp_apsp_run (an SSSP algorithm is refused, Dijkstra
  // on negative arcs too, CUDA must be usable when asked for).
  gsp_backend backend = GSP_BACKEND_CPU;
  gsp_algorithm algorithm = GSP_ALGO_AUTO;
  plan_for(g, false, std::max(num_sources, 1), o, &backend, &algorithm);
  // AUTO, few sources and few targets (point-to-point and small tables):
  // each source gets a CPU thread of its own and its search stops at the
  // targets, where a device engine computes whole rows (doc/tables.md). It
  // is a bet that the targets are near: each search may settle only as
  // many vertices as the CPU handles in the time the device would take for
  // the whole table; past that the CPU gives up and the device answers, so
  // a far target costs at most about twice the device's time.
  int64_t settle_budget = 0;
  if (o.backend == GSP_BACKEND_AUTO && o.algorithm == GSP_ALGO_AUTO && backend == GSP_BACKEND_CUDA &&
      algorithm != GSP_CH && num_sources <= std::max<int32_t>(1, o.num_threads) && num_targets <= kFewTableTargets) {
    backend = GSP_BACKEND_CPU;
    if (!g.has_negative_weight()) settle_budget = point_to_point_budget(g, num_sources, algorithm, paths != nullptr);
  }
  const auto t0 = std::chrono::steady_clock::now();
  TableJob job;
  job.graph = &g;
  job.sources = sources;
  job.num_sources = num_sources;
  job.targets = targets;
  job.num_targets = num_targets;
  job.options = &o;
  job.dist = dist;
  job.paths = paths;
  job.stats = stats;
  job.settle_budget = settle_budget;
  // On the CPU every algorithm runs as the early-exit table engine (Johnson
  // on negative arcs); what ran is reported.
  const gsp_algorithm cpu_algorithm = algorithm == GSP_CH       ? GSP_CH
                                      : g.has_negative_weight() ? GSP_APSP_JOHNSON
                                                                : GSP_APSP_HEAP;
  o.report(0.0);
  // The table on CUDA. The CPU answers in two cases, as the CPU engine
  // would: a float engine's negative-cycle verdict it does not confirm in
  // float64 (as dispatch.cpp does for gsp_apsp_run), and an int32 or float
  // overflow, which the device decides on whole rows while a table's
  // early-exit search sees only the paths to its targets (a vertex beyond
  // them whose distance does not fit is not the table's).
  auto on_cuda = [&] {
    try {
      backend = GSP_BACKEND_CUDA;
      algorithm = cuda_table(g, job, algorithm);
    } catch (const Error& e) {
      const bool unconfirmed_cycle = e.status() == GSP_ERR_NEGATIVE_CYCLE && is_float_dtype(g.dtype()) &&
                                     g.has_negative_weight() && !cpu::has_negative_cycle(g);
      if (!unconfirmed_cycle && e.status() != GSP_ERR_OVERFLOW) throw;
      backend = GSP_BACKEND_CPU;
      *stats = RunStats{};
      if (paths != nullptr) paths->clear();
      job.settle_budget = 0;
      if (algorithm == GSP_CH) {
        cpu::index_table(*o.index, job);
      } else {
        cpu::table(job);
      }
    }
  };
  if (num_sources > 0 && num_targets > 0) {
    if (algorithm == GSP_CH &&
        (backend != GSP_BACKEND_CUDA ||
         (o.backend == GSP_BACKEND_AUTO &&
          !index_table_rows_win(g, num_sources, num_targets, o.num_threads, paths != nullptr)))) {
      // From an index a table is the CPU's bucket search, or the device's
      // rows where CUDA is asked for or AUTO estimates them faster (large
      // tables; doc/road-index.md, "Tables").
      backend = GSP_BACKEND_CPU;
      cpu::index_table(*o.index, job);  // the plan checked it is the graph's
    } else if (backend == GSP_BACKEND_CUDA) {
      on_cuda();
    } else if (!cpu::table(job)) {
      // A target was not near enough: the device answers the table.
      *stats = RunStats{};
      if (paths != nullptr) paths->clear();
      job.settle_budget = 0;
      on_cuda();
    }
  }
  o.report(1.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // AUTO kept this run on the CPU while no device has started: charge it
  // to the start-up account (dispatch/device_startup.h), as gsp_apsp_run does.
  if (backend == GSP_BACKEND_CPU && algorithm != GSP_CH && o.backend == GSP_BACKEND_AUTO && o.cuda_stream == nullptr &&
      !gpu::started()) {
    charge_cold_cpu_run(seconds);
  }
  stats->backend = backend;
  if (backend == GSP_BACKEND_CPU) {
    stats->algorithm = cpu_algorithm;
    stats->device = -1;
  } else {
    stats->algorithm = algorithm;
  }
  if (stats->seconds <= 0) stats->seconds = std::max(0.0, seconds - stats->upload_seconds);
}

// K x T cells of distances (and path offsets): refused at once when they
// cannot fit (host_memory.h).
void require_table_memory(int32_t k, int32_t t, bool paths, gsp_dtype dtype) {
  const uint64_t cells = bytes_mul(static_cast<uint64_t>(k), static_cast<uint64_t>(t));
  require_host_memory(bytes_mul(cells, weight_bytes(dtype) + (paths ? 8 : 0)), [&] {
    return "a table of " + std::to_string(k) + " x " + std::to_string(t) + " cells (distances" +
           (paths ? " and path offsets)" : ")");
  });
}

}  // namespace

std::unique_ptr<Table> run_table(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                                 const int32_t* targets, int32_t num_targets, const RunOptions& o) {
  const Graph& g = *graph;
  check_lists(g, sources, num_sources, targets, num_targets);
  auto t = std::make_unique<Table>();
  t->num_sources = num_sources;
  t->num_targets = num_targets;
  t->n = g.n();
  t->dtype = g.dtype();
  t->sources.assign(sources, sources + num_sources);
  t->targets.assign(targets, targets + num_targets);
  t->has_paths = o.want_paths;
  require_limit_allowed(g, o);
  require_table_memory(num_sources, num_targets, o.want_paths, g.dtype());
  t->allocate_dist();
  if (o.want_paths) t->paths.reset(num_sources, num_targets);
  table_into(g, t->sources.data(), num_sources, t->targets.data(), num_targets, o, t->dist(),
             o.want_paths ? &t->paths : nullptr, &t->stats);
  if (has_limit(o)) cut_table(*t, o.limit);
  return t;
}

void run_table_into(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const int32_t* targets,
                    int32_t num_targets, const RunOptions& o, void* dist, RunStats* stats) {
  const Graph& g = *graph;
  check_lists(g, sources, num_sources, targets, num_targets);
  require(dist != nullptr || num_sources == 0 || num_targets == 0, GSP_ERR_INVALID_ARGUMENT,
          "distances must not be NULL (the table has " + std::to_string(num_sources) + " x " +
              std::to_string(num_targets) + " cells)");
  require_limit_allowed(g, o);
  RunOptions run = o;
  run.want_paths = false;
  table_into(g, sources, num_sources, targets, num_targets, run, dist, nullptr, stats);
  if (has_limit(o)) {
    cut_table_dist(g.dtype(), o.limit, dist, static_cast<size_t>(num_sources) * static_cast<size_t>(num_targets));
  }
}

}  // namespace gsp::detail
