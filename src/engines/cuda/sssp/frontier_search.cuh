// The frontier engine's host side, shared by one search
// (sssp_delta_stepping.cu: delta-stepping, Bellman-Ford) and many searches
// advanced together (apsp_delta_stepping.cu): the policy (delta, one bucket
// or buckets, block-local waves, ELL copy, speculation, grid size) and a
// FrontierSearch that owns the per-run arc arrays and the label state, and
// runs the persistent kernel for one source or for a pass of several.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/tuning.h"
#include "sssp/frontier_kernels.cuh"
#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

// Default delta (doc/gpu-sssp-family.md, "Choosing delta"): on the GPU a
// light round costs a grid barrier plus a chain of dependent memory
// latencies whatever its size, so few wide buckets beat many narrow ones.
// delta = kDeltaScale * max_weight / avg_out_degree (Meyer-Sanders' rule with
// a large constant); it needs no pass over the weights, and when it is at
// least the largest weight every arc is light and no split copy is made.
constexpr double kDeltaScale = 32.0;

inline double default_delta(const Graph& graph) {
  const double avg_deg =
      graph.n() > 0 ? std::max(1.0, static_cast<double>(graph.m()) / graph.n()) : 1.0;
  double d = kDeltaScale * graph.max_weight() / avg_deg;
  if (!(d > 0) || !std::isfinite(d)) d = graph.max_weight() > 0 ? graph.max_weight() : 1.0;
  return d;
}

// How the frontier engine runs on a graph (see frontier_policy()).
struct FrontierPolicy {
  bool bellman_ford = false;  // one bucket, every arc light, round limit n
  bool delta_mode = false;    // buckets of width delta (else one bucket)
  double delta = 0;
  bool split = false;         // some arc is heavy: light/heavy arc copy
  int local_rounds = 0;       // block-local waves per light round
  bool use_ell = false;       // local waves read an ELL copy of the light arcs
  bool speculate = false;     // speculative pushes in the ELL waves
  int per_sm = 2;             // resident blocks per SM of the persistent kernel
  bool filter_global = true;  // filtering load before the atomicMin, global tiles
  bool filter_local = false;  // the same in the block-local waves
};

// Default delta of a pass of many copies (apsp_delta_stepping.cu): a phase
// then holds the frontiers of all copies, so it is no longer a latency chain
// and the relaxations themselves are the cost, and wide buckets re-relax
// each arc many times (NY, 32 copies, the single-source delta of 329 mean
// weights: 7.2 relaxations per arc and source, 13.96 ms a pass). On
// low-degree graphs the narrowest bucket that keeps every arc light (delta
// = the largest weight: no heavy phases, no split copy) is best: NY,
// K = 256, H100: 0.062 s against 0.115 s; 16 mean weights, which makes
// arcs heavy, 0.105 s; 64 / 128 / 512 mean weights 0.066 / 0.076 / 0.161 s;
// 1.3 relaxations per arc and source. On expanders, where one search runs
// as one bucket, buckets of half the largest weight beat it in a pass
// (H200, 32 copies: R-MAT 2^20 0.124 vs 0.140 s at K = 64, Graph65536
// 0.068 vs 0.075 s at K = 1024; the largest weight: 0.150 / 0.065 s).
inline double batched_delta(const Graph& graph, bool low_degree) {
  const double w = static_cast<double>(graph.max_weight());
  if (!(w > 0) || !std::isfinite(w)) return default_delta(graph);
  return low_degree ? std::min(default_delta(graph), w) : 0.5 * w;
}

