// The bounded breadth-first probe of a graph's hop depth (hop_depth.h).
#include "core/hop_depth.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gsp::detail {

namespace {

struct ProbeRun {
  bool full = false;     // reached the vertex budget (else the search ended)
  int32_t levels = 0;    // levels completed
  int32_t r_eighth = 0;  // level at which budget / 8 vertices were reached
  int32_t r_full = 0;    // level at which the budget was reached
  int64_t reached = 1;
};

// Breadth-first search from `start`, stopped after `budget` vertices or
// 32 * budget arcs (a hub: treated as reaching the budget at once). The
// visited set is an open-addressing table 4 times the budget, so the probe
// costs O(budget) whatever n.
ProbeRun bfs_probe(const Csr& fwd, int32_t start, int32_t budget) {
  size_t cap = 16;
  while (cap < 4 * static_cast<size_t>(budget)) cap <<= 1;
  std::vector<int32_t> seen(cap, -1);
  const auto insert = [&](int32_t v) {
    size_t h = (static_cast<uint32_t>(v) * 2654435761u) & (cap - 1);
    while (seen[h] != -1) {
      if (seen[h] == v) return false;
      h = (h + 1) & (cap - 1);
    }
    seen[h] = v;
    return true;
  };
  ProbeRun run;
  const int64_t eighth = std::max<int64_t>(2, budget / 8);
  const int64_t arc_cap = 32 * static_cast<int64_t>(budget);
  int64_t arcs = 0;
  std::vector<int32_t> level{start}, next;
  insert(start);
  for (int32_t r = 0; !level.empty(); ++r) {
    next.clear();
    for (const int32_t u : level) {
      const int64_t end = fwd.offsets[static_cast<size_t>(u) + 1];
      for (int64_t e = fwd.offsets[static_cast<size_t>(u)]; e < end; ++e) {
        if (++arcs > arc_cap) {
          run.reached = budget;
          if (run.r_eighth == 0) run.r_eighth = r + 1;
          run.r_full = r + 1;
          run.full = true;
          return run;
        }
        const int32_t v = fwd.targets[static_cast<size_t>(e)];
        if (!insert(v)) continue;
        next.push_back(v);
        ++run.reached;
        if (run.reached == eighth) run.r_eighth = r + 1;
        if (run.reached >= budget) {
          run.r_full = r + 1;
          run.full = true;
          return run;
        }
      }
    }
    level.swap(next);
    run.levels = r + (level.empty() ? 0 : 1);
  }
  return run;
}

// Depth extrapolated from one probe that reached its budget: vertices
// within r hops grow like r^dim, dim from the levels at 1/8 and all of the
// budget (at least 1: a path), then r^dim = n solved for r.
double extrapolated_hops(const ProbeRun& run, double n) {
  if (run.r_eighth <= 0 || run.r_full <= run.r_eighth) return run.r_full + 1.0;  // explosive growth
  const double dim = std::max(1.0, std::log(8.0) / std::log(static_cast<double>(run.r_full) / run.r_eighth));
  const double hops = run.r_full * std::pow(n / static_cast<double>(run.reached), 1.0 / dim);
  return std::clamp(hops, static_cast<double>(run.r_full), n);
}

}  // namespace

double estimate_hop_depth(const Graph& graph) {
  const int32_t n = graph.n();
  if (n <= 1 || graph.m() == 0) return 1.0;
  const int32_t budget = std::clamp(n / 32, 32, 1024);
  double hops = 0;
  int32_t levels = 0;
  bool any_full = false;
  for (const int32_t start : {0, n / 2}) {
    const ProbeRun run = bfs_probe(graph.forward(), start, budget);
    levels = std::max(levels, run.levels);
    if (run.full) {
      any_full = true;
      hops = std::max(hops, extrapolated_hops(run, n));
    }
  }
  // Neither search reached its budget: what they reach is small, and they
  // saw all of its depth.
  return std::max(1.0, any_full ? hops : static_cast<double>(levels));
}

}  // namespace gsp::detail
