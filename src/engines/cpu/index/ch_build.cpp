// Contraction hierarchies (build_index, engines/cpu/cpu_backend.h). The vertices are contracted in
// rounds. Each round:
//   1. every vertex whose neighbourhood changed gets a new priority from a
//      simulated contraction (the shortcuts it would add: RoutingKit's
//      measure, level + added arcs / removed arcs + added hops / removed
//      hops), on the team's threads;
//   2. the vertices whose priority is below every remaining neighbour's
//      (ties broken by a hash of the id) are contracted together: they are
//      pairwise non-adjacent, and the witness searches of this round avoid
//      all of them, so that no two of them count on each other's paths
//      (a witness that survives the round uses only vertices that stay);
//   3. their arcs become the hierarchy's upward arcs, and their shortcuts
//      are added between their neighbours: the searches on the team's
//      threads, then each neighbour's lists on the threads (every change to
//      a vertex's lists made by the thread that has it, in the order the
//      shortcuts were found, so that the lists come out as one thread would
//      leave them).
// A witness search is a Dijkstra from an in-neighbour u of v over the
// remaining graph without v, bounded by the longest path u -> v -> w it
// must beat and by a number of settled vertices (kContractSettle); a pair
// it does not settle in time gets a shortcut (never wrong, at most one arc
// too many).
#include <memory>

#include "core/ch_top_table.h"
#include "core/road_index.h"
#include "engines/cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "engines/cpu/common/team.h"

namespace gsp::detail::cpu {

namespace {

// Settled vertices after which a witness search gives up: few when it only
// estimates a priority (it runs again after every change around the
// vertex), more when it decides the shortcuts. On the New York road graph
// (2 threads) 10 and 60 built in 8 s with 1.00M shortcuts, 30 and 200 in
// 21 s with 0.98M, 50 and 1000 in 39 s with 0.98M; queries were no faster
// on the larger limits' hierarchies.
constexpr int32_t kSimulateSettle = 10;
constexpr int32_t kContractSettle = 60;
// Once few vertices remain (the core, where degrees are high and every
// missed witness makes the top of the hierarchy denser, and so every
// query slower), the searches go further. The priorities' searches are
// most of the build there (every round re-simulates nearly every remaining
// vertex): on New York their limit gave (witness-search arc scans of the
// build, vertices a point-to-point query settles): 10: 0.59 G, 294.5;
// 20: 0.69 G, 283.3; 30: 0.79 G, 278.3; 100: 1.11 G, 287.0
// (doc/road-index.md). The contraction's limit barely matters (300: the
// same queries).
constexpr int32_t kCoreFraction = 20;  // the core: at most n / 20 vertices left
constexpr int32_t kCoreSimulateSettle = 20;
constexpr int32_t kCoreContractSettle = 1000;

template <class W>
class Contraction {
 public:
  using D = ChDist<W>;

  Contraction(const Graph& g, const RunOptions& o, RunStats* stats)
      : g_(g), o_(o), stats_(stats), n_(g.n()), threads_(std::max(1, std::min(o.num_threads, 64))) {}

  std::unique_ptr<ChBase> run() {
    load_graph();
    std::vector<int32_t> remaining(static_cast<size_t>(n_));
    for (int32_t v = 0; v < n_; ++v) remaining[static_cast<size_t>(v)] = v;
    stale_.assign(static_cast<size_t>(n_), 1);
    int32_t next_rank = 0;
    int64_t rounds = 0;
    while (!remaining.empty()) {
      core_ = static_cast<int64_t>(remaining.size()) * kCoreFraction <= n_;
      update_priorities(remaining);
      const std::vector<int32_t> chosen = independent_set(remaining);
      contract(chosen, &next_rank);
      remaining.erase(std::remove_if(remaining.begin(), remaining.end(),
                                     [this](int32_t v) { return contracted_[static_cast<size_t>(v)] != 0; }),
                      remaining.end());
      ++rounds;
      o_.report(static_cast<double>(next_rank) / std::max(1, n_));
    }
    if (stats_ != nullptr) {
      stats_->iterations = rounds;
      stats_->relaxations = scans_.load();
    }
    return assemble();
  }

