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

// GSP_DENSE_FW_LOOKAHEAD=0 (Tuning::dense_fw_lookahead, read per run).
inline bool fw_lookahead() { return tuning().dense_fw_lookahead; }

template <class Ops, bool kPaths>
void fw_super(typename Ops::T* D, int32_t* P, int64_t ld, int fb, int* flags, cudaStream_t s,
              typename Ops::T* tmp, int32_t* tmpp, const RunOptions* report) {
  using T = typename Ops::T;
  const int nbt = (int)(ld / kTile);
  const int64_t Bs = (int64_t)fb * kTile;
  const int64_t nsb = (ld + Bs - 1) / Bs;
  // Super-block kb: first vertex, size, and the same in tiles.
  auto k0_of = [&](int64_t kb) { return kb * Bs; };
  auto sb_of = [&](int64_t kb) { return std::min(Bs, ld - kb * Bs); };
  auto tiles_of = [&](int64_t kb) { return (int)(sb_of(kb) / kTile); };
  auto tile0_of = [&](int64_t kb) { return (int)(k0_of(kb) / kTile); };

  // Phases 1 and 2 of super-block kb on stream st.
  auto close_and_panels = [&](int64_t kb, cudaStream_t st) {
    const int64_t k0 = k0_of(kb), sb = sb_of(kb);
    const int sbt = tiles_of(kb), k0t = tile0_of(kb);
    T* diag = D + k0 * ld + k0;
    int32_t* diagp = kPaths ? P + k0 * ld + k0 : nullptr;
    fw_blocked<Ops, kPaths>(diag, diagp, ld, sbt, flags, st, nullptr, 0, 0);
    if (nsb == 1) return;
    GSP_CUDA(cudaMemcpyAsync(tmp, D + k0 * ld, (size_t)(sb * ld) * sizeof(T),
                             cudaMemcpyDeviceToDevice, st));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(tmpp, P + k0 * ld, (size_t)(sb * ld) * sizeof(int32_t),
                               cudaMemcpyDeviceToDevice, st));
    }
    TileParams<T> r;
    r.A = diag; r.lda = ld;
    r.B = tmp; r.ldb = ld;
    r.Cin = D + k0 * ld; r.Cout = D + k0 * ld; r.ldc = ld;
    if (kPaths) { r.Bp = tmpp; r.ldbp = ld; r.Pin = P + k0 * ld; r.Pout = P + k0 * ld; r.ldp = ld; }
    r.K = (int)sb;
    r.skip_col_lo = k0t; r.skip_col_hi = k0t + sbt;
    r.row_off = k0; r.col_off = 0;
    r.flags = flags;
    launch_tile_product<Ops, kPaths>(r, sbt, nbt, st);

    GSP_CUDA(cudaMemcpy2DAsync(tmp, Bs * sizeof(T), D + k0, ld * sizeof(T), sb * sizeof(T), ld,
                               cudaMemcpyDeviceToDevice, st));
    if (kPaths) {
      GSP_CUDA(cudaMemcpy2DAsync(tmpp, Bs * sizeof(int32_t), P + k0, ld * sizeof(int32_t),
                                 sb * sizeof(int32_t), ld, cudaMemcpyDeviceToDevice, st));
    }
    TileParams<T> c;
    c.A = tmp; c.lda = Bs;
    c.B = diag; c.ldb = ld;
    c.Cin = D + k0; c.Cout = D + k0; c.ldc = ld;
    if (kPaths) { c.Bp = diagp; c.ldbp = ld; c.Pin = P + k0; c.Pout = P + k0; c.ldp = ld; }
    c.K = (int)sb;
    c.skip_row_lo = k0t; c.skip_row_hi = k0t + sbt;
    c.row_off = 0; c.col_off = k0;
    c.flags = flags;
    launch_tile_product<Ops, kPaths>(c, nbt, sbt, st);
  };

  // Phase 3 of super-block kb on the tiles of the sub-matrix whose corner
  // is (row0, col0) (multiples of the tile), grid tm x tn, skipping the tile
  // rows [srl, srh) and columns [scl, sch) of that grid.
  auto update = [&](int64_t kb, int64_t row0, int64_t col0, int tm, int tn, int srl, int srh,
                    int scl, int sch, cudaStream_t st) {
    const int64_t k0 = k0_of(kb);
    TileParams<T> x;
    x.A = D + row0 * ld + k0; x.lda = ld;
    x.B = D + k0 * ld + col0; x.ldb = ld;
    x.Cout = D + row0 * ld + col0; x.Cin = x.Cout; x.ldc = ld;
    if (kPaths) {
      x.Bp = P + k0 * ld + col0; x.ldbp = ld;
      x.Pout = P + row0 * ld + col0; x.Pin = x.Pout; x.ldp = ld;
    }
    x.K = (int)sb_of(kb);
    x.skip_row_lo = srl; x.skip_row_hi = srh;
    x.skip_col_lo = scl; x.skip_col_hi = sch;
    x.row_off = row0; x.col_off = col0;
    x.flags = flags;
    launch_tile_product<Ops, kPaths>(x, tm, tn, st);
  };

  if (nsb == 1 || !fw_lookahead()) {
    for (int64_t kb = 0; kb < nsb; ++kb) {
      close_and_panels(kb, s);
      const int k0t = tile0_of(kb), sbt = tiles_of(kb);
      if (nsb > 1) update(kb, 0, 0, nbt, nbt, k0t, k0t + sbt, k0t, k0t + sbt, s);
      if (report != nullptr) report->report((double)(kb + 1) / (double)nsb);
    }
    return;
  }

  LookaheadStreams ls(s);
  close_and_panels(0, ls.crit);
  for (int64_t kb = 0; kb < nsb; ++kb) {
    const int k0t = tile0_of(kb), sbt = tiles_of(kb);
    GSP_CUDA(cudaEventRecord(ls.p2_done, ls.crit));
    int skip_hi = k0t + sbt;  // the bulk skips panels kb and (if any) kb+1
    if (kb + 1 < nsb) {
      const int64_t k1 = k0_of(kb + 1);
      const int s1t = tiles_of(kb + 1);
      skip_hi += s1t;
      // Strips: panel kb+1's rows (every column outside panel kb), then its
      // columns (every row outside panels kb and kb+1); after the bulk of
      // kb-1, which wrote them last.
      if (kb > 0) GSP_CUDA(cudaStreamWaitEvent(ls.crit, ls.bulk_done, 0));
      update(kb, k1, 0, s1t, nbt, 0, 0, k0t, k0t + sbt, ls.crit);
      update(kb, 0, k1, nbt, s1t, k0t, skip_hi, 0, 0, ls.crit);
    }
    GSP_CUDA(cudaStreamWaitEvent(ls.bulk, ls.p2_done, 0));
    update(kb, 0, 0, nbt, nbt, k0t, skip_hi, k0t, skip_hi, ls.bulk);
    GSP_CUDA(cudaEventRecord(ls.bulk_done, ls.bulk));
    if (kb + 1 < nsb) close_and_panels(kb + 1, ls.crit);
    if (report != nullptr) report->report((double)(kb + 1) / (double)nsb);
  }
  ls.join();
}

