// The result behind the opaque gsp_table handle: a K x T table of distances
// from a list of sources to a list of targets and, unless GSP_NO_PATHS, one
// path per cell, each source's paths kept as one tree (table_paths.h).
// Holds no reference to its graph. Filled by dispatch_table.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/engine.h"
#include "core/host_array.h"
#include "core/table_paths.h"

namespace gsp::detail {

// A K x T table to compute: what the CPU table engines
// (engines/cpu/apsp_sparse/table_dijkstra.cpp, the road index's
// engines/cpu/index/ch_query.cpp) and the table's CUDA path
// (dispatch/dispatch_table.cpp) read.
struct TableJob {
  const Graph* graph = nullptr;
  const int32_t* sources = nullptr;
  int32_t num_sources = 0;
  const int32_t* targets = nullptr;
  int32_t num_targets = 0;
  const RunOptions* options = nullptr;
  void* dist = nullptr;
  TablePaths* paths = nullptr;  // reset to K x T already, or null
  RunStats* stats = nullptr;
  // > 0: a source's search may settle at most this many vertices (both
  // directions' together for a bidirectional one); one that needs more
  // gives the whole table up (table() returns false, the cells are
  // undefined): AUTO's point-to-point bet (dispatch/dispatch_table.cpp).
  int64_t settle_budget = 0;
};

struct Table {
  int32_t num_sources = 0;  // K
  int32_t num_targets = 0;  // T
  int32_t n = 0;            // vertices of the graph
  gsp_dtype dtype = GSP_F32;
  std::vector<int32_t> sources, targets;  // as given (for messages)
  HostArray<float> dist_f32;              // K x T (GSP_F32)
  HostArray<int32_t> dist_i32;            // K x T (GSP_I32)
  HostArray<double> dist_f64;             // K x T (GSP_F64)
  bool has_paths = false;
  TablePaths paths;  // empty without paths
  RunStats stats;

  uint64_t cells() const { return static_cast<uint64_t>(num_sources) * static_cast<uint64_t>(num_targets); }
  void* dist() { return const_cast<void*>(static_cast<const Table*>(this)->dist()); }
  const void* dist() const {
    if (dtype == GSP_F32) return dist_f32.data();
    if (dtype == GSP_F64) return dist_f64.data();
    return dist_i32.data();
  }
  // Room for the K x T distances of the table's type, uninitialised.
  void allocate_dist();
  // The cell of (source_index, target_index); throws INVALID_ARGUMENT naming
  // the index that is out of range.
  size_t cell(int32_t source_index, int32_t target_index) const;
  // Whether cell c's target is unreachable (its distance is inf).
  bool unreachable(size_t c) const;
};

}  // namespace gsp::detail
