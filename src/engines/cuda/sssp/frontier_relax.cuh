// The frontier engine's relaxation code (sssp_delta_stepping.cu): queueing
// improved vertices, relaxing one arc, a tile of frontier vertices (block
// scan over degrees) or a wave over the ELL copy, and a whole frontier list.
#pragma once

#include <cub/block/block_scan.cuh>

#include "sssp/frontier_state.cuh"

namespace gsp::detail::gpu::family {
namespace {

// Queue v, whose label became `word` (the queue word pack(key, parent)),
// for the current bucket: in the block's local queue while it has room, else
// in the global next frontier (once per round, by the stamp).
template <class W>
__device__ __forceinline__ void push_near(const FArgs<W>& a, const Sink<W>& s, int32_t v, WordOf<W> word) {
  if (s.local_q != nullptr) {
    const unsigned int slot = atomicAdd(s.local_cnt, 1u);
    if (slot < kLocalCapOf<W>) {
      s.local_q[slot] = v;
      s.local_w[slot] = word;
      return;
    }
  }
  if (atomicExch(a.nstamp + v, s.near_stamp) != s.near_stamp) {
    s.near_out[group_append(s.near_cnt)] = v;
  }
}

// v's distance just dropped to cand (through arc u -> v): queue it when it
// stays in the current bucket, else put it in the far pile.
template <class W>
__device__ __forceinline__ void on_improved(const FArgs<W>& a, const Sink<W>& s, int32_t u, int32_t v, W cand) {
  if (!s.delta_mode) {
    push_near(a, s, v, pack(Key<W>::of(cand), u));
    return;
  }
  const int nb = bucket_of(static_cast<double>(cand), s.inv);
  if (nb <= s.cur_b) {
    atomicMin(a.bucket + v, nb);  // result unused: a fire-and-forget reduction
    push_near(a, s, v, pack(Key<W>::of(cand), u));
    return;
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
  const auto k = Key<W>::of(cand);
  const auto old = word_min(a.packed + v, make_word<W, LabelWord<W>>(k, u));
  return is_unreached(old) || key_in<W>(old) > k;
}

// Relax arc u -> v of weight w (du: u's distance) and schedule v when its
// distance dropped.
template <class W>
__device__ __forceinline__ void relax_arc(const FArgs<W>& a, const Sink<W>& s, int32_t u, W du, int32_t v, W w,
                                          bool filter, unsigned long long& relaxed) {
  W cand;
  ++relaxed;
  if (!Key<W>::add(du, w, &cand)) return;
  if (!relax(a, u, v, cand, filter)) return;
  on_improved(a, s, u, v, cand);
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
__device__ __forceinline__ void relax_arc_spec(const FArgs<W>& a, const Sink<W>& s, int32_t u, W du, int32_t v, W w,
                                               unsigned long long& relaxed) {
  W cand;
  ++relaxed;
  if (!Key<W>::add(du, w, &cand)) return;
  const auto k = Key<W>::of(cand);
  const auto word = pack(k, u);                         // the queue word
  const auto label = make_word<W, LabelWord<W>>(k, u);  // the same for 4-byte W
  const int nb = bucket_of(static_cast<double>(cand), s.inv);
  if (nb <= s.cur_b) {
    word_min(a.packed + v, label);  // results unused: reductions
    atomicMin(a.bucket + v, nb);
    push_near(a, s, v, word);
    return;
  }
  const unsigned int slot = atomicAdd(s.defer_cnt, 1u);
  if (slot < kDeferCap) {
    word_min(a.packed + v, label);
    s.defer_v[slot] = v;
    s.defer_w[slot] = word;
    return;
  }
  if (relax(a, u, v, cand, false)) on_improved(a, s, u, v, cand);
}

template <class W>
struct TileSmem {
  int32_t u[kThreads];
  int32_t base[kThreads];  // copy_base() of u
  W du[kThreads];
  long long beg[kThreads];
  long long off[kThreads];
  unsigned char heavy[kThreads];  // a heavy phase's arcs (FArgs::split_filter)
  long long total;
};

// Relax the light (heavy == false) or heavy arcs of list[first .. first+items),
// items <= kThreads; list is in global memory, or in shared memory when
// from_smem. Every thread of the block calls it. A vertex of a global list
// with more than s.hub_arcs arcs goes to the hub list instead (while it has
// room), and the whole grid relaxes its arcs in the next phase. With hubs
// (then list is unused) the tile is hubs[first .. first+items), and this
// block relaxes its share of the tile's arcs: the grid's blocks split them
// evenly, whatever one hub's degree (relax_hub_list()).
template <class W>
__device__ void relax_tile(const FArgs<W>& a, const Sink<W>& s, const int32_t* list, bool from_smem, long long first,
                           int items, bool heavy, unsigned int r_stamp, unsigned int* r_cnt,
                           unsigned long long& relaxed, const HubEntry* hubs = nullptr) {
  const bool filter = from_smem ? a.filter_local : a.filter_global;
  using Scan = cub::BlockScan<long long, kThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ TileSmem<W> t;
  long long deg = 0;
  if (static_cast<int>(threadIdx.x) < items) {
    int32_t u, ub;
    long long beg, end;
    bool hv = heavy;
    if (hubs != nullptr) {
      const HubEntry h = hubs[first + threadIdx.x];
      u = h.u;
      ub = h.base;
      beg = h.beg;
      end = h.end;
      hv = h.heavy != 0;
    } else {
      u = from_smem ? list[first + threadIdx.x] : __ldcg(list + first + threadIdx.x);
      ub = copy_base(a, u);
      beg = (heavy && !a.split_filter) ? a.lend[u - ub] : a.off[u - ub];
      end = heavy ? a.off[u - ub + 1] : a.lend[u - ub];
      if (!heavy && a.has_heavy) {
        if (atomicExch(a.rstamp + u, r_stamp) != r_stamp) a.rlist[group_append(r_cnt)] = u;
      }
    }
    const W du = dist_of<W>(load_word(a.packed + u));
    deg = end - beg;
    if (hubs == nullptr && !from_smem && s.hub_out != nullptr && deg > s.hub_arcs) {
      const unsigned int slot = atomicAdd(s.hub_cnt, 1u);
      if (slot < kHubCap) {
        s.hub_out[slot] = HubEntry{beg, end, u, ub, hv ? 1 : 0, 0};
        deg = 0;
      }
    }
    t.u[threadIdx.x] = u;
    t.base[threadIdx.x] = ub;
    t.du[threadIdx.x] = du;
    t.beg[threadIdx.x] = beg;
    t.heavy[threadIdx.x] = hv ? 1 : 0;
  }
  long long excl = 0, total = 0;
  Scan(scan_tmp).ExclusiveSum(deg, excl, total);
  t.off[threadIdx.x] = excl;
  if (threadIdx.x == 0) t.total = total;
  __syncthreads();
  total = t.total;
  long long lo = 0, hi = total;
  if (hubs != nullptr) {
    lo = total * blockIdx.x / gridDim.x;
    hi = total * (blockIdx.x + 1) / gridDim.x;
  }
  for (long long j = lo + threadIdx.x; j < hi; j += kThreads) {
    int lo_i = 0, hi_i = items - 1;
    while (lo_i < hi_i) {
      const int mid = (lo_i + hi_i + 1) >> 1;
      if (t.off[mid] <= j)
        lo_i = mid;
      else
        hi_i = mid - 1;
    }
    const long long arc = t.beg[lo_i] + (j - t.off[lo_i]);
    const W w = a.wt[arc];
    if (a.split_filter && ((static_cast<double>(w) > a.delta) != (t.heavy[lo_i] != 0))) continue;
    relax_arc(a, s, t.u[lo_i], t.du[lo_i], a.tgt[arc] + t.base[lo_i], w, filter, relaxed);
  }
  __syncthreads();
}

// The hub list of this phase, hubs[0 .. count): every block relaxes its
// share of each tile of kThreads entries (relax_tile()), with each hub's
// distance as it is now. Every thread of every block calls it.
template <class W>
__device__ void relax_hub_list(const FArgs<W>& a, const Sink<W>& s, const HubEntry* hubs, unsigned int count,
                               unsigned long long& relaxed) {
  for (unsigned int first = 0; first < count; first += kThreads) {
    relax_tile(a, s, nullptr, false, first, static_cast<int>(min(count - first, static_cast<unsigned int>(kThreads))),
               false, 0, nullptr, relaxed, hubs);
  }
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
__device__ void relax_wave_ell(const FArgs<W>& a, const Sink<W>& s, const int32_t* q, const WordOf<W>* qw,
                               unsigned int have, bool from_global, unsigned int r_stamp, unsigned int* r_cnt,
                               unsigned long long& relaxed) {
  const int slot = static_cast<int>(threadIdx.x) % kEllSlots;
  const bool filter = from_global ? a.filter_global : a.filter_local;
  for (unsigned int i = threadIdx.x / kEllSlots; i < have; i += kThreads / kEllSlots) {
    const int32_t u = from_global ? __ldcg(q + i) : q[i];
    const int32_t ub = copy_base(a, u);
    const EllEntry<W> e = __ldg(a.ell + static_cast<size_t>(u - ub) * kEllSlots + slot);
    const LabelWord<W> pu = load_word(a.packed + u);
    WordOf<W> word = queue_word<W>(pu);
    if (qw != nullptr) {
      word = qw[i];
      const auto k = key_of(word);
      const auto done = __ldcg(a.done_key + u);
      const WordOf<W> tag = pack(k, u);
      // One thread per entry claims the (key, vertex) pair in the cache; the
      // entry's other slots follow its decision through the warp.
      bool dup = false;
      if (slot == 0) dup = same_word(word_exch(s.seen + (hash_vertex(u) & (kSeenSlotsOf<W> - 1)), tag), tag);
      dup = __shfl_sync(entry_mask(), dup, 0, kEllSlots);
      if (dup || key_in<W>(pu) < k || done <= k) continue;  // lowered since: its improver schedules u
      if (slot == 0) atomicMin(a.done_key + u, k);
    } else if (a.speculate && slot == 0) {
      atomicMin(a.done_key + u, key_in<W>(pu));
    }
    const W du = dist_of<W>(word);
    if (a.has_heavy && slot == 0) {
      if (atomicExch(a.rstamp + u, r_stamp) != r_stamp) a.rlist[group_append(r_cnt)] = u;
    }
    if (e.x < kEllMore) {
      const int32_t v = static_cast<int32_t>(e.x) + ub;
      const W w = ell_weight<W>(e);
      if (qw == nullptr) {
        relax_arc(a, s, u, du, v, w, filter, relaxed);
      } else if (v != word_parent(word)) {
        relax_arc_spec(a, s, u, du, v, w, relaxed);
      }
    } else if (e.x == kEllMore) {
      const long long end = a.lend[u - ub];
      for (long long arc = a.off[u - ub] + (kEllSlots - 1); arc < end; ++arc) {
        if (qw == nullptr) {
          relax_arc(a, s, u, du, a.tgt[arc] + ub, a.wt[arc], filter, relaxed);
        } else {
          relax_arc_spec(a, s, u, du, a.tgt[arc] + ub, a.wt[arc], relaxed);
        }
      }
    }
  }
}

// The speculative pushes to later buckets of this round (relax_arc_spec()):
// each one whose distance is still v's goes to the far pile now. Every
// thread of the block calls it after the last wave.
template <class W>
__device__ void flush_deferred(const FArgs<W>& a, const Sink<W>& s) {
  const unsigned int have = min(*s.defer_cnt, kDeferCap);
  for (unsigned int i = threadIdx.x; i < have; i += kThreads) {
    const int32_t v = s.defer_v[i];
    const WordOf<W> word = s.defer_w[i];
    if (key_in<W>(load_word(a.packed + v)) < key_of(word)) continue;
    on_improved(a, s, word_parent(word), v, dist_of<W>(word));
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
__device__ void relax_list(const FArgs<W>& a, Sink<W> s, const int32_t* list, unsigned int count, bool heavy,
                           unsigned int r_stamp, unsigned int* r_cnt, unsigned long long& relaxed, int local_rounds,
                           WordOf<W>* seen) {
  constexpr unsigned int kLocalCap = kLocalCapOf<W>;
  __shared__ int32_t lq[2][kLocalCap];
  __shared__ WordOf<W> lw[2][kLocalCap];
  // Wave r reads lq[r & 1] (count lcnt[r % 3]), appends to lq[(r + 1) & 1]
  // (lcnt[(r + 1) % 3]) and clears lcnt[(r + 2) % 3], which wave r - 1 read
  // before the barrier that ends it: one barrier per wave.
  __shared__ unsigned int lcnt[3];
  __shared__ int32_t defer_v[kDeferCap];
  __shared__ WordOf<W> defer_w[kDeferCap];
  __shared__ unsigned int defer_cnt;
  const bool local = !heavy && local_rounds > 0;
  const bool spec = local && a.speculate;
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
    const WordOf<W>* qw = spec ? lw[round & 1] : nullptr;
    s.local_q = lq[(round + 1) & 1];
    s.local_w = lw[(round + 1) & 1];
    s.local_cnt = &lcnt[(round + 1) % 3];
    if (a.ell != nullptr) {
      relax_wave_ell(a, s, q, qw, have, false, r_stamp, r_cnt, relaxed);
    } else {
      for (unsigned int first = 0; first < have; first += kThreads) {
        relax_tile(a, s, q, true, first, static_cast<int>(min(have - first, static_cast<unsigned int>(kThreads))),
                   false, r_stamp, r_cnt, relaxed);
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
      const auto k = key_of(lw[round & 1][i]);
      if (key_in<W>(load_word(a.packed + v)) < k || __ldcg(a.done_key + v) <= k) continue;
    }
    if (atomicExch(a.nstamp + v, s.near_stamp) != s.near_stamp) {
      s.near_out[group_append(s.near_cnt)] = v;
    }
  }
  if (spec) flush_deferred(a, s);
  __syncthreads();
}

}  // namespace
}  // namespace gsp::detail::gpu::family
