// GSP_APSP_FLOYD_WARSHALL on CUDA: blocked three-phase Floyd-Warshall
// (Venkataraman, Sahni & Mukhopadhyaya 2003; on GPUs Katz & Kider 2008) with
// a predecessor matrix, in-core when the n x n matrix fits the device
// budget, else out-of-core: the matrix stays
// in pinned host memory and is streamed through the device in row strips.
// See doc/gpu-apsp-dense.md.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/host_memory.h"
#include "core/host_task.h"
#include "core/pred_repair.h"
#include "core/tuning.h"
#include "runtime/engines.cuh"
#include "apsp_dense/dense_delivery.cuh"
#include "apsp_dense/fw_blocked.cuh"
#include "apsp_dense/minplus_tile.cuh"
#include "apsp_dense/pred_pass.cuh"

namespace gsp::detail::gpu {
namespace {

using namespace dense;

// The in-core k-block below n = 16384, in 128-wide tiles (fw_block_tiles).
constexpr int kDefaultFwBlockTiles = 4;

// ------------------------------------------------------------------ in-core

// Super-blocked FW, in place, on the whole ld x ld device matrix: k-blocks
// of fb tiles (fb * 128 vertices). Phase 1 is fw_blocked on the diagonal
// super-block; phase 2 multiplies the row and column panels by the closed
// diagonal block, reading their old values from a copy (tmp, tmpp: fb*128 x
// ld cells), since an output tile's operand spans other blocks' tiles;
// phase 3 runs the product with K = fb * 128, which amortises each output
// tile's load and store over more work than K = 128.
//
// Lookahead (default; GSP_DENSE_FW_LOOKAHEAD=0 turns it off): phase 3 of
// k-block kb is split into the tiles of k-block kb+1's panels ("strips",
// on a high-priority stream) and all the others ("bulk", on a low-priority
// stream). Phases 1 and 2 of kb+1 need only the strips, so they run on the
// high-priority stream while the bulk of kb still fills the GPU: the serial
// phase 1 (a chain of small launches on a few SMs) leaves the critical path.
// Why it is safe: the bulk of kb reads only panel kb's tiles in its own rows
// and columns (none in panel kb+1) and writes no tile of panels kb or kb+1;
// phases 1-2 of kb+1 read and write only panel kb+1; the strips of kb+1
// (panel kb+2) wait for the bulk of kb, which wrote them last.
struct LookaheadStreams {
  cudaStream_t crit = nullptr, bulk = nullptr;
  cudaEvent_t ev = nullptr, p2_done = nullptr, bulk_done = nullptr, crit_done = nullptr;
  cudaStream_t outer;
  bool joined = false;
  explicit LookaheadStreams(cudaStream_t s) : outer(s) {
    int least = 0, greatest = 0;
    GSP_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&crit, cudaStreamNonBlocking, greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&bulk, cudaStreamNonBlocking, least));
    for (cudaEvent_t* e : {&ev, &p2_done, &bulk_done, &crit_done}) {
      GSP_CUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    }
    // Both streams start after everything already queued on the outer one.
    GSP_CUDA(cudaEventRecord(ev, outer));
    GSP_CUDA(cudaStreamWaitEvent(crit, ev, 0));
    GSP_CUDA(cudaStreamWaitEvent(bulk, ev, 0));
  }
  // The outer stream continues after both (normal end).
  void join() {
    GSP_CUDA(cudaEventRecord(crit_done, crit));
    GSP_CUDA(cudaEventRecord(bulk_done, bulk));
    GSP_CUDA(cudaStreamWaitEvent(outer, crit_done, 0));
    GSP_CUDA(cudaStreamWaitEvent(outer, bulk_done, 0));
    joined = true;
  }
  ~LookaheadStreams() {
    // On an early exit (an error, a cancellation) the buffers the queued
    // work uses are freed next: wait for it first. After join() the outer
    // stream waits for it instead, and the host goes on: a stream destroyed
    // with work queued is released when that work is done.
    for (cudaStream_t st : {crit, bulk}) {
      if (st == nullptr) continue;
      if (!joined) cudaStreamSynchronize(st);
      cudaStreamDestroy(st);
    }
    for (cudaEvent_t e : {ev, p2_done, bulk_done, crit_done}) {
      if (e != nullptr) cudaEventDestroy(e);
    }
  }
  LookaheadStreams(const LookaheadStreams&) = delete;
  LookaheadStreams& operator=(const LookaheadStreams&) = delete;
};

// Super-blocked FW, in place, on the whole ld x ld device matrix D (P: its
// predecessors with kPaths), in k-blocks of fb tiles: see above. tmp, tmpp:
// the panel copies (fb*128 x ld cells each).
template <class Ops, bool kPaths>
class SuperBlockedFw {
 public:
  using T = typename Ops::T;

