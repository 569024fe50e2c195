// `gsp info`: describe a graph (size, weights, degrees, components).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.h"
#include "gsp/gsp.h"
#include "svg.h"
#include "gsp_generators.h"

namespace gsp_cli {

// ------------------------------------------------------------------ info

const Spec kInfo = {"info",
                    std::string("usage: gsp info FILE [--source S]\n"
                                "\n"
                                "Vertices, arcs, out-degree statistics, weight range, weakly connected\n"
                                "components and the vertices reachable from S (default 0).\n"
                                "\n"
                                "  --source S        vertex to count reachable vertices from (0-based)\n")
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--source", "--format", "--weights"},
                    {"--undirected"}};

namespace {

int32_t uf_find(std::vector<int32_t>& p, int32_t x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

}  // namespace
int cmd_info(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  Loaded L;
  load(L, a, a.pos[0]);
  Csr c;
  get_csr(L.g, c);
  const int32_t src = vertex_arg(a, "--source", c.n, false, 0);
  int64_t min_deg = INT64_MAX, max_deg = 0, sinks = 0, loops = 0, negative = 0;
  double wmin = INFINITY, wmax = -INFINITY;
  std::vector<int32_t> parent(static_cast<size_t>(c.n));
  std::iota(parent.begin(), parent.end(), 0);
  for (int32_t u = 0; u < c.n; u++) {
    const int64_t d = c.off[u + 1] - c.off[u];
    min_deg = std::min(min_deg, d);
    max_deg = std::max(max_deg, d);
    if (d == 0) sinks++;
    for (int64_t k = c.off[u]; k < c.off[u + 1]; k++) {
      const int32_t v = c.dst[k];
      if (v == u) loops++;
      const double w = c.weight(k);
      wmin = std::min(wmin, w);
      wmax = std::max(wmax, w);
      if (w < 0) negative++;
      const int32_t ru = uf_find(parent, u), rv = uf_find(parent, v);
      if (ru != rv) parent[std::max(ru, rv)] = std::min(ru, rv);
    }
  }
  std::vector<int32_t> size(static_cast<size_t>(c.n), 0);
  int64_t components = 0, largest = 0;
  for (int32_t v = 0; v < c.n; v++) {
    const int32_t r = uf_find(parent, v);
    if (size[r]++ == 0) components++;
    largest = std::max<int64_t>(largest, size[r]);
  }
  // Reachable from src: BFS.
  std::vector<char> seen(static_cast<size_t>(c.n), 0);
  std::vector<int32_t> queue;
  queue.reserve(static_cast<size_t>(c.n));
  queue.push_back(src);
  seen[src] = 1;
  for (size_t i = 0; i < queue.size(); i++) {
    const int32_t u = queue[i];
    for (int64_t k = c.off[u]; k < c.off[u + 1]; k++) {
      if (!seen[c.dst[k]]) {
        seen[c.dst[k]] = 1;
        queue.push_back(c.dst[k]);
      }
    }
  }
  if (c.m == 0) wmin = wmax = 0;
  const char* wt = dtype_name(c.dtype);
  const double avg = static_cast<double>(c.m) / c.n;
  if (a.has("--json")) {
    std::printf(
        "{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"weight_type\": \"%s\", \"load_seconds\": %.6f, "
        "\"out_degree\": {\"min\": %lld, \"mean\": %.4f, \"max\": %lld}, \"sinks\": %lld, \"self_loops\": %lld, "
        "\"weight\": {\"min\": %s, \"max\": %s}, \"negative_arcs\": %lld, "
        "\"weak_components\": %lld, \"largest_component\": %lld, \"source\": %d, \"reachable\": %lld}\n",
        json_str(a.pos[0]).c_str(), c.n, static_cast<long long>(c.m), wt, L.seconds, static_cast<long long>(min_deg),
        avg, static_cast<long long>(max_deg), static_cast<long long>(sinks), static_cast<long long>(loops),
        value_text(c.dtype, wmin).c_str(), value_text(c.dtype, wmax).c_str(), static_cast<long long>(negative),
        static_cast<long long>(components), static_cast<long long>(largest), src, static_cast<long long>(queue.size()));
  } else if (!a.has("--quiet")) {
    std::printf("file:              %s (loaded in %.3f s)\n", a.pos[0].c_str(), L.seconds);
    std::printf("vertices:          %d\n", c.n);
    std::printf("arcs:              %lld\n", static_cast<long long>(c.m));
    std::printf("weight type:       %s\n", wt);
    std::printf("out-degree:        min %lld, mean %.2f, max %lld; %lld without out-arcs\n",
                static_cast<long long>(min_deg), avg, static_cast<long long>(max_deg), static_cast<long long>(sinks));
    std::printf("self-loops:        %lld\n", static_cast<long long>(loops));
    std::printf("weights:           %s .. %s (%lld negative)\n", value_text(c.dtype, wmin).c_str(),
                value_text(c.dtype, wmax).c_str(), static_cast<long long>(negative));
    std::printf("weak components:   %lld (largest: %lld vertices)\n", static_cast<long long>(components),
                static_cast<long long>(largest));
    std::printf("reachable from %d: %lld vertices\n", src, static_cast<long long>(queue.size()));
  }
  return 0;
}

}  // namespace gsp_cli
