// The run shared by the iterative label-correcting SSSP engines
// (atomic-lock and atomic-64 in sssp_atomic_lock.cu, Harish in
// sssp_harish.cu): upload, workspace, initial labels, the relax/update
// iterations until no vertex is marked, the int32 overflow check, the copy of
// the distances and the optional paths pass, each stage marked on the run's
// StageClock as doc/run-info.md lists. Each engine is a small struct that
// supplies only its own arrays and kernel launches (see run_iterative).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "runtime/device.cuh"
#include "runtime/stage_clock.cuh"
#include "runtime/workspace.cuh"
#include "sssp/sssp_common.cuh"

namespace gsp::detail::gpu::sssp {

// Runs one SSSP job with Engine, a default-constructible struct holding the
// engine's device arrays:
//   using Weight = W;                        float or int32_t
//   static constexpr const char* kWorkName;  what the workspace is charged as
//   static constexpr bool kPathsPass;        false: the search records the
//       parents, copied with the distances; true: paths(...) computes them
//       after the distances are copied (stage kPaths)
//   W* cost; int* ctrl; int32_t* parent;     set by the workspace; ctrl[0] is
//       the last marked iteration, ctrl[1] the overflow check's scratch
//   void reserve(Workspace&, int32_t n, const SsspJob&);  adds every array
//   void init(const SsspJob&, int32_t n, cudaStream_t);   resets ctrl, launches
//       the initial labels
//   template <int G> void relax(const DeviceCsr<W>&, unsigned blocks, cudaStream_t);
//   void update(int32_t n, int it, cudaStream_t);         marks, atomicMax(ctrl, it)
//       init, relax and update each launch one kernel, checked here
//   int64_t paths(RunContext&, const SsspJob&, int32_t n, cudaStream_t);
//       (kPathsPass only, with job.pred set) fills parent; returns the
//       rounds it took, added to the iterations
template <class Engine>
void run_iterative(RunContext& ctx, const SsspJob& job) {
  using W = typename Engine::Weight;
  const Graph& graph = *job.graph;
  const DeviceCsr<W> g = device_graph<W>(ctx, graph);
  const int32_t n = g.n;
  cudaStream_t s = ctx.stream();

  StageClock clock(ctx);
  Engine e;
  Workspace work;
  e.reserve(work, n, job);
  work.allocate(ctx, Engine::kWorkName);
  W* const cost = e.cost;
  int* const ctrl = e.ctrl;
  int32_t* const parent = e.parent;

  e.init(job, n, s);
  GSP_CUDA_LAUNCH();
  clock.mark(Stage::kSetup);

  const int64_t iters = with_group_size(n, g.m, [&](auto gs) {
    constexpr int G = decltype(gs)::value;
    const unsigned relax_blocks = blocks_for(static_cast<int64_t>(n) * G, kThreads);
    return iterate_until_quiet(ctx, ctrl, n, [&](int it) {
      e.template relax<G>(g, relax_blocks, s);
      GSP_CUDA_LAUNCH();
      e.update(n, it, s);
      GSP_CUDA_LAUNCH();
    });
  });
  if (job.stats != nullptr) job.stats->iterations = iters;

  if constexpr (std::is_same_v<W, int32_t>) check_i32_overflow(ctx, g, cost, ctrl + 1);
  clock.mark(Stage::kCompute);

  // cudaMemcpyDefault: into the host result, or device to device for
  // gsp_sssp_run_device (job.results_on_device).
  const auto copy_pred = [&] {
    GSP_CUDA(cudaMemcpyAsync(job.pred, parent, static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDefault, s));
  };
  GSP_CUDA(cudaMemcpyAsync(job.dist, cost, static_cast<size_t>(n) * sizeof(W), cudaMemcpyDefault, s));
  if constexpr (!Engine::kPathsPass) {
    if (job.pred != nullptr) copy_pred();
  }
  clock.mark(Stage::kCopy);
  if constexpr (Engine::kPathsPass) {
    if (job.pred != nullptr) {
      const int64_t rounds = e.paths(ctx, job, n, s);
      if (job.stats != nullptr) job.stats->iterations += rounds;
      clock.mark(Stage::kPaths);
      copy_pred();
      clock.mark(Stage::kCopy);
    }
  }
  ctx.sync();
  clock.finish();
}

}  // namespace gsp::detail::gpu::sssp