// The in-core k-block for an ld x ld matrix: 8 tiles from n = 16384 on (1.0-1.6%
// faster there on the H100 with the lookahead), else 4 (fb = 8 is 10-24%
// slower at n = 4096-8192: its serial phase 1 no longer hides behind a
// shorter phase 3). GSP_DENSE_FW_BLOCK overrides (1..8; Tuning::dense_fw_block,
// read per run).
inline int fw_block_tiles(int64_t ld) {
  if (const std::optional<int> forced = tuning().dense_fw_block) return *forced;
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
  HostTask prepare([&job] { job.sink->prepare_destination(); });
  clock.mark(Stage::kSetup);
  if (!super) {
    if (track) {
      fw_blocked<Ops, kTrack>(D.get(), P.get(), ld, nb, flags.get(), ctx.stream(), job.options, 0.0, 1.0);
    } else {
      fw_blocked<Ops, false>(D.get(), nullptr, ld, nb, flags.get(), ctx.stream(), job.options, 0.0, 1.0);
    }
  } else {
    if (track) {
      fw_super<Ops, kTrack>(D.get(), P.get(), ld, fb, flags.get(), ctx.stream(), tmp.get(), tmpp.get(),
                            job.options);
    } else {
      fw_super<Ops, false>(D.get(), nullptr, ld, fb, flags.get(), ctx.stream(), tmp.get(), nullptr, job.options);
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
      if (s[i] != nullptr) { cudaStreamSynchronize(s[i]); cudaStreamDestroy(s[i]); }
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

template <class Ops, class W, bool kPaths>
void fw_out_of_core(RunContext& ctx, const ApspJob& job, int64_t ld, int64_t Bs) {
  using T = typename Ops::T;
  const int64_t nbt = ld / kTile;  // tiles per side
  cudaStream_t ms = ctx.stream();

  // Stages: pinning, allocation and the initial matrix are set-up; the
  // rounds, with the matrix streaming through the device, compute; the rows
  // out of the host matrix copy, their predecessor repair paths.
  StageClock clock(ctx);
  // The matrix, on the host (pinned buffers kept across runs: pinned_cache_take).
  require_host_memory(bytes_mul(bytes_mul((uint64_t)ld, (uint64_t)ld), sizeof(T) + (kPaths ? sizeof(int32_t) : 0)),
                      "the CUDA out-of-core Floyd-Warshall's host matrix (" + std::to_string(ld) + " x " +
                          std::to_string(ld) + (kPaths ? ", distances and predecessors)" : ", distances)"));
  HostBuffer hD((size_t)(ld * ld) * sizeof(T), true);
  HostBuffer hP(kPaths ? (size_t)(ld * ld) * sizeof(int32_t) : 0, kPaths);
  // Every copy from or to hD / hP is finished before they go back.
  struct SyncOnExit {
    cudaStream_t s;
    ~SyncOnExit() { cudaStreamSynchronize(s); }
  } sync_on_exit{ms};
  T* H = hD.as<T>();
  int32_t* HP = kPaths ? hP.as<int32_t>() : nullptr;

  const size_t panel = (size_t)(Bs * ld);
  DeviceBuffer<T> rowp(ctx, panel, "out-of-core row panel"), colp(ctx, panel, "out-of-core column panel"),
      tmp(ctx, panel, "out-of-core temporary panel");
  DeviceBuffer<int32_t> rowpp, colpp, tmpp;
  if (kPaths) {
    rowpp.allocate(ctx, panel, "out-of-core row panel (pred)");
    colpp.allocate(ctx, panel, "out-of-core column panel (pred)");
    tmpp.allocate(ctx, panel, "out-of-core temporary panel (pred)");
  }
  const int64_t Rs = ooc_strip_rows(Bs);
  DeviceBuffer<T> strip[kStreams];
  DeviceBuffer<int32_t> stripp[kStreams];
  for (int i = 0; i < kStreams; ++i) {
    strip[i].allocate(ctx, (size_t)(Rs * ld), "out-of-core strip");
    if (kPaths) stripp[i].allocate(ctx, (size_t)(Rs * ld), "out-of-core strip (pred)");
  }
  DeviceBuffer<int> flags(ctx, 1, "Floyd-Warshall flags");
  GSP_CUDA(cudaMemsetAsync(flags.get(), 0, sizeof(int), ms));
  StreamSet ss;

  // The initial matrix, built on the device strip by strip and copied out.
  {
    const DeviceCsr<W> g = device_graph<W>(ctx, *job.graph);
    for (int64_t r0 = 0; r0 < ld; r0 += Rs) {
      const int64_t rs = std::min(Rs, ld - r0);
      build_rows_device<Ops, W>(ctx, g, strip[0].get(), kPaths ? stripp[0].get() : nullptr, ld, r0,
                                rs, ms);
      GSP_CUDA(cudaMemcpyAsync(H + r0 * ld, strip[0].get(), (size_t)(rs * ld) * sizeof(T),
                               cudaMemcpyDeviceToHost, ms));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(HP + r0 * ld, stripp[0].get(), (size_t)(rs * ld) * sizeof(int32_t),
                                 cudaMemcpyDeviceToHost, ms));
      }
    }
  }

  const int64_t nsb = (ld + Bs - 1) / Bs;
  clock.mark(Stage::kSetup);
  for (int64_t kb = 0; kb < nsb; ++kb) {
    const int64_t k0 = kb * Bs, sb = std::min(Bs, ld - k0);
    const int sbt = (int)(sb / kTile), k0t = (int)(k0 / kTile);
    // Row panel (contiguous rows) and column panel (ld = Bs) in.
    GSP_CUDA(cudaMemcpyAsync(rowp.get(), H + k0 * ld, (size_t)(sb * ld) * sizeof(T),
                             cudaMemcpyHostToDevice, ms));
    GSP_CUDA(cudaMemcpy2DAsync(colp.get(), Bs * sizeof(T), H + k0, ld * sizeof(T), sb * sizeof(T),
                               ld, cudaMemcpyHostToDevice, ms));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(rowpp.get(), HP + k0 * ld, (size_t)(sb * ld) * sizeof(int32_t),
                               cudaMemcpyHostToDevice, ms));
      GSP_CUDA(cudaMemcpy2DAsync(colpp.get(), Bs * sizeof(int32_t), HP + k0, ld * sizeof(int32_t),
                                 sb * sizeof(int32_t), ld, cudaMemcpyHostToDevice, ms));
    }
    // Phase 1: in-core blocked FW on the diagonal block (inside the row panel).
    T* diag = rowp.get() + k0;
    int32_t* diagp = kPaths ? rowpp.get() + k0 : nullptr;
    fw_blocked<Ops, kPaths>(diag, diagp, ld, sbt, flags.get(), ms, nullptr, 0, 0);
    // Closed diagonal block into the column panel as well.
    GSP_CUDA(cudaMemcpy2DAsync(colp.get() + k0 * Bs, Bs * sizeof(T), diag, ld * sizeof(T),
                               sb * sizeof(T), sb, cudaMemcpyDeviceToDevice, ms));
    if (kPaths) {
      GSP_CUDA(cudaMemcpy2DAsync(colpp.get() + k0 * Bs, Bs * sizeof(int32_t), diagp,
                                 ld * sizeof(int32_t), sb * sizeof(int32_t), sb,
                                 cudaMemcpyDeviceToDevice, ms));
    }
    if (nsb > 1) {
      // Phase 2, row panel: R = min(R, Dkk* (x) R_old), R_old from a copy.
      GSP_CUDA(cudaMemcpyAsync(tmp.get(), rowp.get(), (size_t)(sb * ld) * sizeof(T),
                               cudaMemcpyDeviceToDevice, ms));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(tmpp.get(), rowpp.get(), (size_t)(sb * ld) * sizeof(int32_t),
                                 cudaMemcpyDeviceToDevice, ms));
      }
      {
        TileParams<T> r;
        r.A = colp.get() + k0 * Bs; r.lda = Bs;
        r.B = tmp.get(); r.ldb = ld;
        r.Cin = rowp.get(); r.Cout = rowp.get(); r.ldc = ld;
        if (kPaths) { r.Bp = tmpp.get(); r.ldbp = ld; r.Pin = rowpp.get(); r.Pout = rowpp.get(); r.ldp = ld; }
        r.K = (int)sb;
        r.skip_col_lo = k0t; r.skip_col_hi = k0t + sbt;
        r.row_off = k0; r.col_off = 0;
        r.flags = flags.get();
        launch_tile_product<Ops, kPaths>(r, sbt, (int)nbt, ms);
      }
      // Phase 2, column panel: C = min(C, C_old (x) Dkk*).
      GSP_CUDA(cudaMemcpyAsync(tmp.get(), colp.get(), (size_t)(ld * Bs) * sizeof(T),
                               cudaMemcpyDeviceToDevice, ms));
      if (kPaths) {
        GSP_CUDA(cudaMemcpyAsync(tmpp.get(), colpp.get(), (size_t)(ld * Bs) * sizeof(int32_t),
                                 cudaMemcpyDeviceToDevice, ms));
      }
      {
        TileParams<T> c;
        c.A = tmp.get(); c.lda = Bs;
        c.B = diag; c.ldb = ld;
        c.Cin = colp.get(); c.Cout = colp.get(); c.ldc = Bs;
        if (kPaths) { c.Bp = diagp; c.ldbp = ld; c.Pin = colpp.get(); c.Pout = colpp.get(); c.ldp = Bs; }
        c.K = (int)sb;
        c.skip_row_lo = k0t; c.skip_row_hi = k0t + sbt;
        c.row_off = 0; c.col_off = k0;
        c.flags = flags.get();
        launch_tile_product<Ops, kPaths>(c, (int)nbt, sbt, ms);
      }
      // Phase 3: stream the other row strips through kStreams buffers.
      GSP_CUDA(cudaEventRecord(ss.ready, ms));
      int used = 0;
      // Strips cover [0, k0) and [k0 + sb, ld) in chunks of Rs rows.
      for (int64_t r0 = 0; r0 < ld;) {
        if (r0 == k0) { r0 += sb; continue; }
        const int64_t rs = std::min(Rs, (r0 < k0 ? k0 : ld) - r0);
        const int64_t next_r0 = r0 + rs;
        const int q = used % kStreams;
        cudaStream_t st = ss.s[q];
        if (used < kStreams) GSP_CUDA(cudaStreamWaitEvent(st, ss.ready, 0));
        ++used;
        GSP_CUDA(cudaMemcpyAsync(strip[q].get(), H + r0 * ld, (size_t)(rs * ld) * sizeof(T),
                                 cudaMemcpyHostToDevice, st));
        if (kPaths) {
          GSP_CUDA(cudaMemcpyAsync(stripp[q].get(), HP + r0 * ld, (size_t)(rs * ld) * sizeof(int32_t),
                                   cudaMemcpyHostToDevice, st));
        }
        TileParams<T> x;
        x.A = colp.get() + r0 * Bs; x.lda = Bs;
        x.B = rowp.get(); x.ldb = ld;
        x.Cin = strip[q].get(); x.Cout = strip[q].get(); x.ldc = ld;
        if (kPaths) { x.Bp = rowpp.get(); x.ldbp = ld; x.Pin = stripp[q].get(); x.Pout = stripp[q].get(); x.ldp = ld; }
        x.K = (int)sb;
        x.skip_col_lo = k0t; x.skip_col_hi = k0t + sbt;
        x.row_off = r0; x.col_off = 0;
        x.flags = flags.get();
        launch_tile_product<Ops, kPaths>(x, (int)(rs / kTile), (int)nbt, st);
        GSP_CUDA(cudaMemcpyAsync(H + r0 * ld, strip[q].get(), (size_t)(rs * ld) * sizeof(T),
                                 cudaMemcpyDeviceToHost, st));
        if (kPaths) {
          GSP_CUDA(cudaMemcpyAsync(HP + r0 * ld, stripp[q].get(), (size_t)(rs * ld) * sizeof(int32_t),
                                   cudaMemcpyDeviceToHost, st));
        }
        r0 = next_r0;
      }
      for (int q = 0; q < kStreams && q < used; ++q) {
        GSP_CUDA(cudaEventRecord(ss.done[q], ss.s[q]));
        GSP_CUDA(cudaStreamWaitEvent(ms, ss.done[q], 0));
      }
    }
    // Panels out, after the strips (whose copies carry stale panel columns).
    GSP_CUDA(cudaMemcpyAsync(H + k0 * ld, rowp.get(), (size_t)(sb * ld) * sizeof(T),
                             cudaMemcpyDeviceToHost, ms));
    GSP_CUDA(cudaMemcpy2DAsync(H + k0, ld * sizeof(T), colp.get(), Bs * sizeof(T), sb * sizeof(T),
                               ld, cudaMemcpyDeviceToHost, ms));
    if (kPaths) {
      GSP_CUDA(cudaMemcpyAsync(HP + k0 * ld, rowpp.get(), (size_t)(sb * ld) * sizeof(int32_t),
                               cudaMemcpyDeviceToHost, ms));
      GSP_CUDA(cudaMemcpy2DAsync(HP + k0, ld * sizeof(int32_t), colpp.get(), Bs * sizeof(int32_t),
                                 sb * sizeof(int32_t), ld, cudaMemcpyDeviceToHost, ms));
    }
    job.options->report((double)(kb + 1) / (double)nsb);
  }
  check_flags(ctx, flags.get(), "CUDA Floyd-Warshall (out-of-core)");
  clock.mark(Stage::kCompute);

  // Rows from the host matrix, converted to the API representation.
  const int32_t n = job.graph->n();
  int32_t block = std::max(1, job.sink->preferred_block_rows());
  block = std::min(block, std::max(1, job.num_sources));
  std::vector<W> out_d((size_t)block * n);
  std::vector<int32_t> out_p(kPaths ? (size_t)block * n : 0);
  PredRepairScratch scratch;
  for (int32_t first = 0; first < job.num_sources; first += block) {
    const int32_t rows = std::min(block, job.num_sources - first);
    for (int32_t r = 0; r < rows; ++r) {
      const int64_t s = job.sources[first + r];
      for (int32_t j = 0; j < n; ++j) {
        const T v = H[s * ld + j];
        const bool inf = Ops::is_inf(v);
        out_d[(size_t)r * n + j] = inf ? Dist<W>::inf() : (W)v;
        if (kPaths) out_p[(size_t)r * n + j] = (inf || s == j) ? -1 : HP[s * ld + j];
      }
    }
    if (kPaths) {
      clock.mark(Stage::kCopy);
      repair_pred_block<W>(job.graph->view<W>(), job.sources + first, rows, out_d.data(), out_p.data(), scratch);
      clock.mark(Stage::kPaths);
    }
    job.sink->rows(first, rows, out_d.data(), kPaths ? out_p.data() : nullptr);
    clock.mark(Stage::kCopy);
  }
  clock.finish();
  fill_stats(ctx, job, nsb, (int64_t)n * n * n);
}

