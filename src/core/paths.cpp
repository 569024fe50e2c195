// Result rows: lookup by source vertex.
#include "core/paths.h"

#include <string>

namespace gsp::detail {

int32_t Paths::row(int32_t source) const {
  auto it = row_of.find(source);
  if (it == row_of.end()) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "vertex " + std::to_string(source) + " is not a source of this result");
  }
  return it->second;
}

const void* Paths::dist_row(int32_t r) const {
  const size_t at = static_cast<size_t>(r) * static_cast<size_t>(n);
  if (dtype == GSP_F32) return dist_f32.data() + at;
  if (dtype == GSP_F64) return dist_f64.data() + at;
  return dist_i32.data() + at;
}

}  // namespace gsp::detail
