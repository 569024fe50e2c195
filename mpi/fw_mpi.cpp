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
#include "fw_mpi.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>

#include "core/dispatch.h"
#include "block_fw_cpu.h"
#include "core/block_fw.h"
#include "core/gpu_backend.h"
#include "cpu/pred_repair.h"

namespace gsp::detail::mpi {
namespace {

// Testing hook (doc/mpi.md): GSP_MPI_TEST_FAIL_RANK=r makes rank r fail to
// allocate its blocks, as if out of memory.
void maybe_inject_failure(int rank) {
  const char* s = std::getenv("GSP_MPI_TEST_FAIL_RANK");
  if (s == nullptr || *s == '\0') return;
  char* end = nullptr;
  const long r = std::strtol(s, &end, 10);
  if (end != nullptr && *end == '\0' && r == rank) throw std::bad_alloc();
}

int32_t block_size_from_env(int32_t n, int pr, int pc, bool gpu) {
  const char* s = std::getenv("GSP_MPI_BLOCK_SIZE");
  if (s != nullptr && *s != '\0') {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    require(end != nullptr && *end == '\0' && v >= 1 && v <= 2048, GSP_ERR_INVALID_ARGUMENT,
            std::string("GSP_MPI_BLOCK_SIZE=") + s + " is not a block size in [1, 2048]");
    require(!gpu || v % gpu::kBlockFwGranule == 0, GSP_ERR_INVALID_ARGUMENT,
            std::string("GSP_MPI_BLOCK_SIZE=") + s + ": ranks computing on a GPU need a multiple of " +
                std::to_string(gpu::kBlockFwGranule));
    return static_cast<int32_t>(v);
  }
  return gpu ? default_gpu_block_size(n, pr, pc) : default_block_size(n, pr, pc);
}

template <class W>
HostArray<W>& store(BlockResult& r) {
  if constexpr (std::is_same_v<W, float>) {
    return r.d_f32;
  } else {
    return r.d_i32;
  }
}

template <class T>
void alloc(std::vector<T>& v, int64_t count, const T& value) {
  cpu::alloc_vector(v, static_cast<size_t>(count), value);
}

// count elements, contents unspecified (every user writes every cell);
// page-locked when `pinned` and the CUDA layer can give it (a device then
// copies into it at full speed), else ordinary memory.
template <class T>
void alloc_uninit(HostArray<T>& a, int64_t count, bool pinned) {
  const size_t c = static_cast<size_t>(count);
  size_t got = 0;
  void* p = pinned ? gpu::result_buffer_take(c * sizeof(T), &got) : nullptr;
  if (p != nullptr) {
    a.adopt(static_cast<T*>(p), c, got, gpu::result_buffer_give);
  } else {
    a.resize_uninitialized(c);
  }
}

bool trace_on() {
  const char* tr = std::getenv("GSP_MPI_TRACE");
  return tr != nullptr && *tr != '\0' && *tr != '0';
}

// f(i) for i in [0, count) over the team's threads.
template <class F>
void for_each(cpu::Team& team, int64_t count, const F& f) {
  if (count <= 0) return;
  std::atomic<int64_t> next{0};
  team.run([&](int) {
    for (int64_t i; (i = next.fetch_add(1)) < count;) f(i);
  });
}

// Whether predecessor rows can hold cycles at all. Not for int32 graphs
// whose every arc weighs > 0: every predecessor arc ends tight (d(i, q) +
// w(q, j) = d(i, j), with exact integer distances), so d strictly decreases
// along a chain of predecessors, which therefore ends at the one vertex of
// the row without one, the source (the single-device engine's argument,
// cuda/dense_delivery.cuh). Zero arcs, negative arcs (a zero-weight cycle
// may mix them) and float rounding allow ties: those rows are checked.
template <class W>
bool preds_need_check(const CsrView<W>& g, W min_weight) {
  return !(std::is_same_v<W, int32_t> && g.m > 0 && min_weight > W(0));
}

// Predecessor cycles (see src/cpu/pred_repair.h) can only be seen in whole rows.
// One rank holding the whole matrix in rows checks them in place, rows
// spread over its threads.
template <class W>
void repair_pred_rows(const CsrView<W>& g, const W* D, int32_t* P, cpu::Team& team) {
  const int64_t n = g.n;
  std::vector<cpu::PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  std::atomic<int64_t> next{0};
  team.run([&](int tid) {
    cpu::PredRepairScratch& sc = scratch[static_cast<size_t>(tid)];
    for (int64_t i; (i = next.fetch_add(1)) < n;) {
      (void)cpu::repair_pred_row(g, static_cast<int32_t>(i), D + i * n, P + i * n, sc);
    }
  });
}

// The rows a device's check found bad, rebuilt on the host (each on one thread).
template <class W>
void rebuild_rows(const CsrView<W>& g, const W* D, int32_t* P, const std::vector<int32_t>& bad, cpu::Team& team) {
  const int64_t n = g.n;
  std::vector<cpu::PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  std::atomic<size_t> next{0};
  team.run([&](int tid) {
    for (size_t k; (k = next.fetch_add(1)) < bad.size();) {
      const int64_t i = bad[k];
      cpu::rebuild_pred_row(g, static_cast<int32_t>(i), D + i * n, P + i * n, scratch[static_cast<size_t>(tid)]);
    }
  });
}

// Over several ranks, the ranks of each grid row gather each of their block
// rows in full, check every row (rows spread over the rank's threads), and
// rebuild the bad ones; each rank keeps its own columns.
// `only` (n entries, a 1 x 1 grid whose device checked the rows): the rows
// to rebuild; the others are known good.
template <class W>
void repair_preds(const Session& s, const Layout& L, const CsrView<W>& g, const W* D, int32_t* P, cpu::Team& team,
                  const std::vector<char>* only) {
  const int64_t bb = L.bb();
  const int64_t n = L.n;
  std::vector<int> counts(static_cast<size_t>(L.pc)), displs(static_cast<size_t>(L.pc));
  HostArray<W> rows_d, full_d;
  HostArray<int32_t> rows_p, full_p;
  std::vector<cpu::PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  s.agree(capture([&] {
    int64_t total = 0;
    for (int c = 0; c < L.pc; ++c) {
      const int64_t cnt = Layout::owned(L.nb, L.pc, c) * bb;
      require(total + cnt <= INT_MAX, GSP_ERR_UNSUPPORTED,
              "a block row of " + std::to_string(n) + " x " + std::to_string(L.b) +
                  " entries is too large for one MPI message; use a smaller GSP_MPI_BLOCK_SIZE");
      counts[static_cast<size_t>(c)] = static_cast<int>(cnt);
      displs[static_cast<size_t>(c)] = static_cast<int>(total);
      total += cnt;
    }
    alloc_uninit(rows_d, total, false);
    alloc_uninit(rows_p, total, false);
    alloc_uninit(full_d, L.b * n, false);
    alloc_uninit(full_p, L.b * n, false);
  }));
  Outcome outcome;
  for (int32_t li = 0; li < L.nlr; ++li) {
    if (only != nullptr) {  // one rank: no one to gather with, and block rows without bad rows are skipped
      const int32_t first = L.grow(li) * L.b;
      const auto* m = only->data();
      if (std::find(m + first, m + first + L.extent(L.grow(li)), char(1)) == m + first + L.extent(L.grow(li))) continue;
    }
    const int mine = static_cast<int>(L.nlc * bb);
    mpi_check(MPI_Allgatherv(D + L.offset(li, 0), mine, mpi_type<W>(), rows_d.data(), counts.data(),
                             displs.data(), mpi_type<W>(), s.row_comm()),
              "MPI_Allgatherv");
    mpi_check(MPI_Allgatherv(P + L.offset(li, 0), mine, MPI_INT32_T, rows_p.data(), counts.data(),
                             displs.data(), MPI_INT32_T, s.row_comm()),
              "MPI_Allgatherv");
    outcome.merge(capture([&] {
      const int32_t I = L.grow(li);
      const int32_t rows = L.extent(I);
      std::atomic<int32_t> next{0};
      team.run([&](int tid) {
        cpu::PredRepairScratch& sc = scratch[static_cast<size_t>(tid)];
        for (int32_t r; (r = next.fetch_add(1)) < rows;) {
          if (only != nullptr && (*only)[static_cast<size_t>(I) * L.b + r] == 0) continue;
          W* drow = full_d.data() + r * n;
          int32_t* prow = full_p.data() + r * n;
          for (int32_t J = 0; J < L.nb; ++J) {
            const int64_t from = displs[static_cast<size_t>(J % L.pc)] + static_cast<int64_t>(J / L.pc) * bb +
                                 static_cast<int64_t>(r) * L.b;
            const int64_t to = static_cast<int64_t>(J) * L.b;
            const size_t cols = static_cast<size_t>(L.extent(J));
            std::memcpy(drow + to, rows_d.data() + from, cols * sizeof(W));
            std::memcpy(prow + to, rows_p.data() + from, cols * sizeof(int32_t));
          }
          if (!cpu::repair_pred_row(g, I * L.b + r, drow, prow, sc)) continue;
          for (int32_t lj = 0; lj < L.nlc; ++lj) {
            const int32_t J = L.gcol(lj);
            std::memcpy(P + L.offset(li, lj) + static_cast<int64_t>(r) * L.b, prow + static_cast<int64_t>(J) * L.b,
                        static_cast<size_t>(L.extent(J)) * sizeof(int32_t));
          }
        }
      });
    }));
  }
  s.agree(outcome);
}

// Where a rank's blocks live and are computed: its device, or CPU threads.
struct LocalEngine {
  bool gpu = false;
  int threads = 1;
  RunOptions device_options;  // gpu: the run's options with this rank's device
};

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

template <class W>
void run_fw(const Session& s, const Layout& L, bool want, bool rows, int64_t m, const Graph* graph,
            const RunOptions& ro, const LocalEngine& engine, std::unique_ptr<BlockResult>& result) {
  const bool root = s.rank() == 0;
  const int64_t bb = L.bb();
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
  // cell.
  std::vector<int64_t> offsets;
  std::vector<int32_t> targets;
  std::vector<W> weights;
  HostArray<W> cpu_d;  // a CPU rank's store where the result is delivered in rows
  HostArray<int32_t> cpu_p;
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
    alloc_uninit(store<W>(*result), cells, engine.gpu);
    if (want) alloc_uninit(result->pred, cells, engine.gpu);
    if (rows && !engine.gpu) {
      alloc_uninit(cpu_d, static_cast<int64_t>(L.local_elems()), false);
      if (want) alloc_uninit(cpu_p, static_cast<int64_t>(L.local_elems()), false);
    }
  }));
  BlockResult& out = *result;
  W* D = store<W>(out).data();
  int32_t* P = want ? out.pred.data() : nullptr;
  // The store the engine computes in (CPU) or writes at the end (GPU, unless in rows).
  W* work_d = rows ? (engine.gpu ? nullptr : cpu_d.data()) : D;
  int32_t* work_p = !want ? nullptr : rows ? (engine.gpu ? nullptr : cpu_p.data()) : P;
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
      fw = gpu::make_block_fw(shape, engine.device_options, work_d, work_p);
    } else {
      fw = std::make_unique<CpuBlockFw<W>>(shape, engine.threads, work_d, work_p);
    }
    fw->start(g);
  }));
  out.times.setup += lap();

  // The k-steps. Local work runs under capture() so that a failure never
  // skips a broadcast (no rank hangs); the ranks agree at the end of each
  // step. A buffer that could not be prepared is replaced by the receive
  // buffer of the same size (its content no longer matters then).
  // Each rank counts where its k-steps' time goes (its own work vs.
  // broadcasts and agreement, which include waiting for the others), for
  // GSP_MPI_TRACE=1.
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
      fw->begin_step(K);
      if (in_row && in_col) fw->close_diagonal(lkr, lkc);
    });
    // Phase 2: it goes along its grid row and column (with predecessors down
    // the column, for the column panel's update), which update block row K
    // and block column K.
    if (in_row) comm([&] { bcast(fw->diag_d(), bb, cK, s.row_comm()); });
    if (in_col) {
      comm([&] {
        bcast(fw->diag_d(), bb, rK, s.col_comm());
        if (want) bcast(fw->diag_p(), bb, rK, s.col_comm());
      });
    }
    local([&] {
      if (in_row != in_col) fw->diag_received(in_col);
      fw->update_panels(lkr, lkc);
    });

    // Phase 3: block row K down the grid columns, block column K across the
    // grid rows; every rank updates all its other blocks.
    W* rd = nullptr;
    int32_t* rp = nullptr;
    local([&] {
      rd = fw->row_d(lkr);
      rp = fw->row_p(lkr);
    });
    if (rd == nullptr || (want && rp == nullptr)) {
      rd = fw->row_d(-1);
      rp = fw->row_p(-1);
    }
    comm([&] {
      bcast(rd, L.nlc * bb, rK, s.col_comm());
      if (want) bcast(rp, L.nlc * bb, rK, s.col_comm());
    });
    W* cd = nullptr;
    local([&] { cd = fw->col_d(lkc); });
    if (cd == nullptr) cd = fw->col_d(-1);
    comm([&] { bcast(cd, L.nlr * bb, cK, s.row_comm()); });
    local([&] {
      if (!in_row) fw->row_received();
      if (!in_col) fw->col_received();
      fw->update_rest(lkr, lkc);
    });

    local([&] {
      fw->end_step();
      if (root) ro.report(0.9 * static_cast<double>(K + 1) / static_cast<double>(L.nb));
    });
    comm([&] { s.agree(step); });
  }
  out.times.local = local_s;
  out.times.comm = comm_s;
  out.times.ksteps = lap();
  const std::string where = fw->describe();
  // The predecessor check: on one rank, a device checks its rows where they
  // are and names the bad ones (then only those are rebuilt on the host).
  const bool check = want && preds_need_check(g, min_weight);
  std::vector<int32_t> bad;
  bool checked = false;
  if (check && L.pr == 1 && L.pc == 1) {
    s.agree(capture([&] { checked = fw->check_rows(&bad); }));
  }
  const double t_device_check = lap();
  s.agree(capture([&] {
    if (rows) {
      fw->finish_rows(D, P);
    } else {
      fw->finish();
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
    out.times.check_note = want ? " (skipped: int32, every arc > 0)" : " (no paths)";
  }

  out.rows = rows;
  out.threads = engine.threads;
  out.where = "rank " + std::to_string(s.rank()) + " of " + std::to_string(s.size()) + " (" + std::to_string(L.pr) +
              " x " + std::to_string(L.pc) + " grid, b = " + std::to_string(L.b) + ", " + std::to_string(L.nb) +
              " steps), " + where;
  out.layout = L;
  out.rank = s.rank();
  out.size = s.size();
  out.dtype = std::is_same_v<W, float> ? GSP_F32 : GSP_I32;
  out.has_paths = want;
  out.stats.backend = engine.gpu ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  out.stats.algorithm = GSP_APSP_FLOYD_WARSHALL;
  out.stats.device = engine.gpu ? engine.device_options.device : -1;
  out.stats.device_name = "MPI: " + std::to_string(s.size()) + (s.size() == 1 ? " rank" : " ranks") + " (" +
                          std::to_string(L.pr) + " x " + std::to_string(L.pc) + " grid, blocks of " +
                          std::to_string(L.b) + "), " + where + (s.size() == 1 ? "" : " on rank " +
                          std::to_string(s.rank()));
  out.stats.iterations = L.nb;
  const double nn = static_cast<double>(n);
  out.stats.relaxations = static_cast<int64_t>(std::min(nn * nn * nn, 9.0e18));
}

// Every rank's block rows to rank 0, which lays each out in the result's
// rows (rows spread over its threads; every cell is written once).
template <class W>
void gather_t(const Session& s, const BlockResult& br, Paths* paths, HostArray<W>& buf, HostArray<int32_t>& pbuf,
              cpu::Team* team) {
  const Layout& L = br.layout;
  const int64_t bb = L.bb();
  const bool want = br.has_paths;
  constexpr int kTagDist = 7101, kTagPred = 7102;
  if (s.rank() != 0) {
    const W* D = static_cast<const W*>(br.dist());
    for (int32_t li = 0; li < L.nlr; ++li) {
      send(D + L.offset(li, 0), L.nlc * bb, 0, kTagDist, s.comm());
      if (want) send(br.pred.data() + L.offset(li, 0), L.nlc * bb, 0, kTagPred, s.comm());
    }
    return;
  }
  const int64_t n = L.n;
  W* dist = nullptr;
  if constexpr (std::is_same_v<W, float>) {
    dist = paths->dist_f32.data();
  } else {
    dist = paths->dist_i32.data();
  }
  int32_t* pred = want ? paths->pred.data() : nullptr;
  for (int r = 0; r < s.size(); ++r) {
    const Layout Lr(L.n, L.b, L.pr, L.pc, r / L.pc, r % L.pc);
    for (int32_t li = 0; li < Lr.nlr; ++li) {
      const W* src = nullptr;
      const int32_t* psrc = nullptr;
      if (r == 0) {
        src = static_cast<const W*>(br.dist()) + L.offset(li, 0);
        psrc = want ? br.pred.data() + L.offset(li, 0) : nullptr;
      } else {
        recv(buf.data(), Lr.nlc * bb, r, kTagDist, s.comm());
        if (want) recv(pbuf.data(), Lr.nlc * bb, r, kTagPred, s.comm());
        src = buf.data();
        psrc = want ? pbuf.data() : nullptr;
      }
      const int32_t I = Lr.grow(li);
      for_each(*team, Lr.extent(I), [&](int64_t i) {
        for (int32_t lj = 0; lj < Lr.nlc; ++lj) {
          const int32_t J = Lr.gcol(lj);
          const size_t cols = static_cast<size_t>(Lr.extent(J));
          const int64_t to = (static_cast<int64_t>(I) * L.b + i) * n + static_cast<int64_t>(J) * L.b;
          const int64_t from = lj * bb + i * L.b;
          std::memcpy(dist + to, src + from, cols * sizeof(W));
          if (want) std::memcpy(pred + to, psrc + from, cols * sizeof(int32_t));
        }
      });
    }
  }
}

// GSP_MPI_TRACE=1: this rank's stages and the call's total against its k-steps.
void print_trace(const BlockResult& r, double call) {
  const StageTimes& t = r.times;
  std::fprintf(stderr,
               "gsp mpi: %s: graph broadcast %.3f s, set-up %.3f s, k-steps %.3f s (local work %.3f s, "
               "broadcasts + agreement %.3f s), delivery %.3f s%s, predecessor check %.3f s%s, gather %.3f s; "
               "call %.3f s = %.2f x k-steps\n",
               r.where.c_str(), t.graph, t.setup, t.ksteps, t.local, t.comm, t.deliver,
               r.stats.backend == GSP_BACKEND_CUDA ? " (device to host)" : "", t.check, t.check_note, t.gather, call,
               t.ksteps > 0 ? call / t.ksteps : 0.0);
}

// Which engine this rank runs: the backend asked for on rank 0 decides;
// with AUTO a rank with a CUDA device uses it (ranks of a node share the
// node's devices round-robin from options.device), a rank without one uses
// CPU threads; with CUDA every rank must have a device.
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

}  // namespace

std::unique_ptr<BlockResult> distributed_fw(const Session& s, Outcome first, const Graph* graph,
                                            const gsp_options* options, bool gather) {
  const double t0 = MPI_Wtime();
  const bool root = s.rank() == 0;
  RunOptions ro;
  int threads = 1;
  int64_t head[6] = {0, 0, 0, 0, 0, 0};  // n, dtype, want paths, m, block size, backend
  if (first.ok()) {
    first = capture([&] {
      ro = normalize_options(options);
      // normalize_options resolved 0 to every core; ranks sharing a node share them.
      const int32_t asked = options != nullptr ? options->num_threads : 0;
      const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      threads = asked > 0 ? asked : std::max(1, cores / std::max(1, s.ranks_on_node()));
      if (root) {
        require(graph != nullptr, GSP_ERR_INVALID_ARGUMENT, "graph must not be NULL on rank 0");
        require(ro.algorithm == GSP_ALGO_AUTO || ro.algorithm == GSP_APSP_FLOYD_WARSHALL, GSP_ERR_UNSUPPORTED,
                std::string("the MPI engine runs Floyd-Warshall only, not ") + gsp_algorithm_name(ro.algorithm));
        head[0] = graph->n();
        head[1] = graph->dtype();
        head[2] = ro.want_paths ? 1 : 0;
        head[3] = graph->m();
        head[5] = ro.backend;
      }
    });
  }
  s.agree(first);
  bcast(head, 6, 0, s.comm());

  // Each rank's engine; the block size suits every rank's (a multiple of
  // the device granule as soon as one rank computes on a GPU).
  LocalEngine engine;
  s.agree(capture([&] { engine = choose_engine(s, ro, static_cast<gsp_backend>(head[5]), threads); }));
  int mine = engine.gpu ? 1 : 0, any_gpu = 0;
  mpi_check(MPI_Allreduce(&mine, &any_gpu, 1, MPI_INT, MPI_MAX, s.comm()), "MPI_Allreduce");
  s.agree(capture([&] {
    if (root) head[4] = block_size_from_env(static_cast<int32_t>(head[0]), s.pr(), s.pc(), any_gpu != 0);
  }));
  bcast(head + 4, 1, 0, s.comm());

  const Layout L(static_cast<int32_t>(head[0]), static_cast<int32_t>(head[4]), s.pr(), s.pc(), s.myrow(),
                 s.mycol());
  const double t_setup = MPI_Wtime() - t0;
  std::unique_ptr<BlockResult> result;
  const bool rows = gather && s.size() == 1;
  if (head[1] == GSP_F32) {
    run_fw<float>(s, L, head[2] != 0, rows, head[3], graph, ro, engine, result);
  } else {
    run_fw<int32_t>(s, L, head[2] != 0, rows, head[3], graph, ro, engine, result);
  }
  result->t0 = t0;
  result->times.setup += t_setup;
  result->stats.seconds = MPI_Wtime() - t0;
  if (!gather && trace_on()) print_trace(*result, result->stats.seconds);
  return result;
}

std::unique_ptr<Paths> gather_to_root(const Session& s, BlockResult& br, const GraphPtr& graph,
                                      const std::function<void()>& before_agree) {
  const double t0 = MPI_Wtime();
  const Layout& L = br.layout;
  std::unique_ptr<Paths> paths;
  HostArray<float> buf_f;
  HostArray<int32_t> buf_i, pbuf;
  std::unique_ptr<cpu::Team> team;
  s.agree(capture([&] {
    if (s.rank() != 0) return;
    paths = std::make_unique<Paths>();
    Paths& p = *paths;
    p.graph = graph;
    p.n = L.n;
    p.dtype = br.dtype;
    p.sources.resize(static_cast<size_t>(L.n));
    std::iota(p.sources.begin(), p.sources.end(), 0);
    p.row_of.reserve(static_cast<size_t>(L.n));
    for (int32_t v = 0; v < L.n; ++v) p.row_of.emplace(v, v);
    if (br.rows) {  // one rank: the arrays already are the result
      p.dist_f32 = std::move(br.d_f32);
      p.dist_i32 = std::move(br.d_i32);
      p.pred = std::move(br.pred);
    } else {
      const int64_t elems = static_cast<int64_t>(cpu::matrix_elems(L.n, sizeof(float)));
      // The widest local block row any rank sends (grid column 0 has the most blocks).
      const int64_t most = static_cast<int64_t>(Layout::owned(L.nb, L.pc, 0)) * L.bb();
      if (br.dtype == GSP_F32) {
        alloc_uninit(p.dist_f32, elems, false);
        alloc_uninit(buf_f, most, false);
      } else {
        alloc_uninit(p.dist_i32, elems, false);
        alloc_uninit(buf_i, most, false);
      }
      if (br.has_paths) {
        alloc_uninit(p.pred, elems, false);
        alloc_uninit(pbuf, most, false);
      }
      team = std::make_unique<cpu::Team>(br.threads);
    }
    p.has_paths = br.has_paths;
    p.stats = br.stats;
    before_agree();
  }));
  if (!br.rows) {
    if (br.dtype == GSP_F32) {
      gather_t<float>(s, br, paths.get(), buf_f, pbuf, team.get());
    } else {
      gather_t<int32_t>(s, br, paths.get(), buf_i, pbuf, team.get());
    }
  }
  const double now = MPI_Wtime();
  br.times.gather = now - t0;
  if (paths) paths->stats.seconds = now - br.t0;
  if (trace_on()) print_trace(br, now - br.t0);
  return paths;
}

}  // namespace gsp::detail::mpi