// The policy for `graph` (user_delta: options.delta, 0 = choose). batched:
// a pass of many copies (apsp_delta_stepping.cu), else one search.
inline FrontierPolicy frontier_policy(const Graph& graph, double user_delta, bool bellman_ford,
                                      bool batched = false) {
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  const Tuning t = tuning();
  FrontierPolicy p;
  p.bellman_ford = bellman_ford;
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
  bool one_bucket = !bellman_ford && !(user_delta > 0) && !low_degree && !batched;
  one_bucket = one_bucket && t.cuda_ds_one_bucket;
  p.delta_mode = !bellman_ford && !one_bucket;
  p.delta = p.delta_mode ? (user_delta > 0 ? user_delta : batched ? batched_delta(graph, low_degree) : default_delta(graph)) : 0.0;
  // Physical light/heavy split only when some arc is heavy.
  p.split = p.delta_mode && m > 0 && p.delta < graph.max_weight();
  // Block-local asynchronous waves per light round (0: none, one wave per
  // grid barrier). They pay off on low-degree, long-path graphs (roads,
  // meshes: NY 7.96 -> 4.71 ms on the H100 with 8 waves; with the ELL waves
  // 16 beat 8: NY 3.55 -> 3.24 ms, 1024^2 grid 5.65 -> 5.09 ms) and hurt on
  // expanders, where a block's local queue explodes and the grid waits for it
  // (Graph65536 0.48 -> 0.86 ms, R-MAT 6.6 -> 23.6 ms), so they are used only
  // when the average out-degree is at most kLocalWaveMaxDegree.
  // GSP_CUDA_LOCAL_ROUNDS overrides it for benchmarking.
  p.local_rounds = low_degree ? kLocalWaves : 0;
  if (t.cuda_local_rounds) p.local_rounds = *t.cuda_local_rounds;
  // The local waves read the light arcs from an ELL copy (relax_wave_ell(),
  // 8 * kEllSlots bytes per vertex, built per run since the light set
  // depends on delta). GSP_CUDA_ELL=0 keeps them on the CSR (relax_tile())
  // for benchmarking.
  p.use_ell = p.local_rounds > 0 && n > 0;
  p.use_ell = p.use_ell && t.cuda_ell;
  // Speculative pushes in the ELL waves (relax_arc_spec()): they need every
  // weight > 0 (a distance must grow along each arc, so a vertex cannot be
  // re-offered the distance it already holds through a cycle).
  // GSP_CUDA_SPEC=0 turns them off for benchmarking.
  p.speculate = p.use_ell && p.delta_mode && graph.min_weight() > 0;
  p.speculate = p.speculate && t.cuda_spec;
  // Resident blocks per SM for the persistent kernel: fewer blocks make the
  // grid barrier cheaper, more hide latency on big frontiers. With local
  // waves 3 (as many as the registers allow) beat 2 since the speculative
  // pushes (H100: NY 2.66-2.69 vs 2.73-2.97 ms; 1024^2 grid 5.15 vs
  // 5.31 ms); without them 2 is kept (doc/gpu-sssp-family.md).
  // GSP_CUDA_PERSISTENT_BLOCKS_PER_SM (1..4) overrides it for benchmarking.
  // A pass of many copies has frontiers big enough to use 3 without the
  // waves too (H100, 32 copies: R-MAT 2^20 0.147 vs 0.170 s at K = 64,
  // Graph65536 0.081 vs 0.082 s at K = 1024).
  p.per_sm = (p.local_rounds > 0 || batched) ? 3 : 2;
  if (t.cuda_persistent_blocks_per_sm) p.per_sm = *t.cuda_persistent_blocks_per_sm;
  // The filtering load before each atomicMin (relax()): kept in the global
  // tiles, dropped in the block-local waves, where a wave is one dependent
  // chain of L2 round trips (measured on the H100: NY 4.43 -> 4.11 ms).
  // GSP_CUDA_FILTER = both | global | none overrides it for benchmarking.
  if (t.cuda_filter) {
    p.filter_global = *t.cuda_filter != CudaFilter::kNone;
    p.filter_local = *t.cuda_filter == CudaFilter::kBoth;
  }
  return p;
}

// Device bytes of label state per label (label record, near and far lists,
// ...) under policy p: what a pass of c copies of an n-vertex graph needs is
// about c * n times this.
template <class W>
size_t frontier_bytes_per_label(const FrontierPolicy& p) {
  size_t b = sizeof(LabelState<W>) + 4 + 4;  // the record, near0, near1
  if (p.delta_mode) b += 2 * 2 * 4;      // far0/far1 (2 labels each)
  if (p.split) b += 4;                   // rlist
  return b;
}

