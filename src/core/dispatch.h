// Backend and algorithm choice, option normalisation, and running engines
// into results. Called by the API layer; calls the CPU engines and the CUDA
// boundary.
#pragma once

#include <memory>

#include "core/engine.h"
#include "core/paths.h"

namespace gsp::detail {

// Normalise the caller's options (NULL: defaults). Throws INVALID_ARGUMENT
// for a size smaller than the first version's struct, unknown enum values,
// negative delta or threads.
RunOptions normalize_options(const gsp_options* options);

std::unique_ptr<Paths> run_sssp(const GraphPtr& graph, int32_t source, const RunOptions& options);
std::unique_ptr<Paths> run_apsp(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                                const RunOptions& options);
// Rows into the caller's arrays (gsp_apsp_run_into): dist rows x n values,
// pred rows x n or null (then no predecessors are computed).
void run_apsp_into_arrays(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                          const RunOptions& options, void* dist, int32_t* pred, RunStats* stats);
void run_apsp_stream(const GraphPtr& graph, const int32_t* sources, int32_t num_sources,
                     const RunOptions& options, gsp_rows_fn on_rows, void* user);

// The backend and algorithm a run would use (gsp_run_plan): the same choice
// and checks as the run itself. num_sources <= 0: every vertex (APSP).
void plan_for(const Graph& graph, bool sssp, int32_t num_sources, const RunOptions& options,
              gsp_backend* backend, gsp_algorithm* algorithm);

}  // namespace gsp::detail
