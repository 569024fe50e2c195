// One direction of a table search in a thread's scratch (the table engine,
// table_dijkstra.cpp, and its point-to-point search, point_to_point.cpp):
// labels reused across searches and validated by a generation stamp, so a
// search costs only the vertices it touches, not an O(n) reset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/host_array.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {

// The labels of one search in a StampedSearch (dijkstra_loop's Labels,
// sssp_core.h): a vertex has a label only if its stamp is this search's, so
// start() touches the source alone. An infinite sum cannot be a label here
// (the stamp would call the vertex reached): it is set aside as overflowed.
template <class K>
struct StampedLabels {
  static constexpr bool kInfSumOverflows = true;
  uint8_t* seen;
  K* dist;
  int32_t* pred;  // null: no predecessors kept
  uint8_t gen;
  void start(int32_t s) {
    seen[s] = gen;
    dist[s] = K(0);
    if (pred != nullptr) pred[s] = -1;
  }
  K at(int32_t u) const { return dist[u]; }
  bool improves(int32_t v, K nd) const { return seen[v] != gen || nd < dist[v]; }
  void set(int32_t v, K nd, int32_t u) {
    seen[v] = gen;
    dist[v] = nd;
    if (pred != nullptr) pred[v] = u;
  }
};

// A search's arrays, allocated on first use and kept for the thread's next
// searches: seen[v] == gen says that dist[v] (and pred[v]) hold this
// search's label. The stamps are zeroed once (calloc: untouched zero pages
// when the memory is fresh), the labels never. A stamp is one byte, and
// the stamps are zeroed again once every 255 searches: the zeroing, which
// a reused heap chunk costs at every call (memset), is most of what a
// search near its source costs. On NY a 1 x 1 query to a target 20 hops
// away took 43 us with 4-byte stamps (1 MB a side), 11-12 us with one byte
// (the forward search alone, 4-byte stamps and the target marks: 22-24 us).
template <class K>
struct StampedSearch {
  HostArray<uint8_t> seen;
  HostArray<K> dist;
  HostArray<int32_t> pred;  // empty unless asked for
  HeapVec<K> heap;
  OverflowArcs overflowed;  // arcs whose sum left the key's range
  uint8_t gen = 0;          // this search's stamp, 1..255

  void ensure(int32_t n, bool preds) {
    if (!seen.empty() || n == 0) return;
    seen.assign_zero(static_cast<size_t>(n));
    dist.resize_uninitialized(static_cast<size_t>(n));
    if (preds) pred.resize_uninitialized(static_cast<size_t>(n));
  }
  // A new search's labels (none yet: start_search or dijkstra_loop set the source's).
  StampedLabels<K> next() {
    if (gen == UINT8_MAX) {  // all 255 stamps used: cleared, so that no old label passes for a new one
      std::fill(seen.begin(), seen.end(), uint8_t(0));
      gen = 0;
    }
    ++gen;
    return labels();
  }
  StampedLabels<K> labels() { return {seen.data(), dist.data(), pred.empty() ? nullptr : pred.data(), gen}; }
  bool labelled(int32_t v) const { return seen[static_cast<size_t>(v)] == gen; }
  K label(int32_t v) const { return labelled(v) ? dist[static_cast<size_t>(v)] : key_inf<K>(); }
};

// The verdict of a search that had to exhaust the part of the graph its
// source reaches without settling its targets (sssp_core.h's rule, as
// gsp_apsp_run applies it): a set-aside arc whose head stayed unlabelled
// leads to a reachable vertex whose distance does not fit the key, which
// is GSP_ERR_OVERFLOW (the first such arc in the order the search met
// them is named); otherwise the targets are unreachable.
template <class K>
void check_exhausted_search(const StampedSearch<K>& sc, int32_t s) {
  for (const auto& uv : sc.overflowed) {
    if (sc.labelled(uv.second)) continue;
    if constexpr (std::is_same_v<K, float>) {
      throw Error(GSP_ERR_OVERFLOW, "the float distance from " + std::to_string(s) + " to " +
                                        std::to_string(uv.second) + " overflows: arc " + std::to_string(uv.first) +
                                        " -> " + std::to_string(uv.second) +
                                        " leads beyond FLT_MAX = 3.4e38 (the target is reachable); "
                                        "use smaller weights");
    }
    throw_overflow(uv.first, uv.second);
  }
}

}  // namespace gsp::detail::cpu
