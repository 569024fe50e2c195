// GSP_SSSP_DELTA_STEPPING on CUDA (Meyer & Sanders 2003), and the frontier
// engine that GSP_SSSP_BELLMAN_FORD shares (sssp_bellman_ford.cu).
//
// One persistent cooperative kernel runs the whole bucket loop on the device:
// no per-bucket launch, no host synchronisation until the result is copied.
// Phases are separated by grid-wide barriers; every block walks the same
// control flow, reading the control words written before the last barrier.
//
//  - Light/heavy split: when some arc is heavy (delta < max weight), the arcs
//    of each vertex are reordered once per run (light w <= delta first, heavy
//    after) into a workspace copy; split[v] is where the heavy arcs start.
//    When every arc is light the graph's own arrays are used.
//  - Light phase of bucket b: the near frontier (vertices whose distance
//    fell into bucket b) relaxes its light arcs. Requests are generated per
//    tile of 256 frontier vertices by a block-wide exclusive prefix sum over
//    their light degrees: thread j takes arc j of the tile (binary search in
//    the scanned offsets), so a hub's arcs spread over the whole block and
//    no atomic touches a request array. Requests are applied at once with
//    the 64-bit atomicMin on (distance, parent).
//  - Improved vertices go to the next near frontier when they land in bucket
//    b (deduplicated with a per-vertex stamp), or to the far pile when they
//    land later: bucket[v] holds each vertex's bucket index, lowered with
//    atomicMin, so a move between buckets is O(1) and a vertex is appended
//    again only when its bucket index really dropped.
//  - Block-local waves (low-degree graphs only): improvements that stay in
//    bucket b go to a shared-memory queue that the block relaxes itself, up
//    to kLocalWaves waves, before the grid barrier (asynchronous propagation:
//    far fewer grid-wide rounds on road graphs). These waves (and the
//    global tiles of their rounds) read the light arcs from a per-run ELL
//    copy, four slots per vertex, one thread per slot: no offsets load and
//    no block scan on the chain of a wave. Optional thread-level
//    chasing (GSP_CUDA_CHASE, off by default: measured slower) lets the
//    improving thread relax a vertex's arcs itself.
//  - Heavy phase: once bucket b is empty, the vertices it settled (list R,
//    deduplicated per epoch) relax their heavy arcs once.
//  - Next bucket: the smallest bucket index appended to the far pile is kept
//    with a warp-aggregated atomicMin; one pass over the far pile moves
//    bucket-b entries to the near frontier, drops stale ones and compacts
//    the rest (the pile is rebuilt from all vertices if it ever overflows).
//
// Bellman-Ford is the same kernel with one bucket (delta = infinity, every
// arc light, no heavy phase) and a round limit: round n must find nothing to
// improve, otherwise a negative cycle is reachable. Delta-stepping runs that
// way too when it chooses delta itself on a graph of average out-degree
// above 4 (see run()).
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

constexpr int kThreads = 256;
constexpr int kNoBucket = 0x7fffffff;
constexpr int kMaxBucket = 1 << 30;

struct Ctrl {
  unsigned int near_cnt[3];
  unsigned int r_cnt[2];
  unsigned long long far_cnt[3];
  int far_min[3];
  int far_ovf[3];
  int status;  // 0 ok, 1 round limit hit
  int pad;
  double delta;
  double inv_delta;
  unsigned long long relax;
  long long rounds;
  long long buckets;
};

template <class W>
struct FArgs {
  int32_t n;
  int32_t source;
  const int64_t* off;    // n+1
  const int64_t* lend;   // n: end of the light arcs (split), or off+1 when every arc is light
  const int32_t* tgt;    // arcs, light first within each vertex
  const W* wt;
  unsigned long long* packed;
  int* bucket;
  unsigned int* nstamp;
  unsigned int* rstamp;
  unsigned int* fstamp;
  int32_t* near0;
  int32_t* near1;
  int32_t* far0;
  int32_t* far1;
  int32_t* rlist;
  // The light arcs in ELL form for the block-local waves (relax_wave_ell()),
  // kEllSlots per vertex, or nullptr (waves use relax_tile()).
  const uint2* ell;
  unsigned long long far_cap;
  long long max_rounds;
  double inv_delta;
  int local_rounds;
  int chase;  // hops a thread chases per improvement (0: off); only with local waves
  // Whether a relaxation first reads the target's label and skips the
  // atomicMin when it cannot improve (relax()): in the global tiles and in
  // the block-local waves (see run()).
  bool filter_global;
  bool filter_local;
  bool delta_mode;
  bool has_heavy;  // a physical light/heavy split exists (some arc is heavy)
  // Speculative pushes in the block-local ELL waves (relax_arc_spec()):
  // delta-stepping with ELL waves on graphs whose weights are all > 0.
  bool speculate;
  // Speculative mode: the smallest distance key each vertex's arcs were
  // relaxed with (all ones: never), so that a vertex offered the same
  // distance again is not relaxed again (relax_wave_ell()).
  uint32_t* done_key;
  Ctrl* ctrl;
};

__device__ __forceinline__ int bucket_of(double d, double inv) {
  double q = d * inv;
  if (!(q < static_cast<double>(kMaxBucket))) return kMaxBucket;
  if (q < 0) return 0;
  return static_cast<int>(q);
}

// Per-thread view of where improvements go in the current phase.
struct Sink {
  int cur_b;
  double inv;
  int32_t* near_out;
  unsigned int* near_cnt;
  unsigned int near_stamp;
  int32_t* far_out;
  unsigned long long* far_cnt;
  int* far_min;
  int* far_ovf;
  unsigned long long far_cap;
  bool delta_mode;
  // Block-local queue (shared memory) for improvements that stay in the
  // current bucket: the block relaxes them itself before the grid barrier.
  // local_w[i] is the (distance, parent) word that queued local_q[i].
  int32_t* local_q;
  unsigned long long* local_w;
  unsigned int* local_cnt;
  // Speculative pushes to a later bucket, checked once after the local
  // waves (relax_arc_spec(), flush_deferred()).
  int32_t* defer_v;
  unsigned long long* defer_w;
  unsigned int* defer_cnt;
  // Speculative mode: the block's direct-mapped cache of (distance key,
  // vertex) pairs it relaxed (kSeenSlots, shared memory, never cleared).
  unsigned long long* seen;
  // Thread-level chasing (local waves only): a thread that moves a vertex
  // into the current bucket relaxes that vertex's arcs itself, up to `chase`
  // hops, instead of queueing it (see chase() below).
  int chase;
  bool has_heavy;
  unsigned int r_stamp;
  unsigned int* r_cnt;
};

