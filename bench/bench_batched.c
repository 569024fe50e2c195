/* Many sources in one call against a loop of single-source calls, and
 * many-to-many tables (issue 19), timed as a user calls them.
 *
 * Batched: the wall time of gsp_apsp_run(sources, K) with paths, every row
 * in host memory (the result is not freed inside the timing), beside the
 * loop of K gsp_sssp_run calls on the same sources whose results are kept
 * likewise; AUTO for both, the device started before (a warm-up), K
 * sources spread evenly over the vertex ids. The batched call is timed
 * twice: the first call of that size (page-locking a new result) and the
 * best of the next two where the first took under 2 s. Where K rows do not fit
 * GSP_BENCH_BATCH_HOST_GIB (default 4) of host memory, both sides stream
 * instead: gsp_apsp_stream to a callback that reads nothing, against a loop
 * that frees each result at once. A loop longer than 256 calls is timed on
 * its first 256 sources and scaled by K / 256 ("~"). A batched call is
 * cancelled and shown as "> t" once it outlasts the loop (its bar) or
 * GSP_BENCH_BATCH_DEADLINE seconds (default 120), whichever comes first,
 * but never before GSP_BENCH_DEADLINE seconds (default 20).
 *
 * Tables: gsp_table_run_into (distances only) and gsp_table_run with paths
 * for 1000 x 1000 sources and targets spread over the graph, on each
 * backend; point-to-point (K = T = 1) for 20 sources, each with a target
 * 20 hops away, beside a full single-source run from the same source, and
 * for 20 random (source, target) pairs (median and worst: AUTO's bet on a
 * near target loses on most of them).
 *
 * Engines: each CUDA many-source engine (batched delta-stepping, task-
 * parallel, heap) on the same batched call at a few K, and the batched
 * engine's pass width (GSP_CUDA_BATCH_SOURCES) swept: the designs of
 * doc/gpu-apsp-sparse.md, "Many sources at once".
 *
 * Graphs: the DIMACS NY road graph ($GSP_DATA_DIR; skipped visibly when
 * absent), Graph65536 (random, out-degree 6) and R-MAT 2^20 with 16 arcs
 * per vertex (2^16 with GSP_BENCH_QUICK=1). Argument: a graph name filter.
 * GSP_BENCH_NO_BATCH, GSP_BENCH_NO_ENGINES, GSP_BENCH_NO_TABLES (set: skip
 * that section) shorten a run. */
#include "bench_common.h"

enum { kMaxKs = 12 };

static const char* g_filter = NULL;
static double g_deadline = 0; /* > 0: the deadline of the engine rows */
static int wanted(const char* name) { return g_filter == NULL || strstr(name, g_filter) != NULL; }

static int read_nothing(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)user;
  (void)first;
  (void)rows;
  (void)d;
  (void)p;
  return 0;
}

static void auto_options(gsp_options* o) {
  gsp_options_init(o);
  o->progress = bench_deadline_cb;
}

/* Seconds of one batched call with options o; -deadline when cancelled,
 * NAN on another failure. */
static double time_call(const gsp_graph* g, const int32_t* src, int32_t k, int host, gsp_options* o) {
  gsp_paths* p = NULL;
  gsp_status s;
  double t0, t;
  const double deadline = g_deadline > 0 ? g_deadline : bench_deadline_seconds();
  bench_deadline_at = bench_now() + deadline;
  t0 = bench_now();
  s = host ? gsp_apsp_run(g, src, k, o, &p) : gsp_apsp_stream(g, src, k, o, read_nothing, NULL);
  t = bench_now() - t0;
  gsp_paths_destroy(p);
  if (s == GSP_ERR_CANCELLED) return -deadline;
  if (s != GSP_OK) {
    printf("  batched K=%d (%s): %s: %s\n", k, gsp_algorithm_name(o->algorithm), gsp_status_name(s), gsp_last_error());
    return NAN;
  }
  return t;
}

/* The batched call: the first of its size (*first) and the best of up to
 * two more where the first took under 2 s (the return value; the first
 * otherwise). */
static double time_batched(const gsp_graph* g, const int32_t* src, int32_t k, int host, gsp_options* o, double* first) {
  double best = time_call(g, src, k, host, o);
  int i;
  *first = best;
  for (i = 0; i < 2 && best > 0 && best < 2.0; i++) {
    const double t = time_call(g, src, k, host, o);
    if (t > 0 && t < best) best = t;
  }
  return best;
}