  SuperBlockedFw(T* D, int32_t* P, int64_t ld, int fb, int* flags, T* tmp, int32_t* tmpp)
      : D_(D),
        P_(P),
        ld_(ld),
        flags_(flags),
        tmp_(tmp),
        tmpp_(tmpp),
        nbt_((int)(ld / kTile)),
        Bs_((int64_t)fb * kTile),
        nsb_((ld + Bs_ - 1) / Bs_) {}

  // Every k-block on stream s (through the lookahead streams where there
  // are several k-blocks and the lookahead is on), reporting progress per
  // k-block.
  void run(cudaStream_t s, const RunOptions* report) {
    // GSP_DENSE_FW_LOOKAHEAD=0 (the run's Tuning::dense_fw_lookahead).
    const bool lookahead = report == nullptr || report->tuning.dense_fw_lookahead;
    if (nsb_ == 1 || !lookahead) {
      run_in_order(s, report);
    } else {
      run_with_lookahead(s, report);
    }
  }

 private:
  // Super-block kb: first vertex, size, and the same in tiles.
  int64_t k0_of(int64_t kb) const { return kb * Bs_; }
  int64_t sb_of(int64_t kb) const { return std::min(Bs_, ld_ - kb * Bs_); }
  int tiles_of(int64_t kb) const { return (int)(sb_of(kb) / kTile); }
  int tile0_of(int64_t kb) const { return (int)(k0_of(kb) / kTile); }

  // The three phases of each k-block in turn, all on stream s.
  void run_in_order(cudaStream_t s, const RunOptions* report) {
    for (int64_t kb = 0; kb < nsb_; ++kb) {
      close_and_panels(kb, s);
      const int k0t = tile0_of(kb), sbt = tiles_of(kb);
      if (nsb_ > 1) update(kb, 0, 0, nbt_, nbt_, k0t, k0t + sbt, k0t, k0t + sbt, s);
      if (report != nullptr) report->report((double)(kb + 1) / (double)nsb_);
    }
  }

  // Phase 3 of k-block kb split into the strips (panel kb+1, critical
  // stream) and the bulk (low-priority stream), phases 1 and 2 of kb+1 on
  // the critical stream behind the strips.
  void run_with_lookahead(cudaStream_t s, const RunOptions* report) {
    LookaheadStreams ls(s);
    close_and_panels(0, ls.crit);
    for (int64_t kb = 0; kb < nsb_; ++kb) {
      const int k0t = tile0_of(kb), sbt = tiles_of(kb);
      GSP_CUDA(cudaEventRecord(ls.p2_done, ls.crit));
      int skip_hi = k0t + sbt;  // the bulk skips panels kb and (if any) kb+1
      if (kb + 1 < nsb_) {
        const int64_t k1 = k0_of(kb + 1);
        const int s1t = tiles_of(kb + 1);
        skip_hi += s1t;
        // Strips: panel kb+1's rows (every column outside panel kb), then its
        // columns (every row outside panels kb and kb+1); after the bulk of
        // kb-1, which wrote them last.
        if (kb > 0) GSP_CUDA(cudaStreamWaitEvent(ls.crit, ls.bulk_done, 0));
        update(kb, k1, 0, s1t, nbt_, 0, 0, k0t, k0t + sbt, ls.crit);
        update(kb, 0, k1, nbt_, s1t, k0t, skip_hi, 0, 0, ls.crit);
      }
      GSP_CUDA(cudaStreamWaitEvent(ls.bulk, ls.p2_done, 0));
      update(kb, 0, 0, nbt_, nbt_, k0t, skip_hi, k0t, skip_hi, ls.bulk);
      GSP_CUDA(cudaEventRecord(ls.bulk_done, ls.bulk));
      if (kb + 1 < nsb_) close_and_panels(kb + 1, ls.crit);
      if (report != nullptr) report->report((double)(kb + 1) / (double)nsb_);
    }
    ls.join();
  }

