// The data of a road index (gsp_index.h): a contraction hierarchy. Plain
// arrays, built by engines/cpu/index/ch_build.cpp, saved and loaded by
// io/index_file.cpp, searched by engines/cpu/index/ch_query.cpp; this file is
// also the object behind the opaque gsp_index handle (the options of a run
// carry it down to the dispatcher, which must see what it holds).
//
// Vertices are renumbered by rank: position p = n - 1 - rank, so the most
// important vertex (contracted last) is at position 0 and a vertex's
// upward arcs lead to lower positions. Every arc of the hierarchy (an arc of
// the graph, parallel arcs merged to the lightest, or a shortcut) joins two
// vertices of different ranks and is stored once, at its lower-ranked end:
//   up_out[p]: arcs p -> h with h of higher rank (the forward upward search);
//   up_in[p]:  arcs t -> p with t of higher rank (the backward upward search,
//              read from p to t, and the downward sweep of one-to-all rows).
// A shortcut records the vertex it bypasses (`middle`, a position, lower in
// rank than both ends: its two halves are middle's up_in arc from the tail
// and up_out arc to the head) and, for paths, `last`: the graph vertex
// before the arc's head on the path it stands for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "core/graph.h"
#include "gsp/gsp.h"

namespace gsp::detail {

// The distance type of a hierarchy over weights W: int32 graphs sum in
// int64 (a shortcut may exceed int32; results are checked when written).
template <class W>
using ChDist = std::conditional_t<std::is_same_v<W, int32_t>, int64_t, W>;

// Arcs of one direction, by position (CSR).
template <class W>
struct ChArcs {
  std::vector<int64_t> offsets;  // n + 1
  std::vector<int32_t> other;    // the arc's other end (position)
  std::vector<ChDist<W>> weight;
  std::vector<int32_t> middle;  // the position bypassed, -1 for an arc of the graph
  std::vector<int32_t> last;    // graph vertex before the head on the unpacked path
  // Derived (link_halves; not in files): a shortcut's halves, tail -> middle
  // at up_in's index first_half[e], middle -> head at up_out's second_half[e];
  // -1 for an arc of the graph.
  std::vector<int64_t> first_half, second_half;

  int64_t size() const { return static_cast<int64_t>(other.size()); }
};

// "No distance" in a hierarchy of weights W: +infinity, or for int64 a
// quarter of its range, so that "no distance" plus an arc still compares
// as no distance without overflowing (real distances stay far below: an
// int32 graph's paths sum to less than 2^31 arcs x 2^31).
template <class W>
constexpr ChDist<W> ch_inf() {
  using D = ChDist<W>;
  return std::numeric_limits<D>::has_infinity ? std::numeric_limits<D>::infinity() : std::numeric_limits<D>::max() / 4;
}

// The arc of `arcs` at position `at` whose other end is `other` (a
// vertex's arcs are sorted by it, without repeats); -1 when there is none.
template <class W>
int64_t find_arc(const ChArcs<W>& arcs, int32_t at, int32_t other) {
  const auto first = arcs.other.begin() + arcs.offsets[static_cast<size_t>(at)];
  const auto end = arcs.other.begin() + arcs.offsets[static_cast<size_t>(at) + 1];
  const auto it = std::lower_bound(first, end, other);
  return it != end && *it == other ? static_cast<int64_t>(it - arcs.other.begin()) : -1;
}

// Search state a query keeps between queries (the n-sized label arrays of
// engines/cpu/index/ch_query.cpp cost more to make than a search of a road
// graph's hierarchy): taken by a query, given back after, any thread.
struct ChScratch {
  virtual ~ChScratch() = default;
};
class ChScratchPool {
 public:
  std::unique_ptr<ChScratch> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return nullptr;
    auto s = std::move(free_.back());
    free_.pop_back();
    return s;
  }
  void give(std::unique_ptr<ChScratch> s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.size() < kKeep) free_.push_back(std::move(s));
  }

 private:
  static constexpr size_t kKeep = 256;
  std::mutex mu_;
  std::vector<std::unique_ptr<ChScratch>> free_;
};

