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
// Two ways through the k-steps (src/core/block_fw.h):
//   - host-staged (the MPI engine drives each phase): panels packed into the
//     host block format, copied to pinned host buffers, broadcast by MPI,
//     unpacked on the receivers; works between any ranks, CPU ones too;
//   - the device path (connect(), run_steps(); where every rank has a device
//     of its own): panels broadcast from device memory to device memory by
//     NCCL in the device representation, and a lookahead as in the
//     single-device engine: phase 3 of step K first updates the cells step
//     K + 1 needs (block row and column K + 1, "strips") on a high-priority
//     stream, which then goes on with step K + 1's phases 1 and 2 and its
//     broadcasts while the rest of step K ("bulk") fills the device from a
//     low-priority stream. The host queues work at most two steps ahead of
//     the device and checks each step's flags two steps late.
//   Why the lookahead is safe: bulk K reads only column panel K (rows other
//   than block rows K and K + 1) and row panel K (columns other than K and
//   K + 1), and writes no cell of block row or column K or K + 1; strips
//   K + 1 wait for bulk K, which wrote their cells last; receive buffers
//   alternate between even and odd steps, and step K + 2 writes K's only
//   after strips K + 1, which waited for bulk K, their last reader.
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

#include <chrono>
#include <cstdio>
#include <thread>

#include "core/block_fw.h"
#include "apsp_dense/block_fw_kernels.cuh"
#include "apsp_dense/fw_blocked.cuh"
#include "apsp_dense/minplus_tile.cuh"
#include "apsp_dense/pred_pass.cuh"
#include "runtime/nccl_library.cuh"
#include "runtime/weight_traits.cuh"

namespace gsp::detail::gpu {
namespace {

using namespace dense;
using namespace block_fw_kernels;

// Tile rows or columns a product leaves alone: [lo, hi).
struct TileSpan {
  int lo = 0, hi = 0;
};

// The tiles of local blocks a and c (each < 0: none; when both are set
// they are neighbours, block rows or columns K and K + 1 of a grid of one
// row or column), as one span.
inline TileSpan blocks_span(int32_t a, int32_t c, int tiles) {
  if (a < 0 && c < 0) return {};
  const int32_t lo = a < 0 ? c : c < 0 ? a : std::min(a, c);
  const int32_t hi = std::max(a, c);
  return {lo * tiles, (hi + 1) * tiles};
}

// The device path's streams, events (per step parity) and device groups.
struct DeviceLanes {
  int device = 0;
  cudaStream_t crit = nullptr, bulk = nullptr;
  cudaEvent_t panels[2] = {}, strips[2] = {}, done[2] = {};
  // Timing (step_profile()), per step modulo 4 (the host is at most two
  // steps ahead of the one it reads): crit's start and panels, bulk's
  // start and end.
  cudaEvent_t crit0[4] = {}, crit1[4] = {}, bulk0[4] = {}, bulk1[4] = {};
  HostBuffer flags;                    // two ints: a step's flags, copied when it ends
  std::shared_ptr<NcclComm> row, col;  // null where the group is this rank alone (nccl_cache_*)

  explicit DeviceLanes(int dev) : device(dev), flags(2 * sizeof(int)) {
    int least = 0, greatest = 0;
    GSP_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&crit, cudaStreamNonBlocking, greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&bulk, cudaStreamNonBlocking, least));
    for (cudaEvent_t* set : {panels, strips, done}) {
      for (int i = 0; i < 2; ++i) GSP_CUDA(cudaEventCreateWithFlags(&set[i], cudaEventDisableTiming));
    }
    for (cudaEvent_t* set : {crit0, crit1, bulk0, bulk1}) {
      for (int i = 0; i < 4; ++i) GSP_CUDA(cudaEventCreate(&set[i]));
    }
    flags.as<int>()[0] = flags.as<int>()[1] = 0;
  }
  // Waits for the streams (after abort(), NCCL ends its operations in
  // flight, so the wait ends too) before the buffers they use go.
  ~DeviceLanes() {
    cudaSetDevice(device);
    for (cudaStream_t s : {crit, bulk}) {
      if (s != nullptr) cudaStreamSynchronize(s);
    }
    row.reset();
    col.reset();
    for (cudaStream_t s : {crit, bulk}) {
      if (s != nullptr) cudaStreamDestroy(s);
    }
    for (cudaEvent_t* set : {panels, strips, done}) {
      for (int i = 0; i < 2; ++i) {
        if (set[i] != nullptr) cudaEventDestroy(set[i]);
      }
    }
    for (cudaEvent_t* set : {crit0, crit1, bulk0, bulk1}) {
      for (int i = 0; i < 4; ++i) {
        if (set[i] != nullptr) cudaEventDestroy(set[i]);
      }
    }
    (void)cudaGetLastError();
  }
  // Milliseconds between two ended events (0 where CUDA cannot tell).
  static double ms(cudaEvent_t a, cudaEvent_t b) {
    float t = 0;
    if (cudaEventElapsedTime(&t, a, b) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return t;
  }
  DeviceLanes(const DeviceLanes&) = delete;
  DeviceLanes& operator=(const DeviceLanes&) = delete;

  void abort() {
    if (row) row->abort();
    if (col) col->abort();
  }
};

template <class Ops, class W, bool kPaths>
class CudaBlockFw final : public BlockFw<W> {
  using T = typename Ops::T;
  static_assert(std::is_same<T, W>::value, "device values have the weight type");