  // Phases 1 and 2 of super-block kb on stream st.
  void close_and_panels(int64_t kb, cudaStream_t st) {
    const int64_t k0 = k0_of(kb), sb = sb_of(kb);
    const int sbt = tiles_of(kb), k0t = tile0_of(kb);
    T* diag = D_ + k0 * ld_ + k0;
    int32_t* diagp = kPaths ? P_ + k0 * ld_ + k0 : nullptr;
    fw_blocked<Ops, kPaths>(diag, diagp, ld_, sbt, flags_, st, nullptr, 0, 0);
    if (nsb_ == 1) return;
    GSP_CUDA(cudaMemcpyAsync(tmp_, D_ + k0 * ld_, (size_t)(sb * ld_) * sizeof(T), cudaMemcpyDeviceToDevice, st));
    if (kPaths) {
      GSP_CUDA(
          cudaMemcpyAsync(tmpp_, P_ + k0 * ld_, (size_t)(sb * ld_) * sizeof(int32_t), cudaMemcpyDeviceToDevice, st));
    }
    TileParams<T> r;
    r.A = diag;
    r.lda = ld_;
    r.B = tmp_;
    r.ldb = ld_;
    r.Cin = D_ + k0 * ld_;
    r.Cout = D_ + k0 * ld_;
    r.ldc = ld_;
    if (kPaths) {
      r.Bp = tmpp_;
      r.ldbp = ld_;
      r.Pin = P_ + k0 * ld_;
      r.Pout = P_ + k0 * ld_;
      r.ldp = ld_;
    }
    r.K = (int)sb;
    r.skip_col_lo = k0t;
    r.skip_col_hi = k0t + sbt;
    r.row_off = k0;
    r.col_off = 0;
    r.flags = flags_;
    launch_tile_product<Ops, kPaths>(r, sbt, nbt_, st);

    GSP_CUDA(cudaMemcpy2DAsync(tmp_, Bs_ * sizeof(T), D_ + k0, ld_ * sizeof(T), sb * sizeof(T), ld_,
                               cudaMemcpyDeviceToDevice, st));
    if (kPaths) {
      GSP_CUDA(cudaMemcpy2DAsync(tmpp_, Bs_ * sizeof(int32_t), P_ + k0, ld_ * sizeof(int32_t), sb * sizeof(int32_t),
                                 ld_, cudaMemcpyDeviceToDevice, st));
    }
    TileParams<T> c;
    c.A = tmp_;
    c.lda = Bs_;
    c.B = diag;
    c.ldb = ld_;
    c.Cin = D_ + k0;
    c.Cout = D_ + k0;
    c.ldc = ld_;
    if (kPaths) {
      c.Bp = diagp;
      c.ldbp = ld_;
      c.Pin = P_ + k0;
      c.Pout = P_ + k0;
      c.ldp = ld_;
    }
    c.K = (int)sb;
    c.skip_row_lo = k0t;
    c.skip_row_hi = k0t + sbt;
    c.row_off = 0;
    c.col_off = k0;
    c.flags = flags_;
    launch_tile_product<Ops, kPaths>(c, nbt_, sbt, st);
  }

  // Phase 3 of super-block kb on the tiles of the sub-matrix whose corner
  // is (row0, col0) (multiples of the tile), grid tm x tn, skipping the tile
  // rows [srl, srh) and columns [scl, sch) of that grid.
  void update(int64_t kb, int64_t row0, int64_t col0, int tm, int tn, int srl, int srh, int scl, int sch,
              cudaStream_t st) {
    const int64_t k0 = k0_of(kb);
    TileParams<T> x;
    x.A = D_ + row0 * ld_ + k0;
    x.lda = ld_;
    x.B = D_ + k0 * ld_ + col0;
    x.ldb = ld_;
    x.Cout = D_ + row0 * ld_ + col0;
    x.Cin = x.Cout;
    x.ldc = ld_;
    if (kPaths) {
      x.Bp = P_ + k0 * ld_ + col0;
      x.ldbp = ld_;
      x.Pout = P_ + row0 * ld_ + col0;
      x.Pin = x.Pout;
      x.ldp = ld_;
    }
    x.K = (int)sb_of(kb);
    x.skip_row_lo = srl;
    x.skip_row_hi = srh;
    x.skip_col_lo = scl;
    x.skip_col_hi = sch;
    x.row_off = row0;
    x.col_off = col0;
    x.flags = flags_;
    launch_tile_product<Ops, kPaths>(x, tm, tn, st);
  }

  T* const D_;
  int32_t* const P_;
  const int64_t ld_;
  int* const flags_;
  T* const tmp_;
  int32_t* const tmpp_;
  const int nbt_;      // tiles per side
  const int64_t Bs_;   // k-block edge in vertices
  const int64_t nsb_;  // k-blocks
};

// The in-core k-block for an ld x ld matrix: 8 tiles from n = 16384 on (1.0-1.6%
// faster there on the H100 with the lookahead), else 4 (fb = 8 is 10-24%
// slower at n = 4096-8192: its serial phase 1 no longer hides behind a
// shorter phase 3). GSP_DENSE_FW_BLOCK overrides (1..8; the run's
// Tuning::dense_fw_block).
inline int fw_block_tiles(int64_t ld, const RunOptions& o) {
  if (const std::optional<int> forced = o.tuning.dense_fw_block) return *forced;
  return ld >= 16384 ? 2 * kDefaultFwBlockTiles : kDefaultFwBlockTiles;
}

// ------------------------------------------------------------------ in-core