 private:
  // The weight first: 24 bytes with int64 or double weights instead of 32
  // (the witness searches read these lists more than anything else).
  struct Arc {
    D w;
    int32_t other;
    int32_t middle;  // graph vertex bypassed, -1 for an arc of the graph
    int32_t last;    // graph vertex before the head on the unpacked path
    int32_t hops;    // arcs of the graph it stands for
  };
  struct Shortcut {
    int32_t from, to;
    D w;
    int32_t middle, last, hops;
  };
  // A thread's witness-search state: labels of the vertices it touched, and
  // the targets of the vertex being contracted marked. Each on cache lines
  // of its own: the threads' states lie side by side in witness_, and one
  // thread's pushes and pops there would otherwise slow the next one's
  // reads of its arrays (false sharing).
  struct alignas(64) Witness {
    std::vector<D> dist;
    std::vector<uint8_t> target;
    std::vector<int32_t> touched;
    std::vector<std::pair<D, int32_t>> heap;
    std::vector<Shortcut> found;
    int64_t scans = 0;
  };

  static constexpr D inf() {
    return std::numeric_limits<D>::has_infinity ? std::numeric_limits<D>::infinity() : std::numeric_limits<D>::max();
  }

  // The graph's arcs, parallel ones merged to the lightest, self-loops
  // dropped: each vertex's out-arcs on the threads, then the in-arcs, their
  // transpose in the order of the tails.
  void load_graph() {
    if (g_.has_negative_weight()) {
      throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                  "a road index needs weights >= 0; the graph's smallest weight is " + std::to_string(g_.min_weight()));
    }
    witness_.resize(static_cast<size_t>(threads_));
    for (Witness& w : witness_) {
      w.dist.assign(static_cast<size_t>(n_), inf());
      w.target.assign(static_cast<size_t>(n_), 0);
    }
    out_.assign(static_cast<size_t>(n_), {});
    in_.assign(static_cast<size_t>(n_), {});
    const CsrView<W> v = g_.view<W>();
    for_each(static_cast<size_t>(n_), [&](size_t at, Witness&) {
      const int32_t u = static_cast<int32_t>(at);
      for (int64_t e = v.offsets[u]; e < v.offsets[u + 1]; ++e) {
        const int32_t h = v.targets[e];
        if (h != u) lower_or_append(out_[at], Arc{static_cast<D>(v.weights[e]), h, -1, u, 1});
      }
    });
    for (int32_t u = 0; u < n_; ++u) {
      for (Arc a : out_[static_cast<size_t>(u)]) {
        const int32_t h = std::exchange(a.other, u);
        in_[static_cast<size_t>(h)].push_back(a);
      }
    }
    contracted_.assign(static_cast<size_t>(n_), 0);
    chosen_.assign(static_cast<size_t>(n_), 0);
    level_.assign(static_cast<size_t>(n_), 0);
    slot_.assign(static_cast<size_t>(n_), -1);
    priority_.assign(static_cast<size_t>(n_), 0.0);
    up_out_.assign(static_cast<size_t>(n_), {});
    up_in_.assign(static_cast<size_t>(n_), {});
    rank_.assign(static_cast<size_t>(n_), -1);
  }

  // Adds `a` to `list`, or lowers the arc with its other end there.
  static void lower_or_append(std::vector<Arc>& list, const Arc& a) {
    for (Arc& b : list) {
      if (b.other != a.other) continue;
      if (a.w < b.w) b = a;
      return;
    }
    list.push_back(a);
  }

  // The shortcuts contracting v needs into w.found (appended), searching
  // around the vertices marked in chosen_ when `avoid_chosen`.
  void shortcuts_of(int32_t v, bool avoid_chosen, Witness& w) {
    const auto& ins = in_[static_cast<size_t>(v)];
    const auto& outs = out_[static_cast<size_t>(v)];
    if (ins.empty() || outs.empty()) return;
    D longest_out = 0;
    for (const Arc& b : outs) {
      longest_out = std::max(longest_out, b.w);
      w.target[static_cast<size_t>(b.other)] = 1;
    }
    for (const Arc& a : ins) {
      search(a.other, v, a.w + longest_out, outs.size(), avoid_chosen, w);
      for (const Arc& b : outs) {
        if (b.other == a.other) continue;
        const D via = a.w + b.w;
        if (w.dist[static_cast<size_t>(b.other)] <= via) continue;  // a witness: no shortcut
        w.found.push_back(Shortcut{a.other, b.other, via, v, b.last, a.hops + b.hops});
      }
      clear(w);
    }
    for (const Arc& b : outs) w.target[static_cast<size_t>(b.other)] = 0;
  }

