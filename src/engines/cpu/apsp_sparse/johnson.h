// Johnson's reweighting, shared by the all-pairs engine (apsp_dijkstra.cpp)
// and the many-to-many table (table_dijkstra.cpp): potentials h from queue
// Bellman-Ford out of a virtual source joined to every vertex (throws
// GSP_ERR_NEGATIVE_CYCLE when the graph has one), then every arc's reduced
// cost w + h[u] - h[v] >= 0, on which Dijkstra runs. A distance d' found on
// reduced costs from s to t maps back to d' - h[s] + h[t].
#pragma once

#include <cstdint>
#include <vector>

#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {

// Potentials, reduced costs and Dijkstra keys share one wide type: int64
// for int32 weights (exact), double for float (as Bellman-Ford computes
// them, sssp_core.h).
template <class W>
struct JohnsonWeights {
  using Key = WideKey<W>;
  std::vector<Key> h;        // n potentials (all 0 without negative arcs)
  std::vector<Key> reduced;  // m reduced arc costs, in CSR order
  int64_t bf_relaxations = 0;

  // Map a key found on reduced costs from s back to the distance to t (a
  // wide value; narrow_distance() checks that it fits the weight type).
  Key unreduce(Key d, int32_t s, int32_t t) const {
    return d == key_inf<Key>() ? d : d - h[static_cast<size_t>(s)] + h[static_cast<size_t>(t)];
  }
};

// Bellman-Ford runs only when the graph has a negative arc. options (may be
// null) receives Bellman-Ford's progress; call on the job's thread.
template <class W>
JohnsonWeights<W> johnson_weights(const Graph& graph, const RunOptions* options) {
  using K = WideKey<W>;
  const CsrView<W> g = graph.view<W>();
  JohnsonWeights<W> j;
  j.h.assign(static_cast<size_t>(g.n), K(0));
  if (graph.has_negative_weight()) {
    j.bf_relaxations = bellman_ford_run<W>(g, -1, j.h.data(), nullptr, options).relaxations;
  }
  j.reduced.resize(static_cast<size_t>(g.m));
  for (int32_t u = 0; u < g.n; ++u) {
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      K w = static_cast<K>(g.weights[e]) + j.h[static_cast<size_t>(u)] - j.h[static_cast<size_t>(g.targets[e])];
      if (w < K(0)) w = K(0);  // float rounding only; exact for int64
      j.reduced[static_cast<size_t>(e)] = w;
    }
  }
  return j;
}

}  // namespace gsp::detail::cpu
