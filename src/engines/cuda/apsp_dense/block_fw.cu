// BlockFw on a CUDA device (src/core/block_fw.h): one MPI rank's blocks of
// the distributed Floyd-Warshall stay resident on its device for the whole
// run; only the panels that are broadcast cross PCIe, through pinned host
// buffers in the host block format.
//
// The initial blocks are built on the device from the rank's arcs (no host
// store, nothing n^2 crosses PCIe on the way in); on a 1 x 1 grid the result
// leaves as rows, straight into the caller's n x n arrays (one strided copy
// each), else block row by block row into the host store.
//
// Device layout: the rank's nlr x nlc blocks as one row-major matrix of
// (nlr * b) x (nlc * b) cells, leading dimension ld = nlc * b, so that a
// local block row is contiguous and phase 3 is a single min-plus product
// over the whole local matrix (src/engines/cuda/apsp_dense/minplus_tile.cuh, K = b). b is a
// multiple of the 128-cell tile; cells past the matrix edge hold infinity
// (inert: they never improve a real cell). Phase 1 is the single-device
// blocked FW on the diagonal block (src/engines/cuda/apsp_dense/fw_blocked.cuh). Phase 2 reads the
// panel's old values from a copy, because an output tile's operand spans
// other tiles of the same panel (as in the single-device super-blocked FW).
//
// Values on the device use the single-device engine's representations:
// float, int32 "fast" (infinity 2^30 - 1, one DPX add-min per relaxation)
// when 4 (n + 1) max|w| < 2^30 - 1, else int32 "checked" (overflow flagged).
// Packing and unpacking convert to and from the API's representation.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/block_fw.h"
#include "apsp_dense/fw_blocked.cuh"
#include "apsp_dense/minplus_tile.cuh"
#include "runtime/weight_traits.cuh"

namespace gsp::detail::gpu {
namespace {

using namespace dense;

// Column offset that keeps the tile product's diagonal test (row_off + i ==
// col_off + j) from firing: local rows and columns are not global indices.
// Negative diagonals are found by diag_check_kernel instead.
constexpr int64_t kNoDiagonal = int64_t(1) << 40;

template <class W>
__device__ __forceinline__ bool api_is_inf(W v) {
  if constexpr (std::is_floating_point<W>::value) {
    return isinf(v) && v > 0;
  } else {
    return v == GSP_I32_INF;
  }
}

// Device matrix region (nbr x nbc blocks of b x b at D, leading dimension
// ld) -> host block format (total = nbr * nbc * b * b cells), API values.
template <class Ops, class W>
__global__ void pack_blocks_kernel(const typename Ops::T* D, const int32_t* P, int64_t ld, int32_t b,
                                   int32_t nbc, int64_t total, W* out_d, int32_t* out_p) {
  const int64_t bb = (int64_t)b * b;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t blk = e / bb, w = e % bb;
    const int64_t at = ((blk / nbc) * b + w / b) * ld + (blk % nbc) * b + w % b;
    const typename Ops::T v = D[at];
    out_d[e] = Ops::is_inf(v) ? Dist<W>::inf() : (W)v;
    if (out_p != nullptr) out_p[e] = P[at];
  }
}

// The inverse: host block format, API values -> device region.
template <class Ops, class W>
__global__ void unpack_blocks_kernel(const W* in_d, const int32_t* in_p, int64_t total, int32_t b, int32_t nbc,
                                     typename Ops::T* D, int32_t* P, int64_t ld) {
  const int64_t bb = (int64_t)b * b;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t blk = e / bb, w = e % bb;
    const int64_t at = ((blk / nbc) * b + w / b) * ld + (blk % nbc) * b + w % b;
    const W v = in_d[e];
    D[at] = api_is_inf(v) ? Ops::inf() : (typename Ops::T)v;
    if (P != nullptr && in_p != nullptr) P[at] = in_p[e];
  }
}

