// GSP_SSSP_ATOMIC_LOCK (after Liu & Wang's Advanced_Atomics_SSSP) and
// its lock-free variant GSP_SSSP_ATOMIC_64.
//
// Both alternate two kernels until no vertex is marked:
//   Relax:  every marked vertex u offers cost[u] + w(u,v) to each head v;
//   Update: every v whose offered value beats its cost takes it and is
//           marked for the next Relax.
// ATOMIC_LOCK keeps the pair (offered distance, parent) of each vertex under
// one lock per vertex (atomicCAS acquire / atomicExch release), so the parent
// always belongs to the distance. ATOMIC_64 packs the pair into one 64-bit
// word, distance bits high and parent low, and lowers it with a single
// atomicMin; a double distance does not fit beside a 32-bit parent, so with
// GSP_F64 the word is 128 bits, lowered by a 16-byte atomicCAS loop (sm_90;
// runtime/weight_traits.cuh). doc/gpu-sssp.md records how this differs from
// the paper.
// The run around the kernels (workspace, loop, stages, copies) is
// sssp::run_iterative (sssp_iterative.cuh); each engine is a struct below.
#include "runtime/engines.cuh"
#include "sssp/sssp_iterative.cuh"

namespace gsp::detail::gpu {
namespace {

using sssp::DevDist;

template <class W>
__global__ void lock_init_kernel(int32_t n, int32_t source, W* cost, W* offer, int32_t* parent, int* lock,
                                 unsigned char* mask) {
  // 64-bit: the last block's indices may pass INT32_MAX when n is near it.
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const W init = v == source ? W(0) : DevDist<W>::inf();
  cost[v] = init;
  offer[v] = init;
  parent[v] = -1;
  lock[v] = 0;
  mask[v] = v == source ? 1 : 0;
}

// Relax: a group of G lanes per vertex. The lock protects offer[v] and
// parent[v]; cost[] is only written by the Update kernel, so cost[u] is
// stable here.
template <class W, int G>
__global__ void lock_relax_kernel(DeviceCsr<W> g, const W* __restrict__ cost, W* offer, int32_t* parent, int* lock,
                                  const unsigned char* __restrict__ mask) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t u = t / G;
  const int lane = static_cast<int>(t % G);
  if (u >= g.n || mask[u] == 0) return;
  const W du = cost[u];
  const int64_t end = g.offsets[u + 1];
  volatile W* voffer = offer;
  volatile int32_t* vparent = parent;
  for (int64_t e = g.offsets[u] + lane; e < end; e += G) {
    const int32_t v = g.targets[e];
    W cand;
    if (!DevDist<W>::add(du, g.weights[e], &cand)) continue;  // int32: the final pass reports it
    // Cheap filter without the lock: offer[v] only decreases, so a
    // candidate that does not beat a (possibly stale) value never will.
    if (!(cand < voffer[v])) continue;
    // Acquire the vertex lock. The whole critical section sits inside the
    // branch that won the CAS, and a losing lane simply loops: with Volta's
    // independent thread scheduling the holder is scheduled while others
    // spin, and on older GPUs the winning branch runs to its release before
    // the warp reconverges, so neither can deadlock a warp.
    bool done = false;
    while (!done) {
      if (atomicCAS(&lock[v], 0, 1) == 0) {
        __threadfence();  // acquire: see the previous holder's writes
        // Re-read under the lock: the value read above may be stale.
        if (cand < voffer[v]) {
          voffer[v] = cand;
          vparent[v] = static_cast<int32_t>(u);
        }
        __threadfence();  // release: publish before unlocking
        atomicExch(&lock[v], 0);
        done = true;
      } else {
#if __CUDA_ARCH__ >= 700
        __nanosleep(20);
#endif
      }
    }
  }
}

// Update: takes improved offers, marks them; records the iteration in
// *last_marked when any vertex was marked. Every lane of a warp reaches the
// vote (no early return).
template <class W>
__global__ void lock_update_kernel(int32_t n, W* cost, const W* __restrict__ offer, unsigned char* mask,
                                   int* last_marked, int iter) {
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool marked = false;
  if (v < n) {
    const W o = offer[v];
    if (o < cost[v]) {
      cost[v] = o;
      marked = true;
    }
    mask[v] = marked ? 1 : 0;
  }
  if (__any_sync(0xffffffffu, marked) && (threadIdx.x & 31) == 0) atomicMax(last_marked, iter);
}

// ---------------------------------------------------------------- packed 64-bit

// The word of a W distance: 64 bits (float, int32), 128 bits (double).
template <class W>
using WordOf = PackedWord<typename DevDist<W>::Bits>;

template <class W>
__global__ void packed_init_kernel(int32_t n, int32_t source, W* cost, WordOf<W>* word, unsigned char* mask) {
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const W init = v == source ? W(0) : DevDist<W>::inf();
  cost[v] = init;
  word[v] = pack_word(DevDist<W>::bits(init), -1);
  mask[v] = v == source ? 1 : 0;
}

// Relax with one 64-bit atomicMin (128-bit CAS loop for double) per improving arc. Distances are >= 0, so
// their bit patterns order like their values; the distance is in the high
// half, so the minimum is decided by distance first. The pre-check keeps
// offers of an equal distance out (they could only swap the parent for a
// smaller id of the same distance, and with zero-weight arcs that could close
// a parent cycle with a vertex relaxed from v in an earlier iteration).
template <class W, int G>
__global__ void packed_relax_kernel(DeviceCsr<W> g, const W* __restrict__ cost, WordOf<W>* word,
                                    const unsigned char* __restrict__ mask) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t u = t / G;
  const int lane = static_cast<int>(t % G);
  if (u >= g.n || mask[u] == 0) return;
  const W du = cost[u];
  const int64_t end = g.offsets[u + 1];
  volatile WordOf<W>* vword = word;
  for (int64_t e = g.offsets[u] + lane; e < end; e += G) {
    const int32_t v = g.targets[e];
    W cand;
    if (!DevDist<W>::add(du, g.weights[e], &cand)) continue;
    const auto cbits = DevDist<W>::bits(cand);
    if (cbits >= word_key(load_word_volatile(vword + v))) continue;
    word_min(&word[v], pack_word(cbits, static_cast<int32_t>(u)));
  }
}

