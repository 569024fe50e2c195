// The min-plus tile product shared by the dense APSP engines
// (apsp_floyd_warshall.cu, apsp_minplus.cu):
//
//   Cout = min(Cin, A (x) B),   (A (x) B)[i][j] = min_k A[i][k] + B[k][j]
//
// on 128 x 128 output tiles, register-blocked (each of 256 threads owns 8x8
// outputs), with A and B staged through shared memory in K-chunks of 32 and
// the next chunk prefetched into registers while the current one is used.
// Optionally it records, per output, the k that won (strict improvement
// only) and then takes the predecessor from B's predecessor matrix:
// pred[i][j] = predB[k][j].
//
// Value representation on the device (see doc/gpu-apsp-dense.md):
// - float: +inf is +inf; fminf(c, a + b).
// - int32 "fast" (OpsI32Fast): infinity is kInfI32 = 2^30 - 1, so that
//   a + b of two stored values never wraps (stored values are clamped to
//   [-kInfI32, kInfI32]); one DPX VIADDMNMX (__viaddmin_s32) per relaxation.
//   Used only when 4 * n * max|w| < kInfI32, so genuine distances stay far
//   below kInfI32 / 2 and any value >= kInfI32 / 2 means "unreachable".
// - int32 "checked" (OpsI32Checked): infinity is INT32_MAX, sums in int64
//   with explicit infinity tests; a reachable distance that does not fit
//   sets the overflow flag (GSP_ERR_OVERFLOW). Slow; only for huge weights.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/device.cuh"
#include "runtime/host_buffer.cuh"

namespace gsp::detail::gpu::dense {

constexpr int kTile = 128;  // output tile edge, and the FW k-block
constexpr int kChunk = 32;  // K staged per shared-memory step
constexpr int32_t kInfI32 = 0x3FFFFFFF;

// Device flags word bits.
enum : int { kFlagChanged = 1, kFlagOverflow = 2, kFlagNegCycle = 4 };

// Floating point (float: OpsF32, double: OpsF64): plain sums, an overflowed
// sum is +inf.
template <class F>
struct OpsFloat {
  using T = F;
  static constexpr bool kChecked = false;
  static constexpr int kPackBits = 0;
  __host__ __device__ static T inf() { return Dist<F>::inf(); }
  // double: a compare and two selects (DSETP + 2 FSEL); sm_90 has no FP64
  // min instruction: fmin / min.f64 becomes DSETP.MIN.AND + FSEL + SEL and a
  // predicated LOP3 for NaN, one more, and no NaN ever arises here.
  __device__ static void relax(T& c, T a, T b, int&) {
    if constexpr (sizeof(F) == 8) {
      const T s = a + b;
      c = s < c ? s : c;
    } else {
      c = fmin(c, a + b);
    }
  }
  // Strict-improvement relax, recording k.
  __device__ static void relax_idx(T& c, int& idx, T a, T b, int k, int&) {
    T s = a + b;
    if (s < c) {
      c = s;
      idx = k;
    }
  }
  __device__ static T clamp(T v) { return v; }
  __host__ __device__ static bool is_inf(T v) { return v == inf(); }
};
using OpsF32 = OpsFloat<float>;
using OpsF64 = OpsFloat<double>;

struct OpsI32Fast {
  using T = int32_t;
  static constexpr bool kChecked = false;
  static constexpr int kPackBits = 0;
  __host__ __device__ static T inf() { return kInfI32; }
  __device__ static void relax(T& c, T a, T b, int&) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    c = __viaddmin_s32(a, b, c);
#else
    c = min(c, a + b);
#endif
  }
  __device__ static void relax_idx(T& c, int& idx, T a, T b, int k, int&) {
    T s = a + b;
    if (s < c) {
      c = s;
      idx = k;
    }
  }
  // Normalises a result before it is stored: a sum with an infinite operand
  // (kInfI32 + w, still >= kInfI32 / 2) becomes exactly kInfI32 again, so
  // stored values are genuine distances or exactly infinite; and nothing
  // goes below -kInfI32 (only negative cycles get there), so a + b of two
  // stored values never wraps.
  __device__ static T clamp(T v) { return v >= kInfI32 / 2 ? kInfI32 : max(v, -kInfI32); }
  __host__ __device__ static bool is_inf(T v) { return v >= kInfI32 / 2; }
};

struct OpsI32Checked {
  using T = int32_t;
  static constexpr bool kChecked = true;
  static constexpr int kPackBits = 0;
  __host__ __device__ static T inf() { return INT32_MAX; }
  __device__ static void relax(T& c, T a, T b, int& ovf) {
    if (a == INT32_MAX || b == INT32_MAX) return;
    long long s = (long long)a + (long long)b;
    if (s < (long long)c) {
      if (s <= (long long)INT32_MIN)
        ovf = 1;
      else
        c = (T)s;
    } else if (c == INT32_MAX) {
      ovf = 1;  // reachable, but the sum does not fit
    }
  }
  __device__ static void relax_idx(T& c, int& idx, T a, T b, int k, int& ovf) {
    if (a == INT32_MAX || b == INT32_MAX) return;
    long long s = (long long)a + (long long)b;
    if (s < (long long)c) {
      if (s <= (long long)INT32_MIN) {
        ovf = 1;
      } else {
        c = (T)s;
        idx = k;
      }
    } else if (c == INT32_MAX) {
      ovf = 1;
    }
  }
  __device__ static T clamp(T v) { return v; }
  __host__ __device__ static bool is_inf(T v) { return v == INT32_MAX; }
};