// The engine for one graph: the per-run arc arrays (light/heavy split, ELL
// copy) built once, label state for up to max_labels labels, and run() for
// one source or a pass of copies. After a run, packed() holds each label's
// word (LabelWord: (distance, parent), or for double the distance key
// alone) and scratch0/1() (n labels' worth each, the near lists) are free
// for the caller's output. With a stage clock, a search's
// initialisation (and, in the constructor's run, the arc copies) is marked
// as set-up and the persistent kernel as compute.
template <class W>
class FrontierSearch {
 public:
  // copies = 0: one search over the graph's n vertices; else passes of up
  // to `copies` copies (max_labels = copies * n).
  FrontierSearch(RunContext& ctx, const Graph& graph, const DeviceCsr<W>& g,
                 const FrontierPolicy& p, int32_t copies, StageClock* clock = nullptr)
      : ctx_(ctx), graph_(graph), p_(p), clock_(clock) {
    const int32_t n = graph.n();
    const int64_t m = graph.m();
    const int64_t labels = copies == 0 ? n : static_cast<int64_t>(copies) * n;
    if (labels > std::numeric_limits<int32_t>::max() - 1024) {
      throw Error(GSP_ERR_INTERNAL, "frontier search: too many labels for one pass");
    }
    a_.n = n;
    a_.source = 0;
    a_.stop_vertex = -1;
    a_.copy_n = 0;
    a_.sources = nullptr;
    a_.delta_mode = p.delta_mode;
    a_.has_heavy = p.split;
    a_.inv_delta = p.delta_mode ? 1.0 / p.delta : 0.0;
    a_.far_cap = p.delta_mode ? 2ull * static_cast<unsigned long long>(labels) + 1024ull : 0ull;
    a_.local_rounds = p.local_rounds;
    a_.speculate = p.speculate;
    a_.filter_global = p.filter_global;
    a_.filter_local = p.filter_local;
    a_.max_rounds = p.delta_mode ? std::numeric_limits<long long>::max() : labels;
    const size_t L = static_cast<size_t>(labels);
    ws_.add(&a_.labels, L);
    ws_.add(&a_.near0, L);
    ws_.add(&a_.near1, L);
    ws_.add(&a_.ctrl, 1);
    ws_.add(&flags_, 4);
    int32_t* tgt2 = nullptr;
    W* wt2 = nullptr;
    int64_t* lend = nullptr;
    if (p.delta_mode) {
      ws_.add(&a_.far0, a_.far_cap);
      ws_.add(&a_.far1, a_.far_cap);
    }
    if (p.split) {
      ws_.add(&a_.rlist, L);
      ws_.add(&tgt2, static_cast<size_t>(m));
      ws_.add(&wt2, static_cast<size_t>(m));
      ws_.add(&lend, n);
    }
    if constexpr (sizeof(W) > 4) {
      if (copies == 0) ws_.add(&wide_, L);
    }
    EllEntry<W>* ell = nullptr;
    if (p.use_ell) ws_.add(&ell, static_cast<size_t>(n) * kEllSlots);
    if (copies > 0) ws_.add(&d_sources_, static_cast<size_t>(copies));
    ws_.allocate(ctx, p.bellman_ford ? "Bellman-Ford frontier state" : "delta-stepping state");
    a_.packed.base = a_.bucket.base = a_.labels;
    a_.nstamp.base = a_.rstamp.base = a_.fstamp.base = a_.done_key.base = a_.labels;
    cudaStream_t st = ctx.stream();
    if (p.split) {
      split_kernel<W><<<grid_for(ctx, static_cast<int64_t>(n) * 32, 256), 256, 0, st>>>(
          n, g.offsets, g.targets, g.weights, p.delta, tgt2, wt2, lend);
      GSP_CUDA_LAUNCH();
      a_.off = g.offsets;
      a_.lend = lend;
      a_.tgt = tgt2;
      a_.wt = wt2;
    } else {
      // Every arc light: the graph's own arrays, heavy ranges empty.
      a_.off = g.offsets;
      a_.lend = g.offsets + 1;
      a_.tgt = g.targets;
      a_.wt = g.weights;
    }
    if (p.use_ell) {
      ell_kernel<W><<<grid_for(ctx, static_cast<int64_t>(n) * kEllSlots, 256), 256, 0, st>>>(
          n, a_.off, a_.lend, a_.tgt, a_.wt, ell);
      GSP_CUDA_LAUNCH();
      a_.ell = ell;
    }
  }

