// The result behind the opaque gsp_paths handle: one row of distances (and
// predecessors) per source. Keeps its graph alive (shared_ptr), so handles
// may be destroyed in any order.
#pragma once

#include <cstdint>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/engine.h"
#include "core/host_array.h"

namespace gsp::detail {

struct Paths {
  GraphPtr graph;
  int32_t n = 0;
  gsp_dtype dtype = GSP_F32;
  std::vector<int32_t> sources;                 // row -> source vertex
  std::unordered_map<int32_t, int32_t> row_of;  // source vertex -> first row
  HostArray<float> dist_f32;                    // rows x n (GSP_F32)
  HostArray<int32_t> dist_i32;                  // rows x n (GSP_I32)
  HostArray<double> dist_f64;                   // rows x n (GSP_F64)
  HostArray<int32_t> pred;                      // rows x n, empty when no paths
  bool has_paths = false;
  RunStats stats;

  // Row of a source vertex; throws INVALID_ARGUMENT when it is not a source.
  int32_t row(int32_t source) const;
  const void* dist_row(int32_t row) const;
  // The distance array of weight type W (the one of dtype holds the rows).
  template <class W>
  HostArray<W>& dist_array() {
    return by_weight_type<W>(dist_f32, dist_i32, dist_f64);
  }
  const int32_t* pred_row(int32_t row) const { return pred.data() + static_cast<size_t>(row) * n; }
};

}  // namespace gsp::detail