template <class W>
__global__ void packed_update_kernel(int32_t n, W* cost, const WordOf<W>* __restrict__ word, unsigned char* mask,
                                     int* last_marked, int iter) {
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool marked = false;
  if (v < n) {
    const W o = DevDist<W>::from_bits(word_key(word[v]));
    if (o < cost[v]) {
      cost[v] = o;
      marked = true;
    }
    mask[v] = marked ? 1 : 0;
  }
  if (__any_sync(0xffffffffu, marked) && (threadIdx.x & 31) == 0) atomicMax(last_marked, iter);
}

template <class Word>
__global__ void packed_parents_kernel(int32_t n, int32_t source, const Word* __restrict__ word, int32_t* parent) {
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  parent[v] = v == source ? -1 : word_parent(word[v]);
}

// ---------------------------------------------------------------- engines

unsigned vertex_blocks(int32_t n) {
  // Rounded up to whole warps: the update kernel votes across full warps.
  return blocks_for(n, sssp::kThreads);
}

// Each engine supplies its arrays and launches to sssp::run_iterative
// (sssp_iterative.cuh), which runs the stages.

template <class W>
struct LockEngine {
  using Weight = W;
  static constexpr const char* kWorkName = "atomic-lock work arrays";
  static constexpr bool kPathsPass = false;  // predecessors are recorded by the search: no paths stage

  W *cost = nullptr, *offer = nullptr;
  int32_t* parent = nullptr;
  int *lock = nullptr, *ctrl = nullptr;
  unsigned char* mask = nullptr;

