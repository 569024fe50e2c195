// GSP_APSP_SPMM on CUDA: Bellman-Ford for many sources at once as repeated
// min-plus products of the transposed adjacency with a block of distance
// columns (a min-plus SpMM), in passes of up to kTileMax sources.
//
// A pass keeps X[v][k], the distance of vertex v from source k, vertex-major
// (the K distances of one vertex are one contiguous run), and repeats
//     X[v][k] = min(X[v][k], min over in-arcs (u, v, w) of X[u][k] + w)
// for every vertex v marked active, until a round changes nothing. One warp
// owns a vertex: its in-arcs (the reverse CSR) are read once and each lane
// relaxes VEC sources with vector loads of X[u][...], so one arc costs K
// coalesced reads of a row that stays in L2 (a pass of 128 sources on n =
// 65,536 holds 32 MiB), with no atomics: only v's warp writes X[v] (hubs
// aside, below). A vertex that improves marks its out-neighbours active for
// the next round. Rounds run in place (an update is seen by later vertices
// of the same round, which only speeds convergence) inside one cooperative
// launch, a grid barrier between rounds. With weights >= 0 the rounds
// number at most the largest arc count of a shortest path plus one, so this
// engine suits graphs of small hop depth (random and social graphs: 24-29
// rounds on Graph65536), and is slow on road networks (thousands of
// rounds); AUTO's cost model (dispatch/cuda_cost_model.cpp) charges rounds
// by the graph's hop depth.
//
// A hub, a vertex of more than GSP_CUDA_SPMM_HUB_ARCS in-arcs (default
// 1024), would make its warp a serial chain in every round (in-degree
// 69,271 on R-MAT 2^20: 69 ms a round). Its in-arcs are split into chunks of
// at most that many, planned on the host once a run; after the per-vertex
// loop, warps take the chunks of active hubs and lower X[v] with atomicMin
// (the one place X sees atomics). A second grid barrier in the round, then a
// warp per hub clears its activity flag and wakes its out-neighbours when a
// chunk lowered it. A graph without hubs runs the kernel without either.
//
// After a pass, a predecessor kernel gives v, in each column, an in-neighbour
// u with X[u] < X[v] and X[u] + w == X[v] (a tight arc down the distance
// order: such parents cannot form a cycle), and checks int32 sums as the
// CPU engines do; columns are transposed into rows (sparse::transpose) and
// go to host memory while the next pass runs (pass_pipeline.cuh). A vertex
// left without a strictly smaller tight in-neighbour (zero-weight arcs, or a
// float weight absorbed by rounding) flags its pass, whose rows are then
// checked and rebuilt on the host (core/pred_repair.h).
//
// Measured against batched delta-stepping and task-parallel:
// doc/gpu-apsp-sparse.md, "`GSP_APSP_SPMM`: min-plus SpMM Bellman-Ford".
#include <algorithm>
#include <vector>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "apsp_sparse/pass_pipeline.cuh"
#include "core/tuning.h"
#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu {
namespace {

namespace cg = cooperative_groups;
using sparse::dist_inf;

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;
// Sources per pass: a tile of 32 lanes x 4 (one 16-byte load per lane and
// arc). Fewer sources use tiles of 32 or 64.
constexpr int32_t kTileMax = 128;
// In-degree above which a vertex's in-arcs are split into chunks of at most
// this many arcs, one warp each (GSP_CUDA_SPMM_HUB_ARCS overrides it).
constexpr int64_t kHubArcs = 1024;

// A hub's in-arcs [first, first + arcs) of the reverse CSR.
struct HubChunk {
  int64_t first;
  int32_t v;
  int32_t arcs;
};

template <class W>
struct SpmmArgs {
  int32_t n = 0;
  const int64_t* in_off = nullptr;  // reverse CSR: in-arcs of v
  const int32_t* in_src = nullptr;
  const W* in_w = nullptr;
  const int64_t* out_off = nullptr;  // forward CSR: who to wake
  const int32_t* out_dst = nullptr;
  W* x = nullptr;  // n x K, vertex-major
  uint8_t* active[2] = {nullptr, nullptr};
  int* changed = nullptr;       // 3 slots, rotated by round
  long long* rounds = nullptr;  // out: rounds run (> max_rounds: did not converge)
  long long max_rounds = 0;
};

// The hubs (the kernel's HUBS variant only): vertices of more than hub_arcs
// in-arcs, scanned in chunks by several warps.
struct HubArgs {
  int64_t hub_arcs = 0;
  const HubChunk* chunks = nullptr;
  int64_t num_chunks = 0;
  const int32_t* hubs = nullptr;
  int64_t num_hubs = 0;
  uint8_t* improved = nullptr;  // n: a hub's X went down this round
};

// The candidate X[u] + w for X[v], or inf when X[u] is inf or an int32 sum
// would reach the infinity (overflow is judged on the final distances, by
// the predecessor kernel, as the CPU engines judge it).
template <class W, class = std::enable_if_t<std::is_floating_point_v<W>>>
__device__ inline W candidate(W xu, W w) {
  return xu + w;
}
__device__ inline int32_t candidate(int32_t xu, int32_t w) {
  const long long s = static_cast<long long>(xu) + w;
  return (xu == dist_inf<int32_t>() || s >= dist_inf<int32_t>()) ? dist_inf<int32_t>() : static_cast<int32_t>(s);
}

// VEC consecutive values of row u, read through L2 (other warps write X in
// this launch; L1 is not coherent).
template <class W, int VEC>
__device__ inline void load_row(const W* p, W (&out)[VEC]) {
  if constexpr (sizeof(W) == 8 && VEC >= 2) {
    // double: 16-byte loads (there is no 32-byte vector load type to use)
    for (int i = 0; i < VEC; i += 2) {
      const double2 q = __ldcg(reinterpret_cast<const double2*>(p) + i / 2);
      out[i] = q.x, out[i + 1] = q.y;
    }
  } else if constexpr (VEC == 4) {
    using V = std::conditional_t<std::is_same_v<W, float>, float4, int4>;
    const V q = __ldcg(reinterpret_cast<const V*>(p));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
  } else if constexpr (VEC == 2) {
    using V = std::conditional_t<std::is_same_v<W, float>, float2, int2>;
    const V q = __ldcg(reinterpret_cast<const V*>(p));
    out[0] = q.x, out[1] = q.y;
  } else {
    out[0] = __ldcg(p);
  }
}

// Calls visit(u, w, xu) for each in-arc (u, w) in [first, end) of the
// reverse CSR (src, wt), xu being X[u][lane * VEC ...] (VEC values), until
// done() (which must agree across the warp) holds at a batch boundary. The
// warp reads 32 arcs at a time (one coalesced load, then shuffles) and the
// rows of kRowsInFlight arcs before visiting them, so their L2 round trips
// overlap instead of forming one chain per arc.
constexpr int kRowsInFlight = 4;
template <class W, int VEC, class Visit, class Done>
__device__ inline void scan_in_arcs(const int32_t* src, const W* wt, const W* x, int64_t first, int64_t end, int lane,
                                    Visit visit, Done done) {
  constexpr int K = 32 * VEC;
  for (int64_t base = first; base < end && !done(); base += 32) {
    const int32_t take = static_cast<int32_t>(end - base < 32 ? end - base : 32);
    const int32_t my_u = lane < take ? src[base + lane] : 0;
    const W my_w = lane < take ? wt[base + lane] : W(0);
    for (int32_t j = 0; j < take; j += kRowsInFlight) {
      W xu[kRowsInFlight][VEC];
      int32_t u[kRowsInFlight];
      W w[kRowsInFlight];
#pragma unroll
      for (int t = 0; t < kRowsInFlight; ++t) {
        u[t] = __shfl_sync(0xffffffffu, my_u, (j + t) & 31);
        w[t] = __shfl_sync(0xffffffffu, my_w, (j + t) & 31);
        if (j + t < take) {
          load_row<W, VEC>(x + static_cast<int64_t>(u[t]) * K + lane * VEC, xu[t]);
        } else {
#pragma unroll
          for (int i = 0; i < VEC; ++i) xu[t][i] = dist_inf<W>();
        }
      }
#pragma unroll
      for (int t = 0; t < kRowsInFlight; ++t) visit(u[t], w[t], xu[t]);
    }
  }
}

// best[i] = min(best[i], X[u][lane * VEC + i] + w) over the in-arcs [first, end).
template <class W, int VEC>
__device__ inline void min_over_in_arcs(const SpmmArgs<W>& a, int64_t first, int64_t end, int lane, W (&best)[VEC]) {
  scan_in_arcs<W, VEC>(
      a.in_src, a.in_w, a.x, first, end, lane,
      [&](int32_t, W w, const W(&xu)[VEC]) {
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
          const W c = candidate(xu[i], w);
          if (c < best[i]) best[i] = c;
        }
      },
      [] { return false; });
}

