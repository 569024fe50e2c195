// The frontier engine's host side, shared by one search
// (sssp_delta_stepping.cu: delta-stepping, Bellman-Ford) and many searches
// advanced together (apsp_delta_stepping.cu): the policy (delta, one bucket
// or buckets, block-local waves, ELL copy, speculation, grid size) and a
// FrontierSearch that owns the per-run arc arrays and the label state, and
// runs the persistent kernel for one source or for a pass of several.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/tuning.h"
#include "sssp/frontier_kernels.cuh"
#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

// Delta of one search (doc/gpu-sssp-family.md, "Choosing delta"): delta =
// scale * mean_weight / avg_out_degree, scale kLowDegreeDeltaScale on graphs
// of average out-degree <= kLocalWaveMaxDegree (roads, meshes) and
// kExpanderDeltaScale above (random, power-law). A bucket's phases cost a
// grid barrier and a chain of dependent latencies whatever their size, so
// on the GPU buckets are wider than a CPU's, but each width here keeps the
// relaxations within 2x of Dijkstra's one per arc. Measured on the H200
// (bench_sssp_work, 2026-12-01; ms, relaxations per arc) against the widths
// before (32 max_weight / avg_out_degree on roads, one bucket above):
// NY 2.96 / 1.65 (was 2.78 / 9.4), 2^22 grid 10.8 / 2.12 (11.6 / 1.71),
// uniform 2^22 x 8 5.9 / 1.28 (10.5 / 4.1, most of the 10.5 the overflow
// pass before it was fixed), R-MAT 2^22 x 16 11.5 / 1.68 (8.6 / 2.51); with 3
// blocks an SM on expanders (below) uniform 6.2 and R-MAT 9.7 ms.
// GSP_CUDA_DS_DELTA_SCALE overrides the scale.
constexpr double kLowDegreeDeltaScale = 96.0;
constexpr double kExpanderDeltaScale = 16.0;

// Arcs above which a frontier vertex goes to the hub list (frontier_policy()).
constexpr long long kHubArcs = 4096;

inline double mean_delta(const Graph& graph, double scale) {
  const double avg_deg = graph.n() > 0 ? std::max(1.0, static_cast<double>(graph.m()) / graph.n()) : 1.0;
  const double d = scale * graph.mean_weight() / avg_deg;
  if (d > 0 && std::isfinite(d)) return d;
  return graph.max_weight() > 0 && std::isfinite(graph.max_weight()) ? graph.max_weight() : 1.0;
}

// How the frontier engine runs on a graph (see frontier_policy()).
struct FrontierPolicy {
  bool bellman_ford = false;  // one bucket, every arc light, round limit n
  bool delta_mode = false;    // buckets of width delta (else one bucket)
  double delta = 0;
  bool split = false;         // some arc is heavy: light/heavy arc copy
  bool split_filter = false;  // some arc is heavy: told apart by weight, no copy
  int local_rounds = 0;       // block-local waves per light round
  bool use_ell = false;       // local waves read an ELL copy of the light arcs
  bool speculate = false;     // speculative pushes in the ELL waves
  int per_sm = 2;             // resident blocks per SM of the persistent kernel
  bool filter_global = true;  // filtering load before the atomicMin, global tiles
  bool filter_local = false;  // the same in the block-local waves
  long long hub_arcs = 0;     // a global tile's vertex with more arcs goes to the hub list (0: none)
  bool trace = false;         // GSP_CUDA_TRACE: print each phase (one search)
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
  if (!(w > 0) || !std::isfinite(w)) return 1.0;
  return low_degree ? w : 0.5 * w;
}

