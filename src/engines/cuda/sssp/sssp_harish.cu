// GSP_SSSP_HARISH: Harish & Narayanan's SSSP (HiPC 2007) as described by
// Okuyama, Ino & Hagihara (IJHPCN 2012) §4, plus their parent pass (§5.3).
//
//   scatter: every masked vertex u lowers updating[v] to cost[u] + w(u,v)
//            with atomicMin for each out-arc;
//   check:   every v with updating[v] < cost[v] takes it and is masked; a
//            convergence value records that something changed.
// After convergence, the parent pass runs over the reverse graph: each
// reachable v != source picks an in-arc (u, w) with cost[u] + w == cost[v]
// (exact for int32; exact for float too, since cost[v] was computed as that
// very sum of an earlier cost[u'] and the final costs are a fixed point).
// Zero-weight arcs (or float sums that absorb w) make such "tight" arcs
// possible between vertices of equal cost, where independent choices could
// close a cycle; those vertices are resolved in extra rounds, each picking a
// tight in-arc from an already-resolved vertex of equal cost.
// The run around the kernels (workspace, loop, stages, copies) is
// sssp::run_iterative (sssp_iterative.cuh), with HarishEngine below.
#include "runtime/engines.cuh"
#include "sssp/sssp_iterative.cuh"

namespace gsp::detail::gpu {
namespace {

using sssp::DevDist;

template <class W>
__global__ void harish_init_kernel(int32_t n, int32_t source, W* cost, W* updating, unsigned char* mask) {
  // 64-bit: the last block's indices may pass INT32_MAX when n is near it.
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const W init = v == source ? W(0) : DevDist<W>::inf();
  cost[v] = init;
  updating[v] = init;
  mask[v] = v == source ? 1 : 0;
}

template <class W, int G>
__global__ void harish_scatter_kernel(DeviceCsr<W> g, const W* __restrict__ cost, W* updating,
                                      const unsigned char* __restrict__ mask) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t u = t / G;
  const int lane = static_cast<int>(t % G);
  if (u >= g.n || mask[u] == 0) return;
  const W du = cost[u];
  const int64_t end = g.offsets[u + 1];
  volatile W* vupd = updating;
  for (int64_t e = g.offsets[u] + lane; e < end; e += G) {
    const int32_t v = g.targets[e];
    W cand;
    if (!DevDist<W>::add(du, g.weights[e], &cand)) continue;                // int32: reported by the final check
    if (cand < vupd[v]) DevDist<W>::atomic_min_nonneg(&updating[v], cand);  // distances >= 0
  }
}

template <class W>
__global__ void harish_check_kernel(int32_t n, W* cost, W* updating, unsigned char* mask, int* last_marked, int iter) {
  const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool marked = false;
  if (v < n) {
    const W u = updating[v];
    const W c = cost[v];
    if (u < c) {
      cost[v] = u;
      marked = true;
    } else if (c < u) {
      updating[v] = c;  // cannot happen (updating only falls); kept from the original algorithm
    }
    mask[v] = marked ? 1 : 0;
  }
  if (__any_sync(0xffffffffu, marked) && (threadIdx.x & 31) == 0) atomicMax(last_marked, iter);
}

template <int G>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (G == 32) {
    return 0xffffffffu;
  } else {
    return ((1u << G) - 1u) << ((threadIdx.x & 31u) & ~static_cast<unsigned>(G - 1));
  }
}

template <int G>
__device__ __forceinline__ int64_t group_min(int64_t x) {
  const unsigned m = group_mask<G>();
#pragma unroll
  for (int off = G / 2; off > 0; off /= 2) {
    const int64_t y = __shfl_xor_sync(m, x, off, G);
    x = y < x ? y : x;
  }
  return x;
}

// Parent pass, first round: a tight in-arc from a strictly cheaper vertex
// (such choices cannot form a cycle). state[v] = 1 once v is resolved.
// *unresolved counts vertices left for the equal-cost rounds.
template <class W, int G>
__global__ void parent_strict_kernel(DeviceCsr<W> rg, int32_t source, const W* __restrict__ cost, int32_t* parent,
                                     int* state, int* unresolved) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t v = t / G;
  const int lane = static_cast<int>(t % G);
  if (v >= rg.n) return;
  const W dv = cost[v];
  if (v == source || !(dv < DevDist<W>::inf())) {
    if (lane == 0) {
      parent[v] = -1;
      state[v] = 1;
    }
    return;
  }
  int64_t best = INT64_MAX;
  const int64_t begin = rg.offsets[v], end = rg.offsets[v + 1];
  for (int64_t e = begin + lane; e < end; e += G) {
    const W du = cost[rg.targets[e]];
    W sum;
    if (du < dv && DevDist<W>::add(du, rg.weights[e], &sum) && sum == dv) {
      best = e;
      break;
    }
  }
  best = group_min<G>(best);
  if (lane == 0) {
    if (best != INT64_MAX) {
      parent[v] = rg.targets[best];
      state[v] = 1;
    } else {
      parent[v] = -1;
      state[v] = 0;
      atomicAdd(unresolved, 1);
    }
  }
}

