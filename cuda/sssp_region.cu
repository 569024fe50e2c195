// The region engine of GSP_SSSP_DELTA_STEPPING on CUDA, for low-degree,
// long-path graphs (road networks, meshes, rings), where the frontier engine
// (sssp_delta_stepping.cu) is bound by the latency of one hop per wave
// (doc/gpu-sssp-family.md, "Region engine").
//
// The graph is renumbered once into regions of at most `cap` vertices, each
// grown by breadth-first search and numbered contiguously
// (core/region_partition.h; cached on the graph with its device copy). One
// persistent cooperative kernel runs phases separated by grid barriers. In a
// phase every block takes active regions from a list; for each it
//  - stages the region's arcs in shared memory (heads inside the region as
//    local indices) and loads its (distance, parent) words; vertices marked
//    dirty (their distance dropped since their arcs were last relaxed) and
//    below the bucket threshold T form the first wave;
//  - relaxes waves (two __syncthreads per wave, four threads per queued
//    vertex) in shared memory only: an arc inside the region is a
//    compare-and-swap on the head's word, and an improved head below T joins
//    the next wave; arcs leaving the region wait;
//  - flushes: the arcs leaving the region of every vertex it relaxed, from
//    that vertex's final distance (compare-and-swap on the global words; an
//    improved head is marked dirty and its region listed for the next phase,
//    or as pending when at or above T), and writes its own improved words
//    back.
// A hop inside a region thus costs shared-memory accesses only, and global
// memory and the grid barrier are paid per region crossing, not per hop.
//
// Buckets (delta-stepping): only distances below T = (b + 1) * delta are
// relaxed; improvements at or above T wait as pending vertices (dirty, their
// region on the pending list, the smallest pending key kept by atomicMin).
// When no region is active, T moves to the bucket of the smallest pending
// distance and the pending list becomes the active one. Within a bucket the
// engine is label-correcting (any order reaches the same fixed point).
//
// Every update of a (distance, parent) word is a strict improvement done by
// compare-and-swap, so a parent is never replaced at equal distance. Two
// regions relaxing from their own unwritten copies can still close a cycle
// of tight zero-weight arcs (a -> b and b -> a at equal distance); on graphs
// with zero-weight arcs finish() checks the tree and rebuilds it
// (sssp_family.cuh).
//
// Dirty marks are phase stamps, written without atomics: an improver in
// phase p sets dirty[x] = p + 2 after its compare-and-swap and a
// __threadfence; the owner, in phase q, reads dirty[x], __threadfence, reads
// the word, and records done[x] = q + 1. x needs relaxing while
// dirty[x] > done[x]; an improvement that lands after the owner read the
// word carries a larger stamp, and x's region is listed for the next phase.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

constexpr int kRegionThreads = 256;
// Threads per queued vertex in a wave: its arcs are spread over them (road
// graphs have 2-4 arcs per vertex).
constexpr int kLanes = 4;
// Default region cap: about one region per block slot on the road graphs
// measured (doc/gpu-sssp-family.md); GSP_CUDA_REGION_SIZE overrides it.
constexpr int32_t kDefaultRegionCap = 1024;
constexpr int32_t kMaxRegionCap = 3072;
// Staged arcs per region vertex (a region with more arcs reads them from
// global memory), and entries of the cross-region list per region vertex.
constexpr int32_t kArcsPerVertex = 4;
constexpr int32_t kCrossPerVertex = 1;
// Shared-memory bytes per region vertex: packed word 8, two wave queues
// 4 + 4, flags 4, arc offset 4, staged arcs (head code + weight) 8 each,
// cross-region entries (arc 8, tail 4) 12 each.
constexpr size_t kSmemPerVertex = 24 + 8 * kArcsPerVertex + 12 * kCrossPerVertex;
// Flags of a region vertex during an activation.
constexpr unsigned int kDirtySeen = 1;  // load: dirty when read
constexpr unsigned int kChanged = 2;    // improved here: write back
constexpr unsigned int kPending = 4;    // improved at or above T, or handed over: mark dirty
constexpr unsigned int kQueued = 8;     // in the next wave's queue
constexpr unsigned int kRelaxed = 16;   // its arcs were relaxed here: cross-region arcs at the flush
// Graphs the region engine takes by default (use_region_engine).
constexpr double kRegionMaxAvgDegree = 4.0;
constexpr int32_t kRegionMaxDegree = 64;

