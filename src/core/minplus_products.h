// How many products APSP by min-plus squaring runs, shared by the CPU
// (src/engines/cpu/apsp_dense/apsp_matrix.cpp) and CUDA (src/engines/cuda/apsp_dense/apsp_minplus.cu) engines.
//
// After t squarings the matrix holds the shortest walks of at most 2^t arcs.
// t = ceil(log2(n - 1)) covers every simple path, so without a negative cycle
// the matrix is final then. On a graph with negative arcs one more product
// covers walks of 2^(t+1) >= n arcs, so every simple cycle: a negative cycle
// then shows as a negative diagonal entry, which every product checks. That
// diagonal is the only evidence of a negative cycle, never a product count:
// float addition is not associative, and a product after the last needed one
// can still lower an entry by a rounding step (a graph of positive float
// weights did that for 13 products at n = 4096). Such steps are not
// improvements, and the run ends at this count (or earlier, at a fixed point).
#pragma once

#include <cstdint>

namespace gsp::detail {

inline int minplus_products_needed(int32_t n, bool negative_arcs) {
  int t = 0;
  while (t < 31 && (int64_t{1} << t) < static_cast<int64_t>(n) - 1) ++t;
  return t + (negative_arcs ? 1 : 0);
}

}  // namespace gsp::detail
