// Dense APSP engines: blocked Floyd-Warshall and min-plus squaring. Both hold
// the n x n matrix (and the predecessor matrix when paths are wanted), then
// hand the requested rows to the sink in blocks. Predecessors are either
// tracked in the tile products or, by default on sparse graphs, set by one
// pass over the finished distances (core/pred_pass_policy.h).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/apsp_dense/minplus_tile.h"
#include "core/minplus_products.h"
#include "core/pred_repair.h"
#include "core/pred_pass_policy.h"

namespace gsp::detail::cpu {
namespace {

// 64 x 64 tiles: three 16 KiB tiles (C, A, B) sit in L1/L2 together.
constexpr int64_t kTile = 64;

template <class W>
void init_matrix(const Graph& graph, std::vector<W>& D, std::vector<int32_t>& P, bool want) {
  const CsrView<W> g = graph.view<W>();
  const int64_t n = g.n;
  alloc_vector(D, matrix_elems(g.n, sizeof(W)), Dist<W>::inf());
  if (want) alloc_vector(P, matrix_elems(g.n, sizeof(int32_t)), int32_t(-1));
  for (int64_t i = 0; i < n; ++i) D[static_cast<size_t>(i * n + i)] = W(0);
  for (int32_t u = 0; u < g.n; ++u) {
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const size_t at = static_cast<size_t>(u) * static_cast<size_t>(n) + static_cast<size_t>(g.targets[e]);
      if (g.weights[e] < D[at]) {
        D[at] = g.weights[e];
        if (want) P[at] = u;
      }
    }
  }
}

template <class W>
int32_t negative_diagonal(const std::vector<W>& D, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    if (D[static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(i)] < W(0)) return i;
  }
  return -1;
}

[[noreturn]] void throw_cycle(int32_t v) {
  throw Error(GSP_ERR_NEGATIVE_CYCLE, "the graph has a negative cycle through vertex " + std::to_string(v));
}

[[noreturn]] void throw_matrix_overflow(const std::string& where) {
  throw Error(GSP_ERR_OVERFLOW, "an int32 distance would overflow in the all-pairs matrix" + where +
                                    "; use GSP_F32 weights or smaller weights");
}

// After a round or product: a negative diagonal is a negative cycle (checked
// first: a negative cycle drives values down fast). An int32 sum that did not
// fit is an error at once when the graph has negative arcs (skipping it could
// hide a shorter path); with w >= 0 every sub-path of a path that fits also
// fits, so skipping is exact and the decision waits for the end
// (check_deferred_overflow).
template <class W>
void check_flags(const TileResult& r, const std::vector<W>& D, int32_t n, const Graph& graph, bool* deferred) {
  const int32_t c = negative_diagonal(D, n);
  if (c >= 0) throw_cycle(c);
  if (r.overflow) {
    if (graph.has_negative_weight()) throw_matrix_overflow("");
    *deferred = true;
  }
}

// With deferred overflows: a pair left unreachable in D that the graph does
// connect has a distance beyond int32. One breadth-first search per row.
template <class W>
void check_deferred_overflow(const Graph& graph, const std::vector<W>& D) {
  const CsrView<W> g = graph.view<W>();
  const size_t un = static_cast<size_t>(g.n);
  std::vector<char> seen(un);
  std::vector<int32_t> queue;
  queue.reserve(un);
  for (int32_t i = 0; i < g.n; ++i) {
    const W* d = D.data() + static_cast<size_t>(i) * un;
    std::fill(seen.begin(), seen.end(), 0);
    queue.assign(1, i);
    seen[static_cast<size_t>(i)] = 1;
    for (size_t h = 0; h < queue.size(); ++h) {
      const int32_t u = queue[h];
      for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const int32_t v = g.targets[e];
        if (seen[static_cast<size_t>(v)]) continue;
        if (d[v] == Dist<W>::inf()) {
          throw_matrix_overflow(" (the distance from " + std::to_string(i) + " to " + std::to_string(v) +
                                " does not fit)");
        }
        seen[static_cast<size_t>(v)] = 1;
        queue.push_back(v);
      }
    }
  }
}

