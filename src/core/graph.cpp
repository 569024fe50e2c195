// Graph: statistics at construction, the reverse graph and the depth probe
// on first use.
#include "core/graph.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/fnv1a.h"
#include "core/graph_build.h"
#include "core/hardware_threads.h"
#include "core/hop_depth.h"
#include "core/host_memory.h"
#include "core/parallel_copy.h"

namespace gsp::detail {

namespace {

// The weight statistics run over blocks of this many weights, on several
// threads for large graphs: each block's sum runs in order and the blocks'
// sums are added in order, so the mean does not depend on the thread count
// (and a graph of at most one block gets the plain sequential sum).
constexpr size_t kStatBlock = size_t(1) << 24;

struct WeightStats {
  double lo = 0, hi = 0, sum = 0;
};

template <class W>
WeightStats weight_stats(const std::vector<W>& w) {
  const size_t m = w.size(), blocks = (m + kStatBlock - 1) / kStatBlock;
  std::vector<WeightStats> part(blocks);
  const int32_t threads = std::min<int32_t>(hardware_threads(), 32);
  const auto run = [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; ++b) {
      const W* first = w.data() + b * kStatBlock;
      const W* last = w.data() + std::min(m, (b + 1) * kStatBlock);
      auto [lo, hi] = std::minmax_element(first, last);
      double sum = 0;
      for (const W* x = first; x != last; ++x) sum += static_cast<double>(*x);
      part[b] = WeightStats{static_cast<double>(*lo), static_cast<double>(*hi), sum};
    }
  };
  if (blocks > 1) {
    for_each_part(blocks, threads, 1, 1, [&run](size_t at, size_t len) { run(at, at + len); });
  } else {
    run(0, blocks);
  }
  WeightStats s = part[0];
  for (size_t b = 1; b < blocks; ++b) {
    s.lo = std::min(s.lo, part[b].lo);
    s.hi = std::max(s.hi, part[b].hi);
    s.sum += part[b].sum;
  }
  return s;
}

}  // namespace

Graph::Graph(int32_t n, gsp_dtype dtype, Csr forward) : n_(n), dtype_(dtype), fwd_(std::move(forward)) {
  const size_t m = fwd_.targets.size();
  with_weight_type(dtype_, [&](auto w) {
    if (m == 0) return;
    const WeightStats s = weight_stats(weights_of<decltype(w)>(fwd_));
    min_w_ = s.lo;
    max_w_ = s.hi;
    has_negative_ = s.lo < 0;
    mean_w_ = s.sum / static_cast<double>(m);
  });
  // Without arcs every degree is 0, and the offsets stay untouched zero pages.
  for (int32_t v = 0; m != 0 && v < n_; v++) {
    max_out_degree_ = std::max<int64_t>(max_out_degree_, fwd_.offsets[v + 1] - fwd_.offsets[v]);
  }
}

const Csr& Graph::reverse() const {
  std::call_once(rev_once_, [this] {
    const int64_t m = this->m();
    require_host_memory(bytes_add(bytes_mul(16, static_cast<uint64_t>(n_) + 1),
                                  bytes_mul(4 + weight_bytes(dtype_), static_cast<uint64_t>(m))),
                        "the reverse graph of " + std::to_string(n_) + " vertices and " + std::to_string(m) + " arcs");
    Csr r = build_reverse_csr(fwd_, n_, dtype_);
    rev_ = std::move(r);
    rev_built_.store(true, std::memory_order_release);
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
