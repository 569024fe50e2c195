// Road-index rows on CUDA (index_sssp, index_apsp: runtime/engines.cuh):
// PHAST's sweep on the device, as GPHAST does it (Delling, Goldberg,
// Nowatzyk, Werneck, IPDPS 2011). A row is the source's upward search (on
// the CPU's threads, a few hundred vertices on a road graph: the
// dispatcher's ChSeeder) and then one sweep down the hierarchy, where each
// vertex takes the best of its arcs from above. The sweep's order only has
// to put a vertex after every vertex it reads, so the vertices are grouped
// into levels (a vertex's level is one more than the highest level among
// the vertices it reads; the vertices of a level read nothing of each
// other) and a level is swept in parallel. The hierarchy's top (its
// first h.top.size positions, core/ch_top_table.h) is not swept: a row's
// labels there are the best of its upward search's entries into the top
// plus the top table, a lane a top vertex (top_cells). Below
// it New York's hierarchy has 25 levels (77 without the top table): the
// first 11 hold 15,314 vertices, a few thousand per level at most, and
// the last 14 the other 246,984.
//
// The sweep runs in sweep order (level by level; the index's own numbering
// within a level), its arcs renumbered to it, and each row's labels are
// lanes of one array: cell i * K + lane is sweep vertex i of row lane, so
// the K rows of a group read each arc once and their labels of a vertex
// are one 8 x K-byte run. The whole sweep of a pass is one cooperative
// launch (sweep_all_kernel): the top's cells, then each level, grid-wide
// barriers between them (a launch per level would cost a launch's
// latency, several microseconds, for a level of a few hundred cells; NY,
// one row: 123 us against 247 us for the older way). The older way, kept
// for devices without cooperative launches and behind
// GSP_CUDA_INDEX_SWEEP_PER_SM=0: the top's cells by their own kernel; the
// first levels below the top, as long as they are small and their labels
// (the top's included) fit in shared memory (NY, one row: 11), by one
// block a group, levels apart by __syncthreads(); every later level, one
// launch each, over every group of the pass.
// A cell's arcs are read by a team of lanes (sweep_cell), sized by its
// level's arcs: one lane a cell would read the arcs of the level's vertex
// of most arcs one after another (NY: up to 39 at the top, 20 below).
// The rows are then written in graph order (each row's int32 overflow
// checked) and handed over by the sparse engines' pass pipeline
// (apsp_sparse/pass_pipeline.cuh): straight into page-locked results,
// else through staging, narrow for tables without paths.
//
// The results equal the CPU's sweep (engines/cpu/index/ch_query.cpp) bit
// for bit, predecessors included: each vertex reads the same final labels
// in the same arc order with the same strict comparison.
#include <cooperative_groups.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "apsp_sparse/pass_pipeline.cuh"
#include "core/road_index.h"
#include "runtime/engines.cuh"
#include "runtime/row_pred_repair.cuh"
#include "runtime/workspace.cuh"