// Hands the rows of job.sources to the sink, in blocks.
template <class W>
void deliver_rows(const ApspJob& job, const std::vector<W>& D, const std::vector<int32_t>& P, bool want, double from) {
  const int32_t n = job.graph->n();
  const size_t un = static_cast<size_t>(n);
  const int32_t block = std::max<int32_t>(1, job.sink->preferred_block_rows());
  std::vector<W> bd;
  std::vector<int32_t> bp;
  for (int32_t first = 0; first < job.num_sources; first += block) {
    const int32_t rows = std::min(block, job.num_sources - first);
    if (job.all_sources) {
      job.sink->rows(first, rows, D.data() + static_cast<size_t>(first) * un,
                     want ? P.data() + static_cast<size_t>(first) * un : nullptr);
    } else {
      bd.resize(static_cast<size_t>(rows) * un);
      if (want) bp.resize(static_cast<size_t>(rows) * un);
      for (int32_t r = 0; r < rows; ++r) {
        const size_t src = static_cast<size_t>(job.sources[first + r]) * un;
        std::copy(D.begin() + static_cast<std::ptrdiff_t>(src), D.begin() + static_cast<std::ptrdiff_t>(src + un),
                  bd.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(r) * un));
        if (want) {
          std::copy(P.begin() + static_cast<std::ptrdiff_t>(src), P.begin() + static_cast<std::ptrdiff_t>(src + un),
                    bp.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(r) * un));
        }
      }
      job.sink->rows(first, rows, bd.data(), want ? bp.data() : nullptr);
    }
    job.options->report(from + (1.0 - from) * (first + rows) / job.num_sources);
  }
}

// Runs task(t) for t in [0, count) on the team, dynamically scheduled,
// merging the tile results.
template <class F>
TileResult parallel_tiles(Team& team, int64_t count, F&& task) {
  std::atomic<int64_t> next{0};
  std::vector<TileResult> res(static_cast<size_t>(team.size()));
  team.run([&](int tid) {
    TileResult mine;
    for (int64_t t; (t = next.fetch_add(1)) < count;) mine.merge(task(t));
    res[static_cast<size_t>(tid)] = mine;
  });
  TileResult all;
  for (const auto& r : res) all.merge(r);
  return all;
}

// Both engines update predecessors by the rule pred[i][j] = pred[k][j] when
// i -> k -> j improves, which keeps every predecessor arc tight at the end
// (for float weights: up to rounding). Zero-weight cycles, and float arcs
// that rounding absorbs, can still leave a row whose predecessors form a
// cycle, so every row is checked (O(n)) and a bad one rebuilt
// (src/core/pred_repair.h).
template <class W>
void repair_pred_rows(const Graph& graph, const std::vector<W>& D, std::vector<int32_t>& P) {
  PredRepairScratch scratch;
  repair_pred_block(graph.view<W>(), nullptr, graph.n(), D.data(), P.data(), scratch);
}