constexpr unsigned int kLocalCap = 1024;
constexpr int kLocalWaves = 16;  // per grid round; see run()
constexpr double kLocalWaveMaxDegree = 4.0;
constexpr int kChaseHops = 0;  // see run(): measured slower
constexpr unsigned int kDeferCap = 256;  // deferred later-bucket pushes per block and round
constexpr unsigned int kSeenSlots = 1024;  // power of two

// ELL slots per vertex for the block-local waves: a slot holds one light arc
// as (head, weight bits); kEllEmpty marks an unused slot; kEllMore in the
// last slot says the vertex has more than kEllSlots light arcs, and that its
// arcs from index kEllSlots - 1 on are read from the CSR. Four slots hold
// every arc of 99.4% of the vertices of the NY road graph.
constexpr int kEllSlots = 4;
constexpr uint32_t kEllEmpty = 0xffffffffu;
constexpr uint32_t kEllMore = 0xfffffffeu;

// The lanes of the calling thread's ELL entry group (kEllSlots consecutive
// lanes of its warp), for the group's shuffles.
__device__ __forceinline__ unsigned int entry_mask() {
  return ((1u << kEllSlots) - 1u) << (threadIdx.x & 31 & ~(kEllSlots - 1));
}

// Slot of vertex v in a direct-mapped table of kSeenSlots (Fibonacci hash).
__device__ __forceinline__ unsigned int hash_vertex(int32_t v) {
  return (static_cast<uint32_t>(v) * 2654435761u) >> 16;
}

template <class W>
__device__ __forceinline__ uint32_t weight_bits(W w) {
  if constexpr (std::is_same_v<W, float>) return __float_as_uint(w);
  else return static_cast<uint32_t>(w);
}
template <class W>
__device__ __forceinline__ W weight_from_bits(uint32_t b) {
  if constexpr (std::is_same_v<W, float>) return __uint_as_float(b);
  else return static_cast<W>(b);
}

// Queue v, whose label became `word` (pack(key, parent)), for the current
// bucket: in the block's local queue while it has room, else in the global
// next frontier (once per round, by the stamp).
template <class W>
__device__ __forceinline__ void push_near(const FArgs<W>& a, const Sink& s, int32_t v,
                                          unsigned long long word) {
  if (s.local_q != nullptr) {
    const unsigned int slot = atomicAdd(s.local_cnt, 1u);
    if (slot < kLocalCap) {
      s.local_q[slot] = v;
      s.local_w[slot] = word;
      return;
    }
  }
  if (atomicExch(a.nstamp + v, s.near_stamp) != s.near_stamp) {
    s.near_out[group_append(s.near_cnt)] = v;
  }
}

// v's distance just dropped to cand (through arc u -> v). Returns true when
// v stays in the current bucket; then it is queued unless `take` (the
// caller relaxes v's arcs itself). A vertex in a later bucket goes to the
// far pile.
template <class W>
__device__ __forceinline__ bool on_improved(const FArgs<W>& a, const Sink& s, int32_t u, int32_t v,
                                            W cand, bool take = false) {
  if (!s.delta_mode) {
    if (!take) push_near(a, s, v, pack(Key<W>::of(cand), u));
    return true;
  }
  const int nb = bucket_of(static_cast<double>(cand), s.inv);
  if (nb <= s.cur_b) {
    atomicMin(a.bucket + v, nb);  // result unused: a fire-and-forget reduction
    if (!take) push_near(a, s, v, pack(Key<W>::of(cand), u));
    return true;
  }
  const int oldb = atomicMin(a.bucket + v, nb);
  if (nb < oldb) {
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long slot = group_append(s.far_cnt);
    if (slot < s.far_cap) {
      s.far_out[slot] = v;
    } else {
      *s.far_ovf = 1;
    }
    int mn = cg::reduce(g, nb, cg::less<int>());
    if (g.thread_rank() == 0) atomicMin(s.far_min, mn);
  }
  return false;
}

// Thread-level chasing: v (distance dv) was just improved by this thread and
// stays in the current bucket. Instead of queueing it, the thread relaxes
// v's light arcs itself, serially (road graphs: ~3 arcs), follows the first
// neighbour it moves into the current bucket, and queues the others, for up
// to s.chase hops; a vertex left over at the end is queued. Each hop is one
// dependent chain (offsets, arc, distance, atomicMin) with no __syncthreads
// and no block scan, and a thread never waits for the rest of the block, so
// many hops fit into one grid round. Every improved vertex is still either
// queued or relaxed by its improver, so the fixed point is the same
// (label-correcting: any order converges; improvements are strict, so
// zero-weight cycles cannot loop).
template <class W>
__device__ void chase(const FArgs<W>& a, const Sink& s, int32_t v, W dv,
                      int32_t pv_parent, unsigned long long& relaxed) {
  for (int hop = 0; hop < s.chase; ++hop) {
    const long long beg = a.off[v];
    const long long end = a.lend[v];
    const unsigned long long pv = __ldcg(a.packed + v);
    // Someone lowered v again since: that improver schedules v.
    if (pv != kUnreached && key_of(pv) < Key<W>::of(dv)) return;
    if (s.has_heavy) {
      if (atomicExch(a.rstamp + v, s.r_stamp) != s.r_stamp) a.rlist[group_append(s.r_cnt)] = v;
    }
    int32_t next = -1;
    W next_d{};
    for (long long arc = beg; arc < end; ++arc) {
      const int32_t x = a.tgt[arc];
      W cand;
      ++relaxed;
      if (!Key<W>::add(dv, a.wt[arc], &cand)) continue;
      if (!relax_packed<W>(a.packed, v, x, cand)) continue;
      if (on_improved(a, s, v, x, cand, next < 0) && next < 0) {
        next = x;
        next_d = cand;
      }
    }
    if (next < 0) return;
    pv_parent = v;
    v = next;
    dv = next_d;
  }
  push_near(a, s, v, pack(Key<W>::of(dv), pv_parent));
}

