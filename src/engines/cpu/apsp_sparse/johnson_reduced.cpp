// Johnson's reweighting for an engine of another backend (cpu_backend.h,
// ReducedGraph): the potentials and reduced costs of johnson.h, the costs
// as a float64 graph with the original's arcs in their CSR order, and the
// way back from a distance on it to one of the original weight type.
#include <cmath>
#include <cstring>
#include <string>

#include "core/host_memory.h"
#include "engines/cpu/apsp_sparse/johnson.h"
#include "engines/cpu/cpu_backend.h"

namespace gsp::detail::cpu {

namespace {

// 2^53: every integer up to it is a double. int32 reduced costs are int64;
// a path's sum of them stays exact in float64 while the largest cost times
// the most arcs a shortest path has (n - 1) stays below it.
constexpr double kExactDouble = 9007199254740992.0;

template <class W>
ReducedGraph reduce(const Graph& graph, const RunOptions* options) {
  using K = typename JohnsonWeights<W>::Key;
  const size_t n = static_cast<size_t>(graph.n()), m = static_cast<size_t>(graph.m());
  require_host_memory(bytes_add(bytes_mul(8, n + 1), bytes_mul(4 + 8 + 8, m)),
                      "Johnson's reduced graph for the device (" + std::to_string(m) + " arcs of float64 costs)");
  JohnsonWeights<W> jw = johnson_weights<W>(graph, options);
  ReducedGraph r;
  r.dtype = graph.dtype();
  r.relaxations = jw.bf_relaxations;
  r.potentials.resize(n);
  double largest_potential = 0, largest_cost = 0;
  for (size_t v = 0; v < n; ++v) {
    r.potentials[v] = static_cast<double>(jw.h[v]);
    largest_potential = std::max(largest_potential, std::fabs(r.potentials[v]));
  }
  const Csr& f = graph.forward();
  Csr c;
  c.offsets.assign_zero(n + 1);
  if (m != 0) std::memcpy(c.offsets.data(), f.offsets.data(), (n + 1) * sizeof(int64_t));
  c.targets = f.targets;
  c.weights_f64.resize(m);
  for (size_t e = 0; e < m; ++e) {
    const double w = static_cast<double>(jw.reduced[e]);
    c.weights_f64[e] = w;
    largest_cost = std::max(largest_cost, w);
  }
  // Float weights are reduced in double already (the CPU Johnson's keys),
  // so float64 loses nothing there; int32 ones are exact while the sums are.
  r.exact = !std::is_same_v<K, int64_t> ||
            (largest_potential < kExactDouble && largest_cost * static_cast<double>(n) < kExactDouble);
  r.graph = std::make_shared<const Graph>(graph.n(), GSP_F64, std::move(c));
  return r;
}

template <class W>
W back(const ReducedGraph& r, double reduced, int32_t s, int32_t t) {
  using K = WideKey<W>;
  if (std::isinf(reduced)) return Dist<W>::inf();
  const double hs = r.potentials[static_cast<size_t>(s)], ht = r.potentials[static_cast<size_t>(t)];
  if constexpr (std::is_same_v<K, int64_t>) {  // exact integers (ReducedGraph::exact)
    return narrow_distance<W>(static_cast<K>(reduced) - static_cast<K>(hs) + static_cast<K>(ht), s, t);
  } else {
    return narrow_distance<W>(reduced - hs + ht, s, t);
  }
}

}  // namespace

ReducedGraph johnson_reduced_graph(const Graph& graph, const RunOptions* options) {
  return with_weight_type(graph.dtype(), [&](auto w) { return reduce<decltype(w)>(graph, options); });
}

void ReducedGraph::unreduce(int32_t source, const double* reduced, const int32_t* columns, int32_t count,
                            void* out) const {
  with_weight_type(dtype, [&](auto w) {
    using W = decltype(w);
    W* o = static_cast<W*>(out);
    for (int32_t j = 0; j < count; ++j) {
      o[j] = back<W>(*this, reduced[j], source, columns != nullptr ? columns[j] : j);
    }
  });
}

}  // namespace gsp::detail::cpu
