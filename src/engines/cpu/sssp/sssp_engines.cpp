// Sequential SSSP engines: binary-heap Dijkstra and SLF/LLL queue
// Bellman-Ford (see sssp_core.h).
#include <string>
#include <type_traits>
#include <vector>

#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {

template <class W>
void dijkstra_sssp(const SsspJob& job) {
  const Graph& graph = *job.graph;
  require_non_negative(graph, "Dijkstra");
  const CsrView<W> g = graph.view<W>();
  W* dist = static_cast<W*>(job.dist);
  int32_t* pred = job.options->want_paths ? job.pred : nullptr;
  HeapVec<W> heap;
  const int64_t relax = dijkstra_run<W>(
      g, job.source, dist, pred, [&](int64_t e) { return g.weights[e]; }, heap, job.options->limit);
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
  using K = WideKey<W>;
  std::vector<K> wide(static_cast<size_t>(g.n));
  const BfCounts c = bellman_ford_run<W>(g, job.source, wide.data(), pred, job.options);
  for (int32_t v = 0; v < g.n; ++v) dist[v] = narrow_distance<W>(wide[static_cast<size_t>(v)], job.source, v);
  if (job.pred != nullptr && pred == nullptr) std::fill(job.pred, job.pred + g.n, -1);
  fill_stats(job.stats, GSP_SSSP_BELLMAN_FORD, 1, c.pops, c.relaxations);
}

bool has_negative_cycle(const Graph& graph) {
  if (!graph.has_negative_weight()) return false;
  bool found = false;
  with_weight_type(graph.dtype(), [&](auto w0) {
    using W = decltype(w0);
    std::vector<WideKey<W>> h(static_cast<size_t>(graph.n()));
    try {
      bellman_ford_run<W>(graph.view<W>(), -1, h.data(), nullptr);
    } catch (const Error& e) {
      if (e.status() != GSP_ERR_NEGATIVE_CYCLE) throw;
      found = true;
    }
  });
  return found;
}

template void dijkstra_sssp<float>(const SsspJob&);
template void dijkstra_sssp<int32_t>(const SsspJob&);
template void dijkstra_sssp<double>(const SsspJob&);
template void bellman_ford_sssp<float>(const SsspJob&);
template void bellman_ford_sssp<int32_t>(const SsspJob&);
template void bellman_ford_sssp<double>(const SsspJob&);

}  // namespace gsp::detail::cpu
