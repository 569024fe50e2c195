// Kernels of the device-resident BlockFw (block_fw.cu): block format
// conversions, the initial blocks from the arcs, the diagonal check, and
// the predecessor check by pointer doubling. Included by block_fw.cu only.
#pragma once

#include <algorithm>
#include <type_traits>

#include "core/block_fw.h"
#include "apsp_dense/minplus_tile.cuh"
#include "runtime/weight_traits.cuh"

namespace gsp::detail::gpu::block_fw_kernels {

using namespace dense;

// Column offset that keeps the tile product's diagonal test (row_off + i ==
// col_off + j) from firing: local rows and columns are not global indices.
// Negative diagonals are found by diag_check_kernel instead.
constexpr int64_t kNoDiagonal = int64_t(1) << 40;

template <class W>
__device__ __forceinline__ bool api_is_inf(W v) {
  if constexpr (std::is_floating_point<W>::value) {
    return isinf(v) && v > 0;
  } else {
    return v == GSP_I32_INF;
  }
}

// Device matrix region (nbr x nbc blocks of b x b at D, leading dimension
// ld) -> host block format (total = nbr * nbc * b * b cells), API values.
template <class Ops, class W>
__global__ void pack_blocks_kernel(const typename Ops::T* D, const int32_t* P, int64_t ld, int32_t b, int32_t nbc,
                                   int64_t total, W* out_d, int32_t* out_p) {
  const int64_t bb = (int64_t)b * b;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t blk = e / bb, w = e % bb;
    const int64_t at = ((blk / nbc) * b + w / b) * ld + (blk % nbc) * b + w % b;
    const typename Ops::T v = D[at];
    out_d[e] = Ops::is_inf(v) ? Dist<W>::inf() : (W)v;
    if (out_p != nullptr) out_p[e] = P[at];
  }
}

// The inverse: host block format, API values -> device region.
template <class Ops, class W>
__global__ void unpack_blocks_kernel(const W* in_d, const int32_t* in_p, int64_t total, int32_t b, int32_t nbc,
                                     typename Ops::T* D, int32_t* P, int64_t ld) {
  const int64_t bb = (int64_t)b * b;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t blk = e / bb, w = e % bb;
    const int64_t at = ((blk / nbc) * b + w / b) * ld + (blk % nbc) * b + w % b;
    const W v = in_d[e];
    D[at] = api_is_inf(v) ? Ops::inf() : (typename Ops::T)v;
    if (P != nullptr && in_p != nullptr) P[at] = in_p[e];
  }
}

// Sets kFlagNegCycle when a diagonal cell this rank holds is negative.
template <class Ops>
__global__ void diag_check_kernel(const typename Ops::T* D, int64_t ld, BlockFwShape s, int* flags) {
  const int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int32_t li = (int32_t)(idx / s.b), r = (int32_t)(idx % s.b);
  if (li >= s.nlr) return;
  const int32_t I = li * s.grid_rows + s.my_row;
  if (I % s.grid_cols != s.my_col || (int64_t)I * s.b + r >= s.n) return;
  const int64_t lj = I / s.grid_cols;
  if (D[((int64_t)li * s.b + r) * ld + lj * s.b + r] < typename Ops::T(0)) atomicOr(flags, kFlagNegCycle);
}

// Fills count cells with infinity (predecessor -1).
template <class Ops>
__global__ void fill_inf_kernel(typename Ops::T* D, int32_t* P, int64_t count) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x) {
    D[e] = Ops::inf();
    if (P != nullptr) P[e] = -1;
  }
}

// 0 on the diagonal cells this rank holds.
template <class Ops>
__global__ void zero_diag_kernel(typename Ops::T* D, int64_t ld, BlockFwShape s) {
  const int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int32_t li = (int32_t)(idx / s.b), r = (int32_t)(idx % s.b);
  if (li >= s.nlr) return;
  const int32_t I = li * s.grid_rows + s.my_row;
  if (I % s.grid_cols != s.my_col || (int64_t)I * s.b + r >= s.n) return;
  D[((int64_t)li * s.b + r) * ld + (I / s.grid_cols) * s.b + r] = typename Ops::T(0);
}

// min into a cell (floats: ordered as integers by sign, runtime/weight_traits.cuh).
template <class W>
__device__ __forceinline__ void atomic_min_value(W* at, W v) {
  WeightTraits<W>::atomic_min(at, v);
}

// Arcs (cell of the local matrix, weight): the lightest per cell wins.
template <class T>
__global__ void scatter_arcs_kernel(const int64_t* cell, const T* w, int64_t count, T* D) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x) {
    atomic_min_value(D + cell[e], w[e]);
  }
}

// Then the arcs' tails as predecessors where an arc won its cell (parallel
// arcs share the tail; a self-loop only where it made the diagonal negative).
template <class T>
__global__ void arc_preds_kernel(const int64_t* cell, const T* w, int64_t count, const T* D, int32_t* P, int64_t ld,
                                 BlockFwShape s) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = cell[e];
    if (D[c] != w[e]) continue;
    const int64_t row = c / ld, col = c % ld;
    const int32_t u = (int32_t)(((row / s.b) * s.grid_rows + s.my_row) * s.b + row % s.b);
    const int32_t v = (int32_t)(((col / s.b) * s.grid_cols + s.my_col) * s.b + col % s.b);
    if (u != v || w[e] < T(0)) P[c] = u;
  }
}

// In place: device values -> API values over count cells (predecessors
// stay as they are, as pack_blocks_kernel leaves them).
template <class Ops, class W>
__global__ void to_api_kernel(typename Ops::T* D, int64_t count) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x) {
    if (Ops::is_inf(D[e])) D[e] = (typename Ops::T)Dist<W>::inf();
  }
}

// The predecessor check of rows [row0, row0 + rows) of the local matrix
// (whole rows: a grid of one column), by pointer doubling: anc starts as each
// vertex's predecessor (the vertex itself where there is none), then anc <-
// anc[anc] until 2^rounds >= n; every reachable vertex must end at the
// row's source, whose own predecessor must be -1, and every predecessor of
// a reachable vertex must be reachable. anc0 / anc1: rows x n scratch.
__global__ void anc_init_kernel(const int32_t* P, int64_t ld, int32_t n, int64_t row0, int64_t total, int32_t* anc) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n, j = e % n;
    const int32_t p = P[(row0 + r) * ld + j];
    anc[e] = p < 0 || p >= n ? (int32_t)j : p;
  }
}
__global__ void anc_step_kernel(const int32_t* a, int32_t* b, int32_t n, int64_t total) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    b[e] = a[(e / n) * n + a[e]];
  }
}
// Local row row0 + r is vertex vertex0 + r's (whole rows: column j is
// vertex j); bad[r] is set for a bad row.
template <class Ops>
__global__ void anc_check_kernel(const int32_t* anc, const typename Ops::T* D, const int32_t* P, int64_t ld, int32_t n,
                                 int64_t row0, int64_t vertex0, int64_t total, int* bad) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n, j = e % n, li = row0 + r, i = vertex0 + r;
    const int64_t at = li * ld + j;
    if (Ops::is_inf(D[at])) continue;
    const int32_t p = P[at];
    bool ok;
    if (j == i) {
      ok = p == -1;
    } else {
      ok = anc[e] == i && p >= 0 && p < n && !Ops::is_inf(D[li * ld + p]);
    }
    if (!ok) bad[r] = 1;
  }
}

inline unsigned grid_for(int64_t total) { return (unsigned)std::min<int64_t>(blocks_for(total, 256), 65535LL * 8); }

}  // namespace gsp::detail::gpu::block_fw_kernels
