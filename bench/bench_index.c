/* Road indexes (gsp_index.h) beside the engines without one (issue 34), on
 * the DIMACS New York road graph (from $GSP_DATA_DIR; skipped visibly when
 * absent), a generated 256 x 256 grid (no hierarchy of fast roads: the
 * index's harder case) and a generated road-like 1024 x 1024 graph
 * (gsp_gen_road: arterials every 8th row and column, highways every 64th,
 * the hierarchy that real road networks have). Per graph: the build (all
 * cores), then each query as a user calls it, with the index (AUTO with options.index) and
 * without (AUTO), and with the index on the backend AUTO did not take
 * (rows: the CPU, tables: CUDA, where there is a device; the device is
 * started first, as a user who means to use it does): one source to all
 * vertices with paths (gsp_sssp_run), a
 * 1000 x 1000 table of distances, the same table with paths, a
 * 10,000 x 10,000 table of distances, point to point (1 x 1 tables: median
 * and worst of 200 pseudo-random pairs, each pair's time the median of 3
 * calls), and every source streamed (gsp_apsp_stream, distances;
 * GSP_BENCH_INDEX_ALL=0 skips it; without the index it is estimated from
 * 2,000 sources, and on graphs of more than 300,000 vertices from 10,000
 * with it). Medians of
 * GSP_BENCH_REPS runs (default 3) after one warm-up (one source to all: 51
 * after 20, time_sssp); GSP_BENCH_QUICK=1: one
 * run, a 128 x 128 grid, a 256 x 256 road-like graph and 2,000 x 2,000
 * instead of 10,000 x 10,000. Appends its table
 * to $GSP_BENCH_RESULTS (make bench: the fragment for bench/RESULTS.md) and
 * prints the same. */
#include "bench_common.h"
#include "gsp/gsp_device.h"
#include "gsp/gsp_index.h"
#include "gsp/gsp_table.h"
#include "gsp_generators.h"

typedef struct {
  char name[96];
  double with_ms, without_ms, other_ms;
  char note[120];
} row;

#define MAX_ROWS 32
static row g_rows[MAX_ROWS];
static int g_count = 0;

static row* add_row(const char* name) {
  static row spare; /* past MAX_ROWS: measured and shown, not tabled */
  row* r = g_count < MAX_ROWS ? &g_rows[g_count++] : &spare;
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  r->with_ms = r->without_ms = r->other_ms = -1;
  return r;
}

/* Timed runs a measurement: 3 (GSP_BENCH_REPS), 1 with GSP_BENCH_QUICK. */
static int reps_wanted(void) {
  if (bench_quick()) return 1;
  return getenv("GSP_BENCH_REPS") != NULL ? (bench_reps() > 16 ? 16 : bench_reps()) : 3;
}

/* One markdown row; "-" where a side was not measured. */
static void print_row(FILE* f, const row* r) {
  char without[32] = "-", ratio[32] = "-", other[32] = "-";
  if (r->without_ms > 0) snprintf(without, sizeof without, "%.4f", r->without_ms);
  if (r->other_ms > 0) snprintf(other, sizeof other, "%.4f", r->other_ms);
  if (r->with_ms > 0 && r->without_ms > 0) snprintf(ratio, sizeof ratio, "%.1fx", r->without_ms / r->with_ms);
  fprintf(f, "| %s | %.4f | %s | %s | %s | %s |\n", r->name, r->with_ms, other, without, ratio, r->note);
}

static void show(const row* r) {
  printf("  %s: %.4f ms with the index, %.4f ms on the other backend, %.4f ms without %s\n", r->name, r->with_ms,
         r->other_ms, r->without_ms, r->note);
}

static int32_t* pseudo_ids(int32_t n, int32_t k, uint64_t seed) {
  bench_rng rng = {seed};
  int32_t* ids = (int32_t*)malloc((size_t)k * sizeof(int32_t));
  int32_t i;
  for (i = 0; i < k; i++) ids[i] = bench_below(&rng, n);
  return ids;
}

/* Median ms of `reps` table runs (after one warm-up); -1 on failure. */
static double time_table(const gsp_graph* g, const int32_t* s, int32_t k, const int32_t* t, int32_t tn,
                         const gsp_options* o) {
  double v[16];
  int i, reps = reps_wanted();
  for (i = -1; i < reps; i++) {
    gsp_table* tab = NULL;
    const double t0 = bench_now();
    const gsp_status st = gsp_table_run(g, s, k, t, tn, o, &tab);
    const double ms = (bench_now() - t0) * 1e3;
    gsp_table_destroy(tab);
    if (st != GSP_OK) {
      printf("  table %d x %d: %s %s\n", k, tn, gsp_status_name(st), gsp_last_error());
      return -1;
    }
    if (i >= 0) v[i] = ms;
  }
  return bench_median(v, reps);
}

