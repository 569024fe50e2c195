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
//    the 64-bit atomicMin on (distance, parent), for double on the distance
//    key alone (the predecessors then come from the tight arcs after the
//    search: tight_pred_kernel() in sssp_family.cuh).
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
//    no block scan on the chain of a wave.
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
// above 4 (frontier_policy() in frontier_search.cuh, which also holds the
// host side this file shares with apsp_delta_stepping.cu).
#include "sssp/frontier_search.cuh"

namespace gsp::detail::gpu::family {
namespace {

template <class W>
void run(RunContext& ctx, const SsspJob& job, bool bellman_ford) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  if (!bellman_ford && graph.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                "delta-stepping needs non-negative weights (the graph has a negative arc); use "
                "GSP_SSSP_BELLMAN_FORD");
  }
  const double user_delta = job.options->delta;
  if (!bellman_ford && !(user_delta >= 0)) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "delta must be >= 0");
  }
  fill_stats(ctx, job);
  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  const FrontierPolicy policy = frontier_policy(graph, user_delta, bellman_ford, job.options->tuning);
  StageClock clock(ctx);  // set-up: workspace, arc copies, initial labels
  FrontierSearch<W> search(ctx, graph, g, policy, 0, &clock);
  // Bellman-Ford's frontier has one bucket: it is final only at the end.
  const Ctrl h = search.run(job.source, bellman_ford ? -1 : job.stop_at);
  if (job.stopped_early != nullptr) *job.stopped_early = h.stopped != 0;
  if (job.stats != nullptr) {
    job.stats->iterations = h.rounds;
    job.stats->relaxations = static_cast<int64_t>(h.relax);
  }
  if (h.status == 1) {
    if (bellman_ford) {
      throw Error(GSP_ERR_NEGATIVE_CYCLE, "a negative cycle is reachable from source " + std::to_string(job.source) +
                                              " (distances still improving after " + std::to_string(n) + " rounds)");
    }
    throw Error(GSP_ERR_INTERNAL, "delta-stepping did not converge");
  }
  // The near lists are dead now: they hold dist (double: an array of its
  // own) and pred on the way out.
  finish<W>(ctx, job, g, search.packed(), search.dist_scratch(), search.scratch1(), search.flag3(), clock,
            h.stopped != 0);
  job.options->report(1.0);
}

}  // namespace

void frontier_sssp(RunContext& ctx, const SsspJob& job, bool bellman_ford) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run<decltype(w)>(ctx, job, bellman_ford); });
}

}  // namespace gsp::detail::gpu::family

namespace gsp::detail::gpu {

void sssp_delta_stepping(RunContext& ctx, const SsspJob& job) { family::frontier_sssp(ctx, job, false); }

}  // namespace gsp::detail::gpu