 public:
  CudaBlockFw(const BlockFwShape& shape, const RunOptions& options)
      : s_(shape),
        preds_(shape.paths),
        options_(options),
        ctx_(options_, nullptr),
        b_(shape.b),
        ld_((int64_t)shape.nlc * shape.b),
        rows_((int64_t)shape.nlr * shape.b),
        bb_((int64_t)shape.b * shape.b),
        tiles_(shape.b / kTile) {
    const size_t cells = (size_t)rows_ * (size_t)ld_;
    const size_t panel = (size_t)std::max<int64_t>(b_ * ld_, rows_ * b_);
    D_.allocate(ctx_, cells, "MPI Floyd-Warshall: this rank's blocks");
    row_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row");
    col_.allocate(ctx_, (size_t)(rows_ * b_), "MPI Floyd-Warshall: received block column");
    diag_.allocate(ctx_, (size_t)bb_, "MPI Floyd-Warshall: diagonal block");
    tmp_.allocate(ctx_, panel, "MPI Floyd-Warshall: panel copy");
    if (preds_) P_.allocate(ctx_, cells, "MPI Floyd-Warshall: this rank's predecessor blocks");
    if (kPaths) {
      rowp_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row (pred)");
      diagp_.allocate(ctx_, (size_t)bb_, "MPI Floyd-Warshall: diagonal block (pred)");
      tmpp_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: panel copy (pred)");
    }
    flags_.allocate(ctx_, 1, "MPI Floyd-Warshall: flags");
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
      fill_inf_kernel<Ops><<<grid_for(cells), 256, 0, st>>>(D_.get(), preds_ ? P_.get() : nullptr, cells);
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
        arc_preds_kernel<T>
            <<<grid_for(count), 256, 0, st>>>(d_cell.get(), d_w.get(), count, D_.get(), P_.get(), ld_, s_);
        GSP_CUDA_LAUNCH();
      }
      ctx_.sync();  // the buffers above go out of scope
    }
    end_step();  // a negative self-loop
  }

  void prepare_host_steps() override { staging(); }
  void begin_step(int32_t) override {}  // every phase takes its blocks from the caller

  bool tracks_paths() const override { return kPaths; }

  // With paths but untracked steps (make_with()): every local row is whole,
  // so each block row's predecessors come from its finished distances and
  // the reverse graph (pred_pass.cuh), as in the one-device engine.
  void after_steps(const CsrView<W>& g) override {
    if (!preds_ || kPaths || s_.n == 0) return;
    std::vector<int64_t> offsets((size_t)g.n + 1, 0);
    for (int64_t e = 0; e < g.m; ++e) ++offsets[(size_t)g.targets[e] + 1];
    for (int32_t v = 0; v < g.n; ++v) offsets[(size_t)v + 1] += offsets[(size_t)v];
    std::vector<int64_t> at(offsets.begin(), offsets.end() - 1);
    std::vector<int32_t> sources((size_t)g.m);
    std::vector<W> weights((size_t)g.m);
    for (int32_t u = 0; u < g.n; ++u) {
      for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const int64_t k = at[(size_t)g.targets[e]]++;
        sources[(size_t)k] = u;
        weights[(size_t)k] = g.weights[e];
      }
    }
    cudaStream_t st = ctx_.stream();
    DeviceBuffer<int64_t> d_off(ctx_, offsets.size(), "MPI Floyd-Warshall: reverse graph");
    DeviceBuffer<int32_t> d_src(ctx_, std::max<size_t>(1, sources.size()), "MPI Floyd-Warshall: reverse graph");
    DeviceBuffer<W> d_w(ctx_, std::max<size_t>(1, weights.size()), "MPI Floyd-Warshall: reverse graph");
    GSP_CUDA(
        cudaMemcpyAsync(d_off.get(), offsets.data(), offsets.size() * sizeof(int64_t), cudaMemcpyHostToDevice, st));
    GSP_CUDA(
        cudaMemcpyAsync(d_src.get(), sources.data(), sources.size() * sizeof(int32_t), cudaMemcpyHostToDevice, st));
    GSP_CUDA(cudaMemcpyAsync(d_w.get(), weights.data(), weights.size() * sizeof(W), cudaMemcpyHostToDevice, st));
    const DeviceCsr<W> rg{g.n, g.m, d_off.get(), d_src.get(), d_w.get()};
    for (int32_t li = 0; li < s_.nlr; ++li) {
      const int64_t first = (int64_t)(li * s_.grid_rows + s_.my_row) * b_;
      pred_pass_rows<Ops, W>(ctx_, rg, D_.get() + li * b_ * ld_, P_.get() + li * b_ * ld_, ld_, st, b_, first);
    }
    ctx_.sync();  // the buffers above go out of scope
  }

  void close_diagonal(int32_t lkr, int32_t lkc) override {
    close_on(lkr, lkc, ctx_.stream());
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

  void update_panels(int32_t lkr, int32_t lkc) override { panels_on(lkr, lkc, ctx_.stream()); }

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
    product(A, own_col ? ld_ : b_, B, ld_, Bp, D_.get(), P_.get(), blocks_span(lkr, -1, tiles_),
            blocks_span(lkc, -1, tiles_), s_.nlr * tiles_, s_.nlc * tiles_, ctx_.stream());
  }

  void end_step() override {
    if (s_.nlr > 0) {
      diag_check_kernel<Ops><<<blocks_for(rows_, 256), 256, 0, ctx_.stream()>>>(D_.get(), ld_, s_, flags_.get());
      GSP_CUDA_LAUNCH();
    }
    check_flags(ctx_, flags_.get(), "MPI Floyd-Warshall on CUDA");
  }

  void finish(W* store_d, int32_t* store_p) override {
    staging();
    for (int32_t li = 0; li < s_.nlr; ++li) {
      const int64_t off = (int64_t)li * s_.nlc * bb_;
      pack(D_.get() + li * b_ * ld_, preds_ ? P_.get() + li * b_ * ld_ : nullptr, ld_, 1, s_.nlc);
      stage_out(store_d + off, preds_ ? store_p + off : nullptr, s_.nlc);
    }
  }

 private:
  // Phase 1 on `st`: closes local block (lkr, lkc) and copies it to diag_.
  void close_on(int32_t lkr, int32_t lkc, cudaStream_t st) {
    T* dkk = D_.get() + lkr * b_ * ld_ + lkc * b_;
    int32_t* pkk = kPaths ? P_.get() + lkr * b_ * ld_ + lkc * b_ : nullptr;
    fw_blocked<Ops, kPaths>(dkk, pkk, ld_, tiles_, flags_.get(), st, nullptr, 0, 0);
    copy2d(diag_.get(), b_, dkk, ld_, b_, b_, st);
    if (kPaths) copy2d(diagp_.get(), b_, pkk, ld_, b_, b_, st);
  }

  // Phase 2 on `st` (update_panels()).
  void panels_on(int32_t lkr, int32_t lkc, cudaStream_t st) {
    if (lkr >= 0 && s_.nlc > 0) {
      // Block row K (contiguous): R = min(R, Dkk* (x) R_old).
      T* R = D_.get() + lkr * b_ * ld_;
      int32_t* PR = kPaths ? P_.get() + lkr * b_ * ld_ : nullptr;
      GSP_CUDA(cudaMemcpyAsync(tmp_.get(), R, (size_t)(b_ * ld_) * sizeof(T), cudaMemcpyDeviceToDevice, st));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(tmpp_.get(), PR, (size_t)(b_ * ld_) * sizeof(int32_t), cudaMemcpyDeviceToDevice, st));
      }
      product(diag_.get(), b_, tmp_.get(), ld_, tmpp_.get(), R, PR, {}, blocks_span(lkc, -1, tiles_), tiles_,
              s_.nlc * tiles_, st);
    }
    if (lkc >= 0 && s_.nlr > 0) {
      // Block column K: C = min(C, C_old (x) Dkk*); predecessors from Dkk*'s.
      T* C = D_.get() + lkc * b_;
      int32_t* PC = kPaths ? P_.get() + lkc * b_ : nullptr;
      copy2d(tmp_.get(), b_, C, ld_, b_, rows_, st);
      product(tmp_.get(), b_, diag_.get(), b_, diagp_.get(), C, PC, blocks_span(lkr, -1, tiles_), {}, s_.nlr * tiles_,
              tiles_, st);
    }
  }

 public:
  void finish_rows(W* dist, int32_t* pred) override {
    const int64_t n = s_.n;
    if (n == 0) return;
    cudaStream_t st = ctx_.stream();
    to_api_kernel<Ops, W><<<grid_for(rows_ * ld_), 256, 0, st>>>(D_.get(), rows_ * ld_);
    GSP_CUDA_LAUNCH();
    GSP_CUDA(cudaMemcpy2DAsync(dist, (size_t)n * sizeof(W), D_.get(), (size_t)ld_ * sizeof(T), (size_t)n * sizeof(W),
                               (size_t)n, cudaMemcpyDeviceToHost, st));
    if (preds_ && pred != nullptr) {
      GSP_CUDA(cudaMemcpy2DAsync(pred, (size_t)n * sizeof(int32_t), P_.get(), (size_t)ld_ * sizeof(int32_t),
                                 (size_t)n * sizeof(int32_t), (size_t)n, cudaMemcpyDeviceToHost, st));
    }
    ctx_.sync();
  }

  std::string describe() const override {
    return std::string(ctx_.props().name) + " (CUDA device " + std::to_string(ctx_.device()) + ")";
  }

  // ---------------------------------------------------------- device path

  std::string device_identity() const override { return std::string(ctx_.props().uuid.bytes, 16); }

  bool connect(RankGrid& grid, std::string* why) override {
    // Every rank must be able to load NCCL where a group has several.
    const bool groups = grid.size(RankGrid::kRow) > 1 || grid.size(RankGrid::kCol) > 1;
    std::string mine;
    const bool have = !groups || nccl_available(&mine);
    if (!grid.all(have)) {
      *why = have ? "NCCL is missing on another rank" : mine;
      return false;
    }
    // The second set of receive buffers, the streams and the flags: a rank
    // without room for them leaves all ranks on the host-staged path.
    bool ok = true;
    try {
      lanes_ = std::make_unique<DeviceLanes>(ctx_.device());
      row2_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row (odd steps)");
      col2_.allocate(ctx_, (size_t)(rows_ * b_), "MPI Floyd-Warshall: received block column (odd steps)");
      if (kPaths) rowp2_.allocate(ctx_, (size_t)(b_ * ld_), "MPI Floyd-Warshall: received block row (odd, pred)");
    } catch (const Error& e) {
      ok = false;
      mine = e.message();
    }
    if (!grid.all(ok)) {
      release_lanes();
      *why = ok ? "another rank could not prepare its device path" : mine;
      return false;
    }
    bool made = false;
    // The groups, rows first then columns (the same order on every rank):
    // the communicators of an earlier call, or made ahead by
    // gsp_mpi_prepare, where every member has them (a member's making
    // that never joined would leave the others' waiting: they are
    // abandoned then), else new ones.
    for (const RankGrid::Group g : {RankGrid::kRow, RankGrid::kCol}) {
      if (grid.size(g) <= 1) continue;
      std::shared_ptr<NcclComm>& comm = g == RankGrid::kRow ? lanes_->row : lanes_->col;
      std::string& key = g == RankGrid::kRow ? row_key_ : col_key_;
      key = device_group_key(grid, g, ctx_.device());
      if (grid.all(device_group_state(key) == DeviceGroupState::kJoined)) {
        comm = nccl_cache_find(key);
        if (grid.all(comm != nullptr)) continue;
      }
      comm.reset();
      nccl_cache_forget(key);
      struct {
        NcclId id;
        char ok;
      } head{};
      if (grid.rank(g) == 0) {
        try {
          head.id = NcclComm::make_id();
          head.ok = 1;
        } catch (const Error& e) {
          mine = e.message();
        }
      }
      grid.bcast(g, &head, sizeof head, 0);
      bool joined = head.ok != 0;
      if (joined) {
        try {
          comm = std::make_shared<NcclComm>(head.id, grid.size(g), grid.rank(g));
        } catch (const Error& e) {
          joined = false;
          mine = e.message();
        }
      }
      if (!grid.all(joined)) {
        release_lanes();
        *why = joined ? "NCCL could not join another rank's group" : mine;
        return false;
      }
      nccl_cache_keep(key, comm);
      made = true;
    }
    // Whether this call paid for joining the groups (the first call, where
    // gsp_mpi_prepare did not make them ahead).
    transport_ = !groups ? "one rank" : made ? "NCCL panels, new groups" : "NCCL panels, groups ready";
    return true;
  }

  std::string transport() const override { return transport_; }

  std::string step_profile() const override {
    if (profile_.steps == 0) return std::string();
    char text[256];
    std::snprintf(text, sizeof text,
                  "%d on the device path: phases 1-2 and panels %.3f s, bulk products %.3f s, bulk waiting for "
                  "panels %.3f s",
                  profile_.steps, profile_.crit_ms / 1e3, profile_.bulk_ms / 1e3, profile_.gap_ms / 1e3);
    return text;
  }

  bool run_steps(RankGrid& grid) override {
    try {
      if (!steps(grid)) {
        abort_lanes();  // another rank failed: what is in flight may never end
        release_lanes();
        return false;
      }
      release_lanes();
      return true;
    } catch (...) {
      grid.notify_failure();
      abort_lanes();
      release_lanes();
      throw;
    }
  }

 private:
  // After a failure: the groups' communicators are aborted and forgotten.
  void abort_lanes() {
    if (!lanes_) return;
    lanes_->abort();
    if (!row_key_.empty()) nccl_cache_forget(row_key_);
    if (!col_key_.empty()) nccl_cache_forget(col_key_);
  }

  void release_lanes() {
    lanes_.reset();
    row2_ = DeviceBuffer<T>();
    col2_ = DeviceBuffer<T>();
    rowp2_ = DeviceBuffer<int32_t>();
  }

  // Every k-step, queued at most two ahead of the device. False when
  // another rank notified a failure.
  bool steps(RankGrid& grid) {
    const int32_t nb = (s_.n + (int32_t)b_ - 1) / (int32_t)b_;
    for (int32_t K = 0; K < nb; ++K) {
      if (K >= 2 && !wait_step(grid, K - 2, nb)) return false;
      queue_step(K, nb);
    }
    for (int32_t K = std::max(0, nb - 2); K < nb; ++K) {
      if (!wait_step(grid, K, nb)) return false;
    }
    GSP_CUDA(cudaStreamSynchronize(lanes_->crit));
    return true;
  }

  // Waits for step K's end on this device, polling for another rank's
  // failure meanwhile; then its flags (a negative cycle, an overflow) and
  // the progress report.
  bool wait_step(RankGrid& grid, int32_t K, int32_t nb) {
    cudaEvent_t ev = lanes_->done[K & 1];
    for (;;) {
      if (grid.failure_notified()) return false;
      const cudaError_t e = cudaEventQuery(ev);
      if (e == cudaSuccess) break;
      if (e != cudaErrorNotReady) GSP_CUDA(e);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    throw_on_flags(lanes_->flags.as<int>()[K & 1], "MPI Floyd-Warshall on CUDA");
    const DeviceLanes& ln = *lanes_;
    profile_.steps = K + 1;
    profile_.crit_ms += DeviceLanes::ms(ln.crit0[K & 3], ln.crit1[K & 3]);
    profile_.bulk_ms += DeviceLanes::ms(ln.bulk0[K & 3], ln.bulk1[K & 3]);
    if (K > 0) profile_.gap_ms += DeviceLanes::ms(ln.bulk1[(K - 1) & 3], ln.bulk0[K & 3]);
    grid.step_done(K + 1, nb);
    return true;
  }

  // Queues k-step K (module comment: the device path).
  void queue_step(int32_t K, int32_t nb) {
    DeviceLanes& ln = *lanes_;
    const cudaStream_t crit = ln.crit, bulk = ln.bulk;
    const int par = K & 1;
    const int32_t rK = K % s_.grid_rows, cK = K % s_.grid_cols;
    const bool in_row = s_.my_row == rK, in_col = s_.my_col == cK;
    const int32_t lkr = in_row ? K / s_.grid_rows : -1, lkc = in_col ? K / s_.grid_cols : -1;
    const bool next = K + 1 < nb;
    const bool in_row1 = next && s_.my_row == (K + 1) % s_.grid_rows;
    const bool in_col1 = next && s_.my_col == (K + 1) % s_.grid_cols;
    const int32_t l1r = in_row1 ? (K + 1) / s_.grid_rows : -1, l1c = in_col1 ? (K + 1) / s_.grid_cols : -1;
    const size_t bbytes = (size_t)bb_ * sizeof(T);

    // Phases 1 and 2, and the panels to every rank that needs them.
    GSP_CUDA(cudaEventRecord(ln.crit0[K & 3], crit));
    if (in_row && in_col) close_on(lkr, lkc, crit);
    if (in_row && ln.row) ln.row->bcast(diag_.get(), bbytes, cK, crit);
    if (in_col && ln.col) {
      ln.col->bcast(diag_.get(), bbytes, rK, crit);
      if (kPaths) ln.col->bcast(diagp_.get(), (size_t)bb_ * sizeof(int32_t), rK, crit);
    }
    panels_on(lkr, lkc, crit);
    // Row panel K (b x ld, contiguous): from the owner's blocks down its
    // grid column; column panel K (rows x b): the owner's copy across its
    // grid row. On a grid of one row (column) every rank owns the panel.
    T* rowK = in_row ? D_.get() + lkr * b_ * ld_ : (par == 0 ? row_ : row2_).get();
    int32_t* rowpK = !kPaths ? nullptr : in_row ? P_.get() + lkr * b_ * ld_ : (par == 0 ? rowp_ : rowp2_).get();
    if (ln.col) {
      ln.col->bcast(rowK, (size_t)(b_ * ld_) * sizeof(T), rK, crit);
      if (kPaths) ln.col->bcast(rowpK, (size_t)(b_ * ld_) * sizeof(int32_t), rK, crit);
    }
    const T* colK = D_.get() + (in_col ? lkc : 0) * b_;
    int64_t lda = ld_;
    if (!in_col || ln.row) {
      T* buf = (par == 0 ? col_ : col2_).get();
      if (in_col) copy2d(buf, b_, D_.get() + lkc * b_, ld_, b_, rows_, crit);
      if (ln.row) ln.row->bcast(buf, (size_t)(rows_ * b_) * sizeof(T), cK, crit);
      colK = buf;
      lda = b_;
    }
    GSP_CUDA(cudaEventRecord(ln.panels[par], crit));
    GSP_CUDA(cudaEventRecord(ln.crit1[K & 3], crit));

    // Strips: block row and column K + 1 through panels K, after bulk K - 1.
    if (K > 0) GSP_CUDA(cudaStreamWaitEvent(crit, ln.done[(K - 1) & 1], 0));
    if (in_row1) {
      product(colK + l1r * b_ * lda, lda, rowK, ld_, rowpK, D_.get() + l1r * b_ * ld_,
              kPaths ? P_.get() + l1r * b_ * ld_ : nullptr, {}, blocks_span(lkc, -1, tiles_), tiles_, s_.nlc * tiles_,
              crit);
    }
    if (in_col1) {
      product(colK, lda, rowK + l1c * b_, ld_, kPaths ? rowpK + l1c * b_ : nullptr, D_.get() + l1c * b_,
              kPaths ? P_.get() + l1c * b_ : nullptr, blocks_span(lkr, l1r, tiles_), {}, s_.nlr * tiles_, tiles_, crit);
    }
    GSP_CUDA(cudaEventRecord(ln.strips[par], crit));

    // Bulk: every other cell, while step K + 1's phases run on crit.
    GSP_CUDA(cudaStreamWaitEvent(bulk, ln.panels[par], 0));
    GSP_CUDA(cudaEventRecord(ln.bulk0[K & 3], bulk));
    product(colK, lda, rowK, ld_, rowpK, D_.get(), kPaths ? P_.get() : nullptr, blocks_span(lkr, l1r, tiles_),
            blocks_span(lkc, l1c, tiles_), s_.nlr * tiles_, s_.nlc * tiles_, bulk);
    GSP_CUDA(cudaEventRecord(ln.bulk1[K & 3], bulk));
    // The step's end: its diagonal check and flags, once strips and bulk ran.
    GSP_CUDA(cudaStreamWaitEvent(bulk, ln.strips[par], 0));
    if (s_.nlr > 0) {
      diag_check_kernel<Ops><<<blocks_for(rows_, 256), 256, 0, bulk>>>(D_.get(), ld_, s_, flags_.get());
      GSP_CUDA_LAUNCH();
    }
    GSP_CUDA(cudaMemcpyAsync(ln.flags.as<int>() + par, flags_.get(), sizeof(int), cudaMemcpyDeviceToHost, bulk));
    GSP_CUDA(cudaEventRecord(ln.done[par], bulk));
  }

  // C = min(C, A (x) B) with K = b over tiles_m x tiles_n output tiles of
  // the local matrix's layout (C and PC with leading dimension ld_), on
  // `st`; predecessors from Bp (leading dimension ldb). The tile rows and
  // columns of skip_rows / skip_cols are left alone.
  void product(const T* A, int64_t lda, const T* B, int64_t ldb, const int32_t* Bp, T* C, int32_t* PC,
               TileSpan skip_rows, TileSpan skip_cols, int tiles_m, int tiles_n, cudaStream_t st) {
    TileParams<T> p;
    p.A = A;
    p.lda = lda;
    p.B = B;
    p.ldb = ldb;
    p.Cin = C;
    p.Cout = C;
    p.ldc = ld_;
    if (kPaths) {
      p.Bp = Bp;
      p.ldbp = ldb;
      p.Pin = PC;
      p.Pout = PC;
      p.ldp = ld_;
    }
    p.K = (int)b_;
    p.skip_row_lo = skip_rows.lo;
    p.skip_row_hi = skip_rows.hi;
    p.skip_col_lo = skip_cols.lo;
    p.skip_col_hi = skip_cols.hi;
    p.col_off = kNoDiagonal;
    p.flags = flags_.get();
    launch_tile_product<Ops, kPaths>(p, tiles_m, tiles_n, st);
  }

  // The host-staged path's buffers: before its k-steps (prepare_host_steps())
  // or the delivery of a rank's blocks (finish()).
  void staging() {
    if (staged_) return;
    const size_t stage = (size_t)std::max(s_.nlr, s_.nlc) * (size_t)bb_;
    stage_d_.allocate(ctx_, stage, "MPI Floyd-Warshall: staging");
    if (preds_) stage_p_.allocate(ctx_, stage, "MPI Floyd-Warshall: staging (pred)");
    h_diag_d_.allocate((size_t)bb_ * sizeof(W));
    h_row_d_.allocate((size_t)(s_.nlc * bb_) * sizeof(W));
    h_col_d_.allocate((size_t)(s_.nlr * bb_) * sizeof(W));
    if (kPaths) {
      h_diag_p_.allocate((size_t)bb_ * sizeof(int32_t));
      h_row_p_.allocate((size_t)(s_.nlc * bb_) * sizeof(int32_t));
    }
    staged_ = true;
  }

 public:  // In chunks of rows, at most 2^26 cells of scratch each.
  // Whole rows (a grid of one column), block row by block row, in chunks
  // of rows of at most 2^26 cells of scratch each.
  bool check_rows(std::vector<int32_t>* out) override {
    const int32_t n = s_.n;
    if (!preds_ || n == 0) return true;
    require(s_.grid_cols == 1, GSP_ERR_INTERNAL, "a device checks predecessors only in whole rows");
    std::vector<int32_t>& bad = *out;
    cudaStream_t st = ctx_.stream();
    const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(b_, (int64_t(1) << 26) / n));
    DeviceBuffer<int32_t> anc0(ctx_, (size_t)(chunk * n), "MPI Floyd-Warshall: predecessor check");
    DeviceBuffer<int32_t> anc1(ctx_, (size_t)(chunk * n), "MPI Floyd-Warshall: predecessor check");
    DeviceBuffer<int> d_bad(ctx_, (size_t)std::max<int64_t>(1, rows_), "MPI Floyd-Warshall: predecessor check flags");
    GSP_CUDA(cudaMemsetAsync(d_bad.get(), 0, (size_t)rows_ * sizeof(int), st));
    int rounds = 0;
    while ((int64_t(1) << rounds) < (int64_t)n) ++rounds;
    for (int32_t lr = 0; lr < s_.nlr; ++lr) {
      const int64_t vertex0 = (int64_t)(lr * s_.grid_rows + s_.my_row) * b_;
      const int64_t rows = std::min<int64_t>(b_, n - vertex0);
      for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
        const int64_t row0 = lr * b_ + r0;
        const int64_t total = std::min<int64_t>(chunk, rows - r0) * n;
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
        anc_check_kernel<Ops>
            <<<blocks, 256, 0, st>>>(a, D_.get(), P_.get(), ld_, n, row0, vertex0 + r0, total, d_bad.get() + row0);
        GSP_CUDA_LAUNCH();
      }
    }
    std::vector<int> flags((size_t)rows_);
    GSP_CUDA(cudaMemcpyAsync(flags.data(), d_bad.get(), (size_t)rows_ * sizeof(int), cudaMemcpyDeviceToHost, st));
    ctx_.sync();
    for (int64_t li = 0; li < rows_; ++li) {
      const int64_t v = ((li / b_) * s_.grid_rows + s_.my_row) * b_ + li % b_;
      if (flags[(size_t)li] != 0 && v < n) bad.push_back((int32_t)v);
    }
    return true;
  }
  // dst (ld dld) <- src (ld sld), width x height cells.
  template <class V>
  void copy2d(V* dst, int64_t dld, const V* src, int64_t sld, int64_t width, int64_t height, cudaStream_t st) {
    if (width <= 0 || height <= 0) return;
    GSP_CUDA(cudaMemcpy2DAsync(dst, (size_t)dld * sizeof(V), src, (size_t)sld * sizeof(V), (size_t)width * sizeof(V),
                               (size_t)height, cudaMemcpyDeviceToDevice, st));
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
  bool preds_;          // the result has predecessors (tracked when kPaths, else after_steps())
  RunOptions options_;  // before ctx_, which keeps a reference to it
  RunContext ctx_;
  int64_t b_, ld_, rows_, bb_;
  int tiles_;
  DeviceBuffer<T> D_, row_, col_, diag_, tmp_, stage_d_;
  DeviceBuffer<int32_t> P_, rowp_, diagp_, tmpp_, stage_p_;
  DeviceBuffer<int> flags_;
  HostBuffer h_diag_d_, h_diag_p_, h_row_d_, h_row_p_, h_col_d_;  // host-staged path (staging())
  bool staged_ = false;
  // The device path (connect()): its lanes and the receive buffers of odd
  // steps (row_, rowp_ and col_ take the even ones).
  std::unique_ptr<DeviceLanes> lanes_;
  DeviceBuffer<T> row2_, col2_;
  DeviceBuffer<int32_t> rowp2_;
  std::string transport_;
  std::string row_key_, col_key_;  // the groups' cache keys (connect())
  struct {
    int steps = 0;
    double crit_ms = 0, bulk_ms = 0, gap_ms = 0;
  } profile_;
};