  // Dijkstra from `from` over the remaining graph without `skip`, until the
  // `targets` vertices marked in w.target are settled, the labels pass
  // `bound` or the settle limit is reached. Leaves the labels in w.dist
  // (clear() resets them).
  void search(int32_t from, int32_t skip, D bound, size_t targets, bool avoid_chosen, Witness& w) {
    auto later = [](const std::pair<D, int32_t>& x, const std::pair<D, int32_t>& y) { return x.first > y.first; };
    D* const dist = w.dist.data();
    const uint8_t* const target = w.target.data();
    const uint8_t* const chosen = chosen_.data();
    size_t left = targets;
    dist[from] = 0;
    w.touched.push_back(from);
    w.heap.clear();
    w.heap.emplace_back(D(0), from);
    int32_t settled = 0;
    int64_t scans = 0;
    const int32_t limit = avoid_chosen ? (core_ ? kCoreContractSettle : kContractSettle)
                                       : (core_ ? kCoreSimulateSettle : kSimulateSettle);
    while (!w.heap.empty() && left > 0 && settled < limit) {
      std::pop_heap(w.heap.begin(), w.heap.end(), later);
      const auto [d, u] = w.heap.back();
      w.heap.pop_back();
      if (d > dist[u]) continue;  // stale
      if (d > bound) break;
      ++settled;
      left -= target[u];
      const std::vector<Arc>& arcs = out_[static_cast<size_t>(u)];
      scans += static_cast<int64_t>(arcs.size());
      for (const Arc& a : arcs) {
        if (a.other == skip || (avoid_chosen && chosen[a.other] != 0)) continue;
        const D nd = d + a.w;
        D& cur = dist[a.other];
        if (nd < cur) {
          if (cur == inf()) w.touched.push_back(a.other);
          cur = nd;
          w.heap.emplace_back(nd, a.other);
          std::push_heap(w.heap.begin(), w.heap.end(), later);
        }
      }
    }
    w.scans += scans;
  }
  void clear(Witness& w) {
    for (int32_t u : w.touched) w.dist[static_cast<size_t>(u)] = inf();
    w.touched.clear();
  }

