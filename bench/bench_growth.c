/* Growth benchmark (issue 32): how single-source shortest paths scale with
 * the graph, and a graph past 2^31 arcs.
 *
 * Part 1, the growth table: uniform random (out-degree 8, gsp_gen_random),
 * R-MAT (out-degree 16, gsp_gen_rmat) and a road-like grid (gsp_gen_grid,
 * about 4 arcs a vertex) for n = 2^16, 2^18, ..., 2^26; int32 weights in
 * 1..255 (GAPBS's range); SSSP from vertex 0 with paths, backend and
 * algorithm AUTO, as a user calls it. Per row: the build (generator plus
 * gsp_graph_create_csr / gsp_graph_create), the engine's time
 * (gsp_run_info.seconds) and the whole call's, both per arc, and the
 * relaxations per arc (gsp_run_info.relaxations / m); the device is
 * started first (gsp_device_start), so that AUTO weighs no start-up
 * against the CPU, as in a program that runs many searches. GAPBS's sssp beside
 * it when GSP_BENCH_GAPBS_CSV names the CSV that scripts/gapbs_growth.sh
 * wrote (best average time over its delta sweep, per family and size).
 *
 * Part 2 (GSP_BENCH_HUGE=1): R-MAT with 2^26 vertices x 36 arcs (2.4e9
 * arcs, int32 weights) built (generator CSR, then gsp_graph_create_csr),
 * run on CUDA with paths, and checked against CPU delta-stepping on every
 * core: distances equal bit for bit, and every predecessor of both runs a
 * tight arc (d[u] + w(u, v) == d[v]). Prints the build, upload, run and
 * check times and the peak RSS. Without a usable CUDA device the CPU run
 * and the check of its predecessors are all it does. About 40 GB of host
 * memory and 23 GB of device memory (doc/memory.md, "A graph past 2^31
 * arcs").
 *
 * Environment (and bench_common.h's GSP_BENCH_REPS, _CSV, _RESULTS):
 *   GSP_BENCH_GROWTH_MIN_LOG2   smallest n (log2, default 16)
 *   GSP_BENCH_GROWTH_MAX_LOG2   largest n (log2, default 26 where CUDA is
 *                               usable, 20 where it is not; 18 with
 *                               GSP_BENCH_QUICK=1); sizes go in steps of 2
 *   GSP_BENCH_GROWTH_CPU=1      also the same runs with backend CPU (where
 *                               CUDA is usable; without it AUTO is the CPU)
 *   GSP_BENCH_GROWTH=0          leave part 1 out
 *   GSP_BENCH_GAPBS_CSV=FILE    GAPBS's results (scripts/gapbs_growth.sh)
 *   GSP_BENCH_HUGE=1            part 2 (default off)
 *   GSP_BENCH_HUGE_LOG2=26, GSP_BENCH_HUGE_DEGREE=36, GSP_BENCH_HUGE_REPS=3
 * argv[1], when given, keeps the families whose name contains it. Every
 * row is also printed as a "csv," line. */
#define _GNU_SOURCE 1

#include <pthread.h>
#include <sys/resource.h>

#include "bench_common.h"
#include "gsp_generators.h"

#define MAX_ROWS 256

static const char* const kFamilies[3] = {"uniform", "rmat", "grid"};
static const int kDegree[3] = {8, 16, 4}; /* the grid's is about 4 (two-way streets) */
#define MAX_WEIGHT 255

static int env_int(const char* name, int fallback) {
  const char* e = getenv(name);
  return e != NULL && *e ? atoi(e) : fallback;
}

typedef struct {
  char family[16];
  char backend_asked[8];
  int log2;
  int32_t n;
  int64_t m;
  double build_s;
  gsp_status status;
  char note[200];
  char backend[8];
  char algorithm[32];
  char device[128];
  double engine_ms, call_ms, upload_ms;
  int64_t relaxations, iterations;
  int reps;
  /* GAPBS (NAN / 0 when not measured) */
  double gapbs_ms, gapbs_delta;
  int64_t gapbs_arcs;
} growth_row;

/* ------------------------------------------------------------ GAPBS's numbers */

typedef struct {
  char family[16];
  int log2;
  int64_t arcs;
  double delta, avg_s;
} gapbs_entry;

