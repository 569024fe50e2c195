// Shared pieces of the GPU SSSP family (delta-stepping, Bellman-Ford,
// min-plus SpMV, GPU Dijkstra): the packed (distance, parent) word, checked
// relaxation, one-allocation workspaces, cooperative launches, the int32
// overflow check and the final unpack/copy to the job's host arrays.
//
// The packed word: the high 32 bits hold an order-preserving key of the
// distance (float or int32, negative values included), the low 32 bits the
// parent. atomicMin on it keeps distance and parent consistent without locks;
// kUnreached (all ones) is "no distance yet". A double's key has 64 bits: its
// word is 128 bits (key high, parent low) and is lowered by a 16-byte CAS
// loop with the same order (runtime/weight_traits.cuh); WordOf<W> names it.
// The frontier engine's double labels keep the 64-bit key alone instead (a
// key-only word, kKeyOnly: one 64-bit atomicMin, frontier_state.cuh) and
// find the predecessors after the search from the distances
// (tight_pred_kernel()). A relaxation only goes ahead
// when its distance is strictly smaller than the current one, so parents are
// never rewritten on equal distances by a later, non-improving arc (this is
// what keeps zero-weight cycles out of the predecessor tree).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/engines.cuh"
#include "runtime/row_pred_repair.cuh"
#include "runtime/stage_clock.cuh"
#include "runtime/weight_traits.cuh"
#include "runtime/workspace.cuh"

namespace gsp::detail::gpu::family {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned long long kUnreached = ~0ull;

template <class W>
struct Key;

// Floating point: the sign-flipped bit pattern (negative values inverted)
// orders like the value; K is the unsigned integer of W's size.
template <class W>
struct FloatKey {
  using K = typename WeightTraits<W>::Bits;
  static constexpr K kSign = K(1) << (sizeof(K) * 8 - 1);
  __device__ static K of(W d) {
    K b = WeightTraits<W>::to_bits(d);
    return (b & kSign) ? ~b : (b | kSign);
  }
  __device__ static W value(K k) {
    K b = (k & kSign) ? (k & ~kSign) : ~k;
    return WeightTraits<W>::from_bits(b);
  }
  // d + w, false when the sum is not a finite distance.
  __device__ static bool add(W d, W w, W* out) {
    W s = d + w;
    *out = s;
    return isfinite(s);
  }
};
template <>
struct Key<float> : FloatKey<float> {};
template <>
struct Key<double> : FloatKey<double> {};

template <>
struct Key<int32_t> {
  using K = uint32_t;
  __device__ static uint32_t of(int32_t d) { return static_cast<uint32_t>(d) ^ 0x80000000u; }
  __device__ static int32_t value(uint32_t k) { return static_cast<int32_t>(k ^ 0x80000000u); }
  // Exact: false when the sum leaves (INT32_MIN, INT32_MAX), as checked_add().
  __device__ static bool add(int32_t d, int32_t w, int32_t* out) {
    long long s = static_cast<long long>(d) + static_cast<long long>(w);
    if (s >= 2147483647LL || s <= -2147483648LL) return false;
    *out = static_cast<int32_t>(s);
    return true;
  }
};

// The word of W's labels: unsigned long long, or ulonglong2 for double.
template <class W>
using WordOf = PackedWord<typename Key<W>::K>;

__device__ __forceinline__ unsigned long long pack(uint32_t key, int32_t parent) { return pack_word(key, parent); }
__device__ __forceinline__ ulonglong2 pack(unsigned long long key, int32_t parent) { return pack_word(key, parent); }
__device__ __forceinline__ uint32_t key_of(unsigned long long p) { return word_key(p); }
__device__ __forceinline__ unsigned long long key_of(ulonglong2 p) { return word_key(p); }

// A word of W's distances that is the key alone, without a parent: the
// frontier engine's double labels (frontier_state.cuh, LabelWord).
template <class W, class Word>
inline constexpr bool kKeyOnly = std::is_same_v<Word, typename Key<W>::K>;
// The key in a word of W's distances: a packed word's key, or a key-only
// word itself.
template <class W, class Word>
__device__ __forceinline__ auto key_in(Word w) {
  if constexpr (kKeyOnly<W, Word>) {
    return w;
  } else {
    return key_of(w);
  }
}
// The word of type Word for (key, parent): packed, or the key alone.
template <class W, class Word>
__device__ __forceinline__ Word make_word(typename Key<W>::K key, int32_t parent) {
  if constexpr (kKeyOnly<W, Word>) {
    return key;
  } else {
    return pack(key, parent);
  }
}
// Order of two words (key, then parent), as the atomicMin keeps it.
__device__ __forceinline__ bool word_less(unsigned long long a, unsigned long long b) { return a < b; }
__device__ __forceinline__ bool word_less(ulonglong2 a, ulonglong2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
template <class Word>
__device__ __forceinline__ Word word_shfl_down(Word w, int delta, int width) {
  if constexpr (sizeof(Word) == 8) {
    return __shfl_down_sync(0xffffffffu, w, delta, width);
  } else {
    w.x = __shfl_down_sync(0xffffffffu, w.x, delta, width);
    w.y = __shfl_down_sync(0xffffffffu, w.y, delta, width);
    return w;
  }
}

// Relax the arc (u -> v) with candidate distance cand. Returns true when this
// call lowered v's distance (the caller then schedules v).
// packed: the words (an array, or a field of label records; packed or
// key-only words).
template <class W, class P>
__device__ __forceinline__ bool relax_packed(P packed, int32_t u, int32_t v, W cand) {
  const auto k = Key<W>::of(cand);
  const auto cur = load_word(packed + v);
  using Word = std::remove_cv_t<decltype(cur)>;
  if (!is_unreached(cur) && k >= key_in<W>(cur)) return false;
  const auto nv = make_word<W, Word>(k, u);
  const auto old = word_min(packed + v, nv);
  return is_unreached(old) || key_in<W>(old) > k;
}

template <class W, class Word>
__device__ __forceinline__ W dist_of(Word p) {
  return Key<W>::value(key_in<W>(p));
}

// Append one item per calling thread to list[*counter...], one atomic per
// group of converged threads. Returns the slot (may be >= capacity).
template <class C>
__device__ __forceinline__ C group_append(C* counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  C base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(counter, static_cast<C>(g.size()));
  base = g.shfl(base, 0);
  return base + static_cast<C>(g.thread_rank());
}

// ------------------------------------------------------------- kernels

template <class W>
__global__ void init_packed_kernel(int32_t n, WordOf<W>* packed, int32_t source) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    packed[v] = (v == source) ? pack(Key<W>::of(W(0)), -1) : unreached_word<WordOf<W>>();
  }
}