namespace gsp::detail::gpu {
namespace {

namespace cg = cooperative_groups;

// ------------------------------------------------------------ device copy

// The hierarchy's downward arcs in sweep order on one device (raw
// allocations, freed with the index) and, on the host, where each level
// begins and where each position went.
struct DeviceIndex {
  void* offsets = nullptr;            // int64_t[n + 1]: the arcs into sweep vertex i
  void* from = nullptr;               // int32_t[arcs]: the sweep vertex an arc comes from
  void* weight = nullptr;             // ChDist<W>[arcs]
  void* arc_last = nullptr;           // int32_t[arcs]: graph vertex before the head on the arc's path
  void* sweep_of = nullptr;           // int32_t[n]: graph vertex -> sweep vertex
  void* levels = nullptr;             // int32_t[levels + 1]: level_begin on the device
  void* top_dist = nullptr;           // ChDist<W>[top x top]: the top table's distances (ChTopTable)
  void* top_arc = nullptr;            // int32_t[top x top]: its last arcs (ids)
  void* top_arc_last = nullptr;       // int32_t[top arcs]: graph vertex before the head of top arc id
  int32_t top = 0;                    // the top's positions: sweep vertices [0, top), not swept
  std::vector<int32_t> level_begin;   // levels + 1
  std::vector<int32_t> level_degree;  // per level: the most arcs into one of its vertices
  std::vector<int64_t> level_arcs;    // per level: its vertices' arcs
  std::vector<int32_t> slot;          // position -> sweep vertex
  int64_t arcs = 0;
  bool ready = false;
};

void free_device_index(DeviceIndex& d) {
  for (void* p :
       {d.offsets, d.from, d.weight, d.arc_last, d.sweep_of, d.levels, d.top_dist, d.top_arc, d.top_arc_last}) {
    if (p != nullptr) cudaFree(p);
  }
  d = DeviceIndex{};
}

class IndexDeviceCache final : public DeviceCacheBase {
 public:
  ~IndexDeviceCache() override {
    int previous = 0;
    const bool have_previous = cudaGetDevice(&previous) == cudaSuccess;
    for (auto& [device, entry] : per_device) {
      if (cudaSetDevice(device) == cudaSuccess) free_device_index(entry);
    }
    if (have_previous) cudaSetDevice(previous);
    (void)cudaGetLastError();
  }
  std::map<int, DeviceIndex> per_device;
};

// Owns a copy being made until it is complete; frees it on an error path.
struct PendingIndex {
  DeviceIndex d;
  ~PendingIndex() { free_device_index(d); }
};

template <class T>
void upload(void** to, const std::vector<T>& from, cudaStream_t stream, const char* what) {
  check_cuda(cudaMalloc(to, std::max<size_t>(1, from.size() * sizeof(T))), what, __FILE__, __LINE__);
  if (!from.empty()) {
    GSP_CUDA(cudaMemcpyAsync(*to, from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
}

// Levels and the sweep order: the top's positions first, as they are
// (their labels come from the top table, not from a sweep); then position
// p >= top reads up_in's positions, all lower than p, so one pass in
// position order finds every level below the top (level_begin[0] = top).
template <class W>
void make_sweep_order(const ChHierarchy<W>& h, DeviceIndex& d, std::vector<int32_t>& order) {
  const int32_t n = h.n, top = h.top.size;
  std::vector<int32_t> level(static_cast<size_t>(n), 0);
  int32_t levels = n > top ? 1 : 0;
  for (int32_t p = top; p < n; ++p) {
    int32_t l = 0;
    for (int64_t e = h.up_in.offsets[static_cast<size_t>(p)]; e < h.up_in.offsets[static_cast<size_t>(p) + 1]; ++e) {
      const int32_t t = h.up_in.other[static_cast<size_t>(e)];
      if (t >= top) l = std::max(l, level[static_cast<size_t>(t)] + 1);
    }
    level[static_cast<size_t>(p)] = l;
    levels = std::max(levels, l + 1);
  }
  d.top = top;
  d.level_begin.assign(static_cast<size_t>(levels) + 1, 0);
  d.level_begin[0] = top;
  for (int32_t p = top; p < n; ++p) ++d.level_begin[static_cast<size_t>(level[static_cast<size_t>(p)]) + 1];
  for (int32_t l = 0; l < levels; ++l)
    d.level_begin[static_cast<size_t>(l) + 1] += d.level_begin[static_cast<size_t>(l)];
  std::vector<int32_t> next(d.level_begin.begin(), d.level_begin.end() - 1);
  order.assign(static_cast<size_t>(n), 0);
  d.slot.assign(static_cast<size_t>(n), 0);
  for (int32_t p = 0; p < top; ++p) order[static_cast<size_t>(p)] = p;
  for (int32_t p = top; p < n; ++p)
    order[static_cast<size_t>(next[static_cast<size_t>(level[static_cast<size_t>(p)])]++)] = p;
  // Within a level, vertices of most arcs first: a warp's cells then have
  // about as many arcs each, and none waits long for one (the sweep reads
  // nothing of its own level, so the order within one is free).
  const auto degree = [&](int32_t p) {
    return h.up_in.offsets[static_cast<size_t>(p) + 1] - h.up_in.offsets[static_cast<size_t>(p)];
  };
  for (int32_t l = 0; l < levels; ++l) {
    std::stable_sort(order.begin() + d.level_begin[static_cast<size_t>(l)],
                     order.begin() + d.level_begin[static_cast<size_t>(l) + 1],
                     [&](int32_t a, int32_t b) { return degree(a) > degree(b); });
  }
  for (int32_t k = 0; k < n; ++k) d.slot[static_cast<size_t>(order[static_cast<size_t>(k)])] = k;
}

// The index's copy on ctx.device(), made on first use (the time counts as
// upload, as the graph's does).
template <class W>
const DeviceIndex& device_index(RunContext& ctx, const ChHierarchy<W>& h) {
  using D = ChDist<W>;
  std::lock_guard<std::mutex> lock(h.device_mu);
  if (!h.device_cache) h.device_cache = std::make_unique<IndexDeviceCache>();
  auto* cache = dynamic_cast<IndexDeviceCache*>(h.device_cache.get());
  if (cache == nullptr) throw Error(GSP_ERR_INTERNAL, "road index: foreign device cache");
  DeviceIndex& entry = cache->per_device[ctx.device()];
  if (entry.ready) return entry;
  const auto t0 = std::chrono::steady_clock::now();
  PendingIndex pending;
  DeviceIndex& d = pending.d;
  std::vector<int32_t> order;
  make_sweep_order(h, d, order);
  const int32_t n = h.n, top = h.top.size;
  const ChArcs<W>& in = h.up_in;
  std::vector<int64_t> offsets(static_cast<size_t>(n) + 1, 0);  // the top's vertices have none
  for (int32_t k = top; k < n; ++k) {
    const size_t p = static_cast<size_t>(order[static_cast<size_t>(k)]);
    offsets[static_cast<size_t>(k) + 1] = offsets[static_cast<size_t>(k)] + (in.offsets[p + 1] - in.offsets[p]);
  }
  d.arcs = offsets.back();
  const size_t levels = d.level_begin.size() - 1;
  d.level_degree.assign(levels, 0);
  d.level_arcs.assign(levels, 0);
  for (size_t l = 0; l < levels; ++l) {
    for (int32_t k = d.level_begin[l]; k < d.level_begin[l + 1]; ++k) {
      const int64_t deg = offsets[static_cast<size_t>(k) + 1] - offsets[static_cast<size_t>(k)];
      d.level_degree[l] = std::max(d.level_degree[l], static_cast<int32_t>(std::min<int64_t>(deg, INT32_MAX)));
      d.level_arcs[l] += deg;
    }
  }
  std::vector<int32_t> from(static_cast<size_t>(d.arcs)), arc_last(static_cast<size_t>(d.arcs));
  std::vector<D> weight(static_cast<size_t>(d.arcs));
  for (int32_t k = top; k < n; ++k) {
    const size_t p = static_cast<size_t>(order[static_cast<size_t>(k)]);
    size_t at = static_cast<size_t>(offsets[static_cast<size_t>(k)]);
    for (int64_t e = in.offsets[p]; e < in.offsets[p + 1]; ++e, ++at) {
      from[at] = d.slot[static_cast<size_t>(in.other[static_cast<size_t>(e)])];
      weight[at] = in.weight[static_cast<size_t>(e)];
      arc_last[at] = in.last[static_cast<size_t>(e)];
    }
  }
  std::vector<int32_t> sweep_of(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v)
    sweep_of[static_cast<size_t>(v)] = d.slot[static_cast<size_t>(h.position[static_cast<size_t>(v)])];
  // The top table, and each top arc's graph vertex before its head.
  const int64_t top_in = h.up_in.offsets[static_cast<size_t>(top)];
  std::vector<int32_t> top_arc_last(static_cast<size_t>(h.top.out_arcs + top_in));
  std::copy(h.up_out.last.begin(), h.up_out.last.begin() + h.top.out_arcs, top_arc_last.begin());
  std::copy(h.up_in.last.begin(), h.up_in.last.begin() + top_in, top_arc_last.begin() + h.top.out_arcs);
  const size_t bytes = offsets.size() * 8 + from.size() * 4 + weight.size() * sizeof(D) + arc_last.size() * 4 +
                       sweep_of.size() * 4 + h.top.dist.size() * sizeof(D) + h.top.arc.size() * 4 +
                       top_arc_last.size() * 4;
  ctx.reserve(bytes, "the road index's device copy");  // charged to this run for good: the copy outlives it
  upload(&d.offsets, offsets, ctx.stream(), "cudaMalloc(road index offsets)");
  upload(&d.from, from, ctx.stream(), "cudaMalloc(road index arcs)");
  upload(&d.weight, weight, ctx.stream(), "cudaMalloc(road index weights)");
  upload(&d.arc_last, arc_last, ctx.stream(), "cudaMalloc(road index arc paths)");
  upload(&d.sweep_of, sweep_of, ctx.stream(), "cudaMalloc(road index order)");
  upload(&d.levels, d.level_begin, ctx.stream(), "cudaMalloc(road index levels)");
  upload(&d.top_dist, h.top.dist, ctx.stream(), "cudaMalloc(road index top table)");
  upload(&d.top_arc, h.top.arc, ctx.stream(), "cudaMalloc(road index top table arcs)");
  upload(&d.top_arc_last, top_arc_last, ctx.stream(), "cudaMalloc(road index top arcs)");
  ctx.sync();  // pageable sources, and the copy is shared once ready
  entry = d;
  pending.d = DeviceIndex{};
  entry.ready = true;
  if (ctx.stats() != nullptr) {
    ctx.stats()->upload_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return entry;
}

// ------------------------------------------------------------ kernels

// One group's sweep: K rows' labels (and, with paths, the graph vertex
// before each on its path) lane by lane.
template <class D>
struct Sweep {
  const int64_t* offsets;
  const int32_t* from;
  const D* weight;
  const int32_t* arc_last;
  D* d;                 // groups x n x K
  int32_t* last;        // the same cells, or null without paths
  int64_t group_cells;  // n x K
};

// A cell (sweep vertex c / K, lane c % K) of the labels takes the best of
// its arcs from above, by a team of G lanes of one warp (G a power of two
// up to 32, the team's first lane `team_lane` 0): lane j reads arcs j,
// j + G, ...; the team's minimum is the smallest (label, arc) pair, so the
// label and the predecessor are the CPU sweep's sequential loop's (its
// strict comparison keeps the first arc of the minimum; none below the
// cell's own label keeps it). A lane reads its arcs four at a time, the
// four's reads issued before the first is used (a warp issues in order:
// one arc at a time would wait a device read's latency for each; NY's top
// has vertices of 20 to 39 arcs). I, the index type, is int32_t in the top
// kernel, whose few cells and arcs it counts with half the instructions.

// Four arcs of one lane: arcs a, a + G, a + 2G, a + 3G of a vertex (those
// below its degree).
template <class D>
struct ArcBatch {
  int32_t from[4];
  int32_t last[4];
  D weight[4];
};

template <class D, class I>
__device__ __forceinline__ void load_batch(const Sweep<D>& s, I begin, int32_t a, int32_t degree, int G,
                                           ArcBatch<D>& b) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (a + j * G < degree) {
      const I e = begin + a + j * G;
      b.from[j] = s.from[e];
      b.weight[j] = s.weight[e];
      b.last[j] = s.arc_last[e];
    }
  }
}

// The lane's best so far: label, arc (relative to the vertex's first; -1:
// none below the cell's own label) and the arc's graph vertex before the
// head.
template <class D>
struct Best {
  D label;
  int32_t arc;
  int32_t via;
};

template <class D, int K, class I>
__device__ __forceinline__ void relax_batch(const D* d, int lane, const ArcBatch<D>& b, int32_t a, int32_t degree,
                                            int G, Best<D>& best) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (a + j * G < degree) {
      const D x = d[static_cast<I>(b.from[j]) * K + lane] + b.weight[j];
      if (x < best.label) best = Best<D>{x, a + j * G, b.last[j]};
    }
  }
}

// The team's minimum into its first lane; every lane of the warp calls it.
template <class D>
__device__ __forceinline__ void reduce_team(Best<D>& best, int G) {
  for (int offset = G / 2; offset > 0; offset /= 2) {
    const D other = __shfl_xor_sync(0xffffffffu, best.label, offset, G);
    const int32_t other_arc = __shfl_xor_sync(0xffffffffu, best.arc, offset, G);
    const int32_t other_via = __shfl_xor_sync(0xffffffffu, best.via, offset, G);
    // Equal labels are both the cell's own (no arc) or both improvements.
    if (other < best.label || (other == best.label && other_arc < best.arc))
      best = Best<D>{other, other_arc, other_via};
  }
}

template <class D>
__device__ __forceinline__ void write_cell(D* d, int32_t* last, int64_t c, bool valid, int team_lane,
                                           const Best<D>& best) {
  if (valid && team_lane == 0 && best.arc >= 0) {
    d[c] = best.label;
    if (last != nullptr) last[c] = best.via;
  }
}

// Cell c, whose vertex's arcs are [begin, begin + degree); every lane of
// the warp calls it, a cell past the level's end with `valid` false.
template <class D, int K, class I>
__device__ __forceinline__ void sweep_cell(const Sweep<D>& s, D* d, int32_t* last, I c, I begin, int32_t degree,
                                           bool valid, int team_lane, int G) {
  // The cell's own label: read by the team's first lane alone and passed
  // on (the same lane writes it after the team's reduction).
  const D own = __shfl_sync(0xffffffffu, valid && team_lane == 0 ? d[c] : D(0), 0, G);
  Best<D> best{valid ? own : D(0), -1, -1};
  if (valid) {
    const int lane = static_cast<int>(c % K);
    for (int32_t a = team_lane; a < degree; a += 4 * G) {
      ArcBatch<D> b;
      load_batch(s, begin, a, degree, G, b);
      relax_batch<D, K, I>(d, lane, b, a, degree, G, best);
    }
  }
  reduce_team(best, G);
  write_cell(d, last, c, valid, team_lane, best);
}

// The levels one launch sweeps, at most (the one-block top's, the
// cooperative sweep's), and the log2 of each one's team size (a kernel
// argument: constant memory).
constexpr int32_t kMaxLaunchLevels = 256;
struct LevelTeams {
  uint8_t log2[kMaxLaunchLevels];
};

// The top `levels` levels of group blockIdx.x, in shared memory: their
// labels (level_begin[levels] x K of them), the level bounds and team
// sizes, and their vertices' arc offsets (int32: the top's arcs are few).
// A level is swept in as few rounds of the block's 1024 lanes as its cells
// allow, each cell by a team of lanes (choose_top); a warp whose cells all
// lie past the level's end skips the round. The levels follow one
// another, so what a level costs is its slowest warp's chain of dependent
// steps (offsets, arcs, labels, the team's shuffles, the barrier). Issuing
// a level's reads of arcs during the level before (a variant measured on
// the H200) spilled registers and took 1.6x as long.
template <class D, int K>
__global__ void __launch_bounds__(1024)
    sweep_top_kernel(Sweep<D> s, const int32_t* level_begin, int32_t levels, LevelTeams teams) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  D* sd = reinterpret_cast<D*>(smem_raw);
  D* gd = s.d + blockIdx.x * s.group_cells;
  int32_t* last = s.last != nullptr ? s.last + blockIdx.x * s.group_cells : nullptr;
  const int32_t vertices = level_begin[levels];
  const int32_t cells = vertices * K;
  int32_t* bounds = reinterpret_cast<int32_t*>(sd + cells);  // levels + 1
  int32_t* team_log2 = bounds + levels + 1;                  // levels
  int32_t* offsets = team_log2 + levels;                     // vertices + 1
  for (int32_t l = threadIdx.x; l <= levels; l += blockDim.x) {
    bounds[l] = level_begin[l];
    if (l < levels) team_log2[l] = teams.log2[l];
  }
  for (int32_t v = threadIdx.x; v <= vertices; v += blockDim.x) offsets[v] = static_cast<int32_t>(s.offsets[v]);
  for (int32_t c = threadIdx.x; c < cells; c += blockDim.x) sd[c] = gd[c];
  __syncthreads();
  const int warp = static_cast<int>(threadIdx.x) / 32;
  for (int32_t l = 0; l < levels; ++l) {
    const int32_t first = bounds[l] * K;
    const int32_t end = bounds[l + 1] * K;
    const int lg = team_log2[l];
    const int G = 1 << lg;
    const int32_t per_round = static_cast<int32_t>(blockDim.x) >> lg;
    const int32_t team = static_cast<int32_t>(threadIdx.x) >> lg;
    const int team_lane = static_cast<int>(threadIdx.x) & (G - 1);
    const int32_t warp_first_team = (warp * 32) >> lg;
    for (int32_t base = first; base < end; base += per_round) {
      if (base + warp_first_team >= end) break;  // the warp's teams are all past the end (warp-uniform)
      const int32_t c = base + team;
      const bool valid = c < end;
      const int32_t i = valid ? c / K : 0;
      const int32_t begin = offsets[i];
      sweep_cell<D, K, int32_t>(s, sd, last, c, begin, valid ? offsets[i + 1] - begin : 0, valid, team_lane, G);
    }
    __syncthreads();
  }
  for (int32_t c = threadIdx.x; c < cells; c += blockDim.x) gd[c] = sd[c];
}

// Whether thread t's whole warp lies past the level's `total` cells, teams
// of 2^lg lanes (shifts: a 64-bit division by a team size read at run
// time is a long subroutine on every level's chain).
__device__ __forceinline__ bool warp_past(int64_t t, int64_t total, int lg) {
  return (t >> lg) - (static_cast<int64_t>(threadIdx.x % 32) >> lg) >= total;
}

// Thread t's lane of its cell of a level (t >> lg; none past `total`).
// One group (a single row's pass) takes no division at all.
template <class D, int K>
__device__ __forceinline__ void sweep_level_thread(const Sweep<D>& s, int64_t first, int64_t per_group, int64_t total,
                                                   int32_t groups, int lg, int64_t t) {
  const int64_t cell = t >> lg;
  const bool valid = cell < total;
  int64_t g = 0, c = first;
  if (valid) {
    if (groups == 1) {
      c += cell;
    } else {
      g = cell / per_group;
      c += cell - g * per_group;
    }
  }
  const int64_t begin = valid ? s.offsets[c / K] : 0;
  const int32_t degree = valid ? static_cast<int32_t>(s.offsets[c / K + 1] - begin) : 0;
  sweep_cell<D, K, int64_t>(s, s.d + g * s.group_cells, s.last != nullptr ? s.last + g * s.group_cells : nullptr, c,
                            begin, degree, valid, static_cast<int>(t & ((1 << lg) - 1)), 1 << lg);
}

// One level, cells [first, first + per_group) of every group, a team of
// 2^lg lanes a cell.
template <class D, int K>
__global__ void sweep_level_kernel(Sweep<D> s, int64_t first, int64_t per_group, int64_t total, int32_t groups,
                                   int lg) {
  const int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (warp_past(t, total, lg)) return;
  sweep_level_thread<D, K>(s, first, per_group, total, groups, lg, t);
}

// A label of an upward search, for its cell.
template <class D>
struct Seed {
  int64_t cell;
  D dist;
  int32_t last;
};

// The upward searches' labels into their cells (the per-level sweep's;
// the cooperative sweep writes them in its first phase).
template <class D>
__device__ __forceinline__ void seed_cell(D* d, int32_t* last, const Seed<D>& s) {
  d[s.cell] = s.dist;
  if (last != nullptr) last[s.cell] = s.last;
}
template <class D>
__global__ void seed_kernel(D* d, int32_t* last, const Seed<D>* seeds, int64_t count) {
  const int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (e < count) seed_cell(d, last, seeds[e]);
}

// A pass's cells before its seeds: every label "none", every predecessor
// -1, and a row's overflow flags cleared (one launch where a fill of each
// array and a memset of the flags took three calls of the host's).
template <class D>
__global__ void init_cells_kernel(D* d, int32_t* last, int64_t cells, D none, int* flags) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (flags != nullptr && t < 4) flags[t] = 0;
  for (int64_t c = t; c < cells; c += stride) {
    d[c] = none;
    if (last != nullptr) last[c] = -1;
  }
}

