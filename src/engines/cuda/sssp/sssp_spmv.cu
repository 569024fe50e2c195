// GSP_SSSP_SPMV_CSR / GSP_SSSP_SPMV_ELL on CUDA: Bellman-Ford
// as repeated min-plus sparse matrix-vector products x' = min(x, A^T (x) x)
// over the transposed matrix (the reverse graph: each row v lists its
// in-arcs (u, w)). Jacobi style: round r reads x_r and writes x_{r+1}, one
// owner per row, no atomics (except the COO tail of the hybrid format).
//
// The vector holds packed (distance key, parent) words: the row minimum over
// pack(x[u] + w, u) gives distance and parent at once (ties go to the
// smaller parent id, so the result is deterministic); a row takes it only
// when the distance is strictly smaller than its current one.
//
// CSR: a group of 1, 8 or 32 threads per row (by average in-degree), shuffle
// min. ELL: column-major n x K arrays, one thread per row, coalesced. The
// ELL width is capped: when max-in-degree x n would pad the matrix beyond
// 4m + n entries, K is cut to ~2 m/n and the rest of each long row goes to a
// COO tail applied with atomicMin (hybrid ELL+COO); when even that does not
// fit the budget the allocation fails with GSP_ERR_DEVICE_OUT_OF_MEMORY.
//
// Early exit: each round sets changed[r]; a round whose predecessor changed
// nothing returns at once, and the host looks at the flags once per batch of
// 32 rounds. A change in round n (0-based n-1) means no fixed point after n
// products: a negative cycle is reachable (GSP_ERR_NEGATIVE_CYCLE).
#include <algorithm>
#include <vector>

#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

constexpr int kBatch = 32;

template <class W, int T>
__global__ void spmv_csr_kernel(int32_t n, const int64_t* roff, const int32_t* rsrc, const W* rw,
                                const WordOf<W>* xin, WordOf<W>* xout,
                                int* changed, int64_t round) {
  if (round > 0 && changed[round - 1] == 0) return;
  const int64_t tid = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const int64_t v = tid / T;
  const int lane = static_cast<int>(tid % T);
  const bool valid = v < n;  // every lane stays for the shuffles below
  using Word = WordOf<W>;
  const Word cur = valid ? xin[v] : unreached_word<Word>();
  Word best = unreached_word<Word>();
  const int64_t kend = valid ? roff[v + 1] : 0;
  for (int64_t k = valid ? roff[v] + lane : 0; k < kend; k += T) {
    const int32_t u = rsrc[k];
    const Word pu = xin[u];
    if (is_unreached(pu)) continue;
    W cand;
    if (!Key<W>::add(dist_of<W>(pu), rw[k], &cand)) continue;
    const Word p = pack(Key<W>::of(cand), u);
    best = word_less(p, best) ? p : best;
  }
  if constexpr (T > 1) {
    for (int o = T / 2; o > 0; o >>= 1) {
      const Word other = word_shfl_down(best, o, T);
      best = word_less(other, best) ? other : best;
    }
  }
  if (valid && lane == 0) {
    if (!is_unreached(best) && (is_unreached(cur) || key_of(best) < key_of(cur))) {
      xout[v] = best;
      changed[round] = 1;
    } else {
      xout[v] = cur;
    }
  }
}

template <class W>
__global__ void spmv_ell_kernel(int32_t n, int32_t K, const int32_t* col, const W* val,
                                const WordOf<W>* xin, WordOf<W>* xout,
                                int* changed, int64_t round) {
  if (round > 0 && changed[round - 1] == 0) return;
  const int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (v >= n) return;
  using Word = WordOf<W>;
  const Word cur = xin[v];
  Word best = unreached_word<Word>();
  for (int32_t k = 0; k < K; ++k) {
    const int64_t at = static_cast<int64_t>(k) * n + v;
    const int32_t u = col[at];
    if (u < 0) break;  // padding sits at the end of a row
    const Word pu = xin[u];
    if (is_unreached(pu)) continue;
    W cand;
    if (!Key<W>::add(dist_of<W>(pu), val[at], &cand)) continue;
    const Word p = pack(Key<W>::of(cand), u);
    best = word_less(p, best) ? p : best;
  }
  if (!is_unreached(best) && (is_unreached(cur) || key_of(best) < key_of(cur))) {
    xout[v] = best;
    changed[round] = 1;
  } else {
    xout[v] = cur;
  }
}