// Distances and parents out of the words (key-only words: parents -1, for
// tight_pred_kernel() to fill).
template <class W, class P>
__global__ void unpack_kernel(int32_t n, P packed, W* dist, int32_t* pred) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const auto p = packed[v];
    if (is_unreached(p)) {
      dist[v] = WeightTraits<W>::inf();
      if (pred != nullptr) pred[v] = -1;
    } else {
      dist[v] = dist_of<W>(p);
      if constexpr (kKeyOnly<W, std::remove_cv_t<decltype(p)>>) {
        if (pred != nullptr) pred[v] = -1;
      } else {
        if (pred != nullptr) pred[v] = word_parent(p);
      }
    }
  }
}

// Predecessors from the final distances, for key-only words: every arc
// u -> x out of a reached label whose sum, computed as the search computes
// it (Key<W>::add), equals x's distance offers u as x's predecessor, except
// self-loops and arcs into the source; atomicMax keeps the largest offer, so
// the result does not depend on timing. pred holds -1 everywhere before.
// *level is set to 1 when some tight arc's sum equals its tail's distance.
// Labels are `labels / n` copies of the graph (label c n + x: vertex x of
// copy c, whose source is sources[c], or `source` when sources is null),
// dist and pred indexed by label. `lanes` (a power of two <= 32) threads
// share a label's arcs. Each reached label but the source has such an arc:
// its distance is d(u) + w for the arc that last lowered it, with d(u) >=
// u's final distance, and the search ends with every arc's sum from the
// final distances >= the head's, the sums rounding monotonically. With
// weights > 0 a tight arc's sum is above its tail's distance, or equal to
// it where rounding absorbs the weight (d + w == d): the distances strictly
// grow along the predecessors, and they cannot cycle, unless *level is set
// or some arc weighs <= 0 (the callers then check the tree on the host).
template <class W>
__global__ void tight_pred_kernel(int64_t labels, int32_t n, const int64_t* off, const int32_t* tgt, const W* wt,
                                  const W* dist, const int32_t* sources, int32_t source, int lanes, int32_t* pred,
                                  int* level) {
  const int lane = static_cast<int>(threadIdx.x) & (lanes - 1);
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / lanes;
  for (int64_t i = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / lanes; i < labels; i += groups) {
    const W du = dist[i];
    if (!(du < WeightTraits<W>::inf())) continue;
    const int64_t copy = i / n;
    const int64_t base = copy * n;
    const int32_t u = static_cast<int32_t>(i - base);
    const int32_t src = sources != nullptr ? sources[copy] : source;
    const int64_t end = off[u + 1];
    for (int64_t e = off[u] + lane; e < end; e += lanes) {
      const int32_t x = tgt[e];
      W s;
      if (x == u || x == src || !Key<W>::add(du, wt[e], &s)) continue;
      if (s != dist[base + x]) continue;
      atomicMax(pred + base + x, u);
      if (s == du) *level = 1;
    }
  }
}

