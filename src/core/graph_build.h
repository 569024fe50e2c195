// Building a validated Graph from caller arrays (COO or CSR). Used by the
// API layer and by the file readers (src/io/). Throws Error
// (GSP_ERR_INVALID_ARGUMENT / GSP_ERR_INVALID_GRAPH) naming the offending
// value; std::bad_alloc on host memory exhaustion.
#pragma once

#include <cstdint>

#include "core/graph.h"

namespace gsp::detail {

// Arcs (sources[i] -> targets[i], weights[i]); weights null means all 1.
// With undirected, (v,u) is added for every (u,v) (self-loops once).
// Arcs keep their input order within each tail vertex. Inputs of 2^22 arcs
// and more are checked and sorted on several threads (graph_build.cpp); the
// graph does not depend on how many.
GraphPtr build_graph_coo(int32_t n, int64_t m, const int32_t* sources, const int32_t* targets, const void* weights,
                         gsp_dtype dtype, bool undirected);

// Host bytes that building a graph of n vertices from `count` input arcs
// needs at its peak (the CSR, plus the counting sort's 8 n positions when
// there are arcs); saturates at UINT64_MAX. The builders above check it
// against host_memory.h before allocating; the file readers check it, plus
// the arcs they hold, when a header declares the sizes.
uint64_t graph_build_bytes(int32_t n, int64_t count, bool undirected, gsp_dtype dtype);

// CSR arrays (offsets[n] arcs); a directed one is copied as given (on
// several threads when large), an undirected one sorted as above.
GraphPtr build_graph_csr(int32_t n, const int64_t* offsets, const int32_t* targets, const void* weights,
                         gsp_dtype dtype, bool undirected);
// build_graph_csr's checks of the n + 1 offsets (GSP_ERR_INVALID_GRAPH):
// offsets[0] = 0, never decreasing. Device arrays check their host copy
// with it before anything is sized from offsets[n].
void check_csr_offsets(int32_t n, const int64_t* offsets);

// The reverse of a forward CSR of n vertices (for each vertex its in-arcs,
// tails in targets, in the order of the forward arcs), built by the same
// counting sort, on several threads when large. The caller checks the
// memory (Graph::reverse()).
Csr build_reverse_csr(const Csr& forward, int32_t n, gsp_dtype dtype);

}  // namespace gsp::detail