// The COO tail of the hybrid format, after the ELL part of the same round.
template <class W>
__global__ void spmv_coo_kernel(int64_t nnz, const int32_t* row, const int32_t* col, const W* val,
                                const WordOf<W>* xin, WordOf<W>* xout,
                                int* changed, int64_t round) {
  if (round > 0 && changed[round - 1] == 0) return;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < nnz;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int32_t v = row[i], u = col[i];
    const auto pu = xin[u];
    if (is_unreached(pu)) continue;
    W cand;
    if (!Key<W>::add(dist_of<W>(pu), val[i], &cand)) continue;
    const auto cur = xin[v];
    const auto p = pack(Key<W>::of(cand), u);
    if (is_unreached(cur) || key_of(p) < key_of(cur)) {
      word_min(xout + v, p);
      changed[round] = 1;
    }
  }
}

// Build ELL (column-major, width K, -1 padding) + COO tail from the reverse CSR.
template <class W>
__global__ void build_ell_kernel(int32_t n, int32_t K, const int64_t* roff, const int32_t* rsrc,
                                 const W* rw, int32_t* col, W* val, int32_t* coo_row,
                                 int32_t* coo_col, W* coo_val, unsigned long long* coo_cnt) {
  for (int64_t v = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t beg = roff[v], deg = roff[v + 1] - beg;
    for (int32_t k = 0; k < K; ++k) {
      const int64_t at = static_cast<int64_t>(k) * n + v;
      if (k < deg) {
        col[at] = rsrc[beg + k];
        val[at] = rw[beg + k];
      } else {
        col[at] = -1;
        val[at] = W(0);
      }
    }
    if (deg > K) {
      const unsigned long long extra = static_cast<unsigned long long>(deg - K);
      const unsigned long long pos = atomicAdd(coo_cnt, extra);
      for (unsigned long long e = 0; e < extra; ++e) {
        coo_row[pos + e] = static_cast<int32_t>(v);
        coo_col[pos + e] = rsrc[beg + K + static_cast<int64_t>(e)];
        coo_val[pos + e] = rw[beg + K + static_cast<int64_t>(e)];
      }
    }
  }
}