/* Seconds of the loop over the first min(k, 256) sources, scaled to k. */
static double time_loop(const gsp_graph* g, const int32_t* src, int32_t k, int host, int* scaled) {
  const int32_t runs = k < 256 ? k : 256;
  gsp_paths** kept = (gsp_paths**)calloc((size_t)runs, sizeof *kept);
  gsp_options o;
  double t0, t;
  int32_t i;
  gsp_status s = GSP_OK;
  if (!kept) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  gsp_options_init(&o);
  t0 = bench_now();
  for (i = 0; i < runs && s == GSP_OK; i++) {
    gsp_paths* p = NULL;
    s = gsp_sssp_run(g, src[i], &o, &p);
    if (host)
      kept[i] = p;
    else
      gsp_paths_destroy(p);
  }
  t = bench_now() - t0;
  for (i = 0; i < runs; i++) gsp_paths_destroy(kept[i]);
  free(kept);
  if (s != GSP_OK) {
    printf("  loop: %s: %s\n", gsp_status_name(s), gsp_last_error());
    return NAN;
  }
  *scaled = runs < k;
  return t * (double)k / runs;
}

typedef struct {
  int32_t k;
  int host;
  double batched, first, loop;
  int scaled;
  gsp_algorithm algo;
} batch_row;

/* The batched call's deadline: the loop's time (beyond it the row misses
 * its bar anyway), capped by GSP_BENCH_BATCH_DEADLINE (default 120 s), and
 * never below the common deadline (first calls page-lock their result). */
static double batch_deadline(double loop) {
  const char* e = getenv("GSP_BENCH_BATCH_DEADLINE");
  const double cap = e ? atof(e) : 120.0;
  double d = loop > 0 ? loop : cap;
  if (d > cap) d = cap;
  if (d < bench_deadline_seconds()) d = bench_deadline_seconds();
  return d;
}

static int batch_rows(const gsp_graph* g, const char* name, batch_row* rows) {
  static const int32_t ks[kMaxKs] = {2, 8, 32, 64, 256, 1024, 4096, 16384, 65536};
  const int32_t n = gsp_graph_num_vertices(g);
  const char* e = getenv("GSP_BENCH_BATCH_HOST_GIB");
  const double host_bytes = (e ? atof(e) : 4.0) * 1073741824.0;
  int count = 0, i;
  for (i = 0; i < kMaxKs && ks[i] > 0 && ks[i] <= n; i++) {
    batch_row* r = &rows[count++];
    int32_t* src = bench_spread(n, ks[i], 0);
    r->k = ks[i];
    gsp_options o;
    gsp_backend be;
    r->host = (double)ks[i] * n * 8.0 <= host_bytes;
    auto_options(&o);
    r->algo = GSP_ALGO_AUTO;
    if (gsp_run_plan(g, 0, ks[i], &o, &be, &r->algo) != GSP_OK) r->algo = GSP_ALGO_AUTO;
    /* The loop first: the batched call may then run until it would lose
     * (batched / loop > 1), so that every K is measured to the end or shown
     * to miss; at most GSP_BENCH_BATCH_DEADLINE seconds (default 120). */
    r->loop = time_loop(g, src, ks[i], r->host, &r->scaled);
    g_deadline = batch_deadline(r->loop);
    r->batched = time_batched(g, src, ks[i], r->host, &o, &r->first);
    g_deadline = 0;
    free(src);
    printf("%-12s K=%6d %-6s batched %10.4f s (first %.4f s, %s)  loop %s%10.4f s  batched/loop %.3f\n", name, r->k,
           r->host ? "host" : "stream", r->batched, r->first, gsp_algorithm_name(r->algo), r->scaled ? "~" : " ",
           r->loop, r->batched / r->loop);
    fflush(stdout);
  }
  return count;
}

/* ------------------------------------------------------------------ engines */
typedef struct {
  int32_t k, width; /* width: GSP_CUDA_BATCH_SOURCES, 0 = the engine's */
  gsp_algorithm algo;
  double seconds, first;
} engine_row;

/* Each CUDA many-source engine at two K (rows in host memory, paths on,
 * cancelled after 6 s), then the batched engine's pass width at the larger K. */
