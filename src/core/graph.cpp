// Graph: statistics at construction, the reverse graph and the depth probe
// on first use.
#include "core/graph.h"

#include <algorithm>
#include <vector>
#include <string>

#include "core/fnv1a.h"
#include "core/hop_depth.h"
#include "core/host_memory.h"

namespace gsp::detail {

Graph::Graph(int32_t n, gsp_dtype dtype, Csr forward) : n_(n), dtype_(dtype), fwd_(std::move(forward)) {
  const size_t m = fwd_.targets.size();
  auto scan = [&](const auto& w) {
    if (m == 0) return;
    auto [lo, hi] = std::minmax_element(w.begin(), w.end());
    min_w_ = static_cast<double>(*lo);
    max_w_ = static_cast<double>(*hi);
    has_negative_ = *lo < 0;
    double sum = 0;
    for (auto x : w) sum += static_cast<double>(x);
    mean_w_ = sum / static_cast<double>(m);
  };
  with_weight_type(dtype_, [&](auto w) { scan(weights_of<decltype(w)>(fwd_)); });
  // Without arcs every degree is 0, and the offsets stay untouched zero pages.
  for (int32_t v = 0; m != 0 && v < n_; v++) {
    max_out_degree_ = std::max<int32_t>(max_out_degree_, static_cast<int32_t>(fwd_.offsets[v + 1] - fwd_.offsets[v]));
  }
}

const Csr& Graph::reverse() const {
  std::call_once(rev_once_, [this] {
    const int64_t m = this->m();
    require_host_memory(bytes_add(bytes_mul(16, static_cast<uint64_t>(n_) + 1), bytes_mul(4 + weight_bytes(dtype_), static_cast<uint64_t>(m))),
                        "the reverse graph of " + std::to_string(n_) + " vertices and " + std::to_string(m) + " arcs");
    Csr r;
    r.offsets.assign_zero(static_cast<size_t>(n_) + 1);
    for (int64_t e = 0; e < m; e++) r.offsets[static_cast<size_t>(fwd_.targets[e]) + 1]++;
    for (int32_t v = 0; v < n_; v++) r.offsets[v + 1] += r.offsets[v];
    std::vector<int64_t> pos(r.offsets.begin(), r.offsets.end() - 1);
    r.targets.resize(static_cast<size_t>(m));
    with_weight_type(dtype_, [&](auto w0) {
      using W = decltype(w0);
      const std::vector<W>& fw = weights_of<W>(fwd_);
      std::vector<W>& rw = weights_of<W>(r);
      rw.resize(static_cast<size_t>(m));
      for (int32_t u = 0; u < n_; u++) {
        for (int64_t e = fwd_.offsets[u]; e < fwd_.offsets[u + 1]; e++) {
          const int64_t at = pos[fwd_.targets[e]]++;
          r.targets[at] = u;
          rw[at] = fw[e];
        }
      }
    });
    rev_ = std::move(r);
  });
  return rev_;
}

int64_t Graph::max_in_degree() const {
  std::call_once(in_degree_once_, [this] {
    if (m() == 0) return;
    std::vector<int64_t> count(static_cast<size_t>(n_), 0);
    for (int32_t t : fwd_.targets) max_in_degree_ = std::max(max_in_degree_, ++count[static_cast<size_t>(t)]);
  });
  return max_in_degree_;
}

uint64_t Graph::fingerprint() const {
  std::call_once(fingerprint_once_, [this] {
    uint64_t h = kFnv1aStart;
    h = fnv1a_value(h, static_cast<uint64_t>(static_cast<uint32_t>(n_)) << 32 | static_cast<uint32_t>(dtype_));
    h = fnv1a(h, fwd_.offsets.data(), (static_cast<size_t>(n_) + 1) * sizeof(int64_t));
    h = fnv1a(h, fwd_.targets.data(), fwd_.targets.size() * sizeof(int32_t));
    with_weight_type(dtype_, [&](auto w) {
      const auto& weights = weights_of<decltype(w)>(fwd_);
      h = fnv1a(h, weights.data(), weights.size() * sizeof(decltype(w)));
    });
    fingerprint_ = h;
  });
  return fingerprint_;
}

double Graph::hop_depth() const {
  std::call_once(depth_once_, [this] { hop_depth_ = estimate_hop_depth(*this); });
  return hop_depth_;
}

}  // namespace gsp::detail