static gapbs_entry g_gapbs[1024];
static int g_gapbs_count = 0;
static char g_gapbs_note[256] = "";

/* Reads scripts/gapbs_growth.sh's CSV: family,log2,n,arcs,delta,trials,avg_seconds,... */
static void gapbs_load(void) {
  const char* path = getenv("GSP_BENCH_GAPBS_CSV");
  char line[512];
  FILE* f;
  if (path == NULL || !*path) return;
  f = fopen(path, "r");
  if (f == NULL) {
    snprintf(g_gapbs_note, sizeof g_gapbs_note, "GSP_BENCH_GAPBS_CSV=%s cannot be read", path);
    printf("%s\n", g_gapbs_note);
    return;
  }
  while (fgets(line, sizeof line, f) && g_gapbs_count < 1024) {
    gapbs_entry e;
    long long n = 0, arcs = 0;
    int trials = 0;
    memset(&e, 0, sizeof e);
    if (sscanf(line, "%15[^,],%d,%lld,%lld,%lf,%d,%lf", e.family, &e.log2, &n, &arcs, &e.delta, &trials, &e.avg_s) != 7)
      continue; /* the header, comments, failed runs */
    e.arcs = arcs;
    if (e.avg_s > 0) g_gapbs[g_gapbs_count++] = e;
  }
  fclose(f);
  printf("GAPBS: %d timed runs read from %s\n", g_gapbs_count, path);
}

/* GAPBS's best average over its delta sweep for (family, log2). */
static void gapbs_best(const char* family, int log2, growth_row* r) {
  int i;
  r->gapbs_ms = NAN;
  r->gapbs_delta = NAN;
  r->gapbs_arcs = 0;
  for (i = 0; i < g_gapbs_count; i++) {
    const gapbs_entry* e = &g_gapbs[i];
    if (e->log2 != log2 || strcmp(e->family, family) != 0) continue;
    if (isnan(r->gapbs_ms) || e->avg_s * 1e3 < r->gapbs_ms) {
      r->gapbs_ms = e->avg_s * 1e3;
      r->gapbs_delta = e->delta;
      r->gapbs_arcs = e->arcs;
    }
  }
}

/* ------------------------------------------------------------ part 1 */

static gsp_status make_graph(int family, int log2, gsp_graph** g) {
  const int32_t n = (int32_t)1 << log2;
  const uint64_t seed = 3200 + (uint64_t)log2;
  if (family == 0) return gsp_gen_random(g, n, kDegree[0], seed, GSP_I32, MAX_WEIGHT);
  if (family == 1) return gsp_gen_rmat(g, n, kDegree[1], seed, GSP_I32, MAX_WEIGHT);
  {
    int32_t rows, cols;
    gsp_gen_grid_shape(n, &rows, &cols);
    return gsp_gen_grid(g, rows, cols, seed, GSP_I32, MAX_WEIGHT);
  }
}

static int cmp_i64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

/* One warm-up, then bench_reps() timed calls of gsp_sssp_run from vertex 0. */
static void time_runs(const gsp_graph* g, gsp_backend backend, growth_row* r) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_run_info info;
  double eng[64], wall[64];
  int64_t relax[64];
  int reps = bench_reps(), i;
  if (reps > 64) reps = 64;
  gsp_options_init(&o);
  o.backend = backend;
  o.algorithm = GSP_ALGO_AUTO;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  r->status = gsp_sssp_run(g, 0, &o, &p);
  if (r->status != GSP_OK) {
    snprintf(r->note, sizeof r->note, "%s", gsp_last_error());
    return;
  }
  gsp_paths_info(p, &info);
  r->upload_ms = info.upload_seconds * 1e3;
  gsp_paths_destroy(p);
  for (i = 0; i < reps; i++) {
    r->status = bench_sssp_once(g, 0, &o, &p, &wall[i], &info);
    if (r->status != GSP_OK) {
      snprintf(r->note, sizeof r->note, "%s", gsp_last_error());
      return;
    }
    eng[i] = info.seconds * 1e3;
    relax[i] = info.relaxations;
    r->iterations = info.iterations;
    snprintf(r->backend, sizeof r->backend, "%s", gsp_backend_name(info.backend));
    snprintf(r->algorithm, sizeof r->algorithm, "%s", gsp_algorithm_name(info.algorithm));
    snprintf(r->device, sizeof r->device, "%s", info.device_name);
    gsp_paths_destroy(p);
  }
  qsort(relax, (size_t)reps, sizeof relax[0], cmp_i64);
  r->reps = reps;
  r->engine_ms = bench_median(eng, reps);
  r->call_ms = bench_median(wall, reps);
  r->relaxations = relax[reps / 2];
}