// HUBS: the graph has vertices of more than h.hub_arcs in-arcs. The
// per-vertex loop skips them; after it, in the same round, warps take their
// chunks (h.chunks) and lower X[v] with atomicMin, noting improved[v]. A
// second grid barrier, then a warp per hub clears its `cur` flag and, when
// it went down, wakes its out-neighbours and sets the round's `changed`
// slot, all before the round's last barrier: every read of a hub's `cur`
// flag (the per-vertex loop, the chunks) precedes the second barrier, every
// clear of it follows. Without hubs the kernel is the per-vertex loop alone
// (the same code as before hubs were split).
template <class W, int VEC, bool HUBS>
__global__ void __launch_bounds__(kThreads, 4) spmm_rounds_kernel(SpmmArgs<W> a, HubArgs h) {
  constexpr int K = 32 * VEC;
  cg::grid_group grid = cg::this_grid();
  const int lane = threadIdx.x & 31;
  const int64_t first_warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int64_t warps = (static_cast<int64_t>(gridDim.x) * blockDim.x) >> 5;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  for (long long r = 0; r < a.max_rounds; ++r) {
    volatile uint8_t* cur = (r & 1) != 0 ? a.active[1] : a.active[0];
    uint8_t* next = (r & 1) != 0 ? a.active[0] : a.active[1];
    for (int64_t v = first_warp; v < a.n; v += warps) {
      const bool on = cur[v] != 0;
      __syncwarp();
      if (!on) continue;
      if constexpr (HUBS) {
        if (a.in_off[v + 1] - a.in_off[v] > h.hub_arcs) continue;  // its chunks, below
      }
      if (lane == 0) cur[v] = 0;  // clean for its turn as `next`
      W* xv = a.x + v * K + lane * VEC;
      W old[VEC], best[VEC];
      load_row<W, VEC>(xv, old);
#pragma unroll
      for (int i = 0; i < VEC; ++i) best[i] = old[i];
      min_over_in_arcs<W, VEC>(a, a.in_off[v], a.in_off[v + 1], lane, best);
      bool improved = false;
#pragma unroll
      for (int i = 0; i < VEC; ++i) {
        if (best[i] < old[i]) {
          xv[i] = best[i];
          improved = true;
        }
      }
      if (__ballot_sync(0xffffffffu, improved) != 0) {
        for (int64_t e = a.out_off[v] + lane; e < a.out_off[v + 1]; e += 32) next[a.out_dst[e]] = 1;
        if (lane == 0) a.changed[r % 3] = 1;
      }
    }
    if constexpr (HUBS) {
      volatile uint8_t* improved = h.improved;
      // The chunks of active hubs: no write to `cur` in this phase.
      for (int64_t c = first_warp; c < h.num_chunks; c += warps) {
        const HubChunk ch = h.chunks[c];
        if (cur[ch.v] == 0) continue;
        W best[VEC];
#pragma unroll
        for (int i = 0; i < VEC; ++i) best[i] = dist_inf<W>();
        min_over_in_arcs<W, VEC>(a, ch.first, ch.first + ch.arcs, lane, best);
        W* xv = a.x + static_cast<int64_t>(ch.v) * K + lane * VEC;
        W old[VEC];
        load_row<W, VEC>(xv, old);
        // A column below the value read went down this round, by this
        // atomicMin or another chunk's (which then notes it too).
        bool lower = false;
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
          if (best[i] < old[i]) {
            sparse::atomic_min_dist(xv + i, best[i]);
            lower = true;
          }
        }
        if (__ballot_sync(0xffffffffu, lower) != 0 && lane == 0) improved[ch.v] = 1;
      }
      grid.sync();
      // Each hub's warp: clear its flag for its turn as `next`, wake its
      // out-neighbours when it went down. improved[] is next written after
      // the round's last barrier.
      for (int64_t i = first_warp; i < h.num_hubs; i += warps) {
        const int32_t v = h.hubs[i];
        const bool up = improved[v] != 0;
        __syncwarp();
        if (lane == 0) {
          cur[v] = 0;
          if (up) improved[v] = 0;
        }
        if (up) {
          for (int64_t e = a.out_off[v] + lane; e < a.out_off[v + 1]; e += 32) next[a.out_dst[e]] = 1;
          if (lane == 0) a.changed[r % 3] = 1;
        }
      }
    }
    grid.sync();
    const int any = static_cast<volatile int*>(a.changed)[r % 3];
    // Slot r + 2 was last read after the previous round's last barrier,
    // which every thread has passed; it is next written after the coming
    // one.
    if (leader) a.changed[(r + 2) % 3] = 0;
    if (any == 0) {
      if (leader) *a.rounds = r + 1;
      return;
    }
  }
  if (leader) *a.rounds = a.max_rounds + 1;
}

