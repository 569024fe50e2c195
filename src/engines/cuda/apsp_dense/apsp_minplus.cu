// GSP_APSP_MINPLUS on CUDA: repeated min-plus squaring D <- min(D, D (x) D)
// on the shared tile product (minplus_tile.cuh), ping-pong
// between two matrices so that predecessors stay consistent
// (pred[i][j] <- pred[k][j] of the previous matrix). Stops as soon as a
// product changes nothing (device flag), or after the products that cover
// every simple path (core/minplus_products.h); a negative diagonal entry, and
// nothing else, reports a negative cycle. In-core only. With paths, predecessors are either
// tracked in the products or (the default on sparse graphs) set by one pass
// over the final matrix (pred_pass.cuh). See doc/gpu-apsp-dense.md.
#include <algorithm>
#include <string>
#include <utility>

#include "core/minplus_products.h"
#include "apsp_dense/dense_delivery.cuh"
#include "runtime/engines.cuh"
#include "apsp_dense/minplus_tile.cuh"
#include "apsp_dense/pred_pass.cuh"

namespace gsp::detail::gpu {
namespace {

using namespace dense;

// kPaths: predecessors tracked in the products; pred_pass_after (with
// !kPaths): distance-only products, then the predecessor pass.
template <class Ops, class W, bool kPaths>
void run_minplus_t(RunContext& ctx, const ApspJob& job, int64_t ld, bool pred_pass_after) {
  using T = typename Ops::T;
  const int32_t n = job.graph->n();
  const int nb = (int)(ld / kTile);
  StageClock clock(ctx);
  DeviceBuffer<T> D0(ctx, (size_t)(ld * ld), "min-plus matrix"), D1(ctx, (size_t)(ld * ld), "min-plus matrix (second)");
  DeviceBuffer<int32_t> P0, P1;
  if (kPaths) {
    P0.allocate(ctx, (size_t)(ld * ld), "min-plus predecessors");
    P1.allocate(ctx, (size_t)(ld * ld), "min-plus predecessors (second)");
  } else if (pred_pass_after) {
    P0.allocate(ctx, (size_t)(ld * ld), "min-plus predecessors");
  }
  DeviceBuffer<int> flags(ctx, 1, "min-plus flags");
  build_matrix_device<Ops, W>(ctx, *job.graph, D0.get(), kPaths ? P0.get() : nullptr, ld);
  clock.mark(Stage::kSetup);

  const int max_products = minplus_products_needed(n, job.graph->has_negative_weight());
  T* cur = D0.get();
  T* nxt = D1.get();
  int32_t* pcur = kPaths ? P0.get() : nullptr;
  int32_t* pnxt = kPaths ? P1.get() : nullptr;
  int64_t products = 0;
  for (bool changed = true; changed && products < max_products;) {
    GSP_CUDA(cudaMemsetAsync(flags.get(), 0, sizeof(int), ctx.stream()));
    TileParams<T> p;
    p.A = cur;
    p.lda = ld;
    p.B = cur;
    p.ldb = ld;
    p.Cin = cur;
    p.Cout = nxt;
    p.ldc = ld;
    if (kPaths) {
      p.Bp = pcur;
      p.ldbp = ld;
      p.Pin = pcur;
      p.Pout = pnxt;
      p.ldp = ld;
    }
    p.K = (int)ld;
    p.flags = flags.get();
    p.track_changes = true;
    launch_tile_product<Ops, kPaths>(p, nb, nb, ctx.stream());
    ++products;
    int f = 0;
    GSP_CUDA(cudaMemcpyAsync(&f, flags.get(), sizeof(int), cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.sync();
    if (f & kFlagNegCycle) {
      throw Error(GSP_ERR_NEGATIVE_CYCLE,
                  "CUDA min-plus APSP: the graph has a negative cycle (a diagonal distance < 0)");
    }
    if (f & kFlagOverflow) {
      throw Error(GSP_ERR_OVERFLOW,
                  "CUDA min-plus APSP: an int32 distance would overflow; use GSP_F64 weights or "
                  "smaller weights");
    }
    std::swap(cur, nxt);
    std::swap(pcur, pnxt);
    changed = (f & kFlagChanged) != 0;
    job.options->report(std::min(1.0, (double)products / (double)max_products));
  }
  clock.mark(Stage::kCompute);
  if (!kPaths && pred_pass_after) {
    pred_pass<Ops, W>(ctx, *job.graph, cur, P0.get(), ld, ctx.stream());
    clock.mark(Stage::kPaths);
    deliver_rows_device<Ops, W>(ctx, job, cur, P0.get(), ld, true, nullptr, &clock);
  } else {
    deliver_rows_device<Ops, W>(ctx, job, cur, pcur, ld, kPaths, nullptr, &clock);
  }
  clock.finish();
  fill_stats(ctx, job, products, products * (int64_t)n * n * n);
}

template <class Ops, class W>
void run_minplus(RunContext& ctx, const ApspJob& job) {
  const int32_t n = job.graph->n();
  const bool paths = job.options->want_paths;
  const int64_t ld = round_up(std::max<int64_t>(n, 1), kTile);
  const bool pass = paths && use_pred_pass<Ops>(n, job.graph->m(), *job.options);
  const size_t cell = sizeof(typename Ops::T) + (paths ? sizeof(int32_t) : 0);
  // tracked: two matrices and two predecessor matrices; pass: one predecessor
  // matrix and the reverse graph
  const size_t need = pass ? 2 * (size_t)(ld * ld) * sizeof(typename Ops::T) + (size_t)(ld * ld) * 4 +
                                 (size_t)job.graph->m() * (4 + sizeof(W)) + (size_t)(n + 1) * 8
                           : 2 * (size_t)(ld * ld) * cell;
  if (need > ctx.budget_left()) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "CUDA min-plus APSP needs two n x n matrices (" + std::to_string(need) +
                                                  " bytes) and the device budget has " +
                                                  std::to_string(ctx.budget_left()) +
                                                  "; use GSP_APSP_FLOYD_WARSHALL, which streams from host memory");
  }
  if (paths && !pass)
    run_minplus_t<Ops, W, true>(ctx, job, ld, false);
  else
    run_minplus_t<Ops, W, false>(ctx, job, ld, pass);
}

}  // namespace

void apsp_minplus(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    dense::with_ops(*job.graph, [&](auto ops) {
      using Ops = decltype(ops);
      if constexpr (std::is_same_v<typename Ops::T, W>) run_minplus<Ops, W>(ctx, job);
    });
  });
}

}  // namespace gsp::detail::gpu
