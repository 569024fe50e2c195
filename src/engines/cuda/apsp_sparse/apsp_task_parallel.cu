// GSP_APSP_TASK_PARALLEL on the GPU (Okuyama, Ino & Hagihara, IJHPCN 2012):
// N SSSP problems (N a multiple of 32) solved by one sequence of launches.
// Thread (v, s) owns vertex v of problem s. The cost, updating-cost and mask
// arrays Ca / Ua / Ma are interleaved, entry (v, s) at [v * N + s], so the
// threads of one vertex touch consecutive words, and a relaxation of arc
// (v, u) by the N problems is one coalesced run of atomicMin on Ua[u * N ..].
//
// A block holds VB vertices x SB problems (VB * SB = 256, SB the largest of
// 256/128/64/32 dividing N); the adjacency of its VB vertices is staged in
// shared memory once, in chunks, and read by all SB problems. Per-block
// flags skip work: `active` (some mask of the block is set: the relax kernel
// runs) and `touched` (some Ua of the block was lowered: the update kernel
// runs). The host checks a global `changed` word every few rounds.
//
// Parents (§5.3) are recorded after convergence over the reverse graph:
// v takes an in-neighbour u with d(u) < d(v) and d(u) + w(u, v) == d(v). Arcs
// with d(u) == d(v) (zero weights, or float sums that round away a tiny
// weight) cannot be taken blindly, since two such vertices could name each
// other; those vertices are assigned in further rounds, each taking a tight
// in-neighbour that is already assigned, so the parent graph is a tree.
#include <algorithm>
#include <optional>

#include "apsp_sparse/apsp_sparse_common.cuh"
#include "core/tuning.h"