// A pass's start: X = inf, X[source_k][k] = 0, the sources' out-neighbours
// active for round 0, nothing active for round 1.
template <class W>
__global__ void spmm_seed_kernel(int32_t K, const int32_t* sources, int32_t count, const int64_t* out_off,
                                 const int32_t* out_dst, W* x, uint8_t* active0) {
  const int32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int32_t s = sources[k];
  x[static_cast<int64_t>(s) * K + k] = W(0);
  for (int64_t e = out_off[s]; e < out_off[s + 1]; ++e) active0[out_dst[e]] = 1;
}

// Predecessors (when pred != null) and the int32 overflow check of a
// converged pass, one warp per vertex, each lane VEC columns as in the
// rounds; the in-arcs are scanned once for all of them and the scan stops
// when every column has its parent. flags[0..2]: an arc (v, t) of a reached
// v whose sum overflows; flags[3]: some reached non-source vertex has no
// strictly smaller tight in-neighbour (its rows need the host check).
template <class W, int VEC>
__global__ void spmm_finish_kernel(int32_t n, int32_t count, const int32_t* sources, DeviceCsr<W> in, DeviceCsr<W> out,
                                   W max_w, const W* x, int32_t* pred, int* flags) {
  constexpr int K = 32 * VEC;
  const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= n) return;
  const int32_t v = static_cast<int32_t>(warp);
  const int64_t at = static_cast<int64_t>(v) * K + lane * VEC;
  W d[VEC];
  int32_t p[VEC];
  bool need[VEC];
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    const int32_t k = lane * VEC + i;
    d[i] = x[at + i];
    p[i] = -1;
    const bool reached = k < count && d[i] != dist_inf<W>();
    if constexpr (std::is_same_v<W, int32_t>) {
      if (reached && static_cast<long long>(d[i]) + max_w >= dist_inf<int32_t>()) {
        for (int64_t e = out.offsets[v]; e < out.offsets[v + 1]; ++e) {
          if (static_cast<long long>(d[i]) + out.weights[e] >= dist_inf<int32_t>()) {
            if (atomicCAS(flags, 0, 1) == 0) {
              flags[1] = v;
              flags[2] = out.targets[e];
            }
            break;
          }
        }
      }
    }
    need[i] = pred != nullptr && reached && v != sources[k];
  }
  if (pred == nullptr) return;
  scan_in_arcs<W, VEC>(
      in.targets, in.weights, x, in.offsets[v], in.offsets[v + 1], lane,
      [&](int32_t u, W w, const W(&xu)[VEC]) {
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
          if (need[i] && xu[i] < d[i] && candidate(xu[i], w) == d[i]) {
            p[i] = u;
            need[i] = false;
          }
        }
      },
      [&] {
        bool left = false;
#pragma unroll
        for (int i = 0; i < VEC; ++i) left = left || need[i];
        return __any_sync(0xffffffffu, left) == 0;
      });
  bool orphan = false;
