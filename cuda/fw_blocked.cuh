// Blocked three-phase Floyd-Warshall on a square device sub-matrix in
// 128-wide tiles: the diagonal-tile kernel (phase 1) and the in-place loop
// over k-tiles built on the min-plus tile product. Shared by the
// single-device engine (apsp_floyd_warshall.cu) and the distributed
// engine's device blocks (block_fw.cu).
#pragma once

#include "core/engine.h"
#include "minplus_tile.cuh"

namespace gsp::detail::gpu::dense {

// Phase 1: serial-in-k Floyd-Warshall on one kTile x kTile diagonal tile in
// shared memory (distances, and predecessors with kPaths).
template <class Ops, bool kPaths>
__global__ void __launch_bounds__(1024)
fw_diag_kernel(typename Ops::T* D, int32_t* P, int64_t ld, int* flags) {
  using T = typename Ops::T;
  if (*(volatile int*)flags & kFlagNegCycle) return;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* d = reinterpret_cast<T*>(smem_raw);
  int32_t* pp = reinterpret_cast<int32_t*>(d + kTile * kTile);
  constexpr int kPer = kTile * kTile / 1024;
  const int t = threadIdx.x;
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int e = t + q * 1024, r = e / kTile, c = e % kTile;
    d[e] = D[r * ld + c];
    if constexpr (kPaths) pp[e] = P[r * ld + c];
  }
  __syncthreads();
  int ovf = 0;
  for (int k = 0; k < kTile; ++k) {
    T dik[kPer], dkj[kPer];
    int32_t pkj[kPaths ? kPer : 1];
#pragma unroll
    for (int q = 0; q < kPer; ++q) {
      const int e = t + q * 1024, r = e / kTile, c = e % kTile;
      dik[q] = d[r * kTile + k];
      dkj[q] = d[k * kTile + c];
      if constexpr (kPaths) pkj[q] = pp[k * kTile + c];
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kPer; ++q) {
      const int e = t + q * 1024;
      T c = d[e];
      if constexpr (kPaths) {
        int won = -1;
        Ops::relax_idx(c, won, dik[q], dkj[q], k, ovf);
        c = Ops::clamp(c);
        if (won >= 0 && !Ops::is_inf(c)) { d[e] = c; pp[e] = pkj[q]; }
      } else {
        const T old = c;
        Ops::relax(c, dik[q], dkj[q], ovf);
        if (c != old) d[e] = Ops::clamp(c);
      }
    }
    __syncthreads();
  }
  int neg = 0;
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int e = t + q * 1024, r = e / kTile, c = e % kTile;
    D[r * ld + c] = d[e];
    if constexpr (kPaths) P[r * ld + c] = pp[e];
    if (r == c && d[e] < T(0)) neg = 1;
  }
  const int bits = (neg ? kFlagNegCycle : 0) | (ovf ? kFlagOverflow : 0);
  if (bits) atomicOr(flags, bits);
}

template <class Ops, bool kPaths>
void launch_diag(typename Ops::T* D, int32_t* P, int64_t ld, int* flags, cudaStream_t s) {
  const size_t smem = (size_t)kTile * kTile * (sizeof(typename Ops::T) + (kPaths ? 4 : 0));
  GSP_CUDA(cudaFuncSetAttribute(fw_diag_kernel<Ops, kPaths>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  fw_diag_kernel<Ops, kPaths><<<1, 1024, smem, s>>>(D, P, ld, flags);
  GSP_CUDA_LAUNCH();
}

// Blocked FW, in place, on the nb*kTile square sub-matrix at D (and P) with
// leading dimension ld. Progress is reported per k-block as
// frac0 + span * (kb+1)/nb when report is set.
template <class Ops, bool kPaths>
void fw_blocked(typename Ops::T* D, int32_t* P, int64_t ld, int nb, int* flags, cudaStream_t s,
                const RunOptions* report, double frac0, double span) {
  using T = typename Ops::T;
  for (int kb = 0; kb < nb; ++kb) {
    const int64_t o = (int64_t)kb * kTile;
    T* Dkk = D + o * ld + o;
    int32_t* Pkk = kPaths ? P + o * ld + o : nullptr;
    launch_diag<Ops, kPaths>(Dkk, Pkk, ld, flags, s);
    if (nb > 1) {
      // Phase 2, row tiles: R = min(R, Dkk* (x) R), each block owns its tile.
      TileParams<T> r;
      r.A = Dkk; r.lda = ld;
      r.B = D + o * ld; r.ldb = ld;
      r.Cin = r.B; r.Cout = D + o * ld; r.ldc = ld;
      if (kPaths) { r.Bp = P + o * ld; r.ldbp = ld; r.Pin = r.Bp; r.Pout = P + o * ld; r.ldp = ld; }
      r.K = kTile;
      r.skip_col_lo = kb; r.skip_col_hi = kb + 1;
      r.row_off = o; r.col_off = 0;
      r.flags = flags;
      launch_tile_product<Ops, kPaths>(r, 1, nb, s);
      // Phase 2, column tiles: C = min(C, C (x) Dkk*).
      TileParams<T> c;
      c.A = D + o; c.lda = ld;
      c.B = Dkk; c.ldb = ld;
      c.Cin = D + o; c.Cout = D + o; c.ldc = ld;
      if (kPaths) { c.Bp = Pkk; c.ldbp = ld; c.Pin = P + o; c.Pout = P + o; c.ldp = ld; }
      c.K = kTile;
      c.skip_row_lo = kb; c.skip_row_hi = kb + 1;
      c.row_off = 0; c.col_off = o;
      c.flags = flags;
      launch_tile_product<Ops, kPaths>(c, nb, 1, s);
      // Phase 3: every other tile, C = min(C, col panel (x) row panel).
      TileParams<T> x;
      x.A = D + o; x.lda = ld;
      x.B = D + o * ld; x.ldb = ld;
      x.Cin = D; x.Cout = D; x.ldc = ld;
      if (kPaths) { x.Bp = P + o * ld; x.ldbp = ld; x.Pin = P; x.Pout = P; x.ldp = ld; }
      x.K = kTile;
      x.skip_row_lo = kb; x.skip_row_hi = kb + 1;
      x.skip_col_lo = kb; x.skip_col_hi = kb + 1;
      x.flags = flags;
      launch_tile_product<Ops, kPaths>(x, nb, nb, s);
    }
    if (report != nullptr) report->report(frac0 + span * (double)(kb + 1) / nb);
  }
}

}  // namespace gsp::detail::gpu::dense
