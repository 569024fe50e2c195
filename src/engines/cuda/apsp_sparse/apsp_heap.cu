// GSP_APSP_HEAP on the GPU (Liu & Wang's Heap_APSP): one thread per source
// runs Dijkstra with its own binary min-heap of (vertex, distance) and a
// position index (the paper's assist_array: the tentative distance lives in
// the thread's dist row, `location` holds the vertex's heap slot) so that
// decrease-key is a sift-up from a known slot. Parents are written when a
// distance improves, so every settled vertex's parent was settled before it.
//
// Instead of the paper's per-thread device malloc, heap and position storage
// for a batch of B sources is preallocated from the run's memory budget, and
// batches run until every source is done; each batch's rows are handed to
// job.sink in source order.
//
// Layout: the per-thread heap arrays (vertex, key) and the location array
// are either interleaved (element i of thread t at [i * B + t], so the warp's
// accesses to the same heap level coalesce: the root and the top levels are
// touched by every thread at every step) or contiguous ([t * n + i]).
// Interleaved measured faster on H100 (doc/gpu-apsp-sparse.md); the
// environment variable GSP_APSP_HEAP_LAYOUT=contiguous selects the other one
// for measurement. dist / pred rows are always row-major so they go to the
// sink without a transpose.
#include "apsp_sparse/apsp_sparse_common.cuh"
#include "core/tuning.h"

namespace gsp::detail::gpu {
namespace {

using sparse::add_dist;
using sparse::dist_inf;

constexpr int32_t kNotInHeap = -1;
constexpr int32_t kSettled = -2;

template <class W, bool Interleaved>
struct HeapArrays {
  int32_t* hv;   // heap: vertex
  W* hk;         // heap: key
  int32_t* loc;  // vertex -> heap slot, kNotInHeap or kSettled
  int64_t B;     // batch width (interleaved stride)
  int64_t n;
  int64_t t;

  __device__ int64_t at(int64_t i) const { return Interleaved ? i * B + t : t * n + i; }
};

template <class W, bool I>
__device__ inline void sift_up(const HeapArrays<W, I>& h, int32_t pos, int32_t v, W key) {
  while (pos > 0) {
    int32_t parent = (pos - 1) >> 1;
    W pk = h.hk[h.at(parent)];
    if (!(key < pk)) break;
    int32_t pv = h.hv[h.at(parent)];
    h.hv[h.at(pos)] = pv;
    h.hk[h.at(pos)] = pk;
    h.loc[h.at(pv)] = pos;
    pos = parent;
  }
  h.hv[h.at(pos)] = v;
  h.hk[h.at(pos)] = key;
  h.loc[h.at(v)] = pos;
}

template <class W, bool I>
__device__ inline void sift_down(const HeapArrays<W, I>& h, int32_t size, int32_t v, W key) {
  int32_t pos = 0;
  for (;;) {
    int32_t c = 2 * pos + 1;
    if (c >= size) break;
    W ck = h.hk[h.at(c)];
    if (c + 1 < size) {
      W rk = h.hk[h.at(c + 1)];
      if (rk < ck) {
        ck = rk;
        c = c + 1;
      }
    }
    if (!(ck < key)) break;
    int32_t cv = h.hv[h.at(c)];
    h.hv[h.at(pos)] = cv;
    h.hk[h.at(pos)] = ck;
    h.loc[h.at(cv)] = pos;
    pos = c;
  }
  h.hv[h.at(pos)] = v;
  h.hk[h.at(pos)] = key;
  h.loc[h.at(v)] = pos;
}

// One thread per source of the batch. dist / pred rows (row-major, n each)
// are pre-filled with inf / -1 and loc with kNotInHeap.
template <class W, bool Interleaved>
__global__ void __launch_bounds__(128)
    heap_dijkstra_kernel(DeviceCsr<W> g, const int32_t* __restrict__ sources, int32_t count, int32_t B, int32_t* hv,
                         W* hk, int32_t* loc, W* dist_rows, int32_t* pred_rows, int32_t* overflow,
                         unsigned long long* relax_count) {
  int32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const int64_t n = g.n;
  HeapArrays<W, Interleaved> h{hv, hk, loc, B, n, t};
  W* dist = dist_rows + static_cast<int64_t>(t) * n;
  int32_t* pred = pred_rows != nullptr ? pred_rows + static_cast<int64_t>(t) * n : nullptr;
  const int32_t s = sources[t];
  dist[s] = W(0);
  int32_t size = 1;
  h.hv[h.at(0)] = s;
  h.hk[h.at(0)] = W(0);
  h.loc[h.at(s)] = 0;
  unsigned long long relaxed = 0;
  bool over = false;
  while (size > 0) {
    const int32_t u = h.hv[h.at(0)];
    const W du = h.hk[h.at(0)];
    h.loc[h.at(u)] = kSettled;
    --size;
    if (size > 0) {
      int32_t lv = h.hv[h.at(size)];
      W lk = h.hk[h.at(size)];
      sift_down(h, size, lv, lk);
    }
    const int64_t e0 = g.offsets[u], e1 = g.offsets[u + 1];
    relaxed += static_cast<unsigned long long>(e1 - e0);
    for (int64_t e = e0; e < e1; e++) {
      const int32_t v = g.targets[e];
      const int32_t lv = h.loc[h.at(v)];
      if (lv == kSettled) continue;
      W nd;
      if (!add_dist(du, g.weights[e], &nd)) {
        over = true;
        continue;
      }
      if (nd < dist[v]) {
        dist[v] = nd;
        if (pred != nullptr) pred[v] = u;
        if (lv == kNotInHeap) {
          sift_up(h, size, v, nd);
          ++size;
        } else {
          sift_up(h, lv, v, nd);
        }
      }
    }
  }
  if (over) atomicOr(overflow, 1);
  atomicAdd(relax_count, relaxed);
}

template <class W>
void run_heap(RunContext& ctx, const ApspJob& job) {
  const Graph& graph = *job.graph;
  sparse::require_non_negative(job, "apsp_heap");
  sparse::fill_stats(ctx, job);
  const int32_t n = graph.n();
  const bool paths = job.options->want_paths;

  const bool interleaved = job.options->tuning.apsp_heap_layout == HeapLayout::kInterleaved;  // GSP_APSP_HEAP_LAYOUT

  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  // Per batch: clearing the rows and heaps is set-up, the searches (which
  // record predecessors) compute, the rows to the sink copy.
  StageClock clock(ctx);

  DeviceBuffer<int32_t> flag(ctx, 1, "apsp_heap overflow flag");
  DeviceBuffer<unsigned long long> relax(ctx, 1, "apsp_heap relaxation counter");
  GSP_CUDA(cudaMemsetAsync(flag.get(), 0, sizeof(int32_t), ctx.stream()));
  GSP_CUDA(cudaMemsetAsync(relax.get(), 0, sizeof(unsigned long long), ctx.stream()));

  // Per source: heap vertex + key + location + dist row (+ pred row).
  const size_t per_source = static_cast<size_t>(n) * (4 + sizeof(W) + 4 + sizeof(W) + (paths ? 4 : 0));
  // Keep a small margin for the sources slice and allocator granularity.
  size_t left = ctx.budget_left();
  const size_t fixed = size_t(64) << 10;
  int64_t B = left > fixed ? static_cast<int64_t>((left - fixed) / (per_source + 4)) : 0;
  if (B < 1) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "apsp_heap: one source needs " + std::to_string(per_source) +
                                                  " bytes of device memory, and only " + std::to_string(left) +
                                                  " are left under the budget (options.device_memory_limit)");
  }
  B = sparse::balanced_batch(B, job.num_sources, 32);

