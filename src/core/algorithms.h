// What libgsp knows about each algorithm beyond the id, name and summary of
// GSP_ALGORITHM_LIST (include/gsp/gsp.h): its kind, whether it accepts
// negative weights, and which backends have an engine. The dispatcher's
// checks (dispatch/dispatch.cpp), cpu::supports and gpu::supports read this
// table and nothing else. It has one row per entry of GSP_ALGORITHM_LIST, in
// its order, and each public summary states the row's facts ("SSSP"/"APSP",
// "any w"/"w >= 0", the backends in its last parentheses): both are checked
// at compile time below, so a new algorithm is one list entry and one row.
#pragma once

#include <cstddef>

#include "gsp/gsp.h"

namespace gsp::detail {

// kIndex: queries on a road index (gsp_index.h), for every entry point.
enum class AlgorithmKind { kAuto, kSssp, kApsp, kIndex };

struct AlgorithmFacts {
  gsp_algorithm id;
  AlgorithmKind kind;
  bool negative_weights;  // accepts arcs of negative weight
  bool cpu;               // has a CPU engine (src/engines/cpu/common/cpu_engines.cpp routes it)
  bool cuda;              // has a CUDA engine (src/engines/cuda/runtime/gpu_backend.cu routes it), in builds with CUDA
};

namespace algorithms_table {

constexpr AlgorithmKind kAuto = AlgorithmKind::kAuto;
constexpr AlgorithmKind kSssp = AlgorithmKind::kSssp;
constexpr AlgorithmKind kApsp = AlgorithmKind::kApsp;
constexpr AlgorithmKind kIndex = AlgorithmKind::kIndex;

inline constexpr AlgorithmFacts kRows[] = {
    // id                     kind   any w  CPU    CUDA
    {GSP_ALGO_AUTO, kAuto, true, false, false},          {GSP_SSSP_DIJKSTRA, kSssp, false, true, false},
    {GSP_SSSP_BELLMAN_FORD, kSssp, true, true, true},    {GSP_SSSP_DELTA_STEPPING, kSssp, false, true, true},
    {GSP_SSSP_ATOMIC_LOCK, kSssp, false, false, true},   {GSP_SSSP_HARISH, kSssp, false, false, true},
    {GSP_SSSP_SPMV_CSR, kSssp, true, false, true},       {GSP_SSSP_SPMV_ELL, kSssp, true, false, true},
    {GSP_SSSP_GPU_DIJKSTRA, kSssp, false, false, true},  {GSP_APSP_FLOYD_WARSHALL, kApsp, true, true, true},
    {GSP_APSP_MINPLUS, kApsp, true, true, true},         {GSP_APSP_HEAP, kApsp, false, true, true},
    {GSP_APSP_TASK_PARALLEL, kApsp, false, false, true}, {GSP_APSP_JOHNSON, kApsp, true, true, true},
    {GSP_SSSP_ATOMIC_64, kSssp, false, false, true},     {GSP_APSP_DELTA_STEPPING, kApsp, false, true, true},
    {GSP_APSP_SPMM, kApsp, false, false, true},          {GSP_CH, kIndex, false, true, false},
};
constexpr size_t kNumRows = sizeof kRows / sizeof kRows[0];

// ---- compile-time checks against GSP_ALGORITHM_LIST

struct Listed {
  gsp_algorithm id;
  int value;
  const char* summary;
};
#define GSP_ALGORITHM_LISTED_(name, value, cli_name, summary) {name, value, summary},
inline constexpr Listed kListed[] = {GSP_ALGORITHM_LIST(GSP_ALGORITHM_LISTED_)};
#undef GSP_ALGORITHM_LISTED_

constexpr bool starts_with(const char* s, const char* prefix) {
  for (; *prefix != '\0'; ++s, ++prefix) {
    if (*s != *prefix) return false;
  }
  return true;
}
constexpr bool contains(const char* s, const char* part) {
  for (; *s != '\0'; ++s) {
    if (starts_with(s, part)) return true;
  }
  return false;
}
// The text after the summary's last '(' (the backends that have an engine).
constexpr const char* last_parenthesis(const char* s) {
  const char* last = "";
  for (; *s != '\0'; ++s) {
    if (*s == '(') last = s + 1;
  }
  return last;
}

// The summary states the row's facts (AUTO's has none to state).
constexpr bool summary_agrees(const AlgorithmFacts& f, const char* summary) {
  if (f.kind == AlgorithmKind::kAuto) return true;
  const char* backends = last_parenthesis(summary);
  const char* kind = f.kind == AlgorithmKind::kSssp ? "SSSP, " : f.kind == AlgorithmKind::kApsp ? "APSP, " : "Index, ";
  return starts_with(summary, kind) && contains(summary, f.negative_weights ? ", any w: " : ", w >= 0: ") &&
         contains(backends, "CPU") == f.cpu && contains(backends, "CUDA") == f.cuda;
}

constexpr bool rows_follow_list() {
  if (kNumRows != sizeof kListed / sizeof kListed[0]) return false;
  for (size_t i = 0; i < kNumRows; ++i) {
    if (kRows[i].id != kListed[i].id || !summary_agrees(kRows[i], kListed[i].summary)) return false;
  }
  return true;
}
static_assert(rows_follow_list(),
              "src/core/algorithms.h: one row per GSP_ALGORITHM_LIST entry, in its order, whose facts the "
              "entry's summary states (kind, \"any w\" or \"w >= 0\", the backends in its last parentheses)");

// Values run 0, 1, 2, ... (the list is appended to, never renumbered), so a
// value indexes kRows.
constexpr bool values_are_indices() {
  for (size_t i = 0; i < kNumRows; ++i) {
    if (kListed[i].value != static_cast<int>(i)) return false;
  }
  return true;
}
static_assert(values_are_indices(), "GSP_ALGORITHM_LIST: values must run 0, 1, 2, ... in list order");

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
  return f != nullptr && f->kind == AlgorithmKind::kSssp;
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
