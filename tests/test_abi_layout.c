/* The C side of the binding ABI check (issue 7).
 *
 * Prints, one per line, the size and field offsets of every struct that a
 * language binding mirrors and the value of every constant the bindings
 * declare:
 *
 *   size gsp_options 88
 *   offset gsp_options.backend 4
 *   const GSP_ERR_NO_PATH 6
 *
 * Each binding prints the same lines from its own declarations (Rust, Go,
 * Python, Fortran: see bindings/<language>/), and scripts/check_bindings.sh
 * diffs the two, so a header change that breaks a binding fails CI. The
 * status constants come from GSP_STATUS_LIST: a new entry there fails every
 * binding that lacks it. The algorithms come from GSP_ALGORITHM_LIST as
 * "algorithm GSP_SSSP_DIJKSTRA 1" lines: a binding reads the algorithms of
 * the library it loads (gsp_algorithms.h) and may name fewer, so the check
 * asks only that every algorithm line it prints is one of these.
 * As a plain CTest test it also checks that gsp_options_init() sets the
 * size. */
#include <gsp/gsp.h>
#include <stddef.h>
#include <stdio.h>

#define SIZE(T) printf("size %s %lu\n", #T, (unsigned long)sizeof(T))
#define OFF(T, f) printf("offset %s.%s %lu\n", #T, #f, (unsigned long)offsetof(T, f))
#define CONST(c) printf("const %s %lld\n", #c, (long long)(c))
#define STATUS_(name, value, text) CONST(name);
#define ALGORITHM_(name, value, cli_name, summary) printf("algorithm %s %d\n", #name, value);

int main(void) {
  SIZE(gsp_options);
  OFF(gsp_options, size);
  OFF(gsp_options, backend);
  OFF(gsp_options, algorithm);
  OFF(gsp_options, device);
  OFF(gsp_options, flags);
  OFF(gsp_options, delta);
  OFF(gsp_options, num_threads);
  OFF(gsp_options, device_memory_limit);
  OFF(gsp_options, cuda_stream);
  OFF(gsp_options, progress);
  OFF(gsp_options, progress_user);
  OFF(gsp_options, limit);
  OFF(gsp_options, num_devices);
  OFF(gsp_options, index);

  SIZE(gsp_run_info);
  OFF(gsp_run_info, size);
  OFF(gsp_run_info, backend);
  OFF(gsp_run_info, algorithm);
  OFF(gsp_run_info, weight_type);
  OFF(gsp_run_info, num_vertices);
  OFF(gsp_run_info, num_sources);
  OFF(gsp_run_info, device);
  OFF(gsp_run_info, device_name);
  OFF(gsp_run_info, seconds);
  OFF(gsp_run_info, upload_seconds);
  OFF(gsp_run_info, iterations);
  OFF(gsp_run_info, relaxations);
  OFF(gsp_run_info, has_paths);
  OFF(gsp_run_info, setup_seconds);
  OFF(gsp_run_info, compute_seconds);
  OFF(gsp_run_info, copy_seconds);
  OFF(gsp_run_info, paths_seconds);
  OFF(gsp_run_info, num_devices);

  CONST(GSP_VERSION_MAJOR);
  CONST(GSP_VERSION_MINOR);
  CONST(GSP_VERSION_PATCH);
  GSP_STATUS_LIST(STATUS_)
  CONST(GSP_F32);
  CONST(GSP_I32);
  CONST(GSP_F64);
  CONST(GSP_I32_INF);
  CONST(GSP_GRAPH_UNDIRECTED);
  CONST(GSP_FORMAT_AUTO);
  CONST(GSP_FORMAT_DIMACS);
  CONST(GSP_FORMAT_MATRIX_MARKET);
  CONST(GSP_FORMAT_EDGE_LIST);
  CONST(GSP_BACKEND_AUTO);
  CONST(GSP_BACKEND_CPU);
  CONST(GSP_BACKEND_CUDA);
  CONST(GSP_KIND_UNKNOWN);
  CONST(GSP_KIND_AUTO);
  CONST(GSP_KIND_SSSP);
  CONST(GSP_KIND_APSP);
  CONST(GSP_KIND_INDEX);
  CONST(GSP_NO_PATHS);
  CONST(GSP_ROWS_ANY_ORDER);
  GSP_ALGORITHM_LIST(ALGORITHM_)

  gsp_options o;
  gsp_options_init(&o);
  if (o.size != sizeof o) {
    fprintf(stderr, "gsp_options_init set size %u, sizeof is %lu\n", o.size, (unsigned long)sizeof o);
    return 1;
  }
  if (gsp_version() != GSP_VERSION) {
    fprintf(stderr, "gsp_version() %u != GSP_VERSION %u\n", gsp_version(), (unsigned)GSP_VERSION);
    return 1;
  }
  return 0;
}
