// Nearest-source searches (gsp_nearest_run, gsp_search.h): one search from
// every source at once. The graph gains one vertex, a super-source joined
// to each source by a 0 arc; any single-source engine of either backend then
// runs from it through run_sssp (AUTO, the limit, overflow and the float
// negative-cycle rule included), and the nearest source of each vertex is
// the root its predecessor chain reaches below the super-source.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/graph_build.h"
#include "core/host_memory.h"
#include "dispatch/dispatch.h"

namespace gsp::detail {

namespace {

// The graph with vertex n added and arcs n -> s (weight 0) for each distinct source.
GraphPtr with_super_source(const Graph& g, const std::vector<int32_t>& distinct) {
  const int32_t n = g.n();
  const size_t m = static_cast<size_t>(g.m());
  require(n < INT32_MAX, GSP_ERR_INVALID_ARGUMENT,
          "gsp_nearest_run needs one vertex id beyond the graph's; it has the most (2^31 - 1)");
  require_host_memory(bytes_add(bytes_mul(8, static_cast<uint64_t>(n) + 2),
                                bytes_mul(4 + weight_bytes(g.dtype()), m + distinct.size())),
                      "the nearest-source search's copy of the graph and its super-source");
  const Csr& f = g.forward();
  Csr c;
  c.offsets.assign_zero(static_cast<size_t>(n) + 2);
  if (m != 0) std::memcpy(c.offsets.data(), f.offsets.data(), (static_cast<size_t>(n) + 1) * sizeof(int64_t));
  c.offsets[static_cast<size_t>(n) + 1] = static_cast<int64_t>(m + distinct.size());
  c.targets.reserve(m + distinct.size());
  c.targets.assign(f.targets.begin(), f.targets.end());
  c.targets.insert(c.targets.end(), distinct.begin(), distinct.end());
  with_weight_type(g.dtype(), [&](auto w) {
    using W = decltype(w);
    std::vector<W>& ws = weights_of<W>(c);
    ws.reserve(m + distinct.size());
    ws.assign(weights_of<W>(f).begin(), weights_of<W>(f).end());
    ws.insert(ws.end(), distinct.size(), W(0));
  });
  return std::make_shared<const Graph>(n + 1, g.dtype(), std::move(c));
}

}  // namespace

void run_nearest(const GraphPtr& graph, const int32_t* sources, int32_t num_sources, const RunOptions& o, void* dist,
                 int32_t* nearest, int32_t* pred, RunStats* stats) {
  const Graph& g = *graph;
  const int32_t n = g.n();
  require(sources != nullptr, GSP_ERR_INVALID_ARGUMENT, "sources must not be NULL");
  require(num_sources >= 1, GSP_ERR_INVALID_ARGUMENT, "num_sources must be >= 1, got " + std::to_string(num_sources));
  require(dist != nullptr, GSP_ERR_INVALID_ARGUMENT, "distances must not be NULL");
  require(pred == nullptr || o.want_paths, GSP_ERR_INVALID_ARGUMENT,
          "predecessors is not NULL but options->flags has GSP_NO_PATHS; pass NULL for no predecessors");
  std::vector<char> is_source(static_cast<size_t>(n), 0);
  std::vector<int32_t> distinct;
  for (int32_t i = 0; i < num_sources; ++i) {
    const int32_t s = sources[i];
    require_entry_index(s, n, "sources", i);
    if (!is_source[static_cast<size_t>(s)]) distinct.push_back(s);
    is_source[static_cast<size_t>(s)] = 1;
  }
  RunOptions run = o;
  run.want_paths = pred != nullptr || nearest != nullptr;  // the chains name the nearest source
  const std::unique_ptr<Paths> r = run_sssp(with_super_source(g, distinct), n, run);
  if (stats != nullptr) *stats = r->stats;
  const size_t wb = weight_bytes(g.dtype());
  std::memcpy(dist, r->dist_row(0), static_cast<size_t>(n) * wb);
  if (!run.want_paths) return;
  // Chains end at the super-source (vertex n). A source at distance 0 starts
  // its own chain (it names itself), even where another source reaches it
  // at 0 too; one that negative arcs put below 0 keeps the other's chain.
  std::vector<int32_t> p(r->pred_row(0), r->pred_row(0) + n);
  with_weight_type(g.dtype(), [&](auto w) {
    using W = decltype(w);
    const W* d = static_cast<const W*>(dist);
    for (int32_t v = 0; v < n; ++v) {
      if (p[static_cast<size_t>(v)] == n || (is_source[static_cast<size_t>(v)] && d[v] == W(0))) {
        p[static_cast<size_t>(v)] = -1;
      }
    }
  });
  if (pred != nullptr) std::copy(p.begin(), p.end(), pred);
  if (nearest == nullptr) return;
  // Roots by walking each chain once: unknown vertices are stacked until a
  // vertex with a known root (or a chain's start) is met.
  constexpr int32_t kUnknown = -2;
  std::vector<int32_t> root(static_cast<size_t>(n), kUnknown);
  std::vector<int32_t> stack;
  const char* reached = static_cast<const char*>(dist);
  auto is_unreached = [&](int32_t v) {
    return with_weight_type(g.dtype(), [&](auto w) {
      using W = decltype(w);
      W x;
      std::memcpy(&x, reached + static_cast<size_t>(v) * wb, sizeof x);
      return x == Dist<W>::inf();
    });
  };
  for (int32_t v = 0; v < n; ++v) {
    if (root[static_cast<size_t>(v)] != kUnknown) continue;
    int32_t u = v;
    while (root[static_cast<size_t>(u)] == kUnknown && p[static_cast<size_t>(u)] >= 0) {
      stack.push_back(u);
      u = p[static_cast<size_t>(u)];
      if (stack.size() > static_cast<size_t>(n)) {
        throw Error(GSP_ERR_INTERNAL, "nearest source: the predecessor chain of " + std::to_string(v) + " cycles");
      }
    }
    int32_t rt = root[static_cast<size_t>(u)];
    if (rt == kUnknown) rt = is_unreached(u) ? -1 : u;  // a chain's start: a source, or unreached
    root[static_cast<size_t>(u)] = rt;
    for (int32_t x : stack) root[static_cast<size_t>(x)] = rt;
    stack.clear();
  }
  std::copy(root.begin(), root.end(), nearest);
}

}  // namespace gsp::detail
