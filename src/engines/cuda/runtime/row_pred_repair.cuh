// The predecessor check of one row (core/pred_repair.h) for a CUDA run
// whose row lies in host memory or, for gsp_sssp_run_device
// (SsspJob::results_on_device), in the caller's device arrays: those are
// read back, checked and repaired on the host, and the predecessors put
// back only when the repair changed them.
#pragma once

#include <cstdint>
#include <vector>

#include "core/engine.h"
#include "core/pred_repair.h"
#include "runtime/device.cuh"

namespace gsp::detail::gpu {

template <class W>
void repair_row_preds(RunContext& ctx, const SsspJob& job) {
  PredRepairScratch scratch;
  const CsrView<W> g = job.graph->view<W>();
  if (!job.results_on_device) {
    repair_pred_row(g, job.source, static_cast<const W*>(job.dist), job.pred, scratch);
    return;
  }
  const size_t n = static_cast<size_t>(g.n);
  std::vector<W> d(n);
  std::vector<int32_t> p(n);
  GSP_CUDA(cudaMemcpyAsync(d.data(), job.dist, n * sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
  GSP_CUDA(cudaMemcpyAsync(p.data(), job.pred, n * sizeof(int32_t), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.sync();
  if (repair_pred_row(g, job.source, d.data(), p.data(), scratch)) {
    GSP_CUDA(cudaMemcpyAsync(job.pred, p.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice, ctx.stream()));
    ctx.sync();
  }
}

}  // namespace gsp::detail::gpu