struct RegionCtrl {
  unsigned int cnt[4];   // region list lengths
  unsigned int pmin[4];  // smallest pending key, for the list in the pending role
  unsigned int wmax[3];  // longest activation (waves) of a phase, by phase % 3
  int status;            // 1: phase limit reached
  unsigned long long relax;
  long long phases;
  long long buckets;
  unsigned long long activations;
  unsigned long long waves;
  unsigned long long critical_waves;  // sum over phases of the longest activation
  unsigned long long cross_spills;    // cross-region arcs relaxed outside the list (list full)
  // GSP_CUDA_SSSP_TIMING only: SM clock cycles of block thread 0, summed
  // over activations (load, waves, flush), the longest activation of each
  // phase summed over phases, and the largest wave.
  unsigned long long cyc_load, cyc_waves, cyc_flush, cyc_critical;
  unsigned long long cmax[3];
  unsigned int biggest_wave;
};

template <class W>
struct RegionArgs {
  int32_t n;
  int32_t regions;
  int32_t cap;
  int32_t arc_cap;    // staged arcs per activation
  int32_t cross_cap;  // cross-region list entries per activation
  int32_t source;     // renumbered
  const int64_t* off;
  const int32_t* head;
  const W* wt;
  const int32_t* start;
  const int32_t* region_of;
  unsigned long long* packed;
  unsigned int* dirty;       // phase stamps (see the top of this file)
  unsigned int* done;
  unsigned int* act_stamp;   // per region: phase + 1 it was last listed for
  unsigned int* pend_stamp;  // per region: bucket epoch + 1 it was last listed for
  int32_t* list0;
  int32_t* list1;
  int32_t* list2;
  int32_t* list3;
  double delta;              // bucket width; +inf: one bucket
  long long max_phases;
  unsigned int max_waves;    // per activation; the rest is handed to the next phase
  bool profile;              // fill RegionCtrl's cycle counters
  RegionCtrl* ctrl;
};

template <class W>
__device__ __forceinline__ int32_t* list_at(const RegionArgs<W>& a, int i) {
  return i == 0 ? a.list0 : i == 1 ? a.list1 : i == 2 ? a.list2 : a.list3;
}

// What one phase's activations share: the threshold, where regions made
// active or pending are listed, and the phase's stamps.
struct Phase {
  double T;
  unsigned int dirty_stamp;  // p + 2
  unsigned int done_stamp;   // p + 1
  unsigned int nxt_stamp;    // p + 1 (act_stamp)
  unsigned int pend_stamp;   // epoch + 1
  int slot;                  // p % 3 (profiling)
  int32_t* nxt;
  unsigned int* nxt_cnt;
  int32_t* pend;
  unsigned int* pend_cnt;
  unsigned int* pend_min;
};

template <class W>
struct RegionSmem {
  unsigned long long* spk;  // cap
  int32_t* q0;              // cap: the two wave queues
  int32_t* q1;
  unsigned int* flags;      // cap
  int32_t* soff;            // cap + 1: staged arc offsets
  int32_t* sarc;            // arc_cap: head's local index, or ~head when outside
  W* swt;                   // arc_cap
  int64_t* xarc;            // cross_cap: a cross-region arc (global index) ...
  int32_t* xtail;           // ... and its tail (local index); -1 once it improved nothing
};