static double per_arc_ns(double ms, int64_t m) { return m > 0 ? ms * 1e6 / (double)m : NAN; }

static void print_csv(const growth_row* r) {
  printf("csv,%s,%s,%d,%d,%lld,%.3f,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%.4f,%lld,%g,%s\n", r->family,
         r->backend_asked, r->log2, r->n, (long long)r->m, r->build_s, r->backend, r->algorithm, r->engine_ms,
         r->call_ms, r->upload_ms, per_arc_ns(r->engine_ms, r->m), per_arc_ns(r->call_ms, r->m),
         r->m > 0 ? (double)r->relaxations / (double)r->m : NAN, (long long)r->iterations, r->gapbs_ms,
         (long long)r->gapbs_arcs, r->gapbs_delta, gsp_status_name(r->status));
  fflush(stdout);
}

static void print_row(const growth_row* r) {
  if (r->status != GSP_OK) {
    printf("%-8s 2^%d %-5s %s: %.150s\n", r->family, r->log2, r->backend_asked, gsp_status_name(r->status), r->note);
  } else {
    printf(
        "%-8s 2^%d n %10d m %11lld build %7.2f s  %-4s %-16s engine %10.3f ms (%6.3f ns/arc)  call %10.3f ms"
        "  %5.2f relax/arc",
        r->family, r->log2, r->n, (long long)r->m, r->build_s, r->backend, r->algorithm, r->engine_ms,
        per_arc_ns(r->engine_ms, r->m), r->call_ms, r->m > 0 ? (double)r->relaxations / (double)r->m : 0.0);
    if (!isnan(r->gapbs_ms)) printf("  GAPBS %.3f ms (d=%g)", r->gapbs_ms, r->gapbs_delta);
    printf("\n");
  }
  print_csv(r);
}

static FILE* open_results(void) {
  const char* path = bench_results_path();
  FILE* f;
  if (path == NULL) return NULL;
  f = fopen(path, "a");
  if (f == NULL) fprintf(stderr, "cannot append to %s\n", path);
  return f;
}