// With paths, the steps track predecessors, unless every rank's rows are
// whole on a device and the one-device engine's policy prefers a pass over
// the finished rows (tracking costs about 2.3x the distance-only product
// where the int32 values cannot be packed; pred_pass.cuh).
template <class Ops, class W>
std::unique_ptr<BlockFw<W>> make_with(const BlockFwShape& s, const RunOptions& o) {
  const bool pass = s.rows_whole_on_devices && s.grid_cols == 1 && use_pred_pass<Ops>(s.n, s.m, o);
  if (s.paths && !pass) return std::make_unique<CudaBlockFw<Ops, W, true>>(s, o);
  return std::make_unique<CudaBlockFw<Ops, W, false>>(s, o);
}

void check_shape(const BlockFwShape& s) {
  require(s.b > 0 && s.b % kBlockFwGranule == 0, GSP_ERR_INVALID_ARGUMENT,
          "a device-resident block needs a block size that is a multiple of " + std::to_string(kBlockFwGranule) +
              ", not " + std::to_string(s.b));
  static_assert(kBlockFwGranule % kTile == 0, "blocks are whole tiles");
}

}  // namespace

template <>
std::unique_ptr<BlockFw<float>> make_block_fw<float>(const BlockFwShape& shape, const RunOptions& options) {
  check_shape(shape);
  return make_with<OpsF32, float>(shape, options);
}

template <>
std::unique_ptr<BlockFw<double>> make_block_fw<double>(const BlockFwShape& shape, const RunOptions& options) {
  check_shape(shape);
  return make_with<OpsF64, double>(shape, options);
}

// int32 as the one-device engine picks (minplus_tile.cuh): packed paths
// (one DPX add-min per relaxation also tracks the winner) where sums stay
// below kInfPack, else the fast form, else checked sums.
template <>
std::unique_ptr<BlockFw<int32_t>> make_block_fw<int32_t>(const BlockFwShape& shape, const RunOptions& options) {
  check_shape(shape);
  const double bound = 4.0 * ((double)shape.n + 1.0) * shape.max_abs_weight;
  if (bound < (double)kInfPack) return make_with<OpsI32Pack, int32_t>(shape, options);
  if (bound < (double)kInfI32) return make_with<OpsI32Fast, int32_t>(shape, options);
  return make_with<OpsI32Checked, int32_t>(shape, options);
}

}  // namespace gsp::detail::gpu