// int32 "packed paths" (OpsI32Pack): the fast representation, and with
// paths the product packs the k that won into the low kPackBits bits of each
// value, so that a single DPX add-min per relaxation also tracks the winner:
// A values are stored as d << 7, B values of row k as (d << 7) | (k_w + 1)
// (k_w: k's position in a window of kPackWindow k's), C as d << 7. The
// minimum of packed values is the minimum distance, ties going to C's old
// value (tag 0), then to the smallest k: exactly the strict-improvement rule
// of the unpacked kernel. After each window the tags are moved to an index
// register and cleared. Distances are clamped to [-kInfPack, kInfPack]
// (2^23 - 1) while packed; chosen only when 4 (n+1) max|w| < kInfPack, so
// genuine distances stay far below kInfPack / 2.
struct OpsI32Pack : OpsI32Fast {
  static constexpr int kPackBits = 7;
};
constexpr int kPackWindow = 64;  // k's per tag window (tags 1..64 < 2^7)
constexpr int32_t kInfPack = (1 << (30 - 7)) - 1;
static_assert(kPackWindow < (1 << 7), "tags must fit the packed bits");

// 16-byte global -> shared copies: cp.async on sm_80+, plain copies on
// older targets (correct, slower; the library is meant for sm_90).
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned sa = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(gmem));
#else
  *reinterpret_cast<int4*>(smem) = *reinterpret_cast<const int4*>(gmem);
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

// One 16-byte vector (kVec<T> consecutive values, 16-byte aligned) to or
// from registers.
template <class T>
constexpr int kVec = 16 / (int)sizeof(T);
template <class T>
__device__ __forceinline__ void load_vec(const T* p, T* v) {
  if constexpr (sizeof(T) == 8) {
    const double2 a = *reinterpret_cast<const double2*>(p);
    v[0] = a.x, v[1] = a.y;
  } else {
    using V4 = typename std::conditional<std::is_same<T, float>::value, float4, int4>::type;
    const V4 a = *reinterpret_cast<const V4*>(p);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
  }
}
template <class T>
__device__ __forceinline__ void store_vec(T* p, const T* v) {
  if constexpr (sizeof(T) == 8) {
    *reinterpret_cast<double2*>(p) = make_double2(v[0], v[1]);
  } else {
    using V4 = typename std::conditional<std::is_same<T, float>::value, float4, int4>::type;
    V4 a;
    a.x = v[0];
    a.y = v[1];
    a.z = v[2];
    a.w = v[3];
    *reinterpret_cast<V4*>(p) = a;
  }
}
// Register blocking of the tile kernel per value type. Each thread owns
// kRows x kCols outputs of the 128 x 128 tile: kRows / 4 groups of 4
// consecutive rows, kTile / (kRows / 4) apart, and kCols / kVec 16-byte
// column vectors, kTile / (kCols / kVec) apart (a warp's B reads and C
// accesses are then contiguous 16-byte vectors; A reads are broadcasts).
// kApad pads A's shared rows so that the rows a warp reads fall in
// different banks.
// - 4-byte values: 256 threads of 8 x 8 (128 accumulator registers).
// - double: 512 threads of 4 x 8 (4 rows, 4 vectors of 2 columns 32
//   apart), under the 128-register cap of 512 threads: 64 registers of
//   accumulators (+32 indices with paths) instead of 128 (+64), which at
//   8 x 8 spilled. Per k a thread loads 4 A and 8 B doubles (4 LDS.64, 4
//   LDS.128) for 32 relaxations; A rows are padded by 2 doubles (rows 4
//   apart, read by one warp, 16 banks apart).
template <class T>
struct TileCfg {
  static constexpr bool kWide = sizeof(T) == 8;
  // double: 512 threads of 4 x 8 under 128 registers. Measured (H200, FW
  // n = 16384, no paths, relaxations/s against float's): K unrolled 4 0.41x,
  // unrolled 2 0.40x, 256 threads of 8 x 8 0.37x; one 4096^3 product: K
  // unrolled 8 0.420x (kept), 4 0.411x, 2 0.400x, 512 threads of 8 x 4
  // 0.404x (doc/gpu-apsp-dense.md has the profile and what else was tried).
  static constexpr int kRows = kWide ? 4 : 8, kCols = 8, kApad = kWide ? 2 : 4, kUnroll = kWide ? 8 : 4;
  static constexpr int kThreads = (kTile / kRows) * (kTile / kCols);
  // Cin late (double): accumulators start at +inf and Cin is merged in
  // after the K loop, its lines sent to L2 when the tile starts, so the
  // tile's 128 KiB of Cin arrive while it computes instead of before.
  static constexpr bool kLateC = kWide;
};