#pragma unroll
  for (int i = 0; i < VEC; ++i) {
    orphan = orphan || need[i];
    pred[at + i] = p[i];
  }
  if (orphan) atomicExch(flags + 3, 1);
}

// The tile (columns of X) for a pass of `width` sources.
int32_t tile_for(int64_t width) { return width <= 32 ? 32 : width <= 64 ? 64 : kTileMax; }

// The run's hubs (vertices of more than `arcs` in-arcs, from the reverse
// CSR) and their chunks of at most `arcs` in-arcs; both empty on a graph
// without hubs.
struct HubPlan {
  int64_t arcs = kHubArcs;
  std::vector<HubChunk> chunks;
  std::vector<int32_t> hubs;

  // Device bytes: the chunks, the hubs, improved[] (and the workspace's
  // alignment of each).
  int64_t bytes(int64_t n) const {
    if (hubs.empty()) return 0;
    return static_cast<int64_t>(chunks.size() * sizeof(HubChunk) + hubs.size() * sizeof(int32_t)) + n + 3 * 256;
  }
};

HubPlan plan_hubs(const Graph& graph, const Tuning& knobs) {
  HubPlan plan;
  plan.arcs = knobs.cuda_spmm_hub_arcs.value_or(kHubArcs);
  const HostArray<int64_t>& off = graph.reverse().offsets;
  for (int32_t v = 0; v < graph.n(); ++v) {
    const int64_t end = off[v + 1];
    if (end - off[v] <= plan.arcs) continue;
    plan.hubs.push_back(v);
    for (int64_t first = off[v]; first < end; first += plan.arcs) {
      plan.chunks.push_back({first, v, static_cast<int32_t>(std::min(plan.arcs, end - first))});
    }
  }
  return plan;
}