// Lowers *word to (kc, u) if kc is strictly below its key. Shared or global
// memory; every access is atomic (the first compare-and-swap doubles as the
// read, guessing "unreached").
__device__ __forceinline__ bool relax_strict(unsigned long long* word, uint32_t kc, int32_t u) {
  const unsigned long long nv = pack(kc, u);
  unsigned long long cur = kUnreached;
  for (;;) {
    const unsigned long long prev = atomicCAS(word, cur, nv);
    if (prev == cur) return true;
    if (prev != kUnreached && kc >= key_of(prev)) return false;
    cur = prev;
  }
}

// An atomic read of a shared word other threads may be lowering.
__device__ __forceinline__ unsigned long long read_shared(unsigned long long* word) {
  return atomicCAS(word, kUnreached, kUnreached);
}

template <class W>
__device__ __forceinline__ bool below(W d, double T) {
  return static_cast<double>(d) < T;
}

__device__ __forceinline__ void list_region(unsigned int* stamp, unsigned int want, int32_t r, int32_t* list,
                                            unsigned int* cnt) {
  if (atomicExch(stamp + r, want) != want) list[atomicAdd(cnt, 1u)] = r;
}

// x (another region's vertex) was lowered to key kc by this thread: mark it
// dirty (after a fence) and list its region.
template <class W>
__device__ __forceinline__ void announce(const RegionArgs<W>& a, const Phase& P, int32_t x, uint32_t kc) {
  __threadfence();
  *reinterpret_cast<volatile unsigned int*>(a.dirty + x) = P.dirty_stamp;
  const int32_t rx = __ldg(a.region_of + x);
  if (below(Key<W>::value(kc), P.T)) {
    list_region(a.act_stamp, P.nxt_stamp, rx, P.nxt, P.nxt_cnt);
  } else {
    list_region(a.pend_stamp, P.pend_stamp, rx, P.pend, P.pend_cnt);
    atomicMin(P.pend_min, kc);
  }
}

// Head code and weight of arc `arc` of region [s, e): staged, or from global memory.
template <class W>
__device__ __forceinline__ void arc_at(const RegionArgs<W>& a, const RegionSmem<W>& sm, bool staged, int64_t a0,
                                      int32_t s, int32_t e, int64_t arc, int32_t* code, W* w) {
  if (staged) {
    *code = sm.sarc[arc - a0];
    *w = sm.swt[arc - a0];
  } else {
    const int32_t x = __ldg(a.head + arc);
    *code = (x >= s && x < e) ? x - s : ~x;
    *w = __ldg(a.wt + arc);
  }
}