  // One search from `source`; with stop_vertex >= 0 it may stop once that
  // vertex's label is final (Ctrl::stopped), the labels not final by then
  // made unreached.
  Ctrl run(int32_t source, int32_t stop_vertex = -1) {
    a_.n = graph_.n();
    a_.copy_n = 0;
    a_.source = source;
    a_.stop_vertex = stop_vertex;
    a_.sources = nullptr;
    a_.max_rounds = p_.delta_mode ? std::numeric_limits<long long>::max() : a_.n;
    start(graph_.m());
    Ctrl h = wait();
    if (h.stopped != 0) {
      cut_unsettled_kernel<W><<<grid_for(ctx_, a_.n, 256), 256, 0, ctx_.stream()>>>(a_, h.stop_bucket);
      GSP_CUDA_LAUNCH();
    }
    return h;
  }

  // Starts count searches at once, copy c from sources[c] (host array),
  // count at most the constructor's copies; label c * n + v is vertex v of
  // copy c. The host may work until wait().
  void start_copies(const int32_t* sources, int32_t count) {
    const int32_t n = graph_.n();
    GSP_CUDA(cudaMemcpyAsync(d_sources_, sources, sizeof(int32_t) * count,
                             cudaMemcpyHostToDevice, ctx_.stream()));
    a_.n = static_cast<int32_t>(static_cast<int64_t>(count) * n);
    a_.copy_n = n;
    a_.source = -1;
    a_.stop_vertex = -1;
    a_.sources = d_sources_;
    start(graph_.m() * count);
  }

  // Waits for the search(es) started last; their control words.
  Ctrl wait() {
    Ctrl h{};
    GSP_CUDA(cudaMemcpyAsync(&h, a_.ctrl, sizeof(Ctrl), cudaMemcpyDeviceToHost, ctx_.stream()));
    ctx_.sync();
    return h;
  }

  // Each label's word: packed() + v, packed()[v].
  GSP_LABEL_FIELD(W, LabelWord<W>, packed) packed() const { return a_.packed; }
  // The device copy of the sources of the pass started last
  // (start_copies()).
  const int32_t* sources() const { return d_sources_; }
  // One search: room for a W per label (the near list 0, or for 8-byte
  // distances an array of their own).
  W* dist_scratch() const {
    if constexpr (sizeof(W) > 4) {
      return wide_;
    } else {
      return reinterpret_cast<W*>(a_.near0);
    }
  }
  int32_t* scratch0() const { return a_.near0; }
  int32_t* scratch1() const { return a_.near1; }
  int* flag3() const { return flags_; }
  int blocks() const { return blocks_; }

 private:
  void start(int64_t arcs) {
    cudaStream_t st = ctx_.stream();
    // Zero the whole control block first: the init kernel sets the fields it
    // uses, and the block (padding included) is copied back whole at the end.
    GSP_CUDA(cudaMemsetAsync(a_.ctrl, 0, sizeof(Ctrl), st));
    frontier_init_kernel<W><<<grid_for(ctx_, a_.n, 256), 256, 0, st>>>(a_);
    GSP_CUDA_LAUNCH();
    auto kernel = frontier_kernel<W>;
    const int64_t useful =
        std::max<int64_t>(1, (std::max<int64_t>(a_.n, arcs) + kThreads - 1) / kThreads);
    blocks_ = coop_blocks(ctx_, kernel, kThreads, p_.per_sm, useful);
    void* params[] = {&a_};
    if (clock_ != nullptr) clock_->mark(Stage::kSetup);
    GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks_, kThreads,
                                         params, 0, st));
    GSP_CUDA_LAUNCH();
    if (clock_ != nullptr) clock_->mark(Stage::kCompute);
  }

  RunContext& ctx_;
  const Graph& graph_;
  FrontierPolicy p_;
  FArgs<W> a_{};
  Workspace ws_;
  int32_t* d_sources_ = nullptr;
  W* wide_ = nullptr;
  int* flags_ = nullptr;
  int blocks_ = 0;
  StageClock* clock_ = nullptr;
};

}  // namespace
}  // namespace gsp::detail::gpu::family