// The predecessor pass: pred[i][j] = the in-neighbour k != j of j that
// minimises d[i][k] + w(k, j) (the first such arc in the reverse CSR's
// order; sums in the weight type, int32 widened to int64), -1 for j == i and
// for unreachable j. At the fixpoint d[i][j] = min_k d[i][k] + w(k, j), so
// that is a last arc of a shortest path. A task takes kRows rows and walks
// the reverse CSR once for all of them (n * m / kRows arc reads, n * m row
// reads from a kRows-row window that stays in cache). Zero-weight cycles can
// close a cycle of such arcs, which repair_pred_rows then finds and
// rebuilds, as for tracked predecessors.
template <class W>
void preds_from_distances(const Graph& graph, const std::vector<W>& D, std::vector<int32_t>& P, Team& team) {
  using S = std::conditional_t<std::is_floating_point_v<W>, W, int64_t>;
  constexpr int32_t kRows = 8;
  const CsrView<W> rg = graph.reverse_view<W>();
  const int32_t n = rg.n;
  const size_t un = static_cast<size_t>(n);
  const W inf = Dist<W>::inf();
  std::atomic<int32_t> next{0};
  team.run([&](int) {
    for (int32_t i0; (i0 = next.fetch_add(kRows)) < n;) {
      const int32_t rows = std::min(kRows, n - i0);
      const W* d[kRows];
      int32_t* p[kRows];
      for (int32_t r = 0; r < rows; ++r) {
        d[r] = D.data() + static_cast<size_t>(i0 + r) * un;
        p[r] = P.data() + static_cast<size_t>(i0 + r) * un;
      }
      for (int32_t j = 0; j < n; ++j) {
        S bv[kRows];
        int32_t best[kRows];
        for (int32_t r = 0; r < rows; ++r) best[r] = -1;
        for (int64_t e = rg.offsets[j]; e < rg.offsets[j + 1]; ++e) {
          const int32_t k = rg.targets[e];
          if (k == j) continue;
          const S w = static_cast<S>(rg.weights[e]);
          for (int32_t r = 0; r < rows; ++r) {
            const W dk = d[r][k];
            if (dk == inf) continue;
            const S sum = static_cast<S>(dk) + w;
            if (best[r] < 0 || sum < bv[r]) {
              bv[r] = sum;
              best[r] = k;
            }
          }
        }
        for (int32_t r = 0; r < rows; ++r) p[r][j] = (j != i0 + r && d[r][j] != inf) ? best[r] : -1;
      }
    }
  });
}

}  // namespace

template <class W>
void floyd_warshall_apsp(const ApspJob& job) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const bool want = job.options->want_paths;
  const bool pass = want && dense_pred_pass(n, graph.m(), false, job.options->tuning.dense_pred);
  StageLaps laps(job.stats);
  std::vector<W> D;
  std::vector<int32_t> P;
  init_matrix(graph, D, P, want);
  {
    const int32_t c = negative_diagonal(D, n);
    if (c >= 0) throw_cycle(c);
  }
  W* d = D.data();
  int32_t* p = want && !pass ? P.data() : nullptr;  // tracked in the products
  const int64_t ld = n;
  const int64_t nb = (ld + kTile - 1) / kTile;
  const int threads = std::max(1, resolved_threads(job.options));
  Team team(static_cast<int>(std::min<int64_t>(threads, std::max<int64_t>(1, (nb - 1) * (nb - 1)))));
  auto lo = [](int64_t b) { return b * kTile; };
  auto hi = [ld](int64_t b) { return std::min(ld, (b + 1) * kTile); };
  bool deferred = false;
  laps.lap(Stage::kSetup);
  for (int64_t kb = 0; kb < nb; ++kb) {
    const int64_t k0 = lo(kb), k1 = hi(kb);
    TileResult r = minplus_tile<W>(d, p, d, d, p, ld, k0, k1, k0, k1, k0, k1);
    // Phase 2: the tiles of row kb and of column kb.
    r.merge(parallel_tiles(team, 2 * (nb - 1), [&](int64_t t) {
      int64_t o = t % (nb - 1);
      if (o >= kb) ++o;
      if (t < nb - 1) return minplus_tile<W>(d, p, d, d, p, ld, k0, k1, lo(o), hi(o), k0, k1);
      return minplus_tile<W>(d, p, d, d, p, ld, lo(o), hi(o), k0, k1, k0, k1);
    }));
    // Phase 3: every other tile.
    r.merge(parallel_tiles(team, (nb - 1) * (nb - 1), [&](int64_t t) {
      int64_t ib = t / (nb - 1), jb = t % (nb - 1);
      if (ib >= kb) ++ib;
      if (jb >= kb) ++jb;
      return minplus_tile<W>(d, p, d, d, p, ld, lo(ib), hi(ib), lo(jb), hi(jb), k0, k1);
    }));
    check_flags(r, D, n, graph, &deferred);
    job.options->report(0.9 * static_cast<double>(kb + 1) / static_cast<double>(nb));
  }
  if (deferred) check_deferred_overflow(graph, D);
  laps.lap(Stage::kCompute);
  if (pass) preds_from_distances(graph, D, P, team);
  if (want) repair_pred_rows(graph, D, P);
  if (want) laps.lap(Stage::kPaths);
  const double nn = static_cast<double>(n);
  fill_stats(job.stats, GSP_APSP_FLOYD_WARSHALL, team.size(), nb, static_cast<int64_t>(std::min(nn * nn * nn, 9.0e18)));
  deliver_rows(job, D, P, want, 0.9);
  laps.lap(Stage::kCopy);
}