// Sources per pass: up to kTileMax, fewer where the device memory budget
// allows fewer: X and the predecessor columns (tile wide), the pass's rows
// (width wide), the activity flags, the hubs' chunks (hub_bytes).
template <class W>
int32_t spmm_pass_width(RunContext& ctx, const Graph& graph, int32_t num_sources, bool paths, int64_t hub_bytes) {
  const int64_t n = graph.n();
  // a distance, and a predecessor with paths
  const int64_t per_value = static_cast<int64_t>(sizeof(W)) + (paths ? 4 : 0);
  const int64_t fixed = 4096 + 2 * n + hub_bytes;
  auto bytes = [&](int64_t width) { return fixed + n * (tile_for(width) + width) * per_value; };
  const int64_t left = static_cast<int64_t>(std::min<size_t>(ctx.budget_left(), size_t(1) << 62));
  int64_t width =
      std::min<int64_t>({ctx.options().tuning.cuda_batch_sources.value_or(kTileMax), kTileMax, num_sources});
  if (width > 64 && bytes(width) > left) width = 64;
  if (width > 32 && bytes(width) > left) width = 32;
  if (bytes(width) > left) width = std::min<int64_t>(width, (left - fixed) / (n * per_value) - 32);
  if (width < 1) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "apsp_spmm: one source needs " + std::to_string(bytes(1)) +
                                                  " bytes of device memory, and only " + std::to_string(left) +
                                                  " are left under the budget (options.device_memory_limit)");
  }
  return static_cast<int32_t>(sparse::balanced_batch(width, num_sources, 32));
}