  void reserve(Workspace& work, int32_t n, const SsspJob&) {
    work.add(&cost, n);
    work.add(&offer, n);
    work.add(&parent, n);
    work.add(&lock, n);
    work.add(&mask, n);
    work.add(&ctrl, 2);
  }
  void init(const SsspJob& job, int32_t n, cudaStream_t s) {
    GSP_CUDA(cudaMemsetAsync(ctrl, 0xff, 2 * sizeof(int), s));  // ctrl[0] = last marked = -1
    lock_init_kernel<W><<<vertex_blocks(n), sssp::kThreads, 0, s>>>(n, job.source, cost, offer, parent, lock, mask);
  }
  template <int G>
  void relax(const DeviceCsr<W>& g, unsigned relax_blocks, cudaStream_t s) {
    lock_relax_kernel<W, G><<<relax_blocks, sssp::kThreads, 0, s>>>(g, cost, offer, parent, lock, mask);
  }
  void update(int32_t n, int it, cudaStream_t s) {
    lock_update_kernel<W><<<vertex_blocks(n), sssp::kThreads, 0, s>>>(n, cost, offer, mask, ctrl, it);
  }
};

template <class W>
struct PackedEngine {
  using Weight = W;
  static constexpr const char* kWorkName = "atomic-64 work arrays";
  static constexpr bool kPathsPass = true;  // paths: the parents split from the packed words

  W* cost = nullptr;
  WordOf<W>* word = nullptr;
  int32_t* parent = nullptr;
  int* ctrl = nullptr;
  unsigned char* mask = nullptr;

  void reserve(Workspace& work, int32_t n, const SsspJob& job) {
    work.add(&word, n);
    work.add(&cost, n);
    if (job.pred != nullptr) work.add(&parent, n);
    work.add(&mask, n);
    work.add(&ctrl, 2);
  }
  void init(const SsspJob& job, int32_t n, cudaStream_t s) {
    GSP_CUDA(cudaMemsetAsync(ctrl, 0xff, 2 * sizeof(int), s));
    packed_init_kernel<W><<<vertex_blocks(n), sssp::kThreads, 0, s>>>(n, job.source, cost, word, mask);
  }
  template <int G>
  void relax(const DeviceCsr<W>& g, unsigned relax_blocks, cudaStream_t s) {
    packed_relax_kernel<W, G><<<relax_blocks, sssp::kThreads, 0, s>>>(g, cost, word, mask);
  }
  void update(int32_t n, int it, cudaStream_t s) {
    packed_update_kernel<W><<<vertex_blocks(n), sssp::kThreads, 0, s>>>(n, cost, word, mask, ctrl, it);
  }
  int64_t paths(RunContext&, const SsspJob& job, int32_t n, cudaStream_t s) {
    packed_parents_kernel<<<vertex_blocks(n), sssp::kThreads, 0, s>>>(n, job.source, word, parent);
    GSP_CUDA_LAUNCH();
    return 0;
  }
};

}  // namespace

void sssp_atomic_lock(RunContext& ctx, const SsspJob& job) {
  sssp::require_non_negative(*job.graph, "atomic-lock");
  with_weight_type(job.graph->dtype(), [&](auto w) { sssp::run_iterative<LockEngine<decltype(w)>>(ctx, job); });
  if (job.pred == nullptr) return;
  // After the run, on the copy: the host result, or the caller's device array.
  if (job.results_on_device) {
    const int32_t none = -1;
    GSP_CUDA(cudaMemcpyAsync(job.pred + job.source, &none, sizeof none, cudaMemcpyDefault, ctx.stream()));
    ctx.sync();
  } else {
    job.pred[job.source] = -1;
  }
}

void sssp_atomic64(RunContext& ctx, const SsspJob& job) {
  sssp::require_non_negative(*job.graph, "atomic-64");
  with_weight_type(job.graph->dtype(), [&](auto w) { sssp::run_iterative<PackedEngine<decltype(w)>>(ctx, job); });
}

}  // namespace gsp::detail::gpu