/* One source to all: the median of 51 calls, each from another source,
 * after 20 calls from others: the first calls after the device has idled
 * (through the index build) run at its lower clocks, and a user who queries
 * one row after another sees the later ones. *first gets the median of the
 * first 15 calls (NULL: not wanted). GSP_BENCH_QUICK: one call after one. */
#define SSSP_WARM 20
#define SSSP_REPS 51
static double time_sssp(const gsp_graph* g, const int32_t* ids, const gsp_options* o, double* first) {
  double v[SSSP_WARM + SSSP_REPS];
  const int warm = bench_quick() ? 1 : SSSP_WARM, reps = bench_quick() ? 1 : SSSP_REPS;
  int i;
  for (i = 0; i < warm + reps; i++) {
    gsp_paths* p = NULL;
    const double t0 = bench_now();
    const gsp_status st = gsp_sssp_run(g, ids[i], o, &p);
    v[i] = (bench_now() - t0) * 1e3;
    gsp_paths_destroy(p);
    if (st != GSP_OK) return -1;
  }
  if (first != NULL) {
    double head[15];
    const int k = warm < 15 ? warm : 15;
    memcpy(head, v, (size_t)k * sizeof(double));
    *first = bench_median(head, k);
  }
  return bench_median(v + warm, reps);
}

#if GSP_BENCH_HAS_CUDART
#include <cuda_runtime.h>

/* One source to all into device arrays (gsp_sssp_run_device; int32
 * graphs), timed as time_sssp; -1 without a device or on a failure. */
static double time_sssp_device(const gsp_graph* g, const int32_t* ids, const gsp_options* o) {
  double v[SSSP_WARM + SSSP_REPS];
  const int warm = bench_quick() ? 1 : SSSP_WARM, reps = bench_quick() ? 1 : SSSP_REPS;
  const size_t n = (size_t)gsp_graph_num_vertices(g);
  void* dist = NULL;
  void* pred = NULL;
  int i, ok = 1;
  if (!gsp_backend_available(GSP_BACKEND_CUDA) || cudaMalloc(&dist, n * 4 + 4) != cudaSuccess) return -1;
  if (cudaMalloc(&pred, n * 4 + 4) != cudaSuccess) ok = 0;
  for (i = 0; ok && i < warm + reps; i++) {
    const double t0 = bench_now();
    ok = gsp_sssp_run_device(g, ids[i], o, dist, (int32_t*)pred, NULL) == GSP_OK;
    v[i] = (bench_now() - t0) * 1e3;
  }
  if (!ok) printf("  one source to all into device arrays: %s\n", gsp_last_error());
  cudaFree(dist);
  cudaFree(pred);
  return ok ? bench_median(v + warm, reps) : -1;
}
#endif

/* Point to point: median and worst of `pairs` 1 x 1 tables. */
/* Point to point: `pairs` 1 x 1 tables, each pair's time the median of 3
 * calls (a pair's cost, not a stray interrupt's), after one warm-up call;
 * the median and the worst over the pairs. */
static void time_p2p(const gsp_graph* g, const int32_t* a, const int32_t* b, int pairs, const gsp_options* o,
                     double* median, double* worst) {
  double* v = (double*)malloc((size_t)pairs * sizeof(double));
  int i, k;
  gsp_table* warm = NULL;
  gsp_table_run(g, &a[0], 1, &b[0], 1, o, &warm);
  gsp_table_destroy(warm);
  *worst = 0;
  for (i = 0; i < pairs; i++) {
    double calls[3];
    for (k = 0; k < 3; k++) {
      gsp_table* t = NULL;
      const double t0 = bench_now();
      gsp_table_run(g, &a[i], 1, &b[i], 1, o, &t);
      calls[k] = (bench_now() - t0) * 1e3;
      gsp_table_destroy(t);
    }
    v[i] = bench_median(calls, 3);
    if (v[i] > *worst) *worst = v[i];
  }
  *median = bench_median(v, pairs);
  free(v);
}

static int count_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)first;
  (void)d;
  (void)p;
  *(int64_t*)user += rows;
  return 0;
}

