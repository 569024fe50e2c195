// The frontier engine's kernels (sssp_delta_stepping.cu): the persistent
// bucket-loop kernel, its initialisation, and the per-run light/heavy arc
// split and ELL copy.
#pragma once

#include "sssp/frontier_relax.cuh"

namespace gsp::detail::gpu::family {
namespace {

// Resident blocks per SM the persistent kernel's registers must allow
// (FrontierPolicy::per_sm is 3 on road graphs and in batched passes): at
// most 85 registers a thread. Without this bound ptxas (CUDA 13.0, sm_90)
// gave the float kernel 64 registers and 112 bytes of spills, and NY
// single-source delta-stepping ran 3-9% slower; with it both weight types
// get 80 registers and 16-24 bytes of spills.
constexpr int kFrontierMinBlocksPerSm = 3;

// Where a phase's improvements go: near list `list_index` (its counter
// near_cnt[list_index % 3], stamped list_index + 1), far pile generation
// `fl`; bucket b is the current one. No block-local queue, deferral or
// speculation cache: relax_list sets those up itself.
template <class W>
__device__ __forceinline__ Sink<W> phase_sink(const FArgs<W>& a, Ctrl* c, int32_t* const (&near)[2],
                                              int32_t* const (&far)[2], HubEntry* const (&hub)[2], int b, double inv,
                                              long long list_index, long long fl) {
  Sink<W> s;
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
  s.hub_out = a.hub_arcs > 0 ? hub[list_index & 1] : nullptr;
  s.hub_cnt = &c->hub_cnt[list_index % 3];
  s.hub_arcs = a.hub_arcs;
  return s;
}

// GSP_CUDA_TRACE: the leader records the start of phase `it` (kind, frontier
// size k, hub entries h).
template <class W>
__device__ __forceinline__ void trace_phase(const FArgs<W>& a, bool leader, long long it, unsigned long long kind,
                                            unsigned long long k, unsigned long long h) {
  if (a.trace == nullptr || !leader || it >= kTraceCap) return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  a.trace[2 * it] = now;
  a.trace[2 * it + 1] = kind << 62 | (h & 0x3fffffffull) << 32 | (k & 0xffffffffull);
}

// Opens bucket nb from far pile generation fl (fc entries, or every vertex
// where the pile overflowed): its vertices go to near list it + 1, those of
// later buckets to pile fl + 1 (with that pile's least bucket); vertices of
// earlier buckets and settled ones (kNoBucket) drop out. The leader clears
// the counters of pile fl + 2 and near list it + 2 on the way.
template <class W>
__device__ __forceinline__ void open_bucket_from_far(const FArgs<W>& a, Ctrl* c, int32_t* const (&near)[2],
                                                     int32_t* const (&far)[2], bool leader, long long it, long long fl,
                                                     unsigned long long fc, int ovf, int nb) {
  if (leader) {
    c->far_cnt[(fl + 2) % 3] = 0;
    c->far_min[(fl + 2) % 3] = kNoBucket;
    c->far_ovf[(fl + 2) % 3] = 0;
    c->near_cnt[(it + 2) % 3] = 0;
    c->hub_cnt[(it + 2) % 3] = 0;
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
  const unsigned long long items = ovf ? static_cast<unsigned long long>(a.n) : (fc < a.far_cap ? fc : a.far_cap);
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(kThreads) + threadIdx.x; i < items;
       i += static_cast<unsigned long long>(gridDim.x) * kThreads) {
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
      if (slot < a.far_cap)
        dst[slot] = v;
      else
        *dst_ovf = 1;
      int mn = cg::reduce(g, bv, cg::less<int>());
      if (g.thread_rank() == 0) atomicMin(dst_min, mn);
    }
  }
}

template <class W>
__global__ void __launch_bounds__(kThreads, kFrontierMinBlocksPerSm) frontier_kernel(FArgs<W> a) {
  cg::grid_group grid = cg::this_grid();
  Ctrl* c = a.ctrl;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  const double inv = a.delta_mode ? a.inv_delta : 0.0;
  unsigned long long relaxed = 0;
  long long it = 0;    // light rounds done; near list `it` is the one to read
  unsigned int e = 0;  // heavy epochs
  long long fl = 0;    // far pile generation
  int b = 0;           // current bucket
  long long buckets = 1;
  int32_t* near[2] = {a.near0, a.near1};
  int32_t* far[2] = {a.far0, a.far1};
  HubEntry* hub[2] = {a.hub0, a.hub1};
  constexpr unsigned int kSeenSlots = kSeenSlotsOf<W>;
  __shared__ WordOf<W> seen[kSeenSlots];
  if (a.speculate) {
    for (unsigned int i = threadIdx.x; i < kSeenSlots; i += kThreads) seen[i] = unreached_word<WordOf<W>>();
    __syncthreads();
  }

  // Every phase reads near list `it` (its count near_cnt[it % 3]) and hub
  // list `it`, appends to lists it+1, clears the counters of lists it+2, and
  // ends at a grid barrier: no counter is written in the phase where another
  // block may still read it.
  for (;;) {
    // Light phase: rounds over the near frontier (and the hubs the last
    // phase left) until bucket b is empty.
    for (;;) {
      const unsigned int k = __ldcg(&c->near_cnt[it % 3]);
      const unsigned int h = min(__ldcg(&c->hub_cnt[it % 3]), kHubCap);
      if (k == 0 && h == 0) break;
      if (it >= a.max_rounds) {
        if (leader) c->status = 1;
        goto done;
      }
      trace_phase(a, leader, it, kTraceLight, k, h);
      if (leader) {
        c->near_cnt[(it + 2) % 3] = 0;
        c->hub_cnt[(it + 2) % 3] = 0;
      }
      Sink<W> s = phase_sink(a, c, near, far, hub, b, inv, it + 1, fl);
      if (h > 0) relax_hub_list(a, s, hub[it & 1], h, relaxed);
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
        trace_phase(a, leader, it, kTraceHeavy, rc, 0);
        if (leader) {
          c->r_cnt[(e + 1) & 1] = 0;
          c->near_cnt[(it + 2) % 3] = 0;
          c->hub_cnt[(it + 2) % 3] = 0;
        }
        Sink<W> s = phase_sink(a, c, near, far, hub, b, inv, it + 1, fl);
        relax_list(a, s, a.rlist, rc, true, 0, nullptr, relaxed, 0, seen);
        grid.sync();
        ++e;
        ++it;
        if (__ldcg(&c->near_cnt[it % 3]) > 0 || __ldcg(&c->hub_cnt[it % 3]) > 0) continue;
      }
    }
    // Bucket b is done: every label in it or below is final. A search for
    // one vertex's distance may stop here once that vertex is among them
    // (the caller cuts the later buckets' labels: cut_unsettled_kernel).
    // bucket[] was last written before the last barrier: every block reads
    // the same value and leaves the loop together.
    if (a.stop_vertex >= 0 && __ldcg(a.bucket + a.stop_vertex) <= b) {
      if (leader) {
        c->stopped = 1;
        c->stop_bucket = b;
      }
      break;
    }
    // Next bucket from the far pile; none left: the search is over.
    const unsigned long long fc = __ldcg(&c->far_cnt[fl % 3]);
    const int ovf = __ldcg(&c->far_ovf[fl % 3]);
    if (fc == 0 && ovf == 0) break;
    const int nb = __ldcg(&c->far_min[fl % 3]);
    trace_phase(a, leader, it, kTraceOpen, fc, 0);
    open_bucket_from_far(a, c, near, far, leader, it, fl, fc, ovf, nb);
    grid.sync();
    ++fl;
    ++it;
    b = nb;
    ++buckets;
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
  trace_phase(a, leader, it, 3, 0, 0);  // the end
}

// Set up: packed distances, bucket indices, stamps; the source of each copy
// (one search: the source) in near list 0, at the slot of its copy.
template <class W>
__global__ void frontier_init_kernel(FArgs<W> a) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < a.n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int32_t copy = 0;
    bool is_source = v == a.source;
    if (a.copy_n != 0) {
      copy = static_cast<int32_t>(v / a.copy_n);
      is_source = v - static_cast<int64_t>(copy) * a.copy_n == a.sources[copy];
    }
    LabelState<W> st{};
    st.packed = is_source ? make_word<W, LabelWord<W>>(Key<W>::of(W(0)), -1) : unreached_word<LabelWord<W>>();
    st.bucket = is_source ? 0 : kNoBucket;
    st.nstamp = is_source ? 1u : 0u;
    st.fstamp = 0;
    st.rstamp = 0;
    st.done_key = ~typename Key<W>::K(0);
    a.labels[v] = st;
    if (is_source) a.near0[copy] = static_cast<int32_t>(v);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Ctrl* c = a.ctrl;
    for (int i = 0; i < 3; ++i) {
      c->near_cnt[i] = 0;
      c->hub_cnt[i] = 0;
      c->far_cnt[i] = 0;
      c->far_min[i] = kNoBucket;
      c->far_ovf[i] = 0;
    }
    c->near_cnt[0] = a.copy_n != 0 ? static_cast<unsigned int>(a.n / a.copy_n) : 1u;
    c->r_cnt[0] = c->r_cnt[1] = 0;
    c->status = 0;
    c->stopped = 0;
    c->stop_bucket = 0;
    c->relax = 0;
    c->rounds = 0;
    c->buckets = 0;
  }
}

