// Argument checks shared by the C ABI's files (api*.cpp).
#pragma once

#include <cstring>
#include <string>

#include "core/error.h"
#include "gsp/gsp.h"

namespace gsp::detail {

// Throws GSP_ERR_INVALID_ARGUMENT ("NAME must not be NULL") for a null pointer.
inline void need(const void* p, const char* name) {
  if (p == nullptr) throw Error(GSP_ERR_INVALID_ARGUMENT, std::string(name) + " must not be NULL");
}

// The integer a C caller stored in an enum argument. C lets any int through;
// in C++ loading an enum object outside its range is undefined (UBSan's
// -fsanitize=enum flags it), so the API checks enum arguments through their
// bytes before using them as enums.
template <class E>
int enum_value(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "enum size");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// A weight type argument: GSP_F32, GSP_I32 or GSP_F64.
inline void check_dtype(const gsp_dtype& t) {
  const int v = enum_value(t);
  require(v == GSP_F32 || v == GSP_I32 || v == GSP_F64, GSP_ERR_INVALID_ARGUMENT,
          "weight_type = " + std::to_string(v) + " is not GSP_F32, GSP_I32 or GSP_F64");
}

// Graph creation flags: only GSP_GRAPH_UNDIRECTED is known.
inline void check_graph_flags(uint32_t flags) {
  require((flags & ~static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED)) == 0, GSP_ERR_INVALID_ARGUMENT,
          "unknown graph flags: " + std::to_string(flags));
}

}  // namespace gsp::detail