/* Streams `k` sources (NULL: every vertex) without paths; ms, -1 on failure. */
static double time_stream(const gsp_graph* g, const int32_t* ids, int32_t k, const gsp_options* base) {
  gsp_options o = *base;
  int64_t rows = 0;
  double t0;
  gsp_status st;
  o.flags = GSP_NO_PATHS | GSP_ROWS_ANY_ORDER;
  t0 = bench_now();
  st = gsp_apsp_stream(g, ids, k, &o, count_rows, &rows);
  if (st != GSP_OK) {
    printf("  stream: %s %s\n", gsp_status_name(st), gsp_last_error());
    return -1;
  }
  return (bench_now() - t0) * 1e3;
}

static void bench_graph(const char* name, const gsp_graph* g) {
  const int32_t n = gsp_graph_num_vertices(g);
  gsp_options plain, indexed, rows_other, tables_other;
  gsp_index* ix = NULL;
  gsp_run_info info;
  int32_t nv = 0;
  int64_t arcs = 0, shortcuts = 0;
  int32_t* ids = pseudo_ids(n, 10000, 7);
  int32_t* ids2 = pseudo_ids(n, 10000, 11);
  double med, worst;
  const int32_t big = bench_quick() ? 2000 : 10000;
  row* r;
  char title[96];
  gsp_options_init(&plain);
  info.size = sizeof info;
  {
    const double t0 = bench_now();
    if (gsp_index_build(g, &plain, &ix, &info) != GSP_OK) {
      printf("%s: index build failed: %s\n", name, gsp_last_error());
      free(ids);
      free(ids2);
      return;
    }
    snprintf(title, sizeof title, "%s: index build", name);
    r = add_row(title);
    r->with_ms = (bench_now() - t0) * 1e3;
    gsp_index_size(ix, &nv, &arcs, &shortcuts);
    snprintf(r->note, sizeof r->note, "%lld arcs of which %lld shortcuts (the graph: %lld arcs)", (long long)arcs,
             (long long)shortcuts, (long long)gsp_graph_num_edges(g));
    printf("%s: %.3f s, %s\n", title, r->with_ms / 1e3, r->note);
  }
  indexed = plain;
  indexed.index = ix;
  rows_other = indexed;
  rows_other.backend = GSP_BACKEND_CPU;
  tables_other = indexed;
  tables_other.backend = gsp_backend_available(GSP_BACKEND_CUDA) ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;

  snprintf(title, sizeof title, "%s: one source to all, paths", name);
  r = add_row(title);
  double first = -1;
  r->with_ms = time_sssp(g, ids, &indexed, &first);
  r->other_ms = time_sssp(g, ids, &rows_other, NULL);
  r->without_ms = time_sssp(g, ids, &plain, NULL);
  snprintf(r->note, sizeof r->note, "median of %d calls after %d; the first %d with the index: %.4f ms",
           bench_quick() ? 1 : SSSP_REPS, bench_quick() ? 1 : SSSP_WARM, bench_quick() ? 1 : 15, first);

  show(r);
#if GSP_BENCH_HAS_CUDART
  if (gsp_backend_available(GSP_BACKEND_CUDA) && gsp_graph_weight_type(g) == GSP_I32) {
    /* The same rows into the caller's device memory: no copy to the host. */
    snprintf(title, sizeof title, "%s: one source to all into device arrays, paths", name);
    r = add_row(title);
    r->with_ms = time_sssp_device(g, ids, &indexed);
    r->without_ms = time_sssp_device(g, ids, &plain);
    snprintf(r->note, sizeof r->note, "gsp_sssp_run_device, median of %d calls after %d", bench_quick() ? 1 : SSSP_REPS,
             bench_quick() ? 1 : SSSP_WARM);
    show(r);
  }
#endif
  indexed.flags = plain.flags = tables_other.flags = GSP_NO_PATHS;
  snprintf(title, sizeof title, "%s: 1000 x 1000 table", name);
  r = add_row(title);
  r->with_ms = time_table(g, ids, 1000, ids2, 1000, &indexed);
  r->other_ms = time_table(g, ids, 1000, ids2, 1000, &tables_other);
  r->without_ms = time_table(g, ids, 1000, ids2, 1000, &plain);

  show(r);
  snprintf(title, sizeof title, "%s: %d x %d table", name, big, big);
  r = add_row(title);
  r->with_ms = time_table(g, ids, big, ids2, big, &indexed);
  r->other_ms = time_table(g, ids, big, ids2, big, &tables_other);
  r->without_ms = time_table(g, ids, big, ids2, big, &plain);

  show(r);
  snprintf(title, sizeof title, "%s: point to point (median / worst of 200)", name);
  r = add_row(title);
  time_p2p(g, ids, ids2, 200, &indexed, &med, &worst);
  r->with_ms = med;
  snprintf(r->note, sizeof r->note, "worst %.4f ms with the index", worst);
  time_p2p(g, ids, ids2, 200, &plain, &med, &worst);
  r->without_ms = med;
  snprintf(r->note + strlen(r->note), sizeof r->note - strlen(r->note), ", %.3f ms without", worst);

  show(r);
  indexed.flags = plain.flags = tables_other.flags = 0;
  snprintf(title, sizeof title, "%s: 1000 x 1000 table, paths", name);
  r = add_row(title);
  r->with_ms = time_table(g, ids, 1000, ids2, 1000, &indexed);
  r->other_ms = time_table(g, ids, 1000, ids2, 1000, &tables_other);
  r->without_ms = time_table(g, ids, 1000, ids2, 1000, &plain);

  show(r);
  if (getenv("GSP_BENCH_INDEX_ALL") == NULL || atoi(getenv("GSP_BENCH_INDEX_ALL")) != 0) {
    snprintf(title, sizeof title, "%s: every source streamed, distances", name);
    r = add_row(title);
    /* Past 300,000 vertices every row would be terabytes: 10,000 sources
     * with the index, scaled as the others are. */
    const int all = n <= 300000;
    r->with_ms = all ? time_stream(g, NULL, 0, &indexed) : time_stream(g, ids, 10000, &indexed);
    if (!all && r->with_ms > 0) r->with_ms *= (double)n / 10000.0;
    r->other_ms = time_stream(g, ids, 2000, &rows_other);
    if (r->other_ms > 0) r->other_ms *= (double)n / 2000.0;
    r->without_ms = time_stream(g, ids, 2000, &plain);
    if (r->without_ms > 0) r->without_ms *= (double)n / 2000.0;
    snprintf(r->note, sizeof r->note, "%sthe other backend and without: 2,000 sources, scaled to %d",
             all ? "" : "the index: 10,000 sources, ", n);
    show(r);
  }
  gsp_index_destroy(ix);
  free(ids);
  free(ids2);
}