static int engine_rows(const gsp_graph* g, const char* name, engine_row* rows) {
  static const gsp_algorithm kEngines[4] = {GSP_APSP_DELTA_STEPPING, GSP_APSP_SPMM, GSP_APSP_TASK_PARALLEL,
                                            GSP_APSP_HEAP};
  static const int32_t kWidths[5] = {32, 64, 256, 512, 1024};
  const int32_t n = gsp_graph_num_vertices(g);
  const int32_t ks[2] = {64, n >= 1 << 20 ? 256 : 1024};
  int count = 0, i, e;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) return 0;
  g_deadline = 6.0;
  for (i = 0; i < 2; i++) {
    int32_t* src = bench_spread(n, ks[i], 3);
    for (e = 0; e < 4; e++) {
      engine_row* r = &rows[count++];
      gsp_options o;
      auto_options(&o);
      o.backend = GSP_BACKEND_CUDA;
      o.algorithm = kEngines[e];
      r->k = ks[i];
      r->width = 0;
      r->algo = kEngines[e];
      r->seconds = time_batched(g, src, ks[i], 1, &o, &r->first);
      printf("%-12s K=%6d engine %-24s %10.4f s (first %.4f s)\n", name, r->k, gsp_algorithm_name(r->algo), r->seconds,
             r->first);
      fflush(stdout);
    }
    if (i == 1) {
      for (e = 0; e < 5 && kWidths[e] <= ks[i]; e++) {
        engine_row* r = &rows[count++];
        gsp_options o;
        char w[16];
        auto_options(&o);
        o.backend = GSP_BACKEND_CUDA;
        o.algorithm = GSP_APSP_DELTA_STEPPING;
        snprintf(w, sizeof w, "%d", kWidths[e]);
        setenv("GSP_CUDA_BATCH_SOURCES", w, 1);
        r->k = ks[i];
        r->width = kWidths[e];
        r->algo = GSP_APSP_DELTA_STEPPING;
        r->seconds = time_batched(g, src, ks[i], 1, &o, &r->first);
        unsetenv("GSP_CUDA_BATCH_SOURCES");
        printf("%-12s K=%6d engine %-24s width %5d %10.4f s\n", name, r->k, gsp_algorithm_name(r->algo), r->width,
               r->seconds);
        fflush(stdout);
      }
    }
    free(src);
  }
  g_deadline = 0;
  return count;
}

/* ------------------------------------------------------------------ tables */
typedef struct {
  char what[64];
  char backend[8];
  double ms;
  double worst; /* > 0: the slowest of the queries whose median ms is */
  gsp_algorithm algo;
  gsp_status status;
} table_row;

/* Median wall ms of `reps` table runs (into an array when paths is 0). */
static void time_table(const gsp_graph* g, const int32_t* s, int32_t k, const int32_t* t, int32_t tn,
                       gsp_backend backend, int paths, int reps, table_row* row) {
  gsp_options o;
  double ms[16];
  int i;
  void* out = malloc((size_t)k * (size_t)tn * 4);
  gsp_run_info info;
  if (!out) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  gsp_options_init(&o);
  o.backend = backend;
  snprintf(row->backend, sizeof row->backend, "%s", gsp_backend_name(backend));
  row->status = GSP_OK;
  if (reps > 16) reps = 16;
  for (i = -1; i < reps && row->status == GSP_OK; i++) { /* i = -1: warm-up */
    gsp_table* tab = NULL;
    double t0 = bench_now();
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (paths) {
      row->status = gsp_table_run(g, s, k, t, tn, &o, &tab);
      if (row->status == GSP_OK) gsp_table_info(tab, &info);
    } else {
      row->status = gsp_table_run_into(g, s, k, t, tn, &o, out, &info);
    }
    if (i >= 0) ms[i] = (bench_now() - t0) * 1e3;
    gsp_table_destroy(tab);
    row->algo = info.algorithm;
  }
  row->ms = row->status == GSP_OK ? bench_median(ms, reps) : NAN;
  if (row->status != GSP_OK) printf("  table %s: %s: %s\n", row->what, gsp_status_name(row->status), gsp_last_error());
  free(out);
}

/* A vertex about `hops` breadth-first levels from s (the farthest reached if fewer). */
static int32_t vertex_hops_away(const int64_t* off, const int32_t* tg, int32_t n, int32_t s, int hops) {
  int32_t* level = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t* queue = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t head = 0, tail = 0, last = s, i;
  if (!level || !queue) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (i = 0; i < n; i++) level[i] = -1;
  level[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    const int32_t u = queue[head++];
    int64_t e;
    last = u;
    if (level[u] >= hops) break;
    for (e = off[u]; e < off[u + 1]; e++) {
      if (level[tg[e]] < 0) {
        level[tg[e]] = level[u] + 1;
        queue[tail++] = tg[e];
      }
    }
  }
  free(level);
  free(queue);
  return last;
}

