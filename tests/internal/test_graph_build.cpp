// core/graph_build.cpp and core/graph.cpp on inputs large enough to be
// built on several threads (2^22 arcs and more): the CSR, directed and
// undirected, from COO and from CSR, and the reverse graph, are exactly the
// sequential counting sort's (recomputed here); the weight statistics are
// the sequential ones; an endpoint out of range or a non-finite weight is
// named at its first index, as the sequential checks name it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "checks.h"
#include "core/error.h"
#include "core/graph.h"
#include "core/graph_build.h"

using gsp::detail::Csr;
using gsp::detail::Error;
using gsp::detail::Graph;
using gsp::detail::GraphPtr;

namespace {

struct Ref {
  std::vector<int64_t> off;
  std::vector<int32_t> tgt;
  std::vector<int32_t> w;
};

// The sequential stable counting sort by tail (undirected: (v, u) right
// after (u, v), a self-loop once).
Ref reference(int32_t n, const std::vector<int32_t>& src, const std::vector<int32_t>& dst,
              const std::vector<int32_t>& w, bool undirected) {
  Ref r;
  r.off.assign(static_cast<size_t>(n) + 1, 0);
  for (size_t i = 0; i < src.size(); ++i) {
    r.off[static_cast<size_t>(src[i]) + 1]++;
    if (undirected && src[i] != dst[i]) r.off[static_cast<size_t>(dst[i]) + 1]++;
  }
  for (int32_t v = 0; v < n; ++v) r.off[v + 1] += r.off[v];
  std::vector<int64_t> pos(r.off.begin(), r.off.end() - 1);
  r.tgt.resize(static_cast<size_t>(r.off[n]));
  r.w.resize(r.tgt.size());
  for (size_t i = 0; i < src.size(); ++i) {
    int64_t at = pos[src[i]]++;
    r.tgt[at] = dst[i];
    r.w[at] = w[i];
    if (undirected && src[i] != dst[i]) {
      at = pos[dst[i]]++;
      r.tgt[at] = src[i];
      r.w[at] = w[i];
    }
  }
  return r;
}

bool same(const Csr& c, const Ref& r) {
  return c.offsets.size() == r.off.size() && std::equal(r.off.begin(), r.off.end(), c.offsets.begin()) &&
         c.targets == r.tgt && c.weights_i32 == r.w;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

}  // namespace

int main() {
  // 5M arcs over 300k vertices, heavy-tailed tails (a few hubs), with
  // self-loops and parallel arcs.
  const int32_t n = 300000;
  const size_t m = 5000000;
  std::mt19937_64 rng(32);
  std::vector<int32_t> src(m), dst(m), w(m);
  for (size_t i = 0; i < m; ++i) {
    const uint64_t r = rng();
    src[i] = (r & 7) == 0 ? static_cast<int32_t>(r >> 40) % 16 : static_cast<int32_t>((r >> 8) % n);
    dst[i] = i % 97 == 0 ? src[i] : static_cast<int32_t>((r >> 32) % n);
    w[i] = 1 + static_cast<int32_t>((r >> 20) % 1000);
  }
  for (const bool undirected : {false, true}) {
    const Ref ref = reference(n, src, dst, w, undirected);
    const GraphPtr g =
        gsp::detail::build_graph_coo(n, static_cast<int64_t>(m), src.data(), dst.data(), w.data(), GSP_I32, undirected);
    CHECK(same(g->forward(), ref), "COO%s: the CSR differs from the sequential sort", undirected ? " undirected" : "");
    // The same arcs as CSR input: directed is copied, undirected sorted again.
    const Ref fwd = reference(n, src, dst, w, false);
    const GraphPtr h =
        gsp::detail::build_graph_csr(n, fwd.off.data(), fwd.tgt.data(), fwd.w.data(), GSP_I32, undirected);
    const Ref ref2 = reference(
        n,
        [&] {
          std::vector<int32_t> t(fwd.tgt.size());
          for (int32_t u = 0; u < n; ++u)
            for (int64_t e = fwd.off[u]; e < fwd.off[u + 1]; ++e) t[e] = u;
          return t;
        }(),
        fwd.tgt, fwd.w, undirected);
    CHECK(same(h->forward(), ref2), "CSR%s: the CSR differs from the sequential sort", undirected ? " undirected" : "");
    // Statistics as the sequential scan computes them (exact for int32).
    double sum = 0;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (int32_t x : ref.w) {
      sum += x;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    CHECK(g->min_weight() == lo && g->max_weight() == hi && g->mean_weight() == sum / static_cast<double>(ref.w.size()),
          "statistics: %g %g %g", g->min_weight(), g->max_weight(), g->mean_weight());
    int64_t maxdeg = 0;
    for (int32_t v = 0; v < n; ++v) maxdeg = std::max(maxdeg, ref.off[v + 1] - ref.off[v]);
    CHECK(g->max_out_degree() == maxdeg, "max out-degree %lld, expected %lld",
          static_cast<long long>(g->max_out_degree()), static_cast<long long>(maxdeg));
    // The reverse graph: in-arcs in the order of the forward arcs.
    std::vector<int32_t> tails(ref.tgt.size());
    for (int32_t u = 0; u < n; ++u)
      for (int64_t e = ref.off[u]; e < ref.off[u + 1]; ++e) tails[e] = u;
    const Ref rev = reference(n, ref.tgt, tails, ref.w, false);
    CHECK(same(g->reverse(), rev), "the reverse graph differs from the sequential sort");
  }
  // Errors name the first bad index, as the sequential checks do.
  {
    std::vector<int32_t> s2 = src, d2 = dst;
    d2[4000001] = n;
    s2[4500000] = -1;
    const std::string e = error_of([&] {
      gsp::detail::build_graph_coo(n, static_cast<int64_t>(m), s2.data(), d2.data(), w.data(), GSP_I32, false);
    });
    CHECK(e.find("targets[4000001]") != std::string::npos, "message: %s", e.c_str());
    d2[4000001] = 0;
    d2[3999999] = n + 5;
    s2[3999999] = n;
    const std::string e2 = error_of([&] {
      gsp::detail::build_graph_coo(n, static_cast<int64_t>(m), s2.data(), d2.data(), w.data(), GSP_I32, false);
    });
    CHECK(e2.find("sources[3999999]") != std::string::npos, "message: %s", e2.c_str());
    std::vector<float> wf(w.begin(), w.end());
    wf[4999998] = NAN;
    wf[4999999] = INFINITY;
    const std::string e3 = error_of([&] {
      gsp::detail::build_graph_coo(n, static_cast<int64_t>(m), src.data(), dst.data(), wf.data(), GSP_F32, true);
    });
    CHECK(e3.find("weights[4999998] is NaN") != std::string::npos, "message: %s", e3.c_str());
  }
  return t_finish("test_graph_build");
}