// int32: every arc out of a reached vertex must give a representable sum
// with the final distance (the CPU engines' checked_add rule). A vertex
// whose distance plus the graph's largest weight and plus its smallest both
// fit has no arc that can fail, and its arcs are not read: on most graphs
// that is every vertex, and the pass is one read of the labels (a thread a
// vertex walking its arcs had R-MAT 2^22's vertex 0, 160k arcs, take 33 ms
// on one thread).
template <class P>
__global__ void overflow_check_kernel(int32_t n, const int64_t* off, const int32_t* tgt, const int32_t* wt, P packed,
                                      int32_t min_w, int32_t max_w, int* flag) {
  for (int64_t u = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    unsigned long long p = packed[u];
    if (p == kUnreached) continue;
    const int32_t du = Key<int32_t>::value(key_of(p));
    int32_t sum;
    if (Key<int32_t>::add(du, max_w, &sum) && Key<int32_t>::add(du, min_w, &sum)) continue;
    for (int64_t a = off[u]; a < off[u + 1]; ++a) {
      int32_t s;
      if (!Key<int32_t>::add(du, wt[a], &s)) {
        if (atomicCAS(flag, 0, 1) == 0) {
          flag[1] = static_cast<int>(u);
          flag[2] = tgt[a];
        }
        return;
      }
    }
  }
}

// ------------------------------------------------------------- host helpers

// A graph's smallest or largest weight (Graph::min_weight(), max_weight():
// doubles) for overflow_check_kernel(), clamped to int32: a bound that is not
// a weight (no arcs, NaN) only makes the check read more arcs.
inline int32_t int32_weight_bound(double w) {
  if (!(w > -2147483648.0)) return w == w ? INT32_MIN : INT32_MAX;
  return w >= 2147483647.0 ? INT32_MAX : static_cast<int32_t>(w);
}

inline void fill_stats(RunContext& ctx, const SsspJob& job) {
  RunStats* s = job.stats;
  if (s == nullptr) return;
  s->backend = GSP_BACKEND_CUDA;
  s->algorithm = job.algorithm;
  s->device = ctx.device();
  s->device_name = ctx.props().name;
}

// Launch geometry for grid-stride kernels.
inline unsigned grid_for(RunContext& ctx, int64_t work, int threads) {
  unsigned b = blocks_for(work, threads);
  unsigned cap = static_cast<unsigned>(ctx.props().multiProcessorCount) * 8u;
  return b < cap ? b : cap;
}

// tight_pred_kernel() over `labels` labels (copies of g), on the context's
// stream: about as many threads a label as the graph's mean out-degree.
template <class W>
void tight_preds(RunContext& ctx, const DeviceCsr<W>& g, int64_t labels, const W* dist, const int32_t* sources,
                 int32_t source, int32_t* pred, int* level) {
  if (labels <= 0 || g.n <= 0) return;
  const double mean_degree = static_cast<double>(g.m) / g.n;
  int lanes = 1;
  while (lanes < 32 && lanes < mean_degree) lanes *= 2;
  tight_pred_kernel<W><<<grid_for(ctx, labels * lanes, 256), 256, 0, ctx.stream()>>>(
      labels, g.n, g.offsets, g.targets, g.weights, dist, sources, source, lanes, pred, level);
  GSP_CUDA_LAUNCH();
}

