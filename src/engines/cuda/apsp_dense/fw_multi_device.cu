// GSP_APSP_FLOYD_WARSHALL over all sources on several CUDA devices of one
// process (gsp_options::num_devices; doc/multi-gpu.md).
//
// Layout: the ld x ld matrix is cut into row panels of Bs rows (Bs = the
// one-device engine's k-block), and each device holds a band of consecutive
// panels, all ld columns: R_g x ld distances (and predecessors), nothing
// else of the matrix. Per k-step kb (panel kb = rows and columns k0 .. k0 +
// sb), with o the device that holds panel kb:
//   1. o closes the diagonal block and updates its panel's rows by it
//      (phases 1 and 2 of the blocked algorithm, the one-device kernels);
//   2. every other device copies panel kb (sb x ld, contiguous on o) into a
//      receive buffer, device to device (NVLink where the devices have it);
//   3. every device updates its rows' columns of panel kb by the diagonal
//      block (phase 2, columns), then all its other cells with one min-plus
//      product of its column panel by the row panel (phase 3).
// So the work splits evenly (each device does R_g / ld of every step) and a
// step moves sb x ld cells to each other device: n^2 cells a device per run
// against n^3 / G relaxations.
//
// Lookahead, as in the one-device engine (apsp_floyd_warshall.cu): phase 3
// of step kb is cut into the cells step kb + 1 needs first ("strips": the
// columns of panel kb + 1 on every device, and the rows of panel kb + 1 on
// its holder), run on a high-priority stream, and the rest ("bulk") on a
// low-priority one. Step kb + 1's phases 1-2, the panel's copy and its
// column update run on the high-priority streams while the bulk of kb still
// fills every device. Why it is safe: the bulk of kb reads only the column
// panel kb of its rows and panel kb's rows, and writes no cell of panel kb
// or kb + 1 (rows or columns); the strips of kb + 1 wait for the bulk of
// kb, which wrote them last; a receive buffer is written again (two steps
// later) only after the bulk that read it; and a panel's rows on its holder
// change again (step kb + 1's column update) only after every other device
// copied them.
//
// All work is queued from the calling thread (one device after the other,
// each with its own streams), at most two steps ahead of the devices, so
// that progress reports and cancellation follow the devices. The rows go to
// the caller from every device at once (one thread each), in order
// (core/row_merger.h).
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/first_error.h"
#include "core/host_task.h"
#include "core/row_merger.h"
#include "runtime/engines.cuh"
#include "apsp_dense/dense_delivery.cuh"
#include "apsp_dense/fw_blocked.cuh"
#include "apsp_dense/minplus_tile.cuh"
#include "apsp_dense/pred_pass.cuh"

namespace gsp::detail::gpu {
namespace {

using namespace dense;

// Panels: the k-block of the one-device engine (8 tiles from ld = 16384 on,
// else 4), smaller where that would leave fewer than two panels a device.
int64_t panel_edge(int64_t ld, int devices) {
  const int64_t tiles = ld / kTile;
  int64_t fb = ld >= 16384 ? 8 : 4;
  fb = std::min(fb, std::max<int64_t>(1, tiles / (2 * int64_t(devices))));
  return fb * kTile;
}

// Which device holds which panels: consecutive bands, as even as the
// panels allow.
struct Bands {
  int64_t ld = 0, bs = 0, panels = 0;
  int devices = 0;
  std::vector<int64_t> first;  // first panel of each device, and `panels` at the end

