// Predecessor check and repair for one full row of a shortest-path result,
// shared by every engine that does not build its predecessor tree by
// relaxation order: the CPU matrix engines (apsp_matrix.cpp), the CUDA dense
// engines (src/engines/cuda/apsp_dense/minplus_tile.cuh, src/engines/cuda/apsp_dense/apsp_floyd_warshall.cu), the CUDA
// frontier engine on graphs with zero-weight arcs (src/engines/cuda/sssp/sssp_family.cuh) and
// the MPI engine (mpi/).
//
// Those engines keep every predecessor arc tight (d(i,p) + w(p,j) == d(i,j))
// or, for float weights, tight up to rounding. Two things can still go
// wrong: with zero-weight cycles, reordered updates can leave a row whose
// predecessors form a cycle of tight zero arcs; and with float weights, an
// arc that rounding absorbs (d + w == d) is "tight" in both directions, so
// two vertices can name each other. The row's predecessor forest is checked
// in O(n); a bad row is rebuilt by Dijkstra from its source over the arcs'
// slack |d(u) + w(u,v) - d(v)| (in double): a tree whose paths have the
// least total slack, which is 0 on exact distances (the tight arcs) and a
// few roundings on float ones. The slack of a path is exactly how far its
// arc sum is from the reported distance, so the repaired paths agree with
// the distances as closely as the distances allow.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "core/engine.h"

namespace gsp::detail::cpu {

// Scratch reused across rows (sized on first use).
struct PredRepairScratch {
  std::vector<int32_t> state;
  std::vector<double> slack;
  std::vector<std::pair<double, int32_t>> heap;
};

// Is p (row i: d and p have n entries) a tree rooted at i that reaches every
// vertex of finite distance? state is scratch.
template <class W>
bool pred_row_is_tree(const W* d, const int32_t* p, int32_t i, int32_t n, std::vector<int32_t>& state) {
  const W inf = Dist<W>::inf();
  // state: 0 unseen, 1 on the current chain, 2 reaches i.
  state.assign(static_cast<size_t>(n), 0);
  state[static_cast<size_t>(i)] = 2;
  if (p[i] != -1) return false;
  for (int32_t j = 0; j < n; ++j) {
    if (d[j] == inf || state[static_cast<size_t>(j)] == 2) continue;
    int32_t v = j;
    while (state[static_cast<size_t>(v)] == 0) {
      state[static_cast<size_t>(v)] = 1;
      v = p[v];
      if (v < 0 || v >= n || d[v] == inf || state[static_cast<size_t>(v)] == 1) return false;
    }
    for (int32_t x = j; state[static_cast<size_t>(x)] == 1; x = p[x]) state[static_cast<size_t>(x)] = 2;
  }
  return true;
}

// Rebuilds p for row i from d: Dijkstra from i over the vertices of finite
// distance, arc cost |d(u) + w - d(v)|. p[v] is set only from a vertex
// settled before v, so the result is a tree.
template <class W>
void rebuild_pred_row(const CsrView<W>& g, int32_t i, const W* d, int32_t* p, PredRepairScratch& s) {
  const int32_t n = g.n;
  const W inf = Dist<W>::inf();
  const double unset = std::numeric_limits<double>::infinity();
  std::fill(p, p + n, -1);
  s.slack.assign(static_cast<size_t>(n), unset);
  s.state.assign(static_cast<size_t>(n), 0);  // 1: settled
  s.heap.clear();
  auto later = std::greater<std::pair<double, int32_t>>();
  s.slack[static_cast<size_t>(i)] = 0.0;
  s.heap.emplace_back(0.0, i);
  while (!s.heap.empty()) {
    std::pop_heap(s.heap.begin(), s.heap.end(), later);
    const auto [c, u] = s.heap.back();
    s.heap.pop_back();
    if (s.state[static_cast<size_t>(u)] != 0 || c > s.slack[static_cast<size_t>(u)]) continue;
    s.state[static_cast<size_t>(u)] = 1;
    const double du = static_cast<double>(d[u]);
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const int32_t v = g.targets[e];
      if (s.state[static_cast<size_t>(v)] != 0 || d[v] == inf) continue;
      const double nc = c + std::fabs(du + static_cast<double>(g.weights[e]) - static_cast<double>(d[v]));
      if (nc < s.slack[static_cast<size_t>(v)]) {
        s.slack[static_cast<size_t>(v)] = nc;
        p[v] = u;
        s.heap.emplace_back(nc, v);
        std::push_heap(s.heap.begin(), s.heap.end(), later);
      }
    }
  }
}

// Checks row i and rebuilds it when it is not a tree. Returns true if p was
// rebuilt.
template <class W>
bool repair_pred_row(const CsrView<W>& g, int32_t i, const W* d, int32_t* p, PredRepairScratch& s) {
  if (pred_row_is_tree(d, p, i, g.n, s.state)) return false;
  rebuild_pred_row(g, i, d, p, s);
  return true;
}

}  // namespace gsp::detail::cpu
