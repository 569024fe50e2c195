// Filling a caller's gsp_run_info from an engine's RunStats (checks the
// caller's size field). Shared by gsp_paths_info and the MPI API.
#pragma once

#include "core/engine.h"

namespace gsp::detail {

void write_run_info(const RunStats& stats, gsp_dtype dtype, int32_t num_vertices, int32_t num_sources, bool has_paths,
                    gsp_run_info* info);

}  // namespace gsp::detail