static void growth_markdown(const growth_row* rows, int k) {
  char date[40], cpu[160], dev[160] = "none (CUDA not usable)";
  FILE* f;
  int i;
  if (k == 0 || (f = open_results()) == NULL) return;
  bench_today(date, sizeof date);
  bench_cpu_name(cpu, sizeof cpu);
  for (i = 0; i < k; i++)
    if (rows[i].status == GSP_OK && strcmp(rows[i].backend, "cuda") == 0)
      snprintf(dev, sizeof dev, "%s", rows[i].device);
  fprintf(f,
          "\n## bench_growth, %s\n\nDevice: %s. Host: %s (%ld cores). SSSP from vertex 0, int32 weights in 1..%d, "
          "paths on, backend and algorithm AUTO (\"ran\": what AUTO chose; the device started first, "
          "gsp_device_start)%s; median of %d runs after a warm-up. "
          "uniform: out-degree 8 to random heads (gsp_gen_random); R-MAT: out-degree 16 (gsp_gen_rmat); grid: a "
          "two-way 4-neighbour grid of sqrt(n) x sqrt(n) (gsp_gen_grid). \"build s\": the generator (all cores) and "
          "gsp_graph_create_csr (grid: gsp_graph_create). \"engine\": gsp_run_info.seconds; \"call\": the whole "
          "gsp_sssp_run, result in host memory; ns/arc = time / m; relax/arc = gsp_run_info.relaxations / m. GAPBS: "
          "the GAP Benchmark Suite's sssp (delta-stepping, OpenMP on every core of this host; "
          "scripts/gapbs_growth.sh), best Average Time over its delta sweep (d), on its own generated graph of the "
          "same family, size and degree for uniform and R-MAT (-u / -g SCALE -k DEGREE/2: GAPBS symmetrises, so "
          "about as many arcs a vertex, fewer after it drops duplicates; its weights 1..255 are its own draws; its "
          "sources random vertices with arcs), and on the same DIMACS file from vertex 0 for the grid. %s\n\n",
          date, dev, cpu, sysconf(_SC_NPROCESSORS_ONLN), MAX_WEIGHT,
          env_int("GSP_BENCH_GROWTH_CPU", 0) ? "; rows with backend \"cpu\" asked for the CPU" : "", bench_reps(),
          g_gapbs_count > 0 ? ""
          : g_gapbs_note[0] ? g_gapbs_note
                            : "No GAPBS numbers in this run (GSP_BENCH_GAPBS_CSV unset).");
  fprintf(f,
          "| family | n | m | build s | ran | engine ms | call ms | upload ms | engine ns/arc | call ns/arc | "
          "relax/arc | GAPBS ms (d) | GAPBS arcs | GAPBS ns/arc | GAPBS ms / engine ms |\n");
  fprintf(f,
          "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: |\n");
  for (i = 0; i < k; i++) {
    const growth_row* r = &rows[i];
    char gap[64] = "", garcs[32] = "", gns[32] = "", ratio[32] = "", up[32] = "";
    if (r->status != GSP_OK) {
      fprintf(f, "| %s | %d | %lld | %.2f | %s: %.100s | | | | | | | | | | |\n", r->family, r->n, (long long)r->m,
              r->build_s, gsp_status_name(r->status), r->note);
      continue;
    }
    if (!isnan(r->gapbs_ms)) {
      snprintf(gap, sizeof gap, "%.3f (%g)", r->gapbs_ms, r->gapbs_delta);
      snprintf(garcs, sizeof garcs, "%lld", (long long)r->gapbs_arcs);
      snprintf(gns, sizeof gns, "%.3f", per_arc_ns(r->gapbs_ms, r->gapbs_arcs));
      snprintf(ratio, sizeof ratio, "%.2fx", r->gapbs_ms / r->engine_ms);
    }
    if (strcmp(r->backend, "cpu") != 0) snprintf(up, sizeof up, "%.3f", r->upload_ms);
    fprintf(f, "| %s | %d | %lld | %.2f | %s %s | %.3f | %.3f | %s | %.3f | %.3f | %.2f | %s | %s | %s | %s |\n",
            r->family, r->n, (long long)r->m, r->build_s, r->backend, r->algorithm, r->engine_ms, r->call_ms, up,
            per_arc_ns(r->engine_ms, r->m), per_arc_ns(r->call_ms, r->m),
            r->m > 0 ? (double)r->relaxations / (double)r->m : 0.0, gap, garcs, gns, ratio);
  }
  fclose(f);
}

/* bench_common.h's CSV, one line per row. */
static void growth_csv(const growth_row* r) {
  bench_row b;
  memset(&b, 0, sizeof b);
  snprintf(b.graph, sizeof b.graph, "%s-2^%d", r->family, r->log2);
  snprintf(b.dtype, sizeof b.dtype, "i32");
  snprintf(b.engine, sizeof b.engine, "AUTO: %.32s", r->algorithm);
  snprintf(b.backend, sizeof b.backend, "%s", r->backend);
  snprintf(b.device, sizeof b.device, "%s", r->device);
  b.n = r->n;
  b.m = r->m;
  b.median_ms = r->engine_ms;
  b.min_ms = NAN;
  b.upload_ms = r->upload_ms;
  b.iterations = r->iterations;
  b.reps = r->reps;
  b.status = r->status;
  bench_csv_append("bench_growth", &b, 1);
}