// What every hierarchy has, whatever its weight type.
struct ChBase {
  virtual ~ChBase() = default;
  int32_t n = 0;
  gsp_dtype dtype = GSP_F32;
  uint64_t graph_fingerprint = 0;  // Graph::fingerprint() of the graph it was built for
  int64_t graph_arcs = 0;          // m of that graph
  int64_t shortcuts = 0;
  std::vector<int32_t> vertex_at;      // position -> graph vertex
  std::vector<int32_t> position;       // graph vertex -> position
  mutable ChScratchPool scratch;       // the queries' (not part of the index)
  mutable ChScratchPool seed_scratch;  // the upward searches of ChSeeds (cpu::index_seeds)
  // What the CUDA backend keeps of the index on its devices
  // (engines/cuda/index/ch_sweep.cu): made on first use, under device_mu;
  // freed with the index.
  mutable std::mutex device_mu;
  mutable std::unique_ptr<DeviceCacheBase> device_cache;
};

// The top table (core/ch_top_table.h): exact distances among the
// hierarchy's top `size` positions, [0, size), which every upward arc of
// theirs stays among (their arcs lead to lower positions). Derived (made
// after a build and after a load, not in files). Queries stop their upward
// searches there and take the rest of the way from the table: row u,
// column v is the distance from position u to position v and the last arc
// of that path, an arc id: e < out_arcs for up_out's arc e, else up_in's
// arc e - out_arcs (the top's arcs come first in both); -1 for u == v and
// for no path.
template <class W>
struct ChTopTable {
  int32_t size = 0;
  int64_t out_arcs = 0;  // up_out.offsets[size]
  std::vector<ChDist<W>> dist;
  std::vector<int32_t> arc;
};

template <class W>
struct ChHierarchy final : ChBase {
  ChArcs<W> up_out;
  ChArcs<W> up_in;
  ChTopTable<W> top;
};

// PHAST's first half for a sweep made elsewhere (the CUDA backend's,
// engines/cuda/index/ch_sweep.cu): the upward search of each of `count`
// sources, as the positions it settled with their labels and, for paths,
// `last` (the graph vertex before the position on its path; -1 at the
// source). Row r's seeds are [begin[r], begin[r + 1]).
template <class W>
struct ChSeeds {
  std::vector<int64_t> begin;
  std::vector<int32_t> position;
  std::vector<ChDist<W>> dist;
  std::vector<int32_t> last;
};
// Who makes them: the dispatcher hands the CUDA backend one that runs the
// CPU backend's searches (cpu::index_seeds) on its threads.
class ChSeeder {
 public:
  virtual ~ChSeeder() = default;
  virtual void seeds(const int32_t* sources, int32_t count, ChSeeds<int32_t>& out) const = 0;
  virtual void seeds(const int32_t* sources, int32_t count, ChSeeds<float>& out) const = 0;
  virtual void seeds(const int32_t* sources, int32_t count, ChSeeds<double>& out) const = 0;
};

// Fills the halves of every shortcut of one direction (ChArcs::first_half,
// second_half); false when one is missing (a damaged index). For up_out
// (p -> other) the tail is p, for up_in (other -> p) the head is.
template <class W>
bool link_halves(const ChHierarchy<W>& h, ChArcs<W>& a, bool out) {
  const size_t m = static_cast<size_t>(a.size());
  a.first_half.assign(m, -1);
  a.second_half.assign(m, -1);
  for (int32_t p = 0; p < h.n; ++p) {
    for (int64_t e = a.offsets[static_cast<size_t>(p)]; e < a.offsets[static_cast<size_t>(p) + 1]; ++e) {
      const int32_t mid = a.middle[static_cast<size_t>(e)];
      if (mid < 0) continue;
      const int32_t o = a.other[static_cast<size_t>(e)];
      const int64_t first = find_arc(h.up_in, mid, out ? p : o);
      const int64_t second = find_arc(h.up_out, mid, out ? o : p);
      if (first < 0 || second < 0) return false;
      a.first_half[static_cast<size_t>(e)] = first;
      a.second_half[static_cast<size_t>(e)] = second;
    }
  }
  return true;
}
template <class W>
bool link_halves(ChHierarchy<W>& h) {
  return link_halves(h, h.up_out, true) && link_halves(h, h.up_in, false);
}

}  // namespace gsp::detail

// The object behind the opaque handle.
struct gsp_index {
  std::unique_ptr<gsp::detail::ChBase> ch;
};