// Sets kFlagNegCycle when a diagonal cell this rank holds is negative.
template <class Ops>
__global__ void diag_check_kernel(const typename Ops::T* D, int64_t ld, BlockFwShape s, int* flags) {
  const int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int32_t li = (int32_t)(idx / s.b), r = (int32_t)(idx % s.b);
  if (li >= s.nlr) return;
  const int32_t I = li * s.grid_rows + s.my_row;
  if (I % s.grid_cols != s.my_col || (int64_t)I * s.b + r >= s.n) return;
  const int64_t lj = I / s.grid_cols;
  if (D[((int64_t)li * s.b + r) * ld + lj * s.b + r] < typename Ops::T(0)) atomicOr(flags, kFlagNegCycle);
}

// Fills count cells with infinity (predecessor -1).
template <class Ops>
__global__ void fill_inf_kernel(typename Ops::T* D, int32_t* P, int64_t count) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count;
       e += (int64_t)gridDim.x * blockDim.x) {
    D[e] = Ops::inf();
    if (P != nullptr) P[e] = -1;
  }
}

// 0 on the diagonal cells this rank holds.
template <class Ops>
__global__ void zero_diag_kernel(typename Ops::T* D, int64_t ld, BlockFwShape s) {
  const int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int32_t li = (int32_t)(idx / s.b), r = (int32_t)(idx % s.b);
  if (li >= s.nlr) return;
  const int32_t I = li * s.grid_rows + s.my_row;
  if (I % s.grid_cols != s.my_col || (int64_t)I * s.b + r >= s.n) return;
  D[((int64_t)li * s.b + r) * ld + (I / s.grid_cols) * s.b + r] = typename Ops::T(0);
}

// min into a cell (floats: ordered as integers by sign, runtime/weight_traits.cuh).
template <class W>
__device__ __forceinline__ void atomic_min_value(W* at, W v) {
  WeightTraits<W>::atomic_min(at, v);
}

// Arcs (cell of the local matrix, weight): the lightest per cell wins.
template <class T>
__global__ void scatter_arcs_kernel(const int64_t* cell, const T* w, int64_t count, T* D) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count;
       e += (int64_t)gridDim.x * blockDim.x) {
    atomic_min_value(D + cell[e], w[e]);
  }
}

// Then the arcs' tails as predecessors where an arc won its cell (parallel
// arcs share the tail; a self-loop only where it made the diagonal negative).
template <class T>
__global__ void arc_preds_kernel(const int64_t* cell, const T* w, int64_t count, const T* D, int32_t* P,
                                 int64_t ld, BlockFwShape s) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = cell[e];
    if (D[c] != w[e]) continue;
    const int64_t row = c / ld, col = c % ld;
    const int32_t u = (int32_t)(((row / s.b) * s.grid_rows + s.my_row) * s.b + row % s.b);
    const int32_t v = (int32_t)(((col / s.b) * s.grid_cols + s.my_col) * s.b + col % s.b);
    if (u != v || w[e] < T(0)) P[c] = u;
  }
}

// In place: device values -> API values over count cells (predecessors
// stay as they are, as pack_blocks_kernel leaves them).
template <class Ops, class W>
__global__ void to_api_kernel(typename Ops::T* D, int64_t count) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count;
       e += (int64_t)gridDim.x * blockDim.x) {
    if (Ops::is_inf(D[e])) D[e] = (typename Ops::T)Dist<W>::inf();
  }
}

