// The pieces of every road-index query (ch_query.cpp): an upward search
// over one direction of a hierarchy, and the unpacking of a hierarchy arc
// into the graph's vertices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/road_index.h"

namespace gsp::detail::cpu::ch {

// A Dijkstra over `arcs` (up_out: from a source; up_in: toward a target),
// which lead from every vertex only to vertices of higher rank. With
// `stall` (the other direction's arcs), a vertex that a higher neighbour
// reaches more cheaply than its label is not expanded (stall-on-demand: its
// label is not a distance, and nothing above it needs it). With `tree`,
// each label's parent and arc are kept (parent(), arc()); without, they are
// not written, which saves a cache miss per improved label. Positions
// below `ceiling` (the top of the hierarchy, core/ch_top_table.h) are
// settled but not expanded: the top table goes on from there. One per
// thread; labels are reset by the next start().
template <class W>
class UpwardSearch {
 public:
  using D = ChDist<W>;
  explicit UpwardSearch(int32_t n)
      : dist_(static_cast<size_t>(n), ch_inf<W>()),
        slot_(static_cast<size_t>(n), -1),
        tree_(static_cast<size_t>(n)),
        seen_((static_cast<size_t>(n) + 63) / 64, 0) {}

  void start(const ChArcs<W>& arcs, const ChArcs<W>* stall, int32_t from, bool tree = true, int32_t ceiling = 0) {
    for (int32_t p : touched_) {
      dist_[static_cast<size_t>(p)] = ch_inf<W>();
      slot_[static_cast<size_t>(p)] = -1;
      seen_[static_cast<size_t>(p) / 64] = 0;
    }
    if (tree_kept_) {
      for (int32_t p : touched_) tree_[static_cast<size_t>(p)] = Link{};
    }
    tree_kept_ = tree;
    touched_.clear();
    settled_.clear();
    heap_.clear();
    arcs_ = &arcs;
    stall_ = stall;
    ceiling_ = ceiling;
    dist_[static_cast<size_t>(from)] = 0;
    mark(from);
    touched_.push_back(from);
    slot_[static_cast<size_t>(from)] = 0;
    heap_.push_back(Item{D(0), from});
  }
  // The smallest label still queued (infinity when none).
  D next_key() const { return heap_.empty() ? ch_inf<W>() : heap_.front().key; }
  // Settles the next vertex; -1 when none is left. A stalled vertex is
  // settled (returned) but not expanded; stalled() says so.
  int32_t step() {
    if (heap_.empty()) return -1;
    const Item top = heap_.front();
    pop_front();
    const int32_t u = top.vertex;
    const D d = top.key;
    settled_.push_back(u);
    stalled_ = stall_ != nullptr && is_stalled(u, d);
    if (stalled_ || u < ceiling_) return u;
    const ChArcs<W>& a = *arcs_;
    const int64_t end = a.offsets[static_cast<size_t>(u) + 1];
    for (int64_t e = a.offsets[static_cast<size_t>(u)]; e < end; ++e) {
      const int32_t h = a.other[static_cast<size_t>(e)];
      const D nd = d + a.weight[static_cast<size_t>(e)];
      D& cur = dist_[static_cast<size_t>(h)];
      if (!seen(h)) {
        if (!(nd < ch_inf<W>())) continue;
        mark(h);
        touched_.push_back(h);
        const int32_t at = static_cast<int32_t>(heap_.size());
        heap_.push_back(Item{nd, h});
        cur = nd;
        if (tree_kept_) tree_[static_cast<size_t>(h)] = Link{e, u};
        sift_up(at, Item{nd, h});
      } else if (nd < cur) {
        const int32_t at = slot_[static_cast<size_t>(h)];
        if (at < 0) continue;  // settled: no arc is negative, so never better
        cur = nd;
        if (tree_kept_) tree_[static_cast<size_t>(h)] = Link{e, u};
        sift_up(at, Item{nd, h});
      }
    }
    return u;
  }
  void run_to_end() {
    while (step() >= 0) {
    }
  }
  bool stalled() const { return stalled_; }

  D dist(int32_t p) const { return dist_[static_cast<size_t>(p)]; }
  // Whether p has a label (a bit of a small map: no read of the n-sized
  // labels for a vertex the search never reached).
  bool seen(int32_t p) const { return (seen_[static_cast<size_t>(p) / 64] >> (p % 64)) & 1u; }
  // The search tree (started with `tree`): p's parent, -1 at the start.
  int32_t parent(int32_t p) const { return tree_[static_cast<size_t>(p)].parent; }
  // The arc (an index into the searched ChArcs) that labelled p; -1 at the start.
  int64_t arc(int32_t p) const { return tree_[static_cast<size_t>(p)].arc; }
  // Settled vertices in order (stalled ones included).
  const std::vector<int32_t>& settled() const { return settled_; }

