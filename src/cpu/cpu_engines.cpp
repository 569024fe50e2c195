// Routing of the CPU backend: one engine per algorithm, instantiated for the
// graph's weight type.
#include <string>

#include "cpu/cpu_engines.h"
#include "cpu/cpu_util.h"

namespace gsp::detail::cpu {

bool supports(gsp_algorithm algorithm) {
  switch (algorithm) {
    case GSP_SSSP_DIJKSTRA:
    case GSP_SSSP_BELLMAN_FORD:
    case GSP_SSSP_DELTA_STEPPING:
    case GSP_APSP_FLOYD_WARSHALL:
    case GSP_APSP_MINPLUS:
    case GSP_APSP_HEAP:
    case GSP_APSP_JOHNSON:
      return true;
    default:
      return false;
  }
}

namespace {

// (Engines do not call back into the API layer, so no gsp_algorithm_name here.)
[[noreturn]] void unsupported(gsp_algorithm algorithm, const char* kind) {
  throw Error(GSP_ERR_UNSUPPORTED, std::string("the CPU backend has no ") + kind +
                                       " engine for algorithm " +
                                       std::to_string(static_cast<int>(algorithm)) +
                                       " (it is CUDA-only or not an algorithm of this kind)");
}

}  // namespace

void sssp(const SsspJob& job) {
  require(job.graph != nullptr && job.options != nullptr && job.dist != nullptr,
          GSP_ERR_INTERNAL, "cpu::sssp: incomplete job");
  with_weight_type(job.graph->dtype(), [&](auto w0) {
    using W = decltype(w0);
    switch (job.algorithm) {
      case GSP_SSSP_DIJKSTRA: dijkstra_sssp<W>(job); break;
      case GSP_SSSP_BELLMAN_FORD: bellman_ford_sssp<W>(job); break;
      case GSP_SSSP_DELTA_STEPPING: delta_stepping_sssp<W>(job); break;
      default: unsupported(job.algorithm, "single-source");
    }
  });
}

void apsp(const ApspJob& job) {
  require(job.graph != nullptr && job.options != nullptr && job.sink != nullptr &&
              job.sources != nullptr,
          GSP_ERR_INTERNAL, "cpu::apsp: incomplete job");
  if (job.num_sources <= 0) return;
  with_weight_type(job.graph->dtype(), [&](auto w0) {
    using W = decltype(w0);
    switch (job.algorithm) {
      case GSP_APSP_FLOYD_WARSHALL: floyd_warshall_apsp<W>(job); break;
      case GSP_APSP_MINPLUS: minplus_apsp<W>(job); break;
      case GSP_APSP_HEAP: dijkstra_apsp<W>(job); break;
      case GSP_APSP_JOHNSON: johnson_apsp<W>(job); break;
      default: unsupported(job.algorithm, "all-pairs");
    }
  });
}

}  // namespace gsp::detail::cpu
