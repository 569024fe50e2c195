// Validated construction of a Graph from caller arrays (COO or CSR).
//
// Large inputs (kParallelArcs arcs and more: 2.4e9 arcs are 29 GB of COO)
// are checked and assembled on several threads (build_threads()). The
// counting sort splits the vertices, not the arcs: each thread scans every
// input arc in order and takes those whose tail is in its range of vertices,
// so that it counts and places them without an atomic and in input order,
// and the CSR is the one the sequential sort gives, whatever the thread
// count (one thread is the sequential sort). A scan of the tails is streamed
// at memory speed while the random writes it saves (one per arc into an
// 8 n array, then into the 4 m targets and weights) were the cost.
#include "core/graph_build.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/hardware_threads.h"
#include "core/host_memory.h"
#include "core/parallel_copy.h"

namespace gsp::detail {

namespace {

// Inputs of at least this many arcs are checked and assembled on several
// threads, at most kMaxBuildThreads (each thread of the counting sort reads
// every tail, so more threads read more in all).
constexpr int64_t kParallelArcs = int64_t(1) << 22;
constexpr int kMaxBuildThreads = 32;

int build_threads(int64_t count) {
  if (count < kParallelArcs) return 1;
  const int hw = hardware_threads();
  return std::clamp(hw, 1, kMaxBuildThreads);
}

// f(lo, hi) over [0, count) in at most `threads` contiguous parts (the
// caller's thread takes one). f must not throw.
template <class F>
void for_ranges(int64_t count, int threads, F&& f) {
  if (count <= 0) return;
  if (threads <= 1) {
    f(int64_t{0}, count);
    return;
  }
  for_each_part(static_cast<size_t>(count), threads, 1, 1,
                [&f](size_t at, size_t len) { f(static_cast<int64_t>(at), static_cast<int64_t>(at + len)); });
}

// The smallest i in [0, count) with bad(i), or -1; checked on several
// threads for large counts.
template <class Bad>
int64_t first_bad(int64_t count, int threads, Bad&& bad) {
  const int parts = std::max(1, threads);
  std::vector<int64_t> first(static_cast<size_t>(parts), -1);
  const int64_t step = (count + parts - 1) / parts;
  for_ranges(parts, parts, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t hi = std::min(count, (p + 1) * step);
      for (int64_t i = p * step; i < hi; ++i) {
        if (bad(i)) {
          first[static_cast<size_t>(p)] = i;
          break;
        }
      }
    }
  });
  for (int64_t i : first)
    if (i >= 0) return i;
  return -1;
}

void check_common(int32_t n, gsp_dtype dtype) {
  require(n >= 1, GSP_ERR_INVALID_ARGUMENT, "num_vertices must be >= 1, got " + std::to_string(n));
  require(
      dtype == GSP_F32 || dtype == GSP_I32 || dtype == GSP_F64, GSP_ERR_INVALID_ARGUMENT,
      "weight_type must be GSP_F32 (1), GSP_I32 (2) or GSP_F64 (3), got " + std::to_string(static_cast<int>(dtype)));
}

void check_vertex(int32_t v, int32_t n, const char* what, int64_t index) {
  require_entry_index(v, n, what, index, GSP_ERR_INVALID_GRAPH);
}

// Float weights must be finite: throws naming the first one that is not.
template <class W>
void check_weights(const void* weights, int64_t count) {
  if constexpr (std::is_floating_point_v<W>) {
    if (weights == nullptr) return;
    const W* w = static_cast<const W*>(weights);
    const int64_t i = first_bad(count, build_threads(count), [w](int64_t k) { return !std::isfinite(w[k]); });
    if (i >= 0) {
      throw Error(GSP_ERR_INVALID_GRAPH, "weights[" + std::to_string(i) + "] is " +
                                             (std::isnan(w[i]) ? std::string("NaN") : std::string("infinite")) +
                                             "; weights must be finite");
    }
  } else {
    (void)weights;
    (void)count;
  }
}

// Input arcs as (index, tail, head), scanned in order over [lo, hi).
struct CooArcs {
  const int32_t* sources;
  const int32_t* targets;
  template <class F>
  void scan(int64_t lo, int64_t hi, F&& f) const {
    for (int64_t i = lo; i < hi; ++i) f(i, sources[i], targets[i]);
  }
};

// The arcs of a CSR (forward), or with reversed == true the same arcs
// turned around (head as the tail): the reverse graph's input.
struct CsrArcs {
  int32_t n;
  const int64_t* offsets;
  const int32_t* targets;
  bool reversed;
  template <class F>
  void scan(int64_t lo, int64_t hi, F&& f) const {
    if (lo >= hi) return;
    // The tail of arc lo: the last vertex whose arcs start at or before it.
    int32_t u = static_cast<int32_t>(std::upper_bound(offsets, offsets + n + 1, lo) - offsets - 1);
    for (int64_t i = lo; i < hi; ++i) {
      while (offsets[u + 1] <= i) ++u;
      if (reversed) {
        f(i, targets[i], u);
      } else {
        f(i, u, targets[i]);
      }
    }
  }
};

