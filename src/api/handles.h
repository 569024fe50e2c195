// What the opaque C handles hold. Shared by the C API (api.cpp) and the MPI
// API (api_mpi.cpp), so both see one definition.
#pragma once

#include <memory>

#include "core/graph.h"
#include "core/paths.h"
#include "core/table.h"

struct gsp_graph {
  gsp::detail::GraphPtr graph;
};

struct gsp_paths {
  std::unique_ptr<gsp::detail::Paths> paths;
};

struct gsp_table {
  std::unique_ptr<gsp::detail::Table> table;
};
