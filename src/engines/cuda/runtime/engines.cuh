// Every CUDA engine's entry point, one file each (src/engines/cuda/<name>.cu). The
// door (cuda_backend.cu) builds the RunContext and calls one of these with
// a resolved algorithm. Engines dispatch on job.graph->dtype() to their
// templates over the weight type (float, int32_t).
#pragma once

#include "runtime/device.cuh"

namespace gsp::detail {
struct ChBase;
class ChSeeder;
}  // namespace gsp::detail

namespace gsp::detail::gpu {

// SSSP (w >= 0 unless noted)
void sssp_atomic_lock(RunContext& ctx, const SsspJob& job);     // sssp_atomic_lock.cu
void sssp_atomic64(RunContext& ctx, const SsspJob& job);        // sssp_atomic_lock.cu (packed 64-bit variant)
void sssp_harish(RunContext& ctx, const SsspJob& job);          // sssp_harish.cu
void sssp_delta_stepping(RunContext& ctx, const SsspJob& job);  // sssp_delta_stepping.cu
void sssp_bellman_ford(RunContext& ctx, const SsspJob& job);    // sssp_bellman_ford.cu (any w)
void sssp_spmv(RunContext& ctx, const SsspJob& job, bool ell);  // sssp_spmv.cu (any w)
void sssp_gpu_dijkstra(RunContext& ctx, const SsspJob& job);    // sssp_gpu_dijkstra.cu

// APSP
void apsp_floyd_warshall(RunContext& ctx, const ApspJob& job);  // apsp_floyd_warshall.cu (in-core and out-of-core)
// Floyd-Warshall over all sources on devices options.device .. + job.num_devices - 1
// (fw_multi_device.cu): makes its own run contexts, one per device.
void apsp_floyd_warshall_multi(const ApspJob& job);
void apsp_minplus(RunContext& ctx, const ApspJob& job);         // apsp_minplus.cu
void apsp_heap(RunContext& ctx, const ApspJob& job);            // apsp_heap.cu
void apsp_task_parallel(RunContext& ctx, const ApspJob& job);   // apsp_task_parallel.cu
void apsp_delta_stepping(RunContext& ctx, const ApspJob& job);  // apsp_delta_stepping.cu
void apsp_spmm(RunContext& ctx, const ApspJob& job);            // apsp_spmm.cu

// Road indexes (index/ch_sweep.cu): one row, the rows of job.sources; the
// upward searches come from `seeder`.
void index_sssp(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const SsspJob& job);
void index_apsp(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const ApspJob& job);

// Probing (device.cu): thread-safe, once.
bool probe(std::string* why, int32_t* count);

}  // namespace gsp::detail::gpu
