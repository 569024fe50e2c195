// Validated construction of a Graph from caller arrays (COO or CSR).
#include "core/graph_build.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/host_memory.h"

namespace gsp::detail {

namespace {

void check_common(int32_t n, gsp_dtype dtype) {
  require(n >= 1, GSP_ERR_INVALID_ARGUMENT, "num_vertices must be >= 1, got " + std::to_string(n));
  require(dtype == GSP_F32 || dtype == GSP_I32 || dtype == GSP_F64, GSP_ERR_INVALID_ARGUMENT,
          "weight_type must be GSP_F32 (1), GSP_I32 (2) or GSP_F64 (3), got " +
              std::to_string(static_cast<int>(dtype)));
}

void check_vertex(int32_t v, int32_t n, const char* what, int64_t index) {
  require_entry_index(v, n, what, index, GSP_ERR_INVALID_GRAPH);
}

// Weight of input arc i as the graph's type; checks finiteness for floats.
template <class W>
W weight_at(const void* weights, int64_t i) {
  if (weights == nullptr) return W(1);
  W w = static_cast<const W*>(weights)[i];
  if constexpr (std::is_floating_point_v<W>) {
    if (!std::isfinite(w)) {
      throw Error(GSP_ERR_INVALID_GRAPH, "weights[" + std::to_string(i) + "] is " +
                                             (std::isnan(w) ? std::string("NaN") : std::string("infinite")) +
                                             "; weights must be finite");
    }
  }
  return w;
}

// Counting sort of arcs by tail into CSR; `arc(i, &u, &v)` yields input arc i.
template <class W, class ArcFn>
Csr assemble(int32_t n, int64_t count, const void* weights, bool undirected, ArcFn arc) {
  Csr c;
  c.offsets.assign_zero(static_cast<size_t>(n) + 1);
  if (count == 0) return c;  // no arcs: every offset is 0, and the pages stay untouched
  for (int64_t i = 0; i < count; i++) {
    int32_t u, v;
    arc(i, &u, &v);
    c.offsets[static_cast<size_t>(u) + 1]++;
    if (undirected && u != v) c.offsets[static_cast<size_t>(v) + 1]++;
  }
  for (int32_t v = 0; v < n; v++) c.offsets[v + 1] += c.offsets[v];
  const int64_t m = c.offsets[n];
  std::vector<int64_t> pos(c.offsets.begin(), c.offsets.end() - 1);
  c.targets.resize(static_cast<size_t>(m));
  std::vector<W> w(static_cast<size_t>(m));
  for (int64_t i = 0; i < count; i++) {
    int32_t u, v;
    arc(i, &u, &v);
    const W wi = weight_at<W>(weights, i);
    int64_t at = pos[u]++;
    c.targets[at] = v;
    w[at] = wi;
    if (undirected && u != v) {
      at = pos[v]++;
      c.targets[at] = u;
      w[at] = wi;
    }
  }
  weights_of<W>(c) = std::move(w);
  return c;
}

template <class ArcFn>
GraphPtr build(int32_t n, int64_t count, const void* weights, gsp_dtype dtype, bool undirected, ArcFn arc) {
  require_host_memory(graph_build_bytes(n, count, undirected, dtype),
                      "a graph of " + std::to_string(n) + " vertices and " + std::to_string(count) +
                          (undirected ? " undirected edges" : " arcs") + " (CSR offsets, targets, weights)");
  Csr c = with_weight_type(dtype, [&](auto w) { return assemble<decltype(w)>(n, count, weights, undirected, arc); });
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

GraphPtr build_graph_coo(int32_t n, int64_t m, const int32_t* sources, const int32_t* targets,
                         const void* weights, gsp_dtype dtype, bool undirected) {
  check_common(n, dtype);
  require(m >= 0, GSP_ERR_INVALID_ARGUMENT, "num_edges must be >= 0, got " + std::to_string(m));
  require(m == 0 || (sources != nullptr && targets != nullptr), GSP_ERR_INVALID_ARGUMENT,
          "sources and targets must not be NULL when num_edges > 0");
  for (int64_t i = 0; i < m; i++) {
    check_vertex(sources[i], n, "sources", i);
    check_vertex(targets[i], n, "targets", i);
  }
  return build(n, m, weights, dtype, undirected, [&](int64_t i, int32_t* u, int32_t* v) {
    *u = sources[i];
    *v = targets[i];
  });
}

void check_csr_offsets(int32_t n, const int64_t* offsets) {
  require(offsets[0] == 0, GSP_ERR_INVALID_GRAPH, "offsets[0] must be 0, got " + std::to_string(offsets[0]));
  for (int32_t v = 0; v < n; v++) {
    if (offsets[v + 1] < offsets[v]) {
      throw Error(GSP_ERR_INVALID_GRAPH, "offsets must not decrease: offsets[" + std::to_string(v + 1) + "] = " +
                                             std::to_string(offsets[v + 1]) + " < offsets[" + std::to_string(v) +
                                             "] = " + std::to_string(offsets[v]));
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
  for (int64_t i = 0; i < m; i++) check_vertex(targets[i], n, "targets", i);
  // Tail of arc i: walk the offsets alongside (arcs are visited in order).
  int32_t tail = 0;
  return build(n, m, weights, dtype, undirected, [&](int64_t i, int32_t* u, int32_t* v) {
    if (i == 0) tail = 0;
    while (offsets[tail + 1] <= i) tail++;
    *u = tail;
    *v = targets[i];
  });
}

}  // namespace gsp::detail
