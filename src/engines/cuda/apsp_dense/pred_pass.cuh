// Predecessors from a finished distance matrix (the "pred pass" of the dense
// APSP engines, doc/gpu-apsp-dense.md): instead of tracking the winning k in
// every relaxation (add, compare and two selects per cell and k: 2.3x the
// distance-only time for float), run the distance-only product and then set
//
//   pred[i][j] = the in-neighbour k != j of j minimising d[i][k] + w(k, j)
//
// (the first such arc in the reverse CSR's order), -1 for j == i, for
// unreachable j and for padding. That is a last arc of a shortest path
// (d[i][j] = min_k d[i][k] + w(k, j) at the fixpoint); it costs one pass over
// the in-arcs per row, n * m gathers from a row held in shared memory,
// against n^3 relaxations. The predecessor check and repair that follow
// (deliver_rows_device) handle zero-weight cycles, as for tracked ones.
#pragma once

#include <type_traits>

#include "core/pred_pass_policy.h"
#include "apsp_dense/minplus_tile.cuh"

namespace gsp::detail::gpu::dense {

// The packed int32 kernel tracks predecessors at almost no cost.
template <class Ops>
bool use_pred_pass(int32_t n, int64_t m, const RunOptions& o) {
  return dense_pred_pass(n, m, Ops::kPackBits > 0, o.tuning.dense_pred);
}

template <class Ops, class W>
__global__ void pred_pass_kernel(const typename Ops::T* D, int32_t* P, int64_t ld, int32_t n, DeviceCsr<W> rg,
                                 bool row_in_smem, int64_t rows, int64_t row_base) {
  using T = typename Ops::T;
  // Sums in the type the product used for floats; int64 for int32 (no wrap).
  using S = typename std::conditional<std::is_floating_point<T>::value, T, long long>::type;
  extern __shared__ __align__(16) unsigned char pred_smem[];
  T* row = reinterpret_cast<T*>(pred_smem);
  for (int64_t li = blockIdx.x; li < rows; li += gridDim.x) {
    const int64_t i = row_base + li;
    const T* drow = D + li * ld;
    const T* src = drow;
    if (row_in_smem) {
      __syncthreads();  // the previous row's readers are done
      for (int64_t j = threadIdx.x; j < n; j += blockDim.x) row[j] = drow[j];
      __syncthreads();
      src = row;
    }
    for (int64_t j = threadIdx.x; j < ld; j += blockDim.x) {
      int32_t best = -1;
      if (i < n && j < n && j != i && !Ops::is_inf(src[j])) {
        S bv = S(0);
        bool any = false;
        for (int64_t e = rg.offsets[j]; e < rg.offsets[j + 1]; ++e) {
          const int32_t k = rg.targets[e];
          if (k == (int32_t)j) continue;
          const T dk = src[k];
          if (Ops::is_inf(dk)) continue;
          const S s = (S)dk + (S)rg.weights[e];
          if (!any || s < bv) {
            bv = s;
            best = k;
            any = true;
          }
        }
      }
      P[li * ld + j] = best;
    }
  }
}

// Fills `rows` rows of P (leading dimension ld) from the finished distances
// D, the first row being vertex row_base's, on stream s; rg: the reverse
// graph on the device.
template <class Ops, class W>
void pred_pass_rows(RunContext& ctx, const DeviceCsr<W>& rg, const typename Ops::T* D, int32_t* P, int64_t ld,
                    cudaStream_t s, int64_t rows, int64_t row_base) {
  const size_t row_bytes = (size_t)rg.n * sizeof(typename Ops::T);
  const bool smem = row_bytes <= (size_t)160 * 1024;
  if (smem && row_bytes > 48 * 1024) {
    GSP_CUDA(
        cudaFuncSetAttribute(pred_pass_kernel<Ops, W>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)row_bytes));
  }
  const unsigned grid =
      (unsigned)std::max<int64_t>(1, std::min<int64_t>(rows, (int64_t)ctx.props().multiProcessorCount * 8));
  pred_pass_kernel<Ops, W><<<grid, 256, smem ? row_bytes : 0, s>>>(D, P, ld, rg.n, rg, smem, rows, row_base);
  GSP_CUDA_LAUNCH();
}

// Fills P from the finished distances D on stream s: ld x ld, or a band of
// `rows` rows whose first is vertex row_base's (fw_multi_device.cu).
template <class Ops, class W>
void pred_pass(RunContext& ctx, const Graph& graph, const typename Ops::T* D, int32_t* P, int64_t ld, cudaStream_t s,
               int64_t rows = -1, int64_t row_base = 0) {
  if (rows < 0) rows = ld;
  pred_pass_rows<Ops, W>(ctx, device_reverse_graph<W>(ctx, graph), D, P, ld, s, rows, row_base);
}

}  // namespace gsp::detail::gpu::dense