// relax_packed() (a filtering load of v's label, then the atomicMin only
// when cand can improve it), or, with filter == false, the atomicMin alone:
// one L2 round trip less on the dependent chain of a block-local wave, which
// is latency-bound (NY 4.43 -> 4.11 ms), for one atomic more per arc that
// does not improve (kept filtered in the global tiles, where R-MAT's hubs
// make atomics contend).
template <class W>
__device__ __forceinline__ bool relax(const FArgs<W>& a, int32_t u, int32_t v, W cand, bool filter) {
  if (filter) return relax_packed<W>(a.packed, u, v, cand);
  const uint32_t k = Key<W>::of(cand);
  const unsigned long long old = atomicMin(a.packed + v, pack(k, u));
  return old == kUnreached || key_of(old) > k;
}

// Relax arc u -> v of weight w (du: u's distance) and schedule v when its
// distance dropped.
template <class W>
__device__ __forceinline__ void relax_arc(const FArgs<W>& a, const Sink& s, int32_t u, W du,
                                          int32_t v, W w, bool filter,
                                          unsigned long long& relaxed) {
  W cand;
  ++relaxed;
  if (!Key<W>::add(du, w, &cand)) return;
  if (!relax(a, u, v, cand, filter)) return;
  if (s.chase > 0) {
    if (on_improved(a, s, u, v, cand, true)) chase(a, s, v, cand, u, relaxed);
  } else {
    on_improved(a, s, u, v, cand);
  }
}

// Speculative relaxation (block-local ELL waves, weights > 0): the atomicMin
// on v's label is fire-and-forget (its result unused, so it compiles to a
// reduction that the wave's barrier does not wait for) and v is queued with
// the word it was offered, improvement or not. The next wave loads v's label
// beside its arcs anyway and drops the entry when the label's distance is
// already below the word's (whoever lowered it schedules v: a speculative
// push queues itself, a returning atomicMin calls on_improved()). A label
// above the word means the reduction has not landed yet: the entry goes
// ahead with its own distance. So a wave's chain holds one L2 round trip
// (the loads) instead of two (the loads, then the atomicMin whose result
// decided the push). Equal distances through different parents may both go
// ahead: duplicate work, never a lost or looping update, since with weights
// > 0 a vertex's distance strictly grows along every arc. A push to a later
// bucket is kept in the block's deferred list and checked once after the
// waves (flush_deferred()); when that list is full the arc takes the
// returning path.
template <class W>
__device__ __forceinline__ void relax_arc_spec(const FArgs<W>& a, const Sink& s, int32_t u, W du,
                                               int32_t v, W w, unsigned long long& relaxed) {
  W cand;
  ++relaxed;
  if (!Key<W>::add(du, w, &cand)) return;
  const unsigned long long word = pack(Key<W>::of(cand), u);
  const int nb = bucket_of(static_cast<double>(cand), s.inv);
  if (nb <= s.cur_b) {
    atomicMin(a.packed + v, word);  // results unused: reductions
    atomicMin(a.bucket + v, nb);
    push_near(a, s, v, word);
    return;
  }
  const unsigned int slot = atomicAdd(s.defer_cnt, 1u);
  if (slot < kDeferCap) {
    atomicMin(a.packed + v, word);
    s.defer_v[slot] = v;
    s.defer_w[slot] = word;
    return;
  }
  if (relax(a, u, v, cand, false)) on_improved(a, s, u, v, cand);
}

template <class W>
struct TileSmem {
  int32_t u[kThreads];
  W du[kThreads];
  long long beg[kThreads];
  long long off[kThreads];
  long long total;
};

// Relax the light (heavy == false) or heavy arcs of list[first .. first+items),
// items <= kThreads; list is in global memory, or in shared memory when
// from_smem. Every thread of the block calls it.
template <class W>
__device__ void relax_tile(const FArgs<W>& a, const Sink& s, const int32_t* list, bool from_smem,
                           long long first, int items, bool heavy, unsigned int r_stamp,
                           unsigned int* r_cnt, unsigned long long& relaxed) {
  const bool filter = from_smem ? a.filter_local : a.filter_global;
  using Scan = cub::BlockScan<long long, kThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ TileSmem<W> t;
  long long deg = 0;
  if (static_cast<int>(threadIdx.x) < items) {
    const int32_t u = from_smem ? list[first + threadIdx.x] : __ldcg(list + first + threadIdx.x);
    const W du = dist_of<W>(__ldcg(a.packed + u));
    const long long beg = heavy ? a.lend[u] : a.off[u];
    const long long end = heavy ? a.off[u + 1] : a.lend[u];
    deg = end - beg;
    t.u[threadIdx.x] = u;
    t.du[threadIdx.x] = du;
    t.beg[threadIdx.x] = beg;
    if (!heavy && a.has_heavy) {
      if (atomicExch(a.rstamp + u, r_stamp) != r_stamp) a.rlist[group_append(r_cnt)] = u;
    }
  }
  long long excl = 0, total = 0;
  Scan(scan_tmp).ExclusiveSum(deg, excl, total);
  t.off[threadIdx.x] = excl;
  if (threadIdx.x == 0) t.total = total;
  __syncthreads();
  total = t.total;
  for (long long j = threadIdx.x; j < total; j += kThreads) {
    int lo = 0, hi = items - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) >> 1;
      if (t.off[mid] <= j) lo = mid; else hi = mid - 1;
    }
    const long long arc = t.beg[lo] + (j - t.off[lo]);
    relax_arc(a, s, t.u[lo], t.du[lo], a.tgt[arc], a.wt[arc], filter, relaxed);
  }
  __syncthreads();
}

