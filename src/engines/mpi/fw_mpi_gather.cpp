// The distributed Floyd-Warshall's result on rank 0: every rank's block
// rows gathered and laid out in the result's rows (or, on one rank, the
// rank's row arrays adopted as they are), and the trace line of the call.
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>

#include "engines/mpi/fw_mpi.h"
#include "engines/mpi/fw_mpi_util.h"

namespace gsp::detail::mpi {
namespace {

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
  W* dist = paths->dist_array<W>().data();
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

}  // namespace

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
  if (!r.step_profile.empty()) std::fprintf(stderr, "gsp mpi: rank %d k-steps: %s\n", r.rank, r.step_profile.c_str());
}

std::unique_ptr<Paths> gather_to_root(const Session& s, BlockResult& br, const GraphPtr& graph,
                                      const std::function<void()>& before_agree) {
  const double t0 = MPI_Wtime();
  const Layout& L = br.layout;
  std::unique_ptr<Paths> paths;
  HostArray<float> buf_f;
  HostArray<double> buf_d;
  HostArray<int32_t> buf_i, pbuf;
  // The receive buffer of weight type W.
  const auto buf_of = [&](auto w) -> auto& { return by_weight_type<decltype(w)>(buf_f, buf_i, buf_d); };
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
      p.dist_f64 = std::move(br.d_f64);
      p.pred = std::move(br.pred);
    } else {
      const int64_t elems = static_cast<int64_t>(cpu::matrix_elems(L.n, weight_bytes(br.dtype)));
      // The widest local block row any rank sends (grid column 0 has the most blocks).
      const int64_t most = static_cast<int64_t>(Layout::owned(L.nb, L.pc, 0)) * L.bb();
      with_weight_type(br.dtype, [&](auto w) {
        using W = decltype(w);
        alloc_uninit(p.dist_array<W>(), elems, false);
        alloc_uninit(buf_of(w), most, false);
      });
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
    with_weight_type(br.dtype, [&](auto w) { gather_t<decltype(w)>(s, br, paths.get(), buf_of(w), pbuf, team.get()); });
  }
  const double now = MPI_Wtime();
  br.times.gather = now - t0;
  if (paths) {
    paths->stats.seconds = now - br.t0;
    paths->stats.add(Stage::kCopy, br.times.gather);  // the rows into rank 0's result
  }
  if (br.trace) print_trace(br, now - br.t0);
  return paths;
}

}  // namespace gsp::detail::mpi