template <class W>
void run(RunContext& ctx, const SsspJob& job, bool ell) {
  const Graph& graph = *job.graph;
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  fill_stats(ctx, job);
  DeviceCsr<W> g = device_graph<W>(ctx, graph);
  DeviceCsr<W> r = device_reverse_graph<W>(ctx, graph);
  cudaStream_t st = ctx.stream();
  StageClock clock(ctx);  // set-up: ELL geometry, workspace, initial vector, ELL matrix

  // ELL geometry from the host copy of the reverse offsets.
  int32_t K = 0;
  int64_t coo_nnz = 0;
  if (ell) {
    const CsrView<W> rv = graph.reverse_view<W>();
    int64_t max_deg = 0;
    for (int32_t v = 0; v < n; ++v) max_deg = std::max(max_deg, rv.offsets[v + 1] - rv.offsets[v]);
    const int64_t cap = 4 * m + n;  // padded entries allowed before going hybrid
    int64_t k = max_deg;
    if (k * static_cast<int64_t>(n) > cap) {
      k = std::max<int64_t>(1, (2 * m + n - 1) / n);
      for (int32_t v = 0; v < n; ++v) {
        coo_nnz += std::max<int64_t>(0, rv.offsets[v + 1] - rv.offsets[v] - k);
      }
    }
    if (k > INT32_MAX) throw Error(GSP_ERR_UNSUPPORTED, "ELL width does not fit int32");
    K = static_cast<int32_t>(k);
  }

  WordOf<W>* x0 = nullptr;
  WordOf<W>* x1 = nullptr;
  int* changed = nullptr;
  int32_t* col = nullptr;
  W* val = nullptr;
  int32_t* coo_row = nullptr;
  int32_t* coo_col = nullptr;
  W* coo_val = nullptr;
  unsigned long long* coo_cnt = nullptr;
  int32_t* out_pred = nullptr;
  W* out_dist = nullptr;
  Workspace ws;
  ws.add(&x0, n);
  ws.add(&x1, n);
  ws.add(&changed, static_cast<size_t>(n) + kBatch + 1);
  ws.add(&out_dist, n);
  ws.add(&out_pred, n);
  if (ell) {
    ws.add(&col, static_cast<size_t>(K) * n);
    ws.add(&val, static_cast<size_t>(K) * n);
    ws.add(&coo_row, coo_nnz);
    ws.add(&coo_col, coo_nnz);
    ws.add(&coo_val, coo_nnz);
    ws.add(&coo_cnt, 1);
  }
  ws.allocate(ctx, ell ? "SpMV state and ELL matrix (n*K padded + COO tail)" : "SpMV state");

  GSP_CUDA(cudaMemsetAsync(changed, 0, (static_cast<size_t>(n) + kBatch + 1) * sizeof(int), st));
  init_packed_kernel<W><<<grid_for(ctx, n, 256), 256, 0, st>>>(n, x0, job.source);
  GSP_CUDA_LAUNCH();
  if (ell) {
    GSP_CUDA(cudaMemsetAsync(coo_cnt, 0, sizeof(unsigned long long), st));
    build_ell_kernel<W><<<grid_for(ctx, n, 256), 256, 0, st>>>(
        n, K, r.offsets, r.targets, r.weights, col, val, coo_row, coo_col, coo_val, coo_cnt);
    GSP_CUDA_LAUNCH();
  }
  const double avg = n > 0 ? static_cast<double>(m) / n : 0;
  const int T = avg >= 12 ? 32 : (avg >= 3 ? 8 : 1);
  clock.mark(Stage::kSetup);

  // Rounds 0..n-1; converged at the first round that changed nothing.
  int64_t done_round = -1;  // first round with no change
  int host_flags[kBatch];
  for (int64_t base = 0; base < n && done_round < 0; base += kBatch) {
    const int64_t end = std::min<int64_t>(n, base + kBatch);
    for (int64_t rd = base; rd < end; ++rd) {
      const WordOf<W>* xin = (rd & 1) ? x1 : x0;
      WordOf<W>* xout = (rd & 1) ? x0 : x1;
      if (ell) {
        spmv_ell_kernel<W><<<blocks_for(n, 256), 256, 0, st>>>(n, K, col, val, xin, xout, changed,
                                                              rd);
        GSP_CUDA_LAUNCH();
        if (coo_nnz > 0) {
          spmv_coo_kernel<W><<<grid_for(ctx, coo_nnz, 256), 256, 0, st>>>(
              coo_nnz, coo_row, coo_col, coo_val, xin, xout, changed, rd);
          GSP_CUDA_LAUNCH();
        }
      } else if (T == 1) {
        spmv_csr_kernel<W, 1><<<blocks_for(n, 256), 256, 0, st>>>(n, r.offsets, r.targets,
                                                                  r.weights, xin, xout, changed, rd);
        GSP_CUDA_LAUNCH();
      } else if (T == 8) {
        spmv_csr_kernel<W, 8><<<blocks_for(static_cast<int64_t>(n) * 8, 256), 256, 0, st>>>(
            n, r.offsets, r.targets, r.weights, xin, xout, changed, rd);
        GSP_CUDA_LAUNCH();
      } else {
        spmv_csr_kernel<W, 32><<<blocks_for(static_cast<int64_t>(n) * 32, 256), 256, 0, st>>>(
            n, r.offsets, r.targets, r.weights, xin, xout, changed, rd);
        GSP_CUDA_LAUNCH();
      }
    }
    GSP_CUDA(cudaMemcpyAsync(host_flags, changed + base, (end - base) * sizeof(int),
                             cudaMemcpyDeviceToHost, st));
    ctx.sync();
    for (int64_t rd = base; rd < end; ++rd) {
      if (host_flags[rd - base] == 0) {
        done_round = rd;
        break;
      }
    }
    job.options->report(static_cast<double>(end) / n);
  }
  if (done_round < 0) {
    throw Error(GSP_ERR_NEGATIVE_CYCLE,
                "a negative cycle is reachable from source " + std::to_string(job.source) +
                    " (min-plus SpMV found no fixed point after " + std::to_string(n) +
                    " products)");
  }
  if (job.stats != nullptr) {
    job.stats->iterations = done_round + 1;
    job.stats->relaxations = (done_round + 1) * m;
  }
  // Round done_round wrote x_{done_round+1} == x_{done_round}.
  const WordOf<W>* final_x = ((done_round + 1) & 1) ? x1 : x0;
  finish<W>(ctx, job, g, final_x, out_dist, out_pred, changed, clock);
}

}  // namespace
}  // namespace gsp::detail::gpu::family

namespace gsp::detail::gpu {

void sssp_spmv(RunContext& ctx, const SsspJob& job, bool ell) {
  with_weight_type(job.graph->dtype(),
                   [&](auto w) { family::run<decltype(w)>(ctx, job, ell); });
}

}  // namespace gsp::detail::gpu
