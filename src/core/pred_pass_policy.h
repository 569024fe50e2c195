// Whether a dense APSP engine (Floyd-Warshall, min-plus squaring) sets the
// predecessors by one pass over the finished distance matrix instead of
// tracking them in every relaxation. The pass gives each pred[i][j] the
// in-neighbour k != j of j that minimises d[i][k] + w(k, j): n * m reads
// against the n^3 relaxations, whose tracking costs an extra compare and
// select or two per relaxation (CPU: src/engines/cpu/apsp_dense/apsp_matrix.cpp, CUDA:
// src/engines/cuda/apsp_dense/pred_pass.cuh; doc/cpu-engines.md, doc/gpu-apsp-dense.md).
#pragma once

#include <cstdint>

#include "core/tuning.h"

namespace gsp::detail {

// GSP_DENSE_PRED=pass|track forces one (`forced`: the run's
// Tuning::dense_pred, for tests and benchmarks). Otherwise the pass, unless tracking is nearly
// free for the engine at hand (tracking_is_cheap) or the graph is dense
// enough (m > n^2 / 64) for n * m reads to approach the n^3 relaxations.
inline bool dense_pred_pass(int32_t n, int64_t m, bool tracking_is_cheap, DensePred forced) {
  if (forced != DensePred::kAuto) return forced == DensePred::kPass;
  if (tracking_is_cheap) return false;
  return static_cast<double>(m) <= static_cast<double>(n) * static_cast<double>(n) / 64.0;
}

}  // namespace gsp::detail