// Counting sort of `count` input arcs by tail into CSR; weights (count
// values of W, checked before) null means all 1. With undirected, arc i
// also gives (v, u) right after (u, v) (a self-loop once). Arcs keep their
// input order within each tail. Threads own ranges of tails (see the top of
// the file): a range of about n / T vertices to count, of about m / T arcs
// to place.
template <class W, class Arcs>
Csr assemble(int32_t n, int64_t count, const void* weights, bool undirected, const Arcs& arcs) {
  Csr c;
  c.offsets.assign_zero(static_cast<size_t>(n) + 1);
  if (count == 0) return c;  // no arcs: every offset is 0, and the pages stay untouched
  const int threads = static_cast<int>(std::min<int64_t>(build_threads(count), n));
  int64_t* const off = c.offsets.data();
  std::vector<int32_t> cut(static_cast<size_t>(threads) + 1);
  for (int t = 0; t <= threads; ++t) {
    cut[static_cast<size_t>(t)] = static_cast<int32_t>(static_cast<int64_t>(n) * t / threads);
  }
  for_ranges(threads, threads, [&](int64_t p0, int64_t p1) {
    const int32_t lo = cut[static_cast<size_t>(p0)], hi = cut[static_cast<size_t>(p1)];
    arcs.scan(0, count, [&](int64_t, int32_t u, int32_t v) {
      if (u >= lo && u < hi) off[static_cast<size_t>(u) + 1]++;
      if (undirected && u != v && v >= lo && v < hi) off[static_cast<size_t>(v) + 1]++;
    });
  });
  for (int32_t v = 0; v < n; v++) off[v + 1] += off[v];
  const int64_t m = off[n];
  // Placing: ranges of about m / threads arcs each.
  for (int t = 1; t < threads; ++t) {
    const int64_t want = m / threads * t;
    cut[static_cast<size_t>(t)] = static_cast<int32_t>(std::lower_bound(off, off + n + 1, want) - off);
    cut[static_cast<size_t>(t)] = std::max(cut[static_cast<size_t>(t)], cut[static_cast<size_t>(t) - 1]);
  }
  std::vector<int64_t> pos(c.offsets.begin(), c.offsets.end() - 1);
  c.targets.resize(static_cast<size_t>(m));
  std::vector<W> w(static_cast<size_t>(m));
  int32_t* const tgt = c.targets.data();
  W* const wt = w.data();
  const W* const in_w = static_cast<const W*>(weights);
  for_ranges(threads, threads, [&](int64_t p0, int64_t p1) {
    const int32_t lo = cut[static_cast<size_t>(p0)], hi = cut[static_cast<size_t>(p1)];
    arcs.scan(0, count, [&](int64_t i, int32_t u, int32_t v) {
      const bool take_u = u >= lo && u < hi;
      const bool take_v = undirected && u != v && v >= lo && v < hi;
      if (!take_u && !take_v) return;
      const W wi = in_w != nullptr ? in_w[i] : W(1);
      if (take_u) {
        const int64_t at = pos[static_cast<size_t>(u)]++;
        tgt[at] = v;
        wt[at] = wi;
      }
      if (take_v) {
        const int64_t at = pos[static_cast<size_t>(v)]++;
        tgt[at] = u;
        wt[at] = wi;
      }
    });
  });
  weights_of<W>(c) = std::move(w);
  return c;
}

// A directed CSR as given: offsets, targets and weights copied (on several
// threads when large), which is what the counting sort would give.
template <class W>
Csr copy_csr(int32_t n, const int64_t* offsets, const int32_t* targets, const void* weights) {
  Csr c;
  const int64_t m = offsets[n];
  if (m == 0) {
    c.offsets.assign_zero(static_cast<size_t>(n) + 1);  // untouched zero pages, as assemble() leaves them
    return c;
  }
  const int threads = build_threads(m);
  c.offsets.resize_uninitialized(static_cast<size_t>(n) + 1);
  parallel_copy(c.offsets.data(), offsets, (static_cast<size_t>(n) + 1) * sizeof(int64_t), threads);
  c.targets.resize(static_cast<size_t>(m));
  parallel_copy(c.targets.data(), targets, static_cast<size_t>(m) * sizeof(int32_t), threads);
  std::vector<W>& w = weights_of<W>(c);
  if (weights != nullptr) {
    w.resize(static_cast<size_t>(m));
    parallel_copy(w.data(), weights, static_cast<size_t>(m) * sizeof(W), threads);
  } else {
    w.assign(static_cast<size_t>(m), W(1));
  }
  return c;
}