// Relax the light arcs of q[0 .. have) from the ELL copy: kEllSlots threads
// per vertex, thread j takes slot j. Against relax_tile() this takes the
// dependent offsets load and the block scan (with its barriers and the
// binary search) off the chain: a vertex's arcs are read at once from its
// index, beside its label. Vertices with more light arcs than slots relax
// the rest from the CSR on the last slot's thread. q is the block's
// shared-memory queue (a local wave) or a slice of the global frontier
// (from_global). With qw (the local queue's words, speculative mode) an
// entry whose word's distance is above u's label is dropped, u relaxes with
// the word's distance, and its arcs take relax_arc_spec() (the arc back to
// the word's parent is skipped: with weights > 0 it cannot improve).
// Speculative entries are also dropped when u's arcs were already relaxed
// with that distance or a smaller one: by any block (done_key, written
// fire-and-forget when relaxation starts) or, in the same wave, by this
// block (the shared-memory cache s.seen, tested with an atomicExch beside
// the global loads). Without them a vertex offered the same distance twice
// (two shortest paths of equal length, or an entry both queued and in the
// global frontier) would re-offer the same words to its whole subtree,
// whose checks all pass. No barrier inside: the caller separates waves.
template <class W>
__device__ void relax_wave_ell(const FArgs<W>& a, const Sink& s, const int32_t* q,
                               const unsigned long long* qw, unsigned int have, bool from_global,
                               unsigned int r_stamp, unsigned int* r_cnt,
                               unsigned long long& relaxed) {
  const int slot = static_cast<int>(threadIdx.x) % kEllSlots;
  const bool filter = from_global ? a.filter_global : a.filter_local;
  for (unsigned int i = threadIdx.x / kEllSlots; i < have; i += kThreads / kEllSlots) {
    const int32_t u = from_global ? __ldcg(q + i) : q[i];
    const uint2 e = __ldg(a.ell + static_cast<size_t>(u) * kEllSlots + slot);
    const unsigned long long pu = __ldcg(a.packed + u);
    unsigned long long word = pu;
    if (qw != nullptr) {
      word = qw[i];
      const uint32_t k = key_of(word);
      const uint32_t done = __ldcg(a.done_key + u);
      const unsigned long long tag = (static_cast<unsigned long long>(k) << 32) | static_cast<uint32_t>(u);
      // One thread per entry claims the (key, vertex) pair in the cache; the
      // entry's other slots follow its decision through the warp.
      bool dup = false;
      if (slot == 0) dup = atomicExch(s.seen + (hash_vertex(u) & (kSeenSlots - 1)), tag) == tag;
      dup = __shfl_sync(entry_mask(), dup, 0, kEllSlots);
      if (dup || key_of(pu) < k || done <= k) continue;  // lowered since: its improver schedules u
      if (slot == 0) atomicMin(a.done_key + u, k);
    } else if (a.done_key != nullptr && slot == 0) {
      atomicMin(a.done_key + u, key_of(pu));
    }
    const W du = dist_of<W>(word);
    if (a.has_heavy && slot == 0) {
      if (atomicExch(a.rstamp + u, r_stamp) != r_stamp) a.rlist[group_append(r_cnt)] = u;
    }
    if (e.x < kEllMore) {
      const int32_t v = static_cast<int32_t>(e.x);
      const W w = weight_from_bits<W>(e.y);
      if (qw == nullptr) {
        relax_arc(a, s, u, du, v, w, filter, relaxed);
      } else if (v != static_cast<int32_t>(word)) {
        relax_arc_spec(a, s, u, du, v, w, relaxed);
      }
    } else if (e.x == kEllMore) {
      const long long end = a.lend[u];
      for (long long arc = a.off[u] + (kEllSlots - 1); arc < end; ++arc) {
        if (qw == nullptr) {
          relax_arc(a, s, u, du, a.tgt[arc], a.wt[arc], filter, relaxed);
        } else {
          relax_arc_spec(a, s, u, du, a.tgt[arc], a.wt[arc], relaxed);
        }
      }
    }
  }
}

// The speculative pushes to later buckets of this round (relax_arc_spec()):
// each one whose distance is still v's goes to the far pile now. Every
// thread of the block calls it after the last wave.
template <class W>
__device__ void flush_deferred(const FArgs<W>& a, const Sink& s) {
  const unsigned int have = min(*s.defer_cnt, kDeferCap);
  for (unsigned int i = threadIdx.x; i < have; i += kThreads) {
    const int32_t v = s.defer_v[i];
    const unsigned long long word = s.defer_w[i];
    if (key_of(__ldcg(a.packed + v)) < key_of(word)) continue;
    on_improved(a, s, static_cast<int32_t>(word), v, dist_of<W>(word));
  }
}