// Shared memory of the tile kernel: two stages of A (padded) and B chunks.
// Double needs 132 KiB (float 68 KiB): within sm_90's 227 KB a block, and
// the kernel runs one block per SM anyway.
template <class T>
constexpr size_t tile_smem_bytes() {
  return 2 * ((size_t)kTile * (kChunk + TileCfg<T>::kApad) + (size_t)kChunk * kTile) * sizeof(T);
}

// One product launch. All extents are multiples of kTile; K a multiple of kChunk.
template <class T>
struct TileParams {
  const T* A = nullptr;
  int64_t lda = 0;  // m x K
  const T* B = nullptr;
  int64_t ldb = 0;  // K x n
  const T* Cin = nullptr;
  T* Cout = nullptr;
  int64_t ldc = 0;  // m x n (may alias)
  const int32_t* Bp = nullptr;
  int64_t ldbp = 0;  // K x n predecessors of B (paths)
  const int32_t* Pin = nullptr;
  int32_t* Pout = nullptr;
  int64_t ldp = 0;  // m x n (paths)
  int K = 0;
  // Tiles left alone: tile rows (blockIdx.y) in [skip_row_lo, skip_row_hi)
  // and tile columns (blockIdx.x) in [skip_col_lo, skip_col_hi).
  int skip_row_lo = 0, skip_row_hi = 0;
  int skip_col_lo = 0, skip_col_hi = 0;
  int64_t row_off = 0, col_off = 0;  // global index of C's row 0 / column 0 (diagonal check)
  int* flags = nullptr;              // kFlag* bits; kernels return at once once kFlagNegCycle is set
  bool track_changes = false;
};

// The tile kernel's constants for one instantiation, and a thread's place
// in its tile: t its index, tx its column group, ty its row group, m0 / n0
// the tile's first row / column in C.
template <class Ops, bool kPaths>
struct TileThread {
  using T = typename Ops::T;
  using Cfg = TileCfg<T>;
  static constexpr int kThreads = Cfg::kThreads, TM = Cfg::kRows, TN = Cfg::kCols, kAp = Cfg::kApad;
  static constexpr int kVec = dense::kVec<T>;             // values per 16-byte vector
  static constexpr int kTx = kTile / TN;                  // threads along a row of the tile
  static constexpr int kRowStride = kTile / (TM / 4);     // between a thread's row groups
  static constexpr int kColStride = kTile / (TN / kVec);  // between a thread's column vectors
  // Packed paths: DPX add-min on (distance, k tag) words.
  static constexpr bool kPack = kPaths && Ops::kPackBits > 0;
  static constexpr int kPB = Ops::kPackBits > 0 ? Ops::kPackBits : 1;
  static constexpr int32_t kTagMask = (1 << kPB) - 1;
  static_assert(!kPack || sizeof(T) == 4, "packed paths: int32 values");
  static_assert(TM == 4 || TM == 8, "one or two groups of 4 rows");
  // A thread's row holds kNv column vectors, at tx * kVec + g * kColStride
  // (written out below: loops over g compile the float kernels differently).
  static constexpr int kNv = TN / kVec;
  static_assert(kNv == 2 || kNv == 4, "two or four column vectors");
  // A chunk 128x32 (8 vectors per row), B chunk 32x128 (32 per row):
  // 1024 16-byte vectors each, 4 per thread (double: 2048, 4 per thread of 512).
  static constexpr int kAv = kChunk / kVec, kBv = kTile / kVec;

  // One shared-memory stage of A (row-major, padded) and of B.
  using AStage = T[kTile][kChunk + kAp];
  using BStage = T[kChunk][kTile];
  // The thread's accumulators, and with paths the k that won each.
  using Acc = T[TM][TN];
  using Idx = int[kPaths ? TM : 1][kPaths ? TN : 1];

  const int t = threadIdx.x;
  const int tx = t % kTx, ty = t / kTx;
  const int64_t m0 = (int64_t)blockIdx.y * kTile, n0 = (int64_t)blockIdx.x * kTile;

  // The tile row of the thread's r-th output row, the tile column of its c-th column.
  __device__ __forceinline__ int row_of(int r) const { return r < 4 ? ty * 4 + r : kRowStride + ty * 4 + (r - 4); }
  __device__ __forceinline__ int col_of(int c) const {
    if constexpr (TN / kVec == 2) {
      return c < kVec ? tx * kVec + c : kColStride + tx * kVec + (c - kVec);
    } else {
      return (c / kVec) * kColStride + tx * kVec + c % kVec;
    }
  }
};