template <class W>
void minplus_apsp(const ApspJob& job) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const bool want = job.options->want_paths;
  const bool pass = want && dense_pred_pass(n, graph.m(), false, job.options->tuning.dense_pred);
  const bool track = want && !pass;  // predecessors kept through the products
  StageLaps laps(job.stats);
  std::vector<W> A, C;
  std::vector<int32_t> PA, PC;
  init_matrix(graph, A, PA, want);
  {
    const int32_t c = negative_diagonal(A, n);
    if (c >= 0) throw_cycle(c);
  }
  alloc_vector(C, A.size(), W(0));
  if (track) alloc_vector(PC, PA.size(), int32_t(-1));
  const int64_t ld = n;
  const int64_t nb = (ld + kTile - 1) / kTile;
  const int threads = std::max(1, resolved_threads(job.options));
  Team team(static_cast<int>(std::min<int64_t>(threads, nb * nb)));
  // ceil(log2(n - 1)) products cover every simple path, so they end the run
  // (core/minplus_products.h); a run stops earlier at a fixed point.
  const int max_products = minplus_products_needed(n, graph.has_negative_weight());
  bool deferred = false;
  // C = A (x) A, out of place; C starts as A (the diagonal is 0, so A <= A (x) A).
  auto product = [&]() {
    const W* a = A.data();
    const int32_t* pa = track ? PA.data() : nullptr;
    W* c = C.data();
    int32_t* pc = track ? PC.data() : nullptr;
    TileResult r = parallel_tiles(team, nb * nb, [&](int64_t t) {
      const int64_t ib = t / nb, jb = t % nb;
      const int64_t i0 = ib * kTile, i1 = std::min(ld, i0 + kTile);
      const int64_t j0 = jb * kTile, j1 = std::min(ld, j0 + kTile);
      for (int64_t i = i0; i < i1; ++i) {
        std::copy(a + i * ld + j0, a + i * ld + j1, c + i * ld + j0);
        if (pc != nullptr) std::copy(pa + i * ld + j0, pa + i * ld + j1, pc + i * ld + j0);
      }
      TileResult tr;
      for (int64_t kb = 0; kb < nb; ++kb) {
        tr.merge(minplus_tile<W>(c, pc, a, a, pa, ld, i0, i1, j0, j1, kb * kTile, std::min(ld, (kb + 1) * kTile)));
      }
      return tr;
    });
    A.swap(C);
    if (track) PA.swap(PC);
    check_flags(r, A, n, graph, &deferred);
    return r.changed;
  };
  int products = 0;
  laps.lap(Stage::kSetup);
  for (bool changed = true; changed && products < max_products;) {
    changed = product();
    ++products;
    job.options->report(0.85 * products / max_products);
  }
  C.clear();
  C.shrink_to_fit();
  PC.clear();
  PC.shrink_to_fit();
  if (deferred) check_deferred_overflow(graph, A);
  laps.lap(Stage::kCompute);
  if (pass) preds_from_distances(graph, A, PA, team);
  if (want) repair_pred_rows(graph, A, PA);
  if (want) laps.lap(Stage::kPaths);
  job.options->report(0.9);
  const double nn = static_cast<double>(n);
  fill_stats(job.stats, GSP_APSP_MINPLUS, team.size(), products,
             static_cast<int64_t>(std::min(products * nn * nn * nn, 9.0e18)));
  deliver_rows(job, A, PA, want, 0.9);
  laps.lap(Stage::kCopy);
}

template void floyd_warshall_apsp<float>(const ApspJob&);
template void floyd_warshall_apsp<int32_t>(const ApspJob&);
template void floyd_warshall_apsp<double>(const ApspJob&);
template void minplus_apsp<float>(const ApspJob&);
template void minplus_apsp<int32_t>(const ApspJob&);
template void minplus_apsp<double>(const ApspJob&);

}  // namespace gsp::detail::cpu
