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
// One row (gsp_sssp_run) and the rows of job.sources (the apsp calls and
// tables on CUDA) from `index` on `backend` (the plan's): on CUDA the CPU's
// threads make the upward searches (cpu::index_seeds) and the device sweeps
// (gpu::index_sssp / index_apsp).
void run_index_sssp(const ChBase& index, gsp_backend backend, const SsspJob& job);
void run_index_apsp(const ChBase& index, gsp_backend backend, const ApspJob& job);
// A CPU thread's seconds for `rows` one-to-all rows from an index of
// `graph` (the sweep: NY 9.7 ms a row on the H200 host's cores), for
// AUTO's start-up rule.
double cpu_index_rows_seconds(const Graph& graph, int32_t rows, int32_t threads);
// Whether a K x T table from an index runs faster as the device's rows
// (every vertex swept for each source, the targets' columns kept) than as
// the CPU's bucket search on `threads` threads, with or without paths: the
// CUDA backend's choice under AUTO (doc/road-index.md, "Tables").
bool index_table_rows_win(const Graph& graph, int32_t k, int32_t t, int32_t threads, bool paths);
// gsp_index_build: the hierarchy on the CPU's threads; stats get the
// backend, the time and the rounds.
std::unique_ptr<ChBase> build_road_index(const Graph& graph, const RunOptions& options, RunStats* stats);

}  // namespace gsp::detail