// Starts the copies of K-chunk k0 of A and B into shared stage st
// (cp.async, no staging registers), as one commit group.
template <class Ops, bool kPaths>
__device__ __forceinline__ void issue_chunk(const TileParams<typename Ops::T>& p, const TileThread<Ops, kPaths>& th,
                                            typename TileThread<Ops, kPaths>::AStage* As,
                                            typename TileThread<Ops, kPaths>::BStage* Bs, int k0, int st) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
  constexpr int kThreads = Th::kThreads, kVec = Th::kVec, kAv = Th::kAv, kBv = Th::kBv;
  const int t = th.t;
  if constexpr (Th::Cfg::kWide) {
    // One A and one B pointer per thread, stepped by whole rows (kThreads
    // is a multiple of kAv and kBv): fewer registers live across the loop.
    const T* ga = p.A + (th.m0 + t / kAv) * p.lda + k0 + (t % kAv) * kVec;
    const T* gb = p.B + (int64_t)(k0 + t / kBv) * p.ldb + th.n0 + (t % kBv) * kVec;
#pragma unroll
    for (int q = 0; q < kTile * kChunk / kVec / kThreads; ++q) {
      cp_async16(&As[st][t / kAv + q * (kThreads / kAv)][(t % kAv) * kVec], ga);
      cp_async16(&Bs[st][t / kBv + q * (kThreads / kBv)][(t % kBv) * kVec], gb);
      ga += (kThreads / kAv) * p.lda;
      gb += (kThreads / kBv) * p.ldb;
    }
  } else {
#pragma unroll
    for (int q = 0; q < kTile * kChunk / kVec / kThreads; ++q) {
      const int v = t + q * kThreads;
      const int arow = v / kAv, acv = v % kAv;
      cp_async16(&As[st][arow][acv * kVec], p.A + (th.m0 + arow) * p.lda + k0 + acv * kVec);
      const int brow = v / kBv, bcv = v % kBv;
      cp_async16(&Bs[st][brow][bcv * kVec], p.B + (int64_t)(k0 + brow) * p.ldb + th.n0 + bcv * kVec);
    }
  }
  cp_async_commit();
}

// Accumulators start from Cin (packed: clamped and shifted to leave the tag
// bits clear), indices at -1.
template <class Ops, bool kPaths>
__device__ __forceinline__ void load_accumulators(const TileParams<typename Ops::T>& p,
                                                  const TileThread<Ops, kPaths>& th,
                                                  typename TileThread<Ops, kPaths>::Acc& acc,
                                                  typename TileThread<Ops, kPaths>::Idx& idx) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
  constexpr int TM = Th::TM, TN = Th::TN, kVec = Th::kVec, kColStride = Th::kColStride;
  const int tx = th.tx;
#pragma unroll
  for (int r = 0; r < TM; ++r) {
    const int64_t row = th.m0 + th.row_of(r);
    const T* src = p.Cin + row * p.ldc + th.n0;
    load_vec(src + tx * kVec, &acc[r][0]);
    load_vec(src + kColStride + tx * kVec, &acc[r][kVec]);
    if constexpr (Th::kNv == 4) {
      load_vec(src + 2 * kColStride + tx * kVec, &acc[r][2 * kVec]);
      load_vec(src + 3 * kColStride + tx * kVec, &acc[r][3 * kVec]);
    }
    if constexpr (Th::kPack) {
#pragma unroll
      for (int c = 0; c < TN; ++c) acc[r][c] = (T)(min(max((int32_t)acc[r][c], -kInfPack), kInfPack) * (1 << Th::kPB));
    }
  }
  if constexpr (kPaths) {
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
      for (int c = 0; c < TN; ++c) idx[r][c] = -1;
  }
}

// Cin late (TileCfg::kLateC): the thread's Cin vectors toward L2 now,
// accumulators at +inf (indices at -1) instead of Cin.
template <class Ops, bool kPaths>
__device__ __forceinline__ void start_accumulators_late(const TileParams<typename Ops::T>& p,
                                                        const TileThread<Ops, kPaths>& th,
                                                        typename TileThread<Ops, kPaths>::Acc& acc,
                                                        typename TileThread<Ops, kPaths>::Idx& idx) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r) {
    const T* src = p.Cin + (th.m0 + th.row_of(r)) * p.ldc + th.n0 + th.tx * Th::kVec;
#pragma unroll
    for (int g = 0; g < Th::kNv; ++g) {
#if defined(__CUDA_ARCH__)
      asm volatile("prefetch.global.L2 [%0];\n" ::"l"(src + g * Th::kColStride));
#endif
    }
#pragma unroll
    for (int c = 0; c < Th::TN; ++c) acc[r][c] = Ops::inf();
  }
  if constexpr (kPaths) {
#pragma unroll
    for (int r = 0; r < Th::TM; ++r)
#pragma unroll
      for (int c = 0; c < Th::TN; ++c) idx[r][c] = -1;
  }
}