// Equal-cost rounds: an unresolved v takes a tight in-arc from a resolved u
// of the same cost. counts[0] = still unresolved, counts[1] = resolved now.
template <class W, int G>
__global__ void parent_equal_kernel(DeviceCsr<W> rg, const W* __restrict__ cost, int32_t* parent, int* state,
                                    int* counts) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t v = t / G;
  const int lane = static_cast<int>(t % G);
  if (v >= rg.n) return;
  volatile int* vstate = state;
  if (vstate[v] != 0) return;
  const W dv = cost[v];
  int64_t best = INT64_MAX;
  const int64_t begin = rg.offsets[v], end = rg.offsets[v + 1];
  for (int64_t e = begin + lane; e < end; e += G) {
    const int32_t u = rg.targets[e];
    W sum;
    if (cost[u] == dv && DevDist<W>::add(cost[u], rg.weights[e], &sum) && sum == dv && vstate[u] == 1) {
      best = e;
      break;
    }
  }
  best = group_min<G>(best);
  if (lane == 0) {
    if (best != INT64_MAX) {
      parent[v] = rg.targets[best];
      __threadfence();  // the parent is written before v counts as resolved
      vstate[v] = 1;
      atomicAdd(&counts[1], 1);
    } else {
      atomicAdd(&counts[0], 1);
    }
  }
}

// The arrays and launches that sssp::run_iterative (sssp_iterative.cuh) runs.
template <class W>
struct HarishEngine {
  using Weight = W;
  static constexpr const char* kWorkName = "harish work arrays";
  static constexpr bool kPathsPass = true;  // paths: the parent pass over the reverse graph

  W *cost = nullptr, *updating = nullptr;
  unsigned char* mask = nullptr;
  int* ctrl = nullptr;
  int32_t* parent = nullptr;
  int* state = nullptr;

  void reserve(Workspace& work, int32_t n, const SsspJob& job) {
    work.add(&cost, n);
    work.add(&updating, n);
    work.add(&mask, n);
    work.add(&ctrl, 4);
    if (job.pred != nullptr) {
      work.add(&parent, n);
      work.add(&state, n);
    }
  }
  void init(const SsspJob& job, int32_t n, cudaStream_t s) {
    GSP_CUDA(cudaMemsetAsync(ctrl, 0xff, sizeof(int), s));
    harish_init_kernel<W><<<blocks_for(n, sssp::kThreads), sssp::kThreads, 0, s>>>(n, job.source, cost, updating, mask);
  }
  template <int G>
  void relax(const DeviceCsr<W>& g, unsigned scatter_blocks, cudaStream_t s) {
    harish_scatter_kernel<W, G><<<scatter_blocks, sssp::kThreads, 0, s>>>(g, cost, updating, mask);
  }
  void update(int32_t n, int it, cudaStream_t s) {
    harish_check_kernel<W><<<blocks_for(n, sssp::kThreads), sssp::kThreads, 0, s>>>(n, cost, updating, mask, ctrl, it);
  }
  // The parent pass; returns its equal-cost rounds.
  int64_t paths(RunContext& ctx, const SsspJob& job, int32_t n, cudaStream_t s) {
    int64_t rounds = 0;
    const DeviceCsr<W> rg = device_reverse_graph<W>(ctx, *job.graph);
    sssp::with_group_size(n, rg.m, [&](auto gs) {
      constexpr int G = decltype(gs)::value;
      const unsigned blocks = blocks_for(static_cast<int64_t>(n) * G, sssp::kThreads);
      int* counts = ctrl + 2;  // [0] unresolved, [1] resolved this round
      GSP_CUDA(cudaMemsetAsync(counts, 0, 2 * sizeof(int), s));
      parent_strict_kernel<W, G><<<blocks, sssp::kThreads, 0, s>>>(rg, job.source, cost, parent, state, counts);
      GSP_CUDA_LAUNCH();
      int host_counts[2] = {0, 0};
      GSP_CUDA(cudaMemcpyAsync(host_counts, counts, sizeof(int), cudaMemcpyDeviceToHost, s));
      ctx.sync();
      while (host_counts[0] > 0) {
        GSP_CUDA(cudaMemsetAsync(counts, 0, 2 * sizeof(int), s));
        parent_equal_kernel<W, G><<<blocks, sssp::kThreads, 0, s>>>(rg, cost, parent, state, counts);
        GSP_CUDA_LAUNCH();
        GSP_CUDA(cudaMemcpyAsync(host_counts, counts, 2 * sizeof(int), cudaMemcpyDeviceToHost, s));
        ctx.sync();
        ++rounds;
        if (host_counts[0] > 0 && host_counts[1] == 0) {
          throw Error(GSP_ERR_INTERNAL,
                      "harish: " + std::to_string(host_counts[0]) + " reachable vertices have no tight in-arc");
        }
      }
    });
    return rounds;
  }
};

}  // namespace

void sssp_harish(RunContext& ctx, const SsspJob& job) {
  sssp::require_non_negative(*job.graph, "harish");
  with_weight_type(job.graph->dtype(), [&](auto w) { sssp::run_iterative<HarishEngine<decltype(w)>>(ctx, job); });
}

}  // namespace gsp::detail::gpu
