// Single-source building blocks shared by the SSSP and APSP engines:
// binary-heap Dijkstra (lazy deletion) and queue Bellman-Ford with the SLF
// and LLL rules (Bertsekas 1993; Bertsekas, Guerriero & Musmanno 1996),
// templated over the key (distance) type.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.h"

namespace gsp::detail::cpu {

// The "unreachable" key of each key type.
template <class K>
constexpr K key_inf() {
  if constexpr (std::is_same_v<K, int32_t>) {
    return GSP_I32_INF;
  } else if constexpr (std::is_integral_v<K>) {
    return std::numeric_limits<K>::max();
  } else {
    return std::numeric_limits<K>::infinity();
  }
}

// d + w: checked for int32 (false when it leaves the finite int32 range),
// plain for the wide types (callers guarantee no overflow there).
inline bool add_key(int32_t d, int32_t w, int32_t* out) { return checked_add(d, w, out); }
inline bool add_key(float d, float w, float* out) { return checked_add(d, w, out); }
inline bool add_key(int64_t d, int64_t w, int64_t* out) {
  *out = d + w;
  return true;
}
inline bool add_key(double d, double w, double* out) {
  *out = d + w;
  return true;
}

// Reusable per-thread heap storage.
template <class K>
using HeapVec = std::vector<std::pair<K, int32_t>>;

// Arcs (tail, head) whose sum left the key's range.
using OverflowArcs = std::vector<std::pair<int32_t, int32_t>>;

// Dijkstra's labels over n vertices in plain arrays: dist (n keys) and pred
// (n ids, or null), reset in full by start(). The Labels interface of
// dijkstra_loop: start(s), at(u) (only for a labelled u), improves(v, nd),
// set(v, nd, u), and kInfSumOverflows: whether a sum equal to key_inf is
// set aside as overflowed (else it never improves a label, as here, where
// key_inf is the "unreachable" label itself).
template <class K>
struct DenseLabels {
  static constexpr bool kInfSumOverflows = false;
  K* dist;
  int32_t* pred;
  int32_t n;
  void start(int32_t s) {
    std::fill(dist, dist + n, key_inf<K>());
    if (pred != nullptr) std::fill(pred, pred + n, -1);
    dist[s] = K(0);
  }
  K at(int32_t u) const { return dist[u]; }
  bool improves(int32_t v, K nd) const { return nd < dist[v]; }
  void set(int32_t v, K nd, int32_t u) {
    dist[v] = nd;
    if (pred != nullptr) pred[v] = u;
  }
};

// The pieces of the one binary-heap Dijkstra (lazy deletion) of the CPU
// engines, shared by dijkstra_loop below and the table engine's
// bidirectional point-to-point search (apsp_sparse/point_to_point.cpp),
// which advances two searches a vertex at a time. The heap's order is the
// pair's (key, then vertex): a search settles its vertices in the same
// order whether dijkstra_loop or the point-to-point search drives it.
template <class K>
using HeapOrder = std::greater<std::pair<K, int32_t>>;

// Starts a search from s: s labelled 0 and queued, nothing set aside.
template <class K, class Labels>
void start_search(int32_t s, Labels& labels, HeapVec<K>& heap, OverflowArcs& overflowed) {
  heap.clear();
  overflowed.clear();
  labels.start(s);
  heap.emplace_back(K(0), s);
}

// Pops the queued vertex of smallest key whose key is still its label (an
// entry above its vertex's label is stale: the vertex was labelled again
// lower after it was pushed) into *d, *u; false when the heap runs out.
template <class K, class Labels>
bool pop_current(HeapVec<K>& heap, const Labels& labels, K* d, int32_t* u) {
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), HeapOrder<K>());
    *d = heap.back().first;
    *u = heap.back().second;
    heap.pop_back();
    if (!(*d > labels.at(*u))) return true;
  }
  return false;
}

// The key pop_current would return next (stale entries at the top are
// dropped), key_inf when none is queued.
template <class K, class Labels>
K top_key(HeapVec<K>& heap, const Labels& labels) {
  while (!heap.empty() && heap.front().first > labels.at(heap.front().second)) {
    std::pop_heap(heap.begin(), heap.end(), HeapOrder<K>());
    heap.pop_back();
  }
  return heap.empty() ? key_inf<K>() : heap.front().first;
}

// Relaxes the arcs of u, settled with key d, over keys wfn(e) >= 0. An arc
// whose sum leaves the key's range (add_key fails) never improves a label;
// it goes to `overflowed` for the caller to judge once the search is over.
// on_label(v, sum) follows every label set (the bidirectional search's
// meeting candidates). Returns the arcs scanned.
template <class K, class W, class Labels, class WFn, class OnLabel>
int64_t relax_arcs(const CsrView<W>& g, int32_t u, K d, Labels& labels, HeapVec<K>& heap, OverflowArcs& overflowed,
                   WFn&& wfn, OnLabel&& on_label) {
  const K inf = key_inf<K>();
  const int64_t begin = g.offsets[u], end = g.offsets[u + 1];
  for (int64_t e = begin; e < end; ++e) {
    const int32_t v = g.targets[e];
    K nd;
    if (!add_key(d, static_cast<K>(wfn(e)), &nd) || (Labels::kInfSumOverflows && nd == inf)) {
      overflowed.emplace_back(u, v);
      continue;
    }
    if (labels.improves(v, nd)) {
      labels.set(v, nd, u);
      heap.emplace_back(nd, v);
      std::push_heap(heap.begin(), heap.end(), HeapOrder<K>());
      on_label(v, nd);
    }
  }
  return end - begin;
}

