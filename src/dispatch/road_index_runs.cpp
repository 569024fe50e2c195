// Road indexes in the dispatcher (road_index_runs.h).
#include "dispatch/road_index_runs.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "core/error.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cuda/cuda_backend.h"

namespace gsp::detail {

namespace {

std::string describe(int32_t n, int64_t m, gsp_dtype dtype) {
  return "n = " + std::to_string(n) + ", m = " + std::to_string(m) + ", " +
         std::string(dtype == GSP_I32   ? "int32"
                     : dtype == GSP_F32 ? "float32"
                                        : "float64") +
         " weights";
}

// The upward searches of a CUDA sweep, on the CPU backend's threads.
class CpuSeeder final : public ChSeeder {
 public:
  CpuSeeder(const ChBase& index, int threads) : index_(index), threads_(threads) {}
  void seeds(const int32_t* sources, int32_t count, ChSeeds<int32_t>& out) const override { run(sources, count, out); }
  void seeds(const int32_t* sources, int32_t count, ChSeeds<float>& out) const override { run(sources, count, out); }
  void seeds(const int32_t* sources, int32_t count, ChSeeds<double>& out) const override { run(sources, count, out); }

 private:
  template <class W>
  void run(const int32_t* sources, int32_t count, ChSeeds<W>& out) const {
    cpu::index_seeds(index_, sources, count, threads_, out);
  }
  const ChBase& index_;
  int threads_;
};

// A CPU thread's time per vertex of a sweep row (NY: 9.7 ms for 264,346
// vertices, bench_index on the H200 host).
constexpr double kCpuSweepSecondsPerVertex = 3.7e-8;

}  // namespace

void run_index_sssp(const ChBase& index, gsp_backend backend, const SsspJob& job) {
  if (backend != GSP_BACKEND_CUDA) return cpu::index_sssp(index, job);
  gpu::index_sssp(index, CpuSeeder(index, job.options->num_threads), job);
}

void run_index_apsp(const ChBase& index, gsp_backend backend, const ApspJob& job) {
  if (backend != GSP_BACKEND_CUDA) return cpu::index_apsp(index, job);
  gpu::index_apsp(index, CpuSeeder(index, job.options->num_threads), job);
}

double cpu_index_rows_seconds(const Graph& graph, int32_t rows, int32_t threads) {
  // A thread sweeps 8 rows together (ch_query.cpp).
  const int32_t busy = std::max(1, std::min(std::max(1, threads), (rows + 7) / 8));
  return kCpuSweepSecondsPerVertex * graph.n() * std::max(1, rows) / busy;
}

bool index_table_rows_win(const Graph& graph, int32_t k, int32_t t, int32_t threads, bool paths) {
  // Measured on the H200 host (bench_index, NY, 16 threads): the device's
  // rows 0.0185 ms a source (10,000 x 10,000: 186 ms) and a few ms to
  // start; the buckets 0.0034 ms a search (sources and targets) and
  // 1.2e-6 ms a cell (1000 x 1000: 7.9 ms, 10,000 x 10,000: 189 ms). With
  // paths (2026-12-03, 1000 x 1000): the rows 0.097 ms a source, their
  // predecessors copied and climbed into each row's tree (99.7 ms), the
  // buckets 1.17e-4 ms a cell, each cell's part below its meeting vertex
  // copied (121.8 ms).
  const double size = static_cast<double>(graph.n()) / 264346.0;
  const double share = 16.0 / std::max(1, threads);
  const double per_source = paths ? 0.097 : 0.0185;
  const double per_cell = paths ? 1.17e-4 : 1.2e-6;
  const double rows = 3.0 + per_source * size * k;
  const double buckets = share * (0.0034 * (static_cast<double>(k) + t) + per_cell * static_cast<double>(k) * t);
  return rows < buckets;
}

void require_index_of(const ChBase& index, const Graph& graph) {
  const bool same = index.n == graph.n() && index.dtype == graph.dtype() && index.graph_arcs == graph.m();
  if (!same) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "the road index was built for another graph (" +
                                              describe(index.n, index.graph_arcs, index.dtype) + "; this one has " +
                                              describe(graph.n(), graph.m(), graph.dtype()) + ")");
  }
  if (index.graph_fingerprint != graph.fingerprint()) {
    throw Error(GSP_ERR_INVALID_ARGUMENT,
                "the road index was built for another graph of the same size (its arcs or weights differ: "
                "build the index again for this graph)");
  }
}

const ChBase* index_for(const Graph& graph, const RunOptions& options) {
  if (options.algorithm == GSP_CH && options.index == nullptr) {
    throw Error(GSP_ERR_INVALID_ARGUMENT,
                "algorithm 'ch' answers from a road index: set options.index (gsp_index_build, gsp_index_load)");
  }
  if (options.index == nullptr || (options.algorithm != GSP_ALGO_AUTO && options.algorithm != GSP_CH)) return nullptr;
  require_index_of(*options.index, graph);
  return options.index;
}

std::unique_ptr<ChBase> build_road_index(const Graph& graph, const RunOptions& options, RunStats* stats) {
  const auto t0 = std::chrono::steady_clock::now();
  options.report(0.0);
  auto index = cpu::build_index(graph, options, stats);
  options.report(1.0);
  stats->backend = GSP_BACKEND_CPU;
  stats->algorithm = GSP_CH;
  stats->device = -1;
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return index;
}

}  // namespace gsp::detail