// kPaths && pred_pass: the distance-only product, then the predecessors
// from the finished matrix (pred_pass.cuh); kPaths alone: tracked in the product.
template <class Ops, class W, bool kPaths>
void fw_in_core(RunContext& ctx, const ApspJob& job, int64_t ld, int fb, bool pred_pass_after) {
  using T = typename Ops::T;
  constexpr bool kTrack = kPaths;  // tracking variant of the kernels, unless pred_pass_after
  const bool track = kPaths && !pred_pass_after;
  const int nb = (int)(ld / kTile);
  StageClock clock(ctx);
  DeviceBuffer<T> D(ctx, (size_t)(ld * ld), "Floyd-Warshall distance matrix");
  DeviceBuffer<int32_t> P;
  if (kPaths) P.allocate(ctx, (size_t)(ld * ld), "Floyd-Warshall predecessor matrix");
  DeviceBuffer<int> flags(ctx, 1, "Floyd-Warshall flags");
  const bool super = !(fb <= 1 || nb <= fb);
  DeviceBuffer<T> tmp;
  DeviceBuffer<int32_t> tmpp;
  if (super) tmp.allocate(ctx, (size_t)(fb * kTile) * (size_t)ld, "Floyd-Warshall panel copy");
  if (super && track) tmpp.allocate(ctx, (size_t)(fb * kTile) * (size_t)ld, "Floyd-Warshall panel copy (pred)");
  // The rows' host memory (a result's, the first time at this size) is
  // allocated and faulted in on a host thread while the device computes;
  // it is page-locked only after the steps (destination() below):
  // page-locking while the steps ran slowed them by a third at n = 65536
  // (the driver maps the pages into the devices' address space under the
  // kernels), more on several devices. It starts after the device buffers
  // are allocated and the graph is on the device (fw_multi_device.cu says
  // why).
  GSP_CUDA(cudaMemsetAsync(flags.get(), 0, sizeof(int), ctx.stream()));
  build_matrix_device<Ops, W>(ctx, *job.graph, D.get(), track ? P.get() : nullptr, ld);
  HostTask prepare([&job] { job.sink->prepare_destination(0); });
  clock.mark(Stage::kSetup);
  if (!super) {
    if (track) {
      fw_blocked<Ops, kTrack>(D.get(), P.get(), ld, nb, flags.get(), ctx.stream(), job.options, 0.0, 1.0);
    } else {
      fw_blocked<Ops, false>(D.get(), nullptr, ld, nb, flags.get(), ctx.stream(), job.options, 0.0, 1.0);
    }
  } else {
    if (track) {
      SuperBlockedFw<Ops, kTrack>(D.get(), P.get(), ld, fb, flags.get(), tmp.get(), tmpp.get())
          .run(ctx.stream(), job.options);
    } else {
      SuperBlockedFw<Ops, false>(D.get(), nullptr, ld, fb, flags.get(), tmp.get(), nullptr)
          .run(ctx.stream(), job.options);
    }
  }
  check_flags(ctx, flags.get(), "CUDA Floyd-Warshall");
  clock.mark(Stage::kCompute);
  if (kPaths && !track) {
    pred_pass<Ops, W>(ctx, *job.graph, D.get(), P.get(), ld, ctx.stream());
    clock.mark(Stage::kPaths);
  }
  prepare.join();
  RowSink::Destination dst;
  const bool in_place = job.sink->destination(&dst) && dst.page_locked;
  deliver_rows_device<Ops, W>(ctx, job, D.get(), P.get(), ld, kPaths, in_place ? &dst : nullptr, &clock);
  clock.finish();
  fill_stats(ctx, job, nb, (int64_t)job.graph->n() * job.graph->n() * job.graph->n());
}

// -------------------------------------------------------------- out-of-core

constexpr int kStreams = 3;