// After a search that stopped once its stop vertex was final: the labels
// beyond the last bucket done are not final, and become unreached, so the
// row is the full one cut at that bucket's end (its vertices' words and
// parents are final, and so are the parents' own).
template <class W>
__global__ void cut_unsettled_kernel(FArgs<W> a, int last_bucket) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < a.n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (a.bucket[v] > last_bucket) a.packed[v] = unreached_word<LabelWord<W>>();
  }
}

// Reorder each vertex's arcs: light (w <= delta) first, heavy after; one
// warp per vertex, ballot-compacted.
template <class W>
__global__ void split_kernel(int32_t n, const int64_t* off, const int32_t* tgt, const W* wt, double delta,
                             int32_t* tgt2, W* wt2, int64_t* lend) {
  const int lane = threadIdx.x & 31;
  const unsigned lt = (1u << lane) - 1u;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  for (int64_t v = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32; v < n; v += warps) {
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
__global__ void ell_kernel(int32_t n, const int64_t* off, const int64_t* lend, const int32_t* tgt, const W* wt,
                           EllEntry<W>* ell) {
  const int64_t slots = static_cast<int64_t>(n) * kEllSlots;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t v = i / kEllSlots;
    const int j = static_cast<int>(i % kEllSlots);
    const int64_t beg = off[v];
    const int64_t deg = lend[v] - beg;
    const bool more = deg > kEllSlots;
    EllEntry<W> e = make_ell<W>(kEllEmpty, W(0));
    if (j < (more ? kEllSlots - 1 : deg)) {
      e = make_ell<W>(static_cast<uint32_t>(tgt[beg + j]), wt[beg + j]);
    } else if (more && j == kEllSlots - 1) {
      e.x = kEllMore;
    }
    ell[i] = e;
  }
}

}  // namespace
}  // namespace gsp::detail::gpu::family
