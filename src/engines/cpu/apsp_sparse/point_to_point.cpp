// The bidirectional point-to-point search of the table engine
// (point_to_point.h). Both sides are the CPU engines' one Dijkstra
// (start_search, top_key, pop_current and relax_arcs of sssp_core.h) over
// stamped labels, advanced a vertex at a time; the forward side, which
// never looks at the backward one, settles exactly the vertices the table
// engine's forward search settles, in the same order, so it can carry on
// alone where the two sides do not give the answer.
#include "engines/cpu/apsp_sparse/point_to_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "core/table.h"

namespace gsp::detail::cpu {

template <class W>
PointToPointGraph<W> point_to_point_graph(const Graph& graph) {
  PointToPointGraph<W> g;
  g.out = graph.view<W>();
  g.in = graph.reverse_view<W>();
  // A search sums a settled label, the length of a path of at most n - 1
  // arcs, and one more arc: at most n times the largest weight, and in
  // float at most (1 + u)^n <= e^(n u) times that (u: the unit roundoff).
  const double n = static_cast<double>(graph.n()), largest = std::max(0.0, graph.max_weight());
  if constexpr (std::is_same_v<W, int32_t>) {
    g.sums_fit = static_cast<int64_t>(graph.n()) * static_cast<int64_t>(largest) < static_cast<int64_t>(GSP_I32_INF);
  } else {
    const double u = static_cast<double>(std::numeric_limits<W>::epsilon()) / 2;
    g.sums_fit = n * largest * std::exp(n * u) < static_cast<double>(std::numeric_limits<W>::max());
  }
  return g;
}

template <class W>
PointToPointAnswer<W> PointToPoint<W>::run(const PointToPointGraph<W>& g, int32_t s, int32_t t, int64_t budget,
                                           std::vector<int32_t>* path) {
  PointToPointAnswer<W> a;
  if (s == t) {  // the forward search settles its target first
    a.dist = W(0);
    a.settled = 1;
    if (path != nullptr) path->push_back(s);
    return a;
  }
  const int32_t n = g.out.n;
  fwd_.ensure(n, true);
  bwd_.ensure(n, true);
  const Meeting m = meet(g, s, t, budget, a);
  if (a.gave_up) return a;
  W sum;
  if (m.tail >= 0 && assemble(g, m, &sum)) {
    a.dist = sum;
    if (path != nullptr) path->insert(path->end(), walk_.begin(), walk_.end());
    return a;
  }
  // No path of a distance that fits: where no sum can overflow, t is
  // unreachable (a path would have met); otherwise the forward search's
  // verdict decides, which may have to look at all that s reaches.
  if (m.tail < 0 && g.sums_fit) return a;
  if (!forward_alone(g, t, budget, a)) return a;
  if (fwd_.labelled(t)) {
    a.dist = fwd_.dist[static_cast<size_t>(t)];
    if (path != nullptr) TablePaths::append_path(fwd_.pred.data(), s, t, n, *path);
  } else {
    check_exhausted_search(fwd_, s);
  }
  return a;
}

// Both sides until the stopping rule holds or a side runs out; returns the
// best meeting arc (tail -1: none below the limit), its sum left in mu_.
template <class W>
typename PointToPoint<W>::Meeting PointToPoint<W>::meet(const PointToPointGraph<W>& g, int32_t s, int32_t t,
                                                        int64_t budget, PointToPointAnswer<W>& a) {
  StampedLabels<W> fl = fwd_.next(), bl = bwd_.next();
  start_search(s, fl, fwd_.heap, fwd_.overflowed);
  start_search(t, bl, bwd_.heap, bwd_.overflowed);
  // int32: a candidate must fit below GSP_I32_INF, as a forward label must;
  // float and double: any finite one (its path's sum in W is checked after).
  mu_ = std::is_same_v<W, int32_t> ? Wide(GSP_I32_INF) : key_inf<Wide>();
  Meeting m;
  for (;;) {
    const W top_f = top_key(fwd_.heap, fl), top_b = top_key(bwd_.heap, bl);
    if (top_f == key_inf<W>() || top_b == key_inf<W>() || Wide(top_f) + Wide(top_b) >= mu_) break;
    // The side with the smaller heap (its frontier, stale entries included)
    // goes next: on NY (20 random pairs) it scanned 0.89x the arcs of
    // alternating by the smaller top, whose balls of equal radius stay
    // equal where one side of a bay or bridge grows much faster.
    const bool forward = fwd_.heap.size() <= bwd_.heap.size();
    StampedSearch<W>& side = forward ? fwd_ : bwd_;
    const StampedSearch<W>& other = forward ? bwd_ : fwd_;
    StampedLabels<W>& labels = forward ? fl : bl;
    const CsrView<W>& arcs = forward ? g.out : g.in;
    W d = W(0);
    int32_t u = -1;
    if (!pop_current(side.heap, labels, &d, &u)) break;  // not taken: top_key found a current entry
    if (++a.settled > budget && budget > 0) {
      a.gave_up = true;
      return m;
    }
    a.relaxations += relax_arcs(
        arcs, u, d, labels, side.heap, side.overflowed, [&](int64_t e) { return arcs.weights[e]; },
        [&](int32_t v, W sum) {
          if (!other.labelled(v)) return;
          const Wide c = Wide(sum) + Wide(other.dist[static_cast<size_t>(v)]);
          if (c < mu_) {
            mu_ = c;
            m = forward ? Meeting{u, v} : Meeting{v, u};
          }
        });
  }
  return m;
}

// The path of meeting m into walk_ and its arc sum into *sum (cheapest
// parallel arc per hop, added from s on as the forward search adds); false
// when the sum leaves W's range. The path never passes a vertex twice: if
// both halves passed z, the meeting's sum would be at least the sum of z's
// two labels (labels never decrease along a chain, in float either, since
// rounding is monotone), and that pair was a candidate before this one
// (both labels of z were set before any label beyond z on either half),
// which a tie does not replace. So tied zero-weight cycles and self-loops
// (which never improve a label) stay out of it; the tests check it.
template <class W>
bool PointToPoint<W>::assemble(const PointToPointGraph<W>& g, Meeting m, W* sum) {
  const int32_t n = g.out.n;
  walk_.clear();
  auto chain = [&](const HostArray<int32_t>& next, int32_t from) {
    for (int32_t v = from, steps = 0; v >= 0; v = next[static_cast<size_t>(v)]) {
      if (++steps > n) {
        throw Error(GSP_ERR_INTERNAL, "point to point: the label chain from " + std::to_string(from) +
                                          " does not end within " + std::to_string(n) + " vertices");
      }
      walk_.push_back(v);
    }
  };
  chain(fwd_.pred, m.tail);
  std::reverse(walk_.begin(), walk_.end());
  chain(bwd_.pred, m.head);
  W d = W(0);
  for (size_t i = 0; i + 1 < walk_.size(); ++i) {
    const int32_t u = walk_[i], v = walk_[i + 1];
    W w = Dist<W>::inf();
    for (int64_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      if (g.out.targets[e] == v) w = std::min(w, g.out.weights[e]);
    }
    if (!add_key(d, w, &d) || d == key_inf<W>()) return false;
  }
  // int32 sums are exact: the path's is the best candidate's (anything
  // else is a bug of this search, not a distance to report).
  if constexpr (std::is_same_v<W, int32_t>) {
    if (Wide(d) != mu_) {
      throw Error(GSP_ERR_INTERNAL, "point to point: the path's sum " + std::to_string(d) +
                                        " is not the meeting distance " + std::to_string(mu_));
    }
  }
  *sum = d;
  return true;
}

// The forward side alone, on from where it stopped, as the forward search
// goes: until t is settled (true, t labelled) or the heap runs out (true,
// t unlabelled); false when the budget is outgrown.
template <class W>
bool PointToPoint<W>::forward_alone(const PointToPointGraph<W>& g, int32_t t, int64_t budget,
                                    PointToPointAnswer<W>& a) {
  StampedLabels<W> fl = fwd_.labels();
  W d;
  int32_t u;
  while (pop_current(fwd_.heap, fl, &d, &u)) {
    if (++a.settled > budget && budget > 0) {
      a.gave_up = true;
      return false;
    }
    if (u == t) return true;
    a.relaxations += relax_arcs(
        g.out, u, d, fl, fwd_.heap, fwd_.overflowed, [&](int64_t e) { return g.out.weights[e]; }, [](int32_t, W) {});
  }
  return true;
}

template PointToPointGraph<int32_t> point_to_point_graph<int32_t>(const Graph&);
template PointToPointGraph<float> point_to_point_graph<float>(const Graph&);
template PointToPointGraph<double> point_to_point_graph<double>(const Graph&);
template class PointToPoint<int32_t>;
template class PointToPoint<float>;
template class PointToPoint<double>;

}  // namespace gsp::detail::cpu