template <class Ops, class W>
void run_fw(RunContext& ctx, const ApspJob& job) {
  const int32_t n = job.graph->n();
  const bool paths = job.options->want_paths;
  const int64_t ld = round_up(std::max<int64_t>(n, 1), kTile);
  const size_t cell = sizeof(typename Ops::T) + (paths ? sizeof(int32_t) : 0);
  const int32_t block = std::max(1, std::min(job.sink->preferred_block_rows(), job.num_sources));
  const bool pass = paths && use_pred_pass<Ops>(n, job.graph->m());
  // the graph's CSR (and, for the pred pass, its reverse) on the device
  const size_t csr_fwd = (size_t)job.graph->m() * (4 + sizeof(W)) + (size_t)(n + 1) * 8;
  const size_t csr = csr_fwd * (pass ? 2 : 1);
  const int fb = fw_block_tiles(ld);
  const size_t panel_cell = pass ? sizeof(typename Ops::T) : cell;
  const size_t panel_copy = fb > 1 ? (size_t)(fb * kTile) * (size_t)ld * panel_cell : 0;
  // the matrix, the panel copy, two row blocks in flight (dense_delivery.cuh)
  // and the predecessor check's scratch
  const size_t in_core = (size_t)(ld * ld) * cell + panel_copy + 2 * (size_t)block * n * cell +
                         (paths ? (size_t)block * n * 8 + (size_t)block * 4 : 0) +
                         (size_t)job.num_sources * 4 + csr + 4096;
  const size_t budget = ctx.budget_left();
  if (in_core <= budget) {
    if (paths) fw_in_core<Ops, W, true>(ctx, job, ld, fb, pass);
    else fw_in_core<Ops, W, false>(ctx, job, ld, fb, false);
    return;
  }
  const size_t reserve = csr_fwd + 4096;  // out-of-core tracks paths in the product
  const int64_t Bs = ooc_block(ld, cell, budget > reserve ? budget - reserve : 0);
  if (Bs == 0) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY,
                "CUDA Floyd-Warshall: the device budget (" + std::to_string(budget) +
                    " bytes) holds neither the matrix nor the out-of-core working set for n = " +
                    std::to_string(n));
  }
  if (paths) fw_out_of_core<Ops, W, true>(ctx, job, ld, Bs);
  else fw_out_of_core<Ops, W, false>(ctx, job, ld, Bs);
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