static int growth(const char* only, int cuda) {
  static growth_row rows[MAX_ROWS];
  const int lo = env_int("GSP_BENCH_GROWTH_MIN_LOG2", 16);
  const int hi = env_int("GSP_BENCH_GROWTH_MAX_LOG2", bench_quick() ? 18 : cuda ? 26 : 20);
  const int with_cpu = cuda && env_int("GSP_BENCH_GROWTH_CPU", 0);
  int k = 0, fam, log2, b, failed = 0;
  printf("growth: n = 2^%d .. 2^%d%s\n", lo, hi, cuda ? "" : " (CUDA not usable: AUTO runs on the CPU)");
  for (fam = 0; fam < 3; fam++) {
    if (only != NULL && strstr(kFamilies[fam], only) == NULL) continue;
    for (log2 = lo; log2 <= hi && log2 <= 30; log2 += 2) {
      gsp_graph* g = NULL;
      double t0 = bench_now();
      gsp_status s = make_graph(fam, log2, &g);
      const double build_s = bench_now() - t0;
      for (b = 0; b < (with_cpu ? 2 : 1) && k < MAX_ROWS; b++) {
        growth_row* r = &rows[k++];
        memset(r, 0, sizeof *r);
        snprintf(r->family, sizeof r->family, "%s", kFamilies[fam]);
        snprintf(r->backend_asked, sizeof r->backend_asked, "%s", b == 0 ? "auto" : "cpu");
        r->log2 = log2;
        r->n = (int32_t)1 << log2;
        r->build_s = build_s;
        r->engine_ms = r->call_ms = r->upload_ms = NAN;
        gapbs_best(kFamilies[fam], log2, r);
        if (s != GSP_OK) {
          r->status = s;
          snprintf(r->note, sizeof r->note, "generator: %s", *gsp_gen_error() ? gsp_gen_error() : gsp_last_error());
        } else {
          r->n = gsp_graph_num_vertices(g);
          r->m = gsp_graph_num_edges(g);
          time_runs(g, b == 0 ? GSP_BACKEND_AUTO : GSP_BACKEND_CPU, r);
        }
        if (r->status != GSP_OK) failed = 1;
        print_row(r);
        growth_csv(r);
      }
      gsp_graph_destroy(g);
    }
  }
  growth_markdown(rows, k);
  return failed;
}

/* ------------------------------------------------------------ part 2 */

static double peak_rss_gib(void) {
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0) return NAN;
  return (double)u.ru_maxrss / (1024.0 * 1024.0); /* ru_maxrss is in KiB on Linux */
}

/* Which reached vertices have their predecessor on a tight arc: ok[v] = 1
 * when some arc pred[v] -> v has d[pred[v]] + w == d[v]. Tails split over
 * threads; racing writes all store 1. */
typedef struct {
  const gsp_gen_csr* c;
  const int32_t* d;
  const int32_t* pred;
  unsigned char* ok;
  int32_t lo, hi;
} tight_part;

static void* tight_scan(void* arg) {
  const tight_part* t = (const tight_part*)arg;
  const int32_t* w = (const int32_t*)t->c->weights;
  int32_t u;
  for (u = t->lo; u < t->hi; u++) {
    const int64_t du = t->d[u];
    int64_t e;
    if (du == GSP_I32_INF) continue;
    for (e = t->c->offsets[u]; e < t->c->offsets[u + 1]; e++) {
      const int32_t v = t->c->targets[e];
      if (t->pred[v] == u && du + w[e] == (int64_t)t->d[v]) t->ok[v] = 1;
    }
  }
  return NULL;
}

/* The vertices whose predecessor is wrong: the source's must be -1, an
 * unreached vertex's -1, every other one's the tail of a tight arc. */