// Cin late, after the K loop: each output is Cin unless the product beat
// it strictly (then its k stays recorded): the same values and the same
// winners as accumulators that start from Cin.
template <class Ops, bool kPaths>
__device__ __forceinline__ void merge_cin_late(const TileParams<typename Ops::T>& p, const TileThread<Ops, kPaths>& th,
                                               typename TileThread<Ops, kPaths>::Acc& acc,
                                               typename TileThread<Ops, kPaths>::Idx& idx) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
  constexpr int kVec = Th::kVec;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r) {
    const T* src = p.Cin + (th.m0 + th.row_of(r)) * p.ldc + th.n0 + th.tx * kVec;
#pragma unroll
    for (int g = 0; g < Th::kNv; ++g) {
      T cv[kVec];
      load_vec(src + g * Th::kColStride, cv);
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        const int c = g * kVec + e;
        if (!(acc[r][c] < cv[e])) {
          acc[r][c] = cv[e];
          if constexpr (kPaths) idx[r][c] = -1;
        }
      }
    }
  }
}

// Packed paths: this thread's own copies of chunk k0 in stage st are
// complete (and visible to it): packs them in place before the barrier, A
// values as d << kPB, B values of row k with k's tag in the window.
template <class Ops, bool kPaths>
__device__ __forceinline__ void pack_chunk(const TileThread<Ops, kPaths>& th,
                                           typename TileThread<Ops, kPaths>::AStage* As,
                                           typename TileThread<Ops, kPaths>::BStage* Bs, int k0, int st) {
  using Th = TileThread<Ops, kPaths>;
  constexpr int kPB = Th::kPB;
  const int tag0 = (k0 % kPackWindow) + 1;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int v = th.t + q * Th::kThreads;
    int4* pa = reinterpret_cast<int4*>(&As[st][v / 8][(v % 8) * 4]);
    int4 x = *pa;
    x.x = min(max(x.x, -kInfPack), kInfPack) * (1 << kPB);
    x.y = min(max(x.y, -kInfPack), kInfPack) * (1 << kPB);
    x.z = min(max(x.z, -kInfPack), kInfPack) * (1 << kPB);
    x.w = min(max(x.w, -kInfPack), kInfPack) * (1 << kPB);
    *pa = x;
    const int tag = tag0 + v / 32;
    int4* pb = reinterpret_cast<int4*>(&Bs[st][v / 32][(v % 32) * 4]);
    int4 y = *pb;
    y.x = min(max(y.x, -kInfPack), kInfPack) * (1 << kPB) + tag;
    y.y = min(max(y.y, -kInfPack), kInfPack) * (1 << kPB) + tag;
    y.z = min(max(y.z, -kInfPack), kInfPack) * (1 << kPB) + tag;
    y.w = min(max(y.w, -kInfPack), kInfPack) * (1 << kPB) + tag;
    *pb = y;
  }
}

// Packed paths, at the end of a tag window: the tags to indices (tag g is
// k = wb + g), then cleared.
template <class Ops, bool kPaths>
__device__ __forceinline__ void tags_to_indices(typename TileThread<Ops, kPaths>::Acc& acc,
                                                typename TileThread<Ops, kPaths>::Idx& idx, int wb) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r)
#pragma unroll
    for (int c = 0; c < Th::TN; ++c) {
      const int32_t tag = (int32_t)acc[r][c] & Th::kTagMask;
      if (tag != 0) idx[r][c] = wb + tag;
      acc[r][c] = (T)((int32_t)acc[r][c] - tag);
    }
}

// Packed paths, after the last chunk: distances back from d << kPB, the
// infinite ones exactly kInfI32 again.
template <class Ops, bool kPaths>
__device__ __forceinline__ void unpack_accumulators(typename TileThread<Ops, kPaths>::Acc& acc) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r)
#pragma unroll
    for (int c = 0; c < Th::TN; ++c) {
      const int32_t v = (int32_t)acc[r][c] >> Th::kPB;
      acc[r][c] = (T)(v >= kInfPack / 2 ? kInfI32 : v);
    }
}

// With paths: each output's predecessor, pr = predB[k][j] for the k that
// won, else the old one (nothing to gather where Pout is Pin). Returns 1
// where any k won.
template <class Ops, bool kPaths>
__device__ __forceinline__ int gather_predecessors(const TileParams<typename Ops::T>& p,
                                                   const TileThread<Ops, kPaths>& th,
                                                   const typename TileThread<Ops, kPaths>::Idx& idx,
                                                   typename TileThread<Ops, kPaths>::Idx& pr) {
  using Th = TileThread<Ops, kPaths>;
  int changed = 0;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r) {
    const int64_t row = th.m0 + th.row_of(r);
#pragma unroll
    for (int c = 0; c < Th::TN; ++c) {
      const int64_t col = th.n0 + th.col_of(c);
      if (idx[r][c] >= 0) {
        pr[r][c] = p.Bp[(int64_t)idx[r][c] * p.ldbp + col];
        changed = 1;
      } else {
        pr[r][c] = (p.Pin != p.Pout) ? p.Pin[row * p.ldp + col] : 0;
      }
    }
  }
  return changed;
}

