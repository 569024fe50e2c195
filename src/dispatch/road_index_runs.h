// Road indexes in the dispatcher (gsp_index.h): building one, and which
// runs answer from one (road_index_runs.cpp).
#pragma once

#include <memory>

#include "core/engine.h"
#include "core/graph.h"
#include "core/road_index.h"

namespace gsp::detail {

// The index a run answers from: options.index when the algorithm is AUTO
// or GSP_CH, after checking that it is an index of `graph`
// (GSP_ERR_INVALID_ARGUMENT otherwise); null when the run ignores it or has
// none. GSP_CH without an index is GSP_ERR_INVALID_ARGUMENT.
const ChBase* index_for(const Graph& graph, const RunOptions& options);
// Throws GSP_ERR_INVALID_ARGUMENT, saying how they differ, unless `index`
// was built for a graph equal to `graph` (Graph::fingerprint()).
void require_index_of(const ChBase& index, const Graph& graph);
// gsp_index_build: the hierarchy on the CPU's threads; stats get the
// backend, the time and the rounds.
std::unique_ptr<ChBase> build_road_index(const Graph& graph, const RunOptions& options, RunStats* stats);

}  // namespace gsp::detail
