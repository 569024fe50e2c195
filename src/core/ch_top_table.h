// The top table of a road index (ChTopTable, core/road_index.h): the
// distances among the hierarchy's top positions, made once per index, and
// what the queries read of it. Upward searches stop at the top (its
// positions are settled, not expanded: "entries"), and a row's label of a
// top position v is the best entry u's label plus the table's u -> v. An
// up-down path of the hierarchy that reaches the top enters it at the
// first top position it meets and leaves it at the last: the table holds
// the part in between. New York (264,346 vertices): a top of 2,048
// positions takes the sweep from 77 levels to 25, and a point-to-point
// search from about 330 settled vertices to about 60 and 14 entries a side
// (doc/road-index.md).
#pragma once

#include <cstdint>
#include <vector>

#include "core/road_index.h"

namespace gsp::detail {

// The top's size for a hierarchy of n vertices: 2,048 (its table T x T
// labels and arcs: 50 MB for int32 and double weights, 33 MB for float),
// or an eighth of a smaller graph.
constexpr int32_t kTopTableMax = 2048;
inline int32_t top_table_size(int32_t n) { return n / 8 < kTopTableMax ? n / 8 : kTopTableMax; }

// Fills h.top (h's arcs complete): per top position u, PHAST within the
// top (an upward pass over up_out in falling position, then the sweep over
// up_in in rising position), on up to `threads` threads.
template <class W>
void make_top_table(ChHierarchy<W>& h, int threads);

// An entry of a search into the top: the position, its label and the graph
// vertex before it on its path (-1 at the search's start).
template <class W>
struct ChTopEntry {
  int32_t position;
  int32_t last;
  ChDist<W> dist;
};

// A top arc (an id of ChTopTable::arc) as up_out's or up_in's arc `e`,
// from position `tail` to `head`.
struct ChTopArc {
  bool out;
  int64_t e;
  int32_t tail, head;
};
template <class W>
ChTopArc top_arc(const ChHierarchy<W>& h, int32_t id);

// The graph vertex before the head on top arc `id`'s path.
template <class W>
int32_t top_arc_last(const ChHierarchy<W>& h, int32_t id) {
  const int64_t e = id;
  return e < h.top.out_arcs ? h.up_out.last[static_cast<size_t>(e)]
                            : h.up_in.last[static_cast<size_t>(e - h.top.out_arcs)];
}

// A row's labels of the top positions from its entries (in the order its
// search settled them): best[v] the smallest entry label plus table cell,
// winner[v] the first entry that gives it (-1: none reaches v). Both
// backends take the same minimum in the same order (engines/cuda/index/
// ch_sweep.cu), so their rows are equal bit for bit.
template <class W>
void top_labels(const ChHierarchy<W>& h, const ChTopEntry<W>* entries, int32_t count, ChDist<W>* best,
                int32_t* winner) {
  const ChTopTable<W>& t = h.top;
  const size_t size = static_cast<size_t>(t.size);
  for (size_t v = 0; v < size; ++v) {
    best[v] = ch_inf<W>();
    winner[v] = -1;
  }
  for (int32_t k = 0; k < count; ++k) {
    const ChDist<W> du = entries[k].dist;
    const ChDist<W>* row = t.dist.data() + static_cast<size_t>(entries[k].position) * size;
    for (size_t v = 0; v < size; ++v) {
      const ChDist<W> x = du + row[v];
      if (x < best[v]) {
        best[v] = x;
        winner[v] = k;
      }
    }
  }
}

// The predecessor (graph vertex) of top position v in a row whose label of
// v came from entry `winner`: the entry's own when v is the entry, else
// the last table arc's.
template <class W>
int32_t top_label_last(const ChHierarchy<W>& h, const ChTopEntry<W>* entries, int32_t winner, int32_t v) {
  if (winner < 0) return -1;
  const ChTopEntry<W>& e = entries[winner];
  if (e.position == v) return e.last;
  return top_arc_last(
      h, h.top.arc[static_cast<size_t>(e.position) * static_cast<size_t>(h.top.size) + static_cast<size_t>(v)]);
}

}  // namespace gsp::detail
