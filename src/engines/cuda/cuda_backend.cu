// The CUDA backend's door (cuda_backend.h; its twin is engines/cpu/cpu_backend.cpp): a
// resolved algorithm routed to its engine inside a RunContext. Built with CUDA only;
// cuda_absent.cpp stands in otherwise.
#include "core/algorithms.h"
#include "engines/cuda/cuda_backend.h"
#include "runtime/engines.cuh"

namespace gsp::detail::gpu {

bool supports(gsp_algorithm algorithm) { return has_cuda_engine(algorithm); }

void sssp(const SsspJob& job) {
  RunContext ctx(*job.options, job.stats);
  switch (job.algorithm) {
    case GSP_SSSP_ATOMIC_LOCK: sssp_atomic_lock(ctx, job); break;
    case GSP_SSSP_ATOMIC_64: sssp_atomic64(ctx, job); break;
    case GSP_SSSP_HARISH: sssp_harish(ctx, job); break;
    case GSP_SSSP_DELTA_STEPPING: sssp_delta_stepping(ctx, job); break;
    case GSP_SSSP_BELLMAN_FORD: sssp_bellman_ford(ctx, job); break;
    case GSP_SSSP_SPMV_CSR: sssp_spmv(ctx, job, false); break;
    case GSP_SSSP_SPMV_ELL: sssp_spmv(ctx, job, true); break;
    case GSP_SSSP_GPU_DIJKSTRA: sssp_gpu_dijkstra(ctx, job); break;
    default:
      throw Error(GSP_ERR_UNSUPPORTED,
                  std::string("no CUDA engine for SSSP algorithm '") + gsp_algorithm_name(job.algorithm) + "'");
  }
  ctx.sync();
}

void apsp(const ApspJob& job) {
  if (job.num_devices > 1) {
    if (job.algorithm != GSP_APSP_FLOYD_WARSHALL || !job.all_sources) {
      throw Error(GSP_ERR_INTERNAL, "only Floyd-Warshall over all sources runs as one job on several devices");
    }
    apsp_floyd_warshall_multi(job);
    return;
  }
  RunContext ctx(*job.options, job.stats);
  switch (job.algorithm) {
    case GSP_APSP_FLOYD_WARSHALL: apsp_floyd_warshall(ctx, job); break;
    case GSP_APSP_MINPLUS: apsp_minplus(ctx, job); break;
    case GSP_APSP_HEAP: apsp_heap(ctx, job); break;
    case GSP_APSP_TASK_PARALLEL: apsp_task_parallel(ctx, job); break;
    case GSP_APSP_DELTA_STEPPING: apsp_delta_stepping(ctx, job); break;
    case GSP_APSP_SPMM: apsp_spmm(ctx, job); break;
    default:
      throw Error(GSP_ERR_UNSUPPORTED,
                  std::string("no CUDA engine for APSP algorithm '") + gsp_algorithm_name(job.algorithm) + "'");
  }
  ctx.sync();
}

void index_sssp(const ChBase& index, const ChSeeder& seeder, const SsspJob& job) {
  RunContext ctx(*job.options, job.stats);
  index_sssp(ctx, index, seeder, job);
  ctx.sync();
}

void index_apsp(const ChBase& index, const ChSeeder& seeder, const ApspJob& job) {
  RunContext ctx(*job.options, job.stats);
  index_apsp(ctx, index, seeder, job);
  ctx.sync();
}

}  // namespace gsp::detail::gpu