// Writes the thread's outputs (and with paths their predecessors: all of
// them to a separate Pout, only the changed ones in place). Returns 1 where
// a diagonal distance went below 0.
template <class Ops, bool kPaths>
__device__ __forceinline__ int store_outputs(const TileParams<typename Ops::T>& p, const TileThread<Ops, kPaths>& th,
                                             const typename TileThread<Ops, kPaths>::Acc& acc,
                                             const typename TileThread<Ops, kPaths>::Idx& idx,
                                             const typename TileThread<Ops, kPaths>::Idx& pr) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
  constexpr int TN = Th::TN, kVec = Th::kVec, kColStride = Th::kColStride;
  const int tx = th.tx;
  int neg = 0;
#pragma unroll
  for (int r = 0; r < Th::TM; ++r) {
    const int64_t row = th.m0 + th.row_of(r);
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      const int64_t col = th.n0 + th.col_of(c);
      if (p.row_off + row == p.col_off + col && acc[r][c] < T(0)) neg = 1;
    }
    T* dst = p.Cout + row * p.ldc + th.n0;
    store_vec(dst + tx * kVec, &acc[r][0]);
    store_vec(dst + kColStride + tx * kVec, &acc[r][kVec]);
    if constexpr (Th::kNv == 4) {
      store_vec(dst + 2 * kColStride + tx * kVec, &acc[r][2 * kVec]);
      store_vec(dst + 3 * kColStride + tx * kVec, &acc[r][3 * kVec]);
    }
    if constexpr (kPaths) {
      int32_t* pdst = p.Pout + row * p.ldp + th.n0;
      if (p.Pin != p.Pout) {
        if constexpr (kVec == 4) {
          *reinterpret_cast<int4*>(pdst + tx * 4) = make_int4(pr[r][0], pr[r][1], pr[r][2], pr[r][3]);
          *reinterpret_cast<int4*>(pdst + kColStride + tx * 4) = make_int4(pr[r][4], pr[r][5], pr[r][6], pr[r][7]);
        } else {
#pragma unroll
          for (int g = 0; g < Th::kNv; ++g) {
            *reinterpret_cast<int2*>(pdst + g * kColStride + tx * 2) = make_int2(pr[r][2 * g], pr[r][2 * g + 1]);
          }
        }
      } else {
#pragma unroll
        for (int c = 0; c < TN; ++c) {
          if (idx[r][c] >= 0) pdst[th.col_of(c)] = pr[r][c];
        }
      }
    }
  }
  return neg;
}

// Epilogue. Results are normalised first (an "improvement" from an
// infinite operand is no improvement). Predecessors are gathered before
// anything is written: B may be the very tile this block writes (FW phase
// 2). Then the outputs, and the block's flags (one atomic per warp).
template <class Ops, bool kPaths>
__device__ __forceinline__ void finish_tile(const TileParams<typename Ops::T>& p, const TileThread<Ops, kPaths>& th,
                                            typename TileThread<Ops, kPaths>::Acc& acc,
                                            typename TileThread<Ops, kPaths>::Idx& idx, int ovf) {
  using Th = TileThread<Ops, kPaths>;
  constexpr int TM = Th::TM, TN = Th::TN;
  int changed = 0;
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; ++c) {
      acc[r][c] = Ops::clamp(acc[r][c]);
      if constexpr (kPaths) {
        if (Ops::is_inf(acc[r][c])) idx[r][c] = -1;
      }
    }
  typename Th::Idx pr;
  if constexpr (kPaths) changed = gather_predecessors(p, th, idx, pr);
  if (p.track_changes && !kPaths) {
#pragma unroll
    for (int r = 0; r < TM; ++r) {
      const int64_t row = th.m0 + th.row_of(r);
#pragma unroll
      for (int c = 0; c < TN; ++c) {
        const int64_t col = th.n0 + th.col_of(c);
        if (acc[r][c] < p.Cin[row * p.ldc + col]) changed = 1;
      }
    }
  }
  __syncthreads();
  const int neg = store_outputs(p, th, acc, idx, pr);
  const int bits = (changed ? kFlagChanged : 0) | (ovf ? kFlagOverflow : 0) | (neg ? kFlagNegCycle : 0);
  if (p.flags != nullptr && __syncthreads_or(bits) != 0) {
    // one atomic per warp that has something to say
    if (bits) atomicOr(p.flags, bits);
  }
}