struct StreamSet {
  cudaStream_t s[kStreams] = {};
  cudaEvent_t done[kStreams] = {};
  cudaEvent_t ready = nullptr;
  StreamSet() {
    for (int i = 0; i < kStreams; ++i) {
      GSP_CUDA(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
      GSP_CUDA(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    }
    GSP_CUDA(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  }
  ~StreamSet() {
    for (int i = 0; i < kStreams; ++i) {
      if (s[i] != nullptr) {
        cudaStreamSynchronize(s[i]);
        cudaStreamDestroy(s[i]);
      }
      if (done[i] != nullptr) cudaEventDestroy(done[i]);
    }
    if (ready != nullptr) cudaEventDestroy(ready);
  }
};

// Super-block edge for the out-of-core mode: the largest multiple of kTile
// (at most 4096) whose working set fits the budget, or 0.
// Rows per streamed strip: min(Bs, kStripRows).
constexpr int64_t kStripRows = 512;
inline int64_t ooc_strip_rows(int64_t Bs) { return std::min<int64_t>(Bs, kStripRows); }

// Working set: row panel + column panel + one temporary panel (Bs x ld
// each) + kStreams strips of Rs x ld. Per round the whole matrix crosses
// the bus twice while n^2 * Bs relaxations run, so Bs is taken as large as
// the budget allows (capped at 8192).
inline int64_t ooc_block(int64_t ld, size_t bytes_per_cell, size_t budget) {
  const double row = (double)ld * (double)bytes_per_cell;
  int64_t best = 0;
  for (int64_t bs = kTile; bs <= std::min<int64_t>(ld, 8192); bs += kTile) {
    const double need = row * (double)(3 * bs + kStreams * ooc_strip_rows(bs));
    if (need <= (double)budget * 0.95) best = bs;
  }
  return best;
}

// The out-of-core mode: the matrix lives in pinned host memory and each
// k-block of Bs vertices is one round: its row and column panels come to the
// device (phase 1 closes the diagonal block inside them, phase 2 updates
// them), then every other row strip streams through kStreams buffers for
// phase 3, and the panels go back. Stages: pinning, allocation and the
// initial matrix are set-up; the rounds, with the matrix streaming through
// the device, compute; the rows out of the host matrix copy, their
// predecessor repair paths.
template <class Ops, class W, bool kPaths>
class OutOfCoreFw {
 public:
  using T = typename Ops::T;

  // Pins the host matrix and allocates the device working set.
  OutOfCoreFw(RunContext& ctx, const ApspJob& job, int64_t ld, int64_t Bs)
      : ctx_(ctx),
        job_(job),
        ld_(ld),
        Bs_(Bs),
        nbt_(ld / kTile),
        ms_(ctx.stream()),
        Rs_(ooc_strip_rows(Bs)),
        nsb_((ld + Bs - 1) / Bs),
        clock_(ctx),
        hD_(host_matrix_bytes(ld), true),
        hP_(kPaths ? (size_t)(ld * ld) * sizeof(int32_t) : 0, kPaths),
        sync_on_exit_{ms_},
        H_(hD_.as<T>()),
        HP_(kPaths ? hP_.as<int32_t>() : nullptr) {
    const size_t panel = (size_t)(Bs * ld);
    rowp_.allocate(ctx, panel, "out-of-core row panel");
    colp_.allocate(ctx, panel, "out-of-core column panel");
    tmp_.allocate(ctx, panel, "out-of-core temporary panel");
    if (kPaths) {
      rowpp_.allocate(ctx, panel, "out-of-core row panel (pred)");
      colpp_.allocate(ctx, panel, "out-of-core column panel (pred)");
      tmpp_.allocate(ctx, panel, "out-of-core temporary panel (pred)");
    }
    for (int i = 0; i < kStreams; ++i) {
      strip_[i].allocate(ctx, (size_t)(Rs_ * ld), "out-of-core strip");
      if (kPaths) stripp_[i].allocate(ctx, (size_t)(Rs_ * ld), "out-of-core strip (pred)");
    }
    flags_.allocate(ctx, 1, "Floyd-Warshall flags");
    GSP_CUDA(cudaMemsetAsync(flags_.get(), 0, sizeof(int), ms_));
    streams_.emplace();
  }

  void run() {
    build_initial_matrix();
    clock_.mark(Stage::kSetup);
    for (int64_t kb = 0; kb < nsb_; ++kb) {
      const Round r = round_of(kb);
      panels_in(r);
      close_diagonal(r);
      if (nsb_ > 1) {
        update_row_panel(r);
        update_column_panel(r);
        update_strips(r);
      }
      panels_out(r);
      job_.options->report((double)(kb + 1) / (double)nsb_);
    }
    check_flags(ctx_, flags_.get(), "CUDA Floyd-Warshall (out-of-core)");
    clock_.mark(Stage::kCompute);
    deliver_rows();
    clock_.finish();
    const int32_t n = job_.graph->n();
    fill_stats(ctx_, job_, nsb_, (int64_t)n * n * n);
  }

 private:
  // Round kb's k-block: first vertex and size, and the same in tiles.
  struct Round {
    int64_t k0, sb;
    int k0t, sbt;
  };
  Round round_of(int64_t kb) const {
    const int64_t k0 = kb * Bs_, sb = std::min(Bs_, ld_ - k0);
    return Round{k0, sb, (int)(k0 / kTile), (int)(sb / kTile)};
  }

  // The host matrix's size; throws first where the host has not that much
  // memory to pin (the pinned buffers are kept across runs:
  // pinned_cache_take).
  static size_t host_matrix_bytes(int64_t ld) {
    require_host_memory(bytes_mul(bytes_mul((uint64_t)ld, (uint64_t)ld), sizeof(T) + (kPaths ? sizeof(int32_t) : 0)),
                        "the CUDA out-of-core Floyd-Warshall's host matrix (" + std::to_string(ld) + " x " +
                            std::to_string(ld) + (kPaths ? ", distances and predecessors)" : ", distances)"));
    return (size_t)(ld * ld) * sizeof(T);
  }

  // The initial matrix, built on the device strip by strip and copied out.
  void build_initial_matrix() {
    const DeviceCsr<W> g = device_graph<W>(ctx_, *job_.graph);
    for (int64_t r0 = 0; r0 < ld_; r0 += Rs_) {
      const int64_t rs = std::min(Rs_, ld_ - r0);
      build_rows_device<Ops, W>(ctx_, g, strip_[0].get(), kPaths ? stripp_[0].get() : nullptr, ld_, r0, rs, ms_);
      GSP_CUDA(
          cudaMemcpyAsync(H_ + r0 * ld_, strip_[0].get(), (size_t)(rs * ld_) * sizeof(T), cudaMemcpyDeviceToHost, ms_));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(HP_ + r0 * ld_, stripp_[0].get(), (size_t)(rs * ld_) * sizeof(int32_t),
                                 cudaMemcpyDeviceToHost, ms_));
      }
    }
  }

  // Row panel (contiguous rows) and column panel (ld = Bs) in.
  void panels_in(const Round& r) {
    GSP_CUDA(
        cudaMemcpyAsync(rowp_.get(), H_ + r.k0 * ld_, (size_t)(r.sb * ld_) * sizeof(T), cudaMemcpyHostToDevice, ms_));
    GSP_CUDA(cudaMemcpy2DAsync(colp_.get(), Bs_ * sizeof(T), H_ + r.k0, ld_ * sizeof(T), r.sb * sizeof(T), ld_,
                               cudaMemcpyHostToDevice, ms_));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(rowpp_.get(), HP_ + r.k0 * ld_, (size_t)(r.sb * ld_) * sizeof(int32_t),
                               cudaMemcpyHostToDevice, ms_));
      GSP_CUDA(cudaMemcpy2DAsync(colpp_.get(), Bs_ * sizeof(int32_t), HP_ + r.k0, ld_ * sizeof(int32_t),
                                 r.sb * sizeof(int32_t), ld_, cudaMemcpyHostToDevice, ms_));
    }
  }

  // The diagonal block (inside the row panel) and its predecessors.
  T* diag(const Round& r) const { return rowp_.get() + r.k0; }
  int32_t* diagp(const Round& r) const { return kPaths ? rowpp_.get() + r.k0 : nullptr; }

  // Phase 1: in-core blocked FW on the diagonal block, which then goes into
  // the column panel as well.
  void close_diagonal(const Round& r) {
    fw_blocked<Ops, kPaths>(diag(r), diagp(r), ld_, r.sbt, flags_.get(), ms_, nullptr, 0, 0);
    GSP_CUDA(cudaMemcpy2DAsync(colp_.get() + r.k0 * Bs_, Bs_ * sizeof(T), diag(r), ld_ * sizeof(T), r.sb * sizeof(T),
                               r.sb, cudaMemcpyDeviceToDevice, ms_));
    if (kPaths) {
      GSP_CUDA(cudaMemcpy2DAsync(colpp_.get() + r.k0 * Bs_, Bs_ * sizeof(int32_t), diagp(r), ld_ * sizeof(int32_t),
                                 r.sb * sizeof(int32_t), r.sb, cudaMemcpyDeviceToDevice, ms_));
    }
  }

  // Phase 2, row panel: R = min(R, Dkk* (x) R_old), R_old from a copy.
  void update_row_panel(const Round& r) {
    GSP_CUDA(cudaMemcpyAsync(tmp_.get(), rowp_.get(), (size_t)(r.sb * ld_) * sizeof(T), cudaMemcpyDeviceToDevice, ms_));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(tmpp_.get(), rowpp_.get(), (size_t)(r.sb * ld_) * sizeof(int32_t),
                               cudaMemcpyDeviceToDevice, ms_));
    }
    TileParams<T> x;
    x.A = colp_.get() + r.k0 * Bs_;
    x.lda = Bs_;
    x.B = tmp_.get();
    x.ldb = ld_;
    x.Cin = rowp_.get();
    x.Cout = rowp_.get();
    x.ldc = ld_;
    if (kPaths) {
      x.Bp = tmpp_.get();
      x.ldbp = ld_;
      x.Pin = rowpp_.get();
      x.Pout = rowpp_.get();
      x.ldp = ld_;
    }
    x.K = (int)r.sb;
    x.skip_col_lo = r.k0t;
    x.skip_col_hi = r.k0t + r.sbt;
    x.row_off = r.k0;
    x.col_off = 0;
    x.flags = flags_.get();
    launch_tile_product<Ops, kPaths>(x, r.sbt, (int)nbt_, ms_);
  }

  // Phase 2, column panel: C = min(C, C_old (x) Dkk*).
  void update_column_panel(const Round& r) {
    GSP_CUDA(cudaMemcpyAsync(tmp_.get(), colp_.get(), (size_t)(ld_ * Bs_) * sizeof(T), cudaMemcpyDeviceToDevice, ms_));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(tmpp_.get(), colpp_.get(), (size_t)(ld_ * Bs_) * sizeof(int32_t),
                               cudaMemcpyDeviceToDevice, ms_));
    }
    TileParams<T> x;
    x.A = tmp_.get();
    x.lda = Bs_;
    x.B = diag(r);
    x.ldb = ld_;
    x.Cin = colp_.get();
    x.Cout = colp_.get();
    x.ldc = Bs_;
    if (kPaths) {
      x.Bp = diagp(r);
      x.ldbp = ld_;
      x.Pin = colpp_.get();
      x.Pout = colpp_.get();
      x.ldp = Bs_;
    }
    x.K = (int)r.sb;
    x.skip_row_lo = r.k0t;
    x.skip_row_hi = r.k0t + r.sbt;
    x.row_off = 0;
    x.col_off = r.k0;
    x.flags = flags_.get();
    launch_tile_product<Ops, kPaths>(x, (int)nbt_, r.sbt, ms_);
  }

  // Phase 3: the other row strips, [0, k0) and [k0 + sb, ld) in chunks of
  // Rs rows, stream through the kStreams buffers (in, product, out on one
  // stream each); the main stream then waits for them all.
  void update_strips(const Round& r) {
    StreamSet& ss = *streams_;
    GSP_CUDA(cudaEventRecord(ss.ready, ms_));
    int used = 0;
    for (int64_t r0 = 0; r0 < ld_;) {
      if (r0 == r.k0) {
        r0 += r.sb;
        continue;
      }
      const int64_t rs = std::min(Rs_, (r0 < r.k0 ? r.k0 : ld_) - r0);
      const int q = used % kStreams;
      if (used < kStreams) GSP_CUDA(cudaStreamWaitEvent(ss.s[q], ss.ready, 0));
      ++used;
      update_strip(r, r0, rs, q);
      r0 += rs;
    }
    for (int q = 0; q < kStreams && q < used; ++q) {
      GSP_CUDA(cudaEventRecord(ss.done[q], ss.s[q]));
      GSP_CUDA(cudaStreamWaitEvent(ms_, ss.done[q], 0));
    }
  }

  // One strip of rs rows from row r0 through buffer q on stream q.
  void update_strip(const Round& r, int64_t r0, int64_t rs, int q) {
    cudaStream_t st = streams_->s[q];
    GSP_CUDA(
        cudaMemcpyAsync(strip_[q].get(), H_ + r0 * ld_, (size_t)(rs * ld_) * sizeof(T), cudaMemcpyHostToDevice, st));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(stripp_[q].get(), HP_ + r0 * ld_, (size_t)(rs * ld_) * sizeof(int32_t),
                               cudaMemcpyHostToDevice, st));
    }
    TileParams<T> x;
    x.A = colp_.get() + r0 * Bs_;
    x.lda = Bs_;
    x.B = rowp_.get();
    x.ldb = ld_;
    x.Cin = strip_[q].get();
    x.Cout = strip_[q].get();
    x.ldc = ld_;
    if (kPaths) {
      x.Bp = rowpp_.get();
      x.ldbp = ld_;
      x.Pin = stripp_[q].get();
      x.Pout = stripp_[q].get();
      x.ldp = ld_;
    }
    x.K = (int)r.sb;
    x.skip_col_lo = r.k0t;
    x.skip_col_hi = r.k0t + r.sbt;
    x.row_off = r0;
    x.col_off = 0;
    x.flags = flags_.get();
    launch_tile_product<Ops, kPaths>(x, (int)(rs / kTile), (int)nbt_, st);
    GSP_CUDA(
        cudaMemcpyAsync(H_ + r0 * ld_, strip_[q].get(), (size_t)(rs * ld_) * sizeof(T), cudaMemcpyDeviceToHost, st));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(HP_ + r0 * ld_, stripp_[q].get(), (size_t)(rs * ld_) * sizeof(int32_t),
                               cudaMemcpyDeviceToHost, st));
    }
  }

  // Panels out, after the strips (whose copies carry stale panel columns).
  void panels_out(const Round& r) {
    GSP_CUDA(
        cudaMemcpyAsync(H_ + r.k0 * ld_, rowp_.get(), (size_t)(r.sb * ld_) * sizeof(T), cudaMemcpyDeviceToHost, ms_));
    GSP_CUDA(cudaMemcpy2DAsync(H_ + r.k0, ld_ * sizeof(T), colp_.get(), Bs_ * sizeof(T), r.sb * sizeof(T), ld_,
                               cudaMemcpyDeviceToHost, ms_));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(HP_ + r.k0 * ld_, rowpp_.get(), (size_t)(r.sb * ld_) * sizeof(int32_t),
                               cudaMemcpyDeviceToHost, ms_));
      GSP_CUDA(cudaMemcpy2DAsync(HP_ + r.k0, ld_ * sizeof(int32_t), colpp_.get(), Bs_ * sizeof(int32_t),
                                 r.sb * sizeof(int32_t), ld_, cudaMemcpyDeviceToHost, ms_));
    }
  }

  // Rows from the host matrix, converted to the API representation, in
  // blocks of the sink's preferred size.
  void deliver_rows() {
    const int32_t n = job_.graph->n();
    int32_t block = std::max(1, job_.sink->preferred_block_rows());
    block = std::min(block, std::max(1, job_.num_sources));
    std::vector<W> out_d((size_t)block * n);
    std::vector<int32_t> out_p(kPaths ? (size_t)block * n : 0);
    PredRepairScratch scratch;
    for (int32_t first = 0; first < job_.num_sources; first += block) {
      const int32_t rows = std::min(block, job_.num_sources - first);
      for (int32_t r = 0; r < rows; ++r) {
        const int64_t s = job_.sources[first + r];
        for (int32_t j = 0; j < n; ++j) {
          const T v = H_[s * ld_ + j];
          const bool inf = Ops::is_inf(v);
          out_d[(size_t)r * n + j] = inf ? Dist<W>::inf() : (W)v;
          if (kPaths) out_p[(size_t)r * n + j] = (inf || s == j) ? -1 : HP_[s * ld_ + j];
        }
      }
      if (kPaths) {
        clock_.mark(Stage::kCopy);
        repair_pred_block<W>(job_.graph->view<W>(), job_.sources + first, rows, out_d.data(), out_p.data(), scratch);
        clock_.mark(Stage::kPaths);
      }
      job_.sink->rows(first, rows, out_d.data(), kPaths ? out_p.data() : nullptr);
      clock_.mark(Stage::kCopy);
    }
  }

  // Every copy from or to the host matrix is finished before it goes back.
  struct SyncOnExit {
    cudaStream_t s;
    ~SyncOnExit() { cudaStreamSynchronize(s); }
  };

  RunContext& ctx_;
  const ApspJob& job_;
  const int64_t ld_;
  const int64_t Bs_;   // k-block edge in vertices
  const int64_t nbt_;  // tiles per side
  const cudaStream_t ms_;
  const int64_t Rs_;   // rows per streamed strip
  const int64_t nsb_;  // k-blocks (rounds)
  StageClock clock_;
  // The matrix, on the host.
  HostBuffer hD_;
  HostBuffer hP_;
  SyncOnExit sync_on_exit_;
  T* const H_;
  int32_t* const HP_;
  // The device working set: the row, column and temporary panels, the
  // strips' buffers.
  DeviceBuffer<T> rowp_, colp_, tmp_;
  DeviceBuffer<int32_t> rowpp_, colpp_, tmpp_;
  DeviceBuffer<T> strip_[kStreams];
  DeviceBuffer<int32_t> stripp_[kStreams];
  DeviceBuffer<int> flags_;
  std::optional<StreamSet> streams_;  // made last, after the buffers (destroyed first: waits for its streams)
};