  DeviceBuffer<int32_t> d_sources(ctx, static_cast<size_t>(B), "apsp_heap sources");
  DeviceBuffer<int32_t> hv(ctx, static_cast<size_t>(B) * n, "apsp_heap heap vertices");
  DeviceBuffer<W> hk(ctx, static_cast<size_t>(B) * n, "apsp_heap heap keys");
  DeviceBuffer<int32_t> loc(ctx, static_cast<size_t>(B) * n, "apsp_heap positions");
  DeviceBuffer<W> dist(ctx, static_cast<size_t>(B) * n, "apsp_heap distances");
  DeviceBuffer<int32_t> pred;
  if (paths) pred.allocate(ctx, static_cast<size_t>(B) * n, "apsp_heap predecessors");

  sparse::RowDeliverer out(ctx, job);
  int64_t batches = 0;
  for (int32_t first = 0; first < job.num_sources; first += static_cast<int32_t>(B)) {
    const int32_t count = static_cast<int32_t>(std::min<int64_t>(B, job.num_sources - first));
    GSP_CUDA(cudaMemcpyAsync(d_sources.get(), job.sources + first, sizeof(int32_t) * count, cudaMemcpyHostToDevice,
                             ctx.stream()));
    const size_t cells = static_cast<size_t>(count) * n;
    sparse::fill<W>(ctx, dist.get(), cells, dist_inf<W>());
    if (paths) GSP_CUDA(cudaMemsetAsync(pred.get(), 0xff, cells * sizeof(int32_t), ctx.stream()));
    // Interleaved positions use stride B: clear the whole array.
    GSP_CUDA(cudaMemsetAsync(loc.get(), 0xff, static_cast<size_t>(B) * n * sizeof(int32_t), ctx.stream()));
    clock.mark(Stage::kSetup);
    const int threads = 128;
    const unsigned blocks = blocks_for(count, threads);
    if (interleaved) {
      heap_dijkstra_kernel<W, true><<<blocks, threads, 0, ctx.stream()>>>(
          g, d_sources.get(), count, static_cast<int32_t>(B), hv.get(), hk.get(), loc.get(), dist.get(),
          paths ? pred.get() : nullptr, flag.get(), relax.get());
    } else {
      heap_dijkstra_kernel<W, false><<<blocks, threads, 0, ctx.stream()>>>(
          g, d_sources.get(), count, static_cast<int32_t>(B), hv.get(), hk.get(), loc.get(), dist.get(),
          paths ? pred.get() : nullptr, flag.get(), relax.get());
    }
    GSP_CUDA_LAUNCH();
    if constexpr (std::is_same_v<W, int32_t>) sparse::throw_if_overflow(ctx, flag.get());
    clock.mark(Stage::kCompute);
    out.deliver(first, count, dist.get(), paths ? pred.get() : nullptr);
    clock.mark(Stage::kCopy);
    ++batches;
    job.options->report(static_cast<double>(first + count) / job.num_sources);
  }
  unsigned long long h_relax = 0;
  GSP_CUDA(cudaMemcpyAsync(&h_relax, relax.get(), sizeof h_relax, cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.sync();
  clock.finish();
  if (job.stats != nullptr) {
    job.stats->iterations = batches;
    job.stats->relaxations = static_cast<int64_t>(h_relax);
  }
}

}  // namespace

void apsp_heap(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    run_heap<W>(ctx, job);
  });
}

}  // namespace gsp::detail::gpu