  // `f(i, witness)` for every i < count, on the team's threads.
  template <class F>
  void for_each(size_t count, F&& f) {
    if (count == 0) return;
    std::atomic<size_t> next{0};
    // Chunks of at most 64, and at least 8 a thread: the last rounds have
    // few vertices, each of high degree (many searches).
    const size_t grain = std::clamp<size_t>(count / (static_cast<size_t>(threads_) * 8), 1, 64);
    const int team_size = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads_), count));
    Team team(team_size);
    team.run([&](int tid) {
      Witness& w = witness_[static_cast<size_t>(tid)];
      for (size_t at = next.fetch_add(grain); at < count; at = next.fetch_add(grain)) {
        const size_t end = std::min(count, at + grain);
        for (size_t i = at; i < end; ++i) f(i, w);
      }
    });
    for (Witness& w : witness_) scans_ += std::exchange(w.scans, 0);
  }
  // `f(v, witness)` for every v of `list`, on the team's threads.
  template <class F>
  void for_each_vertex(const std::vector<int32_t>& list, F&& f) {
    for_each(list.size(), [&](size_t i, Witness& w) { f(list[i], w); });
  }

  // Phase 1: priorities of the remaining vertices whose neighbourhood changed.
  void update_priorities(const std::vector<int32_t>& remaining) {
    std::vector<int32_t> todo;
    for (int32_t v : remaining) {
      if (stale_[static_cast<size_t>(v)] != 0) todo.push_back(v);
    }
    for_each_vertex(todo, [this](int32_t v, Witness& w) {
      w.found.clear();
      shortcuts_of(v, false, w);
      const auto& ins = in_[static_cast<size_t>(v)];
      const auto& outs = out_[static_cast<size_t>(v)];
      int64_t removed_hops = 0, added_hops = 0;
      for (const Arc& a : ins) removed_hops += a.hops;
      for (const Arc& a : outs) removed_hops += a.hops;
      for (const Shortcut& s : w.found) added_hops += s.hops;
      const double removed = static_cast<double>(std::max<size_t>(1, ins.size() + outs.size()));
      priority_[static_cast<size_t>(v)] = level_[static_cast<size_t>(v)] +
                                          static_cast<double>(w.found.size()) / removed +
                                          static_cast<double>(added_hops) / std::max<double>(1, removed_hops);
      stale_[static_cast<size_t>(v)] = 0;
    });
  }

  static uint32_t tie_hash(int32_t v) {
    uint32_t x = static_cast<uint32_t>(v) * 2654435761u;
    return x ^ (x >> 16);
  }
  bool before(int32_t a, int32_t b) const {
    const double pa = priority_[static_cast<size_t>(a)], pb = priority_[static_cast<size_t>(b)];
    if (pa != pb) return pa < pb;
    const uint32_t ha = tie_hash(a), hb = tie_hash(b);
    return ha != hb ? ha < hb : a < b;
  }

  // Phase 2: the remaining vertices that come before every remaining
  // neighbour (never empty: the first of all does), marked in chosen_ (on
  // the threads) and listed in the order of `remaining`.
  std::vector<int32_t> independent_set(const std::vector<int32_t>& remaining) {
    for_each_vertex(remaining, [this](int32_t v, Witness&) {
      bool first = true;
      for (const Arc& a : out_[static_cast<size_t>(v)]) first = first && before(v, a.other);
      for (const Arc& a : in_[static_cast<size_t>(v)]) first = first && before(v, a.other);
      chosen_[static_cast<size_t>(v)] = first ? 1 : 0;
    });
    std::vector<int32_t> chosen;
    for (int32_t v : remaining) {
      if (chosen_[static_cast<size_t>(v)] != 0) chosen.push_back(v);
    }
    return chosen;
  }

  // Phase 3: contracts `chosen` (marked in chosen_, cleared here). Their
  // shortcuts are searched on the threads; then, on the threads, each of
  // their neighbours (`near`) drops its arcs to them and takes the
  // shortcuts from it and to it, in the order they were found.
  void contract(const std::vector<int32_t>& chosen, int32_t* next_rank) {
    std::vector<std::vector<Shortcut>> per_vertex(chosen.size());
    for_each(chosen.size(), [&](size_t i, Witness& w) {
      w.found.clear();
      shortcuts_of(chosen[i], true, w);
      per_vertex[i] = w.found;
    });
    std::vector<int32_t> near;  // slot_[near[k]] = k
    auto note = [&](int32_t x) {
      if (slot_[static_cast<size_t>(x)] >= 0) return;
      slot_[static_cast<size_t>(x)] = static_cast<int32_t>(near.size());
      near.push_back(x);
    };
    for (const int32_t v : chosen) {
      rank_[static_cast<size_t>(v)] = (*next_rank)++;
      contracted_[static_cast<size_t>(v)] = 1;
      up_out_[static_cast<size_t>(v)] = std::move(out_[static_cast<size_t>(v)]);
      up_in_[static_cast<size_t>(v)] = std::move(in_[static_cast<size_t>(v)]);
      for (const Arc& a : up_out_[static_cast<size_t>(v)]) note(a.other);
      for (const Arc& a : up_in_[static_cast<size_t>(v)]) note(a.other);
    }
    // The shortcuts by tail and by head (counting sorts, stable):
    // by_tail[tail_at[k] .. tail_at[k + 1]) leave near[k].
    std::vector<size_t> tail_at(near.size() + 1, 0), head_at(near.size() + 1, 0);
    for (const auto& list : per_vertex) {
      for (const Shortcut& s : list) {
        ++tail_at[static_cast<size_t>(slot_[static_cast<size_t>(s.from)]) + 1];
        ++head_at[static_cast<size_t>(slot_[static_cast<size_t>(s.to)]) + 1];
      }
    }
    for (size_t k = 0; k < near.size(); ++k) {
      tail_at[k + 1] += tail_at[k];
      head_at[k + 1] += head_at[k];
    }
    const size_t found = tail_at[near.size()];
    std::vector<const Shortcut*> by_tail(found), by_head(found);
    {
      std::vector<size_t> tail_next(tail_at.begin(), tail_at.end() - 1), head_next(head_at.begin(), head_at.end() - 1);
      for (const auto& list : per_vertex) {
        for (const Shortcut& s : list) {
          by_tail[tail_next[static_cast<size_t>(slot_[static_cast<size_t>(s.from)])]++] = &s;
          by_head[head_next[static_cast<size_t>(slot_[static_cast<size_t>(s.to)])]++] = &s;
        }
      }
    }
    for_each(near.size(), [&](size_t k, Witness&) {
      const size_t x = static_cast<size_t>(near[k]);
      int32_t level = level_[x];
      detach(out_[x], &level);
      detach(in_[x], &level);
      for (size_t i = tail_at[k]; i < tail_at[k + 1]; ++i) {
        const Shortcut& s = *by_tail[i];
        lower_or_append(out_[x], Arc{s.w, s.to, s.middle, s.last, s.hops});
      }
      for (size_t i = head_at[k]; i < head_at[k + 1]; ++i) {
        const Shortcut& s = *by_head[i];
        lower_or_append(in_[x], Arc{s.w, s.from, s.middle, s.last, s.hops});
      }
      level_[x] = level;
      stale_[x] = 1;
    });
    for (const int32_t x : near) slot_[static_cast<size_t>(x)] = -1;
    for (const int32_t v : chosen) chosen_[static_cast<size_t>(v)] = 0;
    shortcuts_ += static_cast<int64_t>(found);
  }
  // Removes the arcs to chosen vertices from a neighbour's list, and raises
  // its `level` above theirs.
  void detach(std::vector<Arc>& list, int32_t* level) const {
    for (const Arc& a : list) {
      if (chosen_[static_cast<size_t>(a.other)] != 0)
        *level = std::max(*level, level_[static_cast<size_t>(a.other)] + 1);
    }
    list.erase(std::remove_if(list.begin(), list.end(),
                              [this](const Arc& a) { return chosen_[static_cast<size_t>(a.other)] != 0; }),
               list.end());
  }

  // The hierarchy by position (p = n - 1 - rank); each vertex's arcs sorted.
  std::unique_ptr<ChBase> assemble() {
    auto h = std::make_unique<ChHierarchy<W>>();
    h->n = n_;
    h->dtype = g_.dtype();
    h->graph_fingerprint = g_.fingerprint();
    h->graph_arcs = g_.m();
    h->shortcuts = shortcuts_;
    h->vertex_at.assign(static_cast<size_t>(n_), 0);
    h->position.assign(static_cast<size_t>(n_), 0);
    for (int32_t v = 0; v < n_; ++v) {
      const int32_t p = n_ - 1 - rank_[static_cast<size_t>(v)];
      h->position[static_cast<size_t>(v)] = p;
      h->vertex_at[static_cast<size_t>(p)] = v;
    }
    fill(up_out_, h->position, h->vertex_at, &h->up_out);
    fill(up_in_, h->position, h->vertex_at, &h->up_in);
    bool linked[2] = {false, false};  // the two directions side by side (each writes its own arrays)
    for_each(2, [&](size_t d, Witness&) { linked[d] = link_halves(*h, d == 0 ? h->up_out : h->up_in, d == 0); });
    require(linked[0] && linked[1], GSP_ERR_INTERNAL, "road index: a shortcut's halves are missing");
    make_top_table(*h, threads_);
    return h;
  }
  // One direction's arcs by position; the vertices on the threads.
  void fill(std::vector<std::vector<Arc>>& by_vertex, const std::vector<int32_t>& position,
            const std::vector<int32_t>& vertex_at, ChArcs<W>* arcs) {
    const size_t n = by_vertex.size();
    arcs->offsets.assign(n + 1, 0);
    for (size_t p = 0; p < n; ++p) {
      arcs->offsets[p + 1] =
          arcs->offsets[p] + static_cast<int64_t>(by_vertex[static_cast<size_t>(vertex_at[p])].size());
    }
    const size_t m = static_cast<size_t>(arcs->offsets[n]);
    arcs->other.resize(m);
    arcs->weight.resize(m);
    arcs->middle.resize(m);
    arcs->last.resize(m);
    for_each(n, [&](size_t p, Witness&) {
      auto& list = by_vertex[static_cast<size_t>(vertex_at[p])];
      for (Arc& a : list) {
        a.other = position[static_cast<size_t>(a.other)];
        if (a.middle >= 0) a.middle = position[static_cast<size_t>(a.middle)];
      }
      std::sort(list.begin(), list.end(), [](const Arc& x, const Arc& y) { return x.other < y.other; });
      size_t at = static_cast<size_t>(arcs->offsets[p]);
      for (const Arc& a : list) {
        arcs->other[at] = a.other;
        arcs->weight[at] = a.w;
        arcs->middle[at] = a.middle;
        arcs->last[at] = a.last;
        ++at;
      }
      std::vector<Arc>().swap(list);
    });
  }

  const Graph& g_;
  const RunOptions& o_;
  RunStats* stats_;
  const int32_t n_;
  const int threads_;
  std::vector<std::vector<Arc>> out_, in_;        // arcs among the remaining vertices
  std::vector<std::vector<Arc>> up_out_, up_in_;  // a contracted vertex's arcs (to and from higher ranks)
  std::vector<uint8_t> contracted_, chosen_, stale_;
  std::vector<int32_t> level_, rank_;
  std::vector<int32_t> slot_;  // a neighbour's index in contract()'s list, -1 elsewhere
  std::vector<double> priority_;
  std::vector<Witness> witness_;
  std::atomic<int64_t> scans_{0};
  int64_t shortcuts_ = 0;
  bool core_ = false;  // this round works on the core (kCoreFraction)
};

}  // namespace

std::unique_ptr<ChBase> build_index(const Graph& graph, const RunOptions& options, RunStats* stats) {
  return with_weight_type(graph.dtype(), [&](auto w) -> std::unique_ptr<ChBase> {
    return Contraction<decltype(w)>(graph, options, stats).run();
  });
}

}  // namespace gsp::detail::cpu