// A row's entry into the top (ChTopEntry): position, the graph vertex
// before it on its path, label.
template <class D>
struct TopEntry {
  int32_t position;
  int32_t last;
  D dist;
};

// What a row's top cells are made of: its entries (their bounds per row)
// and the table.
template <class D>
struct TopArgs {
  const TopEntry<D>* entries;
  const int32_t* entry_begin;  // rows + 1
  int32_t top;
  const D* table;            // top x top
  const int32_t* table_arc;  // top x top
  const int32_t* top_arc_last;
  D none;
};

// A block of top_cells: 8 warps.
constexpr int kTopWarps = 8;
template <class D>
struct TopScratch {
  D label[kTopWarps][32];
  int32_t win[kTopWarps][32];
};

// The top's cells v0 .. v0 + 31 of row r, by a block of kTopWarps warps
// (every thread calls it): top position v (sweep vertex v) takes the best
// of the row's entries plus the table's cell, the first entry of the
// minimum winning (core/ch_top_table.h's top_labels, the CPU's, in the
// same order): warp w takes entries w, w + 8, ... (each warp's first
// minimum), and warp 0 keeps the smallest (label, entry) pair of the
// eight. The predecessor is the entry's own when v is the entry, else the
// table arc's. One thread a vertex over all entries would wait a read's
// latency per entry (NY: 30-40 us for 10-100 entries on 8 blocks).
template <class D, int K>
__device__ void top_cells(const Sweep<D>& s, const TopArgs<D>& t, int32_t r, int32_t v0, TopScratch<D>& scratch) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  const int32_t v = v0 + lane;
  D best = t.none;
  int32_t win = -1;
  if (v < t.top) {
    const int32_t end = t.entry_begin[r + 1];
#pragma unroll 4
    for (int32_t e = t.entry_begin[r] + warp; e < end; e += kTopWarps) {
      const D x = t.entries[e].dist + t.table[static_cast<int64_t>(t.entries[e].position) * t.top + v];
      if (x < best) {
        best = x;
        win = e;
      }
    }
  }
  scratch.label[warp][lane] = best;
  scratch.win[warp][lane] = win;
  __syncthreads();
  if (warp == 0 && v < t.top) {
    for (int w = 1; w < kTopWarps; ++w) {
      // A label of "none" comes with entry -1: no pair beats (none, -1).
      const D x = scratch.label[w][lane];
      const int32_t e = scratch.win[w][lane];
      if (x < best || (x == best && e < win)) {
        best = x;
        win = e;
      }
    }
    const int64_t c = (r / K) * s.group_cells + static_cast<int64_t>(v) * K + r % K;
    s.d[c] = best;
    if (s.last != nullptr) {
      int32_t via = -1;
      if (win >= 0) {
        const int32_t u = t.entries[win].position;
        via = u == v ? t.entries[win].last : t.top_arc_last[t.table_arc[static_cast<int64_t>(u) * t.top + v]];
      }
      s.last[c] = via;
    }
  }
  __syncthreads();  // the scratch is free again
}

