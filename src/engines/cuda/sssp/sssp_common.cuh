// Helpers shared by the label-correcting SSSP engines of
// sssp_atomic_lock.cu and sssp_harish.cu: weight-type traits on the device,
// the batched convergence loop (one host sync per batch of iterations, not
// per iteration), and the int32 overflow check. Their work arrays come from
// a Workspace (workspace.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "runtime/device.cuh"
#include "runtime/stage_clock.cuh"
#include "runtime/weight_traits.cuh"
#include "runtime/workspace.cuh"

namespace gsp::detail::gpu::sssp {

// ---------------------------------------------------------------- weights

// DevDist<W>: WeightTraits (runtime/weight_traits.cuh) plus the checked sum
// and the raw bits of a distance (>= 0 here: bit order = value order).
template <class W>
struct DevDist;
template <class W>
struct DevDistFloating : WeightTraits<W> {
  using Bits = typename WeightTraits<W>::Bits;
  // cand = d + w for a finite d; false if it does not fit (never for floats).
  static __device__ __forceinline__ bool add(W d, W w, W* out) {
    *out = (d + w) + W(0);  // + 0 turns a -0 into +0 (bit order = value order)
    return true;
  }
  static __device__ __forceinline__ Bits bits(W d) { return WeightTraits<W>::to_bits(d); }
};
template <>
struct DevDist<float> : DevDistFloating<float> {};
template <>
struct DevDist<double> : DevDistFloating<double> {};
template <>
struct DevDist<int32_t> : WeightTraits<int32_t> {
  using Bits = uint32_t;
  static __device__ __forceinline__ bool add(int32_t d, int32_t w, int32_t* out) {
    const long long s = static_cast<long long>(d) + static_cast<long long>(w);
    if (s >= static_cast<long long>(INT32_MAX)) return false;
    *out = static_cast<int32_t>(s);
    return true;
  }
  static __device__ __forceinline__ uint32_t bits(int32_t d) { return static_cast<uint32_t>(d); }
};

// ---------------------------------------------------------------- groups

// Vertices are processed by groups of G lanes (G | 32) striding over the
// vertex's arcs: G = 1 is a thread per vertex; larger G balances higher
// degrees. Chosen from the average out-degree.
inline int group_size_for(int32_t n, int64_t m) {
  const double avg = n > 0 ? static_cast<double>(m) / n : 0.0;
  if (avg <= 4.0) return 2;
  if (avg <= 16.0) return 8;
  return 32;
}

constexpr int kThreads = 256;

// ---------------------------------------------------------------- loop

// Runs launch(it) for it = 0, 1, 2, ... in batches, reading the device's
// "last iteration that marked a vertex" once per batch. Each iteration's
// update step must atomicMax(*d_last_marked, it) when it marks anything;
// *d_last_marked starts at -1. Returns the number of iterations that did
// work (the last marking one plus the one that found nothing to do).
template <class Launch>
int64_t iterate_until_quiet(RunContext& ctx, const int* d_last_marked, int32_t n, Launch&& launch) {
  int64_t it = 0;
  int64_t batch = 4;
  // Each useful iteration finalises at least one more hop of every shortest
  // path, so n + 1 iterations always suffice; more is a bug.
  const int64_t limit = static_cast<int64_t>(n) + 2;
  for (;;) {
    const int64_t end = it + batch;
    for (; it < end; ++it) launch(static_cast<int>(it));
    int last = -1;
    GSP_CUDA(cudaMemcpyAsync(&last, d_last_marked, sizeof(int), cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.sync();
    if (last < end - 1) return static_cast<int64_t>(last) + 2;
    if (it > limit) throw Error(GSP_ERR_INTERNAL, "SSSP iterations did not converge");
    ctx.options().report(static_cast<double>(it) / (static_cast<double>(it) + 64.0) * 0.9);
    if (batch < 64) batch *= 2;
  }
}

// ---------------------------------------------------------------- kernels

// Sets *flag when some vertex u with a finite distance has an arc whose sum
// does not fit int32 (what the CPU engines report as GSP_ERR_OVERFLOW).
template <int G>
__global__ void overflow_check_kernel(DeviceCsr<int32_t> g, const int32_t* __restrict__ dist, int* __restrict__ flag) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t u = t / G;
  const int lane = static_cast<int>(t % G);
  if (u >= g.n) return;
  const int32_t du = dist[u];
  if (du == INT32_MAX) return;
  const int64_t end = g.offsets[u + 1];
  for (int64_t e = g.offsets[u] + lane; e < end; e += G) {
    if (static_cast<long long>(du) + g.weights[e] >= static_cast<long long>(INT32_MAX)) {
      *flag = 1;
      return;
    }
  }
}

// Throws GSP_ERR_OVERFLOW (after the run) when an int32 sum overflowed.
// `scratch` is one device int.
inline void check_i32_overflow(RunContext& ctx, DeviceCsr<int32_t> g, const int32_t* d_dist, int* scratch) {
  GSP_CUDA(cudaMemsetAsync(scratch, 0, sizeof(int), ctx.stream()));
  const int G = group_size_for(g.n, g.m);
  const int64_t work = static_cast<int64_t>(g.n) * G;
  switch (G) {
    case 2:
      overflow_check_kernel<2><<<blocks_for(work, kThreads), kThreads, 0, ctx.stream()>>>(g, d_dist, scratch);
      break;
    case 8:
      overflow_check_kernel<8><<<blocks_for(work, kThreads), kThreads, 0, ctx.stream()>>>(g, d_dist, scratch);
      break;
    default:
      overflow_check_kernel<32><<<blocks_for(work, kThreads), kThreads, 0, ctx.stream()>>>(g, d_dist, scratch);
      break;
  }
  GSP_CUDA_LAUNCH();
  int flag = 0;
  GSP_CUDA(cudaMemcpyAsync(&flag, scratch, sizeof(int), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.sync();
  if (flag != 0) {
    throw Error(GSP_ERR_OVERFLOW,
                "an int32 distance would overflow (a reachable vertex's distance plus an arc weight "
                "reaches INT32_MAX); use GSP_F64 weights or smaller weights");
  }
}

// Runs f.template operator()<G>() with G chosen for the graph (2, 8 or 32).
template <class F>
decltype(auto) with_group_size(int32_t n, int64_t m, F&& f) {
  switch (group_size_for(n, m)) {
    case 2: return f(std::integral_constant<int, 2>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: return f(std::integral_constant<int, 32>{});
  }
}

inline void require_non_negative(const Graph& graph, const char* engine) {
  if (graph.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                std::string("the CUDA engine '") + engine + "' needs non-negative weights (the graph's smallest is " +
                    std::to_string(graph.min_weight()) + "); use bellman-ford or spmv-csr/spmv-ell");
  }
}

}  // namespace gsp::detail::gpu::sssp
