// Sequential SSSP engines: binary-heap Dijkstra and SLF/LLL queue
// Bellman-Ford (see sssp_core.h).
#include <string>
#include <vector>

#include "cpu/cpu_util.h"
#include "cpu/sssp_core.h"

namespace gsp::detail::cpu {

template <class W>
void dijkstra_sssp(const SsspJob& job) {
  const Graph& graph = *job.graph;
  require_non_negative(graph, "Dijkstra");
  const CsrView<W> g = graph.view<W>();
  W* dist = static_cast<W*>(job.dist);
  int32_t* pred = job.options->want_paths ? job.pred : nullptr;
  HeapVec<W> heap;
  const int64_t relax = dijkstra_run<W>(g, job.source, dist, pred, [&](int64_t e) { return g.weights[e]; }, heap);
  if (job.pred != nullptr && pred == nullptr) std::fill(job.pred, job.pred + g.n, -1);
  int64_t settled = 0;
  for (int32_t v = 0; v < g.n; ++v) settled += dist[v] != Dist<W>::inf();
  fill_stats(job.stats, GSP_SSSP_DIJKSTRA, 1, settled, relax);
}

template <class W>
void bellman_ford_sssp(const SsspJob& job) {
  const CsrView<W> g = job.graph->view<W>();
  W* dist = static_cast<W*>(job.dist);
  int32_t* pred = job.options->want_paths ? job.pred : nullptr;
  BfCounts c;
  if constexpr (std::is_same_v<W, int32_t>) {
    std::vector<int64_t> wide(static_cast<size_t>(g.n));
    c = bellman_ford_run<W>(g, job.source, wide.data(), pred, job.options);
    const int64_t inf = key_inf<int64_t>();
    for (int32_t v = 0; v < g.n; ++v) {
      const int64_t d = wide[static_cast<size_t>(v)];
      if (d == inf) {
        dist[v] = Dist<W>::inf();
      } else if (d >= static_cast<int64_t>(GSP_I32_INF) || d <= static_cast<int64_t>(INT32_MIN)) {
        throw Error(GSP_ERR_OVERFLOW, "the distance from " + std::to_string(job.source) + " to " +
                                          std::to_string(v) + " (" + std::to_string(d) +
                                          ") does not fit int32; use GSP_F32 weights");
      } else {
        dist[v] = static_cast<int32_t>(d);
      }
    }
  } else {
    c = bellman_ford_run<W>(g, job.source, dist, pred, job.options);
  }
  if (job.pred != nullptr && pred == nullptr) std::fill(job.pred, job.pred + g.n, -1);
  fill_stats(job.stats, GSP_SSSP_BELLMAN_FORD, 1, c.pops, c.relaxations);
}

template void dijkstra_sssp<float>(const SsspJob&);
template void dijkstra_sssp<int32_t>(const SsspJob&);
template void bellman_ford_sssp<float>(const SsspJob&);
template void bellman_ford_sssp<int32_t>(const SsspJob&);

}  // namespace gsp::detail::cpu