int main(void) {
  char date[40], cpu[128];
  const char* rpath;
  gsp_graph* ny = bench_load_ny();
  gsp_graph* grid = NULL;
  gsp_graph* road = NULL;
  int i;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (gsp_backend_available(GSP_BACKEND_CUDA)) gsp_device_start(0);
  if (ny != NULL) bench_graph("NY", ny);
  const int32_t side = bench_quick() ? 128 : 256;
  char grid_name[40];
  snprintf(grid_name, sizeof grid_name, "grid %d x %d", side, side);
  if (gsp_gen_grid(&grid, side, side, 3, GSP_I32, 100) == GSP_OK) bench_graph(grid_name, grid);
  gsp_graph_destroy(grid);
  const int32_t road_side = bench_quick() ? 256 : 1024;
  char road_name[40];
  snprintf(road_name, sizeof road_name, "road-like %d x %d", road_side, road_side);
  if (gsp_gen_road(&road, road_side, road_side, 3, GSP_I32, 100) == GSP_OK) {
    bench_graph(road_name, road);
  } else {
    printf("%s: not generated: %s\n", road_name, gsp_gen_error());
  }
  gsp_graph_destroy(ny);
  gsp_graph_destroy(road);
  bench_cpu_name(cpu, sizeof cpu);
  printf(
      "\n| query | with the index ms | the index, other backend ms | without ms | ratio | note |\n"
      "|---|---|---|---|---|---|\n");
  for (i = 0; i < g_count; i++) {
    const row* r = &g_rows[i];
    print_row(stdout, r);
  }
  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    if (f != NULL) {
      bench_today(date, sizeof date);
      fprintf(f, "\n## Road index against no index (bench_index): %s, %s\n\n", cpu, date);
      fprintf(f,
              "A user's call, medians of %d runs after a warm-up (one source to all: of 51 calls after 20, "
              "each from another source), the device started first; with the index "
              "and without: AUTO (the GPU where there is one); the other backend: the index's rows (one to all, "
              "streamed) on the CPU, its tables on CUDA. Pseudo-random sources and targets (fixed seeds).\n\n",
              reps_wanted());
      fprintf(f,
              "| query | with the index ms | the index, other backend ms | without ms | speed-up | note |\n"
              "|---|---|---|---|---|---|\n");
      for (i = 0; i < g_count; i++) {
        const row* r = &g_rows[i];
        print_row(f, r);
      }
      fclose(f);
    }
  }
  return 0;
}
