// Blocked three-phase Floyd-Warshall on a square device sub-matrix in
// 128-wide tiles: the diagonal-tile kernel (phase 1) and the in-place loop
// over k-tiles built on the min-plus tile product. Shared by the
// single-device engine (apsp_floyd_warshall.cu) and the distributed
// engine's device blocks (block_fw.cu).
#pragma once

#include "core/engine.h"
#include "apsp_dense/minplus_tile.cuh"

namespace gsp::detail::gpu::dense {

// Phase 1: serial-in-k Floyd-Warshall on one kTile x kTile diagonal tile in
// shared memory (distances, and predecessors with kPaths). Thread t owns
// column c = t % kTile of the rows t / kTile + 8q (q < 16) and keeps them in
// registers; shared memory holds the tile for the other threads' reads. Per
// k a thread reads d[k][c] once and its 16 d[i][k], and writes only the
// cells that improved (17 shared reads instead of 48: phase 1 is on the
// critical path for small n, and compute-sanitizer's racecheck, which
// tracks every shared access, runs in proportion).
constexpr int kDiagThreads = 1024;

template <class Ops, bool kPaths>
__global__ void __launch_bounds__(kDiagThreads) fw_diag_kernel(typename Ops::T* D, int32_t* P, int64_t ld, int* flags) {
  using T = typename Ops::T;
  if (*(volatile int*)flags & kFlagNegCycle) return;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* d = reinterpret_cast<T*>(smem_raw);
  int32_t* pp = reinterpret_cast<int32_t*>(d + kTile * kTile);
  constexpr int kRowStep = kDiagThreads / kTile;  // 8
  constexpr int kRows = kTile / kRowStep;         // 16 cells per thread
  // double: 16 values and 16 d[i][k] would take all 64 registers (spills);
  // the thread's own cells are then read back from shared memory (only
  // their owner writes them) instead of being kept in registers.
  constexpr bool kOwnRegs = !TileCfg<T>::kWide;
  const int t = threadIdx.x, c = t % kTile, r0 = t / kTile;
  T v[kOwnRegs ? kRows : 1];
  int32_t pv[kPaths && kOwnRegs ? kRows : 1];
#pragma unroll
  for (int q = 0; q < kRows; ++q) {
    const int r = r0 + q * kRowStep;
    const T x = D[r * ld + c];
    d[r * kTile + c] = x;
    if constexpr (kOwnRegs) v[q] = x;
    if constexpr (kPaths) {
      const int32_t y = P[r * ld + c];
      pp[r * kTile + c] = y;
      if constexpr (kOwnRegs) pv[q] = y;
    }
  }
  __syncthreads();
  int ovf = 0;
  for (int k = 0; k < kTile; ++k) {
    // Step k reads row k and column k as they were when it began.
    const T dkj = d[k * kTile + c];
    const int32_t pkj = kPaths ? pp[k * kTile + c] : 0;
    T dik[kRows];
#pragma unroll
    for (int q = 0; q < kRows; ++q) dik[q] = d[(r0 + q * kRowStep) * kTile + k];
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kRows; ++q) {
      const int e = (r0 + q * kRowStep) * kTile + c;
      T old;
      if constexpr (kOwnRegs)
        old = v[q];
      else
        old = d[e];
      T x = old;
      if constexpr (kPaths) {
        int won = -1;
        Ops::relax_idx(x, won, dik[q], dkj, k, ovf);
        x = Ops::clamp(x);
        if (won >= 0 && !Ops::is_inf(x)) {
          if constexpr (kOwnRegs) {
            v[q] = x;
            pv[q] = pkj;
          }
          d[e] = x;
          pp[e] = pkj;
        }
      } else {
        Ops::relax(x, dik[q], dkj, ovf);
        if (x != old) {
          x = Ops::clamp(x);
          if constexpr (kOwnRegs) v[q] = x;
          d[e] = x;
        }
      }
    }
    __syncthreads();
  }
  int neg = 0;
#pragma unroll
  for (int q = 0; q < kRows; ++q) {
    const int r = r0 + q * kRowStep;
    T x;
    if constexpr (kOwnRegs)
      x = v[q];
    else
      x = d[r * kTile + c];
    D[r * ld + c] = x;
    if constexpr (kPaths) {
      if constexpr (kOwnRegs)
        P[r * ld + c] = pv[q];
      else
        P[r * ld + c] = pp[r * kTile + c];
    }
    if (r == c && x < T(0)) neg = 1;
  }
  const int bits = (neg ? kFlagNegCycle : 0) | (ovf ? kFlagOverflow : 0);
  if (bits) atomicOr(flags, bits);
}

template <class Ops, bool kPaths>
void launch_diag(typename Ops::T* D, int32_t* P, int64_t ld, int* flags, cudaStream_t s) {
  const size_t smem = (size_t)kTile * kTile * (sizeof(typename Ops::T) + (kPaths ? 4 : 0));
  GSP_CUDA(cudaFuncSetAttribute(fw_diag_kernel<Ops, kPaths>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  fw_diag_kernel<Ops, kPaths><<<1, kDiagThreads, smem, s>>>(D, P, ld, flags);
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
      r.A = Dkk;
      r.lda = ld;
      r.B = D + o * ld;
      r.ldb = ld;
      r.Cin = r.B;
      r.Cout = D + o * ld;
      r.ldc = ld;
      if (kPaths) {
        r.Bp = P + o * ld;
        r.ldbp = ld;
        r.Pin = r.Bp;
        r.Pout = P + o * ld;
        r.ldp = ld;
      }
      r.K = kTile;
      r.skip_col_lo = kb;
      r.skip_col_hi = kb + 1;
      r.row_off = o;
      r.col_off = 0;
      r.flags = flags;
      launch_tile_product<Ops, kPaths>(r, 1, nb, s);
      // Phase 2, column tiles: C = min(C, C (x) Dkk*).
      TileParams<T> c;
      c.A = D + o;
      c.lda = ld;
      c.B = Dkk;
      c.ldb = ld;
      c.Cin = D + o;
      c.Cout = D + o;
      c.ldc = ld;
      if (kPaths) {
        c.Bp = Pkk;
        c.ldbp = ld;
        c.Pin = P + o;
        c.Pout = P + o;
        c.ldp = ld;
      }
      c.K = kTile;
      c.skip_row_lo = kb;
      c.skip_row_hi = kb + 1;
      c.row_off = 0;
      c.col_off = o;
      c.flags = flags;
      launch_tile_product<Ops, kPaths>(c, nb, 1, s);
      // Phase 3: every other tile, C = min(C, col panel (x) row panel).
      TileParams<T> x;
      x.A = D + o;
      x.lda = ld;
      x.B = D + o * ld;
      x.ldb = ld;
      x.Cin = D;
      x.Cout = D;
      x.ldc = ld;
      if (kPaths) {
        x.Bp = P + o * ld;
        x.ldbp = ld;
        x.Pin = P;
        x.Pout = P;
        x.ldp = ld;
      }
      x.K = kTile;
      x.skip_row_lo = kb;
      x.skip_row_hi = kb + 1;
      x.skip_col_lo = kb;
      x.skip_col_hi = kb + 1;
      x.flags = flags;
      launch_tile_product<Ops, kPaths>(x, nb, nb, s);
    }
    if (report != nullptr) report->report(frac0 + span * (double)(kb + 1) / nb);
  }
}

}  // namespace gsp::detail::gpu::dense
