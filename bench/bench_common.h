/* Shared by the bench/bench_* programs (C99 and C++): timing, a seeded RNG
 * and graph generators that need only the public API, CSV rows, and the
 * dated markdown tables appended to the file GSP_BENCH_RESULTS names.
 * scripts/bench.sh (make bench) points it at one fragment a program,
 * BUILD/bench/results/<program>.md, under a header of its own (date,
 * device, host, commit), publishes the fragments to bench/results/ and
 * has scripts/results.sh write bench/RESULTS.md from them; a program run
 * by hand writes no table unless GSP_BENCH_RESULTS is set.
 *
 * Timing: every configuration runs once to warm up (module load, graph
 * upload), then GSP_BENCH_REPS times (default 5, at least 5); the engine's
 * own time comes from gsp_paths_info().seconds (CUDA: the engine's run on
 * the device, graph upload excluded), reported as the median. The upload
 * time of the warm-up run is reported separately.
 *
 * Environment:
 *   GSP_BENCH_REPS     timed runs per configuration (>= 5; default 5)
 *   GSP_BENCH_CSV      CSV file to append to (default bench_results.csv in the cwd)
 *   GSP_BENCH_RESULTS  markdown file to append the tables to (unset or "-":
 *                      none; never bench/RESULTS.md, which results.sh writes)
 *   GSP_BENCH_QUICK=1  smaller graphs (smoke runs)
 *   GSP_DATA_DIR       folder holding USA-road-d.NY.gr.gz
 *
 * Host CPU steal: on a virtual machine the hypervisor can take CPUs away
 * (the "steal" column of /proc/stat). A multithreaded CPU engine whose
 * threads meet at barriers slows down many times over when that happens
 * (one run on the lent H100 host: NY delta-stepping 89 ms instead of 5 ms),
 * so every timed configuration records the steal across its timed runs
 * (bench_row.steal_ms, summed over all CPUs) and the tables flag it. */
#ifndef GSP_BENCH_COMMON_H
#define GSP_BENCH_COMMON_H

#if !defined(_POSIX_C_SOURCE) && !defined(__cplusplus)
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gsp/gsp.h"

/* ------------------------------------------------------------- clock, stats */
static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Milliseconds of CPU time stolen from this (virtual) machine so far, summed
 * over all CPUs; 0 where /proc/stat is absent. */
static inline double bench_steal_ms(void) {
  unsigned long long f[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  FILE* fp = fopen("/proc/stat", "r");
  long tick = sysconf(_SC_CLK_TCK);
  if (fp == NULL) return 0;
  if (fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
             &f[7]) != 8) {
    f[7] = 0;
  }
  fclose(fp);
  return tick > 0 ? 1e3 * (double)f[7] / (double)tick : 0;
}

static inline int bench_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