void require_graph_memory(int32_t n, int64_t count, bool undirected, gsp_dtype dtype) {
  require_host_memory(graph_build_bytes(n, count, undirected, dtype), [&] {
    return "a graph of " + std::to_string(n) + " vertices and " + std::to_string(count) +
           (undirected ? " undirected edges" : " arcs") + " (CSR offsets, targets, weights)";
  });
}

template <class Arcs>
GraphPtr build(int32_t n, int64_t count, const void* weights, gsp_dtype dtype, bool undirected, const Arcs& arcs) {
  require_graph_memory(n, count, undirected, dtype);
  Csr c = with_weight_type(dtype, [&](auto w) {
    using W = decltype(w);
    check_weights<W>(weights, count);
    return assemble<W>(n, count, weights, undirected, arcs);
  });
  return std::make_shared<const Graph>(n, dtype, std::move(c));
}

}  // namespace

// The CSR: 8 (n + 1) + (4 + w) m, w the weight's bytes (m <= 2 count when
// undirected); with arcs, the counting sort's 8 n insert positions too.
uint64_t graph_build_bytes(int32_t n, int64_t count, bool undirected, gsp_dtype dtype) {
  const uint64_t arcs = bytes_mul(static_cast<uint64_t>(count), undirected ? 2 : 1);
  uint64_t b = bytes_mul(8, static_cast<uint64_t>(n) + 1);
  const uint64_t per_arc = 4 + weight_bytes(dtype);
  if (count > 0) b = bytes_add(b, bytes_add(bytes_mul(8, static_cast<uint64_t>(n)), bytes_mul(per_arc, arcs)));
  return b;
}

GraphPtr build_graph_coo(int32_t n, int64_t m, const int32_t* sources, const int32_t* targets, const void* weights,
                         gsp_dtype dtype, bool undirected) {
  check_common(n, dtype);
  require(m >= 0, GSP_ERR_INVALID_ARGUMENT, "num_edges must be >= 0, got " + std::to_string(m));
  require(m == 0 || (sources != nullptr && targets != nullptr), GSP_ERR_INVALID_ARGUMENT,
          "sources and targets must not be NULL when num_edges > 0");
  // The first arc with an endpoint out of range, named as the sequential
  // check names it (its source before its target).
  const int64_t bad = first_bad(m, build_threads(m), [=](int64_t i) {
    return sources[i] < 0 || sources[i] >= n || targets[i] < 0 || targets[i] >= n;
  });
  if (bad >= 0) {
    check_vertex(sources[bad], n, "sources", bad);
    check_vertex(targets[bad], n, "targets", bad);
  }
  return build(n, m, weights, dtype, undirected, CooArcs{sources, targets});
}

void check_csr_offsets(int32_t n, const int64_t* offsets) {
  require(offsets[0] == 0, GSP_ERR_INVALID_GRAPH, "offsets[0] must be 0, got " + std::to_string(offsets[0]));
  for (int32_t v = 0; v < n; v++) {
    if (offsets[v + 1] < offsets[v]) {
      throw Error(GSP_ERR_INVALID_GRAPH, "offsets must not decrease: offsets[" + std::to_string(v + 1) +
                                             "] = " + std::to_string(offsets[v + 1]) + " < offsets[" +
                                             std::to_string(v) + "] = " + std::to_string(offsets[v]));
    }
  }
}

GraphPtr build_graph_csr(int32_t n, const int64_t* offsets, const int32_t* targets, const void* weights,
                         gsp_dtype dtype, bool undirected) {
  check_common(n, dtype);
  require(offsets != nullptr, GSP_ERR_INVALID_ARGUMENT, "offsets must not be NULL");
  check_csr_offsets(n, offsets);
  const int64_t m = offsets[n];
  require(m == 0 || targets != nullptr, GSP_ERR_INVALID_ARGUMENT, "targets must not be NULL when offsets[n] > 0");
  const int64_t bad = first_bad(m, build_threads(m), [=](int64_t i) { return targets[i] < 0 || targets[i] >= n; });
  if (bad >= 0) check_vertex(targets[bad], n, "targets", bad);
  const CsrArcs arcs{n, offsets, targets, false};
  if (undirected) return build(n, m, weights, dtype, true, arcs);
  require_graph_memory(n, m, false, dtype);
  Csr c = with_weight_type(dtype, [&](auto w) {
    using W = decltype(w);
    check_weights<W>(weights, m);
    return copy_csr<W>(n, offsets, targets, weights);
  });
  return std::make_shared<const Graph>(n, dtype, std::move(c));
}

Csr build_reverse_csr(const Csr& forward, int32_t n, gsp_dtype dtype) {
  const int64_t m = static_cast<int64_t>(forward.targets.size());
  const CsrArcs arcs{n, forward.offsets.data(), forward.targets.data(), true};
  return with_weight_type(dtype, [&](auto w) {
    using W = decltype(w);
    return assemble<W>(n, m, weights_of<W>(forward).data(), false, arcs);
  });
}

}  // namespace gsp::detail