// Relax the arcs of list[0..count): the list is cut into one slice per block
// (at most kThreads vertices per tile, so small frontiers still spread over
// the whole grid). In the light phase (local_rounds > 0) the block then keeps
// relaxing the vertices its own relaxations put back into the current bucket,
// from a shared-memory queue, for up to local_rounds waves (asynchronous,
// Gauss-Seidel style: no grid barrier between those waves); what is left goes
// to the global next frontier.
template <class W>
__device__ void relax_list(const FArgs<W>& a, Sink s, const int32_t* list, unsigned int count,
                           bool heavy, unsigned int r_stamp, unsigned int* r_cnt,
                           unsigned long long& relaxed, int local_rounds,
                           unsigned long long* seen) {
  __shared__ int32_t lq[2][kLocalCap];
  __shared__ unsigned long long lw[2][kLocalCap];
  // Wave r reads lq[r & 1] (count lcnt[r % 3]), appends to lq[(r + 1) & 1]
  // (lcnt[(r + 1) % 3]) and clears lcnt[(r + 2) % 3], which wave r - 1 read
  // before the barrier that ends it: one barrier per wave.
  __shared__ unsigned int lcnt[3];
  __shared__ int32_t defer_v[kDeferCap];
  __shared__ unsigned long long defer_w[kDeferCap];
  __shared__ unsigned int defer_cnt;
  const bool local = !heavy && local_rounds > 0;
  const bool spec = local && a.speculate;
  s.chase = local ? a.chase : 0;
  s.has_heavy = a.has_heavy;
  s.r_stamp = r_stamp;
  s.r_cnt = r_cnt;
  s.defer_v = defer_v;
  s.defer_w = defer_w;
  s.defer_cnt = &defer_cnt;
  s.seen = seen;
  if (local) {
    if (threadIdx.x < 3) lcnt[threadIdx.x] = 0;
    if (threadIdx.x == 0) defer_cnt = 0;
    __syncthreads();
    s.local_q = lq[0];
    s.local_w = lw[0];
    s.local_cnt = &lcnt[0];
  } else {
    s.local_q = nullptr;
    s.local_w = nullptr;
    s.local_cnt = nullptr;
  }
  long long per = (static_cast<long long>(count) + gridDim.x - 1) / gridDim.x;
  if (per > kThreads) per = kThreads;
  if (per < 1) per = 1;
  for (long long tile = blockIdx.x * per; tile < count; tile += static_cast<long long>(gridDim.x) * per) {
    const int items = static_cast<int>(min(per, count - tile));
    if (local && a.ell != nullptr) {
      relax_wave_ell(a, s, list + tile, nullptr, items, true, r_stamp, r_cnt, relaxed);
    } else {
      relax_tile(a, s, list, false, tile, items, heavy, r_stamp, r_cnt, relaxed);
    }
  }
  if (!local) return;
  int round = 0;
  for (; round < local_rounds; ++round) {
    __syncthreads();
    const unsigned int have = min(lcnt[round % 3], kLocalCap);
    if (have == 0) break;  // uniform: read after the barrier
    if (threadIdx.x == 0) lcnt[(round + 2) % 3] = 0;
    const int32_t* q = lq[round & 1];
    const unsigned long long* qw = spec ? lw[round & 1] : nullptr;
    s.local_q = lq[(round + 1) & 1];
    s.local_w = lw[(round + 1) & 1];
    s.local_cnt = &lcnt[(round + 1) % 3];
    if (a.ell != nullptr) {
      relax_wave_ell(a, s, q, qw, have, false, r_stamp, r_cnt, relaxed);
    } else {
      for (unsigned int first = 0; first < have; first += kThreads) {
        relax_tile(a, s, q, true, first,
                   static_cast<int>(min(have - first, static_cast<unsigned int>(kThreads))), false,
                   r_stamp, r_cnt, relaxed);
      }
    }
  }
  // Queue empty, or out of local rounds: hand the rest to the next global
  // round (speculative entries only while their distance is still the
  // label's), and put the deferred later-bucket pushes in the far pile.
  __syncthreads();
  const unsigned int have = min(lcnt[round % 3], kLocalCap);
  const int32_t* q = lq[round & 1];
  for (unsigned int i = threadIdx.x; i < have; i += kThreads) {
    const int32_t v = q[i];
    if (spec) {
      const uint32_t k = key_of(lw[round & 1][i]);
      if (key_of(__ldcg(a.packed + v)) < k || __ldcg(a.done_key + v) <= k) continue;
    }
    if (atomicExch(a.nstamp + v, s.near_stamp) != s.near_stamp) {
      s.near_out[group_append(s.near_cnt)] = v;
    }
  }
  if (spec) flush_deferred(a, s);
  __syncthreads();
}

template <class W>
__global__ void __launch_bounds__(kThreads) frontier_kernel(FArgs<W> a) {
  cg::grid_group grid = cg::this_grid();
  Ctrl* c = a.ctrl;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  const double inv = a.delta_mode ? a.inv_delta : 0.0;
  unsigned long long relaxed = 0;
  long long it = 0;       // light rounds done; near list `it` is the one to read
  unsigned int e = 0;     // heavy epochs
  long long fl = 0;       // far pile generation
  int b = 0;              // current bucket
  long long buckets = 1;
  int32_t* near[2] = {a.near0, a.near1};
  int32_t* far[2] = {a.far0, a.far1};
  __shared__ unsigned long long seen[kSeenSlots];
  if (a.speculate) {
    for (unsigned int i = threadIdx.x; i < kSeenSlots; i += kThreads) seen[i] = kUnreached;
    __syncthreads();
  }

  auto sink_for = [&](long long list_index) {
    Sink s;
    s.cur_b = b;
    s.inv = inv;
    s.near_out = near[list_index & 1];
    s.near_cnt = &c->near_cnt[list_index % 3];
    s.near_stamp = static_cast<unsigned int>(list_index + 1);
    s.far_out = far[fl & 1];
    s.far_cnt = &c->far_cnt[fl % 3];
    s.far_min = &c->far_min[fl % 3];
    s.far_ovf = &c->far_ovf[fl % 3];
    s.far_cap = a.far_cap;
    s.delta_mode = a.delta_mode;
    s.local_q = nullptr;
    s.local_w = nullptr;
    s.local_cnt = nullptr;
    s.defer_v = nullptr;
    s.defer_w = nullptr;
    s.defer_cnt = nullptr;
    s.seen = nullptr;
    s.chase = 0;
    s.has_heavy = a.has_heavy;
    s.r_stamp = 0;
    s.r_cnt = nullptr;
    return s;
  };

  // Every phase reads near list `it` (its count near_cnt[it % 3]), appends to
  // list it+1, clears the counter of list it+2, and ends at a grid barrier:
  // no counter is written in the phase where another block may still read it.
  for (;;) {
    // Light phase: rounds over the near frontier until bucket b is empty.
    for (;;) {
      const unsigned int k = __ldcg(&c->near_cnt[it % 3]);
      if (k == 0) break;
      if (it >= a.max_rounds) {
        if (leader) c->status = 1;
        goto done;
      }
      if (leader) c->near_cnt[(it + 2) % 3] = 0;
      Sink s = sink_for(it + 1);
      // Bellman-Ford stops the local waves once `it * local_rounds` reaches n,
      // so a negative cycle is still found within about 2n waves.
      const int lr = (a.delta_mode || it * a.local_rounds < a.n) ? a.local_rounds : 0;
      relax_list(a, s, near[it & 1], k, false, e + 1, &c->r_cnt[e & 1], relaxed, lr, seen);
      grid.sync();
      ++it;
    }
    // Heavy phase: the vertices settled in bucket b relax their heavy arcs once.
    if (a.has_heavy) {
      const unsigned int rc = __ldcg(&c->r_cnt[e & 1]);
      if (rc > 0) {
        if (leader) {
          c->r_cnt[(e + 1) & 1] = 0;
          c->near_cnt[(it + 2) % 3] = 0;
        }
        Sink s = sink_for(it + 1);
        relax_list(a, s, a.rlist, rc, true, 0, nullptr, relaxed, 0, seen);
        grid.sync();
        ++e;
        ++it;
        if (__ldcg(&c->near_cnt[it % 3]) > 0) continue;
      }
    }
    // Next bucket from the far pile.
    {
      const unsigned long long fc = __ldcg(&c->far_cnt[fl % 3]);
      const int ovf = __ldcg(&c->far_ovf[fl % 3]);
      if (fc == 0 && ovf == 0) break;
      const int nb = __ldcg(&c->far_min[fl % 3]);
      if (leader) {
        c->far_cnt[(fl + 2) % 3] = 0;
        c->far_min[(fl + 2) % 3] = kNoBucket;
        c->far_ovf[(fl + 2) % 3] = 0;
        c->near_cnt[(it + 2) % 3] = 0;
      }
      const int32_t* src = far[fl & 1];
      int32_t* dst = far[(fl + 1) & 1];
      unsigned long long* dst_cnt = &c->far_cnt[(fl + 1) % 3];
      int* dst_min = &c->far_min[(fl + 1) % 3];
      int* dst_ovf = &c->far_ovf[(fl + 1) % 3];
      int32_t* near_out = near[(it + 1) & 1];
      unsigned int* near_cnt = &c->near_cnt[(it + 1) % 3];
      const unsigned int near_stamp = static_cast<unsigned int>(it + 2);
      const unsigned int fstamp = static_cast<unsigned int>(fl + 1);
      const unsigned long long items =
          ovf ? static_cast<unsigned long long>(a.n) : (fc < a.far_cap ? fc : a.far_cap);
      for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(kThreads) + threadIdx.x;
           i < items; i += static_cast<unsigned long long>(gridDim.x) * kThreads) {
        const int32_t v = ovf ? static_cast<int32_t>(i) : __ldcg(src + i);
        const int bv = __ldcg(a.bucket + v);
        if (bv == kNoBucket || bv < nb) continue;
        if (bv == nb) {
          if (atomicExch(a.nstamp + v, near_stamp) != near_stamp) {
            near_out[group_append(near_cnt)] = v;
          }
        } else if (atomicExch(a.fstamp + v, fstamp) != fstamp) {
          cg::coalesced_group g = cg::coalesced_threads();
          unsigned long long slot = group_append(dst_cnt);
          if (slot < a.far_cap) dst[slot] = v; else *dst_ovf = 1;
          int mn = cg::reduce(g, bv, cg::less<int>());
          if (g.thread_rank() == 0) atomicMin(dst_min, mn);
        }
      }
      grid.sync();
      ++fl;
      ++it;
      b = nb;
      ++buckets;
    }
  }