// One activation of region r by the whole block. Returns the waves run.
template <class W>
__device__ unsigned int activate(const RegionArgs<W>& a, const Phase& P, const RegionSmem<W>& sm, int32_t r,
                                 unsigned long long& relaxed) {
  __shared__ unsigned int qn[2], xn;
  const long long t0 = a.profile ? clock64() : 0;
  long long t1 = 0, t2 = 0;
  cg::thread_block_tile<kLanes> lanes = cg::tiled_partition<kLanes>(cg::this_thread_block());
  const int32_t s = a.start[r];
  const int32_t e = a.start[r + 1];
  const int32_t k = e - s;
  const int64_t a0 = __ldg(a.off + s);
  const int64_t na = __ldg(a.off + e) - a0;
  const bool staged = na <= a.arc_cap;  // uniform
  if (threadIdx.x == 0) {
    qn[0] = 0;
    qn[1] = 0;
    xn = 0;
  }
  // Stage the arcs (four loads in flight per thread); read the dirty stamps.
  if (staged) {
    for (int32_t j = threadIdx.x; j <= k; j += blockDim.x) sm.soff[j] = static_cast<int32_t>(__ldg(a.off + s + j) - a0);
    constexpr int kBatch = 4;
    for (int64_t i0 = threadIdx.x; i0 < na; i0 += static_cast<int64_t>(blockDim.x) * kBatch) {
      int32_t x[kBatch];
      W w[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int64_t i = i0 + b * static_cast<int64_t>(blockDim.x);
        if (i < na) {
          x[b] = __ldg(a.head + a0 + i);
          w[b] = __ldg(a.wt + a0 + i);
        }
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int64_t i = i0 + b * static_cast<int64_t>(blockDim.x);
        if (i < na) {
          sm.sarc[i] = (x[b] >= s && x[b] < e) ? x[b] - s : ~x[b];
          sm.swt[i] = w[b];
        }
      }
    }
  }
  for (int32_t j = threadIdx.x; j < k; j += blockDim.x) {
    const unsigned int d = *reinterpret_cast<volatile unsigned int*>(a.dirty + s + j);
    sm.flags[j] = d > a.done[s + j] ? kDirtySeen : 0u;
  }
  __threadfence();
  __syncthreads();
  // Load the words; the dirty ones below T form the first wave.
  bool my_act = false, my_pend = false;
  unsigned int my_min = ~0u;
  for (int32_t j = threadIdx.x; j < k; j += blockDim.x) {
    const unsigned long long p = __ldcg(a.packed + s + j);
    sm.spk[j] = p;
    const bool dirty = sm.flags[j] & kDirtySeen;
    unsigned int f = 0;
    if (dirty && p != kUnreached) {
      if (below(dist_of<W>(p), P.T)) {
        a.done[s + j] = P.done_stamp;
        f = kQueued;
        sm.q0[atomicAdd(&qn[0], 1u)] = j;
      } else {  // stays dirty: pending
        my_pend = true;
        my_min = min(my_min, key_of(p));
      }
    }
    sm.flags[j] = f;
  }
  if (a.profile) t1 = clock64();
  // Waves: kLanes threads per queued vertex. A vertex leaves the queue
  // (kQueued cleared) before its word is read, so an improvement after that
  // queues it again. Arcs leaving the region wait for the flush.
  int c = 0;
  unsigned int wave = 0;
  for (;; ++wave) {
    __syncthreads();
    const unsigned int cnt = qn[c];
    if (cnt == 0) break;
    if (a.profile && threadIdx.x == 0) atomicMax(&a.ctrl->biggest_wave, cnt);
    if (wave >= a.max_waves) {  // hand the rest to the next phase (write-back marks it)
      const int32_t* rest = c ? sm.q1 : sm.q0;
      for (unsigned int i = threadIdx.x; i < cnt; i += blockDim.x) atomicOr(sm.flags + rest[i], kPending);
      break;
    }
    if (threadIdx.x == 0) qn[c ^ 1] = 0;
    __syncthreads();
    const int32_t* in = c ? sm.q1 : sm.q0;
    int32_t* out = c ? sm.q0 : sm.q1;
    for (unsigned int i = threadIdx.x / kLanes; i < cnt; i += blockDim.x / kLanes) {
      const int32_t j = in[i];
      const int32_t u = s + j;
      if (lanes.thread_rank() == 0) {
        atomicAnd(sm.flags + j, ~kQueued);
        atomicOr(sm.flags + j, kRelaxed);
      }
      __threadfence_block();
      lanes.sync();
      const W du = dist_of<W>(read_shared(sm.spk + j));
      const int64_t beg = staged ? a0 + sm.soff[j] : __ldg(a.off + u);
      const int64_t end = staged ? a0 + sm.soff[j + 1] : __ldg(a.off + u + 1);
      for (int64_t arc = beg + lanes.thread_rank(); arc < end; arc += kLanes) {
        int32_t code;
        W w;
        arc_at(a, sm, staged, a0, s, e, arc, &code, &w);
        ++relaxed;
        if (code < 0) continue;  // leaves the region: at the flush
        W cand;
        if (!Key<W>::add(du, w, &cand)) continue;
        const uint32_t kc = Key<W>::of(cand);
        if (!relax_strict(sm.spk + code, kc, u)) continue;
        __threadfence_block();
        if (below(cand, P.T)) {
          if (!(atomicOr(sm.flags + code, kChanged | kQueued) & kQueued)) out[atomicAdd(&qn[c ^ 1], 1u)] = code;
        } else {
          atomicOr(sm.flags + code, kChanged | kPending);
        }
      }
      lanes.sync();
    }
    c ^= 1;
  }
  __syncthreads();
  if (a.profile) t2 = clock64();
  // Flush. The cross-region arcs of every vertex relaxed here, from its final
  // distance: listed, then all compare-and-swaps (independent, in flight
  // together) with the write-backs, one fence, then the dirty stamps and
  // listings of what improved.
  for (int32_t j = threadIdx.x; j < k; j += blockDim.x) {
    if (!(sm.flags[j] & kRelaxed)) continue;
    const int64_t beg = staged ? a0 + sm.soff[j] : __ldg(a.off + s + j);
    const int64_t end = staged ? a0 + sm.soff[j + 1] : __ldg(a.off + s + j + 1);
    for (int64_t arc = beg; arc < end; ++arc) {
      int32_t code;
      W w;
      arc_at(a, sm, staged, a0, s, e, arc, &code, &w);
      if (code >= 0) continue;
      const unsigned int slot = atomicAdd(&xn, 1u);
      if (slot < static_cast<unsigned int>(a.cross_cap)) {
        sm.xarc[slot] = arc;
        sm.xtail[slot] = j;
        continue;
      }
      W cand;  // list full: at once
      if (Key<W>::add(dist_of<W>(sm.spk[j]), w, &cand) && relax_strict(a.packed + ~code, Key<W>::of(cand), s + j)) {
        announce(a, P, ~code, Key<W>::of(cand));
        atomicAdd(&a.ctrl->cross_spills, 1ull);
      }
    }
  }
  __syncthreads();
  const unsigned int xs = min(xn, static_cast<unsigned int>(a.cross_cap));
  for (unsigned int i = threadIdx.x; i < xs; i += blockDim.x) {
    const int32_t j = sm.xtail[i];
    int32_t code;
    W w, cand;
    arc_at(a, sm, staged, a0, s, e, sm.xarc[i], &code, &w);
    if (!Key<W>::add(dist_of<W>(sm.spk[j]), w, &cand) || !relax_strict(a.packed + ~code, Key<W>::of(cand), s + j)) {
      sm.xtail[i] = -1;
    }
  }
  for (int32_t j = threadIdx.x; j < k; j += blockDim.x) {
    const unsigned int f = sm.flags[j];
    const unsigned long long p = sm.spk[j];
    if (f & kChanged) relax_strict(a.packed + s + j, key_of(p), static_cast<int32_t>(static_cast<uint32_t>(p)));
    if (f & kPending) {
      a.dirty[s + j] = P.dirty_stamp;
      if (below(dist_of<W>(p), P.T)) {
        my_act = true;
      } else {
        my_pend = true;
        my_min = min(my_min, key_of(p));
      }
    }
  }
  for (unsigned int i = threadIdx.x; i < xs; i += blockDim.x) {
    const int32_t j = sm.xtail[i];
    if (j < 0) continue;
    int32_t code;
    W w, cand;
    arc_at(a, sm, staged, a0, s, e, sm.xarc[i], &code, &w);
    Key<W>::add(dist_of<W>(sm.spk[j]), w, &cand);
    announce(a, P, ~code, Key<W>::of(cand));
  }
  if (my_pend) atomicMin(P.pend_min, my_min);
  const int any_act = __syncthreads_or(my_act);
  const int any_pend = __syncthreads_or(my_pend);
  if (threadIdx.x == 0) {
    if (any_act) list_region(a.act_stamp, P.nxt_stamp, r, P.nxt, P.nxt_cnt);
    if (any_pend) list_region(a.pend_stamp, P.pend_stamp, r, P.pend, P.pend_cnt);
  }
  if (a.profile && threadIdx.x == 0) {
    const long long t3 = clock64();
    atomicAdd(&a.ctrl->cyc_load, static_cast<unsigned long long>(t1 - t0));
    atomicAdd(&a.ctrl->cyc_waves, static_cast<unsigned long long>(t2 - t1));
    atomicAdd(&a.ctrl->cyc_flush, static_cast<unsigned long long>(t3 - t2));
    atomicMax(&a.ctrl->cmax[P.slot], static_cast<unsigned long long>(t3 - t0));
  }
  return wave;
}

