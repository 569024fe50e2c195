// Multithreaded delta-stepping (Meyer & Sanders; seed 003 §5).
//
// Buckets of width delta are processed in increasing order. Within a bucket,
// threads relax the light arcs (w <= delta) of the frontier until no vertex
// of the bucket improves; then the heavy arcs of every vertex the bucket
// settled are relaxed once. Each vertex's (distance, predecessor) pair lives
// in one 64-bit atomic word (distance bits high, predecessor low) updated by
// compare-and-swap, so a predecessor always belongs to the distance it
// produced. Non-negative float and int32 values order like their bit
// patterns as unsigned integers, which makes the high half comparable.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cpu/cpu_util.h"
#include "cpu/sssp_core.h"

namespace gsp::detail::cpu {

double choose_delta(const Graph& graph) {
  const int64_t m = graph.m();
  const int32_t n = graph.n();
  if (m == 0) return 1.0;
  const double avg_w = graph.mean_weight();
  const double avg_deg = std::max(1.0, static_cast<double>(m) / static_cast<double>(n));
  // Measured on random and grid graphs (doc/cpu-engines.md): a few average
  // weights per average degree keeps buckets full without much re-relaxation.
  double delta = 4.0 * avg_w / avg_deg;
  if (!(delta > 0) || !std::isfinite(delta)) delta = graph.max_weight() > 0 ? graph.max_weight() : 1.0;
  return delta;
}

namespace {

template <class W>
inline uint32_t key_bits(W w) {
  uint32_t b;
  std::memcpy(&b, &w, sizeof b);
  return b;
}
template <class W>
inline W from_bits(uint32_t b) {
  W w;
  std::memcpy(&w, &b, sizeof w);
  return w;
}

}  // namespace

template <class W>
void delta_stepping_sssp(const SsspJob& job) {
  static_assert(sizeof(W) == 4, "32-bit weights");
  const Graph& graph = *job.graph;
  require_non_negative(graph, "delta-stepping");
  const CsrView<W> g = graph.view<W>();
  const int32_t n = g.n;
  const double delta = job.options->delta > 0 ? job.options->delta : choose_delta(graph);
  const double inv_delta = 1.0 / delta;
  auto bucket_of = [inv_delta](W d) -> int64_t {
    const double q = std::floor(static_cast<double>(d) * inv_delta);
    return q < 4.0e18 ? static_cast<int64_t>(q) : int64_t(4.0e18);
  };

  const uint64_t unreached = (static_cast<uint64_t>(key_bits(Dist<W>::inf())) << 32) | 0xffffffffu;
  std::vector<std::atomic<uint64_t>> st(static_cast<size_t>(n));
  for (auto& a : st) a.store(unreached, std::memory_order_relaxed);
  st[static_cast<size_t>(job.source)].store(
      (static_cast<uint64_t>(key_bits(W(0))) << 32) | 0xffffffffu, std::memory_order_relaxed);
  auto dist_of = [&](int32_t v) {
    return from_bits<W>(static_cast<uint32_t>(st[static_cast<size_t>(v)].load(std::memory_order_relaxed) >> 32));
  };

  Team team(std::max(1, resolved_threads(job.options)));
  const size_t T = static_cast<size_t>(team.size());
  std::vector<std::vector<int32_t>> next_local(T);
  std::vector<std::map<int64_t, std::vector<int32_t>>> future(T);
  std::vector<int64_t> relax(T, 0);
  std::vector<std::atomic<uint32_t>> in_next(static_cast<size_t>(n));
  for (auto& a : in_next) a.store(0, std::memory_order_relaxed);
  std::vector<int64_t> in_r(static_cast<size_t>(n), -1);  // bucket that settled v last
  std::vector<uint32_t> in_frontier(static_cast<size_t>(n), 0);
  // Distance bits each vertex was last scanned with: a queued entry whose
  // vertex has not improved since is stale.
  std::vector<uint32_t> scanned(static_cast<size_t>(n), key_bits(Dist<W>::inf()));
  uint32_t epoch = 1;

  // Relaxes u -> v with weight w from distance du; true if v improved (nd set).
  // int32 sums past GSP_I32_INF are remembered per thread and judged at the
  // end (as in Dijkstra): only a vertex left unreachable makes it an error.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> overflowed(T);
  auto relax_arc = [&](int tid, int32_t u, W du, int32_t v, W w, W* nd) {
    if (!add_key(du, w, nd)) {
      overflowed[static_cast<size_t>(tid)].emplace_back(u, v);
      return false;
    }
    const uint64_t nk = static_cast<uint64_t>(key_bits(*nd));
    const uint64_t packed = (nk << 32) | static_cast<uint32_t>(u);
    std::atomic<uint64_t>& a = st[static_cast<size_t>(v)];
    uint64_t old = a.load(std::memory_order_relaxed);
    while (nk < (old >> 32)) {
      if (a.compare_exchange_weak(old, packed, std::memory_order_relaxed)) return true;
    }
    return false;
  };

  // Small frontiers run on the calling thread alone (as member 0): waking
  // the team costs more than a few hundred relaxations.
  constexpr size_t kSerialBelow = 256;
  auto phase = [&](size_t work, const std::function<void(int)>& f) {
    if (work < kSerialBelow || team.size() == 1) {
      f(0);
    } else {
      team.run(f);
    }
  };
  std::vector<int32_t> frontier, settled;
  frontier.push_back(job.source);
  int64_t bucket = 0, buckets = 0, phases = 0, scans = 0;
  constexpr int32_t kChunk = 64;
  for (;;) {
    if (frontier.empty()) {
      // The next non-empty bucket: the smallest key of any thread's map.
      int64_t best = -1;
      for (auto& f : future) {
        if (!f.empty() && (best < 0 || f.begin()->first < best)) best = f.begin()->first;
      }
      if (best < 0) break;
      bucket = best;
      ++epoch;
      for (auto& f : future) {
        auto it = f.find(bucket);
        if (it == f.end()) continue;
        for (int32_t v : it->second) {
          // Labels only fall, so v's bucket is now <= this one; the entry is
          // stale when v was already scanned with its current label (it
          // improved into an earlier bucket and was processed there).
          const W d = dist_of(v);
          if (key_bits(d) != scanned[static_cast<size_t>(v)] && bucket_of(d) <= bucket &&
              in_frontier[static_cast<size_t>(v)] != epoch) {
            in_frontier[static_cast<size_t>(v)] = epoch;
            frontier.push_back(v);
          }
        }
        f.erase(it);
      }
      if (frontier.empty()) continue;
    }
    ++buckets;
    // Light phases until the bucket stops changing.
    while (!frontier.empty()) {
      ++phases;
      ++epoch;
      for (int32_t v : frontier) {
        scanned[static_cast<size_t>(v)] = key_bits(dist_of(v));
        ++scans;
        if (in_r[static_cast<size_t>(v)] != bucket) {
          in_r[static_cast<size_t>(v)] = bucket;
          settled.push_back(v);
        }
      }
      std::atomic<size_t> next{0};
      const uint32_t ep = epoch;
      const int64_t cur = bucket;
      phase(frontier.size(), [&](int tid) {
        auto& mine = next_local[static_cast<size_t>(tid)];
        auto& fut = future[static_cast<size_t>(tid)];
        int64_t rx = 0;
        for (size_t c; (c = next.fetch_add(kChunk)) < frontier.size();) {
          const size_t end = std::min(frontier.size(), c + kChunk);
          for (size_t x = c; x < end; ++x) {
            const int32_t u = frontier[x];
            const W du = dist_of(u);
            for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
              const W w = g.weights[e];
              if (static_cast<double>(w) > delta) continue;
              const int32_t v = g.targets[e];
              ++rx;
              W nd;
              if (!relax_arc(tid, u, du, v, w, &nd)) continue;
              const int64_t b = bucket_of(nd);
              if (b <= cur) {
                if (in_next[static_cast<size_t>(v)].exchange(ep, std::memory_order_relaxed) != ep) mine.push_back(v);
              } else {
                fut[b].push_back(v);
              }
            }
          }
        }
        relax[static_cast<size_t>(tid)] += rx;
      });
      frontier.clear();
      for (auto& l : next_local) {
        frontier.insert(frontier.end(), l.begin(), l.end());
        l.clear();
      }
    }
    // Heavy arcs of everything the bucket settled.
    {
      std::atomic<size_t> next{0};
      const int64_t cur = bucket;
      phase(settled.size(), [&](int tid) {
        auto& fut = future[static_cast<size_t>(tid)];
        int64_t rx = 0;
        for (size_t c; (c = next.fetch_add(kChunk)) < settled.size();) {
          const size_t end = std::min(settled.size(), c + kChunk);
          for (size_t x = c; x < end; ++x) {
            const int32_t u = settled[x];
            const W du = dist_of(u);
            for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
              const W w = g.weights[e];
              if (!(static_cast<double>(w) > delta)) continue;
              const int32_t v = g.targets[e];
              ++rx;
              W nd;
              if (!relax_arc(tid, u, du, v, w, &nd)) continue;
              fut[std::max(bucket_of(nd), cur + 1)].push_back(v);
            }
          }
        }
        relax[static_cast<size_t>(tid)] += rx;
      });
      settled.clear();
    }
    if ((buckets & 63) == 0) {
      // Rough fraction: vertices scanned so far (rescans included) over n.
      job.options->report(std::min(0.99, static_cast<double>(scans) / static_cast<double>(n)));
    }
  }

  for (const auto& list : overflowed) {
    for (const auto& uv : list) {
      if (dist_of(uv.second) == Dist<W>::inf()) throw_overflow(uv.first, uv.second);
    }
  }
  W* dist = static_cast<W*>(job.dist);
  int32_t* pred = job.pred;
  for (int32_t v = 0; v < n; ++v) {
    const uint64_t s = st[static_cast<size_t>(v)].load(std::memory_order_relaxed);
    dist[v] = from_bits<W>(static_cast<uint32_t>(s >> 32));
    if (pred != nullptr) pred[v] = job.options->want_paths ? static_cast<int32_t>(static_cast<uint32_t>(s)) : -1;
  }
  int64_t total = 0;
  for (int64_t r : relax) total += r;
  fill_stats(job.stats, GSP_SSSP_DELTA_STEPPING, team.size(), buckets, total);
  (void)phases;
}

template void delta_stepping_sssp<float>(const SsspJob&);
template void delta_stepping_sssp<int32_t>(const SsspJob&);

}  // namespace gsp::detail::cpu
