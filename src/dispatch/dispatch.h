// Backend and algorithm choice, and running engines
// into results. Called by the API layer (which normalises the options:
// api/run_options.h); calls the CPU engines and the CUDA boundary.
#pragma once

#include <cstddef>
#include <memory>

#include "core/engine.h"
#include "core/paths.h"
#include "core/table.h"

namespace gsp::detail {

std::unique_ptr<Paths> run_sssp(const GraphPtr& graph, int32_t source, const RunOptions& options);
std::unique_ptr<Paths> run_apsp(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                                const RunOptions& options);
// Rows into the caller's arrays (gsp_apsp_run_into): dist rows x n values,
// pred rows x n or null (then no predecessors are computed).
void run_apsp_into_arrays(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& options,
                          void* dist, int32_t* pred, RunStats* stats);
void run_apsp_stream(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& options,
                     gsp_rows_fn on_rows, void* user);

// The backend and algorithm a run would use (gsp_run_plan): the same choice
// and checks as the run itself. num_sources <= 0: every vertex (APSP).
void plan_for(const Graph& graph, bool sssp, int32_t num_sources, const RunOptions& options, gsp_backend* backend,
              gsp_algorithm* algorithm);

// Many-to-many tables (dispatch_table.cpp): K x T distances (and paths
// unless options.want_paths is false) from sources to targets. Checks the
// lists (negative counts, NULL with a positive count, vertices out of
// range); on the CPU the early-exit table engine runs, on CUDA the plan's
// all-pairs engine with a sink that keeps only the target columns.
std::unique_ptr<Table> run_table(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                                 const int32_t* targets, int32_t num_targets, const RunOptions& options);
// Distances only, into the caller's K x T array (gsp_table_run_into).
void run_table_into(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const int32_t* targets,
                    int32_t num_targets, const RunOptions& options, void* dist, RunStats* stats);

// Device arrays (gsp_device.h): a graph from CSR (or COO) arrays in device memory
// of options.device (copied to the host, checked and built there), and one
// source's distances and predecessors (pred may be null) into device
// memory of options.device.
GraphPtr build_graph_from_device(int32_t n, const int64_t* offsets, const int32_t* targets, const void* weights,
                                 gsp_dtype dtype, bool undirected, const RunOptions& options);
GraphPtr build_graph_coo_from_device(int32_t n, int64_t m, const int32_t* sources, const int32_t* targets,
                                     const void* weights, gsp_dtype dtype, bool undirected, const RunOptions& options);
void run_sssp_device(const GraphPtr& graph, int32_t source, const RunOptions& options, void* dist, int32_t* pred,
                     RunStats* stats);

// Nearest-source search (gsp_nearest_run, dispatch_nearest.cpp): n
// distances of the graph's type to the nearest of the sources, and
// optionally which source (nearest) and the predecessors (pred, only when
// options.want_paths).
void run_nearest(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& options,
                 void* dist, int32_t* nearest, int32_t* pred, RunStats* stats);

}  // namespace gsp::detail