done:
  // Sum the relaxation counts: one atomic per warp.
  {
    unsigned long long r = relaxed;
    for (int o = 16; o > 0; o >>= 1) r += __shfl_down_sync(0xffffffffu, r, o);
    if ((threadIdx.x & 31) == 0 && r != 0) atomicAdd(&c->relax, r);
  }
  if (leader) {
    c->rounds = it;
    c->buckets = buckets;
  }
}

// Set up: packed distances, bucket indices, stamps; the source in near list 0.
template <class W>
__global__ void frontier_init_kernel(FArgs<W> a) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < a.n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    a.packed[v] = (v == a.source) ? pack(Key<W>::of(W(0)), -1) : kUnreached;
    a.bucket[v] = (v == a.source) ? 0 : kNoBucket;
    a.nstamp[v] = 0;
    if (a.rstamp != nullptr) a.rstamp[v] = 0;
    if (a.fstamp != nullptr) a.fstamp[v] = 0;
    if (a.done_key != nullptr) a.done_key[v] = 0xffffffffu;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.near0[0] = a.source;
    a.nstamp[a.source] = 1;
    Ctrl* c = a.ctrl;
    for (int i = 0; i < 3; ++i) {
      c->near_cnt[i] = 0;
      c->far_cnt[i] = 0;
      c->far_min[i] = kNoBucket;
      c->far_ovf[i] = 0;
    }
    c->near_cnt[0] = 1;
    c->r_cnt[0] = c->r_cnt[1] = 0;
    c->status = 0;
    c->relax = 0;
    c->rounds = 0;
    c->buckets = 0;
  }
}

// Default delta (doc/gpu-sssp-family.md, "Choosing delta"): on the GPU a
// light round costs a grid barrier plus a chain of dependent memory
// latencies whatever its size, so few wide buckets beat many narrow ones.
// delta = kDeltaScale * max_weight / avg_out_degree (Meyer-Sanders' rule with
// a large constant); it needs no pass over the weights, and when it is at
// least the largest weight every arc is light and no split copy is made.
constexpr double kDeltaScale = 32.0;

double default_delta(const Graph& graph) {
  const double avg_deg =
      graph.n() > 0 ? std::max(1.0, static_cast<double>(graph.m()) / graph.n()) : 1.0;
  double d = kDeltaScale * graph.max_weight() / avg_deg;
  if (!(d > 0) || !std::isfinite(d)) d = graph.max_weight() > 0 ? graph.max_weight() : 1.0;
  return d;
}

// Reorder each vertex's arcs: light (w <= delta) first, heavy after; one
// warp per vertex, ballot-compacted.
template <class W>
__global__ void split_kernel(int32_t n, const int64_t* off, const int32_t* tgt, const W* wt,
                             double delta, int32_t* tgt2, W* wt2, int64_t* lend) {
  const int lane = threadIdx.x & 31;
  const unsigned lt = (1u << lane) - 1u;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  for (int64_t v = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32; v < n;
       v += warps) {
    const int64_t beg = off[v], end = off[v + 1];
    int64_t lpos = beg, hpos = end;
    for (int64_t base = beg; base < end; base += 32) {
      const int64_t j = base + lane;
      const bool valid = j < end;
      W w{};
      int32_t t = 0;
      if (valid) {
        w = wt[j];
        t = tgt[j];
      }
      const bool light = valid && static_cast<double>(w) <= delta;
      const bool heavy = valid && !light;
      const unsigned lm = __ballot_sync(0xffffffffu, light);
      const unsigned hm = __ballot_sync(0xffffffffu, heavy);
      if (light) {
        const int64_t p = lpos + __popc(lm & lt);
        tgt2[p] = t;
        wt2[p] = w;
      } else if (heavy) {
        const int64_t p = hpos - 1 - __popc(hm & lt);
        tgt2[p] = t;
        wt2[p] = w;
      }
      lpos += __popc(lm);
      hpos -= __popc(hm);
    }
    if (lane == 0) lend[v] = lpos;
  }
}