// One resident block per SM: two (register cap 128) spill and gain nothing
// (doc/gpu-apsp-dense.md). The relaxation loop stays in the kernel: as a
// helper of its own it gave the packed kernel the same instructions in
// another register order (CUDA 13.0), 0.7% slower on an H100.
template <class Ops, bool kPaths>
__global__ void __launch_bounds__(TileCfg<typename Ops::T>::kThreads, 1)
    minplus_tile_kernel(const TileParams<typename Ops::T> p) {
  using Th = TileThread<Ops, kPaths>;
  using T = typename Th::T;
  if (((int)blockIdx.y >= p.skip_row_lo && (int)blockIdx.y < p.skip_row_hi) ||
      ((int)blockIdx.x >= p.skip_col_lo && (int)blockIdx.x < p.skip_col_hi)) {
    return;
  }
  if (p.flags != nullptr && (*(volatile int*)p.flags & kFlagNegCycle)) return;

  // Two shared-memory stages, filled by cp.async (no staging registers):
  // As[stage][row][k] (row-major, padded), Bs[stage][k][col].
  extern __shared__ __align__(16) unsigned char tile_smem[];
  typename Th::AStage* As = reinterpret_cast<typename Th::AStage*>(tile_smem);
  typename Th::BStage* Bs = reinterpret_cast<typename Th::BStage*>(tile_smem + 2 * sizeof(typename Th::AStage));

  const Th th;
  issue_chunk(p, th, As, Bs, 0, 0);
  typename Th::Acc acc;
  typename Th::Idx idx;
  if constexpr (Th::Cfg::kLateC) {
    start_accumulators_late(p, th, acc, idx);
  } else {
    load_accumulators(p, th, acc, idx);
  }
  int ovf = 0;

  int st = 0;
  for (int k0 = 0; k0 < p.K; k0 += kChunk) {
    if (k0 + kChunk < p.K) {
      issue_chunk(p, th, As, Bs, k0 + kChunk, st ^ 1);
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    if constexpr (Th::kPack) pack_chunk(th, As, Bs, k0, st);
    __syncthreads();
    // The relaxations of the chunk: per k, the thread's TM A values and TN B
    // values from shared memory, then TM x TN relaxations.
    constexpr int kVec = Th::kVec, kColStride = Th::kColStride;
#pragma unroll((kPaths && Th::Cfg::kWide) ? 1 : Th::Cfg::kUnroll)
    for (int kk = 0; kk < kChunk; ++kk) {
      T a[Th::TM], b[Th::TN];
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int g = 0; g < Th::TM; g += 4) a[g + r] = As[st][th.row_of(g + r)][kk];
      load_vec(&Bs[st][kk][th.tx * kVec], &b[0]);
      load_vec(&Bs[st][kk][kColStride + th.tx * kVec], &b[kVec]);
      if constexpr (Th::kNv == 4) {
        load_vec(&Bs[st][kk][2 * kColStride + th.tx * kVec], &b[2 * kVec]);
        load_vec(&Bs[st][kk][3 * kColStride + th.tx * kVec], &b[3 * kVec]);
      }
#pragma unroll
      for (int r = 0; r < Th::TM; ++r)
#pragma unroll
        for (int c = 0; c < Th::TN; ++c) {
          if constexpr (Th::kPack) {
            Ops::relax(acc[r][c], a[r], b[c], ovf);
          } else if constexpr (kPaths) {
            Ops::relax_idx(acc[r][c], idx[r][c], a[r], b[c], k0 + kk, ovf);
          } else {
            Ops::relax(acc[r][c], a[r], b[c], ovf);
          }
        }
    }
    if constexpr (Th::kPack) {
      // End of a tag window (or of K). The window's base is worked out here,
      // where k0 is known not to be negative (k0 % kPackWindow is a mask).
      if ((k0 + kChunk) % kPackWindow == 0 || k0 + kChunk >= p.K) {
        tags_to_indices<Ops, kPaths>(acc, idx, k0 - (k0 % kPackWindow) - 1);
      }
    }
    __syncthreads();
    st ^= 1;
  }
  if constexpr (Th::kPack) unpack_accumulators<Ops, kPaths>(acc);
  if constexpr (Th::Cfg::kLateC) merge_cin_late(p, th, acc, idx);
  finish_tile(p, th, acc, idx, ovf);
}

// Launch one product over a grid of tiles_m x tiles_n output tiles.
template <class Ops, bool kPaths>
inline void launch_tile_product(const TileParams<typename Ops::T>& p, int tiles_m, int tiles_n, cudaStream_t stream) {
  if (tiles_m <= 0 || tiles_n <= 0) return;
  if constexpr (!kPaths && Ops::kPackBits > 0) {
    // Packing only matters with paths; distances only: the plain kernel.
    launch_tile_product<OpsI32Fast, false>(p, tiles_m, tiles_n, stream);
  } else {
    dim3 grid((unsigned)tiles_n, (unsigned)tiles_m);
    constexpr size_t smem = tile_smem_bytes<typename Ops::T>();
    GSP_CUDA(
        cudaFuncSetAttribute(minplus_tile_kernel<Ops, kPaths>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    minplus_tile_kernel<Ops, kPaths><<<grid, TileCfg<typename Ops::T>::kThreads, smem, stream>>>(p);
    GSP_CUDA_LAUNCH();
  }
}

// ------------------------------------------------------------------ helpers

// Device matrix build from the CSR: INF everywhere, 0 on the diagonal
// (a negative self-loop's weight instead), the lightest of parallel arcs;
// pred[u][v] = u for an arc u -> v (u != v), -1 elsewhere. One thread per
// row (it owns the row: no races between parallel arcs). Padding rows and
// columns (>= n, < ld) are INF with a 0 diagonal: isolated vertices.
// Rows [row0, row0 + total / ld) of the matrix, stored from D / P on.
template <class Ops>
__global__ void fill_inf_kernel(typename Ops::T* D, int32_t* P, int64_t ld, int64_t total, int64_t row0) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = row0 + e / ld, j = e % ld;
    D[e] = i == j ? typename Ops::T(0) : Ops::inf();
    if (P != nullptr) P[e] = -1;
  }
}