// The binary-heap Dijkstra of the CPU engines: from s over keys wfn(e) >= 0
// (type K), labels kept by `labels` (DenseLabels, or the table engine's
// stamped labels, apsp_sparse/stamped_search.h), until the heap is empty
// or stop(u) returns true for a settled u (before u's arcs are relaxed).
// Arcs whose sum leaves the key's range go to `overflowed` (relax_arcs).
// Returns the number of arc relaxations.
template <class K, class W, class Labels, class WFn, class Stop>
int64_t dijkstra_loop(const CsrView<W>& g, int32_t s, Labels labels, HeapVec<K>& heap, OverflowArcs& overflowed,
                      WFn&& wfn, Stop&& stop) {
  start_search(s, labels, heap, overflowed);
  int64_t relax = 0;
  K d;
  int32_t u;
  while (pop_current(heap, labels, &d, &u)) {
    if (stop(u)) break;
    relax += relax_arcs(g, u, d, labels, heap, overflowed, wfn, [](int32_t, K) {});
  }
  return relax;
}

// Dijkstra from s over non-negative arc weights given by wfn(e) (type K),
// over the whole reachable part. int32 keys: GSP_ERR_OVERFLOW when a
// reachable vertex's distance does not fit below GSP_I32_INF (sums that
// overflow on the way to a vertex that still gets a finite distance are
// harmless and ignored).
// Fills dist (n keys, key_inf for unreachable) and pred (n ids, or null).
// With a finite `limit` (gsp_options::limit) the search stops at the first
// vertex settled beyond it: labels of vertices past the limit are then left
// as they are (each above the limit; the dispatcher cuts them), and so are
// overflows past it. Returns the number of arc relaxations.
template <class K, class W, class WFn>
int64_t dijkstra_run(const CsrView<W>& g, int32_t s, K* dist, int32_t* pred, WFn&& wfn, HeapVec<K>& heap,
                     double limit = std::numeric_limits<double>::infinity()) {
  // Arcs whose sum left the int32 range. With w >= 0 such a sum can only
  // matter for a vertex that stays unreachable otherwise, so the decision is
  // deferred to the end: exact answers where they fit, GSP_ERR_OVERFLOW
  // only when a reachable vertex's distance does not.
  OverflowArcs overflowed;
  bool stopped = false;
  const int64_t relax =
      dijkstra_loop<K>(g, s, DenseLabels<K>{dist, pred, g.n}, heap, overflowed, std::forward<WFn>(wfn), [&](int32_t u) {
        stopped = static_cast<double>(dist[u]) > limit;
        return stopped;
      });
  if (stopped) return relax;
  for (const auto& uv : overflowed) {
    if (dist[uv.second] == key_inf<K>()) throw_overflow(uv.first, uv.second);
  }
  return relax;
}

// Wide key for Bellman-Ford: int64 for int32 weights (labels are lengths of
// walks with < n arcs, so |label| < n * 2^31 never overflows), double for
// float and for double itself (no wider type is as fast; a double graph's
// verdict is its own). In double, sums of float weights are exact while
// the weights span less than 2^29 in magnitude, so a cycle whose float weights sum to zero is
// not mistaken for a negative one by rounding (in float it can be: 1e6 and
// -1e6 absorb 1e-3). This engine is the float64 evidence that dispatch asks
// for before a float graph is called a negative-cycle graph (dispatch.cpp).
template <class W>
using WideKey = std::conditional_t<std::is_same_v<W, int32_t>, int64_t, double>;

// A wide label (WideKey, or Johnson's int64 / double keys) back in the
// weight type: key_inf is unreachable; an int32 distance must fit below
// GSP_I32_INF, a float one within FLT_MAX (beyond it the cast would be
// undefined), a double one finite, else GSP_ERR_OVERFLOW naming the pair.
template <class W, class K>
W narrow_distance(K d, int32_t source, int32_t target) {
  if (d == key_inf<K>()) return Dist<W>::inf();
  const double max = std::is_same_v<W, float> ? static_cast<double>(std::numeric_limits<float>::max())
                                              : std::numeric_limits<double>::max();
  const bool fits = std::is_same_v<W, int32_t> ? d < static_cast<K>(GSP_I32_INF) && d > static_cast<K>(INT32_MIN)
                                               : std::fabs(static_cast<double>(d)) <= max;
  if (!fits) {
    throw Error(GSP_ERR_OVERFLOW, "the distance from " + std::to_string(source) + " to " + std::to_string(target) +
                                      " (" + std::to_string(d) + ") does not fit " +
                                      (std::is_same_v<W, float>    ? "float (|d| > FLT_MAX = 3.4e38; the target is "
                                                                     "reachable); use smaller weights or GSP_F64"
                                       : std::is_same_v<W, double> ? "double (|d| > DBL_MAX; the target is "
                                                                     "reachable); use smaller weights"
                                                                   : "int32; use GSP_F64 weights"));
  }
  return static_cast<W>(d);
}

