// The table engine's point-to-point search (engines/cpu/apsp_sparse/
// point_to_point.*) through cpu::table, where the public API cannot reach
// without a device: TableJob::settle_budget, AUTO's bet, counts the
// vertices both sides settle and gives the table up (table() false) exactly
// past it; the run's relaxations are both sides' arcs. Beside it, the
// search settles fewer vertices than the one forward search to the same
// target on a grid (the reason it exists), its answers equal Dijkstra's on
// every weight type, and a target it cannot meet is settled by the forward
// side alone, under the same budget.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/graph_build.h"
#include "engines/cpu/apsp_sparse/point_to_point.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/sssp/sssp_core.h"
#include "checks.h"

namespace cpu = gsp::detail::cpu;
using gsp::detail::Dist;
using gsp::detail::GraphPtr;
using gsp::detail::TableJob;

namespace {

// A side x side grid, arcs both ways, weights 1..20 from a fixed sequence.
struct Arcs {
  int32_t n = 0;
  std::vector<int32_t> from, to, w;
  void add(int32_t u, int32_t v, int32_t x) {
    from.push_back(u);
    to.push_back(v);
    w.push_back(x);
  }
};

Arcs grid(int32_t side) {
  Arcs a;
  a.n = side * side;
  uint64_t r = 7;
  auto weight = [&] {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    return 1 + static_cast<int32_t>((r >> 33) % 20);
  };
  for (int32_t i = 0; i < side; ++i) {
    for (int32_t j = 0; j < side; ++j) {
      const int32_t v = i * side + j;
      if (j + 1 < side) a.add(v, v + 1, weight()), a.add(v + 1, v, weight());
      if (i + 1 < side) a.add(v, v + side, weight()), a.add(v + side, v, weight());
    }
  }
  return a;
}

template <class W>
GraphPtr make_graph(const Arcs& a) {
  std::vector<W> w(a.w.begin(), a.w.end());
  return gsp::detail::build_graph_coo(a.n, static_cast<int64_t>(a.from.size()), a.from.data(), a.to.data(), w.data(),
                                      gsp::detail::dtype_of<W>(), false);
}

// The forward search's answer and the vertices it settles before t (t
// included), as the table engine's search runs it.
template <class W>
std::pair<W, int64_t> forward_search(const gsp::detail::Graph& g, int32_t s, int32_t t) {
  const auto view = g.view<W>();
  std::vector<W> dist(static_cast<size_t>(g.n()));
  cpu::HeapVec<W> heap;
  cpu::OverflowArcs overflowed;
  int64_t settled = 0;
  cpu::dijkstra_loop<W>(
      view, s, cpu::DenseLabels<W>{dist.data(), nullptr, g.n()}, heap, overflowed,
      [&](int64_t e) { return view.weights[e]; },
      [&](int32_t u) {
        ++settled;
        return u == t;
      });
  return {dist[static_cast<size_t>(t)], settled};
}

// cpu::table for sources x {t} under `budget`; false when it gave up.
template <class W>
bool table(const gsp::detail::Graph& g, const std::vector<int32_t>& sources, int32_t t, int64_t budget,
           std::vector<W>* dist, gsp::detail::RunStats* stats, bool paths) {
  gsp::detail::RunOptions o;
  o.num_threads = 1;
  gsp::detail::TablePaths p;
  p.reset(static_cast<int32_t>(sources.size()), 1);
  dist->assign(sources.size(), W(0));
  TableJob job;
  job.graph = &g;
  job.sources = sources.data();
  job.num_sources = static_cast<int32_t>(sources.size());
  job.targets = &t;
  job.num_targets = 1;
  job.options = &o;
  job.dist = dist->data();
  job.paths = paths ? &p : nullptr;
  job.stats = stats;
  job.settle_budget = budget;
  return cpu::table(job);
}

// The budget counts both sides: a budget of exactly the vertices the
// search settles answers, one less gives up; a near target answers under
// a small budget; one far source gives a K x 1 table up.
void test_budget() {
  const Arcs a = grid(60);
  const GraphPtr gp = make_graph<int32_t>(a);
  const gsp::detail::Graph& g = *gp;
  {  // A bet on a graph without its reverse searches forward only, and builds none.
    std::vector<int32_t> d;
    gsp::detail::RunStats stats;
    const int32_t near = 61;
    CHECK(table<int32_t>(g, {0}, near, 1 << 20, &d, &stats, false) && d[0] == forward_search<int32_t>(g, 0, near).first,
          "a bet before the reverse graph exists: %d", d.empty() ? -1 : d[0]);
    CHECK(!g.has_reverse(), "a bet built the reverse graph");
  }
  const auto pg = cpu::point_to_point_graph<int32_t>(g);
  const int32_t s = 0, t = a.n - 1, near = 61, near_t = t - 61;
  cpu::PointToPoint<int32_t> search;
  const cpu::PointToPointAnswer<int32_t> all = search.run(pg, s, t, 0, nullptr);
  const std::pair<int32_t, int64_t> fwd = forward_search<int32_t>(g, s, t);
  CHECK(all.dist == fwd.first && !all.gave_up, "corner to corner: %d, Dijkstra %d", all.dist, fwd.first);
  CHECK(all.settled < fwd.second, "the bidirectional search settled %lld vertices, the forward one %lld",
        static_cast<long long>(all.settled), static_cast<long long>(fwd.second));
  std::printf("60 x 60 grid, corner to corner: %lld vertices settled (both sides), forward search %lld\n",
              static_cast<long long>(all.settled), static_cast<long long>(fwd.second));
  for (bool paths : {false, true}) {
    std::vector<int32_t> d;
    gsp::detail::RunStats stats;
    CHECK(table<int32_t>(g, {s}, t, all.settled, &d, &stats, paths) && d[0] == fwd.first,
          "budget = the vertices settled: answered %d", d.empty() ? -1 : d[0]);
    CHECK(stats.relaxations == all.relaxations && stats.algorithm == GSP_APSP_HEAP && stats.iterations == 1,
          "relaxations %lld, the search's %lld", static_cast<long long>(stats.relaxations),
          static_cast<long long>(all.relaxations));
    CHECK(!table<int32_t>(g, {s}, t, all.settled - 1, &d, &stats, paths), "budget one short: the table is given up");
    CHECK(search.run(pg, s, t, all.settled - 1, nullptr).gave_up, "the search alone gives up one short too");
    CHECK(table<int32_t>(g, {s}, near, 16, &d, &stats, paths) && d[0] == forward_search<int32_t>(g, s, near).first,
          "a near target under a budget of 16: %d", d.empty() ? -1 : d[0]);
    CHECK(!table<int32_t>(g, {near_t, s, t}, t, all.settled - 1, &d, &stats, paths),
          "K x 1 with one far source: given up");
    CHECK(table<int32_t>(g, {near_t, s, t}, t, all.settled, &d, &stats, paths) && d[1] == fwd.first && d[2] == 0 &&
              d[0] == forward_search<int32_t>(g, near_t, t).first,
          "K x 1 under the far source's budget");
  }
}

// A target the sides cannot meet where sums might overflow (n times the
// largest weight passes GSP_I32_INF): the forward side settles all s
// reaches, under the same budget.
void test_unmet_target() {
  Arcs a = grid(20);
  const int32_t lone = a.n;
  a.n += 1;  // a vertex without arcs
  a.add(0, 1, 1000000000);
  const GraphPtr gp = make_graph<int32_t>(a);
  const auto pg = cpu::point_to_point_graph<int32_t>(*gp);
  CHECK(!pg.sums_fit, "n times the largest weight does not fit");
  cpu::PointToPoint<int32_t> search;
  const cpu::PointToPointAnswer<int32_t> all = search.run(pg, 5, lone, 0, nullptr);
  CHECK(all.dist == Dist<int32_t>::inf() && all.settled >= lone, "unreachable: %d after %lld vertices", all.dist,
        static_cast<long long>(all.settled));
  CHECK(search.run(pg, 5, lone, all.settled - 1, nullptr).gave_up, "one short of the forward side's count: gives up");
  CHECK(!search.run(pg, 5, lone, all.settled, nullptr).gave_up, "the budget of its count: answers");
  const auto fpg = cpu::point_to_point_graph<float>(*make_graph<float>(a));
  CHECK(fpg.sums_fit, "float: n times the largest weight fits");
}

// Every weight type against the forward search, on grid pairs.
template <class W>
void test_against_forward() {
  const Arcs a = grid(40);
  const GraphPtr gp = make_graph<W>(a);
  const auto pg = cpu::point_to_point_graph<W>(*gp);
  cpu::PointToPoint<W> search;
  uint64_t r = 11;
  int bad = 0;
  for (int q = 0; q < 200; ++q) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    const int32_t s = static_cast<int32_t>((r >> 33) % static_cast<uint64_t>(a.n));
    const int32_t t = static_cast<int32_t>((r >> 13) % static_cast<uint64_t>(a.n));
    std::vector<int32_t> path;
    const cpu::PointToPointAnswer<W> got = search.run(pg, s, t, 0, &path);
    const std::pair<W, int64_t> want = forward_search<W>(*gp, s, t);
    bad += got.dist != want.first || path.empty() || path.front() != s || path.back() != t;
  }
  CHECK(bad == 0, "%d of 200 grid pairs differ from the forward search (%s)", bad,
        gsp::detail::dtype_of<W>() == GSP_I32   ? "i32"
        : gsp::detail::dtype_of<W>() == GSP_F32 ? "f32"
                                                : "f64");
}

}  // namespace

int main() {
  test_budget();
  test_unmet_target();
  test_against_forward<int32_t>();
  test_against_forward<float>();
  test_against_forward<double>();
  return t_finish("test_point_to_point");
}
