/* Negative arcs: Johnson on the CPU and on CUDA, and AUTO, timed as a user
 * calls them (gsp_apsp_run with paths, every row in host memory; a table
 * of distances), with the run info's stages (set-up: Bellman-Ford's
 * potentials and, on CUDA, the reduced graph; compute; copy).
 *
 * Graphs with negative arcs but no negative cycle: the NY road graph
 * ($GSP_DATA_DIR; skipped visibly when absent) and Graph65536 (random,
 * out-degree 6), each weight w(u, v) replaced by w + h(u) - h(v) with
 * random potentials h in [0, 2 max w): every cycle keeps its positive sum,
 * shortest paths stay the same, and about a third of the arcs turn
 * negative. K = 64 and 1024 sources spread over the vertex ids; the table
 * is 1000 x 1000. Argument: a graph name filter. */
#include "bench_common.h"

/* The graph's arcs with weights shifted by random potentials. */
static gsp_graph* with_potentials(const gsp_graph* g) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  int64_t* off = (int64_t*)malloc((size_t)(n + 1) * sizeof(int64_t));
  int32_t* tg = (int32_t*)malloc((size_t)(m > 0 ? m : 1) * sizeof(int32_t));
  int32_t* w = (int32_t*)malloc((size_t)(m > 0 ? m : 1) * sizeof(int32_t));
  int32_t* h = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t u, maxw = 1;
  int64_t e;
  uint64_t x = 0x4A4F484E534F4Eull;
  gsp_graph* out = NULL;
  if (!off || !tg || !w || !h || gsp_graph_csr(g, off, tg, w) != GSP_OK) {
    fprintf(stderr, "bench_johnson: could not read the graph (int32 weights expected)\n");
    exit(2);
  }
  for (e = 0; e < m; e++)
    if (w[e] > maxw) maxw = w[e];
  for (u = 0; u < n; u++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    h[u] = (int32_t)((x >> 33) % (uint64_t)(2 * maxw));
  }
  for (u = 0; u < n; u++) {
    for (e = off[u]; e < off[u + 1]; e++) w[e] += h[u] - h[tg[e]];
  }
  if (gsp_graph_create_csr(&out, n, off, tg, w, GSP_I32, 0) != GSP_OK) {
    fprintf(stderr, "bench_johnson: %s\n", gsp_last_error());
    exit(2);
  }
  free(off);
  free(tg);
  free(w);
  free(h);
  return out;
}

typedef struct {
  char what[48];
  gsp_backend backend;
  gsp_algorithm asked;
  double seconds;
  gsp_run_info info;
  gsp_status status;
} row;

/* The best of two calls (after one warm-up) of K rows with paths, or of a
 * k x k table of distances when table is set. */
static void time_run(const gsp_graph* g, const int32_t* src, int32_t k, int table, row* r) {
  gsp_options o;
  int i;
  void* cells = table ? malloc((size_t)k * (size_t)k * 4) : NULL;
  gsp_options_init(&o);
  o.backend = r->backend;
  o.algorithm = r->asked;
  r->seconds = 1e30;
  for (i = 0; i < 3; i++) {
    gsp_paths* p = NULL;
    gsp_run_info info;
    const double t0 = bench_now();
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    r->status = table ? gsp_table_run_into(g, src, k, src, k, &o, cells, &info) : gsp_apsp_run(g, src, k, &o, &p);
    if (r->status == GSP_OK && !table) gsp_paths_info(p, &info);
    if (r->status == GSP_OK && i > 0 && bench_now() - t0 < r->seconds) {
      r->seconds = bench_now() - t0;
      r->info = info;
    }
    gsp_paths_destroy(p);
    if (r->status != GSP_OK) {
      printf("  %s on %s: %s: %s\n", r->what, gsp_backend_name(r->backend), gsp_status_name(r->status),
             gsp_last_error());
      break;
    }
  }
  free(cells);
}

static void run_graph(gsp_graph* base, const char* name) {
  static const int32_t ks[] = {64, 1024};
  static const gsp_backend backends[] = {GSP_BACKEND_CPU, GSP_BACKEND_CUDA, GSP_BACKEND_AUTO};
  row rows[16];
  int nr = 0, ki, b;
  gsp_graph* g;
  char date[40];
  const char* path = bench_results_path();
  FILE* f;
  if (base == NULL) return;
  g = with_potentials(base);
  gsp_graph_destroy(base);
  if (gsp_backend_available(GSP_BACKEND_CUDA)) { /* start the device: AUTO's start-up rule does not decide */
    gsp_options o;
    gsp_paths* warm = NULL;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CUDA;
    if (gsp_sssp_run(g, 0, &o, &warm) == GSP_OK) gsp_paths_destroy(warm);
  }
  for (ki = 0; ki < 3; ki++) {
    const int table = ki == 2;
    const int32_t n = gsp_graph_num_vertices(g);
    const int32_t k = table ? (n < 1000 ? n : 1000) : ks[ki];
    int32_t* src = bench_spread(n, k, 3);
    for (b = 0; b < 3; b++) {
      row* r = &rows[nr];
      if (backends[b] == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) continue;
      memset(r, 0, sizeof *r);
      r->backend = backends[b];
      r->asked = backends[b] == GSP_BACKEND_AUTO ? GSP_ALGO_AUTO : GSP_APSP_JOHNSON;
      if (table)
        snprintf(r->what, sizeof r->what, "%d x %d table", k, k);
      else
        snprintf(r->what, sizeof r->what, "K = %d, paths", k);
      time_run(g, src, k, table, r);
      if (r->status != GSP_OK) continue;
      printf("%-10s %-18s %-5s %9.4f s (%s on %s; set-up %.4f, compute %.4f, copy %.4f)\n", name, r->what,
             gsp_backend_name(r->backend), r->seconds, gsp_algorithm_name(r->info.algorithm), r->info.device_name,
             r->info.setup_seconds, r->info.compute_seconds, r->info.copy_seconds);
      fflush(stdout);
      nr++;
    }
    free(src);
  }
  if (path != NULL && (f = fopen(path, "a")) != NULL) {
    bench_today(date, sizeof date);
    fprintf(f, "\n## Negative arcs: Johnson on the CPU and on CUDA (bench_johnson), %s: %s (n = %d, m = %lld)\n\n",
            name, date, gsp_graph_num_vertices(g), (long long)gsp_graph_num_edges(g));
    fprintf(f,
            "Weights shifted by random potentials (a third of the arcs negative, no negative cycle); wall time "
            "of the call, best of two after a warm-up; stages from the run info.\n\n"
            "| call | backend asked | s | ran | set-up s | compute s | copy s |\n"
            "| --- | --- | ---: | --- | ---: | ---: | ---: |\n");
    for (b = 0; b < nr; b++) {
      fprintf(f, "| %s | %s | %.4f | %s on %s | %.4f | %.4f | %.4f |\n", rows[b].what,
              gsp_backend_name(rows[b].backend), rows[b].seconds, gsp_algorithm_name(rows[b].info.algorithm),
              rows[b].info.device_name, rows[b].info.setup_seconds, rows[b].info.compute_seconds,
              rows[b].info.copy_seconds);
    }
    fclose(f);
  }
  gsp_graph_destroy(g);
}

int main(int argc, char** argv) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  if (filter == NULL || strstr("NY", filter) != NULL) run_graph(bench_load_ny(), "NY-road");
  if (filter == NULL || strstr("Graph65536", filter) != NULL) {
    run_graph(bench_random_graph(65536, 6, 1000, 65536, GSP_I32), "Graph65536");
  }
  return 0;
}