namespace gsp::detail::gpu {
namespace {

using sparse::add_dist;
using sparse::atomic_min_dist;
using sparse::dist_inf;

constexpr int kThreads = 256;
constexpr int kStage = 1024;  // staged arcs per block per chunk

struct Geometry {
  int32_t N = 0;   // problems per launch
  int32_t SB = 0;  // problems per block
  int32_t VB = 0;  // vertices per block
  int32_t gx = 0;  // blocks along vertices
  int32_t gy = 0;  // blocks along problems
};

__device__ inline int64_t block_of(const Geometry& geo, int32_t v, int32_t s) {
  return static_cast<int64_t>(s / geo.SB) * geo.gx + v / geo.VB;
}

template <class W, class = std::enable_if_t<std::is_floating_point_v<W>>>
__device__ inline bool tight(W du, W w, W d) {
  return du + w == d;
}
__device__ inline bool tight(int32_t du, int32_t w, int32_t d) {
  return static_cast<long long>(du) + w == static_cast<long long>(d);
}

template <class W>
__global__ void seed_kernel(Geometry geo, const int32_t* __restrict__ sources, int32_t count, W* Ca, W* Ua, uint8_t* Ma,
                            int32_t* mark, int32_t* active_list, int32_t* active_count) {
  int32_t s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= count) return;
  int32_t v = sources[s];
  size_t idx = static_cast<size_t>(v) * geo.N + s;
  Ca[idx] = W(0);
  Ua[idx] = W(0);
  Ma[idx] = 1;
  int32_t b = static_cast<int32_t>(block_of(geo, v, s));
  if (atomicExch(mark + b, 1) == 0) active_list[atomicAdd(active_count, 1)] = b;
}

// Relaxes the arcs of every masked (v, s) of the blocks on the active list;
// blocks whose Ua were lowered go on the touched list (once each). A
// persistent grid walks the list.
template <class W>
__global__ void __launch_bounds__(kThreads)
    relax_kernel(Geometry geo, DeviceCsr<W> g, const W* __restrict__ Ca, W* Ua, uint8_t* Ma,
                 const int32_t* __restrict__ active_list, const int32_t* active_count, int32_t* touched,
                 int32_t* touched_list, int32_t* touched_count, int32_t* overflow) {
  __shared__ int64_t s_off[kThreads / 32];
  __shared__ int64_t s_deg[kThreads / 32];  // a vertex may have 2^31 arcs or more
  __shared__ int32_t s_tgt[kStage];
  __shared__ W s_w[kStage];

  const int32_t cnt = *active_count;
  const int32_t slot = threadIdx.x / geo.SB;
  const int32_t chunk = kStage / geo.VB;
  bool over = false;
  for (int32_t i = blockIdx.x; i < cnt; i += gridDim.x) {
    const int32_t bid = active_list[i];
    const int32_t bx = bid % geo.gx, by = bid / geo.gx;
    const int32_t s = by * geo.SB + threadIdx.x % geo.SB;
    const int32_t v = bx * geo.VB + slot;
    bool act = false;
    W d = W(0);
    if (v < g.n) {
      size_t idx = static_cast<size_t>(v) * geo.N + s;
      if (Ma[idx]) {
        Ma[idx] = 0;
        act = true;
        d = Ca[idx];
      }
    }
    if (!__syncthreads_or(act)) continue;
    if (threadIdx.x < geo.VB) {
      int32_t vv = bx * geo.VB + threadIdx.x;
      if (vv < g.n) {
        s_off[threadIdx.x] = g.offsets[vv];
        s_deg[threadIdx.x] = g.offsets[vv + 1] - g.offsets[vv];
      } else {
        s_off[threadIdx.x] = 0;
        s_deg[threadIdx.x] = 0;
      }
    }
    __syncthreads();
    int64_t maxdeg = 0;
    for (int j = 0; j < geo.VB; j++) maxdeg = max(maxdeg, s_deg[j]);
    const int64_t my_deg = s_deg[slot];
    for (int64_t base = 0; base < maxdeg; base += chunk) {
      for (int32_t k = threadIdx.x; k < geo.VB * chunk; k += kThreads) {
        const int32_t j = k / chunk;
        const int64_t e = base + k % chunk;
        if (e < s_deg[j]) {
          s_tgt[k] = g.targets[s_off[j] + e];
          s_w[k] = g.weights[s_off[j] + e];
        }
      }
      __syncthreads();
      if (act) {
        const int32_t lim = static_cast<int32_t>(min(static_cast<int64_t>(chunk), my_deg - base));
        const int32_t* tg = s_tgt + slot * chunk;
        const W* wg = s_w + slot * chunk;
        for (int32_t e = 0; e < lim; e++) {
          int32_t u = tg[e];
          W nd;
          if (!add_dist(d, wg[e], &nd)) {
            over = true;
            continue;
          }
          size_t uidx = static_cast<size_t>(u) * geo.N + s;
          if (nd < Ua[uidx]) {
            atomic_min_dist(Ua + uidx, nd);
            int32_t b2 = static_cast<int32_t>(block_of(geo, u, s));
            if (touched[b2] == 0 && atomicExch(touched + b2, 1) == 0) {
              touched_list[atomicAdd(touched_count, 1)] = b2;
            }
          }
        }
      }
      __syncthreads();
    }
  }
  if (over) atomicOr(overflow, 1);
}

// Moves lowered Ua into Ca for the blocks on the touched list, sets their
// masks, and puts blocks with a new mask on the active list.
template <class W>
__global__ void __launch_bounds__(kThreads)
    update_kernel(Geometry geo, int32_t n, W* Ca, const W* __restrict__ Ua, uint8_t* Ma, int32_t* touched,
                  const int32_t* __restrict__ touched_list, const int32_t* touched_count, int32_t* active_list,
                  int32_t* active_count) {
  const int32_t cnt = *touched_count;
  for (int32_t i = blockIdx.x; i < cnt; i += gridDim.x) {
    const int32_t bid = touched_list[i];
    const int32_t bx = bid % geo.gx, by = bid / geo.gx;
    const int32_t s = by * geo.SB + threadIdx.x % geo.SB;
    const int32_t v = bx * geo.VB + threadIdx.x / geo.SB;
    bool m = false;
    if (v < n) {
      size_t idx = static_cast<size_t>(v) * geo.N + s;
      W u = Ua[idx];
      if (u < Ca[idx]) {
        Ca[idx] = u;
        Ma[idx] = 1;
        m = true;
      }
    }
    int any = __syncthreads_or(m);
    if (threadIdx.x == 0) {
      touched[bid] = 0;
      if (any) active_list[atomicAdd(active_count, 1)] = bid;
    }
  }
}

// Parents, first pass: arcs that strictly descend in distance.
template <class W>
__global__ void __launch_bounds__(kThreads)
    parent_kernel(Geometry geo, DeviceCsr<W> rg, const int32_t* __restrict__ sources, int32_t count,
                  const W* __restrict__ Ca, int32_t* P, uint8_t* A, int32_t* pending) {
  const int32_t s = blockIdx.y * geo.SB + threadIdx.x % geo.SB;
  const int32_t v = blockIdx.x * geo.VB + threadIdx.x / geo.SB;
  if (v >= rg.n || s >= count) return;
  const size_t idx = static_cast<size_t>(v) * geo.N + s;
  const W d = Ca[idx];
  if (d == dist_inf<W>() || v == sources[s]) {
    P[idx] = -1;
    A[idx] = 1;
    return;
  }
  for (int64_t e = rg.offsets[v]; e < rg.offsets[v + 1]; e++) {
    int32_t u = rg.targets[e];
    W du = Ca[static_cast<size_t>(u) * geo.N + s];
    if (du < d && tight(du, rg.weights[e], d)) {
      P[idx] = u;
      A[idx] = 1;
      return;
    }
  }
  P[idx] = -1;
  A[idx] = 0;
  *pending = 1;
}

// Parents, further passes: equal-distance tight arcs from assigned vertices.
template <class W>
__global__ void __launch_bounds__(kThreads)
    parent_equal_kernel(Geometry geo, DeviceCsr<W> rg, int32_t count, const W* __restrict__ Ca, int32_t* P,
                        volatile uint8_t* A, int32_t* changed) {
  const int32_t s = blockIdx.y * geo.SB + threadIdx.x % geo.SB;
  const int32_t v = blockIdx.x * geo.VB + threadIdx.x / geo.SB;
  if (v >= rg.n || s >= count) return;
  const size_t idx = static_cast<size_t>(v) * geo.N + s;
  if (A[idx]) return;
  const W d = Ca[idx];
  for (int64_t e = rg.offsets[v]; e < rg.offsets[v + 1]; e++) {
    int32_t u = rg.targets[e];
    size_t uidx = static_cast<size_t>(u) * geo.N + s;
    W du = Ca[uidx];
    if (du == d && tight(du, rg.weights[e], d) && A[uidx]) {
      P[idx] = u;
      A[idx] = 1;
      *changed = 1;
      return;
    }
  }
}

// Reads a device word into pinned memory and waits for it.
class HostWord {
 public:
  HostWord() { host_.allocate(sizeof(int32_t)); }
  int32_t read(RunContext& ctx, const int32_t* d) {
    GSP_CUDA(cudaMemcpyAsync(host_.get(), d, sizeof(int32_t), cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.sync();
    return *static_cast<int32_t*>(host_.get());
  }

 private:
  sparse::PinnedBuffer host_;
};

Geometry make_geometry(int32_t n, int32_t N) {
  Geometry geo;
  geo.N = N;
  geo.SB = 32;
  for (int sb : {256, 128, 64}) {
    if (N % sb == 0) {
      geo.SB = sb;
      break;
    }
  }
  geo.VB = kThreads / geo.SB;
  geo.gx = (n + geo.VB - 1) / geo.VB;
  geo.gy = N / geo.SB;
  return geo;
}

// One run: the sources in batches of N problems (a multiple of 32, as many
// as the device budget holds), each seeded, relaxed to convergence, given
// its parents (with paths) and handed to the sink. Per batch: clearing the
// state and seeding is set-up, the rounds and the distance transpose
// compute, the parent rounds and their transpose paths, the rows to the
// sink copy.
template <class W>
class TaskParallelRun {
 public:
  TaskParallelRun(RunContext& ctx, const ApspJob& job)
      : ctx_(ctx), job_(job), n_(job.graph->n()), paths_(job.options->want_paths) {}

  void run() {
    sparse::require_non_negative(job_, "apsp_task_parallel");
    sparse::fill_stats(ctx_, job_);
    g_ = device_graph<W>(ctx_, *job_.graph);
    if (paths_) rg_ = device_reverse_graph<W>(ctx_, *job_.graph);
    StageClock clock(ctx_);
    allocate_words();
    N_ = batch_problems();
    allocate_batch();
    size_grids();

    HostWord host;
    sparse::RowDeliverer out(ctx_, job_);
    int64_t rounds = 0;
    for (int32_t first = 0; first < job_.num_sources; first += static_cast<int32_t>(N_)) {
      const int32_t count = static_cast<int32_t>(std::min<int64_t>(N_, job_.num_sources - first));
      seed(first, count);
      clock.mark(Stage::kSetup);
      rounds += converge(host);
      if constexpr (std::is_same_v<W, int32_t>) sparse::throw_if_overflow(ctx_, d_overflow_);
      // Distances: Ca (interleaved) -> rows (row-major).
      sparse::transpose<W>(ctx_, Ca_.get(), rows_.get(), n_, geo_.N, count);
      clock.mark(Stage::kCompute);
      if (paths_) {
        parents(count, host);
        clock.mark(Stage::kPaths);
      }
      out.deliver(first, count, rows_.get(), paths_ ? pred_rows_ : nullptr);
      clock.mark(Stage::kCopy);
      job_.options->report(static_cast<double>(first + count) / job_.num_sources);
    }
    ctx_.sync();
    clock.finish();
    if (job_.stats != nullptr) job_.stats->iterations = rounds;
  }

 private:
  // The four counter words: the overflow flag, the parents' changed flag,
  // the active and the touched list's lengths.
  void allocate_words() {
    words_.allocate(ctx_, 4, "apsp_task_parallel counters");
    d_overflow_ = words_.get();
    d_changed_ = words_.get() + 1;
    active_count_ = words_.get() + 2;
    touched_count_ = words_.get() + 3;
    GSP_CUDA(cudaMemsetAsync(words_.get(), 0, 4 * sizeof(int32_t), ctx_.stream()));
  }

  // Problems per batch: as many as what is left of the budget holds (a
  // multiple of 32), capped, then spread evenly over the batches; throws
  // where not even 32 fit.
  int64_t batch_problems() const {
    // Per (vertex, problem): Ca + Ua + Ma + one row-major output value; per
    // block of VB x SB (at least 32 entries) three list words.
    const size_t per_problem =
        static_cast<size_t>(n_) * (3 * sizeof(W) + 1) + (3 * 4 * static_cast<size_t>(n_)) / 32 + 64;
    const size_t left = ctx_.budget_left();
    const size_t fixed = size_t(64) << 10;
    int64_t nmax = left > fixed ? static_cast<int64_t>((left - fixed) / (per_problem + 4)) : 0;
    nmax -= nmax % 32;
    // Keep (n * N) and the launch grid within comfortable limits.
    nmax = std::min<int64_t>(nmax, 65536);
    if (const std::optional<int64_t> cap = ctx_.options().tuning.apsp_tp_max_n) {  // GSP_APSP_TP_MAX_N (>= 32)
      nmax = std::min<int64_t>(nmax, *cap - *cap % 32);
    }
    if (nmax < 32) {
      throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "apsp_task_parallel: a batch of 32 problems needs " +
                                                    std::to_string(32 * per_problem) +
                                                    " bytes of device memory, and only " + std::to_string(left) +
                                                    " are left under the budget (options.device_memory_limit)");
    }
    int64_t total32 = (static_cast<int64_t>(job_.num_sources) + 31) / 32 * 32;
    int64_t N = sparse::balanced_batch(nmax, total32, 32);
    N = (N + 31) / 32 * 32;
    if (N > nmax) N = nmax;
    return N;
  }

  // The batch's geometry and arrays. After convergence the parent rounds
  // reuse them: P in Ua, the assigned flags in Ma, the parent rows in Ca
  // (once the distances are transposed out).
  void allocate_batch() {
    geo_ = make_geometry(n_, static_cast<int32_t>(N_));
    cells_ = static_cast<size_t>(n_) * N_;
    nblocks_ = static_cast<size_t>(geo_.gx) * geo_.gy;
    if (nblocks_ >= static_cast<size_t>(INT32_MAX)) {
      throw Error(GSP_ERR_UNSUPPORTED, "apsp_task_parallel: graph too large for one batch of 32");
    }
    d_sources_.allocate(ctx_, static_cast<size_t>(N_), "apsp_task_parallel sources");
    Ca_.allocate(ctx_, cells_, "apsp_task_parallel Ca");
    Ua_.allocate(ctx_, cells_, "apsp_task_parallel Ua");
    Ma_.allocate(ctx_, cells_, "apsp_task_parallel Ma");
    rows_.allocate(ctx_, cells_, "apsp_task_parallel rows");
    // touched flags, the active list, the touched list.
    lists_.allocate(ctx_, 3 * nblocks_, "apsp_task_parallel block lists");
    touched_ = lists_.get();
    active_list_ = lists_.get() + nblocks_;
    touched_list_ = lists_.get() + 2 * nblocks_;
    P_ = reinterpret_cast<int32_t*>(Ua_.get());          // Ua is free once converged
    A_ = Ma_.get();                                      // likewise Ma
    pred_rows_ = reinterpret_cast<int32_t*>(Ca_.get());  // after dist is transposed
  }

  // Persistent grids for the list-walking kernels.
  void size_grids() {
    int occ_r = 1, occ_u = 1;
    GSP_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_r, relax_kernel<W>, kThreads, 0));
    GSP_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_u, update_kernel<W>, kThreads, 0));
    grid_r_ = static_cast<unsigned>(std::max(1, occ_r) * ctx_.props().multiProcessorCount);
    grid_u_ = static_cast<unsigned>(std::max(1, occ_u) * ctx_.props().multiProcessorCount);
  }

  // A batch's state cleared and its `count` sources seeded (on the active
  // list).
  void seed(int32_t first, int32_t count) {
    cudaStream_t st = ctx_.stream();
    GSP_CUDA(
        cudaMemcpyAsync(d_sources_.get(), job_.sources + first, sizeof(int32_t) * count, cudaMemcpyHostToDevice, st));
    sparse::fill<W>(ctx_, Ca_.get(), cells_, dist_inf<W>());
    sparse::fill<W>(ctx_, Ua_.get(), cells_, dist_inf<W>());
    GSP_CUDA(cudaMemsetAsync(Ma_.get(), 0, cells_, st));
    GSP_CUDA(cudaMemsetAsync(touched_, 0, nblocks_ * sizeof(int32_t), st));
    GSP_CUDA(cudaMemsetAsync(active_count_, 0, 2 * sizeof(int32_t), st));
    seed_kernel<W><<<blocks_for(count, 256), 256, 0, st>>>(geo_, d_sources_.get(), count, Ca_.get(), Ua_.get(),
                                                           Ma_.get(), touched_, active_list_, active_count_);
    GSP_CUDA_LAUNCH();
    GSP_CUDA(cudaMemsetAsync(touched_, 0, nblocks_ * sizeof(int32_t), st));
  }

  // Rounds of (relax, update) in groups; the active count after a group
  // says whether work is left. Returns the rounds run.
  int64_t converge(HostWord& host) {
    cudaStream_t st = ctx_.stream();
    int64_t rounds = 0;
    int group = 1;
    for (;;) {
      for (int r = 0; r < group; r++) {
        relax_kernel<W><<<grid_r_, kThreads, 0, st>>>(geo_, g_, Ca_.get(), Ua_.get(), Ma_.get(), active_list_,
                                                      active_count_, touched_, touched_list_, touched_count_,
                                                      d_overflow_);
        GSP_CUDA_LAUNCH();
        GSP_CUDA(cudaMemsetAsync(active_count_, 0, sizeof(int32_t), st));
        update_kernel<W><<<grid_u_, kThreads, 0, st>>>(geo_, n_, Ca_.get(), Ua_.get(), Ma_.get(), touched_,
                                                       touched_list_, touched_count_, active_list_, active_count_);
        GSP_CUDA_LAUNCH();
        GSP_CUDA(cudaMemsetAsync(touched_count_, 0, sizeof(int32_t), st));
        ++rounds;
      }
      if (host.read(ctx_, active_count_) == 0) break;
      group = std::min(group * 2, 32);
    }
    return rounds;
  }

  // Parents over the reverse graph: the strictly descending arcs, then
  // rounds over the equal-distance ones until none is assigned; then
  // P (interleaved, in Ua) -> row-major, into Ca's storage.
  void parents(int32_t count, HostWord& host) {
    cudaStream_t st = ctx_.stream();
    const dim3 grid(geo_.gx, geo_.gy);
    GSP_CUDA(cudaMemsetAsync(d_changed_, 0, sizeof(int32_t), st));
    parent_kernel<W><<<grid, kThreads, 0, st>>>(geo_, rg_, d_sources_.get(), count, Ca_.get(), P_, A_, d_changed_);
    GSP_CUDA_LAUNCH();
    while (host.read(ctx_, d_changed_) != 0) {
      GSP_CUDA(cudaMemsetAsync(d_changed_, 0, sizeof(int32_t), st));
      parent_equal_kernel<W><<<grid, kThreads, 0, st>>>(geo_, rg_, count, Ca_.get(), P_, A_, d_changed_);
      GSP_CUDA_LAUNCH();
    }
    sparse::transpose<int32_t>(ctx_, P_, pred_rows_, n_, geo_.N, count);
  }

  RunContext& ctx_;
  const ApspJob& job_;
  const int32_t n_;
  const bool paths_;
  DeviceCsr<W> g_{};
  DeviceCsr<W> rg_{};  // the reverse graph, with paths
  int64_t N_ = 0;      // problems per batch
  Geometry geo_;
  size_t cells_ = 0;    // n x N
  size_t nblocks_ = 0;  // blocks of VB x SB
  unsigned grid_r_ = 0, grid_u_ = 0;
  DeviceBuffer<int32_t> words_;
  int32_t* d_overflow_ = nullptr;
  int32_t* d_changed_ = nullptr;
  int32_t* active_count_ = nullptr;
  int32_t* touched_count_ = nullptr;
  DeviceBuffer<int32_t> d_sources_;
  DeviceBuffer<W> Ca_, Ua_;
  DeviceBuffer<uint8_t> Ma_;
  DeviceBuffer<W> rows_;
  DeviceBuffer<int32_t> lists_;
  int32_t* touched_ = nullptr;
  int32_t* active_list_ = nullptr;
  int32_t* touched_list_ = nullptr;
  int32_t* P_ = nullptr;
  uint8_t* A_ = nullptr;
  int32_t* pred_rows_ = nullptr;
};

}  // namespace

void apsp_task_parallel(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    TaskParallelRun<W>(ctx, job).run();
  });
}

}  // namespace gsp::detail::gpu