// The predecessor check of rows [row0, row0 + rows) of the local matrix (a
// 1 x 1 grid: local row = vertex), by pointer doubling: anc starts as each
// vertex's predecessor (the vertex itself where there is none), then anc <-
// anc[anc] until 2^rounds >= n; every reachable vertex must end at the
// row's source, whose own predecessor must be -1, and every predecessor of
// a reachable vertex must be reachable. anc0 / anc1: rows x n scratch.
__global__ void anc_init_kernel(const int32_t* P, int64_t ld, int32_t n, int64_t row0, int64_t total,
                                int32_t* anc) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n, j = e % n;
    const int32_t p = P[(row0 + r) * ld + j];
    anc[e] = p < 0 || p >= n ? (int32_t)j : p;
  }
}
__global__ void anc_step_kernel(const int32_t* a, int32_t* b, int32_t n, int64_t total) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    b[e] = a[(e / n) * n + a[e]];
  }
}
template <class Ops>
__global__ void anc_check_kernel(const int32_t* anc, const typename Ops::T* D, const int32_t* P, int64_t ld,
                                 int32_t n, int64_t row0, int64_t total, int* bad) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = e / n, j = e % n, i = row0 + r;
    const int64_t at = i * ld + j;
    if (Ops::is_inf(D[at])) continue;
    const int32_t p = P[at];
    bool ok;
    if (j == i) {
      ok = p == -1;
    } else {
      ok = anc[e] == i && p >= 0 && p < n && !Ops::is_inf(D[i * ld + p]);
    }
    if (!ok) bad[r] = 1;
  }
}

inline unsigned grid_for(int64_t total) {
  return (unsigned)std::min<int64_t>(blocks_for(total, 256), 65535LL * 8);
}

template <class Ops, class W, bool kPaths>
class CudaBlockFw final : public BlockFw<W> {
  using T = typename Ops::T;
  static_assert(std::is_same<T, W>::value, "device values have the weight type");

 public:
  CudaBlockFw(const BlockFwShape& shape, const RunOptions& options, W* store_d, int32_t* store_p)
      : s_(shape), options_(options), ctx_(options_, nullptr), b_(shape.b), ld_((int64_t)shape.nlc * shape.b),
        rows_((int64_t)shape.nlr * shape.b), bb_((int64_t)shape.b * shape.b), tiles_(shape.b / kTile),
        store_d_(store_d), store_p_(store_p) {
    const size_t cells = (size_t)rows_ * (size_t)ld_;
    const size_t panel = (size_t)std::max<int64_t>(b_ * ld_, rows_ * b_);
    const size_t stage = (size_t)std::max(shape.nlr, shape.nlc) * (size_t)bb_;
    D_.allocate(ctx_, cells, "MPI Floyd-Warshall: this rank's blocks");
    row_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row");
    col_.allocate(ctx_, (size_t)(rows_ * b_), "MPI Floyd-Warshall: received block column");
    diag_.allocate(ctx_, (size_t)bb_, "MPI Floyd-Warshall: diagonal block");
    tmp_.allocate(ctx_, panel, "MPI Floyd-Warshall: panel copy");
    stage_d_.allocate(ctx_, stage, "MPI Floyd-Warshall: staging");
    if (kPaths) {
      P_.allocate(ctx_, cells, "MPI Floyd-Warshall: this rank's predecessor blocks");
      rowp_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row (pred)");
      diagp_.allocate(ctx_, (size_t)bb_, "MPI Floyd-Warshall: diagonal block (pred)");
      tmpp_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: panel copy (pred)");
      stage_p_.allocate(ctx_, stage, "MPI Floyd-Warshall: staging (pred)");
    }
    flags_.allocate(ctx_, 1, "MPI Floyd-Warshall: flags");
    h_diag_d_.allocate((size_t)bb_ * sizeof(W));
    h_row_d_.allocate((size_t)(s_.nlc * bb_) * sizeof(W));
    h_col_d_.allocate((size_t)(s_.nlr * bb_) * sizeof(W));
    if (kPaths) {
      h_diag_p_.allocate((size_t)bb_ * sizeof(int32_t));
      h_row_p_.allocate((size_t)(s_.nlc * bb_) * sizeof(int32_t));
    }
  }