// The policy for `graph` (user_delta: options.delta, 0 = choose; t: the
// run's tuning snapshot, RunOptions::tuning). batched: a pass of many copies
// (apsp_delta_stepping.cu), else one search.
inline FrontierPolicy frontier_policy(const Graph& graph, double user_delta, bool bellman_ford, const Tuning& t,
                                      bool batched = false) {
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  FrontierPolicy p;
  p.bellman_ford = bellman_ford;
  // Buckets of width delta (options.delta, else mean_delta() with the
  // scale for the graph's degree), or with GSP_CUDA_DS_ONE_BUCKET=1 on a
  // graph of average out-degree above kLocalWaveMaxDegree one bucket (delta
  // = infinity, run as the Bellman-Ford frontier without bucket
  // bookkeeping: the default before 2026-12-01, faster on R-MAT (8.5 vs
  // 9.7 ms) for 2.5 relaxations per arc instead of 1.7). Weights are
  // non-negative there, so the round limit is never reached.
  const bool low_degree = n > 0 && static_cast<double>(m) / n <= kLocalWaveMaxDegree;
  const bool one_bucket = !bellman_ford && !(user_delta > 0) && !low_degree && !batched && t.cuda_ds_one_bucket;
  p.delta_mode = !bellman_ford && !one_bucket;
  const double scale = t.cuda_ds_delta_scale ? static_cast<double>(*t.cuda_ds_delta_scale)
                       : low_degree          ? kLowDegreeDeltaScale
                                             : kExpanderDeltaScale;
  p.delta = !p.delta_mode    ? 0.0
            : user_delta > 0 ? user_delta
            : batched        ? batched_delta(graph, low_degree)
                             : mean_delta(graph, scale);
  const bool some_heavy = p.delta_mode && m > 0 && p.delta < graph.max_weight();
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
  // Heavy arcs (only when some arc weighs more than delta): a light-first
  // copy of the arcs, made each run (8 bytes an arc; the ELL waves read a
  // copy of the light arcs anyway), or, without the ELL waves, a weight
  // test on the graph's own arcs: the copy cost R-MAT 2^22 x 16 5-6 ms a run
  // (m4: 17.0 vs 11.9 ms, the same 1.11 relaxations per arc). Without any
  // split (Near-Far: every arc in every light round) R-MAT relaxed 1.98
  // arcs per arc against 1.11 at that width (10.4 ms).
  // GSP_CUDA_DS_SPLIT = copy | filter | none overrides it (filter falls back
  // to the copy with ELL waves).
  // A pass of many copies keeps the copy (made once for all its passes).
  const CudaSplit split = t.cuda_ds_split          ? *t.cuda_ds_split
                          : (p.use_ell || batched) ? CudaSplit::kCopy
                                                   : CudaSplit::kFilter;
  p.split = some_heavy && (split == CudaSplit::kCopy || (split == CudaSplit::kFilter && p.use_ell));
  p.split_filter = some_heavy && split == CudaSplit::kFilter && !p.use_ell;
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
  // With buckets on expanders 3 beat 2 as well (H200: R-MAT 2^22 x 16
  // 10.1 vs 11.7 ms, uniform 2^22 x 8 5.8 vs 6.0 ms); one bucket and
  // Bellman-Ford keep 2.
  p.per_sm = (p.local_rounds > 0 || batched || p.delta_mode) ? 3 : 2;
  if (t.cuda_persistent_blocks_per_sm) p.per_sm = *t.cuda_persistent_blocks_per_sm;
  // The filtering load before each atomicMin (relax()): kept in the global
  // tiles, dropped in the block-local waves, where a wave is one dependent
  // chain of L2 round trips (measured on the H100: NY 4.43 -> 4.11 ms).
  // GSP_CUDA_FILTER = both | global | none overrides it for benchmarking.
  if (t.cuda_filter) {
    p.filter_global = *t.cuda_filter != CudaFilter::kNone;
    p.filter_local = *t.cuda_filter == CudaFilter::kBoth;
  }
  // Hubs: a global tile gives its vertices' arcs to one block, so one vertex
  // of a power-law graph (R-MAT's vertex 0: about 160k of 2^22 x 16 arcs)
  // holds the whole grid at the barrier while one block relaxes it. A vertex
  // with more than kHubArcs arcs is put in the hub list instead, and every
  // block relaxes an equal share of the hubs' arcs in the next phase.
  // Bellman-Ford keeps its one-hop-per-round count exact (the negative-cycle
  // rule), so it has none; nor, for now, a pass of many copies (not
  // measured there yet). GSP_CUDA_HUB_ARCS overrides it (0: none).
  // Measured on R-MAT 2^22 x 16 (H200): 7.5 ms against 12.3 without.
  p.hub_arcs = (bellman_ford || batched) ? 0 : kHubArcs;
  if (t.cuda_hub_arcs && p.hub_arcs > 0) p.hub_arcs = *t.cuda_hub_arcs;
  p.trace = t.cuda_trace;
  return p;
}