// The top's cells of rows [0, gridDim.y), 32 vertices a block.
template <class D, int K>
__global__ void __launch_bounds__(kTopWarps * 32) top_table_kernel(Sweep<D> s, TopArgs<D> t) {
  __shared__ TopScratch<D> scratch;
  top_cells<D, K>(s, t, static_cast<int32_t>(blockIdx.y), static_cast<int32_t>(blockIdx.x) * 32, scratch);
}

// Rows in graph order: row r (group r / K, lane r % K), vertex v from its
// sweep vertex's cell, items [t0, rows x n) a stride apart, four at a time
// (their reads issued together). int32 rows: a label past int32 (below
// "none") raises flags[0] with the row and the vertex (the CPU then
// answers, naming them).
template <class W, class D, int K>
__device__ __forceinline__ void emit_cells(const D* d, const int32_t* last, const int32_t* sweep_of, int64_t n,
                                           int64_t rows, int64_t group_cells, D none, W* dist, int32_t* pred,
                                           int* flags, int64_t t0, int64_t stride) {
  const int64_t total = rows * n;
  for (int64_t base = t0; base < total; base += 4 * stride) {
    int64_t cell[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t t = base + j * stride;
      cell[j] = -1;
      if (t < total) {
        if (rows == 1) {
          cell[j] = static_cast<int64_t>(sweep_of[t]) * K;
        } else {
          const int64_t r = t / n, v = t - r * n;
          cell[j] = (r / K) * group_cells + static_cast<int64_t>(sweep_of[v]) * K + r % K;
        }
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (cell[j] < 0) continue;
      const int64_t t = base + j * stride;
      const D x = d[cell[j]];
      if constexpr (std::is_same_v<W, int32_t>) {
        if (x >= none) {
          dist[t] = GSP_I32_INF;
        } else {
          if (x >= static_cast<D>(GSP_I32_INF) && atomicCAS(flags, 0, 1) == 0) {
            flags[1] = static_cast<int>(t / n);
            flags[2] = static_cast<int>(t % n);
          }
          dist[t] = static_cast<W>(x);
        }
      } else {
        dist[t] = static_cast<W>(x);
      }
      if (pred != nullptr) pred[t] = last[cell[j]];
    }
  }
}

template <class W, class D, int K>
__global__ void emit_rows_kernel(const D* d, const int32_t* last, const int32_t* sweep_of, int64_t n, int64_t rows,
                                 int64_t group_cells, D none, W* dist, int32_t* pred, int* flags) {
  emit_cells<W, D, K>(d, last, sweep_of, n, rows, group_cells, none, dist, pred, flags,
                      blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x,
                      static_cast<int64_t>(gridDim.x) * blockDim.x);
}

// What the cooperative sweep knows of the levels (a kernel argument, so
// constant memory: no read of a level's bounds waits on the device's
// memory): where each begins and its team size (log2).
struct LevelPlan {
  int32_t levels;
  int32_t begin[kMaxLaunchLevels + 1];
  uint8_t log2[kMaxLaunchLevels];
};

// A pass's seeds below the top, for the cooperative sweep's first phase.
template <class D>
struct SeedArgs {
  const Seed<D>* seeds;
  int64_t count;
};

// Where the cooperative sweep of one row writes it in graph order, when it
// does (dist null: the pass pipeline's emit() does, for passes of rows).
template <class W>
struct Emission {
  const int32_t* sweep_of;
  int64_t n;
  W* dist;
  int32_t* pred;
  int* flags;
};

// The whole sweep of a pass in one cooperative launch: the seeds and the
// top's cells of every row, then each level, grid-wide barriers between
// them (a launch each would cost a few microseconds of its own; NY has 25
// levels, the first of them a few hundred cells), and for one row its
// emission in graph order. A level's cells are dealt out in rounds of the
// grid's lanes, a team of 2^plan.log2[l] lanes a cell.
// Bound to 64 registers, so 4 blocks fit a multiprocessor (int32 rows
// took 76 unbound, 3 blocks: NY one to all 0.244 against 0.262 ms a call,
// 1000 x 1000 on CUDA rows of road-like 1024 x 1024 60.2 against 61.5 ms,
// H200).
constexpr int kSweepBlocksPerSm = 4;
template <class W, int K>
__global__ void __launch_bounds__(kTopWarps * 32, kSweepBlocksPerSm)
    sweep_all_kernel(Sweep<ChDist<W>> s, TopArgs<ChDist<W>> t, SeedArgs<ChDist<W>> seeds, int32_t rows, int32_t groups,
                     LevelPlan plan, Emission<W> out) {
  using D = ChDist<W>;
  __shared__ TopScratch<D> scratch;
  cg::grid_group grid = cg::this_grid();
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t t0 = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  // The seeds' cells lie below the top, the top's cells in it: no cell is
  // written twice in this phase.
  for (int64_t e = t0; e < seeds.count; e += stride) seed_cell(s.d, s.last, seeds.seeds[e]);
  if (t.top > 0) {
    const int64_t chunks = (t.top + 31) / 32;
    for (int64_t u = blockIdx.x; u < chunks * rows; u += gridDim.x) {
      top_cells<D, K>(s, t, static_cast<int32_t>(u / chunks), static_cast<int32_t>(u % chunks) * 32, scratch);
    }
  }
  if (t.top > 0 || seeds.count > 0) grid.sync();
  for (int32_t l = 0; l < plan.levels; ++l) {
    const int64_t first = static_cast<int64_t>(plan.begin[l]) * K;
    const int64_t per_group = static_cast<int64_t>(plan.begin[l + 1]) * K - first;
    const int64_t total = per_group * groups;
    const int lg = plan.log2[l];
    for (int64_t i = t0; !warp_past(i, total, lg); i += stride)
      sweep_level_thread<D, K>(s, first, per_group, total, groups, lg, i);
    if (l + 1 < plan.levels || out.dist != nullptr) grid.sync();
  }
  if (out.dist != nullptr) {
    emit_cells<W, D, K>(s.d, s.last, out.sweep_of, out.n, rows, s.group_cells, t.none, out.dist, out.pred, out.flags,
                        t0, stride);
  }
}

// ------------------------------------------------------------ passes

// Shared memory a top-of-hierarchy block may take, and the cells a level
// may have to be swept there (more go to a launch of their own: one
// block's 1024 threads would take several rounds).
constexpr size_t kTopSharedBytes = size_t(224) << 10;
constexpr int64_t kTopLevelCells = 4096;

// Seeds a pass's work arrays hold for each of its rows (NY: an upward
// search up to the top settles 30-60 vertices below it, and enters the top
// at 10-100); a pass with more grows a buffer of its own.
constexpr int64_t kSeedsPerRow = 512;

// The sweeps of a pass (sparse::run_passes): groups of K rows. Its arrays
// are one allocation from the device's stream-ordered pool (workspace.cuh):
// a one-to-all query pays no cudaMalloc.
template <class W, int K>
class SweepPasses {
 public:
  using D = ChDist<W>;

  SweepPasses(RunContext& ctx, const ChHierarchy<W>& h, const DeviceIndex& dev, const ChSeeder& seeder, int32_t width,
              bool paths, Workspace& ws)
      : ctx_(ctx), dev_(dev), seeder_(seeder), n_(h.n), groups_((width + K - 1) / K), paths_(paths) {
    const int64_t cells = groups_ * static_cast<int64_t>(n_) * K;
    ws.add(&d_, static_cast<size_t>(cells));
    if (paths) ws.add(&last_, static_cast<size_t>(cells));
    capacity_ = static_cast<int64_t>(width) * kSeedsPerRow;
    ws.add(&seeds_on_device_, static_cast<size_t>(capacity_));
    entry_capacity_ = capacity_;
    ws.add(&entries_on_device_, static_cast<size_t>(entry_capacity_));
    ws.add(&entry_begin_on_device_, static_cast<size_t>(width) + 1);
    if (!choose_cooperative(width)) choose_top();
  }

  // A pass of rows, for the pass pipeline (which then calls emit()).
  void start(const int32_t* sources, int32_t count) { launch(sources, count, Emission<W>{}); }
  // One row, written in graph order into dist and pred (device memory) with
  // its overflow flags (4 ints) cleared first: by the cooperative sweep
  // itself where it runs, else by emit().
  void start_row(const int32_t* source, W* dist, int32_t* pred, int* flags) {
    launch(source, 1, Emission<W>{static_cast<const int32_t*>(dev_.sweep_of), n_, dist, pred, flags});
    if (coop_blocks_ == 0) emit(1, dist, pred, flags);
  }
  void wait() { ctx_.sync(); }
  // flags[0] of the last pass: row r's label of vertex v is past int32.
  [[noreturn]] void overflow(int32_t r, int32_t v) const {
    throw Error(GSP_ERR_OVERFLOW, "the distance from " + std::to_string(sources_[r]) + " to " + std::to_string(v) +
                                      " does not fit int32 (reaches GSP_I32_INF); use GSP_F64 weights");
  }
  void emit(int32_t count, W* dist, int32_t* pred, int* flags) {
    const int64_t total = static_cast<int64_t>(count) * n_;
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(blocks_for(total, 256), 65535LL * 16));
    emit_rows_kernel<W, D, K>
        <<<blocks, 256, 0, ctx_.stream()>>>(d_, paths_ ? last_ : nullptr, static_cast<const int32_t*>(dev_.sweep_of),
                                            n_, count, static_cast<int64_t>(n_) * K, ch_inf<W>(), dist, pred, flags);
    GSP_CUDA_LAUNCH();
  }

 private:
  // The cells' fill (on the device while the host searches upward), the
  // seeds, the sweep; with out.dist, the row's emission too when the sweep
  // is cooperative.
  void launch(const int32_t* sources, int32_t count, const Emission<W>& out) {
    sources_ = sources;
    const int32_t groups = (count + K - 1) / K;
    const int64_t cells = groups * static_cast<int64_t>(n_) * K;
    const unsigned fill_blocks = blocks_for(std::min<int64_t>(cells, int64_t(1) << 26), 256);
    init_cells_kernel<D>
        <<<fill_blocks, 256, 0, ctx_.stream()>>>(d_, paths_ ? last_ : nullptr, cells, ch_inf<W>(), out.flags);
    GSP_CUDA_LAUNCH();
    seeder_.seeds(sources, count, seeds_);
    const int64_t seeds = send_seeds(count);
    const Sweep<D> s = sweep();
    const TopArgs<D> t{entries_on_device_,
                       entry_begin_on_device_,
                       dev_.top,
                       static_cast<const D*>(dev_.top_dist),
                       static_cast<const int32_t*>(dev_.top_arc),
                       static_cast<const int32_t*>(dev_.top_arc_last),
                       ch_inf<W>()};
    if (coop_blocks_ > 0) {
      sweep_in_one_launch(s, t, SeedArgs<D>{seeds_on_device_, seeds}, count, groups, out);
      return;
    }
    if (seeds > 0) {
      seed_kernel<D>
          <<<blocks_for(seeds, 256), 256, 0, ctx_.stream()>>>(d_, paths_ ? last_ : nullptr, seeds_on_device_, seeds);
      GSP_CUDA_LAUNCH();
    }
    sweep_by_levels(s, t, count, groups);
  }

  Sweep<D> sweep() const {
    return Sweep<D>{static_cast<const int64_t*>(dev_.offsets),
                    static_cast<const int32_t*>(dev_.from),
                    static_cast<const D*>(dev_.weight),
                    static_cast<const int32_t*>(dev_.arc_last),
                    d_,
                    paths_ ? last_ : nullptr,
                    static_cast<int64_t>(n_) * K};
  }

  void sweep_in_one_launch(Sweep<D> s, TopArgs<D> t, SeedArgs<D> seeds, int32_t rows, int32_t groups, Emission<W> out) {
    void* params[] = {&s, &t, &seeds, &rows, &groups, &plan_, &out};
    GSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(sweep_all_kernel<W, K>), coop_blocks_, kTopWarps * 32,
                                         params, 0, ctx_.stream()));
    GSP_CUDA_LAUNCH();
  }

  void sweep_by_levels(const Sweep<D>& s, const TopArgs<D>& t, int32_t rows, int32_t groups) {
    if (dev_.top > 0) {
      const dim3 grid(static_cast<unsigned>((dev_.top + 31) / 32), static_cast<unsigned>(rows));
      top_table_kernel<D, K><<<grid, kTopWarps * 32, 0, ctx_.stream()>>>(s, t);
      GSP_CUDA_LAUNCH();
    }
    if (top_levels_ > 0) {
      sweep_top_kernel<D, K><<<groups, 1024, top_bytes_, ctx_.stream()>>>(s, static_cast<const int32_t*>(dev_.levels),
                                                                          top_levels_, top_teams_);
      GSP_CUDA_LAUNCH();
    }
    const int32_t levels = static_cast<int32_t>(dev_.level_begin.size()) - 1;
    for (int32_t l = top_levels_; l < levels; ++l) {
      const size_t at = static_cast<size_t>(l);
      const int64_t first = static_cast<int64_t>(dev_.level_begin[at]) * K;
      const int64_t per_group = static_cast<int64_t>(dev_.level_begin[at + 1]) * K - first;
      const int64_t total = per_group * groups;
      // Rows side by side (K > 1) already give a vertex K lanes, their
      // labels of one arc read together: no teams there.
      const int lg = level_team_log2(at, K > 1 ? 1 : 8);
      sweep_level_kernel<D, K>
          <<<blocks_for(total << lg, 256), 256, 0, ctx_.stream()>>>(s, first, per_group, total, groups, lg);
      GSP_CUDA_LAUNCH();
    }
  }

  // A level's team size (log2) in the level kernels: one lane per arc of
  // its average vertex (a power of two at least that), at most `most`.
  int level_team_log2(size_t level, int most) const {
    const int64_t vertices = dev_.level_begin[level + 1] - dev_.level_begin[level];
    const double average =
        vertices > 0 ? static_cast<double>(dev_.level_arcs[level]) / static_cast<double>(vertices) : 0.0;
    int g = 0;
    while ((1 << g) < most && (1 << g) < average) ++g;
    return g;
  }
  // In the top kernel: a team large enough that the level's vertex of
  // most arcs gives each lane at most 4 (one batch of reads: sweep_cell),
  // at most 32, halved while the level's cells would need more than one
  // round of the block's 1024 lanes. What a level costs is its slowest
  // warp's chain of dependent reads (the other warps wait at the barrier;
  // Nsight Compute on New York's top: 54% of the warps' cycles there, one
  // instruction issued every 6 cycles a scheduler).
  int top_team_log2(size_t level) const {
    const int64_t cells = static_cast<int64_t>(dev_.level_begin[level + 1] - dev_.level_begin[level]) * K;
    int g = 0;
    while (g < 5 && 4 * (1 << g) < dev_.level_degree[level]) ++g;
    while (g > 0 && (cells << g) > 1024) --g;
    return g;
  }

  // The cooperative sweep (sweep_all_kernel) when the tuning allows it
  // (GSP_CUDA_INDEX_SWEEP_PER_SM; unset, as many blocks as fit: 4 a
  // multiprocessor, the kernel's bound), the device has cooperative
  // launches and one launch's teams can name every level: its blocks, and
  // each level's team, as wide as the level's vertex of most arcs wants (4
  // arcs a lane, as the top kernel's), halved while the level's cells would
  // take more than one round of the grid's lanes. A level of more cells
  // than lanes gets a lane a cell: its rounds are its critical path, each
  // a chain of dependent reads, and a lane's four reads of a batch are
  // issued together. False: the one-block top and a launch per later
  // level.
  bool choose_cooperative(int32_t width) {
    const int32_t levels = static_cast<int32_t>(dev_.level_begin.size()) - 1;
    const int64_t per_sm = ctx_.options().tuning.cuda_index_sweep_per_sm.value_or(kSweepBlocksPerSm);
    if (per_sm <= 0 || levels > kMaxLaunchLevels || !ctx_.props().cooperativeLaunch) return false;
    const int64_t rows = width, groups = (width + K - 1) / K;
    int64_t useful = (dev_.top + 31) / 32 * rows;
    for (int32_t l = 0; l < levels; ++l) {
      const size_t at = static_cast<size_t>(l);
      const int64_t cells = static_cast<int64_t>(dev_.level_begin[at + 1] - dev_.level_begin[at]) * K * groups;
      useful = std::max(useful, cells / (kTopWarps * 32) + 1);
    }
    coop_blocks_ = coop_blocks(ctx_, sweep_all_kernel<W, K>, kTopWarps * 32, static_cast<int>(per_sm), useful);
    const int64_t lanes = static_cast<int64_t>(coop_blocks_) * kTopWarps * 32;
    plan_.levels = levels;
    plan_.begin[0] = dev_.level_begin[0];
    for (int32_t l = 0; l < levels; ++l) {
      const size_t at = static_cast<size_t>(l);
      const int64_t cells = static_cast<int64_t>(dev_.level_begin[at + 1] - dev_.level_begin[at]) * K * groups;
      int g = 0;
      while (g < 5 && 4 * (1 << g) < dev_.level_degree[at]) ++g;
      while (g > 0 && (cells << g) > lanes) --g;
      plan_.log2[at] = static_cast<uint8_t>(g);
      plan_.begin[at + 1] = dev_.level_begin[at + 1];
    }
    return true;
  }

  // Shared memory of a top of `top` levels: labels, bounds, team sizes,
  // offsets.
  size_t top_shared_bytes(int32_t top) const {
    const size_t vertices = static_cast<size_t>(dev_.level_begin[static_cast<size_t>(top)]);
    const size_t bytes = vertices * K * sizeof(D) + (static_cast<size_t>(top) * 2 + 1 + vertices + 1) * sizeof(int32_t);
    return (bytes + 15) / 16 * 16;
  }

  // The top levels one block sweeps: while they are small and what they
  // keep in shared memory fits (their arcs, counted in int32 there, are
  // few).
  void choose_top() {
    const size_t cap = std::min(kTopSharedBytes, static_cast<size_t>(ctx_.props().sharedMemPerBlockOptin));
    const int32_t levels = static_cast<int32_t>(dev_.level_begin.size()) - 1;
    int32_t top = 0;
    int64_t arcs = 0;
    while (top < levels && top < kMaxLaunchLevels) {
      const size_t l = static_cast<size_t>(top);
      const int64_t cells = static_cast<int64_t>(dev_.level_begin[l + 1] - dev_.level_begin[l]) * K;
      if (cells > kTopLevelCells || top_shared_bytes(top + 1) > cap || arcs + dev_.level_arcs[l] > INT32_MAX) break;
      arcs += dev_.level_arcs[l];
      top_teams_.log2[l] = static_cast<uint8_t>(top_team_log2(l));
      ++top;
    }
    top_levels_ = top;
    top_bytes_ = top_shared_bytes(top);
    if (top > 0) {
      GSP_CUDA(cudaFuncSetAttribute(sweep_top_kernel<D, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(top_bytes_)));
    }
  }

  // The seeds to the device (start() runs after the previous pass's
  // wait(): its copies are done): those below the top as their cells
  // (group r / K, lane r % K, the position's sweep vertex) with labels and
  // predecessors, the top's as each row's entries, in the order the row's
  // search settled them. A few kilobytes for one row: from pageable
  // memory; a pass's seeds, page-locked. Returns the seeds below the top.
  int64_t send_seeds(int32_t count) {
    packed_.clear();
    entries_.clear();
    entry_begin_.assign(static_cast<size_t>(count) + 1, 0);
    const int64_t group_cells = static_cast<int64_t>(n_) * K;
    for (int32_t r = 0; r < count; ++r) {
      const int64_t base = (r / K) * group_cells + r % K;
      for (int64_t e = seeds_.begin[static_cast<size_t>(r)]; e < seeds_.begin[static_cast<size_t>(r) + 1]; ++e) {
        const size_t k = static_cast<size_t>(e);
        const int32_t p = seeds_.position[k];
        if (p < dev_.top) {
          entries_.push_back(TopEntry<D>{p, seeds_.last[k], seeds_.dist[k]});
        } else {
          packed_.push_back(Seed<D>{base + static_cast<int64_t>(dev_.slot[static_cast<size_t>(p)]) * K, seeds_.dist[k],
                                    seeds_.last[k]});
        }
      }
      entry_begin_[static_cast<size_t>(r) + 1] = static_cast<int32_t>(entries_.size());
    }
    const int64_t seeds = static_cast<int64_t>(packed_.size());
    if (seeds > capacity_) {
      capacity_ = std::max<int64_t>(seeds, 2 * capacity_);
      more_seeds_.allocate(ctx_, static_cast<size_t>(capacity_), "road index seeds");
      seeds_on_device_ = more_seeds_.get();
    }
    const int64_t entries = static_cast<int64_t>(entries_.size());
    if (entries > entry_capacity_) {
      entry_capacity_ = std::max<int64_t>(entries, 2 * entry_capacity_);
      more_entries_.allocate(ctx_, static_cast<size_t>(entry_capacity_), "road index top entries");
      entries_on_device_ = more_entries_.get();
    }
    const size_t bytes = static_cast<size_t>(seeds) * sizeof(Seed<D>);
    const void* from = packed_.data();
    if (bytes > (size_t(1) << 16)) {
      if (bytes > pinned_bytes_) {
        pinned_bytes_ = std::max(bytes, 2 * pinned_bytes_);
        pinned_.allocate(pinned_bytes_);
      }
      std::memcpy(pinned_.get(), packed_.data(), bytes);
      from = pinned_.get();
    }
    if (bytes > 0) GSP_CUDA(cudaMemcpyAsync(seeds_on_device_, from, bytes, cudaMemcpyHostToDevice, ctx_.stream()));
    if (dev_.top > 0) {
      // Pageable: the copy has left the vectors when the call returns.
      if (entries > 0) {
        GSP_CUDA(cudaMemcpyAsync(entries_on_device_, entries_.data(),
                                 static_cast<size_t>(entries) * sizeof(TopEntry<D>), cudaMemcpyHostToDevice,
                                 ctx_.stream()));
      }
      GSP_CUDA(cudaMemcpyAsync(entry_begin_on_device_, entry_begin_.data(), entry_begin_.size() * sizeof(int32_t),
                               cudaMemcpyHostToDevice, ctx_.stream()));
    }
    return seeds;
  }

  RunContext& ctx_;
  const DeviceIndex& dev_;
  const ChSeeder& seeder_;
  const int32_t n_;
  const int32_t groups_;
  const bool paths_;
  const int32_t* sources_ = nullptr;  // the last pass's
  int32_t top_levels_ = 0;
  LevelTeams top_teams_{};
  int coop_blocks_ = 0;  // > 0: the cooperative sweep (choose_cooperative)
  LevelPlan plan_{};
  size_t top_bytes_ = 0;
  D* d_ = nullptr;  // groups x n x K labels (the workspace's)
  int32_t* last_ = nullptr;
  Seed<D>* seeds_on_device_ = nullptr;
  int64_t capacity_ = 0;
  TopEntry<D>* entries_on_device_ = nullptr;
  int32_t* entry_begin_on_device_ = nullptr;
  int64_t entry_capacity_ = 0;
  ChSeeds<W> seeds_;
  std::vector<Seed<D>> packed_;
  std::vector<TopEntry<D>> entries_;
  std::vector<int32_t> entry_begin_;
  DeviceBuffer<Seed<D>> more_seeds_;
  DeviceBuffer<TopEntry<D>> more_entries_;
  sparse::PinnedBuffer pinned_;
  size_t pinned_bytes_ = 0;
};