static inline double bench_median(double* v, int k) {
  if (k <= 0) return NAN;
  qsort(v, (size_t)k, sizeof(double), bench_cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static inline int bench_reps(void) {
  const char* e = getenv("GSP_BENCH_REPS");
  int r = e ? atoi(e) : 5;
  return r < 5 ? 5 : r;
}

static inline int bench_quick(void) {
  const char* e = getenv("GSP_BENCH_QUICK");
  return e != NULL && atoi(e) != 0;
}

/* ------------------------------------------------------------- RNG, graphs */
typedef struct {
  uint64_t s;
} bench_rng;
static inline uint64_t bench_next(bench_rng* r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline int32_t bench_below(bench_rng* r, int64_t k) { return (int32_t)(bench_next(r) % (uint64_t)k); }

/* "i32", "f32" or "f64". */
static inline const char* bench_dtype_name(gsp_dtype dt) {
  return dt == GSP_I32 ? "i32" : dt == GSP_F64 ? "f64" : "f32";
}

/* Builds a graph from integer arcs (weights exact in float as well). */
static inline gsp_graph* bench_graph_from_arcs(int32_t n, int64_t m, const int32_t* src, const int32_t* dst,
                                               const int32_t* w, gsp_dtype dt) {
  gsp_graph* g = NULL;
  gsp_status s;
  if (dt == GSP_I32) {
    s = gsp_graph_create(&g, n, m, src, dst, w, GSP_I32, 0);
  } else if (dt == GSP_F64) {
    double* wd = (double*)malloc((size_t)(m ? m : 1) * sizeof(double));
    int64_t k;
    if (wd == NULL) return NULL;
    for (k = 0; k < m; k++) wd[k] = (double)w[k];
    s = gsp_graph_create(&g, n, m, src, dst, wd, GSP_F64, 0);
    free(wd);
  } else {
    float* wf = (float*)malloc((size_t)(m ? m : 1) * sizeof(float));
    int64_t k;
    if (wf == NULL) return NULL;
    for (k = 0; k < m; k++) wf[k] = (float)w[k];
    s = gsp_graph_create(&g, n, m, src, dst, wf, GSP_F32, 0);
    free(wf);
  }
  if (s != GSP_OK) {
    fprintf(stderr, "graph create: %s: %s\n", gsp_status_name(s), gsp_last_error());
    return NULL;
  }
  return g;
}

/* Random graph of the seeds (Graph4096, Graph65536): every vertex has
 * `degree` out-arcs to uniform random heads, integer weights in [1, maxw]. */
static inline gsp_graph* bench_random_graph(int32_t n, int degree, int32_t maxw, uint64_t seed, gsp_dtype dt) {
  const int64_t m = (int64_t)n * degree;
  int32_t* s = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* d = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* w = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  bench_rng r = {seed};
  int64_t k;
  gsp_graph* g = NULL;
  if (s && d && w) {
    for (k = 0; k < m; k++) {
      s[k] = (int32_t)(k / degree);
      d[k] = bench_below(&r, n);
      w[k] = 1 + bench_below(&r, maxw);
    }
    g = bench_graph_from_arcs(n, m, s, d, w, dt);
  }
  free(s);
  free(d);
  free(w);
  return g;
}

/* R-MAT (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), 2^scale vertices, m arcs,
 * integer weights in [1, maxw]. */
static inline gsp_graph* bench_rmat_graph(int scale, int64_t m, int32_t maxw, uint64_t seed, gsp_dtype dt) {
  const int32_t n = (int32_t)1 << scale;
  int32_t* s = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* d = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  int32_t* w = (int32_t*)malloc((size_t)m * sizeof(int32_t));
  bench_rng r = {seed};
  int64_t k;
  gsp_graph* g = NULL;
  if (s && d && w) {
    for (k = 0; k < m; k++) {
      int32_t u = 0, v = 0;
      int b;
      for (b = 0; b < scale; b++) {
        uint32_t q = (uint32_t)(bench_next(&r) % 100u);
        if (q < 57) {
        } else if (q < 76) {
          v |= 1 << b;
        } else if (q < 95) {
          u |= 1 << b;
        } else {
          u |= 1 << b;
          v |= 1 << b;
        }
      }
      s[k] = u;
      d[k] = v;
      w[k] = 1 + bench_below(&r, maxw);
    }
    g = bench_graph_from_arcs(n, m, s, d, w, dt);
  }
  free(s);
  free(d);
  free(w);
  return g;
}

/* k source vertices spread evenly over the ids: i * n / k + offset (mod n). */
static inline int32_t* bench_spread(int32_t n, int32_t k, int32_t offset) {
  int32_t* s = (int32_t*)malloc((size_t)(k > 0 ? k : 1) * sizeof(int32_t));
  int32_t i;
  if (!s) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (i = 0; i < k; i++) s[i] = (int32_t)(((int64_t)i * n / k + offset) % n);
  return s;
}

/* The DIMACS NY road graph, int32 weights, from $GSP_DATA_DIR (default
 * ../shared/data); NULL when it cannot be loaded, after a line on stdout
 * saying it is skipped and why (gsp_last_error() still holds the reason). */
static inline gsp_graph* bench_load_ny(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char path[1024];
  gsp_graph* g = NULL;
  snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
  if (gsp_graph_load(&g, path, GSP_FORMAT_AUTO, GSP_I32, 0) != GSP_OK) {
    printf("NY road graph skipped (%s): %s\n", path, gsp_last_error());
    return NULL;
  }
  return g;
}

/* ------------------------------------------------------------- one configuration */
typedef struct {
  char graph[48];
  char dtype[8];
  char engine[40];
  char backend[8];
  char device[128];
  int32_t n;
  int64_t m;
  double median_ms;
  double min_ms;
  double upload_ms;
  int64_t iterations;
  int reps;
  gsp_status status;
  double steal_ms; /* host CPU steal during the timed runs (all CPUs) */
  double call_ms;  /* median wall time of the call as a user makes it (result in host memory; not freed) */
  char note[160];
} bench_row;

/* Runs past the deadline are cancelled through the progress callback
 * (GSP_BENCH_DEADLINE seconds per run, default 20), so one slow engine
 * cannot eat the whole benchmark. */
static double bench_deadline_at = 0;
static inline int bench_deadline_cb(void* user, double fraction) {
  (void)user;
  (void)fraction;
  return bench_now() > bench_deadline_at ? 1 : 0;
}
static inline double bench_deadline_seconds(void) {
  const char* e = getenv("GSP_BENCH_DEADLINE");
  double d = e ? atof(e) : 20.0;
  return d > 0 ? d : 20.0;
}

/* One timed gsp_sssp_run: its status, *wall_ms the whole call and, when
 * GSP_OK, *info its run info (*paths then the caller's to destroy). */
static inline gsp_status bench_sssp_once(const gsp_graph* g, int32_t source, const gsp_options* o, gsp_paths** paths,
                                         double* wall_ms, gsp_run_info* info) {
  double t0 = bench_now();
  gsp_status st;
  *paths = NULL;
  st = gsp_sssp_run(g, source, o, paths);
  *wall_ms = (bench_now() - t0) * 1e3;
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  if (st == GSP_OK) gsp_paths_info(*paths, info);
  return st;
}

/* Times gsp_sssp_run for one (graph, source, backend, algorithm): one warm-up,
 * then bench_reps() timed runs. Fills row (status != GSP_OK when it failed). */
/* Times gsp_sssp_run with `base` (its progress callback is replaced by the
 * deadline); the row's engine is `label`, or the algorithm's name when NULL. */
static inline void bench_time_sssp_options(const gsp_graph* g, int32_t source, const gsp_options* base,
                                           const char* label, const char* graph_name, bench_row* row) {
  gsp_options o = *base;
  gsp_paths* p = NULL;
  gsp_run_info info;
  double t[64], wall[64], t0;
  int reps = bench_reps(), i;
  if (reps > 64) reps = 64;
  memset(row, 0, sizeof *row);
  snprintf(row->graph, sizeof row->graph, "%s", graph_name);
  snprintf(row->dtype, sizeof row->dtype, "%s", bench_dtype_name(gsp_graph_weight_type(g)));
  snprintf(row->engine, sizeof row->engine, "%s", label ? label : gsp_algorithm_name(o.algorithm));
  snprintf(row->backend, sizeof row->backend, "%s", gsp_backend_name(o.backend));
  row->n = gsp_graph_num_vertices(g);
  row->m = gsp_graph_num_edges(g);
  row->median_ms = row->min_ms = row->upload_ms = NAN;
  o.progress = bench_deadline_cb;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  bench_deadline_at = bench_now() + bench_deadline_seconds();
  row->status = gsp_sssp_run(g, source, &o, &p);
  if (row->status != GSP_OK) {
    snprintf(row->note, sizeof row->note, "%s", gsp_last_error());
    return;
  }
  gsp_paths_info(p, &info);
  row->upload_ms = info.upload_seconds * 1e3;
  snprintf(row->device, sizeof row->device, "%s", info.device_name);
  gsp_paths_destroy(p);
  row->steal_ms = bench_steal_ms();
  for (i = 0; i < reps; i++) {
    p = NULL;
    bench_deadline_at = bench_now() + bench_deadline_seconds();
    t0 = bench_now();
    row->status = gsp_sssp_run(g, source, &o, &p);
    wall[i] = (bench_now() - t0) * 1e3;
    if (row->status != GSP_OK) {
      snprintf(row->note, sizeof row->note, "%s", gsp_last_error());
      return;
    }
    gsp_paths_info(p, &info);
    t[i] = info.seconds * 1e3;
    row->iterations = info.iterations;
    gsp_paths_destroy(p);
  }
  row->steal_ms = bench_steal_ms() - row->steal_ms;
  row->reps = reps;
  row->median_ms = bench_median(t, reps);
  row->call_ms = bench_median(wall, reps);
  row->min_ms = t[0];
}

/* One engine with its defaults, on all cores. */
static inline void bench_time_sssp(const gsp_graph* g, int32_t source, gsp_backend backend, gsp_algorithm algo,
                                   const char* graph_name, bench_row* row) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = backend;
  o.algorithm = algo;
  o.num_threads = 0; /* all cores */
  bench_time_sssp_options(g, source, &o, NULL, graph_name, row);
}

/* ------------------------------------------------------------- output */
static inline void bench_today(char* buf, size_t size) {
  time_t now = time(NULL);
  struct tm tmv;
  gmtime_r(&now, &tmv);
  strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tmv);
}

static inline const char* bench_csv_path(void) {
  const char* e = getenv("GSP_BENCH_CSV");
  return e ? e : "bench_results.csv";
}

static inline void bench_csv_append(const char* bench, const bench_row* rows, int k) {
  const char* path = bench_csv_path();
  FILE* f = fopen(path, "r");
  int fresh = f == NULL;
  char date[40];
  int i;
  if (f) fclose(f);
  f = fopen(path, "a");
  if (f == NULL) {
    fprintf(stderr, "cannot write %s\n", path);
    return;
  }
  if (fresh)
    fprintf(f, "date,bench,graph,n,m,dtype,engine,backend,device,median_ms,min_ms,upload_ms,iterations,reps,status\n");
  bench_today(date, sizeof date);
  for (i = 0; i < k; i++) {
    const bench_row* r = &rows[i];
    fprintf(f, "%s,%s,%s,%d,%lld,%s,%s,%s,\"%s\",%.4f,%.4f,%.4f,%lld,%d,%s\n", date, bench, r->graph, r->n,
            (long long)r->m, r->dtype, r->engine, r->backend, r->device, r->median_ms, r->min_ms, r->upload_ms,
            (long long)r->iterations, r->reps, gsp_status_name(r->status));
  }
  fclose(f);
}

/* The file to append the markdown tables to (GSP_BENCH_RESULTS), or NULL for
 * none: unset, empty or "-". */
static inline const char* bench_results_path(void) {
  const char* e = getenv("GSP_BENCH_RESULTS");
  return e == NULL || e[0] == '\0' || strcmp(e, "-") == 0 ? NULL : e;
}

static inline void bench_cpu_name(char* buf, size_t size) {
  FILE* f = fopen("/proc/cpuinfo", "r");
  char line[256];
  snprintf(buf, size, "unknown CPU");
  if (f == NULL) return;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) == 0) {
      char* c = strchr(line, ':');
      if (c) {
        size_t l;
        c += 2;
        l = strlen(c);
        if (l && c[l - 1] == '\n') c[l - 1] = 0;
        snprintf(buf, size, "%s", c);
      }
      break;
    }
  }
  fclose(f);
}

#endif
