// What libgsp knows about each algorithm, read from GSP_ALGORITHM_TABLE
// (include/gsp/gsp.h): its kind, whether it accepts negative weights, and
// which backends have an engine. The dispatcher's checks
// (dispatch/dispatch.cpp), the backends' supports() and the public queries
// (gsp_algorithms.h, api/names.cpp) read these rows and nothing else, so a
// new algorithm is one table row, its engine and its tests.
#pragma once

#include <cstddef>

#include "gsp/gsp.h"

namespace gsp::detail {

struct AlgorithmFacts {
  gsp_algorithm id;
  gsp_kind kind;
  bool negative_weights;   // accepts arcs of negative weight
  bool cpu;                // has a CPU engine (engines/cpu/cpu_backend.cpp routes it)
  bool cuda;               // has a CUDA engine (engines/cuda/cuda_backend.cu routes it), in CUDA builds
  int value;               // the enumerator's value
  const char* identifier;  // "GSP_SSSP_DIJKSTRA"
  const char* name;        // "dijkstra"
  const char* summary;     // GSP_ALGORITHM_LIST's
};

namespace algorithms_table {

// One row's facts (the summary as GSP_ALGORITHM_LIST makes it).
// clang-format off
#define GSP_ALGORITHM_FACTS_(name, value, cli_name, kind, any_w, cpu, cuda, text) \
  AlgorithmFacts{name, kind, (any_w) != 0, (cpu) != 0, (cuda) != 0, value, #name, cli_name, \
                 GSP_ALGORITHM_SUMMARY_(kind, any_w, cpu, cuda, text)},
// clang-format on
inline constexpr AlgorithmFacts kRows[] = {GSP_ALGORITHM_TABLE(GSP_ALGORITHM_FACTS_)};
#undef GSP_ALGORITHM_FACTS_
constexpr size_t kNumRows = sizeof kRows / sizeof kRows[0];

// Values run 0, 1, 2, ... (the table is appended to, never renumbered), so a
// value indexes kRows.
constexpr bool values_are_indices() {
  for (size_t i = 0; i < kNumRows; ++i) {
    if (kRows[i].value != static_cast<int>(i) || static_cast<int>(kRows[i].id) != kRows[i].value) return false;
  }
  return true;
}
static_assert(values_are_indices(), "GSP_ALGORITHM_TABLE: values must run 0, 1, 2, ... in table order");

}  // namespace algorithms_table

// The largest gsp_algorithm value.
constexpr int kMaxAlgorithm = static_cast<int>(algorithms_table::kNumRows) - 1;

// The row of `value`, or nullptr when it is no gsp_algorithm (any int may
// come from C: take the stored integer, not the enum).
constexpr const AlgorithmFacts* algorithm_facts(int value) {
  return value >= 0 && value <= kMaxAlgorithm ? &algorithms_table::kRows[value] : nullptr;
}

constexpr bool is_sssp(gsp_algorithm a) {
  const AlgorithmFacts* f = algorithm_facts(static_cast<int>(a));
  return f != nullptr && f->kind == GSP_KIND_SSSP;
}
constexpr bool accepts_negative_weights(gsp_algorithm a) {
  const AlgorithmFacts* f = algorithm_facts(static_cast<int>(a));
  return f != nullptr && f->negative_weights;
}
constexpr bool has_cpu_engine(gsp_algorithm a) {
  const AlgorithmFacts* f = algorithm_facts(static_cast<int>(a));
  return f != nullptr && f->cpu;
}
constexpr bool has_cuda_engine(gsp_algorithm a) {
  const AlgorithmFacts* f = algorithm_facts(static_cast<int>(a));
  return f != nullptr && f->cuda;
}

}  // namespace gsp::detail