// int32 overflow check, then unpack into device scratch (n values each,
// may alias dead workspace; key-only words: predecessors from the tight
// arcs) and copy to the job's host arrays; ends the run's stage clock (the
// checks and unpacking are compute, the copies copy, a predecessor repair
// paths). A search that stopped early at job.stop_at (stopped: its other
// labels cut) skips the overflow check, as the CPU's early-exit search
// does: its stop vertex is final and fits (a sum that does not fit is
// never applied), and what lies beyond it is not the query's.
template <class W, class P>
void finish(RunContext& ctx, const SsspJob& job, const DeviceCsr<W>& g, P packed, void* dist_scratch,
            void* pred_scratch, int* flag3, StageClock& clock, bool stopped = false) {
  using Word = std::remove_cv_t<std::remove_reference_t<decltype(packed[0])>>;
  const int32_t n = g.n;
  constexpr bool kTight = kKeyOnly<W, Word>;  // predecessors from tight arcs
  if constexpr (std::is_same_v<W, int32_t> || kTight) {
    GSP_CUDA(cudaMemsetAsync(flag3, 0, 3 * sizeof(int), ctx.stream()));
  }
  if constexpr (std::is_same_v<W, int32_t>) {
    if (!stopped) {
      overflow_check_kernel<<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(
          n, g.offsets, g.targets, g.weights, packed, int32_weight_bound(job.graph->min_weight()),
          int32_weight_bound(job.graph->max_weight()), flag3);
      GSP_CUDA_LAUNCH();
    }
  }
  W* dist = static_cast<W*>(dist_scratch);
  int32_t* pred = (job.pred != nullptr && job.options->want_paths) ? static_cast<int32_t*>(pred_scratch) : nullptr;
  unpack_kernel<W, P><<<grid_for(ctx, n, 256), 256, 0, ctx.stream()>>>(n, packed, dist, pred);
  GSP_CUDA_LAUNCH();
  if constexpr (kTight) {  // flag3[0]: a level tight arc
    if (pred != nullptr) tight_preds<W>(ctx, g, n, dist, nullptr, job.source, pred, flag3);
  }
  clock.mark(Stage::kCompute);
  int host_flag[3] = {0, 0, 0};
  if constexpr (std::is_same_v<W, int32_t> || kTight) {
    GSP_CUDA(cudaMemcpyAsync(host_flag, flag3, sizeof host_flag, cudaMemcpyDeviceToHost, ctx.stream()));
  }
  // cudaMemcpyDefault: into the host result, or device to device for
  // gsp_sssp_run_device (job.results_on_device).
  GSP_CUDA(cudaMemcpyAsync(job.dist, dist, static_cast<size_t>(n) * sizeof(W), cudaMemcpyDefault, ctx.stream()));
  if (pred != nullptr) {
    GSP_CUDA(
        cudaMemcpyAsync(job.pred, pred, static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDefault, ctx.stream()));
  } else if (job.pred != nullptr && job.results_on_device) {
    GSP_CUDA(cudaMemsetAsync(job.pred, 0xff, static_cast<size_t>(n) * sizeof(int32_t), ctx.stream()));  // -1
  } else if (job.pred != nullptr) {
    for (int32_t v = 0; v < n; ++v) job.pred[v] = -1;
  }
  clock.mark(Stage::kCopy);
  ctx.sync();
  if constexpr (std::is_same_v<W, int32_t>) {
    if (host_flag[0] != 0) throw_overflow(host_flag[1], host_flag[2]);
  }
  // relax_packed() checks for a strict improvement before its atomicMin, but
  // another thread can store the same distance in between; the atomicMin
  // then keeps the smaller parent at equal distance. With zero-weight arcs
  // that can close a cycle of tight zero arcs in the predecessors (with
  // positive weights it cannot). Predecessors from tight arcs (key-only
  // words) can also close one through arcs that rounding absorbs
  // (tight_pred_kernel() raises the flag). On such graphs the tree is
  // checked in O(n) and, when needed, rebuilt (src/core/pred_repair.h).
  if (pred != nullptr && (job.graph->min_weight() <= 0 || (kTight && host_flag[0] != 0))) {
    repair_row_preds<W>(ctx, job);
    clock.mark(Stage::kPaths);
  }
  clock.finish();
}

}  // namespace

// The frontier engine (sssp_delta_stepping.cu): delta-stepping with a
// light/heavy split, or, with bellman_ford, one bucket, every arc light and
// a round limit of n (negative-cycle detection).
void frontier_sssp(RunContext& ctx, const SsspJob& job, bool bellman_ford);

}  // namespace gsp::detail::gpu::family