  Bands(int64_t ld_, int64_t bs_, int devices_) : ld(ld_), bs(bs_), panels((ld_ + bs_ - 1) / bs_) {
    devices = static_cast<int>(std::min<int64_t>(devices_, panels));
    for (int g = 0; g <= devices; ++g) first.push_back(panels * g / devices);
  }
  int owner(int64_t kb) const {
    return static_cast<int>(std::upper_bound(first.begin(), first.end(), kb) - first.begin()) - 1;
  }
  int64_t k0(int64_t kb) const { return kb * bs; }
  int64_t size(int64_t kb) const { return std::min(bs, ld - kb * bs); }
  int64_t row0(int g) const { return first[static_cast<size_t>(g)] * bs; }
  int64_t rows(int g) const { return std::min(first[static_cast<size_t>(g) + 1] * bs, ld) - row0(g); }
};

// Two streams (high and low priority) and the events of the steps, each
// kind kept for two steps at a time (index kb & 1).
struct Lanes {
  int device = 0;
  cudaStream_t crit = nullptr, bulk = nullptr;
  cudaEvent_t panel[2] = {}, pulled[2] = {}, p2[2] = {}, bulked[2] = {}, done[2] = {};

  explicit Lanes(int dev) : device(dev) {
    int least = 0, greatest = 0;
    GSP_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&crit, cudaStreamNonBlocking, greatest));
    GSP_CUDA(cudaStreamCreateWithPriority(&bulk, cudaStreamNonBlocking, least));
    for (cudaEvent_t* set : {panel, pulled, p2, bulked, done}) {
      for (int i = 0; i < 2; ++i) GSP_CUDA(cudaEventCreateWithFlags(&set[i], cudaEventDisableTiming));
    }
  }
  ~Lanes() {
    cudaSetDevice(device);
    for (cudaStream_t s : {crit, bulk}) {
      if (s != nullptr) {
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
      }
    }
    for (cudaEvent_t* set : {panel, pulled, p2, bulked, done}) {
      for (int i = 0; i < 2; ++i) {
        if (set[i] != nullptr) cudaEventDestroy(set[i]);
      }
    }
    (void)cudaGetLastError();
  }
  Lanes(const Lanes&) = delete;
  Lanes& operator=(const Lanes&) = delete;
};

// One device's share: its run context, its band of rows, the receive
// buffers of the panels it does not hold, and the copies phase 2 reads.
template <class T>
struct Band {
  RunOptions options;  // the run's, with this device (the context keeps a reference)
  RunStats stats;
  std::unique_ptr<RunContext> ctx;
  int index = 0;
  int64_t row0 = 0, rows = 0;
  DeviceBuffer<T> d, row_copy, col_copy, col_panel[2], recv[2];
  DeviceBuffer<int32_t> p, row_copy_p, recv_p[2];
  DeviceBuffer<int> flags;
  std::unique_ptr<Lanes> lanes;

  ~Band() {
    // Queued work first, then the buffers (freed on this device).
    if (ctx) cudaSetDevice(ctx->device());
    lanes.reset();
  }
};

std::string on_device(int device, const std::string& what) { return "device " + std::to_string(device) + ": " + what; }

template <class Ops, class W, bool kTrack>
class MultiDeviceFw {
 public:
  using T = typename Ops::T;

  // kTrack: predecessors tracked in the products; else, with paths, set
  // by the predecessor pass on each band after the last step (pred_pass.cuh).
  MultiDeviceFw(const ApspJob& job, const Bands& bands)
      : job_(job), b_(bands), paths_(job.options->want_paths), bands_(bands.devices) {}

  void run() {
    StageLaps laps(job_.stats);
    // The result's host memory (the first time at this size) is allocated
    // and faulted in on a host thread while the devices compute, and
    // page-locked only after the steps: page-locking beside the steps held
    // the driver while this thread queued them and slowed the devices'
    // products (n = 65536 on 4 H100s: 12-18 s instead of 5). It starts after
    // the devices' set-up: faulting 16 GB in with MADV_POPULATE_WRITE beside
    // it held their allocations back (set-up 2.2 s instead of 0.05 s at
    // n = 65536); writing the pages, as now, did not in a probe, but nothing
    // is lost by the order.
    RowMerger merger(job_.sink, job_.num_sources, job_.graph->n(), job_.graph->dtype(), part_starts());
    set_up();
    HostTask prepare([&merger] { merger.part(0)->prepare_destination(0); });
    laps.lap(Stage::kSetup);
    steps();
    for (auto& band : bands_) {
      GSP_CUDA(cudaSetDevice(band->ctx->device()));
      check_flags(*band->ctx, band->flags.get(), "CUDA Floyd-Warshall (several devices)");
    }
    laps.lap(Stage::kCompute);
    if (paths_ && !kTrack) {
      for (auto& band : bands_) {
        use(*band);
        pred_pass<Ops, W>(*band->ctx, *job_.graph, band->d.get(), band->p.get(), b_.ld, band->ctx->stream(), band->rows,
                          band->row0);
      }
      for (auto& band : bands_) band->ctx->sync();
      laps.lap(Stage::kPaths);
    }
    prepare.join();
    {
      RowSink::Destination dst;  // locks the result's memory now
      merger.part(0)->destination(&dst);
    }
    deliver(merger);
    laps.lap(Stage::kCopy);
    fill_stats();
  }