// Whether rows need the host's predecessor check (core/pred_repair.h), as
// on the CPU: zero-weight ties can close a cycle, float sums can make an
// arc tight both ways.
bool rows_need_check(const Graph& g) { return g.min_weight() <= 0 || is_float_dtype(g.dtype()); }

void fill_index_stats(RunContext& ctx, RunStats* st) {
  if (st == nullptr) return;
  st->backend = GSP_BACKEND_CUDA;
  st->algorithm = GSP_CH;
  st->device = ctx.device();
  st->device_name = ctx.props().name;
}

// Rows per pass: kPassGroups groups of K, fewer when the budget allows
// fewer (labels, predecessors and the pipeline's output rows of a row).
constexpr int32_t kPassGroups = 8;

template <class W, int K>
int32_t pass_width(RunContext& ctx, int32_t n, int32_t num_sources, bool paths) {
  const size_t per_row = static_cast<size_t>(n) * (sizeof(ChDist<W>) + sizeof(W) + (paths ? 8 : 0)) + 64;
  const size_t fixed = size_t(16) << 20;  // the seeds, the flags, alignment
  const size_t left = ctx.budget_left();
  const int64_t by_memory = left > fixed ? static_cast<int64_t>((left - fixed) / per_row) / K * K : 0;
  if (by_memory < 1) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "road index on CUDA: a sweep of " + std::to_string(K) + " rows needs " +
                                                  std::to_string(per_row * K + fixed) +
                                                  " bytes of device memory, and only " + std::to_string(left) +
                                                  " are left under the budget (options.device_memory_limit)");
  }
  const int64_t want = static_cast<int64_t>(kPassGroups) * K;
  return static_cast<int32_t>(sparse::balanced_batch(std::min(by_memory, want), num_sources, K));
}

