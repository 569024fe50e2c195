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
std::vector<W>& store(BlockResult& r) {
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

// Predecessor cycles (see src/cpu/pred_repair.h) can only be seen in whole rows: the
// ranks of each grid row gather each of their block rows in full, check
// every row, and rebuild the bad ones; each rank keeps its own columns.
template <class W>
void repair_preds(const Session& s, const Layout& L, const CsrView<W>& g, const std::vector<W>& D,
                  std::vector<int32_t>& P) {
  const int64_t bb = L.bb();
  const int64_t n = L.n;
  std::vector<int> counts(static_cast<size_t>(L.pc)), displs(static_cast<size_t>(L.pc));
  std::vector<W> rows_d, full_d;
  std::vector<int32_t> rows_p, full_p;
  cpu::PredRepairScratch scratch;
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
    alloc(rows_d, total, W(0));
    alloc(rows_p, total, int32_t(-1));
    alloc(full_d, L.b * n, W(0));
    alloc(full_p, L.b * n, int32_t(-1));
  }));
  Outcome outcome;
  for (int32_t li = 0; li < L.nlr; ++li) {
    const int mine = static_cast<int>(L.nlc * bb);
    mpi_check(MPI_Allgatherv(D.data() + L.offset(li, 0), mine, mpi_type<W>(), rows_d.data(), counts.data(),
                             displs.data(), mpi_type<W>(), s.row_comm()),
              "MPI_Allgatherv");
    mpi_check(MPI_Allgatherv(P.data() + L.offset(li, 0), mine, MPI_INT32_T, rows_p.data(), counts.data(),
                             displs.data(), MPI_INT32_T, s.row_comm()),
              "MPI_Allgatherv");
    outcome.merge(capture([&] {
      const int32_t I = L.grow(li);
      const int32_t rows = L.extent(I);
      for (int32_t J = 0; J < L.nb; ++J) {
        const int64_t src = displs[static_cast<size_t>(J % L.pc)] + static_cast<int64_t>(J / L.pc) * bb;
        const int32_t cols = L.extent(J);
        for (int32_t r = 0; r < rows; ++r) {
          const int64_t from = src + static_cast<int64_t>(r) * L.b, to = r * n + static_cast<int64_t>(J) * L.b;
          std::copy(rows_d.begin() + from, rows_d.begin() + from + cols, full_d.begin() + to);
          std::copy(rows_p.begin() + from, rows_p.begin() + from + cols, full_p.begin() + to);
        }
      }
      for (int32_t r = 0; r < rows; ++r) {
        int32_t* prow = full_p.data() + r * n;
        if (!cpu::repair_pred_row(g, I * L.b + r, full_d.data() + r * n, prow, scratch)) continue;
        for (int32_t lj = 0; lj < L.nlc; ++lj) {
          const int32_t J = L.gcol(lj);
          std::copy(prow + static_cast<int64_t>(J) * L.b, prow + static_cast<int64_t>(J) * L.b + L.extent(J),
                    P.begin() + L.offset(li, lj) + static_cast<int64_t>(r) * L.b);
        }
      }
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
void run_fw(const Session& s, const Layout& L, bool want, int64_t m, const Graph* graph, const RunOptions& ro,
            const LocalEngine& engine, std::unique_ptr<BlockResult>& result) {
  const bool root = s.rank() == 0;
  const int64_t bb = L.bb();
  const int32_t n = L.n;

  // Allocation: the CSR copy (ranks other than 0) and the local store.
  std::vector<int64_t> offsets;
  std::vector<int32_t> targets;
  std::vector<W> weights;
  s.agree(capture([&] {
    maybe_inject_failure(s.rank());
    result = std::make_unique<BlockResult>();
    if (!root) {
      alloc(offsets, int64_t(n) + 1, int64_t(0));
      alloc(targets, m, int32_t(0));
      alloc(weights, m, W(0));
    }
    alloc(store<W>(*result), static_cast<int64_t>(L.local_elems()), Dist<W>::inf());
    if (want) alloc(result->pred, static_cast<int64_t>(L.local_elems()), int32_t(-1));
  }));
  BlockResult& out = *result;
  std::vector<W>& D = store<W>(out);
  std::vector<int32_t>& P = out.pred;

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

  // The initial blocks: 0 on the diagonal, the lightest parallel arc elsewhere.
  BlockFwShape shape = shape_of(L, want);
  s.agree(capture([&] {
    double max_abs = 0;
    for (int64_t e = 0; e < m; ++e) max_abs = std::max(max_abs, std::abs(static_cast<double>(wt[e])));
    shape.max_abs_weight = max_abs;
    for (int32_t li = 0; li < L.nlr; ++li) {
      const int32_t I = L.grow(li);
      const int32_t rows = L.extent(I);
      if (I % L.pc == L.mycol) {
        W* blk = D.data() + L.offset(li, I / L.pc);
        for (int32_t r = 0; r < rows; ++r) blk[static_cast<int64_t>(r) * L.b + r] = W(0);
      }
      for (int32_t r = 0; r < rows; ++r) {
        const int32_t u = I * L.b + r;
        for (int64_t e = off[u]; e < off[u + 1]; ++e) {
          const int32_t v = tg[e];
          const int32_t J = v / L.b;
          if (J % L.pc != L.mycol) continue;
          const int64_t at = L.offset(li, J / L.pc) + static_cast<int64_t>(r) * L.b + (v - J * L.b);
          if (wt[e] < D[static_cast<size_t>(at)]) {
            D[static_cast<size_t>(at)] = wt[e];
            if (want) P[static_cast<size_t>(at)] = u;
          }
        }
      }
    }
    check_store_diagonal(shape, D.data());
  }));

  // The local engine takes the blocks (a GPU rank uploads them).
  std::unique_ptr<BlockFw<W>> fw;
  s.agree(capture([&] {
    int32_t* pstore = want ? P.data() : nullptr;
    if (engine.gpu) {
      fw = gpu::make_block_fw(shape, engine.device_options, D.data(), pstore);
    } else {
      fw = std::make_unique<CpuBlockFw<W>>(shape, engine.threads, D.data(), pstore);
    }
    fw->start();
  }));

  // The k-steps. Local work runs under capture() so that a failure never
  // skips a broadcast (no rank hangs); the ranks agree at the end of each
  // step. A buffer that could not be prepared is replaced by the receive
  // buffer of the same size (its content no longer matters then).
  // GSP_MPI_TRACE=1: each rank prints where its k-steps' time went (its own
  // work vs. broadcasts and agreement, which include waiting for the others).
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
  if (const char* tr = std::getenv("GSP_MPI_TRACE"); tr != nullptr && *tr != '\0' && *tr != '0') {
    std::fprintf(stderr,
                 "gsp mpi: rank %d of %d (%d x %d grid, b = %d, %d steps): local work %.3f s, "
                 "broadcasts + agreement %.3f s, %s\n",
                 s.rank(), s.size(), L.pr, L.pc, L.b, L.nb, local_s, comm_s, fw->describe().c_str());
  }
  s.agree(capture([&] { fw->finish(); }));
  const std::string where = fw->describe();
  fw.reset();

  if (want) repair_preds(s, L, CsrView<W>{n, m, off, tg, wt}, D, P);

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

template <class W>
void gather_t(const Session& s, const BlockResult& br, Paths* paths, std::vector<W>& buf,
              std::vector<int32_t>& pbuf) {
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
      for (int32_t lj = 0; lj < Lr.nlc; ++lj) {
        const int32_t J = Lr.gcol(lj);
        const int32_t cols = Lr.extent(J);
        for (int32_t i = 0; i < Lr.extent(I); ++i) {
          const int64_t to = (static_cast<int64_t>(I) * L.b + i) * n + static_cast<int64_t>(J) * L.b;
          const int64_t from = lj * bb + static_cast<int64_t>(i) * L.b;
          std::memcpy(dist + to, src + from, static_cast<size_t>(cols) * sizeof(W));
          if (want) std::memcpy(pred + to, psrc + from, static_cast<size_t>(cols) * sizeof(int32_t));
        }
      }
    }
  }
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
                                            const gsp_options* options) {
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
  std::unique_ptr<BlockResult> result;
  if (head[1] == GSP_F32) {
    run_fw<float>(s, L, head[2] != 0, head[3], graph, ro, engine, result);
  } else {
    run_fw<int32_t>(s, L, head[2] != 0, head[3], graph, ro, engine, result);
  }
  result->stats.seconds = MPI_Wtime() - t0;
  return result;
}

std::unique_ptr<Paths> gather_to_root(const Session& s, const BlockResult& br, const GraphPtr& graph,
                                      const std::function<void()>& before_agree) {
  const double t0 = MPI_Wtime();
  const Layout& L = br.layout;
  std::unique_ptr<Paths> paths;
  std::vector<float> buf_f;
  std::vector<int32_t> buf_i, pbuf;
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
    const size_t elems = cpu::matrix_elems(L.n, sizeof(float));
    // The widest local block row any rank sends (grid column 0 has the most blocks).
    const int64_t most = static_cast<int64_t>(Layout::owned(L.nb, L.pc, 0)) * L.bb();
    if (br.dtype == GSP_F32) {
      p.dist_f32.assign(elems, 0.0f);
      if (s.size() > 1) alloc(buf_f, most, 0.0f);
    } else {
      p.dist_i32.assign(elems, int32_t(0));
      if (s.size() > 1) alloc(buf_i, most, int32_t(0));
    }
    if (br.has_paths) {
      p.pred.assign(elems, int32_t(-1));
      if (s.size() > 1) alloc(pbuf, most, int32_t(-1));
    }
    p.has_paths = br.has_paths;
    p.stats = br.stats;
    before_agree();
  }));
  if (br.dtype == GSP_F32) {
    gather_t<float>(s, br, paths.get(), buf_f, pbuf);
  } else {
    gather_t<int32_t>(s, br, paths.get(), buf_i, pbuf);
  }
  if (paths) paths->stats.seconds += MPI_Wtime() - t0;
  return paths;
}

}  // namespace gsp::detail::mpi
