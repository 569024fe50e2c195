/* Strong-scaling driver for the distributed Floyd-Warshall:
 *   mpirun -np P gsp_mpi_bench N [i32|f32] [threads per rank] [reps] [gather|single]
 * Rank 0 builds a random graph (8 arcs per vertex, weights 1..1000, seeded),
 * every rank runs gsp_apsp_run_mpi_blocks (the engine, no gather) `reps`
 * times; the best wall time (slowest rank) is printed. "gather" also times
 * gsp_apsp_run_mpi (engine + gather to rank 0); "single" does too, and
 * rank 0 times the single-process gsp_apsp_run (Floyd-Warshall) on the same
 * graph, on one GPU (options.num_devices = 1: "single_process_fw_s") and,
 * when the node has several, on all of them (num_devices = 0, AUTO, which
 * spreads a large FW over every device: "single_process_all_gpus_s", with
 * the count used). With GSP_MPI_TRACE=1 every call prints each rank's stages (graph
 * broadcast, set-up, k-steps, delivery, predecessor check, gather) and the
 * call's time as a multiple of its k-steps (doc/mpi.md).
 * GSP_MPI_BENCH_BACKEND=cuda (or auto) runs every rank's blocks, and the
 * single-process run, on CUDA devices (default: cpu); GSP_MPI_BENCH_NO_PATHS=1
 * runs them without paths (default: with). Before rank 0 builds the graph,
 * GSP_MPI_BENCH_PREPARE says what the ranks do for a quick first call
 * (doc/mpi.md): "overlap" (the default) calls gsp_mpi_prepare(wait = 0),
 * "wait" gsp_mpi_prepare(wait = 1), "start" gsp_device_start() for the
 * device of the rank on the node, "none" nothing; the time that call took
 * is printed ("prepare_s"), and the first call's time beside the best
 * ("first_s"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp/gsp_mpi.h"

static uint64_t next(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static gsp_graph* make_graph(int32_t n, gsp_dtype dt) {
  const int64_t m = (int64_t)n * 8;
  int32_t* src = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* dst = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* wi = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  float* wf = (float*)malloc((size_t)m * sizeof(float));
  uint64_t s = 42;
  gsp_graph* g = NULL;
  int64_t k;
  for (k = 0; k < m; k++) {
    src[k] = (int32_t)(k / 8);
    dst[k] = (int32_t)(next(&s) % (uint64_t)n);
    wi[k] = 1 + (int32_t)(next(&s) % 1000);
    wf[k] = (float)wi[k];
  }
  if (gsp_graph_create(&g, n, m, src, dst, dt == GSP_I32 ? (const void*)wi : (const void*)wf, dt, 0) != GSP_OK) {
    fprintf(stderr, "graph: %s\n", gsp_last_error());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  free(src);
  free(dst);
  free(wi);
  free(wf);
  return g;
}

static double slowest(double t) {
  double all = 0;
  MPI_Allreduce(&t, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char** argv) {
  int provided = 0, rank = 0, size = 1, r, reps;
  int32_t n;
  gsp_dtype dt;
  gsp_options o;
  gsp_graph* g = NULL;
  double best = 1e300, best_gather = 1e300, best_single = 1e300, best_single_all = 1e300, first = -1;
  int single_all_devices = 0;
  const char* extra;
  gsp_mpi_layout L;
  char device[128] = "";
  const char* prepare = "overlap";
  double prepare_s = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: %s N [i32|f32] [threads] [reps] [gather|single]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  n = (int32_t)atoi(argv[1]);
  dt = argc > 2 && strcmp(argv[2], "f32") == 0 ? GSP_F32 : GSP_I32;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  if (getenv("GSP_MPI_BENCH_BACKEND") != NULL) {
    const char* b = getenv("GSP_MPI_BENCH_BACKEND");
    o.backend = strcmp(b, "cuda") == 0 ? GSP_BACKEND_CUDA : strcmp(b, "auto") == 0 ? GSP_BACKEND_AUTO : GSP_BACKEND_CPU;
  }
  o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  if (getenv("GSP_MPI_BENCH_NO_PATHS") != NULL && strcmp(getenv("GSP_MPI_BENCH_NO_PATHS"), "1") == 0)
    o.flags |= GSP_NO_PATHS;
  o.num_threads = argc > 3 ? atoi(argv[3]) : 0;
  reps = argc > 4 ? atoi(argv[4]) : 1;
  extra = argc > 5 ? argv[5] : "";
  if (getenv("GSP_MPI_BENCH_PREPARE") != NULL) prepare = getenv("GSP_MPI_BENCH_PREPARE");
  prepare_s = MPI_Wtime();
  if (strcmp(prepare, "start") == 0 && o.backend != GSP_BACKEND_CPU) {
    /* the engine runs a rank on device (rank on the node) mod devices */
    MPI_Comm node;
    int node_rank = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_free(&node);
    gsp_device_start(node_rank);
  } else if (strcmp(prepare, "overlap") == 0 || strcmp(prepare, "wait") == 0) {
    if (gsp_mpi_prepare(MPI_COMM_WORLD, &o, strcmp(prepare, "wait") == 0) != GSP_OK && rank == 0)
      fprintf(stderr, "gsp_mpi_prepare: %s\n", gsp_last_error());
  }
  prepare_s = slowest(MPI_Wtime() - prepare_s);
  if (rank == 0) g = make_graph(n, dt);
  memset(&L, 0, sizeof L);
  for (r = 0; r < reps; r++) {
    gsp_mpi_blocks* b = NULL;
    double t;
    gsp_status s;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, g, &o, &b);
    t = slowest(MPI_Wtime() - t);
    if (s != GSP_OK) {
      if (rank == 0) fprintf(stderr, "gsp_apsp_run_mpi_blocks: %s\n", gsp_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (t < best) best = t;
    if (r == 0) first = t;
    L.size = sizeof L;
    gsp_mpi_blocks_layout(b, &L);
    {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      gsp_mpi_blocks_info(b, &info);
      memcpy(device, info.device_name, sizeof device);
    }
    gsp_mpi_blocks_destroy(b);
  }
  if (strcmp(extra, "gather") == 0 || strcmp(extra, "single") == 0) {
    for (r = 0; r < reps; r++) {
      gsp_paths* p = NULL;
      double t;
      MPI_Barrier(MPI_COMM_WORLD);
      t = MPI_Wtime();
      if (gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, rank == 0 ? &p : NULL) != GSP_OK) MPI_Abort(MPI_COMM_WORLD, 1);
      t = slowest(MPI_Wtime() - t);
      if (t < best_gather) best_gather = t;
      gsp_paths_destroy(p);
    }
  }
  if (strcmp(extra, "single") == 0 && rank == 0) {
    int all;
    for (all = 0; all < 2; all++) {
      gsp_options so = o;
      if (o.backend == GSP_BACKEND_CPU) {
        if (all) break;
      } else {
        if (all && gsp_device_count() < 2) break;
        so.num_devices = all ? 0 : 1;
      }
      for (r = 0; r < reps; r++) {
        gsp_paths* p = NULL;
        gsp_run_info info;
        double t = MPI_Wtime();
        if (gsp_apsp_run(g, NULL, 0, &so, &p) != GSP_OK) {
          fprintf(stderr, "gsp_apsp_run: %s\n", gsp_last_error());
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
        t = MPI_Wtime() - t;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        gsp_paths_info(p, &info);
        if (all) {
          if (t < best_single_all) best_single_all = t;
          single_all_devices = info.num_devices;
        } else if (t < best_single) {
          best_single = t;
        }
        gsp_paths_destroy(p);
      }
    }
  }
  if (rank == 0) {
    printf("n=%d %s %s p=%d grid=%dx%d block=%d engine_s=%.3f", n, dt == GSP_I32 ? "i32" : "f32",
           (o.flags & GSP_NO_PATHS) ? "no-paths" : "paths", size, L.grid_rows, L.grid_cols, L.block_size, best);
    printf(" first_s=%.3f prepare=%s prepare_s=%.3f", first, prepare, prepare_s);
    if (best_gather < 1e300) printf(" with_gather_s=%.3f", best_gather);
    if (best_single < 1e300) printf(" single_process_fw_s=%.3f", best_single);
    if (best_single_all < 1e300)
      printf(" single_process_all_gpus_s=%.3f (%d devices)", best_single_all, single_all_devices);
    printf(" [%s]\n", device);
  }
  gsp_graph_destroy(g);
  MPI_Finalize();
  return 0;
}