  // Calls fn(cell, e) for every arc e of g whose block this rank holds,
  // with cell its index in the rank's row-major local matrix.
  template <class Fn>
  void for_each_local_arc(const CsrView<W>& g, Fn&& fn) const {
    for (int32_t li = 0; li < s_.nlr; ++li) {
      const int64_t u0 = (int64_t)(li * s_.grid_rows + s_.my_row) * b_;
      const int64_t u1 = std::min<int64_t>(u0 + b_, s_.n);
      for (int64_t u = u0; u < u1; ++u) {
        for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const int64_t v = g.targets[e], J = v / b_;
          if (J % s_.grid_cols != s_.my_col) continue;
          fn(((int64_t)li * b_ + (u - u0)) * ld_ + (J / s_.grid_cols) * b_ + v % b_, e);
        }
      }
    }
  }

  void start(const CsrView<W>& g) override {
    cudaStream_t st = ctx_.stream();
    GSP_CUDA(cudaMemsetAsync(flags_.get(), 0, sizeof(int), st));
    // This rank's arcs as (cell, weight), in page-locked buffers.
    int64_t count = 0;
    for_each_local_arc(g, [&](int64_t, int64_t) { ++count; });
    const int64_t cells = rows_ * ld_;
    if (cells > 0) {
      fill_inf_kernel<Ops><<<grid_for(cells), 256, 0, st>>>(D_.get(), kPaths ? P_.get() : nullptr, cells);
      GSP_CUDA_LAUNCH();
      zero_diag_kernel<Ops><<<blocks_for(rows_, 256), 256, 0, st>>>(D_.get(), ld_, s_);
      GSP_CUDA_LAUNCH();
    }
    if (count > 0) {
      HostBuffer h_cell((size_t)count * sizeof(int64_t)), h_w((size_t)count * sizeof(W));
      DeviceBuffer<int64_t> d_cell(ctx_, (size_t)count, "MPI Floyd-Warshall: arcs");
      DeviceBuffer<T> d_w(ctx_, (size_t)count, "MPI Floyd-Warshall: arc weights");
      int64_t* hc = h_cell.as<int64_t>();
      W* hw = h_w.as<W>();
      int64_t k = 0;
      for_each_local_arc(g, [&](int64_t cell, int64_t e) {
        hc[k] = cell;
        hw[k] = g.weights[e] == W(0) ? W(0) : g.weights[e];  // -0.0f as +0: see atomic_min_value
        ++k;
      });
      GSP_CUDA(cudaMemcpyAsync(d_cell.get(), hc, (size_t)count * sizeof(int64_t), cudaMemcpyHostToDevice, st));
      GSP_CUDA(cudaMemcpyAsync(d_w.get(), hw, (size_t)count * sizeof(W), cudaMemcpyHostToDevice, st));
      scatter_arcs_kernel<T><<<grid_for(count), 256, 0, st>>>(d_cell.get(), d_w.get(), count, D_.get());
      GSP_CUDA_LAUNCH();
      if (kPaths) {
        arc_preds_kernel<T><<<grid_for(count), 256, 0, st>>>(d_cell.get(), d_w.get(), count, D_.get(), P_.get(),
                                                             ld_, s_);
        GSP_CUDA_LAUNCH();
      }
      ctx_.sync();  // the buffers above go out of scope
    }
    end_step();  // a negative self-loop
  }

  void begin_step(int32_t) override {}  // every phase takes its blocks from the caller

  void close_diagonal(int32_t lkr, int32_t lkc) override {
    T* dkk = D_.get() + lkr * b_ * ld_ + lkc * b_;
    int32_t* pkk = kPaths ? P_.get() + lkr * b_ * ld_ + lkc * b_ : nullptr;
    fw_blocked<Ops, kPaths>(dkk, pkk, ld_, tiles_, flags_.get(), ctx_.stream(), nullptr, 0, 0);
    copy2d(diag_.get(), b_, dkk, ld_, b_, b_);
    if (kPaths) copy2d(diagp_.get(), b_, pkk, ld_, b_, b_);
    pack(diag_.get(), kPaths ? diagp_.get() : nullptr, b_, 1, 1);
    stage_out(h_diag_d_.as<W>(), kPaths ? h_diag_p_.as<int32_t>() : nullptr, 1);
  }
  W* diag_d() override { return h_diag_d_.as<W>(); }
  int32_t* diag_p() override { return kPaths ? h_diag_p_.as<int32_t>() : nullptr; }
  void diag_received(bool with_preds) override {
    const bool preds = kPaths && with_preds;
    stage_in(h_diag_d_.as<W>(), preds ? h_diag_p_.as<int32_t>() : nullptr, 1);
    unpack(diag_.get(), preds ? diagp_.get() : nullptr, b_, 1, 1, preds);
  }

  void update_panels(int32_t lkr, int32_t lkc) override {
    cudaStream_t st = ctx_.stream();
    if (lkr >= 0 && s_.nlc > 0) {
      // Block row K (contiguous): R = min(R, Dkk* (x) R_old).
      T* R = D_.get() + lkr * b_ * ld_;
      int32_t* PR = kPaths ? P_.get() + lkr * b_ * ld_ : nullptr;
      GSP_CUDA(cudaMemcpyAsync(tmp_.get(), R, (size_t)(b_ * ld_) * sizeof(T), cudaMemcpyDeviceToDevice, st));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(tmpp_.get(), PR, (size_t)(b_ * ld_) * sizeof(int32_t), cudaMemcpyDeviceToDevice,
                                 st));
      }
      product(diag_.get(), b_, tmp_.get(), ld_, tmpp_.get(), R, PR, -1, lkc, tiles_, s_.nlc * tiles_);
    }
    if (lkc >= 0 && s_.nlr > 0) {
      // Block column K: C = min(C, C_old (x) Dkk*); predecessors from Dkk*'s.
      T* C = D_.get() + lkc * b_;
      int32_t* PC = kPaths ? P_.get() + lkc * b_ : nullptr;
      copy2d(tmp_.get(), b_, C, ld_, b_, rows_);
      product(tmp_.get(), b_, diag_.get(), b_, diagp_.get(), C, PC, lkr, -1, s_.nlr * tiles_, tiles_);
    }
  }

  W* row_d(int32_t lkr) override {
    if (lkr >= 0) {
      pack(D_.get() + lkr * b_ * ld_, kPaths ? P_.get() + lkr * b_ * ld_ : nullptr, ld_, 1, s_.nlc);
      stage_out(h_row_d_.as<W>(), kPaths ? h_row_p_.as<int32_t>() : nullptr, s_.nlc);
    }
    return h_row_d_.as<W>();
  }
  int32_t* row_p(int32_t) override { return kPaths ? h_row_p_.as<int32_t>() : nullptr; }
  void row_received() override {
    stage_in(h_row_d_.as<W>(), kPaths ? h_row_p_.as<int32_t>() : nullptr, s_.nlc);
    unpack(row_.get(), kPaths ? rowp_.get() : nullptr, ld_, 1, s_.nlc, kPaths);
  }
  W* col_d(int32_t lkc) override {
    if (lkc >= 0) {
      pack(D_.get() + lkc * b_, nullptr, ld_, s_.nlr, 1);
      stage_out(h_col_d_.as<W>(), nullptr, s_.nlr);
    }
    return h_col_d_.as<W>();
  }
  void col_received() override {
    stage_in(h_col_d_.as<W>(), nullptr, s_.nlr);
    unpack(col_.get(), nullptr, b_, s_.nlr, 1, false);
  }

  void update_rest(int32_t lkr, int32_t lkc) override {
    if (s_.nlr == 0 || s_.nlc == 0) return;
    const bool own_col = lkc >= 0, own_row = lkr >= 0;
    const T* A = own_col ? D_.get() + lkc * b_ : col_.get();
    const T* B = own_row ? D_.get() + lkr * b_ * ld_ : row_.get();
    const int32_t* Bp = !kPaths ? nullptr : own_row ? P_.get() + lkr * b_ * ld_ : rowp_.get();
    product(A, own_col ? ld_ : b_, B, ld_, Bp, D_.get(), P_.get(), lkr, lkc, s_.nlr * tiles_, s_.nlc * tiles_);
  }

  void end_step() override {
    if (s_.nlr > 0) {
      diag_check_kernel<Ops><<<blocks_for(rows_, 256), 256, 0, ctx_.stream()>>>(D_.get(), ld_, s_, flags_.get());
      GSP_CUDA_LAUNCH();
    }
    check_flags(ctx_, flags_.get(), "MPI Floyd-Warshall on CUDA");
  }

  void finish() override {
    for (int32_t li = 0; li < s_.nlr; ++li) {
      const int64_t off = (int64_t)li * s_.nlc * bb_;
      pack(D_.get() + li * b_ * ld_, kPaths ? P_.get() + li * b_ * ld_ : nullptr, ld_, 1, s_.nlc);
      stage_out(store_d_ + off, kPaths ? store_p_ + off : nullptr, s_.nlc);
    }
  }

  void finish_rows(W* dist, int32_t* pred) override {
    const int64_t n = s_.n;
    if (n == 0) return;
    cudaStream_t st = ctx_.stream();
    to_api_kernel<Ops, W><<<grid_for(rows_ * ld_), 256, 0, st>>>(D_.get(), rows_ * ld_);
    GSP_CUDA_LAUNCH();
    GSP_CUDA(cudaMemcpy2DAsync(dist, (size_t)n * sizeof(W), D_.get(), (size_t)ld_ * sizeof(T), (size_t)n * sizeof(W),
                               (size_t)n, cudaMemcpyDeviceToHost, st));
    if (kPaths && pred != nullptr) {
      GSP_CUDA(cudaMemcpy2DAsync(pred, (size_t)n * sizeof(int32_t), P_.get(), (size_t)ld_ * sizeof(int32_t),
                                 (size_t)n * sizeof(int32_t), (size_t)n, cudaMemcpyDeviceToHost, st));
    }
    ctx_.sync();
  }

  std::string describe() const override {
    return std::string(ctx_.props().name) + " (CUDA device " + std::to_string(ctx_.device()) + ")";
  }

 private:
  // C = min(C, A (x) B) with K = b over tiles_m x tiles_n output tiles of
  // the local matrix's layout (C and PC with leading dimension ld_);
  // predecessors from Bp (leading dimension ldb). Local block row skip_r and
  // block column skip_c (< 0: none) are left alone.
  void product(const T* A, int64_t lda, const T* B, int64_t ldb, const int32_t* Bp, T* C, int32_t* PC,
               int32_t skip_r, int32_t skip_c, int tiles_m, int tiles_n) {
    TileParams<T> p;
    p.A = A; p.lda = lda;
    p.B = B; p.ldb = ldb;
    p.Cin = C; p.Cout = C; p.ldc = ld_;
    if (kPaths) { p.Bp = Bp; p.ldbp = ldb; p.Pin = PC; p.Pout = PC; p.ldp = ld_; }
    p.K = (int)b_;
    if (skip_r >= 0) { p.skip_row_lo = skip_r * tiles_; p.skip_row_hi = (skip_r + 1) * tiles_; }
    if (skip_c >= 0) { p.skip_col_lo = skip_c * tiles_; p.skip_col_hi = (skip_c + 1) * tiles_; }
    p.col_off = kNoDiagonal;
    p.flags = flags_.get();
    launch_tile_product<Ops, kPaths>(p, tiles_m, tiles_n, ctx_.stream());
  }
  // In chunks of rows, at most 2^26 cells of scratch each.
  bool check_rows(std::vector<int32_t>* out) override {
    const int32_t n = s_.n;
    if (!kPaths || n == 0) return true;
    std::vector<int32_t>& bad = *out;
    cudaStream_t st = ctx_.stream();
    const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(n, (int64_t(1) << 26) / n));
    DeviceBuffer<int32_t> anc0(ctx_, (size_t)(chunk * n), "MPI Floyd-Warshall: predecessor check");
    DeviceBuffer<int32_t> anc1(ctx_, (size_t)(chunk * n), "MPI Floyd-Warshall: predecessor check");
    DeviceBuffer<int> d_bad(ctx_, (size_t)n, "MPI Floyd-Warshall: predecessor check flags");
    GSP_CUDA(cudaMemsetAsync(d_bad.get(), 0, (size_t)n * sizeof(int), st));
    int rounds = 0;
    while ((int64_t(1) << rounds) < (int64_t)n) ++rounds;
    for (int64_t row0 = 0; row0 < n; row0 += chunk) {
      const int64_t total = std::min<int64_t>(chunk, n - row0) * n;
      const unsigned blocks = grid_for(total);
      anc_init_kernel<<<blocks, 256, 0, st>>>(P_.get(), ld_, n, row0, total, anc0.get());
      GSP_CUDA_LAUNCH();
      int32_t* a = anc0.get();
      int32_t* b = anc1.get();
      for (int it = 0; it < rounds; ++it) {
        anc_step_kernel<<<blocks, 256, 0, st>>>(a, b, n, total);
        GSP_CUDA_LAUNCH();
        std::swap(a, b);
      }
      anc_check_kernel<Ops><<<blocks, 256, 0, st>>>(a, D_.get(), P_.get(), ld_, n, row0, total,
                                                     d_bad.get() + row0);
      GSP_CUDA_LAUNCH();
    }
    std::vector<int> flags((size_t)n);
    GSP_CUDA(cudaMemcpyAsync(flags.data(), d_bad.get(), (size_t)n * sizeof(int), cudaMemcpyDeviceToHost, st));
    ctx_.sync();
    for (int32_t i = 0; i < n; ++i) {
      if (flags[(size_t)i] != 0) bad.push_back(i);
    }
    return true;
  }
  // dst (ld dld) <- src (ld sld), width x height cells.
  template <class V>
  void copy2d(V* dst, int64_t dld, const V* src, int64_t sld, int64_t width, int64_t height) {
    if (width <= 0 || height <= 0) return;
    GSP_CUDA(cudaMemcpy2DAsync(dst, (size_t)dld * sizeof(V), src, (size_t)sld * sizeof(V), (size_t)width * sizeof(V),
                               (size_t)height, cudaMemcpyDeviceToDevice, ctx_.stream()));
  }
  // Device region (nbr x nbc blocks at D, ld) -> stage_d_ / stage_p_.
  void pack(const T* D, const int32_t* P, int64_t ld, int32_t nbr, int32_t nbc) {
    const int64_t total = (int64_t)nbr * nbc * bb_;
    if (total == 0) return;
    pack_blocks_kernel<Ops, W><<<grid_for(total), 256, 0, ctx_.stream()>>>(
        D, P, ld, (int32_t)b_, nbc, total, stage_d_.get(), P != nullptr ? stage_p_.get() : nullptr);
    GSP_CUDA_LAUNCH();
  }
  // stage_d_ / stage_p_ -> device region; predecessors only when preds.
  void unpack(T* D, int32_t* P, int64_t ld, int32_t nbr, int32_t nbc, bool preds) {
    const int64_t total = (int64_t)nbr * nbc * bb_;
    if (total == 0) return;
    unpack_blocks_kernel<Ops, W><<<grid_for(total), 256, 0, ctx_.stream()>>>(
        stage_d_.get(), preds ? stage_p_.get() : nullptr, total, (int32_t)b_, nbc, D, preds ? P : nullptr, ld);
    GSP_CUDA_LAUNCH();
  }
  // Host (blocks of the host format) <-> staging; stage_out waits for the copy.
  void stage_in(const W* hd, const int32_t* hp, int32_t blocks) {
    const size_t cells = (size_t)blocks * (size_t)bb_;
    if (cells == 0) return;
    GSP_CUDA(cudaMemcpyAsync(stage_d_.get(), hd, cells * sizeof(W), cudaMemcpyHostToDevice, ctx_.stream()));
    if (hp != nullptr) {
      GSP_CUDA(cudaMemcpyAsync(stage_p_.get(), hp, cells * sizeof(int32_t), cudaMemcpyHostToDevice, ctx_.stream()));
    }
  }
  void stage_out(W* hd, int32_t* hp, int32_t blocks) {
    const size_t cells = (size_t)blocks * (size_t)bb_;
    if (cells > 0) {
      GSP_CUDA(cudaMemcpyAsync(hd, stage_d_.get(), cells * sizeof(W), cudaMemcpyDeviceToHost, ctx_.stream()));
      if (hp != nullptr) {
        GSP_CUDA(cudaMemcpyAsync(hp, stage_p_.get(), cells * sizeof(int32_t), cudaMemcpyDeviceToHost, ctx_.stream()));
      }
    }
    ctx_.sync();
  }

  BlockFwShape s_;
  RunOptions options_;  // before ctx_, which keeps a reference to it
  RunContext ctx_;
  int64_t b_, ld_, rows_, bb_;
  int tiles_;
  W* store_d_;
  int32_t* store_p_;
  DeviceBuffer<T> D_, row_, col_, diag_, tmp_, stage_d_;
  DeviceBuffer<int32_t> P_, rowp_, diagp_, tmpp_, stage_p_;
  DeviceBuffer<int> flags_;
  HostBuffer h_diag_d_, h_diag_p_, h_row_d_, h_row_p_, h_col_d_;
};