template <class Ops, class W>
void run_fw(RunContext& ctx, const ApspJob& job) {
  const int32_t n = job.graph->n();
  const bool paths = job.options->want_paths;
  const int64_t ld = round_up(std::max<int64_t>(n, 1), kTile);
  const size_t cell = sizeof(typename Ops::T) + (paths ? sizeof(int32_t) : 0);
  const int32_t block = std::max(1, std::min(job.sink->preferred_block_rows(), job.num_sources));
  const bool pass = paths && use_pred_pass<Ops>(n, job.graph->m(), *job.options);
  // the graph's CSR (and, for the pred pass, its reverse) on the device
  const size_t csr_fwd = (size_t)job.graph->m() * (4 + sizeof(W)) + (size_t)(n + 1) * 8;
  const size_t csr = csr_fwd * (pass ? 2 : 1);
  const int fb = fw_block_tiles(ld, *job.options);
  const size_t panel_cell = pass ? sizeof(typename Ops::T) : cell;
  const size_t panel_copy = fb > 1 ? (size_t)(fb * kTile) * (size_t)ld * panel_cell : 0;
  // the matrix, the panel copy, two row blocks in flight (dense_delivery.cuh)
  // and the predecessor check's scratch
  const size_t in_core = (size_t)(ld * ld) * cell + panel_copy + 2 * (size_t)block * n * cell +
                         (paths ? (size_t)block * n * 8 + (size_t)block * 4 : 0) + (size_t)job.num_sources * 4 + csr +
                         4096;
  const size_t budget = ctx.budget_left();
  if (in_core <= budget) {
    if (paths)
      fw_in_core<Ops, W, true>(ctx, job, ld, fb, pass);
    else
      fw_in_core<Ops, W, false>(ctx, job, ld, fb, false);
    return;
  }
  const size_t reserve = csr_fwd + 4096;  // out-of-core tracks paths in the product
  const int64_t Bs = ooc_block(ld, cell, budget > reserve ? budget - reserve : 0);
  if (Bs == 0) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY,
                "CUDA Floyd-Warshall: the device budget (" + std::to_string(budget) +
                    " bytes) holds neither the matrix nor the out-of-core working set for n = " + std::to_string(n));
  }
  if (paths)
    OutOfCoreFw<Ops, W, true>(ctx, job, ld, Bs).run();
  else
    OutOfCoreFw<Ops, W, false>(ctx, job, ld, Bs).run();
}

}  // namespace

void apsp_floyd_warshall(RunContext& ctx, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    dense::with_ops(*job.graph, [&](auto ops) {
      using Ops = decltype(ops);
      if constexpr (std::is_same_v<typename Ops::T, W>) run_fw<Ops, W>(ctx, job);
    });
  });
}

}  // namespace gsp::detail::gpu
