// The three weight (and distance) types, GSP_F32, GSP_I32 and GSP_F64, as
// C++ types: dispatch on a gsp_dtype, and the facts each engine needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gsp/gsp.h"

namespace gsp::detail {

// The one of three objects that goes with weight type W (float, int32_t or
// double): the array of that type among a struct's three, say.
template <class W, class F32, class I32, class F64>
constexpr auto& by_weight_type(F32& for_f32, I32& for_i32, F64& for_f64) {
  if constexpr (std::is_same_v<W, float>) {
    return for_f32;
  } else if constexpr (std::is_same_v<W, double>) {
    return for_f64;
  } else {
    static_assert(std::is_same_v<W, int32_t>, "weight type");
    return for_i32;
  }
}

// Calls f(W{}) with W = float, double or int32_t according to dtype.
template <class F>
decltype(auto) with_weight_type(gsp_dtype dtype, F&& f) {
  if (dtype == GSP_F32) return f(float{});
  if (dtype == GSP_F64) return f(double{});
  return f(int32_t{});
}

// The gsp_dtype of a weight type.
template <class W>
constexpr gsp_dtype dtype_of() {
  if constexpr (std::is_same_v<W, float>) {
    return GSP_F32;
  } else if constexpr (std::is_same_v<W, double>) {
    return GSP_F64;
  } else {
    static_assert(std::is_same_v<W, int32_t>, "weight type");
    return GSP_I32;
  }
}

// Bytes of one weight (and distance) of a gsp_dtype.
inline size_t weight_bytes(gsp_dtype dtype) { return dtype == GSP_F64 ? sizeof(double) : 4; }

// Whether a gsp_dtype is one of the floating-point types.
inline bool is_float_dtype(gsp_dtype dtype) { return dtype == GSP_F32 || dtype == GSP_F64; }

}  // namespace gsp::detail