// The light arcs (off[v] .. lend[v]) in ELL form, kEllSlots per vertex (see
// kEllSlots); one thread per slot.
template <class W>
__global__ void ell_kernel(int32_t n, const int64_t* off, const int64_t* lend, const int32_t* tgt,
                           const W* wt, uint2* ell) {
  const int64_t slots = static_cast<int64_t>(n) * kEllSlots;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t v = i / kEllSlots;
    const int j = static_cast<int>(i % kEllSlots);
    const int64_t beg = off[v];
    const int64_t deg = lend[v] - beg;
    const bool more = deg > kEllSlots;
    uint2 e = make_uint2(kEllEmpty, 0u);
    if (j < (more ? kEllSlots - 1 : deg)) {
      e = make_uint2(static_cast<uint32_t>(tgt[beg + j]), weight_bits<W>(wt[beg + j]));
    } else if (more && j == kEllSlots - 1) {
      e.x = kEllMore;
    }
    ell[i] = e;
  }
}

template <class W>
void run(RunContext& ctx, const SsspJob& job, bool bellman_ford) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  if (!bellman_ford && graph.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                "delta-stepping needs non-negative weights (the graph has a negative arc); use "
                "GSP_SSSP_BELLMAN_FORD");
  }
  const double user_delta = job.options->delta;
  if (!bellman_ford && !(user_delta >= 0) ) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "delta must be >= 0");
  }
  fill_stats(ctx, job);
  DeviceCsr<W> g = device_graph<W>(ctx, graph);

  // Delta chosen by the engine on a graph of average out-degree above
  // kLocalWaveMaxDegree (random, power-law: few hops per shortest path):
  // one bucket (delta = infinity), run as the Bellman-Ford frontier without
  // bucket bookkeeping. Measured on the H100 against the default width:
  // R-MAT 1M/16M 5.03-5.09 vs 5.58-5.72 ms, a 1M x 8 random graph 2.94 vs
  // 3.41-3.49 ms, Graph65536 0.27-0.30 vs 0.28-0.31 ms, with as many or
  // fewer rounds (the width itself was not the cost: delta = 1e30 in bucket
  // mode took as long as the default). Weights are non-negative here, so
  // the Bellman-Ford round limit n is never reached.
  // GSP_CUDA_DS_ONE_BUCKET=0 keeps the buckets for benchmarking.
  const bool low_degree = n > 0 && static_cast<double>(m) / n <= kLocalWaveMaxDegree;
  bool one_bucket = !bellman_ford && !(user_delta > 0) && !low_degree;
  if (const char* e = std::getenv("GSP_CUDA_DS_ONE_BUCKET")) one_bucket = one_bucket && std::atoi(e) != 0;
  const bool delta_mode = !bellman_ford && !one_bucket;
  const double delta = delta_mode ? (user_delta > 0 ? user_delta : default_delta(graph)) : 0.0;
  // Physical light/heavy split only when some arc is heavy.
  const bool split = delta_mode && m > 0 && delta < graph.max_weight();
  FArgs<W> a{};
  a.n = n;
  a.source = job.source;
  a.delta_mode = delta_mode;
  a.has_heavy = split;
  a.inv_delta = delta_mode ? 1.0 / delta : 0.0;
  a.far_cap = delta_mode ? 2ull * static_cast<unsigned long long>(n) + 1024ull : 0ull;

  // Block-local asynchronous waves per light round (0: none, one wave per
  // grid barrier). They pay off on low-degree, long-path graphs (roads,
  // meshes: NY 7.96 -> 4.71 ms on the H100 with 8 waves; with the ELL waves
  // 16 beat 8: NY 3.55 -> 3.24 ms, 1024^2 grid 5.65 -> 5.09 ms) and hurt on
  // expanders, where a block's local queue explodes and the grid waits for it
  // (Graph65536 0.48 -> 0.86 ms, R-MAT 6.6 -> 23.6 ms), so they are used only
  // when the average out-degree is at most kLocalWaveMaxDegree.
  // GSP_CUDA_LOCAL_ROUNDS overrides it for benchmarking.
  a.local_rounds = low_degree ? kLocalWaves : 0;
  if (const char* e = std::getenv("GSP_CUDA_LOCAL_ROUNDS")) {
    a.local_rounds = std::clamp(std::atoi(e), 0, 1 << 20);
  }
  // Thread-level chasing (hops per improvement) inside the local waves: off
  // by default. Measured on the H100 (NY, L8): 152 -> 36 grid phases with 16
  // hops, but 4.46 -> 27 ms, since depth-first order relaxes vertices long
  // before their distance is final and the work explodes (doc, "Thread-level
  // chasing"). GSP_CUDA_CHASE turns it on for benchmarking.
  a.chase = a.local_rounds > 0 ? kChaseHops : 0;
  if (const char* e = std::getenv("GSP_CUDA_CHASE")) a.chase = std::clamp(std::atoi(e), 0, 1 << 20);
  // The local waves read the light arcs from an ELL copy (relax_wave_ell(),
  // 8 * kEllSlots bytes per vertex, built per run since the light set
  // depends on delta). GSP_CUDA_ELL=0 keeps them on the CSR (relax_tile())
  // for benchmarking; chasing needs the CSR path.
  bool use_ell = a.local_rounds > 0 && a.chase == 0 && n > 0;
  if (const char* e = std::getenv("GSP_CUDA_ELL")) use_ell = use_ell && std::atoi(e) != 0;
  // Speculative pushes in the ELL waves (relax_arc_spec()): they need every
  // weight > 0 (a distance must grow along each arc, so a vertex cannot be
  // re-offered the distance it already holds through a cycle).
  // GSP_CUDA_SPEC=0 turns them off for benchmarking.
  a.speculate = use_ell && delta_mode && graph.min_weight() > 0;
  if (const char* e = std::getenv("GSP_CUDA_SPEC")) a.speculate = a.speculate && std::atoi(e) != 0;
  // GSP_CUDA_SSSP_TIMING=1: print the time split of this run to stderr
  // (host clock for the allocation, CUDA events for the device stages).
  const bool timing = std::getenv("GSP_CUDA_SSSP_TIMING") != nullptr;
  StageTimer tm(timing, ctx.stream());
  Workspace ws;
  ws.add(&a.packed, n);
  ws.add(&a.bucket, n);
  ws.add(&a.nstamp, n);
  ws.add(&a.near0, n);
  ws.add(&a.near1, n);
  ws.add(&a.ctrl, 1);
  int32_t* tgt2 = nullptr;
  W* wt2 = nullptr;
  int64_t* lend = nullptr;
  if (delta_mode) {
    ws.add(&a.fstamp, n);
    ws.add(&a.far0, a.far_cap);
    ws.add(&a.far1, a.far_cap);
  }
  if (split) {
    ws.add(&a.rstamp, n);
    ws.add(&a.rlist, n);
    ws.add(&tgt2, static_cast<size_t>(m));
    ws.add(&wt2, static_cast<size_t>(m));
    ws.add(&lend, n);
  }
  uint2* ell = nullptr;
  if (use_ell) ws.add(&ell, static_cast<size_t>(n) * kEllSlots);
  if (a.speculate) ws.add(&a.done_key, n);
  ws.allocate(ctx, bellman_ford ? "Bellman-Ford frontier state" : "delta-stepping state");
  tm.host_mark();  // allocation done
  tm.mark();        // device: setup starts

  cudaStream_t st = ctx.stream();
  a.max_rounds = delta_mode ? std::numeric_limits<long long>::max() : n;  // BF: round n must improve nothing
  if (split) {
    split_kernel<W><<<grid_for(ctx, static_cast<int64_t>(n) * 32, 256), 256, 0, st>>>(
        n, g.offsets, g.targets, g.weights, delta, tgt2, wt2, lend);
    GSP_CUDA_LAUNCH();
    a.off = g.offsets;
    a.lend = lend;
    a.tgt = tgt2;
    a.wt = wt2;
  } else {
    // Every arc light: the graph's own arrays, heavy ranges empty.
    a.off = g.offsets;
    a.lend = g.offsets + 1;
    a.tgt = g.targets;
    a.wt = g.weights;
  }
  if (use_ell) {
    ell_kernel<W><<<grid_for(ctx, static_cast<int64_t>(n) * kEllSlots, 256), 256, 0, st>>>(
        n, a.off, a.lend, a.tgt, a.wt, ell);
    GSP_CUDA_LAUNCH();
    a.ell = ell;
  }
  // Zero the whole control block first: the init kernel sets the fields it
  // uses, and the block (padding included) is copied back whole at the end.
  GSP_CUDA(cudaMemsetAsync(a.ctrl, 0, sizeof(Ctrl), st));
  frontier_init_kernel<W><<<grid_for(ctx, n, 256), 256, 0, st>>>(a);
  GSP_CUDA_LAUNCH();

  auto kernel = frontier_kernel<W>;
  const int64_t useful = std::max<int64_t>(1, (std::max<int64_t>(n, m) + kThreads - 1) / kThreads);
  // Resident blocks per SM for the persistent kernel: fewer blocks make the
  // grid barrier cheaper, more hide latency on big frontiers. With local
  // waves 3 (as many as the registers allow) beat 2 since the speculative
  // pushes (H100: NY 2.66-2.69 vs 2.73-2.97 ms; 1024^2 grid 5.15 vs
  // 5.31 ms); without them 2 is kept (doc/gpu-sssp-family.md).
  // GSP_CUDA_PERSISTENT_BLOCKS_PER_SM (1..4) overrides it for benchmarking.
  int per_sm = a.local_rounds > 0 ? 3 : 2;
  if (const char* e = std::getenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM")) {
    per_sm = std::clamp(std::atoi(e), 1, 4);
  }
  const int blocks = coop_blocks(ctx, kernel, kThreads, per_sm, useful);
  // The filtering load before each atomicMin (relax()): kept in the global
  // tiles, dropped in the block-local waves, where a wave is one dependent
  // chain of L2 round trips (measured on the H100: NY 4.43 -> 4.11 ms).
  // GSP_CUDA_FILTER = both | global | none overrides it for benchmarking.
  a.filter_global = true;
  a.filter_local = false;
  if (const char* e = std::getenv("GSP_CUDA_FILTER")) {
    a.filter_global = std::strcmp(e, "none") != 0;
    a.filter_local = std::strcmp(e, "both") == 0;
  }
  void* params[] = {&a};
  tm.mark();  // setup done, persistent kernel starts
  GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks, kThreads, params,
                                       0, st));
  GSP_CUDA_LAUNCH();
  tm.mark();  // persistent kernel done

  Ctrl h{};
  GSP_CUDA(cudaMemcpyAsync(&h, a.ctrl, sizeof(Ctrl), cudaMemcpyDeviceToHost, st));
  ctx.sync();
  if (job.stats != nullptr) {
    job.stats->iterations = h.rounds;
    job.stats->relaxations = static_cast<int64_t>(h.relax);
  }
  if (h.status == 1) {
    if (bellman_ford) {
      throw Error(GSP_ERR_NEGATIVE_CYCLE,
                  "a negative cycle is reachable from source " + std::to_string(job.source) +
                      " (distances still improving after " + std::to_string(n) + " rounds)");
    }
    throw Error(GSP_ERR_INTERNAL, "delta-stepping did not converge");
  }
  // near0 / near1 are dead now: they hold dist and pred on the way out.
  static_assert(sizeof(W) == 4, "4-byte weights");
  finish<W>(ctx, job, g, a.packed, a.near0, a.near1, reinterpret_cast<int*>(a.bucket),
            timing ? &tm : nullptr);
  if (timing) {
    tm.report(bellman_ford ? "bellman-ford" : "delta-stepping", n, m, blocks, h.rounds,
              a.local_rounds, a.chase);
  }
  job.options->report(1.0);
}

}  // namespace

void frontier_sssp(RunContext& ctx, const SsspJob& job, bool bellman_ford) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run<decltype(w)>(ctx, job, bellman_ford); });
}

}  // namespace gsp::detail::gpu::family

namespace gsp::detail::gpu {

void sssp_delta_stepping(RunContext& ctx, const SsspJob& job) {
  family::frontier_sssp(ctx, job, false);
}

}  // namespace gsp::detail::gpu
