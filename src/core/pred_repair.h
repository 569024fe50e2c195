// Predecessor check and repair for full rows of a shortest-path result, the
// one implementation for both backends (plain host C++: the CUDA engines'
// .cu files call it on rows copied back to the host). Used by every engine
// that does not build its predecessor tree by relaxation order: the CPU
// matrix engines (src/engines/cpu/apsp_dense/apsp_matrix.cpp), the CUDA
// dense engines (src/engines/cuda/apsp_dense/apsp_floyd_warshall.cu,
// dense_delivery.cuh), the CUDA frontier engine and batched delta-stepping
// on graphs with arcs <= 0 (src/engines/cuda/sssp/sssp_family.cuh,
// src/engines/cuda/apsp_sparse/apsp_delta_stepping.cu) and the MPI engine
// (src/engines/mpi/fw_mpi_preds.h).
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
#include <type_traits>
#include <utility>
#include <vector>

#include "core/engine.h"

namespace gsp::detail {

// Whether the rows of the min-plus engines (pred[i][j] = pred[k][j] when
// i -> k -> j improves; the dense CUDA engines, the MPI engine) need the
// check at all. Not for int32 graphs whose every arc weighs > 0: every
// decrease of d[i][j] (a product or a k-step) sets d[i][j] = d[i][k] +
// d[k][j] and pred[i][j] = pred[k][j] = q, and row k then satisfies d[k][j]
// >= d[k][q] + w(q, j) (by induction: it held when row k's entry was set and
// d[k][q] only decreases); a predecessor pass picks q with d[i][q] + w(q, j)
// = d[i][j] outright. At the end distances are the exact shortest ones
// (integers), so delta(i, q) + w(q, j) <= delta(i, k) + delta(k, q) + w(q, j)
// <= d[i][j] = delta(i, j): every predecessor arc is tight, and with w > 0
// distances strictly decrease along a predecessor chain, which therefore
// cannot cycle and ends at the only vertex whose predecessor is -1, the
// source. With zero (or negative: a zero-weight cycle may mix them) arcs or
// float rounding, ties allow cycles: those rows are checked. (The CUDA
// frontier engines check on their own rule, graphs with an arc <= 0:
// sssp_family.cuh says why.)
template <class W>
bool preds_need_check(int64_t arcs, double min_weight) {
  return !(std::is_same_v<W, int32_t> && arcs > 0 && min_weight > 0);
}

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

// Checks and repairs `rows` consecutive rows (row r: distances d + r n,
// predecessors p + r n) whose sources are sources[r], or r itself when
// sources is null (a whole n x n matrix).
template <class W>
void repair_pred_block(const CsrView<W>& g, const int32_t* sources, int32_t rows, const W* d, int32_t* p,
                       PredRepairScratch& s) {
  const size_t n = static_cast<size_t>(g.n);
  for (int32_t r = 0; r < rows; ++r) {
    const size_t at = static_cast<size_t>(r) * n;
    (void)repair_pred_row(g, sources != nullptr ? sources[r] : r, d + at, p + at, s);
  }
}

}  // namespace gsp::detail