template <class Ops, class W>
std::unique_ptr<BlockFw<W>> make_with(const BlockFwShape& s, const RunOptions& o, W* d, int32_t* p) {
  if (s.paths) return std::make_unique<CudaBlockFw<Ops, W, true>>(s, o, d, p);
  return std::make_unique<CudaBlockFw<Ops, W, false>>(s, o, d, nullptr);
}

void check_shape(const BlockFwShape& s) {
  require(s.b > 0 && s.b % kBlockFwGranule == 0, GSP_ERR_INVALID_ARGUMENT,
          "a device-resident block needs a block size that is a multiple of " + std::to_string(kBlockFwGranule) +
              ", not " + std::to_string(s.b));
  static_assert(kBlockFwGranule % kTile == 0, "blocks are whole tiles");
}

}  // namespace

std::unique_ptr<BlockFw<float>> make_block_fw(const BlockFwShape& shape, const RunOptions& options, float* store_d,
                                              int32_t* store_p) {
  check_shape(shape);
  return make_with<OpsF32, float>(shape, options, store_d, store_p);
}

std::unique_ptr<BlockFw<double>> make_block_fw(const BlockFwShape& shape, const RunOptions& options, double* store_d,
                                               int32_t* store_p) {
  check_shape(shape);
  return make_with<OpsF64, double>(shape, options, store_d, store_p);
}

std::unique_ptr<BlockFw<int32_t>> make_block_fw(const BlockFwShape& shape, const RunOptions& options,
                                                int32_t* store_d, int32_t* store_p) {
  check_shape(shape);
  const double bound = 4.0 * ((double)shape.n + 1.0) * shape.max_abs_weight;
  if (bound < (double)kInfI32) return make_with<OpsI32Fast, int32_t>(shape, options, store_d, store_p);
  return make_with<OpsI32Checked, int32_t>(shape, options, store_d, store_p);
}

}  // namespace gsp::detail::gpu
