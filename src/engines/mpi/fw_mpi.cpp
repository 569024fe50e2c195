// Distributed blocked Floyd-Warshall over a pr x pc grid of MPI ranks (seed
// 004, in the blocked form). Per block k-step K:
//   1. the owner of block (K,K) closes it (Floyd-Warshall inside the block);
//   2. it is broadcast along grid row K mod pr and grid column K mod pc, whose
//      ranks update their blocks of block row K and block column K;
//   3. block row K goes down every grid column (with its predecessors) and
//      block column K across every grid row, and every rank updates all its
//      other blocks with one min-plus tile product each.
// Then every rank checks its diagonal and overflow flags and the ranks agree
// (comm.h), so an error anywhere ends the step on every rank.
//
// Where every rank computes on a device of its own, the device path runs
// the steps instead (BlockFw::connect / run_steps; for CUDA,
// src/engines/cuda/apsp_dense/block_fw.cu): panels from device to device
// (NCCL), the next step overlapped with this one's bulk, flags checked two
// steps late, failures told to the other ranks by message (rank_grid.h) and
// agreed once at the end. GSP_MPI_TRANSPORT (core/tuning.h) forces
// either path.
#include "engines/mpi/fw_mpi.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

#include "core/block_fw.h"
#include "core/host_memory.h"
#include "core/host_task.h"
#include "core/gpu_backend.h"
#include "core/tuning.h"
#include "engines/cpu/apsp_dense/block_fw_cpu.h"
#include "engines/mpi/fw_mpi_preds.h"
#include "engines/mpi/fw_mpi_util.h"
#include "engines/mpi/rank_grid.h"