// The bucket threshold above distance d: the end of d's bucket.
__device__ __forceinline__ double next_threshold(double d, double delta) {
  if (!(delta < INFINITY)) return INFINITY;
  double t = (floor(d / delta) + 1.0) * delta;
  if (!(t > d)) t = d + delta;
  if (!(t > d)) t = INFINITY;
  return t;
}

template <class W>
__device__ RegionSmem<W> carve_smem(unsigned char* base, int32_t cap, int32_t arc_cap, int32_t cross_cap) {
  RegionSmem<W> sm;
  sm.spk = reinterpret_cast<unsigned long long*>(base);
  sm.xarc = reinterpret_cast<int64_t*>(sm.spk + cap);
  sm.q0 = reinterpret_cast<int32_t*>(sm.xarc + cross_cap);
  sm.q1 = sm.q0 + cap;
  sm.flags = reinterpret_cast<unsigned int*>(sm.q1 + cap);
  sm.soff = reinterpret_cast<int32_t*>(sm.flags + cap);
  sm.sarc = sm.soff + cap + 1;
  sm.swt = reinterpret_cast<W*>(sm.sarc + arc_cap);
  sm.xtail = reinterpret_cast<int32_t*>(sm.swt + arc_cap);
  return sm;
}

template <class W>
__global__ void __launch_bounds__(kRegionThreads, 2) region_kernel(RegionArgs<W> a) {
  extern __shared__ __align__(16) unsigned char region_smem[];
  cg::grid_group grid = cg::this_grid();
  const RegionSmem<W> sm = carve_smem<W>(region_smem, a.cap, a.arc_cap, a.cross_cap);

  RegionCtrl* c = a.ctrl;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long relaxed = 0, waves = 0, activations = 0, critical = 0;
  // List roles: the input of this phase, the next phase's list, the pending
  // list of this bucket, and a spare whose count the leader clears during the
  // phase (it was an input that every block has finished reading).
  int in = 0, nxt = 1, pend = 2, spare = 3;
  long long epoch = 0, buckets = 1, p = 0;
  double T = next_threshold(0.0, a.delta);
  for (;; ++p) {
    if (p >= a.max_phases) {
      if (leader) c->status = 1;
      break;
    }
    const unsigned int k = __ldcg(&c->cnt[in]);
    if (leader) {
      c->cnt[spare] = 0;
      c->pmin[spare] = ~0u;
      c->wmax[(p + 1) % 3] = 0;
      c->cmax[(p + 1) % 3] = 0;
    }
    Phase P;
    P.T = T;
    P.dirty_stamp = static_cast<unsigned int>(p + 2);
    P.done_stamp = static_cast<unsigned int>(p + 1);
    P.nxt_stamp = static_cast<unsigned int>(p + 1);
    P.pend_stamp = static_cast<unsigned int>(epoch + 1);
    P.slot = static_cast<int>(p % 3);
    P.nxt = list_at(a, nxt);
    P.nxt_cnt = &c->cnt[nxt];
    P.pend = list_at(a, pend);
    P.pend_cnt = &c->cnt[pend];
    P.pend_min = &c->pmin[pend];
    const int32_t* work = list_at(a, in);
    unsigned int longest = 0;
    for (unsigned int i = blockIdx.x; i < k; i += gridDim.x) {
      const unsigned int w = activate(a, P, sm, __ldcg(work + i), relaxed);
      waves += w;
      longest = max(longest, w);
      ++activations;
    }
    if (threadIdx.x == 0 && longest > 0) atomicMax(&c->wmax[p % 3], longest);
    grid.sync();
    if (leader) {
      critical += __ldcg(&c->wmax[p % 3]);
      c->cyc_critical += __ldcg(&c->cmax[p % 3]);
    }
    if (__ldcg(&c->cnt[nxt]) > 0) {
      const int t = in;
      in = nxt;
      nxt = spare;
      spare = t;
      continue;
    }
    if (__ldcg(&c->cnt[pend]) == 0) break;
    // Next bucket: the pending list becomes the input.
    const unsigned int pk = __ldcg(&c->pmin[pend]);
    T = next_threshold(static_cast<double>(Key<W>::value(pk)), a.delta);
    const int t = in;
    in = pend;
    pend = nxt;
    nxt = spare;
    spare = t;
    ++epoch;
    ++buckets;
  }
  // Totals: one atomic per warp.
  for (int o = 16; o > 0; o >>= 1) relaxed += __shfl_down_sync(0xffffffffu, relaxed, o);
  if ((threadIdx.x & 31) == 0 && relaxed != 0) atomicAdd(&c->relax, relaxed);
  if (threadIdx.x == 0) {
    atomicAdd(&c->activations, activations);
    atomicAdd(&c->waves, waves);
  }
  if (leader) {
    c->phases = p;
    c->buckets = buckets;
    c->critical_waves = critical;
  }
}