struct BfCounts {
  int64_t pops = 0;
  int64_t relaxations = 0;
};

// Queue Bellman-Ford with Small Label First (a vertex whose label is below
// the front's goes to the front) and Large Label Last (the front moves to the
// back while its label exceeds the queue's average). Negative cycles are
// found by path length: the label of v is the length of a walk of len[v]
// arcs; a walk of >= n arcs that improved a label contains a negative cycle.
// s >= 0: from s. s < 0: from a virtual source joined to every vertex by a
// 0 arc (Johnson's potentials); pred is then ignored.
// options (may be null): progress is reported every 2^16 queue pops, with a
// rough fraction (the work of queue Bellman-Ford is not known in advance);
// call only on the thread that runs the job.
// The most labels the queue Bellman-Ford's LLL rule moves to the back
// before one pop (bellman_ford_run).
constexpr size_t kLllRotations = 16;

template <class W>
BfCounts bellman_ford_run(const CsrView<W>& g, int32_t s, WideKey<W>* dist, int32_t* pred,
                          const RunOptions* options = nullptr) {
  using K = WideKey<W>;
  const int32_t n = g.n;
  const K inf = key_inf<K>();
  std::vector<int32_t> len(static_cast<size_t>(n), 0);
  std::vector<char> inq(static_cast<size_t>(n), 0);
  std::deque<int32_t> q;
  double sum = 0;  // of the queued labels, for LLL
  int64_t limit = n;
  if (s >= 0) {
    std::fill(dist, dist + n, inf);
    if (pred != nullptr) std::fill(pred, pred + n, -1);
    dist[s] = K(0);
    q.push_back(s);
    inq[static_cast<size_t>(s)] = 1;
  } else {
    pred = nullptr;
    std::fill(dist, dist + n, K(0));
    std::fill(len.begin(), len.end(), 1);
    limit = static_cast<int64_t>(n) + 1;
    for (int32_t v = 0; v < n; ++v) q.push_back(v);
    std::fill(inq.begin(), inq.end(), 1);
  }
  BfCounts c;
  while (!q.empty()) {
    // LLL: rotate large labels to the back, at most kLllRotations a pop.
    // Unbounded (up to a full turn), one pop could cost the whole queue:
    // from the virtual source every label starts at 0, the first negative
    // arcs pull the average below it, and then nearly every queued vertex
    // is "large" (Johnson's potentials on NY with negative arcs: 27 s for
    // 4.4 M relaxations, quadratic in n).
    const double avg = sum / static_cast<double>(q.size());
    for (size_t turns = std::min(q.size(), kLllRotations); turns > 1 && static_cast<double>(dist[q.front()]) > avg;
         --turns) {
      q.push_back(q.front());
      q.pop_front();
    }
    const int32_t u = q.front();
    q.pop_front();
    inq[static_cast<size_t>(u)] = 0;
    sum -= static_cast<double>(dist[u]);
    if (q.empty()) sum = 0;  // drop accumulated rounding
    ++c.pops;
    if (options != nullptr && (c.pops & 0xffff) == 0) {
      options->report(std::min(0.9, static_cast<double>(c.pops) / (8.0 * n + 1.0)));
    }
    const K du = dist[u];
    const int64_t end = g.offsets[u + 1];
    for (int64_t e = g.offsets[u]; e < end; ++e) {
      const int32_t v = g.targets[e];
      const K nd = du + static_cast<K>(g.weights[e]);
      ++c.relaxations;
      if (nd < dist[v]) {
        const int32_t nl = len[static_cast<size_t>(u)] + 1;
        if (nl >= limit) {
          throw Error(GSP_ERR_NEGATIVE_CYCLE,
                      s >= 0 ? "a negative cycle is reachable from source " + std::to_string(s) +
                                   " (it passes near vertex " + std::to_string(v) + ")"
                             : "the graph has a negative cycle (it passes near vertex " + std::to_string(v) + ")");
        }
        len[static_cast<size_t>(v)] = nl;
        if (inq[static_cast<size_t>(v)]) {
          sum += static_cast<double>(nd) - static_cast<double>(dist[v]);
          dist[v] = nd;
        } else {
          dist[v] = nd;
          inq[static_cast<size_t>(v)] = 1;
          sum += static_cast<double>(nd);
          if (!q.empty() && nd < dist[q.front()]) {
            q.push_front(v);  // SLF
          } else {
            q.push_back(v);
          }
        }
        if (pred != nullptr) pred[v] = u;
      }
    }
  }
  return c;
}

}  // namespace gsp::detail::cpu
