// Regions of a graph for the CUDA delta-stepping's region engine
// (cuda/sssp_region.cu): vertices grouped into regions of at most `cap`
// vertices, grown by breadth-first search over the arcs taken both ways, and
// renumbered so that each region is one contiguous range of new ids. A block
// of the GPU then owns a region at a time and keeps its distances in shared
// memory (doc/gpu-sssp-family.md, "Region engine").
//
// Plain host code with no CUDA in it, so the CPU tests check it
// (tests/test_region_partition.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph.h"

namespace gsp::detail {

struct RegionPartition {
  std::vector<int32_t> new_of_old;  // n: the new id of each vertex
  std::vector<int32_t> old_of_new;  // n: its inverse
  std::vector<int32_t> start;       // regions + 1: region r holds new ids [start[r], start[r + 1])
  std::vector<int32_t> region_of;   // n, by new id
  int32_t regions() const { return start.empty() ? 0 : static_cast<int32_t>(start.size()) - 1; }
};

// Partitions the n vertices of a graph given by its out-arcs (out_off,
// out_head) and in-arcs (in_off, in_tail) into regions of at most cap
// vertices (cap >= 1). Each region is filled by breadth-first search from a
// seed; when the search runs dry before the region is full, it goes on from
// the next unassigned vertex on the frontier of earlier regions (so every
// region but the last has exactly cap vertices), or from the lowest
// unassigned id. New ids follow the order in which vertices were taken.
RegionPartition partition_regions(int32_t n, const int64_t* out_off, const int32_t* out_head,
                                  const int64_t* in_off, const int32_t* in_tail, int32_t cap);

// The graph renumbered by a partition: the arcs of new vertex v are those of
// old_of_new[v], in their original order, with heads renumbered.
template <class W>
struct RenumberedCsr {
  std::vector<int64_t> offsets;
  std::vector<int32_t> heads;
  std::vector<W> weights;
};
template <class W>
RenumberedCsr<W> renumber_csr(const RegionPartition& part, const CsrView<W>& g);

}  // namespace gsp::detail
