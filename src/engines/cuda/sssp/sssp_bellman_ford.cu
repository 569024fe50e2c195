// GSP_SSSP_BELLMAN_FORD on CUDA: frontier (queue) based
// Bellman-Ford for any weights. It runs on the frontier engine of
// sssp_delta_stepping.cu with a single bucket: each round relaxes every arc
// of the vertices improved in the previous round (load-balanced by a
// block-wide prefix sum over their degrees), the next frontier is
// deduplicated with per-vertex stamps, and (distance, parent) is kept with a
// 64-bit atomicMin over an order-preserving key (negative distances
// included). All rounds run inside one persistent cooperative kernel; on
// low-degree graphs the first rounds also run block-local waves (see
// sssp_delta_stepping.cu), until rounds x waves reaches n.
//
// Negative cycles: after round k every vertex whose shortest path has at
// most k arcs is final, so without a reachable negative cycle round n finds
// the frontier empty. A frontier still non-empty after n rounds throws
// GSP_ERR_NEGATIVE_CYCLE: the engine never loops forever (at worst n rounds).
#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu {

void sssp_bellman_ford(RunContext& ctx, const SsspJob& job) { family::frontier_sssp(ctx, job, true); }

}  // namespace gsp::detail::gpu