// Device bytes of label state per label (label record, near and far lists,
// ...) under policy p: what a pass of c copies of an n-vertex graph needs is
// about c * n times this.
template <class W>
size_t frontier_bytes_per_label(const FrontierPolicy& p) {
  size_t b = sizeof(LabelState<W>) + 4 + 4;  // the record, near0, near1
  if (p.delta_mode) b += 2 * 2 * 4;          // far0/far1 (2 labels each)
  if (p.split || p.split_filter) b += 4;     // rlist
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
  FrontierSearch(RunContext& ctx, const Graph& graph, const DeviceCsr<W>& g, const FrontierPolicy& p, int32_t copies,
                 StageClock* clock = nullptr)
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
    a_.has_heavy = p.split || p.split_filter;
    a_.split_filter = p.split_filter;
    a_.delta = p.delta;
    a_.inv_delta = p.delta_mode ? 1.0 / p.delta : 0.0;
    a_.far_cap = p.delta_mode ? 2ull * static_cast<unsigned long long>(labels) + 1024ull : 0ull;
    a_.local_rounds = p.local_rounds;
    a_.speculate = p.speculate;
    a_.filter_global = p.filter_global;
    a_.filter_local = p.filter_local;
    a_.hub_arcs = p.hub_arcs;
    a_.max_rounds = max_rounds(labels);
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
    if (p.split || p.split_filter) ws_.add(&a_.rlist, L);
    if (p.split) {
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
    if (p.hub_arcs > 0) {
      ws_.add(&a_.hub0, kHubCap);
      ws_.add(&a_.hub1, kHubCap);
    }
    if (p.trace && copies == 0) ws_.add(&trace_, 2 * static_cast<size_t>(kTraceCap));
    ws_.allocate(ctx, p.bellman_ford ? "Bellman-Ford frontier state" : "delta-stepping state");
    a_.trace = trace_;
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
      ell_kernel<W><<<grid_for(ctx, static_cast<int64_t>(n) * kEllSlots, 256), 256, 0, st>>>(n, a_.off, a_.lend, a_.tgt,
                                                                                             a_.wt, ell);
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
    a_.max_rounds = max_rounds(a_.n);
    start(graph_.m());
    Ctrl h = wait();
    if (trace_ != nullptr) print_trace(h);
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
    GSP_CUDA(cudaMemcpyAsync(d_sources_, sources, sizeof(int32_t) * count, cudaMemcpyHostToDevice, ctx_.stream()));
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
  // The round limit: Bellman-Ford's n (one hop a round); one bucket with
  // hubs, whose arcs go a phase later, 2n + 2 (never reached with weights
  // >= 0); buckets: none.
  long long max_rounds(long long labels) const {
    if (p_.delta_mode) return std::numeric_limits<long long>::max();
    return p_.hub_arcs > 0 ? 2 * labels + 2 : labels;
  }

  // GSP_CUDA_TRACE: one line a phase on stderr.
  void print_trace(const Ctrl& h) {
    const long long phases = std::min<long long>(h.rounds + 1, kTraceCap);
    std::vector<unsigned long long> t(2 * static_cast<size_t>(phases));
    GSP_CUDA(cudaMemcpy(t.data(), trace_, sizeof(unsigned long long) * t.size(), cudaMemcpyDeviceToHost));
    static const char* const kKind[4] = {"light", "heavy", "open", "end"};
    std::fprintf(stderr, "frontier trace: %lld phases, %llu relaxations, %d blocks\n", h.rounds, h.relax, blocks_);
    for (long long i = 0; i + 1 < phases; ++i) {
      const unsigned long long w = t[2 * i + 1];
      std::fprintf(stderr, "  %5lld %-5s k %10llu hubs %5llu  %9.3f us\n", i, kKind[w >> 62], w & 0xffffffffull,
                   (w >> 32) & 0x3fffffffull, (t[2 * i + 2] - t[2 * i]) * 1e-3);
    }
  }

  void start(int64_t arcs) {
    cudaStream_t st = ctx_.stream();
    // Zero the whole control block first: the init kernel sets the fields it
    // uses, and the block (padding included) is copied back whole at the end.
    GSP_CUDA(cudaMemsetAsync(a_.ctrl, 0, sizeof(Ctrl), st));
    frontier_init_kernel<W><<<grid_for(ctx_, a_.n, 256), 256, 0, st>>>(a_);
    GSP_CUDA_LAUNCH();
    auto kernel = frontier_kernel<W>;
    const int64_t useful = std::max<int64_t>(1, (std::max<int64_t>(a_.n, arcs) + kThreads - 1) / kThreads);
    blocks_ = coop_blocks(ctx_, kernel, kThreads, p_.per_sm, useful);
    void* params[] = {&a_};
    if (clock_ != nullptr) clock_->mark(Stage::kSetup);
    GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks_, kThreads, params, 0, st));
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
  unsigned long long* trace_ = nullptr;
  int blocks_ = 0;
  StageClock* clock_ = nullptr;
};

}  // namespace
}  // namespace gsp::detail::gpu::family
