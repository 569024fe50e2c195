/* The fixed cost of a call: what a user pays per call when the work itself
 * is small (a tiny graph, a point-to-point query on a road index), where
 * option checks, environment reads, system calls and result objects are
 * most of the call. Each row is the median over 5 rounds of the mean time
 * of N back-to-back calls, in microseconds, on one thread:
 *   gsp_graph_create   a k x k grid's arcs (4-neighbour, weights 1..9, made
 *                      beforehand), then gsp_graph_destroy
 *   gsp_sssp_run       source 0, paths on and off, CPU and AUTO, result destroyed
 *   gsp_table_run_into 1 x 1, corner to corner, CPU, and on a road index
 * and, with the NY graph ($GSP_DATA_DIR/USA-road-d.NY.gr.gz), a stream of
 * 20,000 random point-to-point queries on its road index, each pair asked
 * once (cold caches, as a routing service sees them): mean, median and the
 * 99th percentile. GSP_BENCH_QUICK=1: fewer calls. */
#include "bench_common.h"
#include "gsp/gsp_index.h"
#include "gsp/gsp_table.h"

enum { kRounds = 5 };

/* A k x k grid's arcs, both ways between neighbours, weights 1..9. */
typedef struct {
  int32_t n;
  int64_t m;
  int32_t *src, *dst, *w;
} grid_arcs;

static int grid_arcs_make(grid_arcs* a, int32_t k) {
  const int64_t cap = (int64_t)k * k * 4;
  int32_t r, c;
  a->n = k * k;
  a->m = 0;
  a->src = (int32_t*)malloc((size_t)cap * sizeof(int32_t));
  a->dst = (int32_t*)malloc((size_t)cap * sizeof(int32_t));
  a->w = (int32_t*)malloc((size_t)cap * sizeof(int32_t));
  if (a->src == NULL || a->dst == NULL || a->w == NULL) return 0;
  for (r = 0; r < k; r++)
    for (c = 0; c < k; c++) {
      const int32_t v = r * k + c;
      const int32_t heads[2] = {c + 1 < k ? v + 1 : -1, r + 1 < k ? v + k : -1};
      int j;
      for (j = 0; j < 2; j++) {
        if (heads[j] < 0) continue;
        a->src[a->m] = v, a->dst[a->m] = heads[j], a->w[a->m] = 1 + (v * (7 - 4 * j)) % 9, a->m++;
        a->src[a->m] = heads[j], a->dst[a->m] = v, a->w[a->m] = 1 + (v * (5 + 6 * j)) % 9, a->m++;
      }
    }
  return 1;
}

static void grid_arcs_free(grid_arcs* a) {
  free(a->src);
  free(a->dst);
  free(a->w);
}

typedef struct {
  char what[64];
  int32_t n;
  double us; /* median of the rounds' means */
  double lo, hi;
  gsp_status status;
} orow;

static orow rows[32];
static int nrows;

enum { kCreate, kSssp, kTable };

/* Times `calls` calls of one kind on the k x k grid, kRounds rounds after
 * one warm-up round; kCreate times gsp_graph_create (and destroy) of its
 * arcs, made beforehand. */
static void time_calls(const char* what, int kind, int32_t k, const gsp_options* o, int calls) {
  orow* r = &rows[nrows++];
  double means[kRounds];
  grid_arcs a;
  gsp_graph* g = NULL;
  int32_t s = 0, t, dist;
  int round, i;
  memset(r, 0, sizeof *r);
  snprintf(r->what, sizeof r->what, "%s", what);
  r->n = k * k;
  if (grid_arcs_make(&a, k)) g = bench_graph_from_arcs(a.n, a.m, a.src, a.dst, a.w, GSP_I32);
  if (g == NULL) {
    r->status = GSP_ERR_OUT_OF_MEMORY;
    grid_arcs_free(&a);
    return;
  }
  t = k * k - 1;
  for (round = -1; round < kRounds; round++) {
    const double t0 = bench_now();
    for (i = 0; i < calls && r->status == GSP_OK; i++) {
      if (kind == kCreate) {
        gsp_graph* h = NULL;
        r->status = gsp_graph_create(&h, a.n, a.m, a.src, a.dst, a.w, GSP_I32, 0);
        gsp_graph_destroy(h);
      } else if (kind == kSssp) {
        gsp_paths* p = NULL;
        r->status = gsp_sssp_run(g, s, o, &p);
        gsp_paths_destroy(p);
      } else {
        r->status = gsp_table_run_into(g, &s, 1, &t, 1, o, &dist, NULL);
      }
    }
    if (round >= 0) means[round] = (bench_now() - t0) / calls * 1e6;
  }
  r->us = bench_median(means, kRounds);
  r->lo = r->hi = means[0];
  for (round = 1; round < kRounds; round++) {
    if (means[round] < r->lo) r->lo = means[round];
    if (means[round] > r->hi) r->hi = means[round];
  }
  if (r->status != GSP_OK) fprintf(stderr, "%s: %s %s\n", what, gsp_status_name(r->status), gsp_last_error());
  printf("%-48s n=%6d %9.3f us per call (rounds %.3f-%.3f)\n", r->what, r->n, r->us, r->lo, r->hi);
  fflush(stdout);
  gsp_graph_destroy(g);
  grid_arcs_free(&a);
}

/* Road index on a grid: the index's point to point (the index is built on
 * a graph of the same arcs as time_calls' own, which it accepts). */