static int64_t bad_predecessors(const gsp_gen_csr* c, int32_t source, const int32_t* d, const int32_t* pred,
                                int threads, int32_t* first_bad) {
  unsigned char* ok = (unsigned char*)calloc((size_t)c->n, 1);
  tight_part part[64];
  pthread_t tid[64];
  int started[64], t;
  int64_t bad = 0;
  int32_t v;
  *first_bad = -1;
  if (ok == NULL) return -1;
  if (threads > 64) threads = 64;
  if (threads < 1) threads = 1;
  for (t = 0; t < threads; t++) {
    /* ranges of about m / threads arcs */
    int32_t lo = 0, hi = c->n;
    int64_t want_lo = c->m / threads * t, want_hi = c->m / threads * (t + 1);
    int32_t a = 0, b = c->n;
    while (a < b) {
      int32_t mid = a + (b - a) / 2;
      if (c->offsets[mid] < want_lo)
        a = mid + 1;
      else
        b = mid;
    }
    lo = a;
    a = 0;
    b = c->n;
    while (a < b) {
      int32_t mid = a + (b - a) / 2;
      if (c->offsets[mid] < want_hi)
        a = mid + 1;
      else
        b = mid;
    }
    hi = t == threads - 1 ? c->n : a;
    part[t].c = c;
    part[t].d = d;
    part[t].pred = pred;
    part[t].ok = ok;
    part[t].lo = t == 0 ? 0 : lo;
    part[t].hi = hi;
    started[t] = t > 0 && pthread_create(&tid[t], NULL, tight_scan, &part[t]) == 0;
    if (t > 0 && !started[t]) tight_scan(&part[t]);
  }
  tight_scan(&part[0]);
  for (t = 1; t < threads; t++)
    if (started[t]) pthread_join(tid[t], NULL);
  for (v = 0; v < c->n; v++) {
    const int good = v == source ? pred[v] == -1 : d[v] == GSP_I32_INF ? pred[v] == -1 : ok[v];
    if (!good) {
      if (*first_bad < 0) *first_bad = v;
      bad++;
    }
  }
  free(ok);
  return bad;
}

/* One run of the huge graph; its distances and predecessors into d and p. */
static gsp_status huge_run(const gsp_graph* g, gsp_backend backend, gsp_algorithm algo, int32_t* d, int32_t* p,
                           double* wall_s, gsp_run_info* info) {
  gsp_options o;
  gsp_paths* r = NULL;
  const int32_t n = gsp_graph_num_vertices(g);
  double t0;
  gsp_status s;
  gsp_options_init(&o);
  o.backend = backend;
  o.algorithm = algo;
  o.num_threads = 0;
  t0 = bench_now();
  s = gsp_sssp_run(g, 0, &o, &r);
  *wall_s = bench_now() - t0;
  if (s != GSP_OK) return s;
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  gsp_paths_info(r, info);
  if (d != NULL) s = gsp_paths_distances(r, 0, d, n);
  if (s == GSP_OK && p != NULL) s = gsp_paths_predecessors(r, 0, p, n);
  gsp_paths_destroy(r);
  return s;
}

