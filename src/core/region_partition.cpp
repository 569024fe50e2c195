// Region partition: breadth-first growing, then renumbering (region_partition.h).
#include "core/region_partition.h"

#include <algorithm>
#include <stdexcept>

namespace gsp::detail {

RegionPartition partition_regions(int32_t n, const int64_t* out_off, const int32_t* out_head,
                                  const int64_t* in_off, const int32_t* in_tail, int32_t cap) {
  if (n < 0 || cap < 1) throw std::invalid_argument("partition_regions: n < 0 or cap < 1");
  RegionPartition p;
  const size_t un = static_cast<size_t>(n);
  p.new_of_old.assign(un, -1);
  p.old_of_new.reserve(un);
  p.region_of.reserve(un);
  p.start.push_back(0);
  // seen[v] == r: v is already in region r's search queue.
  std::vector<int32_t> seen(un, -1);
  // Unassigned vertices met on the edge of earlier regions: the next seeds,
  // so that a region starts next to the ones before it.
  std::vector<int32_t> carry;
  size_t carry_head = 0;
  int32_t scan = 0;  // lowest id not yet known to be assigned
  std::vector<int32_t> queue;
  auto next_seed = [&]() -> int32_t {
    while (carry_head < carry.size()) {
      const int32_t v = carry[carry_head++];
      if (p.new_of_old[static_cast<size_t>(v)] < 0) return v;
    }
    carry.clear();
    carry_head = 0;
    while (scan < n && p.new_of_old[static_cast<size_t>(scan)] >= 0) ++scan;
    return scan < n ? scan : -1;
  };
  auto visit = [&](int32_t w, int32_t r) {
    const size_t uw = static_cast<size_t>(w);
    if (p.new_of_old[uw] < 0 && seen[uw] != r) {
      seen[uw] = r;
      queue.push_back(w);
    }
  };
  int32_t taken = 0;
  for (int32_t r = 0; taken < n; ++r) {
    int32_t count = 0;
    queue.clear();
    size_t head = 0;
    while (count < cap) {
      if (head == queue.size()) {  // the search ran dry: continue from a new seed
        const int32_t s = next_seed();
        if (s < 0) break;
        seen[static_cast<size_t>(s)] = r;
        queue.push_back(s);
      }
      const int32_t v = queue[head++];
      if (p.new_of_old[static_cast<size_t>(v)] >= 0) continue;  // taken via the carry list
      p.new_of_old[static_cast<size_t>(v)] = taken++;
      p.old_of_new.push_back(v);
      p.region_of.push_back(r);
      ++count;
      for (int64_t e = out_off[v]; e < out_off[v + 1]; ++e) visit(out_head[e], r);
      for (int64_t e = in_off[v]; e < in_off[v + 1]; ++e) visit(in_tail[e], r);
    }
    // What the search had found but the full region could not take borders it.
    for (size_t i = head; i < queue.size(); ++i) carry.push_back(queue[i]);
    p.start.push_back(taken);
  }
  return p;
}

template <class W>
RenumberedCsr<W> renumber_csr(const RegionPartition& part, const CsrView<W>& g) {
  RenumberedCsr<W> out;
  const size_t un = static_cast<size_t>(g.n);
  out.offsets.resize(un + 1);
  out.heads.resize(static_cast<size_t>(g.m));
  out.weights.resize(static_cast<size_t>(g.m));
  int64_t at = 0;
  for (size_t v = 0; v < un; ++v) {
    out.offsets[v] = at;
    const int32_t old = part.old_of_new[v];
    for (int64_t e = g.offsets[old]; e < g.offsets[old + 1]; ++e, ++at) {
      out.heads[static_cast<size_t>(at)] = part.new_of_old[static_cast<size_t>(g.targets[e])];
      out.weights[static_cast<size_t>(at)] = g.weights[e];
    }
  }
  out.offsets[un] = at;
  return out;
}

template RenumberedCsr<float> renumber_csr<float>(const RegionPartition&, const CsrView<float>&);
template RenumberedCsr<int32_t> renumber_csr<int32_t>(const RegionPartition&, const CsrView<int32_t>&);

}  // namespace gsp::detail
