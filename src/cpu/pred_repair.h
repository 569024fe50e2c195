// Predecessor repair for one full row of an APSP result, shared by the CPU
// matrix engines (apsp_matrix.cpp) and the MPI engine (mpi/). Blocked Floyd-Warshall keeps
// every predecessor arc tight (d(i,p) + w(p,j) == d(i,j)), but with
// zero-weight cycles its reordered updates can leave a row whose predecessors
// form a cycle of tight zero arcs. The row's predecessor forest is checked in
// O(n); a bad row is rebuilt from the tight arcs by breadth-first search from
// its source, which gives a tree.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/engine.h"

namespace gsp::detail::cpu {

// d, p: row i of the distance and predecessor matrices (n entries each).
// state and queue are scratch (n entries). Returns true if p was rebuilt.
template <class W>
bool repair_pred_row(const CsrView<W>& g, int32_t i, const W* d, int32_t* p, std::vector<int32_t>& state,
                     std::vector<int32_t>& queue) {
  const int32_t n = g.n;
  const W inf = Dist<W>::inf();
  // state: 0 unseen, 1 on the current chain, 2 reaches i.
  std::fill(state.begin(), state.begin() + n, 0);
  state[static_cast<size_t>(i)] = 2;
  bool bad = p[i] != -1;
  for (int32_t j = 0; j < n && !bad; ++j) {
    if (d[j] == inf || state[static_cast<size_t>(j)] == 2) continue;
    int32_t v = j;
    while (!bad && state[static_cast<size_t>(v)] == 0) {
      state[static_cast<size_t>(v)] = 1;
      v = p[v];
      if (v < 0 || d[v] == inf || state[static_cast<size_t>(v)] == 1) bad = true;
    }
    if (bad) break;
    for (int32_t x = j; state[static_cast<size_t>(x)] == 1; x = p[x]) state[static_cast<size_t>(x)] = 2;
  }
  if (!bad) return false;
  std::fill(p, p + n, -1);
  std::fill(state.begin(), state.begin() + n, 0);
  queue.clear();
  queue.push_back(i);
  state[static_cast<size_t>(i)] = 1;
  for (size_t h = 0; h < queue.size(); ++h) {
    const int32_t u = queue[h];
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const int32_t v = g.targets[e];
      if (state[static_cast<size_t>(v)] != 0) continue;
      bool tight;
      if constexpr (std::is_same_v<W, int32_t>) {
        tight = static_cast<int64_t>(d[u]) + g.weights[e] == static_cast<int64_t>(d[v]);
      } else {
        const double want = static_cast<double>(d[v]);
        tight = std::fabs(static_cast<double>(d[u]) + g.weights[e] - want) <= 1e-6 * (std::fabs(want) + 1.0);
      }
      if (tight) {
        state[static_cast<size_t>(v)] = 1;
        p[v] = u;
        queue.push_back(v);
      }
    }
  }
  return true;
}

}  // namespace gsp::detail::cpu