static int huge(int cuda) {
  const int log2 = env_int("GSP_BENCH_HUGE_LOG2", 26);
  const int degree = env_int("GSP_BENCH_HUGE_DEGREE", 36);
  const int reps = env_int("GSP_BENCH_HUGE_REPS", 3);
  const int32_t n = (int32_t)1 << log2;
  const int64_t m = (int64_t)n * degree;
  const double csr_gb = (8.0 * ((double)n + 1) + 8.0 * (double)m) / 1e9;
  const int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  gsp_gen_csr c;
  gsp_graph* g = NULL;
  gsp_run_info info;
  int32_t *dg = NULL, *pg = NULL, *dc = NULL, *pc = NULL, first = -1;
  double t0, gen_s, create_s, upload_s = NAN, gpu_first_s = NAN, gpu_ms = NAN, gpu_call_ms = NAN, cpu_s = NAN,
                              cpu_engine_s = NAN, check_s = NAN, wall;
  double gpu_t[16];
  int64_t bad_gpu = -1, bad_cpu = -1, gpu_relax = 0;
  int same = -1, i, ok = 1, timed = 0;
  char gpu_algo[40] = "-", gpu_dev[128] = "-", cpu_dev[128] = "-", status[256] = "ok";
  gsp_status s;
  FILE* f;
  printf(
      "\nhuge: R-MAT 2^%d vertices x %d arcs = %lld arcs (%s 2^31), int32 weights; CSR %.1f GB, "
      "host peak about %.1f GB (the generator's CSR kept for the check, libgsp's copy, results), "
      "device about %.1f GB\n",
      log2, degree, (long long)m, m > ((int64_t)1 << 31) ? "past" : "below", csr_gb, 2 * csr_gb + 16.0 * n / 1e9 + 2.0,
      csr_gb + 40.0 * n / 1e9);
  fflush(stdout);
  t0 = bench_now();
  s = gsp_gen_rmat_csr(&c, n, degree, 32, GSP_I32, MAX_WEIGHT);
  gen_s = bench_now() - t0;
  if (s != GSP_OK) {
    printf("huge: generator: %s: %s\n", gsp_status_name(s), *gsp_gen_error() ? gsp_gen_error() : "allocation failed");
    return 1;
  }
  t0 = bench_now();
  s = gsp_gen_csr_graph(&g, &c);
  create_s = bench_now() - t0;
  printf("huge: generated in %.2f s, gsp_graph_create_csr %.2f s (peak RSS %.1f GiB)\n", gen_s, create_s,
         peak_rss_gib());
  fflush(stdout);
  if (s != GSP_OK) {
    printf("huge: gsp_graph_create_csr: %s: %s\n", gsp_status_name(s), gsp_last_error());
    gsp_gen_csr_free(&c);
    return 1;
  }
  dg = (int32_t*)malloc((size_t)n * 4);
  pg = (int32_t*)malloc((size_t)n * 4);
  dc = (int32_t*)malloc((size_t)n * 4);
  pc = (int32_t*)malloc((size_t)n * 4);
  if (!dg || !pg || !dc || !pc) {
    printf("huge: out of memory for the checked rows\n");
    ok = 0;
    goto out;
  }
  if (cuda) {
    s = huge_run(g, GSP_BACKEND_CUDA, GSP_ALGO_AUTO, dg, pg, &wall, &info);
    if (s != GSP_OK) {
      snprintf(status, sizeof status, "CUDA run: %s: %.200s", gsp_status_name(s), gsp_last_error());
      printf("huge: %s\n", status);
      ok = 0;
    } else {
      upload_s = info.upload_seconds;
      gpu_first_s = wall;
      snprintf(gpu_algo, sizeof gpu_algo, "%s", gsp_algorithm_name(info.algorithm));
      snprintf(gpu_dev, sizeof gpu_dev, "%s", info.device_name);
      printf("huge: CUDA %s (AUTO), first call %.3f s: upload %.3f s, engine %.3f s, %.2f relax/arc\n", gpu_algo, wall,
             upload_s, info.seconds, (double)info.relaxations / (double)m);
      fflush(stdout);
      for (i = 0; i < reps && i < 16; i++) {
        double w2;
        gsp_run_info in2;
        if (huge_run(g, GSP_BACKEND_CUDA, GSP_ALGO_AUTO, NULL, NULL, &w2, &in2) != GSP_OK) break;
        gpu_t[timed++] = in2.seconds * 1e3;
        gpu_call_ms = isnan(gpu_call_ms) || w2 * 1e3 < gpu_call_ms ? w2 * 1e3 : gpu_call_ms;
        gpu_relax = in2.relaxations;
      }
      if (timed > 0)
        gpu_ms = bench_median(gpu_t, timed);
      else {
        gpu_ms = info.seconds * 1e3;
        gpu_relax = info.relaxations;
      }
    }
  } else {
    printf("huge: CUDA not usable (%s): the CPU run and its check only\n", gsp_last_error());
  }
  /* The reference: CPU delta-stepping on every core. */
  s = huge_run(g, GSP_BACKEND_CPU, GSP_SSSP_DELTA_STEPPING, dc, pc, &wall, &info);
  if (s != GSP_OK) {
    snprintf(status, sizeof status, "CPU run: %s: %.200s", gsp_status_name(s), gsp_last_error());
    printf("huge: %s\n", status);
    ok = 0;
    goto out;
  }
  cpu_s = wall;
  cpu_engine_s = info.seconds;
  snprintf(cpu_dev, sizeof cpu_dev, "%s", info.device_name);
  printf("huge: CPU delta-stepping (%s) %.3f s (engine %.3f s)\n", cpu_dev, cpu_s, cpu_engine_s);
  fflush(stdout);
  t0 = bench_now();
  bad_cpu = bad_predecessors(&c, 0, dc, pc, threads, &first);
  if (bad_cpu != 0) {
    printf("huge: CPU predecessors: %lld wrong (first at vertex %d)\n", (long long)bad_cpu, first);
    ok = 0;
  }
  if (cuda && !isnan(gpu_first_s)) {
    same = memcmp(dg, dc, (size_t)n * 4) == 0;
    if (!same) {
      int32_t v;
      for (v = 0; v < n && dg[v] == dc[v]; v++) {
      }
      printf("huge: distances differ, first at vertex %d: CUDA %d, CPU %d\n", v, dg[v], dc[v]);
      ok = 0;
    }
    bad_gpu = bad_predecessors(&c, 0, dg, pg, threads, &first);
    if (bad_gpu != 0) {
      printf("huge: CUDA predecessors: %lld wrong (first at vertex %d)\n", (long long)bad_gpu, first);
      ok = 0;
    }
  }
  check_s = bench_now() - t0;
  {
    int64_t reached = 0;
    int32_t v;
    for (v = 0; v < n; v++) reached += dc[v] != GSP_I32_INF;
    printf("huge: check %.2f s: %lld vertices reached; distances %s; predecessors tight: CPU %s, CUDA %s\n", check_s,
           (long long)reached,
           same < 0 ? "not compared"
           : same   ? "equal bit for bit"
                    : "DIFFER",
           bad_cpu == 0 ? "all" : "NO",
           bad_gpu < 0    ? "-"
           : bad_gpu == 0 ? "all"
                          : "NO");
  }
out:
  printf("huge: peak RSS %.1f GiB\n", peak_rss_gib());
  printf("csv,huge,%d,%d,%lld,%.3f,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.2f,%s,%s\n", log2, n, (long long)m, gen_s,
         create_s, upload_s, gpu_first_s, gpu_ms, gpu_call_ms, cpu_s, cpu_engine_s, check_s, peak_rss_gib(), gpu_algo,
         ok ? "ok" : "FAILED");
  fflush(stdout);
  if ((f = open_results()) != NULL) {
    char date[40], cpu[160];
    bench_today(date, sizeof date);
    bench_cpu_name(cpu, sizeof cpu);
    fprintf(f,
            "\n## bench_growth: a graph past 2^31 arcs, %s\n\nR-MAT, 2^%d vertices x %d arcs = %lld arcs, int32 "
            "weights in 1..%d, SSSP from vertex 0 with paths. Device: %s. Host: %s (%ld cores). Built by "
            "gsp_gen_rmat_csr (all cores) and gsp_graph_create_csr; run on CUDA (algorithm AUTO) and checked "
            "against CPU delta-stepping on every core: distances equal bit for bit, every predecessor a tight "
            "arc. CUDA engine: median of %d runs after the first (which uploads the graph); call: the fastest "
            "whole gsp_sssp_run.\n\n",
            date, log2, degree, (long long)m, MAX_WEIGHT, gpu_dev, cpu, sysconf(_SC_NPROCESSORS_ONLN), timed);
    fprintf(f,
            "| generate s | create s | upload s | CUDA first call s | CUDA engine ms | CUDA call ms | CUDA ran | "
            "relax/arc | CPU call s | check s | peak RSS GiB | result |\n");
    fprintf(f, "| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |\n");
    fprintf(f, "| %.2f | %.2f | %.3f | %.3f | %.3f | %.3f | %s | %.2f | %.3f | %.2f | %.1f | %s |\n", gen_s, create_s,
            upload_s, gpu_first_s, gpu_ms, gpu_call_ms, gpu_algo, m > 0 ? (double)gpu_relax / (double)m : 0.0, cpu_s,
            check_s, peak_rss_gib(),
            !ok         ? status
            : same == 1 ? "distances equal, predecessors tight"
                        : "CPU only (no CUDA): predecessors tight");
    fclose(f);
  }
  free(dg);
  free(pg);
  free(dc);
  free(pc);
  gsp_graph_destroy(g);
  gsp_gen_csr_free(&c);
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  const int cuda = gsp_backend_available(GSP_BACKEND_CUDA);
  int failed = 0;
  if (!cuda) printf("CUDA not usable: %s\n", gsp_last_error());
  /* Started first, as a program that runs many searches has it: AUTO then
   * weighs no start-up against the CPU (gsp_device_start). */
  if (cuda) gsp_device_start(0);
  gapbs_load();
  if (env_int("GSP_BENCH_GROWTH", 1)) failed |= growth(argc > 1 ? argv[1] : NULL, cuda);
  if (env_int("GSP_BENCH_HUGE", 0)) failed |= huge(cuda);
  return failed;
}