 private:
  // A label's place in the search tree (one cache line for both).
  struct Link {
    int64_t arc = -1;
    int32_t parent = -1;
  };
  struct Item {
    D key;
    int32_t vertex;
  };
  // The queue: a 4-ary heap with each queued vertex's slot (slot_; -1 once
  // settled or never reached), so a better label moves its vertex up
  // instead of queueing it again: the heap holds each vertex once, and a
  // settle is one pop, with no stale entries to drop.
  static constexpr int32_t kArity = 4;
  void place(int32_t at, const Item& item) {
    heap_[static_cast<size_t>(at)] = item;
    slot_[static_cast<size_t>(item.vertex)] = at;
  }
  void sift_up(int32_t at, const Item& item) {
    while (at > 0) {
      const int32_t up = (at - 1) / kArity;
      if (!(item.key < heap_[static_cast<size_t>(up)].key)) break;
      place(at, heap_[static_cast<size_t>(up)]);
      at = up;
    }
    place(at, item);
  }
  void pop_front() {
    slot_[static_cast<size_t>(heap_.front().vertex)] = -1;
    const Item item = heap_.back();
    heap_.pop_back();
    const int32_t size = static_cast<int32_t>(heap_.size());
    if (size == 0) return;
    int32_t at = 0;
    for (;;) {
      const int32_t first = at * kArity + 1;
      if (first >= size) break;
      int32_t best = first;
      const int32_t last = std::min(first + kArity, size);
      for (int32_t c = first + 1; c < last; ++c) {
        if (heap_[static_cast<size_t>(c)].key < heap_[static_cast<size_t>(best)].key) best = c;
      }
      if (!(heap_[static_cast<size_t>(best)].key < item.key)) break;
      place(at, heap_[static_cast<size_t>(best)]);
      at = best;
    }
    place(at, item);
  }
  void mark(int32_t p) { seen_[static_cast<size_t>(p) / 64] |= uint64_t{1} << (p % 64); }
  bool is_stalled(int32_t u, D d) const {
    const ChArcs<W>& s = *stall_;
    for (int64_t e = s.offsets[static_cast<size_t>(u)]; e < s.offsets[static_cast<size_t>(u) + 1]; ++e) {
      const int32_t x = s.other[static_cast<size_t>(e)];
      if (!seen(x)) continue;
      if (dist_[static_cast<size_t>(x)] + s.weight[static_cast<size_t>(e)] < d) return true;
    }
    return false;
  }

  std::vector<D> dist_;
  std::vector<int32_t> slot_;
  std::vector<Link> tree_;
  std::vector<uint64_t> seen_;  // a bit per vertex: has a label (cleared word by word)
  std::vector<int32_t> touched_, settled_;
  std::vector<Item> heap_;
  const ChArcs<W>* arcs_ = nullptr;
  const ChArcs<W>* stall_ = nullptr;
  int32_t ceiling_ = 0;
  bool stalled_ = false;
  bool tree_kept_ = false;
};

// PHAST's first half: the upward search from graph vertex `source` over
// up_out, up to the top (h.top), then f(p, label, last) for every position
// p it settled, in order (`last`: the graph vertex before p on its path,
// -1 at the source); those below h.top.size are the row's top entries.
template <class W, class F>
void upward_labels(const ChHierarchy<W>& h, UpwardSearch<W>& up, int32_t source, F&& f) {
  const int32_t from = h.position[static_cast<size_t>(source)];
  up.start(h.up_out, nullptr, from, true, h.top.size);
  up.run_to_end();
  for (int32_t p : up.settled()) f(p, up.dist(p), p == from ? -1 : h.up_out.last[static_cast<size_t>(up.arc(p))]);
}

// One piece of a hierarchy arc being unpacked: arc `e` of up_out (out) or
// up_in, from position `tail` to `head`.
struct ArcPiece {
  bool out;
  int64_t e;
  int32_t tail, head;
};

// Appends the graph vertices of arc e of up_out (out) or up_in, which
// leads from position `tail` to `head`: every vertex after the tail, the
// head's included, in order (a shortcut's halves are linked:
// link_halves). `stack` is scratch.
template <class W>
void unpack_arc(const ChHierarchy<W>& h, bool out, int64_t e, int32_t tail, int32_t head, std::vector<int32_t>& path,
                std::vector<ArcPiece>& stack) {
  stack.clear();
  stack.push_back(ArcPiece{out, e, tail, head});
  while (!stack.empty()) {
    const ArcPiece piece = stack.back();
    stack.pop_back();
    const ChArcs<W>& a = piece.out ? h.up_out : h.up_in;
    const int32_t mid = a.middle[static_cast<size_t>(piece.e)];
    if (mid < 0) {
      path.push_back(h.vertex_at[static_cast<size_t>(piece.head)]);
      continue;
    }
    stack.push_back(ArcPiece{true, a.second_half[static_cast<size_t>(piece.e)], mid, piece.head});  // after the first
    stack.push_back(ArcPiece{false, a.first_half[static_cast<size_t>(piece.e)], piece.tail, mid});
  }
}

}  // namespace gsp::detail::cpu::ch