template <class Ops, class W>
__global__ void scatter_arcs_kernel(typename Ops::T* D, int32_t* P, int64_t ld, int32_t row0, int32_t row1,
                                    const int64_t* offsets, const int32_t* targets, const W* weights) {
  const int32_t u = row0 + (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
  if (u >= row1) return;
  typename Ops::T* row = D + (int64_t)(u - row0) * ld;
  for (int64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
    const int32_t v = targets[e];
    const typename Ops::T w = (typename Ops::T)weights[e];
    if (v == u) {
      if (w < row[v]) row[v] = w;  // only a negative self-loop beats the 0
    } else if (w < row[v]) {
      row[v] = w;
      if (P != nullptr) P[(int64_t)(u - row0) * ld + v] = u;
    }
  }
}

inline int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

// Picks the representation for a graph and calls f(Ops{}).
template <class F>
void with_ops(const Graph& g, F&& f) {
  if (g.dtype() == GSP_F32) {
    f(OpsF32{});
    return;
  }
  if (g.dtype() == GSP_F64) {
    f(OpsF64{});
    return;
  }
  const double maxabs = std::fmax(std::fabs(g.min_weight()), std::fabs(g.max_weight()));
  const double bound = 4.0 * (double)(g.n() + 1) * maxabs;
  if (bound < (double)kInfPack) {
    f(OpsI32Pack{});
  } else if (bound < (double)kInfI32) {
    f(OpsI32Fast{});
  } else {
    f(OpsI32Checked{});
  }
}

}  // namespace gsp::detail::gpu::dense

namespace gsp::detail::gpu::dense {

// Builds rows [row0, row0 + rows) of the initial matrix on the device (into
// D / P, leading dimension ld) from the graph's cached device CSR.
template <class Ops, class W>
void build_rows_device(RunContext& ctx, const DeviceCsr<W>& g, typename Ops::T* D, int32_t* P, int64_t ld, int64_t row0,
                       int64_t rows, cudaStream_t s) {
  const int64_t total = rows * ld;
  const unsigned blocks = (unsigned)std::min<int64_t>(blocks_for(total, 256), 65535LL * 8);
  fill_inf_kernel<Ops><<<blocks, 256, 0, s>>>(D, P, ld, total, row0);
  GSP_CUDA_LAUNCH();
  const int64_t row1 = std::min<int64_t>(row0 + rows, g.n);
  if (row1 > row0) {
    scatter_arcs_kernel<Ops, W><<<blocks_for(row1 - row0, 128), 128, 0, s>>>(D, P, ld, (int32_t)row0, (int32_t)row1,
                                                                             g.offsets, g.targets, g.weights);
    GSP_CUDA_LAUNCH();
  }
  (void)ctx;
}

// Builds the whole initial matrix on the device.
template <class Ops, class W>
void build_matrix_device(RunContext& ctx, const Graph& graph, typename Ops::T* D, int32_t* P, int64_t ld) {
  const DeviceCsr<W> g = device_graph<W>(ctx, graph);
  build_rows_device<Ops, W>(ctx, g, D, P, ld, 0, ld, ctx.stream());
}

// Throws for kFlag* bits read back from the device: a negative cycle, an
// int32 overflow.
inline void throw_on_flags(int flags, const char* engine) {
  if (flags & kFlagNegCycle) {
    throw Error(GSP_ERR_NEGATIVE_CYCLE,
                std::string(engine) + ": the graph has a negative cycle (a diagonal distance < 0)");
  }
  if (flags & kFlagOverflow) {
    throw Error(GSP_ERR_OVERFLOW, std::string(engine) +
                                      ": an int32 distance would overflow; use GSP_F64 weights "
                                      "or smaller weights");
  }
}

// Reads the flags word and throws for a negative cycle or an overflow.
inline void check_flags(RunContext& ctx, const int* d_flags, const char* engine) {
  int flags = 0;
  GSP_CUDA(cudaMemcpyAsync(&flags, d_flags, sizeof(int), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.sync();
  throw_on_flags(flags, engine);
}

inline void fill_stats(RunContext& ctx, const ApspJob& job, int64_t iterations, int64_t relaxations) {
  if (job.stats == nullptr) return;
  job.stats->backend = GSP_BACKEND_CUDA;
  job.stats->algorithm = job.algorithm;
  job.stats->device = ctx.device();
  job.stats->device_name = ctx.props().name;
  job.stats->iterations = iterations;
  job.stats->relaxations = relaxations;
}

}  // namespace gsp::detail::gpu::dense