namespace gsp::detail::mpi {
namespace {

// Testing hooks (doc/mpi.md), compiled into test builds only (GSP_TEST_HOOKS):
// GSP_MPI_TEST_FAIL_RANK=r makes rank r fail to allocate its blocks, as if
// out of memory; with GSP_MPI_TEST_FAIL_STEP=k it fails after k-step k
// instead (GSP_ERR_DEVICE), while the others compute.
void maybe_inject_failure([[maybe_unused]] int rank) {
#if defined(GSP_TEST_HOOKS)
  const Tuning t = tuning();
  if (t.mpi_test_fail_rank == rank && !t.mpi_test_fail_step) throw std::bad_alloc();
#endif
}
void maybe_fail_at_step([[maybe_unused]] int rank, [[maybe_unused]] int32_t done) {
#if defined(GSP_TEST_HOOKS)
  const Tuning t = tuning();
  if (t.mpi_test_fail_rank == rank && t.mpi_test_fail_step == done) {
    throw Error(GSP_ERR_DEVICE, "test hook: rank " + std::to_string(rank) + " fails after k-step " +
                                    std::to_string(done));
  }
#endif
}

// GSP_MPI_BLOCK_SIZE (core/tuning.h): a value that is set but not a block
// size, or (on GPU ranks) not a multiple of the device granule, fails the
// call rather than silently picking another layout.
int32_t block_size_from_env(int32_t n, int pr, int pc, bool gpu) {
  const Tuning t = tuning();
  require(t.mpi_block_size_rejected.empty(), GSP_ERR_INVALID_ARGUMENT,
          "GSP_MPI_BLOCK_SIZE=" + t.mpi_block_size_rejected + " is not a block size in [1, 2048]");
  if (const std::optional<int32_t> v = t.mpi_block_size) {
    require(!gpu || *v % gpu::kBlockFwGranule == 0, GSP_ERR_INVALID_ARGUMENT,
            "GSP_MPI_BLOCK_SIZE=" + std::to_string(*v) + ": ranks computing on a GPU need a multiple of " +
                std::to_string(gpu::kBlockFwGranule));
    return *v;
  }
  return gpu ? default_gpu_block_size(n, pr, pc) : default_block_size(n, pr, pc);
}

BlockFwShape shape_of(const Layout& L, bool want) {
  BlockFwShape sh;
  sh.n = L.n;
  sh.b = L.b;
  sh.nlr = L.nlr;
  sh.nlc = L.nlc;
  sh.grid_rows = L.pr;
  sh.grid_cols = L.pc;
  sh.my_row = L.myrow;
  sh.my_col = L.mycol;
  sh.paths = want;
  return sh;
}

// gsp_options::limit on this rank's cells (its local store, or the n x n
// rows on one rank): distances beyond it become unreachable, predecessor
// -1. The weights are non-negative (checked on rank 0), so the predecessor
// chains of the cells kept stay whole.
template <class W>
void cut_to_limit(W* D, int32_t* P, int64_t cells, double limit, cpu::Team& team) {
  const int64_t chunk = int64_t(1) << 16;
  for_each(team, (cells + chunk - 1) / chunk, [&](int64_t c) {
    const int64_t end = std::min(cells, (c + 1) * chunk);
    for (int64_t i = c * chunk; i < end; ++i) {
      if (D[i] != Dist<W>::inf() && static_cast<double>(D[i]) > limit) {
        D[i] = Dist<W>::inf();
        if (P != nullptr) P[i] = -1;
      }
    }
  });
}

// The k-steps with panels through host memory, each phase driven from
// here (the module comment): works between any ranks.
template <class W>
void host_ksteps(const Session& s, const Layout& L, bool want, const RunOptions& ro, BlockFw<W>& fw,
                 StageTimes* times) {
  // The k-steps. Local work runs under capture() so that a failure never
  // skips a broadcast (no rank hangs); the ranks agree at the end of each
  // step. A buffer that could not be prepared is replaced by the receive
  // buffer of the same size (its content no longer matters then).
  // Each rank counts where its k-steps' time goes (its own work vs.
  // broadcasts and agreement, which include waiting for the others), for
  // GSP_MPI_TRACE=1.
  const bool root = s.rank() == 0;
  const int64_t bb = L.bb();
  const bool track = want && fw.tracks_paths();  // predecessors travel with the panels
  s.agree(capture([&] { fw.prepare_host_steps(); }));
  double local_s = 0, comm_s = 0;
  for (int32_t K = 0; K < L.nb; ++K) {
    const int rK = K % L.pr, cK = K % L.pc;
    const bool in_row = L.myrow == rK, in_col = L.mycol == cK;
    const int32_t lkr = in_row ? K / L.pr : -1;  // local block row / column of K where owned
    const int32_t lkc = in_col ? K / L.pc : -1;
    Outcome step;
    auto local = [&](auto&& f) {
      const double t = MPI_Wtime();
      step.merge(capture(f));
      local_s += MPI_Wtime() - t;
    };
    auto comm = [&](auto&& f) {
      const double t = MPI_Wtime();
      f();
      comm_s += MPI_Wtime() - t;
    };

    // Phase 1: the owner closes the diagonal block.
    local([&] {
      fw.begin_step(K);
      if (in_row && in_col) fw.close_diagonal(lkr, lkc);
    });
    // Phase 2: it goes along its grid row and column (with predecessors down
    // the column, for the column panel's update), which update block row K
    // and block column K.
    if (in_row) comm([&] { bcast(fw.diag_d(), bb, cK, s.row_comm()); });
    if (in_col) {
      comm([&] {
        bcast(fw.diag_d(), bb, rK, s.col_comm());
        if (track) bcast(fw.diag_p(), bb, rK, s.col_comm());
      });
    }
    local([&] {
      if (in_row != in_col) fw.diag_received(in_col);
      fw.update_panels(lkr, lkc);
    });

    // Phase 3: block row K down the grid columns, block column K across the
    // grid rows; every rank updates all its other blocks.
    W* rd = nullptr;
    int32_t* rp = nullptr;
    local([&] {
      rd = fw.row_d(lkr);
      rp = fw.row_p(lkr);
    });
    if (rd == nullptr || (track && rp == nullptr)) {
      rd = fw.row_d(-1);
      rp = fw.row_p(-1);
    }
    comm([&] {
      bcast(rd, L.nlc * bb, rK, s.col_comm());
      if (track) bcast(rp, L.nlc * bb, rK, s.col_comm());
    });
    W* cd = nullptr;
    local([&] { cd = fw.col_d(lkc); });
    if (cd == nullptr) cd = fw.col_d(-1);
    comm([&] { bcast(cd, L.nlr * bb, cK, s.row_comm()); });
    local([&] {
      if (!in_row) fw.row_received();
      if (!in_col) fw.col_received();
      fw.update_rest(lkr, lkc);
    });

    local([&] {
      fw.end_step();
      maybe_fail_at_step(s.rank(), K + 1);
      if (root) ro.report(0.9 * static_cast<double>(K + 1) / static_cast<double>(L.nb));
    });
    comm([&] { s.agree(step); });
  }
  times->local = local_s;
  times->comm = comm_s;
}

// Whether the k-steps take the device path (collective; the same answer on
// every rank): every rank on a device of its own, and the devices joined
// (BlockFw::connect). *transport says how the panels move, *why_not why
// the device path was not taken (empty where no rank has a device).
// GSP_MPI_TRANSPORT=device makes a call that cannot take it fail instead;
// =host never tries.
template <class W>
bool use_device_path(const Session& s, const LocalEngine& engine, BlockFw<W>& fw, std::string* transport,
                     std::string* why_not) {
  const MpiTransport asked = tuning().mpi_transport;
  *transport = "host-staged panels";
  if (asked == MpiTransport::kHost) {
    *why_not = "GSP_MPI_TRANSPORT=host";
    return false;
  }
  std::string why;
  bool joined = false;
  s.agree(capture([&] {
    // Devices by identity: two ranks on one device cannot join a group.
    constexpr int kId = 16;
    std::string mine = engine.gpu ? fw.device_identity() : std::string();
    mine.resize(kId, '\0');
    std::vector<char> ids(static_cast<size_t>(s.size()) * kId);
    mpi_check(MPI_Allgather(mine.data(), kId, MPI_CHAR, ids.data(), kId, MPI_CHAR, s.comm()), "MPI_Allgather");
    int gpu = engine.gpu ? 1 : 0, all_gpu = 0;
    mpi_check(MPI_Allreduce(&gpu, &all_gpu, 1, MPI_INT, MPI_LAND, s.comm()), "MPI_Allreduce");
    bool distinct = true;
    for (int a = 0; a < s.size() && distinct; ++a) {
      for (int b = a + 1; b < s.size() && distinct; ++b) {
        distinct = !std::equal(ids.begin() + a * kId, ids.begin() + (a + 1) * kId, ids.begin() + b * kId);
      }
    }
    if (all_gpu == 0) {
      why = "";  // CPU ranks: the host path is the only one
    } else if (!distinct) {
      why = "ranks share a device";
    } else {
      MpiRankGrid grid(s, [](int32_t, int32_t) {});
      joined = fw.connect(grid, &why);
    }
  }));
  if (joined) {
    *transport = fw.transport();
    return true;
  }
  *why_not = asked == MpiTransport::kHost ? "GSP_MPI_TRANSPORT=host" : why;
  s.agree(capture([&] {
    require(asked != MpiTransport::kDevice, GSP_ERR_UNSUPPORTED,
            "GSP_MPI_TRANSPORT=device, but the device path cannot run: " +
                (why.empty() ? std::string("a rank computes on its CPU") : why));
  }));
  return false;
}

// The k-steps on the device path (BlockFw::run_steps), then one agreement:
// the failure of any rank, told by message while the devices ran, is every
// rank's status.
template <class W>
void device_ksteps(const Session& s, const RunOptions& ro, BlockFw<W>& fw) {
  const bool root = s.rank() == 0;
  MpiRankGrid grid(s, [&](int32_t done, int32_t steps) {
    maybe_fail_at_step(s.rank(), done);
    if (root) ro.report(0.9 * static_cast<double>(done) / static_cast<double>(steps));
  });
  const Outcome mine = capture([&] { fw.run_steps(grid); });
  const Outcome all = capture([&] { s.agree(mine); });
  grid.drain();
  if (!all.ok()) throw Error(all.status, all.message);
}

template <class W>
void run_fw(const Session& s, const Layout& L, bool want, bool rows, int64_t m, const Graph* graph,
            const RunOptions& ro, const LocalEngine& engine, std::unique_ptr<BlockResult>& result) {
  const bool root = s.rank() == 0;
  const int32_t n = L.n;
  double t = MPI_Wtime();
  auto lap = [&t] {
    const double now = MPI_Wtime();
    const double d = now - t;
    t = now;
    return d;
  };

  // Allocation: the CSR copy (ranks other than 0) and where the result goes:
  // the local store in the block format (a CPU rank computes in it; a GPU
  // rank's device writes it at the end, page-locked when possible) or, on
  // one rank about to be gathered, the n x n result arrays themselves. The
  // contents are left unset: start() / finish() / finish_rows() write every
  // cell. A GPU rank's store is allocated and faulted in on a host thread
  // while its device starts and computes, and page-locked only before the
  // device writes it (page-locking beside the k-steps held the CUDA driver
  // while the host queued the steps: doc/mpi.md).
  std::vector<int64_t> offsets;
  std::vector<int32_t> targets;
  std::vector<W> weights;
  HostArray<W> cpu_d;  // a CPU rank's store where the result is delivered in rows
  HostArray<int32_t> cpu_p;
  std::unique_ptr<HostTask> store_later;  // a GPU rank's store, made beside its device's work
  int64_t store_cells = 0;
  if (engine.all_gpu) await_prepared_groups(s, engine.device_options.device);
  s.agree(capture([&] {
    maybe_inject_failure(s.rank());
    result = std::make_unique<BlockResult>();
    if (!root) {
      alloc(offsets, int64_t(n) + 1, int64_t(0));
      alloc(targets, m, int32_t(0));
      alloc(weights, m, W(0));
    }
    const int64_t cells =
        static_cast<int64_t>(rows ? cpu::matrix_elems(n, sizeof(W)) : L.local_elems());
    // Every rank checks its host memory before allocating (the ranks then
    // agree, so all return the one failure): the graph's copy, the result
    // (the n x n rows on one rank, else its blocks), the CPU store.
    const uint64_t cell_bytes = sizeof(W) + (want ? sizeof(int32_t) : 0);
    uint64_t need = bytes_mul(static_cast<uint64_t>(cells), cell_bytes);
    if (rows && !engine.gpu) need = bytes_add(need, bytes_mul(static_cast<uint64_t>(L.local_elems()), cell_bytes));
    if (!root) {
      need = bytes_add(need, bytes_add(bytes_mul(static_cast<uint64_t>(n) + 1, 8),
                                       bytes_mul(static_cast<uint64_t>(m), sizeof(int32_t) + sizeof(W))));
    }
    require_host_memory(need, "the MPI Floyd-Warshall's rank " + std::to_string(s.rank()) + " of " +
                                  std::to_string(s.size()) + " (n = " + std::to_string(n) + ", " +
                                  (rows ? "all n x n rows" : std::to_string(cells) + " cells of blocks") +
                                  (want ? ", distances and predecessors)" : ", distances)"));
    store_cells = cells;
    if (!engine.gpu) {
      alloc_uninit(store<W>(*result), cells, false);
      if (want) alloc_uninit(result->pred, cells, false);
    }
    if (rows && !engine.gpu) {
      alloc_uninit(cpu_d, static_cast<int64_t>(L.local_elems()), false);
      if (want) alloc_uninit(cpu_p, static_cast<int64_t>(L.local_elems()), false);
    }
  }));
  BlockResult& out = *result;
  W* D = engine.gpu ? nullptr : store<W>(out).data();  // a GPU rank's: below, before its device writes it
  int32_t* P = want && !engine.gpu ? out.pred.data() : nullptr;
  // The store a CPU rank computes in.
  W* work_d = rows ? cpu_d.data() : D;
  int32_t* work_p = !want ? nullptr : rows ? cpu_p.data() : P;
  out.times.setup += lap();

  // Rank 0's graph to every rank.
  const int64_t* off = offsets.data();
  const int32_t* tg = targets.data();
  const W* wt = weights.data();
  if (root) {
    const CsrView<W> v = graph->view<W>();
    off = v.offsets;
    tg = v.targets;
    wt = v.weights;
  }
  bcast(const_cast<int64_t*>(off), int64_t(n) + 1, 0, s.comm());
  bcast(const_cast<int32_t*>(tg), m, 0, s.comm());
  bcast(const_cast<W*>(wt), m, 0, s.comm());
  const CsrView<W> g{n, m, off, tg, wt};
  out.times.graph = lap();

  // The local engine builds its initial blocks (a GPU rank on its device).
  BlockFwShape shape = shape_of(L, want);
  shape.m = m;
  shape.rows_whole_on_devices = engine.all_gpu && L.pc == 1;
  W min_weight = W(0);
  std::unique_ptr<BlockFw<W>> fw;
  s.agree(capture([&] {
    double max_abs = 0;
    if (m > 0) min_weight = wt[0];
    for (int64_t e = 0; e < m; ++e) {
      max_abs = std::max(max_abs, std::abs(static_cast<double>(wt[e])));
      min_weight = std::min(min_weight, wt[e]);
    }
    shape.max_abs_weight = max_abs;
    if (engine.gpu) {
      fw = gpu::make_block_fw<W>(shape, engine.device_options);
    } else {
      fw = std::make_unique<cpu::CpuBlockFw<W>>(shape, engine.threads, work_d, work_p);
    }
    fw->start(g);
  }));
  out.times.setup += lap();

  // The k-steps, on the device path where every rank can take it (joining
  // the devices' groups counts as set-up).
  std::string why_not;
  const bool device_path = use_device_path(s, engine, *fw, &out.transport, &why_not);
  if (engine.gpu) {  // after the device's set-up (see fw_multi_device.cu on why)
    BlockResult* r = result.get();
    store_later = std::make_unique<HostTask>([r, cells = store_cells, want] {
      alloc_uninit(store<W>(*r), cells, true, false);
      if (want) alloc_uninit(r->pred, cells, true, false);
    });
  }
  out.times.setup += lap();
  if (device_path) {
    device_ksteps(s, ro, *fw);
    out.times.local = lap();
    out.times.ksteps = out.times.local;
  } else {
    host_ksteps(s, L, want, ro, *fw, &out.times);
    out.times.ksteps = lap();
  }

  // Predecessors from the finished rows where the steps did not track them.
  s.agree(capture([&] { fw->after_steps(g); }));
  const double t_after = lap();
  const std::string where = fw->describe();
  out.step_profile = fw->step_profile();
  // The predecessor check: where ranks hold whole rows (one grid column), a
  // device checks its rows where they are and names the bad ones (then only
  // those are rebuilt on the host).
  const bool check = want && preds_need_check<W>(g.m, static_cast<double>(min_weight));
  std::vector<int32_t> bad;
  bool checked = false;
  if (check && L.pc == 1) {
    s.agree(capture([&] { checked = fw->check_rows(&bad); }));
  }
  const double t_device_check = t_after + lap();
  s.agree(capture([&] {  // a GPU rank's store: made, then page-locked now
    if (store_later == nullptr) return;
    store_later->join();
    D = store<W>(out).data();
    P = want ? out.pred.data() : nullptr;
    gpu::result_buffer_lock(D);
    if (P != nullptr) gpu::result_buffer_lock(P);
  }));
  s.agree(capture([&] {
    if (rows) {
      fw->finish_rows(D, P);
    } else {
      fw->finish(D, P);
    }
  }));
  fw.reset();
  out.times.deliver = lap();
  cpu_d = HostArray<W>();
  cpu_p = HostArray<int32_t>();

  if (check) {
    cpu::Team team(engine.threads);
    if (rows) {
      s.agree(capture([&] {
        if (checked) {
          rebuild_rows(g, D, P, bad, team);
        } else {
          repair_pred_rows(g, D, P, team);
        }
      }));
    } else {
      std::vector<char> only;
      if (checked) {
        only.assign(static_cast<size_t>(n), 0);
        for (int32_t i : bad) only[static_cast<size_t>(i)] = 1;
      }
      repair_preds(s, L, g, D, P, team, checked ? &only : nullptr);
    }
    out.times.check = t_device_check + lap();
    out.times.check_note = checked ? " (on the device)" : "";
  } else {
    if (want) out.times.check = t_device_check;  // the predecessors found after the steps, if any
    out.times.check_note = want ? " (skipped: int32, every arc > 0)" : " (no paths)";
  }
  if (ro.limit < std::numeric_limits<double>::infinity()) {
    s.agree(capture([&] {
      cpu::Team team(engine.threads);
      const int64_t cells = rows ? int64_t(n) * n : static_cast<int64_t>(L.local_elems());
      cut_to_limit(D, P, cells, ro.limit, team);
    }));
    out.times.check += lap();
  }

  out.rows = rows;
  out.threads = engine.threads;
  out.where = "rank " + std::to_string(s.rank()) + " of " + std::to_string(s.size()) + " (" + std::to_string(L.pr) +
              " x " + std::to_string(L.pc) + " grid, b = " + std::to_string(L.b) + ", " + std::to_string(L.nb) +
              " steps), " + where + ", " + out.transport + (why_not.empty() ? "" : " (device path: " + why_not + ")");
  out.layout = L;
  out.rank = s.rank();
  out.size = s.size();
  out.dtype = dtype_of<W>();
  out.has_paths = want;
  out.stats.backend = engine.gpu ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  out.stats.algorithm = GSP_APSP_FLOYD_WARSHALL;
  out.stats.device = engine.gpu ? engine.device_options.device : -1;
  out.stats.device_name = "MPI: " + std::to_string(s.size()) + (s.size() == 1 ? " rank" : " ranks") + " (" +
                          std::to_string(L.pr) + " x " + std::to_string(L.pc) + " grid, blocks of " +
                          std::to_string(L.b) + ", " + out.transport + "), " + where +
                          (s.size() == 1 ? "" : " on rank " + std::to_string(s.rank()));
  out.stats.iterations = L.nb;
  const double nn = static_cast<double>(n);
  out.stats.relaxations = static_cast<int64_t>(std::min(nn * nn * nn, 9.0e18));
}

}  // namespace

// Which engine this rank runs: the backend asked for on rank 0 decides;
// with AUTO a rank with a CUDA device uses it (ranks of a node share the
// node's devices round-robin from options.device), a rank without one uses
// CPU threads; with CUDA every rank must have a device. Every weight type
// runs on both.
LocalEngine choose_engine(const Session& s, const RunOptions& ro, gsp_backend backend, int threads) {
  LocalEngine e;
  e.threads = threads;
  if (backend == GSP_BACKEND_CPU) return e;
  std::string why;
  const int32_t count = gpu::usable(&why) ? gpu::device_count() : 0;
  if (count <= 0) {
    require(backend != GSP_BACKEND_CUDA, GSP_ERR_NO_DEVICE,
            "GSP_BACKEND_CUDA asked for, but this rank has no usable CUDA device: " + why);
    return e;
  }
  e.gpu = true;
  e.device_options = ro;
  e.device_options.device = static_cast<int32_t>((static_cast<int64_t>(ro.device) + s.node_rank()) % count);
  return e;
}

std::unique_ptr<BlockResult> distributed_fw(const Session& s, const Outcome& first, const Graph* graph,
                                            RunOptions ro, int32_t asked_threads, bool gather) {
  const double t0 = MPI_Wtime();
  const bool root = s.rank() == 0;
  int64_t head[6] = {0, 0, 0, 0, 0, 0};  // n, dtype, want paths, m, block size, backend
  s.agree(first);
  // num_threads = 0 means every core; ranks sharing a node share them.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = asked_threads > 0 ? asked_threads : std::max(1, cores / std::max(1, s.ranks_on_node()));
  if (root) {  // the API checked graph (not null) and the options on rank 0
    head[0] = graph->n();
    head[1] = graph->dtype();
    head[2] = ro.want_paths ? 1 : 0;
    head[3] = graph->m();
    head[5] = ro.backend;
  }
  bcast(head, 6, 0, s.comm());
  bcast(&ro.limit, 1, 0, s.comm());  // rank 0's options decide, as for the backend

  // Each rank's engine; the block size suits every rank's (a multiple of
  // the device granule as soon as one rank computes on a GPU).
  LocalEngine engine;
  s.agree(capture([&] {
    engine = choose_engine(s, ro, static_cast<gsp_backend>(head[5]), threads);
  }));
  int mine = engine.gpu ? 1 : 0, any_gpu = 0, all_gpu = 0;
  mpi_check(MPI_Allreduce(&mine, &any_gpu, 1, MPI_INT, MPI_MAX, s.comm()), "MPI_Allreduce");
  mpi_check(MPI_Allreduce(&mine, &all_gpu, 1, MPI_INT, MPI_MIN, s.comm()), "MPI_Allreduce");
  engine.all_gpu = all_gpu != 0;
  s.agree(capture([&] {
    if (root) head[4] = block_size_from_env(static_cast<int32_t>(head[0]), s.pr(), s.pc(), any_gpu != 0);
  }));
  bcast(head + 4, 1, 0, s.comm());

  const Layout L(static_cast<int32_t>(head[0]), static_cast<int32_t>(head[4]), s.pr(), s.pc(), s.myrow(),
                 s.mycol());
  const double t_setup = MPI_Wtime() - t0;
  std::unique_ptr<BlockResult> result;
  const bool rows = gather && s.size() == 1;
  with_weight_type(static_cast<gsp_dtype>(head[1]), [&](auto w) {
    run_fw<decltype(w)>(s, L, head[2] != 0, rows, head[3], graph, ro, engine, result);
  });
  result->t0 = t0;
  result->times.setup += t_setup;
  // gsp_run_info's stages, this rank's (doc/run-info.md): the graph's
  // broadcast and the set-up, the k-steps with their broadcasts, the result
  // out of the engine, the predecessor check.
  const StageTimes& t = result->times;
  result->stats.add(Stage::kSetup, t.graph + t.setup);
  result->stats.add(Stage::kCompute, t.ksteps);
  result->stats.add(Stage::kCopy, t.deliver);
  result->stats.add(Stage::kPaths, t.check);
  result->stats.seconds = MPI_Wtime() - t0;
  if (!gather && trace_on()) print_trace(*result, result->stats.seconds);
  return result;
}

}  // namespace gsp::detail::mpi
