/* Float accuracy and negative-cycle evidence on the CPU engines (the cases
 * are in float_paths.h; the GPU test runs the same on the CUDA engines). */
#include "float_paths.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FP_SANITIZED 1
#else
#define FP_SANITIZED 0
#endif

int main(void) {
  static const gsp_algorithm sssp[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING,
                                       GSP_ALGO_AUTO};
  static const gsp_algorithm apsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON,
                                       GSP_ALGO_AUTO};
  static const gsp_algorithm sssp_neg[] = {GSP_SSSP_BELLMAN_FORD, GSP_ALGO_AUTO};
  static const gsp_algorithm apsp_neg[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_JOHNSON, GSP_ALGO_AUTO};
  static const int32_t sssp_sizes[] = {100, 1000, 8192};
  /* n^3 dense engines: sizes that finish in seconds on two cores (and in a
   * sanitizer's Debug build); the GPU test goes to 8192 */
  static const int32_t apsp_sizes[] = {100, 500, 1000};
  static const int32_t apsp_sizes_sanitized[] = {100, 300};
  const fp_plan plan = {.backend = GSP_BACKEND_CPU,
                        .sssp = sssp,
                        .num_sssp = 4,
                        .apsp = apsp,
                        .num_apsp = 5,
                        .sssp_negative = sssp_neg,
                        .num_sssp_negative = 2,
                        .apsp_negative = apsp_neg,
                        .num_apsp_negative = 4,
                        .sssp_sizes = sssp_sizes,
                        .num_sssp_sizes = 3,
                        .apsp_sizes = FP_SANITIZED ? apsp_sizes_sanitized : apsp_sizes,
                        .num_apsp_sizes = FP_SANITIZED ? 2 : 3,
                        .apsp_full_check = 500,
                        .seeds = 3};
  return fp_run(&plan, "test_float_paths");
}