template <class W>
void rows_typed(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const ApspJob& job) {
  constexpr int K = 16;
  const auto& h = static_cast<const ChHierarchy<W>&>(index);
  fill_index_stats(ctx, job.stats);
  if (h.n == 0 || job.num_sources == 0) return;
  auto ready = sparse::start_result_ready<W>(ctx, job);  // beside the set-up below
  const bool paths = job.options->want_paths;
  const DeviceIndex& dev = device_index(ctx, h);
  const int32_t width = pass_width<W, K>(ctx, h.n, job.num_sources, paths);
  StageClock clock(ctx);
  Workspace ws;
  SweepPasses<W, K> passes(ctx, h, dev, seeder, width, paths, ws);
  ws.allocate(ctx, "road index sweeps");
  clock.mark(Stage::kSetup);
  sparse::run_passes<W>(ctx, job, width, paths && rows_need_check(*job.graph), clock, passes, std::move(ready));
}

template <class W>
void row_typed(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const SsspJob& job) {
  const auto& h = static_cast<const ChHierarchy<W>&>(index);
  fill_index_stats(ctx, job.stats);
  if (h.n == 0) return;
  const bool paths = job.pred != nullptr;
  const DeviceIndex& dev = device_index(ctx, h);
  StageClock clock(ctx);
  Workspace ws;
  SweepPasses<W, 1> sweep(ctx, h, dev, seeder, 1, paths, ws);
  // gsp_sssp_run_device: the row is emitted straight into the caller's
  // device arrays, with no copy; else into the workspace and copied to the
  // host result.
  const bool on_device = job.results_on_device;
  W* dist = on_device ? static_cast<W*>(job.dist) : nullptr;
  int32_t* pred = on_device ? job.pred : nullptr;
  int* flags = nullptr;
  const size_t n = static_cast<size_t>(h.n);
  if (!on_device) {
    ws.add(&dist, n);
    if (paths) ws.add(&pred, n);
  }
  ws.add(&flags, 4);
  ws.allocate(ctx, "road index row");
  int host_flags[4] = {0, 0, 0, 0};
  clock.mark(Stage::kSetup);
  sweep.start_row(&job.source, dist, pred, flags);
  clock.mark(Stage::kCompute);
  if (!on_device) {
    // Through device memory and a copy: the emission kernel writing the
    // page-locked result across the bus itself took longer (NY 0.263
    // against 0.240 ms a call, road-like 1024 x 1024 0.486 against 0.460,
    // H200).
    GSP_CUDA(cudaMemcpyAsync(job.dist, dist, n * sizeof(W), cudaMemcpyDeviceToHost, ctx.stream()));
    if (paths) GSP_CUDA(cudaMemcpyAsync(job.pred, pred, n * sizeof(int32_t), cudaMemcpyDeviceToHost, ctx.stream()));
  }
  GSP_CUDA(cudaMemcpyAsync(host_flags, flags, sizeof host_flags, cudaMemcpyDeviceToHost, ctx.stream()));
  clock.mark(Stage::kCopy);
  ctx.sync();
  clock.finish();
  if (host_flags[0] != 0) sweep.overflow(host_flags[1], host_flags[2]);
  if (paths && rows_need_check(*job.graph)) repair_row_preds<W>(ctx, job);
}

}  // namespace

void index_sssp(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const SsspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { row_typed<decltype(w)>(ctx, index, seeder, job); });
}

void index_apsp(RunContext& ctx, const ChBase& index, const ChSeeder& seeder, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { rows_typed<decltype(w)>(ctx, index, seeder, job); });
}

}  // namespace gsp::detail::gpu
