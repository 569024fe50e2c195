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
#include "core/gpu_runtime.h"
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
void maybe_inject_failure([[maybe_unused]] int rank, [[maybe_unused]] const Tuning& t) {
#if defined(GSP_TEST_HOOKS)
  if (t.mpi_test_fail_rank == rank && !t.mpi_test_fail_step) throw std::bad_alloc();
#endif
}
void maybe_fail_at_step([[maybe_unused]] int rank, [[maybe_unused]] int32_t done, [[maybe_unused]] const Tuning& t) {
#if defined(GSP_TEST_HOOKS)
  if (t.mpi_test_fail_rank == rank && t.mpi_test_fail_step == done) {
    throw Error(GSP_ERR_DEVICE,
                "test hook: rank " + std::to_string(rank) + " fails after k-step " + std::to_string(done));
  }
#endif
}

// GSP_MPI_BLOCK_SIZE (core/tuning.h): a value that is set but not a block
// size, or (on GPU ranks) not a multiple of the device granule, fails the
// call rather than silently picking another layout.
int32_t block_size_from_env(int32_t n, int pr, int pc, bool gpu, const Tuning& t) {
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
void host_ksteps(const Session& s, const Layout& L, bool want, const RunOptions& ro, const Tuning& knobs,
                 BlockFw<W>& fw, StageTimes* times) {
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
      maybe_fail_at_step(s.rank(), K + 1, knobs);
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
// `asked`: the call's GSP_MPI_TRANSPORT; =device makes a call that cannot
// take it fail instead, =host never tries.
template <class W>
bool use_device_path(const Session& s, const LocalEngine& engine, BlockFw<W>& fw, MpiTransport asked,
                     std::string* transport, std::string* why_not) {
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
void device_ksteps(const Session& s, const RunOptions& ro, const Tuning& knobs, BlockFw<W>& fw) {
  const bool root = s.rank() == 0;
  MpiRankGrid grid(s, [&](int32_t done, int32_t steps) {
    maybe_fail_at_step(s.rank(), done, knobs);
    if (root) ro.report(0.9 * static_cast<double>(done) / static_cast<double>(steps));
  });
  const Outcome mine = capture([&] { fw.run_steps(grid); });
  const Outcome all = capture([&] { s.agree(mine); });
  grid.drain();
  if (!all.ok()) throw Error(all.status, all.message);
}

// One rank's share of one call (distributed_fw): the call's state, and one
// method per phase, run in order by run(). A phase where one rank can fail
// ends in an agreement (comm.h), so that every rank leaves together; each
// phase's seconds go to its stage in the result's times (lap()).
template <class W>
class FwCall {
 public:
  FwCall(const Session& s, const Layout& L, bool want, bool rows, int64_t m, const RunOptions& ro,
         const LocalEngine& engine, const Tuning& knobs, std::unique_ptr<BlockResult>& result)
      : s_(s),
        L_(L),
        want_(want),
        rows_(rows),
        m_(m),
        ro_(ro),
        engine_(engine),
        knobs_(knobs),
        result_(result),
        root_(s.rank() == 0),
        n_(L.n),
        t_(MPI_Wtime()) {}

  void run(const Graph* graph) {
    allocate();
    broadcast_graph(graph);
    start_blocks();
    choose_path();
    ksteps();
    after_steps();
    deliver();
    check_preds();
    apply_limit();
    describe();
  }

 private:
  BlockResult& out() { return *result_; }

  // Seconds since the last lap (or the call's start).
  double lap() {
    const double now = MPI_Wtime();
    const double d = now - t_;
    t_ = now;
    return d;
  }

  // Allocation: the CSR copy (ranks other than 0) and where the result goes:
  // the local store in the block format (a CPU rank computes in it; a GPU
  // rank's device writes it at the end, page-locked when possible) or, on
  // one rank about to be gathered, the n x n result arrays themselves. The
  // contents are left unset: start() / finish() / finish_rows() write every
  // cell. A GPU rank's store is allocated and faulted in on a host thread
  // while its device starts and computes (choose_path), and page-locked only
  // before the device writes it (page-locking beside the k-steps held the
  // CUDA driver while the host queued the steps: doc/mpi.md).
  void allocate() {
    if (engine_.all_gpu) await_prepared_groups(s_, engine_.device_options.device);
    s_.agree(capture([&] {
      maybe_inject_failure(s_.rank(), knobs_);
      result_ = std::make_unique<BlockResult>();
      if (!root_) {
        alloc(offsets_, int64_t(n_) + 1, int64_t(0));
        alloc(targets_, m_, int32_t(0));
        alloc(weights_, m_, W(0));
      }
      const int64_t cells = static_cast<int64_t>(rows_ ? cpu::matrix_elems(n_, sizeof(W)) : L_.local_elems());
      // Every rank checks its host memory before allocating (the ranks then
      // agree, so all return the one failure): the graph's copy, the result
      // (the n x n rows on one rank, else its blocks), the CPU store.
      const uint64_t cell_bytes = sizeof(W) + (want_ ? sizeof(int32_t) : 0);
      uint64_t need = bytes_mul(static_cast<uint64_t>(cells), cell_bytes);
      if (rows_ && !engine_.gpu) {
        need = bytes_add(need, bytes_mul(static_cast<uint64_t>(L_.local_elems()), cell_bytes));
      }
      if (!root_) {
        need = bytes_add(need, bytes_add(bytes_mul(static_cast<uint64_t>(n_) + 1, 8),
                                         bytes_mul(static_cast<uint64_t>(m_), sizeof(int32_t) + sizeof(W))));
      }
      require_host_memory(need, "the MPI Floyd-Warshall's rank " + std::to_string(s_.rank()) + " of " +
                                    std::to_string(s_.size()) + " (n = " + std::to_string(n_) + ", " +
                                    (rows_ ? "all n x n rows" : std::to_string(cells) + " cells of blocks") +
                                    (want_ ? ", distances and predecessors)" : ", distances)"));
      store_cells_ = cells;
      if (!engine_.gpu) {
        alloc_uninit(store<W>(*result_), cells, false);
        if (want_) alloc_uninit(result_->pred, cells, false);
      }
      if (rows_ && !engine_.gpu) {
        alloc_uninit(cpu_d_, static_cast<int64_t>(L_.local_elems()), false);
        if (want_) alloc_uninit(cpu_p_, static_cast<int64_t>(L_.local_elems()), false);
      }
    }));
    D_ = engine_.gpu ? nullptr : store<W>(out()).data();  // a GPU rank's: deliver(), before its device writes it
    P_ = want_ && !engine_.gpu ? out().pred.data() : nullptr;
    // The store a CPU rank computes in.
    work_d_ = rows_ ? cpu_d_.data() : D_;
    work_p_ = !want_ ? nullptr : rows_ ? cpu_p_.data() : P_;
    out().times.setup += lap();
  }

  // Rank 0's graph to every rank.
  void broadcast_graph(const Graph* graph) {
    const int64_t* off = offsets_.data();
    const int32_t* tg = targets_.data();
    const W* wt = weights_.data();
    if (root_) {
      const CsrView<W> v = graph->view<W>();
      off = v.offsets;
      tg = v.targets;
      wt = v.weights;
    }
    bcast(const_cast<int64_t*>(off), int64_t(n_) + 1, 0, s_.comm());
    bcast(const_cast<int32_t*>(tg), m_, 0, s_.comm());
    bcast(const_cast<W*>(wt), m_, 0, s_.comm());
    g_ = CsrView<W>{n_, m_, off, tg, wt};
    out().times.graph = lap();
  }

  // The local engine builds its initial blocks (a GPU rank on its device).
  void start_blocks() {
    BlockFwShape shape = shape_of(L_, want_);
    shape.m = m_;
    shape.rows_whole_on_devices = engine_.all_gpu && L_.pc == 1;
    s_.agree(capture([&] {
      const W* wt = g_.weights;
      double max_abs = 0;
      if (m_ > 0) min_weight_ = wt[0];
      for (int64_t e = 0; e < m_; ++e) {
        max_abs = std::max(max_abs, std::abs(static_cast<double>(wt[e])));
        min_weight_ = std::min(min_weight_, wt[e]);
      }
      shape.max_abs_weight = max_abs;
      if (engine_.gpu) {
        fw_ = gpu::make_block_fw<W>(shape, engine_.device_options);
      } else {
        fw_ = std::make_unique<cpu::CpuBlockFw<W>>(shape, engine_.threads, work_d_, work_p_);
      }
      fw_->start(g_);
    }));
    out().times.setup += lap();
  }

  // Which path the k-steps take: the device path where every rank can take
  // it (joining the devices' groups counts as set-up). A GPU rank starts
  // making its store here, after its device's set-up (see
  // fw_multi_device.cu on why).
  void choose_path() {
    device_path_ = use_device_path(s_, engine_, *fw_, knobs_.mpi_transport, &out().transport, &why_not_);
    if (engine_.gpu) {
      BlockResult* r = result_.get();
      store_later_ = std::make_unique<HostTask>([r, cells = store_cells_, want = want_] {
        alloc_uninit(store<W>(*r), cells, true, false);
        if (want) alloc_uninit(r->pred, cells, true, false);
      });
    }
    out().times.setup += lap();
  }

  // The k-steps, on the path chosen.
  void ksteps() {
    StageTimes& times = out().times;
    if (device_path_) {
      device_ksteps(s_, ro_, knobs_, *fw_);
      times.local = lap();
      times.ksteps = times.local;
    } else {
      host_ksteps(s_, L_, want_, ro_, knobs_, *fw_, &times);
      times.ksteps = lap();
    }
  }

  // Predecessors from the finished rows where the steps did not track them,
  // and the predecessor check on the device: where ranks hold whole rows
  // (one grid column), a device checks its rows where they are and names the
  // bad ones (then only those are rebuilt on the host, check_preds).
  void after_steps() {
    s_.agree(capture([&] { fw_->after_steps(g_); }));
    const double t_after = lap();
    where_ = fw_->describe();
    out().step_profile = fw_->step_profile();
    check_ = want_ && preds_need_check<W>(g_.m, static_cast<double>(min_weight_));
    if (check_ && L_.pc == 1) {
      s_.agree(capture([&] { checked_ = fw_->check_rows(&bad_); }));
    }
    t_device_check_ = t_after + lap();
  }

  // The result out of the engine into the store (a GPU rank's: made, then
  // page-locked now) or the n x n rows; the engine and a CPU rank's store
  // for rows are freed.
  void deliver() {
    s_.agree(capture([&] {
      if (store_later_ == nullptr) return;
      store_later_->join();
      D_ = store<W>(out()).data();
      P_ = want_ ? out().pred.data() : nullptr;
      gpu::result_buffer_lock(D_);
      if (P_ != nullptr) gpu::result_buffer_lock(P_);
    }));
    s_.agree(capture([&] {
      if (rows_) {
        fw_->finish_rows(D_, P_);
      } else {
        fw_->finish(D_, P_);
      }
    }));
    fw_.reset();
    out().times.deliver = lap();
    cpu_d_ = HostArray<W>();
    cpu_p_ = HostArray<int32_t>();
  }

  // The predecessor check and repair on the host (only the rows a device
  // named bad, where one checked them), or why there was none.
  void check_preds() {
    StageTimes& times = out().times;
    if (!check_) {
      if (want_) times.check = t_device_check_;  // the predecessors found after the steps, if any
      times.check_note = want_ ? " (skipped: int32, every arc > 0)" : " (no paths)";
      return;
    }
    cpu::Team team(engine_.threads);
    if (rows_) {
      s_.agree(capture([&] {
        if (checked_) {
          rebuild_rows(g_, D_, P_, bad_, team);
        } else {
          repair_pred_rows(g_, D_, P_, team);
        }
      }));
    } else {
      std::vector<char> only;
      if (checked_) {
        only.assign(static_cast<size_t>(n_), 0);
        for (int32_t i : bad_) only[static_cast<size_t>(i)] = 1;
      }
      repair_preds(s_, L_, g_, D_, P_, team, checked_ ? &only : nullptr);
    }
    times.check = t_device_check_ + lap();
    times.check_note = checked_ ? " (on the device)" : "";
  }

  // gsp_options::limit on this rank's cells (counted with the check).
  void apply_limit() {
    if (!(ro_.limit < std::numeric_limits<double>::infinity())) return;
    s_.agree(capture([&] {
      cpu::Team team(engine_.threads);
      const int64_t cells = rows_ ? int64_t(n_) * n_ : static_cast<int64_t>(L_.local_elems());
      cut_to_limit(D_, P_, cells, ro_.limit, team);
    }));
    out().times.check += lap();
  }

  // The result's description: layout, engine and transport, and its stats.
  void describe() {
    BlockResult& o = out();
    o.rows = rows_;
    o.threads = engine_.threads;
    o.where = "rank " + std::to_string(s_.rank()) + " of " + std::to_string(s_.size()) + " (" + std::to_string(L_.pr) +
              " x " + std::to_string(L_.pc) + " grid, b = " + std::to_string(L_.b) + ", " + std::to_string(L_.nb) +
              " steps), " + where_ + ", " + o.transport + (why_not_.empty() ? "" : " (device path: " + why_not_ + ")");
    o.layout = L_;
    o.rank = s_.rank();
    o.size = s_.size();
    o.dtype = dtype_of<W>();
    o.has_paths = want_;
    o.stats.backend = engine_.gpu ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
    o.stats.algorithm = GSP_APSP_FLOYD_WARSHALL;
    o.stats.device = engine_.gpu ? engine_.device_options.device : -1;
    o.stats.device_name = "MPI: " + std::to_string(s_.size()) + (s_.size() == 1 ? " rank" : " ranks") + " (" +
                          std::to_string(L_.pr) + " x " + std::to_string(L_.pc) + " grid, blocks of " +
                          std::to_string(L_.b) + ", " + o.transport + "), " + where_ +
                          (s_.size() == 1 ? "" : " on rank " + std::to_string(s_.rank()));
    o.stats.iterations = L_.nb;
    const double nn = static_cast<double>(n_);
    o.stats.relaxations = static_cast<int64_t>(std::min(nn * nn * nn, 9.0e18));
  }

  // The call, as distributed_fw gives it.
  const Session& s_;
  const Layout& L_;
  const bool want_;  // paths
  const bool rows_;  // the result delivered in n x n rows (one rank, gathered)
  const int64_t m_;
  const RunOptions& ro_;
  const LocalEngine& engine_;
  const Tuning& knobs_;  // the call's one snapshot
  std::unique_ptr<BlockResult>& result_;
  const bool root_;
  const int32_t n_;
  double t_;  // MPI_Wtime() at the last lap

  // allocate()
  std::vector<int64_t> offsets_;  // the graph's copy (ranks other than 0)
  std::vector<int32_t> targets_;
  std::vector<W> weights_;
  HostArray<W> cpu_d_;  // a CPU rank's store where the result is delivered in rows
  HostArray<int32_t> cpu_p_;
  int64_t store_cells_ = 0;
  W* D_ = nullptr;  // the store (the result's arrays)
  int32_t* P_ = nullptr;
  W* work_d_ = nullptr;  // the store a CPU rank computes in
  int32_t* work_p_ = nullptr;
  // broadcast_graph(), start_blocks(), choose_path()
  CsrView<W> g_;
  W min_weight_ = W(0);
  std::unique_ptr<HostTask> store_later_;  // a GPU rank's store, made beside its device's work
  std::unique_ptr<BlockFw<W>> fw_;         // declared after store_later_: destroyed first
  bool device_path_ = false;
  std::string why_not_;
  // after_steps()
  std::string where_;     // the engine's description
  bool check_ = false;    // the predecessors need the check
  bool checked_ = false;  // a device checked its rows and named the bad ones
  std::vector<int32_t> bad_;
  double t_device_check_ = 0;
};

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

std::unique_ptr<BlockResult> distributed_fw(const Session& s, const Outcome& first, const Graph* graph, RunOptions ro,
                                            int32_t asked_threads, bool gather) {
  const double t0 = MPI_Wtime();
  const Tuning& knobs = ro.tuning;  // the call's one snapshot of the knobs, passed down (and on to the gather)
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
  s.agree(capture([&] { engine = choose_engine(s, ro, static_cast<gsp_backend>(head[5]), threads); }));
  int mine = engine.gpu ? 1 : 0, any_gpu = 0, all_gpu = 0;
  mpi_check(MPI_Allreduce(&mine, &any_gpu, 1, MPI_INT, MPI_MAX, s.comm()), "MPI_Allreduce");
  mpi_check(MPI_Allreduce(&mine, &all_gpu, 1, MPI_INT, MPI_MIN, s.comm()), "MPI_Allreduce");
  engine.all_gpu = all_gpu != 0;
  s.agree(capture([&] {
    if (root) head[4] = block_size_from_env(static_cast<int32_t>(head[0]), s.pr(), s.pc(), any_gpu != 0, knobs);
  }));
  bcast(head + 4, 1, 0, s.comm());

  const Layout L(static_cast<int32_t>(head[0]), static_cast<int32_t>(head[4]), s.pr(), s.pc(), s.myrow(), s.mycol());
  const double t_setup = MPI_Wtime() - t0;
  std::unique_ptr<BlockResult> result;
  const bool rows = gather && s.size() == 1;
  with_weight_type(static_cast<gsp_dtype>(head[1]), [&](auto w) {
    FwCall<decltype(w)>(s, L, head[2] != 0, rows, head[3], ro, engine, knobs, result).run(graph);
  });
  if (result == nullptr) throw Error(GSP_ERR_INTERNAL, "distributed Floyd-Warshall: the call left no result");
  result->t0 = t0;
  result->trace = knobs.mpi_trace;
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
  if (!gather && result->trace) print_trace(*result, result->stats.seconds);
  return result;
}

}  // namespace gsp::detail::mpi
