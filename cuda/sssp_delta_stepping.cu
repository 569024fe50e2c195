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
#include "frontier_kernels.cuh"

namespace gsp::detail::gpu::family {
namespace {

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