// The passes for sparse::run_passes, at tile width 32 * VEC.
template <class W, int VEC>
struct SpmmPasses {
  static constexpr int32_t kTile = 32 * VEC;
  RunContext& ctx;
  const Graph& graph;
  DeviceCsr<W> in, out;
  W* x = nullptr;
  int32_t* columns_pred = nullptr;  // n x K predecessors (paths)
  int32_t* sources = nullptr;
  SpmmArgs<W> args{};
  HubArgs hubs{};
  void (*kernel)(SpmmArgs<W>, HubArgs) = nullptr;  // spmm_rounds_kernel<W, VEC, hubs or not>
  int blocks = 0;
  int64_t rounds = 0;

  void start(const int32_t* host_sources, int32_t c) {
    cudaStream_t st = ctx.stream();
    const int32_t n = graph.n();
    GSP_CUDA(
        cudaMemcpyAsync(sources, host_sources, static_cast<size_t>(c) * sizeof(int32_t), cudaMemcpyHostToDevice, st));
    sparse::fill(ctx, x, static_cast<size_t>(n) * kTile, dist_inf<W>());
    GSP_CUDA(cudaMemsetAsync(args.active[0], 0, 2 * static_cast<size_t>(n), st));
    GSP_CUDA(cudaMemsetAsync(args.changed, 0, 3 * sizeof(int), st));
    spmm_seed_kernel<W>
        <<<blocks_for(c, 128), 128, 0, st>>>(kTile, sources, c, out.offsets, out.targets, x, args.active[0]);
    GSP_CUDA_LAUNCH();
    void* params[] = {&args, &hubs};
    GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), blocks, kThreads, params, 0, st));
    GSP_CUDA_LAUNCH();
  }
  void wait() {
    long long r = 0;
    GSP_CUDA(cudaMemcpyAsync(&r, args.rounds, sizeof r, cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.sync();
    if (r > args.max_rounds) throw Error(GSP_ERR_INTERNAL, "apsp_spmm: a pass did not converge");
    rounds += r;
  }
  [[noreturn]] void overflow(int32_t u, int32_t v) { throw_overflow(u, v); }
  void emit(int32_t c, W* dist, int32_t* pred, int* flags) {
    const int32_t n = graph.n();
    spmm_finish_kernel<W, VEC><<<blocks_for(static_cast<int64_t>(n) * 32, kThreads), kThreads, 0, ctx.stream()>>>(
        n, c, sources, in, out, static_cast<W>(graph.max_weight()), x, pred != nullptr ? columns_pred : nullptr, flags);
    GSP_CUDA_LAUNCH();
    sparse::transpose(ctx, x, dist, n, kTile, c);
    if (pred != nullptr) sparse::transpose(ctx, columns_pred, pred, n, kTile, c);
  }
};

template <class W, int VEC>
void run_tiles(RunContext& ctx, const ApspJob& job, const DeviceCsr<W>& in, const DeviceCsr<W>& out,
               const HubPlan& plan, int32_t width, StageClock& clock, std::unique_ptr<sparse::ResultReady> ready) {
  constexpr int32_t kTile = 32 * VEC;
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const bool paths = job.options->want_paths;
  SpmmPasses<W, VEC> passes{ctx, graph, in, out};
  Workspace work;
  uint8_t* active = nullptr;
  HubChunk* chunks = nullptr;
  int32_t* hub_list = nullptr;
  const bool has_hubs = !plan.hubs.empty();
  work.add(&passes.x, static_cast<size_t>(n) * kTile);
  if (paths) work.add(&passes.columns_pred, static_cast<size_t>(n) * kTile);
  work.add(&passes.sources, static_cast<size_t>(kTile));
  work.add(&passes.args.changed, 3);
  work.add(&passes.args.rounds, 1);
  work.add(&active, 2 * static_cast<size_t>(n));
  if (has_hubs) {
    work.add(&chunks, plan.chunks.size());
    work.add(&hub_list, plan.hubs.size());
    work.add(&passes.hubs.improved, static_cast<size_t>(n));
  }
  work.allocate(ctx, "apsp_spmm workspace");
  if (has_hubs) {
    cudaStream_t st = ctx.stream();
    GSP_CUDA(
        cudaMemcpyAsync(chunks, plan.chunks.data(), plan.chunks.size() * sizeof(HubChunk), cudaMemcpyHostToDevice, st));
    GSP_CUDA(
        cudaMemcpyAsync(hub_list, plan.hubs.data(), plan.hubs.size() * sizeof(int32_t), cudaMemcpyHostToDevice, st));
    // Zeroed once a run: each round clears the flags it set, so a pass
    // leaves them zero.
    GSP_CUDA(cudaMemsetAsync(passes.hubs.improved, 0, static_cast<size_t>(n), st));
    passes.hubs.hub_arcs = plan.arcs;
    passes.hubs.chunks = chunks;
    passes.hubs.num_chunks = static_cast<int64_t>(plan.chunks.size());
    passes.hubs.hubs = hub_list;
    passes.hubs.num_hubs = static_cast<int64_t>(plan.hubs.size());
  }
  passes.args.n = n;
  passes.args.in_off = in.offsets;
  passes.args.in_src = in.targets;
  passes.args.in_w = in.weights;
  passes.args.out_off = out.offsets;
  passes.args.out_dst = out.targets;
  passes.args.x = passes.x;
  passes.args.active[0] = active;
  passes.args.active[1] = active + n;
  passes.args.max_rounds = static_cast<long long>(n) + 1;
  passes.kernel = has_hubs ? spmm_rounds_kernel<W, VEC, true> : spmm_rounds_kernel<W, VEC, false>;
  const int64_t useful_warps = std::max<int64_t>(n, static_cast<int64_t>(plan.chunks.size()));
  passes.blocks =
      coop_blocks(ctx, passes.kernel, kThreads, 2048 / kThreads, (useful_warps + kWarpsPerBlock - 1) / kWarpsPerBlock);
  clock.mark(Stage::kSetup);
  sparse::run_passes<W>(ctx, job, width, false, clock, passes, std::move(ready));
  if (job.stats != nullptr) job.stats->iterations = passes.rounds;
}

template <class W>
void run_spmm(RunContext& ctx, const ApspJob& job) {
  const Graph& graph = *job.graph;
  sparse::require_non_negative(job, "apsp_spmm");
  sparse::fill_stats(ctx, job);
  const int32_t n = graph.n();
  if (n == 0 || job.num_sources == 0) return;
  auto ready = sparse::start_result_ready<W>(ctx, job);  // beside the set-up below
  const DeviceCsr<W> out = device_graph<W>(ctx, graph);
  const DeviceCsr<W> in = device_reverse_graph<W>(ctx, graph);
  StageClock clock(ctx);
  const HubPlan plan = plan_hubs(graph, job.options->tuning);
  const int32_t width = spmm_pass_width<W>(ctx, graph, job.num_sources, job.options->want_paths, plan.bytes(n));
  if (tile_for(width) == 32) {
    run_tiles<W, 1>(ctx, job, in, out, plan, width, clock, std::move(ready));
  } else if (tile_for(width) == 64) {
    run_tiles<W, 2>(ctx, job, in, out, plan, width, clock, std::move(ready));
  } else {
    run_tiles<W, 4>(ctx, job, in, out, plan, width, clock, std::move(ready));
  }
}

}  // namespace

void apsp_spmm(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { run_spmm<decltype(w)>(ctx, job); });
}

}  // namespace gsp::detail::gpu