template <class W>
__global__ void region_init_kernel(RegionArgs<W> a) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < a.n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    a.packed[v] = (v == a.source) ? pack(Key<W>::of(W(0)), -1) : kUnreached;
    a.dirty[v] = (v == a.source) ? 1u : 0u;  // as if improved in phase -1
    a.done[v] = 0;
  }
  for (int64_t r = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; r < a.regions;
       r += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    a.act_stamp[r] = 0;
    a.pend_stamp[r] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    RegionCtrl* c = a.ctrl;
    for (int i = 0; i < 4; ++i) {
      c->cnt[i] = 0;
      c->pmin[i] = ~0u;
    }
    for (int i = 0; i < 3; ++i) c->wmax[i] = 0;
    a.list0[0] = a.region_of[a.source];
    c->cnt[0] = 1;
  }
}

int32_t region_cap() {
  int32_t cap = kDefaultRegionCap;
  if (const char* e = std::getenv("GSP_CUDA_REGION_SIZE")) {
    cap = static_cast<int32_t>(std::clamp(std::atol(e), 1L, static_cast<long>(kMaxRegionCap)));
  }
  return cap;
}

template <class W>
void run(RunContext& ctx, const SsspJob& job, double delta) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  fill_stats(ctx, job);
  const DeviceRegionGraph<W> rg = device_region_graph<W>(ctx, graph, region_cap());
  const int32_t cap = std::min(rg.cap, std::max<int32_t>(n, 1));

  RegionArgs<W> a{};
  a.n = n;
  a.regions = rg.regions;
  a.cap = cap;
  a.arc_cap = kArcsPerVertex * cap;
  a.cross_cap = kCrossPerVertex * cap;
  a.source = rg.new_of_old[job.source];
  a.off = rg.csr.offsets;
  a.head = rg.csr.targets;
  a.wt = rg.csr.weights;
  a.start = rg.start;
  a.region_of = rg.region_of;
  a.delta = delta;
  // Within a bucket every activation makes progress (label-correcting with
  // strict improvements); the limit only turns a bug into an error.
  a.max_phases = 64LL * n + 1024;
  a.max_waves = ~0u;
  a.profile = std::getenv("GSP_CUDA_SSSP_TIMING") != nullptr;
  if (const char* e = std::getenv("GSP_CUDA_REGION_WAVES")) {
    a.max_waves = static_cast<unsigned int>(std::clamp(std::atol(e), 1L, 1L << 30));
  }

  const bool timing = std::getenv("GSP_CUDA_SSSP_TIMING") != nullptr;
  StageTimer tm(timing, ctx.stream());
  Workspace ws;
  W* dist = nullptr;
  int32_t* pred = nullptr;
  int* flag3 = nullptr;
  const size_t regions = static_cast<size_t>(std::max(rg.regions, 1));
  ws.add(&a.packed, n);
  ws.add(&a.dirty, n);
  ws.add(&a.done, n);
  ws.add(&a.act_stamp, regions);
  ws.add(&a.pend_stamp, regions);
  ws.add(&a.list0, regions);
  ws.add(&a.list1, regions);
  ws.add(&a.list2, regions);
  ws.add(&a.list3, regions);
  ws.add(&a.ctrl, 1);
  ws.add(&dist, n);
  ws.add(&pred, n);
  ws.add(&flag3, 3);
  ws.allocate(ctx, "delta-stepping region state");
  tm.host_mark();
  tm.mark();

  cudaStream_t st = ctx.stream();
  GSP_CUDA(cudaMemsetAsync(a.ctrl, 0, sizeof(RegionCtrl), st));
  region_init_kernel<W><<<grid_for(ctx, std::max<int64_t>(n, rg.regions), 256), 256, 0, st>>>(a);
  GSP_CUDA_LAUNCH();

  auto kernel = region_kernel<W>;
  const size_t smem = static_cast<size_t>(cap) * kSmemPerVertex + 32;
  if (smem > 48 * 1024) {
    GSP_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  }
  int per_sm = 2;
  if (const char* e = std::getenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM")) per_sm = std::clamp(std::atoi(e), 1, 4);
  const int blocks = coop_blocks(ctx, kernel, kRegionThreads, per_sm, rg.regions, smem);
  void* params[] = {&a};
  tm.mark();
  GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks, kRegionThreads, params, smem, st));
  GSP_CUDA_LAUNCH();
  tm.mark();

  RegionCtrl h{};
  GSP_CUDA(cudaMemcpyAsync(&h, a.ctrl, sizeof h, cudaMemcpyDeviceToHost, st));
  ctx.sync();
  if (job.stats != nullptr) {
    job.stats->iterations = h.phases;
    job.stats->relaxations = static_cast<int64_t>(h.relax);
  }
  if (h.status == 1) throw Error(GSP_ERR_INTERNAL, "delta-stepping (region engine) did not converge");
  if (timing) {
    int khz = 0;
    GSP_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ctx.device()));
    const double ghz = khz > 0 ? khz * 1e-6 : 1.98;
    std::fprintf(stderr,
                 "SSSP_REGIONS_CYCLES load=%.1fus waves=%.1fus flush=%.1fus (sums over activations) "
                 "critical=%.1fus (longest activation per phase, summed) biggest_wave=%u\n",
                 h.cyc_load / ghz * 1e-3, h.cyc_waves / ghz * 1e-3, h.cyc_flush / ghz * 1e-3,
                 h.cyc_critical / ghz * 1e-3, h.biggest_wave);
  }
  finish<W>(ctx, job, rg.csr, a.packed, dist, pred, flag3, timing ? &tm : nullptr, rg.old_of_new);
  if (timing) {
    tm.report("delta-stepping-regions", n, m, blocks, h.phases, 0, 0);
    std::fprintf(stderr,
                 "SSSP_REGIONS regions=%d cap=%d delta=%g buckets=%lld activations=%llu waves=%llu "
                 "critical_waves=%llu cross_spills=%llu relaxations=%llu\n",
                 rg.regions, cap, delta, h.buckets, h.activations, h.waves, h.critical_waves, h.cross_spills,
                 h.relax);
  }
  job.options->report(1.0);
}

}  // namespace

bool use_region_engine(const Graph& graph) {
  if (const char* e = std::getenv("GSP_CUDA_REGION")) return std::atoi(e) != 0;
  const int32_t n = graph.n();
  if (n == 0) return false;
  // Low average degree (long shortest-path trees, where hops cost latency),
  // and no vertex so wide that one thread relaxing its arcs serially would
  // stall its block.
  return static_cast<double>(graph.m()) / n <= kRegionMaxAvgDegree && graph.max_out_degree() <= kRegionMaxDegree;
}

void region_delta_stepping(RunContext& ctx, const SsspJob& job, double delta) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run<decltype(w)>(ctx, job, delta); });
}

}  // namespace gsp::detail::gpu::family
