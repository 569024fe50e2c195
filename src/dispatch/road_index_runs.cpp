// Road indexes in the dispatcher (road_index_runs.h).
#include "dispatch/road_index_runs.h"

#include <chrono>
#include <string>

#include "core/error.h"
#include "engines/cpu/cpu_backend.h"

namespace gsp::detail {

namespace {

std::string describe(int32_t n, int64_t m, gsp_dtype dtype) {
  return "n = " + std::to_string(n) + ", m = " + std::to_string(m) + ", " +
         std::string(dtype == GSP_I32   ? "int32"
                     : dtype == GSP_F32 ? "float32"
                                        : "float64") +
         " weights";
}

}  // namespace

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
