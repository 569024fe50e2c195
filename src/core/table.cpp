// The table result (table.h): cell addressing and path assembly.
#include "core/table.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace gsp::detail {

void TablePaths::assemble(std::vector<std::vector<int32_t>>& rows) {
  offsets[0] = 0;
  for (size_t c = 1; c < offsets.size(); ++c) offsets[c] += offsets[c - 1];
  vertices.clear();
  vertices.reserve(static_cast<size_t>(offsets.back()));
  for (std::vector<int32_t>& r : rows) {
    vertices.insert(vertices.end(), r.begin(), r.end());
    std::vector<int32_t>().swap(r);
  }
  if (static_cast<int64_t>(vertices.size()) != offsets.back()) {
    throw Error(GSP_ERR_INTERNAL, "table paths: " + std::to_string(vertices.size()) +
                                      " vertices for lengths summing to " + std::to_string(offsets.back()));
  }
}

int64_t TablePaths::append_path(const int32_t* pred, int32_t s, int32_t t, int32_t n, std::vector<int32_t>& out) {
  const size_t at = out.size();
  for (int32_t v = t, steps = 0;; v = pred[v]) {
    if (v < 0 || ++steps > n) {
      throw Error(GSP_ERR_INTERNAL,
                  "table: the predecessor chain from " + std::to_string(t) + " does not reach " + std::to_string(s));
    }
    out.push_back(v);
    if (v == s) break;
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(at), out.end());
  return static_cast<int64_t>(out.size() - at);
}

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
