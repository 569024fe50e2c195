// The CPU backend's door (cpu_backend.h; its twin is engines/cuda/cuda_backend.cu): one
// engine per algorithm, instantiated for the graph's weight type, after checking that its
// working memory can fit.
#include <algorithm>
#include <atomic>
#include <string>

#include "core/algorithms.h"
#include "core/host_memory.h"

#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/common/cpu_util.h"

namespace gsp::detail::cpu {

bool supports(gsp_algorithm algorithm) { return has_cpu_engine(algorithm); }

void for_each_index(int32_t threads, int32_t count, const std::function<void(int32_t)>& f) {
  if (threads <= 1 || count <= 1) {
    for (int32_t i = 0; i < count; ++i) f(i);
    return;
  }
  std::atomic<int32_t> next{0};
  Team team(std::min(threads, count));
  team.run([&](int) {
    for (int32_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) f(i);
  });
}

namespace {

// (Engines do not call back into the API layer, so no gsp_algorithm_name here.)
[[noreturn]] void unsupported(gsp_algorithm algorithm, const char* kind) {
  throw Error(GSP_ERR_UNSUPPORTED, std::string("the CPU backend has no ") + kind + " engine for algorithm " +
                                       std::to_string(static_cast<int>(algorithm)) +
                                       " (it is CUDA-only or not an algorithm of this kind)");
}

// Host working memory of an engine beyond the graph and the result, from
// doc/memory.md's table (heaps counted at n entries: their m + 1 bound is
// rarely approached). Refused up front when it cannot fit.
void require_workspace(gsp_algorithm algorithm, const Graph& g, int32_t num_sources, const RunOptions& o) {
  const uint64_t n = static_cast<uint64_t>(g.n()), m = static_cast<uint64_t>(g.m());
  const uint64_t threads = static_cast<uint64_t>(std::max(1, std::min(resolved_threads(&o), num_sources)));
  const uint64_t nn = bytes_mul(n, n);
  const uint64_t block =
      bytes_mul(bytes_mul(std::min<uint64_t>(256, static_cast<uint64_t>(num_sources)), n), o.want_paths ? 8 : 4);
  uint64_t need = 0;
  const char* what = "";
  switch (algorithm) {
    case GSP_SSSP_DIJKSTRA:
      need = bytes_mul(16, n);
      what = "Dijkstra's heap";
      break;
    case GSP_SSSP_BELLMAN_FORD:
      need = bytes_mul(18, n);
      what = "Bellman-Ford's queue and labels";
      break;
    case GSP_SSSP_DELTA_STEPPING:
      need = bytes_mul(16, n);
      what = "delta-stepping's labels and buckets";
      break;
    case GSP_APSP_FLOYD_WARSHALL:
      need = bytes_add(bytes_mul(nn, o.want_paths ? 8 : 4), block);
      what = "Floyd-Warshall's n x n matrix";
      break;
    case GSP_APSP_MINPLUS:
      need = bytes_mul(nn, o.want_paths ? 16 : 8);
      what = "min-plus squaring's two n x n matrices";
      break;
    case GSP_APSP_HEAP:
      need = bytes_add(bytes_mul(threads, bytes_mul(24, n)), block);
      what = "repeated Dijkstra's per-thread heaps and row block";
      break;
    case GSP_APSP_DELTA_STEPPING:
      need = bytes_add(bytes_mul(threads, bytes_mul(16, n)), block);
      what = "per-thread delta-stepping labels and buckets and row block";
      break;
    case GSP_APSP_JOHNSON:
      need = bytes_add(bytes_add(bytes_mul(threads, bytes_mul(32, n)), block),
                       bytes_add(bytes_mul(8, m), bytes_mul(26, n)));
      what = "Johnson's reweighted arcs, potentials, per-thread heaps and row block";
      break;
    default: return;
  }
  require_host_memory(need, [&] {
    return std::string("the CPU engine's working memory (") + what + ", " + std::to_string(n) + " vertices, " +
           std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  });
}

}  // namespace

void sssp(const SsspJob& job) {
  require(job.graph != nullptr && job.options != nullptr && job.dist != nullptr, GSP_ERR_INTERNAL,
          "cpu::sssp: incomplete job");
  require_workspace(job.algorithm, *job.graph, 1, *job.options);
  // The single-source engines record predecessors as they search: all of
  // their time is the search (run-info stage "compute").
  StageLaps laps(job.stats);
  with_weight_type(job.graph->dtype(), [&](auto w0) {
    using W = decltype(w0);
    switch (job.algorithm) {
      case GSP_SSSP_DIJKSTRA: dijkstra_sssp<W>(job); break;
      case GSP_SSSP_BELLMAN_FORD: bellman_ford_sssp<W>(job); break;
      case GSP_SSSP_DELTA_STEPPING: delta_stepping_sssp<W>(job); break;
      default: unsupported(job.algorithm, "single-source");
    }
  });
  laps.lap(Stage::kCompute);
}

void apsp(const ApspJob& job) {
  require(job.graph != nullptr && job.options != nullptr && job.sink != nullptr && job.sources != nullptr,
          GSP_ERR_INTERNAL, "cpu::apsp: incomplete job");
  if (job.num_sources <= 0) return;
  require_workspace(job.algorithm, *job.graph, job.num_sources, *job.options);
  StageLaps laps(job.stats);
  with_weight_type(job.graph->dtype(), [&](auto w0) {
    using W = decltype(w0);
    switch (job.algorithm) {
      case GSP_APSP_FLOYD_WARSHALL: floyd_warshall_apsp<W>(job); break;
      case GSP_APSP_MINPLUS: minplus_apsp<W>(job); break;
      case GSP_APSP_HEAP: dijkstra_apsp<W>(job); break;
      case GSP_APSP_DELTA_STEPPING:  // the heap engine, each row by one-thread delta-stepping
        require(job.rows_by_delta_stepping, GSP_ERR_INTERNAL, "cpu::apsp: delta-stepping rows not requested");
        dijkstra_apsp<W>(job);
        break;
      case GSP_APSP_JOHNSON: johnson_apsp<W>(job); break;
      default: unsupported(job.algorithm, "all-pairs");
    }
  });
  // The dense engines time their stages themselves; the row engines search
  // and hand each row over as they go: all of that counts as compute.
  if (job.stats != nullptr && !job.stats->any_stage()) laps.lap(Stage::kCompute);
}

}  // namespace gsp::detail::cpu
