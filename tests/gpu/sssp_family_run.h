/* Shared by the GPU SSSP family tests (test_gpu_sssp_family_shapes.c,
 * test_gpu_sssp_family_large.c): one SSSP run with an explicit backend,
 * algorithm, delta and device memory limit, and the family's engines.
 * Header-only, C99. */
#ifndef GSP_TEST_SSSP_FAMILY_RUN_H
#define GSP_TEST_SSSP_FAMILY_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "gsp/gsp.h"

/* The SSSP family (src/engines/cuda/sssp/sssp_family.cuh): delta-stepping, Bellman-Ford,
 * min-plus SpMV CSR/ELL, GPU Dijkstra. */
static const gsp_algorithm kAll[] = {GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,
                                     GSP_SSSP_SPMV_ELL, GSP_SSSP_GPU_DIJKSTRA};

static inline gsp_status run_opts(const gsp_graph* g, int32_t src, gsp_backend b, gsp_algorithm a, double delta,
                                  size_t limit, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = b;
  o.algorithm = a;
  o.delta = delta;
  o.device_memory_limit = limit;
  *out = NULL;
  return gsp_sssp_run(g, src, &o, out);
}

#endif