static int table_rows(const gsp_graph* g, table_row* rows) {
  static const gsp_backend kBackends[3] = {GSP_BACKEND_AUTO, GSP_BACKEND_CPU, GSP_BACKEND_CUDA};
  const int32_t n = gsp_graph_num_vertices(g), k = n < 1000 ? n : 1000;
  const int64_t m = gsp_graph_num_edges(g);
  int32_t *s = bench_spread(n, k, 0), *t = bench_spread(n, k, 7), i, ps[20], pt[20];
  int64_t* off = (int64_t*)malloc((size_t)(n + 1) * sizeof(int64_t));
  int32_t* tg = (int32_t*)malloc((size_t)(m > 0 ? m : 1) * sizeof(int32_t));
  int count = 0, b, paths;
  if (!off || !tg) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (b = 0; b < 3; b++) {
    if (kBackends[b] == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) continue;
    for (paths = 0; paths < 2; paths++) {
      table_row* r = &rows[count++];
      snprintf(r->what, sizeof r->what, "%d x %d table%s", k, k, paths ? ", paths" : "");
      time_table(g, s, k, t, k, kBackends[b], paths, 3, r);
      r->worst = 0;
    }
  }
  /* point to point: 20 sources, each with a target 20 hops away */
  gsp_graph_csr(g, off, tg, NULL);
  for (i = 0; i < 20; i++) {
    ps[i] = (int32_t)((int64_t)i * n / 20);
    pt[i] = vertex_hops_away(off, tg, n, ps[i], 20);
  }
  for (b = 0; b < 3; b++) {
    double q[20], full[20];
    gsp_algorithm ran = GSP_ALGO_AUTO;
    table_row* r;
    gsp_options o;
    if (kBackends[b] == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) continue;
    gsp_options_init(&o);
    o.backend = kBackends[b];
    for (i = 0; i < 20; i++) {
      table_row one;
      gsp_paths* p = NULL;
      double t0;
      snprintf(one.what, sizeof one.what, "point to point");
      time_table(g, &ps[i], 1, &pt[i], 1, kBackends[b], 1, 1, &one);
      q[i] = one.ms;
      ran = one.algo;
      t0 = bench_now();
      if (gsp_sssp_run(g, ps[i], &o, &p) == GSP_OK)
        full[i] = (bench_now() - t0) * 1e3;
      else
        full[i] = NAN;
      gsp_paths_destroy(p);
    }
    r = &rows[count++];
    r->status = GSP_OK;
    r->algo = ran;
    snprintf(r->backend, sizeof r->backend, "%s", gsp_backend_name(kBackends[b]));
    r->ms = bench_median(q, 20);
    r->worst = 0;
    snprintf(r->what, sizeof r->what, "point to point, 20 hops (full SSSP %.3f ms)", bench_median(full, 20));
  }
  /* point to point: 20 random pairs, with paths, each timed once after a warm-up query of its own */
  for (b = 0; b < 3; b++) {
    uint64_t x = 0x5EED;
    double q[20];
    gsp_algorithm ran = GSP_ALGO_AUTO;
    table_row* r;
    if (kBackends[b] == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) continue;
    r = &rows[count++];
    r->worst = 0;
    for (i = 0; i < 20; i++) {
      table_row one;
      int32_t src, dst;
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      src = (int32_t)((x >> 33) % (uint64_t)n);
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      dst = (int32_t)((x >> 33) % (uint64_t)n);
      snprintf(one.what, sizeof one.what, "point to point");
      time_table(g, &src, 1, &dst, 1, kBackends[b], 1, 1, &one); /* after one warm-up of itself */
      q[i] = one.ms;
      if (one.ms > r->worst) r->worst = one.ms;
      ran = one.algo;
    }
    r->status = GSP_OK;
    r->algo = ran;
    snprintf(r->backend, sizeof r->backend, "%s", gsp_backend_name(kBackends[b]));
    r->ms = bench_median(q, 20);
    snprintf(r->what, sizeof r->what, "point to point, 20 random pairs (worst %.3f ms)", r->worst);
  }
  free(s);
  free(t);
  free(off);
  free(tg);
  return count;
}