static void time_indexed_p2p(int32_t k, int calls) {
  grid_arcs a;
  gsp_graph* g = NULL;
  gsp_index* ix = NULL;
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  if (grid_arcs_make(&a, k)) g = bench_graph_from_arcs(a.n, a.m, a.src, a.dst, a.w, GSP_I32);
  grid_arcs_free(&a);
  if (g == NULL || gsp_index_build(g, &o, &ix, NULL) != GSP_OK) {
    fprintf(stderr, "grid index: %s\n", gsp_last_error());
    gsp_graph_destroy(g);
    return;
  }
  gsp_graph_destroy(g);
  o.index = ix;
  o.flags = GSP_NO_PATHS;
  time_calls("gsp_table_run_into 1 x 1, road index (CPU)", kTable, k, &o, calls);
  gsp_index_destroy(ix);
}

static double ny_stream[3] = {NAN, NAN, NAN}; /* mean, median, p99, ms */
static int ny_pairs;

static void time_ny_stream(int pairs) {
  gsp_graph* g = bench_load_ny();
  gsp_index* ix = NULL;
  gsp_options o;
  bench_rng rng = {20261204u};
  double* v;
  int32_t n, dist;
  int i;
  if (g == NULL) {
    printf("NY graph not found (GSP_DATA_DIR): the stream row is left out\n");
    return;
  }
  gsp_options_init(&o);
  if (gsp_index_build(g, &o, &ix, NULL) != GSP_OK) {
    fprintf(stderr, "NY index: %s\n", gsp_last_error());
    gsp_graph_destroy(g);
    return;
  }
  o.index = ix;
  o.flags = GSP_NO_PATHS;
  n = gsp_graph_num_vertices(g);
  v = (double*)malloc((size_t)pairs * sizeof(double));
  if (v != NULL) {
    double total = 0;
    for (i = 0; i < pairs; i++) {
      const int32_t s = bench_below(&rng, n), t = bench_below(&rng, n);
      const double t0 = bench_now();
      gsp_table_run_into(g, &s, 1, &t, 1, &o, &dist, NULL);
      v[i] = (bench_now() - t0) * 1e3;
      total += v[i];
    }
    ny_stream[0] = total / pairs;
    qsort(v, (size_t)pairs, sizeof(double), bench_cmp_double);
    ny_stream[1] = v[pairs / 2];
    ny_stream[2] = v[(int)((double)pairs * 0.99)];
    ny_pairs = pairs;
    printf("NY road index, %d random pairs each once: mean %.4f ms, median %.4f, p99 %.4f\n", pairs, ny_stream[0],
           ny_stream[1], ny_stream[2]);
    free(v);
  }
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
}

int main(void) {
  const int quick = bench_quick();
  const int many = quick ? 2000 : 50000, some = quick ? 500 : 10000;
  gsp_options cpu, cpu_np, autox;
  char date[40], cpuname[128];
  const char* rpath;
  int i;
  gsp_options_init(&cpu);
  cpu.backend = GSP_BACKEND_CPU;
  cpu_np = cpu;
  cpu_np.flags = GSP_NO_PATHS;
  gsp_options_init(&autox);

  time_calls("gsp_graph_create", kCreate, 4, NULL, many);
  time_calls("gsp_graph_create", kCreate, 20, NULL, some);
  time_calls("gsp_sssp_run (CPU, paths)", kSssp, 4, &cpu, many);
  time_calls("gsp_sssp_run (CPU, no paths)", kSssp, 4, &cpu_np, many);
  time_calls("gsp_sssp_run (AUTO, paths)", kSssp, 4, &autox, many);
  time_calls("gsp_sssp_run (CPU, paths)", kSssp, 20, &cpu, some);
  time_calls("gsp_sssp_run (AUTO, paths)", kSssp, 20, &autox, some);
  time_calls("gsp_table_run_into 1 x 1 (CPU)", kTable, 4, &cpu_np, many);
  time_calls("gsp_table_run_into 1 x 1 (CPU)", kTable, 20, &cpu_np, some);
  time_indexed_p2p(20, some);
  time_ny_stream(quick ? 2000 : 20000);

  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    if (f != NULL) {
      bench_today(date, sizeof date);
      bench_cpu_name(cpuname, sizeof cpuname);
      fprintf(f, "\n## The fixed cost of a call (bench_call_overhead), %s\n\n", date);
      fprintf(f,
              "Host: %s. One thread calling; each row the median over %d rounds of the mean of N back-to-back "
              "calls (after a warm-up round), the rounds' range beside it. Graphs: k x k grids, arcs both ways "
              "between neighbours, weights 1..9, int32; source 0, target the far corner; results destroyed "
              "inside the timing.\n\n",
              cpuname, kRounds);
      fprintf(f, "| call | n | us per call | rounds |\n| --- | ---: | ---: | --- |\n");
      for (i = 0; i < nrows; i++) {
        if (rows[i].status != GSP_OK) {
          fprintf(f, "| %s | %d | %s | |\n", rows[i].what, rows[i].n, gsp_status_name(rows[i].status));
        } else {
          fprintf(f, "| %s | %d | %.3f | %.3f-%.3f |\n", rows[i].what, rows[i].n, rows[i].us, rows[i].lo, rows[i].hi);
        }
      }
      if (ny_pairs > 0) {
        fprintf(f,
                "\nNY road graph, its road index (built with defaults), %d random point-to-point queries "
                "(gsp_table_run_into, 1 x 1, distances), each pair asked once: mean %.4f ms, median %.4f ms, "
                "99th percentile %.4f ms.\n",
                ny_pairs, ny_stream[0], ny_stream[1], ny_stream[2]);
      } else {
        fprintf(f, "\nNY road graph not found (GSP_DATA_DIR): no stream of point-to-point queries.\n");
      }
      fclose(f);
    }
  }
  return 0;
}
