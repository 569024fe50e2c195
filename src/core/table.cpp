// The table result (table.h): cell addressing and distances.
#include "core/table.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace gsp::detail {

size_t Table::cell(int32_t source_index, int32_t target_index) const {
  require_index(source_index, num_sources, "source_index");
  require_index(target_index, num_targets, "target_index");
  return static_cast<size_t>(source_index) * static_cast<size_t>(num_targets) + static_cast<size_t>(target_index);
}

bool Table::unreachable(size_t c) const {
  if (dtype == GSP_F32) return std::isinf(dist_f32[c]);
  if (dtype == GSP_F64) return std::isinf(dist_f64[c]);
  return dist_i32[c] == GSP_I32_INF;
}

void Table::allocate_dist() {
  const size_t k = static_cast<size_t>(cells());
  if (dtype == GSP_F32) {
    dist_f32.resize_uninitialized(k);
  } else if (dtype == GSP_F64) {
    dist_f64.resize_uninitialized(k);
  } else {
    dist_i32.resize_uninitialized(k);
  }
}

}  // namespace gsp::detail
