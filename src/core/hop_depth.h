// A graph's hop depth, probed: plain data the cost models read (through
// Graph::hop_depth(), which runs the probe once per graph and keeps it).
#pragma once

#include "core/graph.h"

namespace gsp::detail {

// Estimated hop eccentricity of a source (arcs on its longest shortest
// path, unweighted): ~log n on random graphs, ~sqrt n on grids and roads,
// ~n on rings and paths. Breadth-first searches from vertices 0 and n / 2,
// each stopped after max(32, min(1024, n / 32)) vertices (or 32 times as
// many arcs: a hub); the levels at which a search passed 1/8 of that and
// all of it give a growth exponent, from which the depth is extrapolated
// to n vertices. Costs O(1024) vertices whatever n (a few microseconds);
// Graph::hop_depth() runs it once per graph and keeps the answer.
double estimate_hop_depth(const Graph& graph);

}  // namespace gsp::detail
