// GSP_SSSP_GPU_DIJKSTRA on CUDA: textbook Dijkstra (1959) with the
// priority queue replaced by a parallel reduction. Each iteration:
//   1. ExtractMin: every thread scans a strided slice of the vertices, keeps
//      the smallest (distance key, vertex) word among the unsettled reached
//      ones; block reduction, one atomicMin per block;
//   2. grid barrier; the winner is settled and its out-arcs are relaxed in
//      parallel (64-bit atomicMin on (distance, parent); a 128-bit CAS
//      loop for double, runtime/weight_traits.cuh);
//   3. grid barrier.
// It runs as one persistent cooperative kernel (no launch per iteration) and
// stops when the minimum is "unreached". The work is O(n) per settled vertex:
// O(n^2 / t + m) in all, with 2 grid barriers per reachable vertex. It is the
// right choice only for small dense graphs (n up to a few thousand, m ~ n^2),
// where one extraction's scan is cheap and each settled vertex has many arcs
// to relax in parallel; on sparse graphs delta-stepping is orders of
// magnitude faster (doc/gpu-sssp-family.md).
#include <cub/block/block_reduce.cuh>

#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

constexpr int kThreads = 512;

struct MinOp {
  template <class Word>
  __device__ Word operator()(Word a, Word b) const {
    return word_less(a, b) ? a : b;
  }
};

template <class W>
__global__ void __launch_bounds__(kThreads)
    dijkstra_kernel(int32_t n, const int64_t* off, const int32_t* tgt, const W* wt, WordOf<W>* packed,
                    unsigned char* settled, WordOf<W>* minslot, long long* settled_count,
                    unsigned long long* relax_count) {
  cg::grid_group grid = cg::this_grid();
  using Word = WordOf<W>;
  using Reduce = cub::BlockReduce<Word, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kThreads;
  const int64_t tid = blockIdx.x * static_cast<int64_t>(kThreads) + threadIdx.x;
  long long it = 0;
  unsigned long long relaxed = 0;
  for (; it < n; ++it) {
    Word local = unreached_word<Word>();
    for (int64_t v = tid; v < n; v += stride) {
      if (__ldcg(settled + v)) continue;
      const Word p = load_word(packed + v);
      if (is_unreached(p)) continue;
      const Word c = pack(key_of(p), static_cast<int32_t>(v));  // (distance key, vertex)
      local = word_less(c, local) ? c : local;
    }
    const Word bmin = Reduce(tmp).Reduce(local, MinOp());
    if (threadIdx.x == 0 && !is_unreached(bmin)) word_min(minslot + (it & 1), bmin);
    grid.sync();
    const Word mn = load_word(minslot + (it & 1));
    if (is_unreached(mn)) break;
    if (leader) minslot[(it + 1) & 1] = unreached_word<Word>();
    const int32_t u = word_parent(mn);
    const W du = Key<W>::value(key_of(mn));
    if (leader) settled[u] = 1;
    const int64_t beg = off[u], end = off[u + 1];
    for (int64_t a = beg + tid; a < end; a += stride) {
      const int32_t v = tgt[a];
      ++relaxed;
      if (v == u || __ldcg(settled + v)) continue;
      W cand;
      if (!Key<W>::add(du, wt[a], &cand)) continue;
      relax_packed<W>(packed, u, v, cand);
    }
    grid.sync();
  }
  for (int o = 16; o > 0; o >>= 1) relaxed += __shfl_down_sync(0xffffffffu, relaxed, o);
  if ((threadIdx.x & 31) == 0 && relaxed != 0) atomicAdd(relax_count, relaxed);
  if (leader) *settled_count = it;
}

template <class W>
void run(RunContext& ctx, const SsspJob& job) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  if (graph.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                "GPU Dijkstra needs non-negative weights (the graph has a negative arc); use "
                "GSP_SSSP_BELLMAN_FORD");
  }
  fill_stats(ctx, job);
  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  cudaStream_t st = ctx.stream();
  StageClock clock(ctx);  // set-up: workspace, initial labels

  WordOf<W>* packed = nullptr;
  WordOf<W>* minslot = nullptr;  // two words
  unsigned char* settled = nullptr;
  unsigned long long* counters = nullptr;  // (2 unused), relax count, settled count
  W* out_dist = nullptr;
  int32_t* out_pred = nullptr;
  Workspace ws;
  ws.add(&packed, n);
  ws.add(&minslot, 2);
  ws.add(&settled, n);
  ws.add(&counters, 4);
  ws.add(&out_dist, n);
  ws.add(&out_pred, n);
  ws.allocate(ctx, "GPU Dijkstra state");

  init_packed_kernel<W><<<grid_for(ctx, n, 256), 256, 0, st>>>(n, packed, job.source);
  GSP_CUDA_LAUNCH();
  GSP_CUDA(cudaMemsetAsync(settled, 0, n, st));
  GSP_CUDA(cudaMemsetAsync(minslot, 0xff, 2 * sizeof(WordOf<W>), st));
  GSP_CUDA(cudaMemsetAsync(counters + 2, 0, 2 * sizeof(unsigned long long), st));
  clock.mark(Stage::kSetup);

  auto kernel = dijkstra_kernel<W>;
  const int blocks = coop_blocks(ctx, kernel, kThreads, 1, (n + kThreads - 1) / kThreads);
  unsigned long long* relax_count = counters + 2;
  long long* settled_count = reinterpret_cast<long long*>(counters + 3);
  int32_t nn = n;
  const int64_t* off = g.offsets;
  const int32_t* tgt = g.targets;
  const W* wt = g.weights;
  void* params[] = {&nn, &off, &tgt, &wt, &packed, &settled, &minslot, &settled_count, &relax_count};
  GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks, kThreads, params, 0, st));
  GSP_CUDA_LAUNCH();
  unsigned long long h[2] = {0, 0};
  GSP_CUDA(cudaMemcpyAsync(h, counters + 2, sizeof h, cudaMemcpyDeviceToHost, st));
  ctx.sync();
  if (job.stats != nullptr) {
    job.stats->iterations = static_cast<int64_t>(h[1]);
    job.stats->relaxations = static_cast<int64_t>(h[0]);
  }
  // The counters' first words are free: three ints for the overflow check.
  finish<W>(ctx, job, g, packed, out_dist, out_pred, reinterpret_cast<int*>(counters), clock);
}

}  // namespace
}  // namespace gsp::detail::gpu::family

namespace gsp::detail::gpu {

void sssp_gpu_dijkstra(RunContext& ctx, const SsspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { family::run<decltype(w)>(ctx, job); });
}

}  // namespace gsp::detail::gpu
