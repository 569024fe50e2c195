// The table engine's search for a source with one distinct target
// (table_dijkstra.cpp; doc/tables.md, "Which engine runs"): a bidirectional
// Dijkstra, forward from s over out-arcs and backward from t over in-arcs,
// for graphs without negative arcs. It answers what the one forward
// search of the table engine answers (int32 bit for bit; float and double
// as the sum of the returned path, see PointToPoint::run) after settling
// two balls of about half the radius: on a road graph about half the
// vertices of the forward search.
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph.h"
#include "engines/cpu/apsp_sparse/stamped_search.h"

namespace gsp::detail::cpu {

// What a point-to-point search reads of its graph: the out-arcs, the
// in-arcs (Graph::reverse_view: built on the graph's first point-to-point
// query, once, and kept with the graph) and whether no sum a search forms
// can leave the weight type's range (n times the largest weight, with
// float's rounding, fits): then a target that the search does not meet is
// unreachable without a look at the rest of the graph.
template <class W>
struct PointToPointGraph {
  CsrView<W> out, in;
  bool sums_fit = false;
};
template <class W>
PointToPointGraph<W> point_to_point_graph(const Graph& graph);

template <class W>
struct PointToPointAnswer {
  W dist = Dist<W>::inf();  // the target's distance; inf when unreachable
  bool gave_up = false;     // the search outgrew its budget: dist is undefined
  int64_t relaxations = 0;  // arcs scanned, both sides
  int64_t settled = 0;      // vertices settled, both sides
};

// One thread's point-to-point searches: two StampedSearch sides and the
// path being assembled, allocated on the first search and reused.
template <class W>
class PointToPoint {
 public:
  // The distance from s to t (weights >= 0) and, when path is not null,
  // the path s..t appended to it (nothing when t is unreachable). The side
  // with the smaller heap advances by one vertex; every label a side sets
  // on a vertex the other side has labelled makes a meeting candidate
  // d_f(v) + d_b(v), summed in WideKey<W> (int32: int64, so that two labels
  // cannot wrap), which is as exact as checking every scanned arc (an arc
  // that improves no label gives no better sum); the search stops once
  // top_f + top_b >= mu, the best candidate. The answer is the returned
  // path's arc sum in W, added from s on as the forward search adds: for
  // int32 the shortest distance itself; for float and double the forward
  // search's value whenever both return the same path, and otherwise
  // (paths shortest but for rounding) within twice gsp.h's bound of it.
  // Where no candidate fits the weight type (t unreachable, or a sum that
  // overflows), the forward side goes on alone as the forward search would,
  // to t or to the end of what s reaches, and answers as it does
  // (GSP_ERR_OVERFLOW exactly where it reports one); with sums_fit an unmet
  // target is unreachable at once. With budget > 0, a search that would
  // settle more than budget vertices (both sides together) gives up.
  PointToPointAnswer<W> run(const PointToPointGraph<W>& g, int32_t s, int32_t t, int64_t budget,
                            std::vector<int32_t>* path);

 private:
  using Wide = WideKey<W>;  // meeting sums
  struct Meeting {
    int32_t tail = -1, head = -1;  // the arc tail -> head joining a forward and a backward label
  };
  Meeting meet(const PointToPointGraph<W>& g, int32_t s, int32_t t, int64_t budget, PointToPointAnswer<W>& a);
  bool assemble(const PointToPointGraph<W>& g, Meeting m, W* sum);
  bool forward_alone(const PointToPointGraph<W>& g, int32_t t, int64_t budget, PointToPointAnswer<W>& a);

  StampedSearch<W> fwd_, bwd_;
  Wide mu_ = 0;                // the best meeting candidate's sum
  std::vector<int32_t> walk_;  // the path being assembled
};

extern template class PointToPoint<int32_t>;
extern template class PointToPoint<float>;
extern template class PointToPoint<double>;

}  // namespace gsp::detail::cpu