/* ------------------------------------------------------------------ output */
static void report(const char* name, const gsp_graph* g, const batch_row* br, int nb, const engine_row* er, int ne,
                   const table_row* tr, int nt) {
  char date[40];
  const char* path = bench_results_path();
  FILE* f;
  int i;
  double worst = 0;
  for (i = 0; i < nt; i++)
    printf("%-12s %-48s %-5s %10.3f ms (%s)\n", name, tr[i].what, tr[i].backend, tr[i].ms,
           gsp_algorithm_name(tr[i].algo));
  if (path == NULL || (f = fopen(path, "a")) == NULL) return;
  bench_today(date, sizeof date);
  fprintf(f, "\n## Batched sources and tables (bench_batched), %s: %s (n = %d, m = %lld)\n\n", name, date,
          gsp_graph_num_vertices(g), (long long)gsp_graph_num_edges(g));
  fprintf(f,
          "Wall times, AUTO, paths on. \"host\": every row in host memory (gsp_apsp_run vs K gsp_sssp_run "
          "kept); \"stream\": gsp_apsp_stream vs K gsp_sssp_run freed at once; \"~\": loop scaled from 256 "
          "calls; \"> t\": cancelled.\n\n");
  fprintf(f,
          "| K | rows | batched s | first call s | AUTO ran | loop s | batched / loop |\n"
          "| ---: | --- | ---: | ---: | --- | ---: | ---: |\n");
  for (i = 0; i < nb; i++) {
    const double ratio = br[i].batched / br[i].loop;
    if (br[i].batched < 0) {
      fprintf(f, "| %d | %s | > %.0f | | %s | %s%.4f | > %.2f |\n", br[i].k, br[i].host ? "host" : "stream",
              -br[i].batched, gsp_algorithm_name(br[i].algo), br[i].scaled ? "~" : "", br[i].loop,
              -br[i].batched / br[i].loop);
    } else {
      fprintf(f, "| %d | %s | %.4f | %.4f | %s | %s%.4f | %.3f |\n", br[i].k, br[i].host ? "host" : "stream",
              br[i].batched, br[i].first, gsp_algorithm_name(br[i].algo), br[i].scaled ? "~" : "", br[i].loop, ratio);
      if (ratio > worst) worst = ratio;
    }
  }
  fprintf(f, "\nWorst batched / loop among finished rows: %.3f.\n\n", worst);
  if (ne > 0) {
    fprintf(f,
            "CUDA engines on the batched call (host rows, paths; \"> t\": cancelled; width: sources per "
            "pass, GSP_CUDA_BATCH_SOURCES):\n\n| K | engine | width | s | first call s |\n"
            "| ---: | --- | ---: | ---: | ---: |\n");
    for (i = 0; i < ne; i++) {
      char w[16];
      if (er[i].width > 0)
        snprintf(w, sizeof w, "%d", er[i].width);
      else
        snprintf(w, sizeof w, "auto");
      if (er[i].seconds < 0) {
        fprintf(f, "| %d | %s | %s | > %.0f | |\n", er[i].k, gsp_algorithm_name(er[i].algo), w, -er[i].seconds);
      } else {
        fprintf(f, "| %d | %s | %s | %.4f | %.4f |\n", er[i].k, gsp_algorithm_name(er[i].algo), w, er[i].seconds,
                er[i].first);
      }
    }
    fprintf(f, "\n");
  }
  fprintf(f, "| table | backend | median ms | ran |\n| --- | --- | ---: | --- |\n");
  for (i = 0; i < nt; i++) {
    fprintf(f, "| %s | %s | %.3f | %s |\n", tr[i].what, tr[i].backend, tr[i].ms, gsp_algorithm_name(tr[i].algo));
  }
  fclose(f);
}

static void run_graph(gsp_graph* g, const char* name) {
  batch_row br[kMaxKs];
  engine_row er[16];
  table_row tr[20];
  int nb, ne = 0, nt;
  if (g == NULL) return;
  /* start the device, so that AUTO's start-up rule does not decide */
  if (gsp_backend_available(GSP_BACKEND_CUDA)) {
    gsp_options o;
    gsp_paths* warm = NULL;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CUDA;
    if (gsp_sssp_run(g, 0, &o, &warm) == GSP_OK) gsp_paths_destroy(warm);
  }
  nb = getenv("GSP_BENCH_NO_BATCH") ? 0 : batch_rows(g, name, br);
  if (!getenv("GSP_BENCH_NO_ENGINES")) ne = engine_rows(g, name, er);
  nt = getenv("GSP_BENCH_NO_TABLES") ? 0 : table_rows(g, tr);
  report(name, g, br, nb, er, ne, tr, nt);
  gsp_graph_destroy(g);
}

int main(int argc, char** argv) {
  g_filter = argc > 1 ? argv[1] : NULL;
  if (wanted("NY")) run_graph(bench_load_ny(), "NY-road"); /* NULL (skipped, said why): nothing run */
  if (wanted("Graph65536")) run_graph(bench_random_graph(65536, 6, 1000, 65536, GSP_F32), "Graph65536");
  if (wanted("RMAT")) {
    if (bench_quick())
      run_graph(bench_rmat_graph(16, (int64_t)16 << 16, 1000, 20, GSP_F32), "RMAT-64K");
    else
      run_graph(bench_rmat_graph(20, (int64_t)16 << 20, 1000, 20, GSP_F32), "RMAT-1M");
  }
  return 0;
}