 private:
  std::vector<int32_t> part_starts() const {
    std::vector<int32_t> starts;
    for (int g = 0; g < b_.devices; ++g) starts.push_back(static_cast<int32_t>(b_.row0(g)));
    return starts;
  }

  // Every device at once (its context's start, the first time in a process,
  // takes a good part of a second): context, buffers, initial rows.
  void set_up() {
    FirstError first;
    std::vector<std::thread> threads;
    first.guard(
        [&] {
          for (int g = 0; g < b_.devices; ++g) {
            bands_[static_cast<size_t>(g)] = std::make_unique<Band<T>>();
            threads.emplace_back([this, g, &first] { first.guard([&] { set_up_device(g); }, [] {}); });
          }
        },
        [] {});
    for (std::thread& t : threads) t.join();
    if (first.failed()) first.rethrow();
    for (int g = 0; g < b_.devices; ++g) {
      for (int h = 0; h < b_.devices; ++h) {
        if (g != h) enable_peer_access(device(g), device(h));
      }
    }
  }

  int device(int g) const { return job_.options->device + g; }

  void set_up_device(int g) {
    Band<T>& band = *bands_[static_cast<size_t>(g)];
    band.options = *job_.options;
    band.options.device = device(g);
    band.options.num_devices = 1;
    band.index = g;
    band.row0 = b_.row0(g);
    band.rows = b_.rows(g);
    try {
      band.ctx = std::make_unique<RunContext>(band.options, &band.stats);
      if (band.options.test_fail_device == band.options.device) {
        throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "out of device memory (GSP_TEST_FAIL_DEVICE)");
      }
      RunContext& ctx = *band.ctx;
      const size_t band_cells = static_cast<size_t>(band.rows) * static_cast<size_t>(b_.ld);
      const size_t panel_cells = static_cast<size_t>(b_.bs) * static_cast<size_t>(b_.ld);
      band.d.allocate(ctx, band_cells, "Floyd-Warshall band of rows");
      if (paths_) band.p.allocate(ctx, band_cells, "Floyd-Warshall band of rows (predecessors)");
      band.row_copy.allocate(ctx, panel_cells, "Floyd-Warshall row panel copy");
      if (kTrack) band.row_copy_p.allocate(ctx, panel_cells, "Floyd-Warshall row panel copy (predecessors)");
      const size_t col_cells = static_cast<size_t>(band.rows) * static_cast<size_t>(b_.bs);
      band.col_copy.allocate(ctx, col_cells, "Floyd-Warshall column panel copy");
      for (int i = 0; i < 2; ++i) band.col_panel[i].allocate(ctx, col_cells, "Floyd-Warshall column panel");
      for (int i = 0; i < 2; ++i) {
        band.recv[i].allocate(ctx, panel_cells, "Floyd-Warshall received panel");
        if (kTrack) band.recv_p[i].allocate(ctx, panel_cells, "Floyd-Warshall received panel (predecessors)");
      }
      band.flags.allocate(ctx, 1, "Floyd-Warshall flags");
      band.lanes = std::make_unique<Lanes>(ctx.device());
      GSP_CUDA(cudaMemsetAsync(band.flags.get(), 0, sizeof(int), ctx.stream()));
      const DeviceCsr<W> csr = device_graph<W>(ctx, *job_.graph);
      build_rows_device<Ops, W>(ctx, csr, band.d.get(), kTrack ? band.p.get() : nullptr, b_.ld, band.row0, band.rows,
                                ctx.stream());
      ctx.sync();
    } catch (const Error& e) {
      throw Error(e.status(), on_device(band.options.device, e.message()));
    }
  }

  void use(const Band<T>& band) const { GSP_CUDA(cudaSetDevice(band.ctx->device())); }

  // Panel kb's rows as device g reads them: its own rows, or the copy.
  T* panel_d(const Band<T>& band, int64_t kb) const {
    if (b_.owner(kb) == band.index) return band.d.get() + (b_.k0(kb) - band.row0) * b_.ld;
    return band.recv[kb & 1].get();
  }
  int32_t* panel_p(const Band<T>& band, int64_t kb) const {
    if (!kTrack) return nullptr;
    if (b_.owner(kb) == band.index) return band.p.get() + (b_.k0(kb) - band.row0) * b_.ld;
    return band.recv_p[kb & 1].get();
  }
  int tiles(int64_t x) const { return static_cast<int>(x / kTile); }

  // Phases 1 and 2 (rows) of panel kb on its holder, then the panel is ready.
  void close_panel(Band<T>& band, int64_t kb) {
    const int64_t k0 = b_.k0(kb), sb = b_.size(kb), ld = b_.ld;
    const int64_t local = k0 - band.row0;
    cudaStream_t s = band.lanes->crit;
    T* rows = band.d.get() + local * ld;
    int32_t* rows_p = kTrack ? band.p.get() + local * ld : nullptr;
    fw_blocked<Ops, kTrack>(rows + k0, kTrack ? rows_p + k0 : nullptr, ld, tiles(sb), band.flags.get(), s, nullptr, 0,
                            0);
    GSP_CUDA(cudaMemcpyAsync(band.row_copy.get(), rows, static_cast<size_t>(sb * ld) * sizeof(T),
                             cudaMemcpyDeviceToDevice, s));
    if (kTrack) {
      GSP_CUDA(cudaMemcpyAsync(band.row_copy_p.get(), rows_p, static_cast<size_t>(sb * ld) * sizeof(int32_t),
                               cudaMemcpyDeviceToDevice, s));
    }
    TileParams<T> r;
    r.A = rows + k0;
    r.lda = ld;
    r.B = band.row_copy.get();
    r.ldb = ld;
    r.Cin = rows;
    r.Cout = rows;
    r.ldc = ld;
    if (kTrack) {
      r.Bp = band.row_copy_p.get();
      r.ldbp = ld;
      r.Pin = rows_p;
      r.Pout = rows_p;
      r.ldp = ld;
    }
    r.K = static_cast<int>(sb);
    r.skip_col_lo = tiles(k0);
    r.skip_col_hi = tiles(k0 + sb);
    r.row_off = k0;
    r.col_off = 0;
    r.flags = band.flags.get();
    launch_tile_product<Ops, kTrack>(r, tiles(sb), tiles(ld), s);
    GSP_CUDA(cudaEventRecord(band.lanes->panel[kb & 1], s));
  }

  // Device `band` copies panel kb from its holder.
  void pull_panel(Band<T>& band, int64_t kb) {
    const Band<T>& holder = *bands_[static_cast<size_t>(b_.owner(kb))];
    const int64_t sb = b_.size(kb), ld = b_.ld;
    const int64_t local = b_.k0(kb) - holder.row0;
    cudaStream_t s = band.lanes->crit;
    GSP_CUDA(cudaStreamWaitEvent(s, holder.lanes->panel[kb & 1], 0));
    GSP_CUDA(cudaMemcpyPeerAsync(band.recv[kb & 1].get(), band.ctx->device(), holder.d.get() + local * ld,
                                 holder.ctx->device(), static_cast<size_t>(sb * ld) * sizeof(T), s));
    if (kTrack) {
      GSP_CUDA(cudaMemcpyPeerAsync(band.recv_p[kb & 1].get(), band.ctx->device(), holder.p.get() + local * ld,
                                   holder.ctx->device(), static_cast<size_t>(sb * ld) * sizeof(int32_t), s));
    }
    GSP_CUDA(cudaEventRecord(band.lanes->pulled[kb & 1], s));
  }

  // Phase 2, columns: the band's cells in panel kb's columns by the closed
  // diagonal block (the holder's panel rows were done in close_panel).
  void update_columns(Band<T>& band, int64_t kb) {
    const int64_t k0 = b_.k0(kb), sb = b_.size(kb), ld = b_.ld;
    cudaStream_t s = band.lanes->crit;
    GSP_CUDA(cudaMemcpy2DAsync(band.col_copy.get(), b_.bs * sizeof(T), band.d.get() + k0, ld * sizeof(T),
                               sb * sizeof(T), band.rows, cudaMemcpyDeviceToDevice, s));
    TileParams<T> c;
    c.A = band.col_copy.get();
    c.lda = b_.bs;
    c.B = panel_d(band, kb) + k0;
    c.ldb = ld;
    c.Cout = band.d.get() + k0;
    c.Cin = c.Cout;
    c.ldc = ld;
    if (kTrack) {
      c.Bp = panel_p(band, kb) + k0;
      c.ldbp = ld;
      c.Pin = band.p.get() + k0;
      c.Pout = band.p.get() + k0;
      c.ldp = ld;
    }
    c.K = static_cast<int>(sb);
    if (b_.owner(kb) == band.index) {
      c.skip_row_lo = tiles(k0 - band.row0);
      c.skip_row_hi = tiles(k0 - band.row0 + sb);
    }
    c.row_off = band.row0;
    c.col_off = k0;
    c.flags = band.flags.get();
    launch_tile_product<Ops, kTrack>(c, tiles(band.rows), tiles(sb), s);
    // Phase 3's left operand, packed (rows Bs apart instead of ld): its
    // tiles' rows then span few pages, where ld apart (n = 65536: 256 KiB)
    // each 128-row tile spans 32 MiB.
    GSP_CUDA(cudaMemcpy2DAsync(band.col_panel[kb & 1].get(), b_.bs * sizeof(T), band.d.get() + k0, ld * sizeof(T),
                               sb * sizeof(T), band.rows, cudaMemcpyDeviceToDevice, s));
    GSP_CUDA(cudaEventRecord(band.lanes->p2[kb & 1], s));
  }

  // Phase 3 of step kb on a sub-grid of the band: rows [r0, r0 + rt tiles)
  // (band-local), columns [c0, c0 + ct tiles), skipping the tile rows
  // [srl, srh) and columns [scl, sch) of that grid.
  void update(Band<T>& band, int64_t kb, int64_t r0, int64_t c0, int rt, int ct, int srl, int srh, int scl, int sch,
              cudaStream_t s) {
    const int64_t k0 = b_.k0(kb), ld = b_.ld;
    TileParams<T> x;
    x.A = band.col_panel[kb & 1].get() + r0 * b_.bs;
    x.lda = b_.bs;
    x.B = panel_d(band, kb) + c0;
    x.ldb = ld;
    x.Cout = band.d.get() + r0 * ld + c0;
    x.Cin = x.Cout;
    x.ldc = ld;
    if (kTrack) {
      x.Bp = panel_p(band, kb) + c0;
      x.ldbp = ld;
      x.Pout = band.p.get() + r0 * ld + c0;
      x.Pin = x.Pout;
      x.ldp = ld;
    }
    x.K = static_cast<int>(b_.size(kb));
    x.skip_row_lo = srl;
    x.skip_row_hi = srh;
    x.skip_col_lo = scl;
    x.skip_col_hi = sch;
    x.row_off = band.row0 + r0;
    x.col_off = c0;
    x.flags = band.flags.get();
    launch_tile_product<Ops, kTrack>(x, rt, ct, s);
  }

  // The band's rows of panels [from, to) (band-local tile rows), or an
  // empty range.
  void held_rows(const Band<T>& band, int64_t from, int64_t to, int* lo, int* hi) const {
    *lo = *hi = 0;
    for (int64_t kb = from; kb < to && kb < b_.panels; ++kb) {
      if (b_.owner(kb) != band.index) continue;
      const int t0 = tiles(b_.k0(kb) - band.row0), t1 = tiles(b_.k0(kb) - band.row0 + b_.size(kb));
      if (*lo == *hi) {
        *lo = t0;
        *hi = t1;
      } else {
        *lo = std::min(*lo, t0);
        *hi = std::max(*hi, t1);
      }
    }
  }

  // Step kb's bulk: every cell outside panels kb and kb + 1.
  void bulk(Band<T>& band, int64_t kb) {
    Lanes& l = *band.lanes;
    GSP_CUDA(cudaStreamWaitEvent(l.bulk, l.p2[kb & 1], 0));
    const int64_t k0 = b_.k0(kb);
    const int64_t k_end = kb + 1 < b_.panels ? b_.k0(kb + 1) + b_.size(kb + 1) : k0 + b_.size(kb);
    int srl = 0, srh = 0;
    held_rows(band, kb, kb + 2, &srl, &srh);
    update(band, kb, 0, 0, tiles(band.rows), tiles(b_.ld), srl, srh, tiles(k0), tiles(k_end), l.bulk);
    GSP_CUDA(cudaEventRecord(l.bulked[kb & 1], l.bulk));
  }

  // Step kb's strips: the band's cells in panel kb + 1's columns, and on
  // panel kb + 1's holder its rows; after the bulk of kb - 1.
  void strips(Band<T>& band, int64_t kb) {
    Lanes& l = *band.lanes;
    if (kb > 0) GSP_CUDA(cudaStreamWaitEvent(l.crit, l.bulked[(kb - 1) & 1], 0));
    const int64_t k0 = b_.k0(kb), k1 = b_.k0(kb + 1), s1 = b_.size(kb + 1);
    int srl = 0, srh = 0;
    held_rows(band, kb, kb + 1, &srl, &srh);
    update(band, kb, 0, k1, tiles(band.rows), tiles(s1), srl, srh, 0, 0, l.crit);
    if (b_.owner(kb + 1) == band.index) {
      const int64_t r1 = k1 - band.row0;
      update(band, kb, r1, 0, tiles(s1), tiles(b_.ld), 0, 0, tiles(k0), tiles(k1 + s1), l.crit);
    }
  }

  // The k-steps, queued device by device (see the top of the file).
  void steps() {
    const int64_t panels = b_.panels;
    // Step 0's panel.
    Band<T>& h0 = *bands_[static_cast<size_t>(b_.owner(0))];
    use(h0);
    close_panel(h0, 0);
    for (auto& band : bands_) {
      use(*band);
      if (b_.owner(0) != band->index) pull_panel(*band, 0);
      update_columns(*band, 0);
    }
    for (int64_t kb = 0; kb < panels; ++kb) {
      // At most two steps queued ahead of the devices: progress and
      // cancellation follow them.
      if (kb >= 2) {
        for (auto& band : bands_) GSP_CUDA(cudaEventSynchronize(band->lanes->bulked[kb & 1]));
        job_.options->report(static_cast<double>(kb - 1) / static_cast<double>(panels));
      }
      for (auto& band : bands_) {
        use(*band);
        bulk(*band, kb);
      }
      if (kb + 1 == panels) break;
      for (auto& band : bands_) {
        use(*band);
        strips(*band, kb);
      }
      Band<T>& holder = *bands_[static_cast<size_t>(b_.owner(kb + 1))];
      use(holder);
      close_panel(holder, kb + 1);
      for (auto& band : bands_) {
        if (band->index == holder.index) continue;
        use(*band);
        pull_panel(*band, kb + 1);
      }
      const int o = b_.owner(kb);
      for (auto& band : bands_) {
        use(*band);
        // Panel kb's rows change from here on: after every copy of them.
        if (band->index == o) {
          for (auto& other : bands_) {
            if (other->index != o) GSP_CUDA(cudaStreamWaitEvent(band->lanes->crit, other->lanes->pulled[kb & 1], 0));
          }
        }
        update_columns(*band, kb + 1);
      }
    }
    // Each context's stream goes on after both lanes.
    for (auto& band : bands_) {
      use(*band);
      Lanes& l = *band->lanes;
      GSP_CUDA(cudaEventRecord(l.done[0], l.crit));
      GSP_CUDA(cudaEventRecord(l.done[1], l.bulk));
      GSP_CUDA(cudaStreamWaitEvent(band->ctx->stream(), l.done[0], 0));
      GSP_CUDA(cudaStreamWaitEvent(band->ctx->stream(), l.done[1], 0));
    }
  }

  // Each device hands its rows over on its own thread, in order overall;
  // streamed rows reach the sink on this (the caller's) thread.
  void deliver(RowMerger& merger) {
    merger.run_beside(
        b_.devices,
        [&](int g) {
          Band<T>& band = *bands_[static_cast<size_t>(g)];
          use(band);
          ApspJob rows = job_;
          rows.sources = job_.sources + merger.part_begin(g);
          rows.num_sources = merger.part_rows(g);
          rows.all_sources = false;
          rows.sink = merger.part(g);
          rows.num_devices = 1;
          deliver_rows_device<Ops, W>(*band.ctx, rows, band.d.get(), paths_ ? band.p.get() : nullptr, b_.ld, paths_,
                                      nullptr, nullptr, band.row0);
        },
        [] {}, [] {});
  }

  void fill_stats() {
    if (job_.stats == nullptr) return;
    RunStats& s = *job_.stats;
    const Band<T>& first = *bands_.front();
    s.backend = GSP_BACKEND_CUDA;
    s.algorithm = job_.algorithm;
    s.device = first.ctx->device();
    s.num_devices = b_.devices;
    s.device_name = devices_label(device(0), b_.devices, first.ctx->props().name);
    s.iterations = b_.panels;
    const int64_t n = job_.graph->n();
    s.relaxations = n * n * n;
    for (const auto& band : bands_) s.upload_seconds += band->stats.upload_seconds;
  }

  const ApspJob& job_;
  const Bands& b_;
  const bool paths_;
  std::vector<std::unique_ptr<Band<T>>> bands_;
};

}  // namespace

