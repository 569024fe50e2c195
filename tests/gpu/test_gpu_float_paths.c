/* Float and double accuracy and negative-cycle evidence on every CUDA
 * engine (the cases are in ../float_paths.h; test_float_paths runs them on
 * the CPU): float graphs under float's rule (2^-22), and GSP_F64 graphs
 * (plan.f64) under double's (2^-51), with weights past float's range and
 * cycles only double resolves. */
#include "float_paths.h"

int main(void) {
  static const gsp_algorithm sssp[] = {GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_ATOMIC_LOCK,
                                       GSP_SSSP_ATOMIC_64,      GSP_SSSP_HARISH,       GSP_SSSP_SPMV_CSR,
                                       GSP_SSSP_SPMV_ELL,       GSP_SSSP_GPU_DIJKSTRA, GSP_ALGO_AUTO};
  static const gsp_algorithm apsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP,
                                       GSP_APSP_TASK_PARALLEL,  GSP_APSP_SPMM,    GSP_ALGO_AUTO};
  static const gsp_algorithm sssp_neg[] = {GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR, GSP_SSSP_SPMV_ELL, GSP_ALGO_AUTO};
  static const gsp_algorithm apsp_neg[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_ALGO_AUTO};
  static const int32_t sssp_sizes[] = {100, 1000, 8192};
  static const int32_t apsp_sizes[] = {100, 1000, 4096, 8192};
  /* GSP_TEST_SMALL (compute-sanitizer): 1, APSP up to n = 300; 3 (racecheck,
   * where one Floyd-Warshall call takes about 50 s), n = 100 only */
  static const int32_t apsp_sizes_small[] = {100, 300};
  const int level = getenv("GSP_TEST_SMALL") != NULL ? atoi(getenv("GSP_TEST_SMALL")) : 0;
  const int small = level != 0;
  const fp_plan plan = {.backend = GSP_BACKEND_CUDA,
                        .sssp = sssp,
                        .num_sssp = 9,
                        .apsp = apsp,
                        .num_apsp = 6,
                        .sssp_negative = sssp_neg,
                        .num_sssp_negative = 4,
                        .apsp_negative = apsp_neg,
                        .num_apsp_negative = 3,
                        .sssp_sizes = sssp_sizes,
                        .num_sssp_sizes = small ? 2 : 3,
                        .apsp_sizes = small ? apsp_sizes_small : apsp_sizes,
                        .num_apsp_sizes = level >= 3 ? 1
                                          : small    ? 2
                                                     : 4,
                        .apsp_full_check = 1000,
                        .seeds = small ? 1 : 3,
                        .f64 = 1};
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  return fp_run(&plan, "test_gpu_float_paths");
}
