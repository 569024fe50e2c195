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
__global__ void spmv_csr_kernel(int32_t n, const int64_t* roff, const int32_t* rsrc, const W* rw, const WordOf<W>* xin,
                                WordOf<W>* xout, int* changed, int64_t round) {
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
__global__ void spmv_ell_kernel(int32_t n, int32_t K, const int32_t* col, const W* val, const WordOf<W>* xin,
                                WordOf<W>* xout, int* changed, int64_t round) {
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
__global__ void spmv_coo_kernel(int64_t nnz, const int32_t* row, const int32_t* col, const W* val, const WordOf<W>* xin,
                                WordOf<W>* xout, int* changed, int64_t round) {
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
__global__ void build_ell_kernel(int32_t n, int32_t K, const int64_t* roff, const int32_t* rsrc, const W* rw,
                                 int32_t* col, W* val, int32_t* coo_row, int32_t* coo_col, W* coo_val,
                                 unsigned long long* coo_cnt) {
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

// The ELL width K and the length of the hybrid format's COO tail.
struct EllShape {
  int32_t K = 0;
  int64_t coo_nnz = 0;
};

// ELL geometry from the host copy of the reverse offsets: K is the largest
// in-degree, unless that pads the matrix beyond 4m + n entries; then K is
// about 2 m/n and what each row has beyond K goes to the COO tail.
template <class W>
EllShape ell_shape(const Graph& graph) {
  const int32_t n = graph.n();
  const int64_t m = graph.m();
  const CsrView<W> rv = graph.reverse_view<W>();
  EllShape shape;
  int64_t max_deg = 0;
  for (int32_t v = 0; v < n; ++v) max_deg = std::max(max_deg, rv.offsets[v + 1] - rv.offsets[v]);
  const int64_t cap = 4 * m + n;  // padded entries allowed before going hybrid
  int64_t k = max_deg;
  if (k * static_cast<int64_t>(n) > cap) {
    k = std::max<int64_t>(1, (2 * m + n - 1) / n);
    for (int32_t v = 0; v < n; ++v) {
      shape.coo_nnz += std::max<int64_t>(0, rv.offsets[v + 1] - rv.offsets[v] - k);
    }
  }
  if (k > INT32_MAX) throw Error(GSP_ERR_UNSUPPORTED, "ELL width does not fit int32");
  shape.K = static_cast<int32_t>(k);
  return shape;
}

// One run: set-up (the ELL geometry, the workspace, the initial vector, the
// ELL matrix), the products in batches of kBatch rounds until one changes
// nothing, then the packed vector out (finish, sssp_family.cuh).
template <class W>
class SpmvRun {
 public:
  SpmvRun(RunContext& ctx, const SsspJob& job, bool ell)
      : ctx_(ctx), job_(job), n_(job.graph->n()), m_(job.graph->m()), ell_(ell) {}

  void run() {
    fill_stats(ctx_, job_);
    const DeviceCsr<W> g = device_graph<W>(ctx_, *job_.graph);
    r_ = device_reverse_graph<W>(ctx_, *job_.graph);
    StageClock clock(ctx_);
    if (ell_) shape_ = ell_shape<W>(*job_.graph);
    allocate();
    set_up();
    clock.mark(Stage::kSetup);
    const int64_t done_round = run_rounds();
    if (done_round < 0) {
      throw Error(GSP_ERR_NEGATIVE_CYCLE, "a negative cycle is reachable from source " + std::to_string(job_.source) +
                                              " (min-plus SpMV found no fixed point after " + std::to_string(n_) +
                                              " products)");
    }
    if (job_.stats != nullptr) {
      job_.stats->iterations = done_round + 1;
      job_.stats->relaxations = (done_round + 1) * m_;
    }
    // Round done_round wrote x_{done_round+1} == x_{done_round}.
    const WordOf<W>* final_x = ((done_round + 1) & 1) ? x1_ : x0_;
    finish<W>(ctx_, job_, g, final_x, out_dist_, out_pred_, changed_, clock);
  }

 private:
  // The two vectors, the per-round change flags, the output rows and (ELL)
  // the matrix with its COO tail, in one workspace.
  void allocate() {
    ws_.add(&x0_, n_);
    ws_.add(&x1_, n_);
    ws_.add(&changed_, static_cast<size_t>(n_) + kBatch + 1);
    ws_.add(&out_dist_, n_);
    ws_.add(&out_pred_, n_);
    if (ell_) {
      ws_.add(&col_, static_cast<size_t>(shape_.K) * n_);
      ws_.add(&val_, static_cast<size_t>(shape_.K) * n_);
      ws_.add(&coo_row_, shape_.coo_nnz);
      ws_.add(&coo_col_, shape_.coo_nnz);
      ws_.add(&coo_val_, shape_.coo_nnz);
      ws_.add(&coo_cnt_, 1);
    }
    ws_.allocate(ctx_, ell_ ? "SpMV state and ELL matrix (n*K padded + COO tail)" : "SpMV state");
  }

  // No round changed anything yet; x_0 holds the source alone; the ELL
  // matrix and its COO tail are built from the reverse CSR.
  void set_up() {
    cudaStream_t st = ctx_.stream();
    GSP_CUDA(cudaMemsetAsync(changed_, 0, (static_cast<size_t>(n_) + kBatch + 1) * sizeof(int), st));
    init_packed_kernel<W><<<grid_for(ctx_, n_, 256), 256, 0, st>>>(n_, x0_, job_.source);
    GSP_CUDA_LAUNCH();
    if (ell_) {
      GSP_CUDA(cudaMemsetAsync(coo_cnt_, 0, sizeof(unsigned long long), st));
      build_ell_kernel<W><<<grid_for(ctx_, n_, 256), 256, 0, st>>>(n_, shape_.K, r_.offsets, r_.targets, r_.weights,
                                                                   col_, val_, coo_row_, coo_col_, coo_val_, coo_cnt_);
      GSP_CUDA_LAUNCH();
    }
  }

  // Rounds 0..n-1, kBatch at a time, the change flags read after each
  // batch. Returns the first round that changed nothing (converged), or -1
  // after n rounds (a negative cycle).
  int64_t run_rounds() {
    cudaStream_t st = ctx_.stream();
    const double avg = n_ > 0 ? static_cast<double>(m_) / n_ : 0;
    const int T = avg >= 12 ? 32 : (avg >= 3 ? 8 : 1);  // CSR threads per row
    int64_t done_round = -1;
    int host_flags[kBatch];
    for (int64_t base = 0; base < n_ && done_round < 0; base += kBatch) {
      const int64_t end = std::min<int64_t>(n_, base + kBatch);
      for (int64_t rd = base; rd < end; ++rd) launch_round(rd, T);
      GSP_CUDA(cudaMemcpyAsync(host_flags, changed_ + base, (end - base) * sizeof(int), cudaMemcpyDeviceToHost, st));
      ctx_.sync();
      for (int64_t rd = base; rd < end; ++rd) {
        if (host_flags[rd - base] == 0) {
          done_round = rd;
          break;
        }
      }
      job_.options->report(static_cast<double>(end) / n_);
    }
    return done_round;
  }

  // Round rd: x_{rd+1} = min(x_rd, A^T (x) x_rd) in the run's format (CSR:
  // T threads per row).
  void launch_round(int64_t rd, int T) {
    cudaStream_t st = ctx_.stream();
    const WordOf<W>* xin = (rd & 1) ? x1_ : x0_;
    WordOf<W>* xout = (rd & 1) ? x0_ : x1_;
    if (ell_) {
      spmv_ell_kernel<W><<<blocks_for(n_, 256), 256, 0, st>>>(n_, shape_.K, col_, val_, xin, xout, changed_, rd);
      GSP_CUDA_LAUNCH();
      if (shape_.coo_nnz > 0) {
        spmv_coo_kernel<W><<<grid_for(ctx_, shape_.coo_nnz, 256), 256, 0, st>>>(shape_.coo_nnz, coo_row_, coo_col_,
                                                                                coo_val_, xin, xout, changed_, rd);
        GSP_CUDA_LAUNCH();
      }
    } else if (T == 1) {
      spmv_csr_kernel<W, 1>
          <<<blocks_for(n_, 256), 256, 0, st>>>(n_, r_.offsets, r_.targets, r_.weights, xin, xout, changed_, rd);
      GSP_CUDA_LAUNCH();
    } else if (T == 8) {
      spmv_csr_kernel<W, 8><<<blocks_for(static_cast<int64_t>(n_) * 8, 256), 256, 0, st>>>(
          n_, r_.offsets, r_.targets, r_.weights, xin, xout, changed_, rd);
      GSP_CUDA_LAUNCH();
    } else {
      spmv_csr_kernel<W, 32><<<blocks_for(static_cast<int64_t>(n_) * 32, 256), 256, 0, st>>>(
          n_, r_.offsets, r_.targets, r_.weights, xin, xout, changed_, rd);
      GSP_CUDA_LAUNCH();
    }
  }

  RunContext& ctx_;
  const SsspJob& job_;
  const int32_t n_;
  const int64_t m_;
  const bool ell_;
  DeviceCsr<W> r_{};  // the reverse graph: row v lists v's in-arcs
  EllShape shape_;
  Workspace ws_;
  WordOf<W>* x0_ = nullptr;
  WordOf<W>* x1_ = nullptr;
  int* changed_ = nullptr;  // changed_[r]: round r changed some row
  int32_t* col_ = nullptr;
  W* val_ = nullptr;
  int32_t* coo_row_ = nullptr;
  int32_t* coo_col_ = nullptr;
  W* coo_val_ = nullptr;
  unsigned long long* coo_cnt_ = nullptr;
  int32_t* out_pred_ = nullptr;
  W* out_dist_ = nullptr;
};

}  // namespace
}  // namespace gsp::detail::gpu::family

namespace gsp::detail::gpu {

void sssp_spmv(RunContext& ctx, const SsspJob& job, bool ell) {
  with_weight_type(job.graph->dtype(), [&](auto w) { family::SpmvRun<decltype(w)>(ctx, job, ell).run(); });
}

}  // namespace gsp::detail::gpu