void apsp_floyd_warshall_multi(const ApspJob& job) {
  // The caller's current device again at the end (this thread switches
  // between the devices).
  struct RestoreDevice {
    int device = 0;
    RestoreDevice() { (void)cudaGetDevice(&device); }
    ~RestoreDevice() {
      (void)cudaSetDevice(device);
      (void)cudaGetLastError();
    }
  } restore;
  const int32_t n = job.graph->n();
  const int64_t ld = round_up(std::max<int64_t>(n, 1), kTile);
  const Bands bands(ld, panel_edge(ld, job.num_devices), job.num_devices);
  if (bands.devices <= 1) {
    RunContext ctx(*job.options, job.stats);
    apsp_floyd_warshall(ctx, job);
    ctx.sync();
    return;
  }
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    dense::with_ops(*job.graph, [&](auto ops) {
      using Ops = decltype(ops);
      if constexpr (std::is_same_v<typename Ops::T, W>) {
        // Predecessors as on one device: tracked by the packed int32
        // kernel, else by a pass after the distances (pred_pass.cuh).
        if (job.options->want_paths && !use_pred_pass<Ops>(n, job.graph->m(), *job.options)) {
          MultiDeviceFw<Ops, W, true>(job, bands).run();
        } else {
          MultiDeviceFw<Ops, W, false>(job, bands).run();
        }
      }
    });
  });
}

}  // namespace gsp::detail::gpu
