// Shared plumbing of the CPU engines: the thread team (team.h), stats,
// matrix allocation with size checks, and engine entry points by weight type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"
#include "core/hardware_threads.h"
#include "engines/cpu/common/team.h"

namespace gsp::detail::cpu {

inline int resolved_threads(const RunOptions* o) {
  int t = o != nullptr ? o->num_threads : 1;
  if (t < 1) t = std::max(1, hardware_threads());
  return t;
}

inline void fill_stats(RunStats* s, gsp_algorithm algo, int threads, int64_t iterations, int64_t relaxations) {
  if (s == nullptr) return;
  s->backend = GSP_BACKEND_CPU;
  s->algorithm = algo;
  s->device = -1;
  s->device_name = "CPU (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  s->iterations = iterations;
  s->relaxations = relaxations;
}

// Elements of an n x n matrix; throws std::bad_alloc when the byte count
// does not fit size_t (the API maps it to GSP_ERR_OUT_OF_MEMORY).
inline size_t matrix_elems(int32_t n, size_t elem_size) {
  size_t un = static_cast<size_t>(n);
  if (un != 0 && un > std::numeric_limits<size_t>::max() / un) throw std::bad_alloc();
  size_t e = un * un;
  if (e != 0 && e > std::numeric_limits<size_t>::max() / elem_size) throw std::bad_alloc();
  return e;
}

template <class T>
void alloc_vector(std::vector<T>& v, size_t count, const T& value) {
  try {
    v.assign(count, value);
  } catch (const std::length_error&) {
    throw std::bad_alloc();
  }
}

inline void require_non_negative(const Graph& g, const char* algo) {
  if (g.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT, std::string(algo) +
                                             " needs non-negative weights; the graph has a negative arc "
                                             "(smallest weight " +
                                             std::to_string(g.min_weight()) +
                                             "); use Bellman-Ford, Floyd-Warshall, min-plus or Johnson");
  }
}

// Engines, one per algorithm, per weight type (explicitly instantiated for
// float and int32_t in their .cpp files).
template <class W>
void dijkstra_sssp(const SsspJob& job);
template <class W>
void bellman_ford_sssp(const SsspJob& job);
template <class W>
void delta_stepping_sssp(const SsspJob& job);
template <class W>
void floyd_warshall_apsp(const ApspJob& job);
template <class W>
void minplus_apsp(const ApspJob& job);
template <class W>
void dijkstra_apsp(const ApspJob& job);  // GSP_APSP_HEAP
template <class W>
void johnson_apsp(const ApspJob& job);

}  // namespace gsp::detail::cpu
