// The region partition behind the CUDA delta-stepping's region engine
// (src/core/region_partition.cpp, compiled into this test): a permutation
// with its inverse, contiguous regions of at most cap vertices (all full but
// the last), region_of consistent with the ranges, the renumbered CSR equal
// to the original arc for arc, and regions compact on a grid (few arcs
// between regions), on graphs with isolated vertices, several components,
// n = 0 and 1, and caps from 1 to n.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/region_partition.h"

namespace {

int checks = 0, failures = 0;
#define EXPECT(cond, ...)                          \
  do {                                             \
    ++checks;                                      \
    if (!(cond)) {                                 \
      ++failures;                                  \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                    \
      std::printf("\n");                           \
    }                                              \
  } while (0)

struct G {
  const char* name;
  int32_t n = 0;
  std::vector<int64_t> off, roff;
  std::vector<int32_t> head, tail;
  std::vector<float> w;
};

G build(const char* name, int32_t n, const std::vector<std::pair<int32_t, int32_t>>& arcs) {
  G g;
  g.name = name;
  g.n = n;
  g.off.assign(static_cast<size_t>(n) + 1, 0);
  g.roff.assign(static_cast<size_t>(n) + 1, 0);
  for (auto [u, v] : arcs) {
    g.off[static_cast<size_t>(u) + 1]++;
    g.roff[static_cast<size_t>(v) + 1]++;
  }
  for (int32_t v = 0; v < n; ++v) {
    g.off[v + 1] += g.off[v];
    g.roff[v + 1] += g.roff[v];
  }
  g.head.resize(arcs.size());
  g.tail.resize(arcs.size());
  g.w.resize(arcs.size());
  std::vector<int64_t> p(g.off.begin(), g.off.end() - 1), q(g.roff.begin(), g.roff.end() - 1);
  for (size_t i = 0; i < arcs.size(); ++i) {
    auto [u, v] = arcs[i];
    const int64_t a = p[u]++;
    g.head[a] = v;
    g.w[a] = static_cast<float>(i % 97) + 0.5f;
    g.tail[q[v]++] = u;
  }
  return g;
}

G grid(int32_t side) {
  std::vector<std::pair<int32_t, int32_t>> arcs;
  for (int32_t y = 0; y < side; ++y) {
    for (int32_t x = 0; x < side; ++x) {
      const int32_t v = y * side + x;
      if (x + 1 < side) arcs.push_back({v, v + 1}), arcs.push_back({v + 1, v});
      if (y + 1 < side) arcs.push_back({v, v + side}), arcs.push_back({v + side, v});
    }
  }
  return build("grid", side * side, arcs);
}

G random_graph(int32_t n, int32_t deg, unsigned seed) {
  std::vector<std::pair<int32_t, int32_t>> arcs;
  unsigned s = seed;
  for (int32_t u = 0; u < n; ++u) {
    for (int32_t k = 0; k < deg; ++k) {
      s = s * 1103515245u + 12345u;
      arcs.push_back({u, static_cast<int32_t>((s >> 8) % static_cast<unsigned>(n))});
    }
  }
  return build("random", n, arcs);
}

// Two directed chains, a few isolated vertices, and a star: pieces that a
// single search cannot reach from one seed.
G pieces() {
  std::vector<std::pair<int32_t, int32_t>> arcs;
  for (int32_t v = 0; v < 49; ++v) arcs.push_back({v, v + 1});           // chain 0..49
  for (int32_t v = 60; v < 99; ++v) arcs.push_back({v + 1, v});          // chain 99..60 (arcs pointing down)
  for (int32_t v = 101; v < 120; ++v) arcs.push_back({100, v});          // star at 100
  return build("pieces", 125, arcs);                                     // 50..59, 120..124 isolated
}

void check(const G& g, int32_t cap) {
  using namespace gsp::detail;
  const RegionPartition p = partition_regions(g.n, g.off.data(), g.head.data(), g.roff.data(), g.tail.data(), cap);
  const size_t un = static_cast<size_t>(g.n);
  EXPECT(p.new_of_old.size() == un && p.old_of_new.size() == un && p.region_of.size() == un,
         "%s cap %d: sizes", g.name, cap);
  if (p.new_of_old.size() != un || p.old_of_new.size() != un || p.region_of.size() != un) return;
  std::vector<int> hit(un, 0);
  bool perm = true;
  for (size_t v = 0; v < un; ++v) {
    const int32_t nv = p.new_of_old[v];
    if (nv < 0 || nv >= g.n || hit[static_cast<size_t>(nv)]++ != 0 || p.old_of_new[static_cast<size_t>(nv)] != static_cast<int32_t>(v)) perm = false;
  }
  EXPECT(perm, "%s cap %d: new_of_old is not a permutation with inverse old_of_new", g.name, cap);
  const int32_t regions = p.regions();
  EXPECT(regions == (g.n + cap - 1) / cap, "%s cap %d: %d regions, expected %d", g.name, cap, regions,
         (g.n + cap - 1) / cap);
  EXPECT(p.start.front() == 0 && p.start.back() == g.n, "%s cap %d: ranges do not cover 0..n", g.name, cap);
  bool sizes = true, owners = true;
  for (int32_t r = 0; r < regions; ++r) {
    const int32_t size = p.start[r + 1] - p.start[r];
    if (size < 1 || size > cap || (r + 1 < regions && size != cap)) sizes = false;
    for (int32_t v = p.start[r]; v < p.start[r + 1]; ++v) {
      if (p.region_of[static_cast<size_t>(v)] != r) owners = false;
    }
  }
  EXPECT(sizes, "%s cap %d: a region is empty, over cap, or not full before the last", g.name, cap);
  EXPECT(owners, "%s cap %d: region_of disagrees with the ranges", g.name, cap);

  CsrView<float> view;
  view.n = g.n;
  view.m = static_cast<int64_t>(g.head.size());
  view.offsets = g.off.data();
  view.targets = g.head.data();
  view.weights = g.w.data();
  const RenumberedCsr<float> r = renumber_csr(p, view);
  bool same = r.offsets.size() == un + 1 && r.offsets.back() == view.m;
  for (size_t nv = 0; same && nv < un; ++nv) {
    const int32_t old = p.old_of_new[nv];
    const int64_t deg = g.off[old + 1] - g.off[old];
    if (r.offsets[nv + 1] - r.offsets[nv] != deg) {
      same = false;
      break;
    }
    for (int64_t k = 0; k < deg; ++k) {
      const int64_t a = r.offsets[nv] + k, b = g.off[old] + k;
      if (p.old_of_new[static_cast<size_t>(r.heads[a])] != g.head[b] || r.weights[a] != g.w[b]) same = false;
    }
  }
  EXPECT(same, "%s cap %d: the renumbered CSR differs from the graph", g.name, cap);
}

// On a grid, regions grown by search are compact: few arcs cross between
// regions (a numbering in id order would cut the grid into strips; a random
// one would cut almost every arc).
void check_compact() {
  using namespace gsp::detail;
  const G g = grid(64);
  const int32_t cap = 256;
  const RegionPartition p = partition_regions(g.n, g.off.data(), g.head.data(), g.roff.data(), g.tail.data(), cap);
  int64_t cut = 0;
  for (int32_t u = 0; u < g.n; ++u) {
    for (int64_t e = g.off[u]; e < g.off[u + 1]; ++e) {
      if (p.region_of[static_cast<size_t>(p.new_of_old[u])] != p.region_of[static_cast<size_t>(p.new_of_old[g.head[e]])]) ++cut;
    }
  }
  const double frac = static_cast<double>(cut) / static_cast<double>(g.head.size());
  std::printf("grid 64x64, cap 256: %lld of %zu arcs between regions (%.1f%%)\n", static_cast<long long>(cut),
              g.head.size(), 100.0 * frac);
  EXPECT(frac < 0.2, "grid regions are not compact: %.1f%% of the arcs cross regions", 100.0 * frac);
}

}  // namespace

int main() {
  const G graphs[] = {build("empty", 0, {}), build("single", 1, {}), build("loop", 1, {{0, 0}}),
                      grid(17), random_graph(1000, 3, 7u), pieces()};
  for (const G& g : graphs) {
    for (int32_t cap : {1, 2, 3, 7, 64, 1000}) check(g, cap);
    if (g.n > 0) check(g, g.n);
  }
  check_compact();
  std::printf("test_region_partition: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
