// The min-plus tile kernel shared by the CPU Floyd-Warshall and min-plus
// squaring engines and by the MPI engine's CPU blocks (block_fw_cpu.h):
//
//   for k in [k0,k1), i in [i0,i1), j in [j0,j1):
//     C[i][j] = min(C[i][j], A[i][k] + B[k][j]);  PC[i][j] = PB[k][j] when it improves
//
// with k outermost, so the same kernel is a Floyd-Warshall step when A, B and
// C are one matrix (or C is the same block as A or B). Where C and B are the
// same matrix, the row of C that is B's pivot row k is skipped: in a
// Floyd-Warshall step A[k][k] is 0 there (no change possible) or negative,
// which the caller reports as a negative cycle from the diagonal. Do not
// alias C and B in a plain (non Floyd-Warshall) product.
//
// All matrices are row-major with leading dimension ld; indices are
// absolute. Unreachable is Dist<W>::inf(). A sum that would improve an entry
// but does not fit int32 sets TileResult::overflow and leaves the entry as
// it was (never wraps). Header-only, no dependencies beyond core/engine.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/engine.h"

namespace gsp::detail::cpu {

struct TileResult {
  bool changed = false;
  bool overflow = false;
  void merge(const TileResult& o) {
    changed = changed || o.changed;
    overflow = overflow || o.overflow;
  }
};

// The inner loops are branch-free (selects, OR-reductions) so that they
// vectorise at the baseline ISA. For int32, the sum is formed with wrapping
// unsigned arithmetic and its range is decided from b alone, against a
// limit that depends only on a = A[i][k] (loop-invariant):
//   a >= 0: a + b fits below GSP_I32_INF  <=>  b < GSP_I32_INF - a
//   a <  0: a + b fits above INT32_MIN    <=>  b > INT32_MIN - a  (b finite)
namespace tile_detail {

// One row segment: c[j] = min(c[j], a + b[j]) for j in [0, len), pc[j] = pb[j]
// where it improves (WithPred). Accumulates into changed / overflow. One
// template for float and double; int32 below.
template <bool WithPred, class F>
inline std::enable_if_t<std::is_floating_point_v<F>> row_update(F a, const F* __restrict b, F* __restrict c,
                                                                const int32_t* __restrict pb, int32_t* __restrict pc,
                                                                int64_t len, int& changed, int& /*overflow*/) {
  int ch = 0;
  for (int64_t j = 0; j < len; ++j) {
    const F bj = b[j], cj = c[j];
    const F s = a + bj;  // inf + finite stays inf and never improves
    const bool imp = s < cj;
    ch |= imp;
    c[j] = imp ? s : cj;
    if constexpr (WithPred) {
      const int32_t pbj = pb[j], pcj = pc[j];
      const int32_t mask = -static_cast<int32_t>(imp);  // a select GCC keeps branch-free
      pc[j] = (pbj & mask) | (pcj & ~mask);
    }
  }
  changed |= ch;
}

template <bool WithPred>
inline void row_update(int32_t a, const int32_t* __restrict b, int32_t* __restrict c, const int32_t* __restrict pb,
                       int32_t* __restrict pc, int64_t len, int& changed, int& overflow) {
  const int32_t inf = GSP_I32_INF;
  const uint32_t ua = static_cast<uint32_t>(a);
  int ch = 0, of = 0;
  if (a >= 0) {
    const int32_t limit = inf - a;  // b >= limit: the sum does not fit (or b is inf)
    for (int64_t j = 0; j < len; ++j) {
      const int32_t bj = b[j], cj = c[j];
      const int32_t s = static_cast<int32_t>(ua + static_cast<uint32_t>(bj));
      const bool fits = bj < limit;
      const bool imp = fits & (s < cj);
      of |= (!fits) & (bj != inf) & (cj == inf);
      ch |= imp;
      c[j] = imp ? s : cj;
      if constexpr (WithPred) {
        const int32_t pbj = pb[j], pcj = pc[j];
        const int32_t mask = -static_cast<int32_t>(imp);  // a select GCC keeps branch-free
        pc[j] = (pbj & mask) | (pcj & ~mask);
      }
    }
  } else {
    const int32_t low = INT32_MIN - a;  // b <= low: the sum is <= INT32_MIN
    for (int64_t j = 0; j < len; ++j) {
      const int32_t bj = b[j], cj = c[j];
      const int32_t s = static_cast<int32_t>(ua + static_cast<uint32_t>(bj));
      const bool finite = bj != inf;
      const bool imp = finite & (bj > low) & (s < cj);
      of |= finite & (bj <= low);
      ch |= imp;
      c[j] = imp ? s : cj;
      if constexpr (WithPred) {
        const int32_t pbj = pb[j], pcj = pc[j];
        const int32_t mask = -static_cast<int32_t>(imp);  // a select GCC keeps branch-free
        pc[j] = (pbj & mask) | (pcj & ~mask);
      }
    }
  }
  changed |= ch;
  overflow |= of;
}

}  // namespace tile_detail

// The inner loops are branch-free (selects, OR-reductions) so that they
// vectorise at the baseline ISA. For int32, the sum is formed with wrapping
// unsigned arithmetic and its range is decided from b alone, against a
// limit that depends only on a = A[i][k] (loop-invariant):
//   a >= 0: a + b fits below GSP_I32_INF  <=>  b < GSP_I32_INF - a
//   a <  0: a + b fits above INT32_MIN    <=>  b > INT32_MIN - a  (b finite)
template <class W>
TileResult minplus_tile(W* C, int32_t* PC, const W* A, const W* B, const int32_t* PB, int64_t ld, int64_t i0,
                        int64_t i1, int64_t j0, int64_t j1, int64_t k0, int64_t k1) {
  static_assert(std::is_same_v<W, float> || std::is_same_v<W, double> || std::is_same_v<W, int32_t>, "weight type");
  const W inf = Dist<W>::inf();
  const int64_t len = j1 - j0;
  int changed = 0, overflow = 0;
  for (int64_t k = k0; k < k1; ++k) {
    const W* brow = B + k * ld + j0;
    for (int64_t i = i0; i < i1; ++i) {
      const W aik = A[i * ld + k];
      if (aik == inf) continue;
      W* crow = C + i * ld + j0;
      // i == k in Floyd-Warshall: a = d(k,k) = 0 cannot improve row k, and a
      // negative d(k,k) is a negative cycle the caller reports after the
      // round (the diagonal only decreases). Skipping it also keeps the
      // restrict-qualified rows from aliasing.
      if (crow == brow) continue;
      if (PC != nullptr) {
        tile_detail::row_update<true>(aik, brow, crow, PB + k * ld + j0, PC + i * ld + j0, len, changed, overflow);
      } else {
        tile_detail::row_update<false>(aik, brow, crow, nullptr, nullptr, len, changed, overflow);
      }
    }
  }
  TileResult r;
  r.changed = changed != 0;
  r.overflow = overflow != 0;
  return r;
}

}  // namespace gsp::detail::cpu
