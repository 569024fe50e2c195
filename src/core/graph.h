// The graph behind the opaque gsp_graph handle: host CSR, validated, plus a
// lazily built reverse graph, a lazily probed depth (for the CPU cost model)
// and a slot where the CUDA layer caches its device copy. Immutable after
// construction (the lazy parts are built once, under a lock), so it is
// shared by reference count between handles and results.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "core/host_array.h"
#include "core/weight_type.h"
#include "gsp/gsp.h"

namespace gsp::detail {

// A read-only CSR view over one weight type.
template <class W>
struct CsrView {
  int32_t n = 0;
  int64_t m = 0;
  const int64_t* offsets = nullptr;  // n+1
  const int32_t* targets = nullptr;  // m (heads for a forward view, tails for a reverse view)
  const W* weights = nullptr;        // m
};

// Host CSR arrays of one direction.
struct Csr {
  HostArray<int64_t> offsets;    // n+1 (zero pages, untouched, for a graph without arcs)
  std::vector<int32_t> targets;  // m
  std::vector<float> weights_f32;
  std::vector<int32_t> weights_i32;
  std::vector<double> weights_f64;
};

// The weights of one type in a Csr (the others are empty).
template <class W>
std::vector<W>& weights_of(Csr& c) {
  return by_weight_type<W>(c.weights_f32, c.weights_i32, c.weights_f64);
}
template <class W>
const std::vector<W>& weights_of(const Csr& c) {
  return weights_of<W>(const_cast<Csr&>(c));
}

// Base for whatever the CUDA layer caches on a graph (device arrays); freed
// with the graph.
struct DeviceCacheBase {
  virtual ~DeviceCacheBase() = default;
};

class Graph {
 public:
  // Takes ownership of validated CSR arrays (see graph_build.h for builders).
  Graph(int32_t n, gsp_dtype dtype, Csr forward);

  int32_t n() const { return n_; }
  int64_t m() const { return static_cast<int64_t>(fwd_.targets.size()); }
  gsp_dtype dtype() const { return dtype_; }
  bool has_negative_weight() const { return has_negative_; }
  // Smallest / largest weight as double (0 when m == 0).
  double min_weight() const { return min_w_; }
  double max_weight() const { return max_w_; }
  // Mean arc weight (0 when m == 0), computed once at construction.
  double mean_weight() const { return mean_w_; }
  int64_t max_out_degree() const { return max_out_degree_; }

  template <class W>
  CsrView<W> view() const {
    return make_view<W>(fwd_);
  }
  // The reverse graph: for each vertex v, its in-arcs (u, w) with u stored in
  // targets. Built on first use, once, thread-safe.
  template <class W>
  CsrView<W> reverse_view() const {
    return make_view<W>(reverse());
  }
  const Csr& forward() const { return fwd_; }
  const Csr& reverse() const;
  // Whether the reverse graph is built (a search that may use it or not
  // can skip the cost of building it; dispatch's point-to-point bet).
  bool has_reverse() const { return rev_built_.load(std::memory_order_acquire); }
  // Estimated hop eccentricity of a source (estimate_hop_depth(),
  // core/hop_depth.h). Probed on first use, once,
  // thread-safe.
  double hop_depth() const;
  // The largest in-degree (0 without arcs). Counted on first use, once,
  // thread-safe.
  int64_t max_in_degree() const;
  // A 64-bit hash of n, the weight type and the forward arrays: what a road
  // index (core/road_index.h) records of its graph, so that it answers only
  // for an equal one. Computed on first use, once, thread-safe.
  uint64_t fingerprint() const;

  // Device cache slot, owned by the CUDA layer. The mutex serialises its creation.
  std::mutex& device_mutex() const { return device_mu_; }
  std::unique_ptr<DeviceCacheBase>& device_cache() const { return device_cache_; }

 private:
  template <class W>
  CsrView<W> make_view(const Csr& c) const {
    CsrView<W> v;
    v.n = n_;
    v.m = static_cast<int64_t>(c.targets.size());
    v.offsets = c.offsets.data();
    v.targets = c.targets.data();
    v.weights = weights_of<W>(c).data();
    return v;
  }

  int32_t n_;
  gsp_dtype dtype_;
  Csr fwd_;
  bool has_negative_ = false;
  double min_w_ = 0, max_w_ = 0, mean_w_ = 0;
  int64_t max_out_degree_ = 0;

  mutable std::once_flag rev_once_;
  mutable std::atomic<bool> rev_built_{false};
  mutable Csr rev_;
  mutable std::once_flag depth_once_;
  mutable double hop_depth_ = 1;
  mutable std::once_flag in_degree_once_;
  mutable int64_t max_in_degree_ = 0;
  mutable std::once_flag fingerprint_once_;
  mutable uint64_t fingerprint_ = 0;
  mutable std::mutex device_mu_;
  mutable std::unique_ptr<DeviceCacheBase> device_cache_;
};

using GraphPtr = std::shared_ptr<const Graph>;

}  // namespace gsp::detail
