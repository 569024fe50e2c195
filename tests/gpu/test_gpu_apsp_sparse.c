/* The sparse APSP engines on CUDA (GSP_APSP_HEAP, GSP_APSP_TASK_PARALLEL,
 * GSP_APSP_DELTA_STEPPING, GSP_APSP_SPMM) against the CPU's repeated Dijkstra, on every
 * shape of testing.h and every weight type (i32, f32, f64): distances equal, predecessors
 * consistent, sampled paths checked arc by arc; source subsets (K = 1, 2,
 * 31, 32, 33, 1000 with repeats for the batched engines); gsp_apsp_stream
 * order; cancellation;
 * a small device memory limit forcing many batches gives identical results;
 * SpMM with in-arc lists of more than 4 arcs split over warps
 * (GSP_CUDA_SPMM_HUB_ARCS=4, so the hub path runs on these small graphs);
 * negative weights, int32 overflow and a too-small budget are refused;
 * GSP_F64 weights float cannot hold (integers of 1e8..2e8, exact, and
 * weights times 1e40, against the CPU engine's GSP_F64 result).
 * GSP_TEST_SMALL=1 keeps sizes small (for compute-sanitizer); 3 also keeps
 * two shapes only (racecheck tracks every shared-memory access: slow). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "gpu/f64_check.h"
#include "gpu/pred_check.h"
#include "tuning_hook.h"

static int g_small = 0;

#define NUM_ENGINES 4
static const gsp_algorithm k_engines[NUM_ENGINES] = {GSP_APSP_HEAP, GSP_APSP_TASK_PARALLEL, GSP_APSP_DELTA_STEPPING,
                                                     GSP_APSP_SPMM};

static gsp_options cuda_opts(gsp_algorithm algo) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  return o;
}

/* The CPU reference: all rows, distances as int64 (T_INF_REF unreachable). */
static int64_t* cpu_reference(const t_arcs* a, gsp_dtype dtype) {
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o;
  gsp_paths* p = NULL;
  int64_t* ref = (int64_t*)malloc((size_t)a->n * (size_t)a->n * sizeof(int64_t));
  void* row = malloc((size_t)a->n * t_dist_bytes(dtype));
  int32_t s, v;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_APSP_HEAP;
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
  for (s = 0; s < a->n; s++) {
    CHECK_OK(gsp_paths_distances(p, s, row, a->n));
    for (v = 0; v < a->n; v++) {
      const double x = t_dist_at(row, dtype, v); /* integer weights: exact in every type */
      ref[(int64_t)s * a->n + v] = isinf(x) ? T_INF_REF : (int64_t)x;
    }
  }
  /* Spot-check the reference itself against naive Bellman-Ford. */
  {
    int64_t* bf = (int64_t*)malloc((size_t)a->n * sizeof(int64_t));
    for (s = 0; s<a->n; s += a->n> 8 ? a->n / 4 : 1) {
      t_ref_bellman_ford(a, s, bf);
      CHECK(memcmp(bf, &ref[(int64_t)s * a->n], (size_t)a->n * sizeof(int64_t)) == 0,
            "%s: CPU reference row %d differs from Bellman-Ford", a->name, s);
    }
    free(bf);
  }
  free(row);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  return ref;
}

/* Checks row `index` of p (source s) against ref row s: distances exact,
 * pred[s] == -1, pred == -1 exactly where unreachable. Returns mismatches. */
static int check_row(const gsp_paths* p, const t_arcs* a, gsp_dtype dtype, int32_t s, const int64_t* ref_row, int paths,
                     const char* what) {
  int bad = t_compare_row(p, dtype, s, ref_row, a->n, 1.0f, what);
  if (paths) {
    int32_t* pred = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
    int32_t v;
    gsp_status st = gsp_paths_predecessors(p, s, pred, a->n);
    if (st != GSP_OK) {
      fprintf(stderr, "%s: predecessors(%d): %s %s\n", what, s, gsp_status_name(st), gsp_last_error());
      bad++;
    } else {
      for (v = 0; v < a->n; v++) {
        int want_none = v == s || ref_row[v] == T_INF_REF;
        int ok = want_none ? pred[v] == -1 : (pred[v] >= 0 && pred[v] < a->n);
        if (!ok) {
          if (bad < 5) fprintf(stderr, "%s: pred(%d,%d) = %d\n", what, s, v, pred[v]);
          bad++;
        }
      }
    }
    free(pred);
  }
  return bad;
}

/* Sampled paths, arc by arc. */
static void check_paths(const gsp_paths* p, const t_arcs* a, const int64_t* ref, const int32_t* srcs, int32_t ns,
                        int samples, uint64_t seed, const char* what) {
  t_rng r = {seed};
  int k;
  for (k = 0; k < samples; k++) {
    int32_t s = srcs[t_below(&r, ns)];
    int32_t t = t_below(&r, a->n);
    CHECK(t_check_path(p, a, s, t, ref[(int64_t)s * a->n + t], what) == 0, "%s: path %d->%d", what, s, t);
  }
}

/* ------------------------------------------------------- all pairs */
static void test_all_pairs(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  char what[160];
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  gsp_paths* p = NULL;
  gsp_status st;
  snprintf(what, sizeof what, "%s/%s/%s", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype));
  st = gsp_apsp_run(g, NULL, 0, &o, &p);
  CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
  if (st == GSP_OK) {
    int32_t s, bad = 0, *all = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
    gsp_run_info info;
    for (s = 0; s < a->n; s++) {
      all[s] = s;
      bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], 1, what);
    }
    CHECK(bad == 0, "%s: %d mismatches", what, bad);
    check_paths(p, a, ref, all, a->n, g_small ? 20 : 60, 99, what);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == algo && info.has_paths == 1,
          "%s: info backend %d algorithm %d paths %u", what, (int)info.backend, (int)info.algorithm, info.has_paths);
    free(all);
  }
  gsp_paths_destroy(p);

  /* Distances only. */
  o.flags = GSP_NO_PATHS;
  p = NULL;
  st = gsp_apsp_run(g, NULL, 0, &o, &p);
  CHECK(st == GSP_OK, "%s no-paths: %s %s", what, gsp_status_name(st), gsp_last_error());
  if (st == GSP_OK) {
    int32_t s, bad = 0, len = 0;
    for (s = 0; s < a->n; s += 1 + a->n / 16) bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], 0, what);
    CHECK(bad == 0, "%s no-paths: %d mismatches", what, bad);
    CHECK_STATUS(gsp_path_get(p, 0, a->n - 1, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
  }
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- sources subset */
static void test_subset(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  char what[160];
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  gsp_paths* p = NULL;
  t_rng r = {1234};
  int32_t ns = a->n < 37 ? a->n : 37, i, srcs[37];
  gsp_status st;
  snprintf(what, sizeof what, "%s/%s/%s subset", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype));
  for (i = 0; i < ns; i++) srcs[i] = t_below(&r, a->n);
  srcs[ns - 1] = srcs[0]; /* a repeated source */
  st = gsp_apsp_run(g, srcs, ns, &o, &p);
  CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
  if (st == GSP_OK) {
    int bad = 0;
    CHECK(gsp_paths_num_sources(p) == ns, "%s: %d rows", what, gsp_paths_num_sources(p));
    for (i = 0; i < ns; i++) {
      CHECK(gsp_paths_source(p, i) == srcs[i], "%s: row %d source %d", what, i, gsp_paths_source(p, i));
      bad += check_row(p, a, dtype, srcs[i], &ref[(int64_t)srcs[i] * a->n], 1, what);
    }
    CHECK(bad == 0, "%s: %d mismatches", what, bad);
    check_paths(p, a, ref, srcs, ns, 30, 7, what);
  }
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- source counts */
/* K sources drawn with repeats (K = 1000 > n repeats every vertex), the
 * first one also last: every row and sampled paths against the reference,
 * with and without paths. */
static void test_source_counts(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  static const int32_t counts[] = {1, 2, 31, 32, 33, 1000};
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  size_t c;
  for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    const int32_t ns = counts[c];
    int32_t* srcs = (int32_t*)malloc((size_t)ns * sizeof(int32_t));
    t_rng r = {77 + (uint64_t)ns};
    char what[160];
    int32_t i;
    int np;
    for (i = 0; i < ns; i++) srcs[i] = t_below(&r, a->n);
    srcs[ns - 1] = srcs[0];
    for (np = 0; np < 2; np++) {
      gsp_paths* p = NULL;
      gsp_status st;
      snprintf(what, sizeof what, "%s/%s/%s K=%d%s", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype), ns,
               np ? " no-paths" : "");
      o.flags = np ? GSP_NO_PATHS : 0;
      st = gsp_apsp_run(g, srcs, ns, &o, &p);
      CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
      if (st == GSP_OK) {
        int bad = 0;
        CHECK(gsp_paths_num_sources(p) == ns, "%s: %d rows", what, gsp_paths_num_sources(p));
        for (i = 0; i < ns; i++) bad += check_row(p, a, dtype, srcs[i], &ref[(int64_t)srcs[i] * a->n], !np, what);
        CHECK(bad == 0, "%s: %d mismatches", what, bad);
        if (!np) check_paths(p, a, ref, srcs, ns, g_small ? 20 : 100, 3 + (uint64_t)ns, what);
      }
      gsp_paths_destroy(p);
    }
    free(srcs);
  }
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- streaming */
typedef struct {
  const t_arcs* a;
  gsp_dtype dtype;
  const int64_t* ref;
  const int32_t* srcs;
  int32_t next, calls, bad, stop_after;
} stream_ctx;

static int on_rows(void* user, int32_t first, int32_t num_rows, const void* dist, const int32_t* pred) {
  stream_ctx* c = (stream_ctx*)user;
  int32_t i, v, n = c->a->n;
  c->calls++;
  if (first != c->next || num_rows < 1) c->bad++;
  for (i = 0; i < num_rows; i++) {
    int32_t s = c->srcs ? c->srcs[first + i] : first + i;
    const int64_t* want = &c->ref[(int64_t)s * n];
    for (v = 0; v < n; v++) {
      const double x = t_dist_at(dist, c->dtype, (int64_t)i * n + v);
      const int64_t got = isinf(x) ? T_INF_REF : (int64_t)x;
      if (got != want[v]) c->bad++;
      if (pred != NULL) {
        int32_t pv = pred[(int64_t)i * n + v];
        if ((v == s || want[v] == T_INF_REF) ? pv != -1 : (pv < 0 || pv >= n)) c->bad++;
      }
    }
  }
  c->next = first + num_rows;
  return c->stop_after > 0 && c->calls >= c->stop_after;
}

static void test_stream(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  stream_ctx c;
  int32_t srcs[50], i, ns = a->n < 50 ? a->n : 50;
  gsp_status st;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.dtype = dtype;
  c.ref = ref;
  st = gsp_apsp_stream(g, NULL, 0, &o, on_rows, &c);
  CHECK(st == GSP_OK, "stream %s/%s/%s: %s %s", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype),
        gsp_status_name(st), gsp_last_error());
  CHECK(c.next == a->n && c.bad == 0, "stream %s/%s/%s: %d rows, %d bad", gsp_algorithm_name(algo), a->name,
        t_dtype_name(dtype), c.next, c.bad);

  for (i = 0; i < ns; i++) srcs[i] = (i * 7919) % a->n;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.dtype = dtype;
  c.ref = ref;
  c.srcs = srcs;
  o.flags = GSP_NO_PATHS;
  st = gsp_apsp_stream(g, srcs, ns, &o, on_rows, &c);
  CHECK(st == GSP_OK, "stream subset %s/%s/%s: %s %s", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype),
        gsp_status_name(st), gsp_last_error());
  CHECK(c.next == ns && c.bad == 0, "stream subset %s/%s/%s: %d rows, %d bad", gsp_algorithm_name(algo), a->name,
        t_dtype_name(dtype), c.next, c.bad);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- batching, cancel */
typedef struct {
  int calls, cancel_above_zero;
  double last;
} progress_ctx;

static int on_progress(void* user, double f) {
  progress_ctx* c = (progress_ctx*)user;
  c->calls++;
  c->last = f;
  return c->cancel_above_zero && f > 0.0 && f < 1.0;
}

static void test_batches(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  char what[160];
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  gsp_paths* p = NULL;
  progress_ctx pc;
  gsp_status st;
  /* The tightest budget (in steps of a quarter of a batch unit) that runs:
   * one source per batch for the heap engine, 32 problems for task-parallel,
   * one copy of the labels (about 56 bytes a vertex) for delta-stepping, a
   * 32-column tile and one row (33 x 8 bytes a vertex) for SpMM. */
  size_t unit = algo == GSP_APSP_HEAP             ? (size_t)a->n * 20 + 4
                : algo == GSP_APSP_DELTA_STEPPING ? (size_t)a->n * 56 + 4
                : algo == GSP_APSP_SPMM           ? (size_t)a->n * 40 + 4096
                                                  : (size_t)32 * ((size_t)a->n * 14 + 128);
  /* SpMM's fixed needs are a few KiB: start from nothing, so that n = 40
   * (GSP_TEST_SMALL) still needs several passes. */
  const size_t base = algo == GSP_APSP_SPMM ? 0 : (size_t)64 << 10;
  size_t limit = 0;
  int j;
  snprintf(what, sizeof what, "%s/%s/%s batched", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype));
  st = GSP_ERR_DEVICE_OUT_OF_MEMORY;
  for (j = 1; j <= 64 && st == GSP_ERR_DEVICE_OUT_OF_MEMORY; j++) {
    gsp_paths_destroy(p);
    p = NULL;
    memset(&pc, 0, sizeof pc);
    limit = base + (size_t)j * (unit / 4 + 1024);
    o.device_memory_limit = limit;
    o.progress = on_progress;
    o.progress_user = &pc;
    st = gsp_apsp_run(g, NULL, 0, &o, &p);
  }
  CHECK(st == GSP_OK, "%s: %s %s (limit %zu)", what, gsp_status_name(st), gsp_last_error(), limit);
  if (st == GSP_OK) {
    int32_t s, bad = 0;
    for (s = 0; s < a->n; s++) bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], 1, what);
    CHECK(bad == 0, "%s: %d mismatches", what, bad);
    CHECK(pc.calls >= 4, "%s: only %d progress calls (batches not forced?)", what, pc.calls);
    CHECK(pc.last == 1.0, "%s: last progress %g", what, pc.last);
    {
      int32_t all[1];
      all[0] = 0;
      check_paths(p, a, ref, all, 1, 10, 5, what);
    }
  }
  gsp_paths_destroy(p);

  /* Cancelled between batches. */
  memset(&pc, 0, sizeof pc);
  pc.cancel_above_zero = 1;
  p = NULL;
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_CANCELLED);
  CHECK(p == NULL, "%s: result after cancel", what);

  /* A budget too small for one batch. */
  o.progress = NULL;
  o.device_memory_limit = 4096;
  p = NULL;
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_DEVICE_OUT_OF_MEMORY);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------ a result array's first uses */
/* A large result array comes new in the first run (faulted in and
 * page-locked on a host thread beside the passes, whose rows wait on the
 * device for it: pass_pipeline.cuh) and from the result-buffer cache in the
 * runs after (ready at once). Four runs in a row, each result destroyed
 * before the next takes its array back (n = 2048 with paths: 32 MiB, a
 * mapped buffer), the array made ready on a thread whatever its size
 * (GSP_TEST_RESULT_READY_DELAY_MS), every row against the reference. */
static void test_result_uses(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  char what[160];
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  int use, pieces;
  t_tuning("GSP_TEST_RESULT_READY_DELAY_MS", "1"); /* the array made ready on a thread whatever its size */
  /* Locked in pieces of 64 MiB (the arrays fit one or two), then of 64 KiB
   * (GSP_TEST_LOCK_PIECE_KB: every pass's copies cross pieces). */
  for (pieces = 0; pieces < 2; pieces++) {
    t_tuning("GSP_TEST_LOCK_PIECE_KB", pieces == 1 ? "64" : NULL);
    for (use = 1; use <= 4; use++) {
      gsp_paths* p = NULL;
      int32_t s, bad = 0;
      snprintf(what, sizeof what, "%s/%s/%s result array%s, use %d", gsp_algorithm_name(algo), a->name,
               t_dtype_name(dtype), pieces == 1 ? " in 64 KiB pieces" : "", use);
      CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
      for (s = 0; p != NULL && s < a->n; s++) bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], 1, what);
      CHECK(p != NULL && bad == 0, "%s: %d mismatches", what, bad);
      gsp_paths_destroy(p);
    }
  }
  t_tuning("GSP_TEST_LOCK_PIECE_KB", NULL);
  t_tuning("GSP_TEST_RESULT_READY_DELAY_MS", NULL);
  {
    /* The arrays locked in pieces are back in the result-buffer cache: an
     * engine that copies whole (Floyd-Warshall's rows) must not get them
     * (the driver refuses a copy across two pieces). */
    gsp_options f = cuda_opts(GSP_APSP_FLOYD_WARSHALL);
    gsp_paths* p = NULL;
    int32_t s, bad = 0;
    snprintf(what, sizeof what, "floyd-warshall/%s/%s after arrays locked in pieces", a->name, t_dtype_name(dtype));
    CHECK(gsp_apsp_run(g, NULL, 0, &f, &p) == GSP_OK, "%s: %s", what, gsp_last_error());
    for (s = 0; p != NULL && s < a->n; s++) bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], 1, what);
    CHECK(p != NULL && bad == 0, "%s: %d mismatches", what, bad);
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- rows held on the device */
/* The pass-based engines (delta-stepping, SpMM) make a large result array
 * ready on a host thread beside their first passes and hold the rows of
 * the passes that end before it on the device (pass_pipeline.cuh). Forced
 * here whatever the size (GSP_TEST_RESULT_READY_DELAY_MS: the array ready
 * 150 ms late; passes of 32 sources where the engine takes the setting):
 * every row against the reference, with and without paths, into the result
 * and into caller arrays; then with a budget that leaves no room to hold
 * (the passes wait for the array instead). */
static void test_held_rows(const t_arcs* a, gsp_dtype dtype, const int64_t* ref, gsp_algorithm algo) {
  char what[160];
  gsp_graph* g = t_graph(a, dtype, 1.0f);
  gsp_options o = cuda_opts(algo);
  const size_t wb = dtype == GSP_F64 ? 8 : 4;
  void* into = malloc((size_t)a->n * (size_t)a->n * wb);
  void* row = malloc((size_t)a->n * wb);
  int round;
  t_tuning("GSP_TEST_RESULT_READY_DELAY_MS", "150");
  t_tuning("GSP_CUDA_BATCH_SOURCES", "32");
  for (round = 0; round < 3; round++) {
    gsp_paths* p = NULL;
    gsp_status st;
    int32_t s, bad = 0;
    o.flags = round == 1 ? GSP_NO_PATHS : 0;
    o.device_memory_limit = 0;
    if (round == 2) { /* the tightest budget that runs: no room to hold */
      int j;
      st = GSP_ERR_DEVICE_OUT_OF_MEMORY;
      for (j = 1; j <= 256 && st == GSP_ERR_DEVICE_OUT_OF_MEMORY; j++) {
        gsp_paths_destroy(p);
        p = NULL;
        o.device_memory_limit = ((size_t)64 << 10) + (size_t)j * ((size_t)a->n * 16 + 1024);
        st = gsp_apsp_run(g, NULL, 0, &o, &p);
      }
    } else {
      st = gsp_apsp_run(g, NULL, 0, &o, &p);
    }
    snprintf(what, sizeof what, "%s/%s/%s rows held (%s)", gsp_algorithm_name(algo), a->name, t_dtype_name(dtype),
             round == 0   ? "paths"
             : round == 1 ? "no paths"
                          : "no room");
    CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
    if (st == GSP_OK) {
      for (s = 0; s < a->n; s++) bad += check_row(p, a, dtype, s, &ref[(int64_t)s * a->n], round != 1, what);
      CHECK(bad == 0, "%s: %d mismatches", what, bad);
      if (round == 0) {
        /* The same rows into caller arrays (no predecessors). */
        int32_t diff = 0;
        CHECK_OK(gsp_apsp_run_into(g, NULL, 0, &o, into, NULL, NULL));
        for (s = 0; s < a->n; s++) {
          CHECK_OK(gsp_paths_distances(p, s, row, a->n));
          diff += memcmp(row, (const char*)into + (size_t)s * (size_t)a->n * wb, (size_t)a->n * wb) != 0;
        }
        CHECK(diff == 0, "%s: gsp_apsp_run_into differs in %d rows", what, diff);
      }
    }
    gsp_paths_destroy(p);
  }
  t_tuning("GSP_CUDA_BATCH_SOURCES", NULL);
  t_tuning("GSP_TEST_RESULT_READY_DELAY_MS", NULL);
  free(into);
  free(row);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- f64 weights */
/* GSP_F64 weights float cannot hold, on every engine: a's arcs with
 * integer weights of 1e8..2e8 (exact: every row, predecessors and sampled
 * paths against the int64 reference, through test_all_pairs) and a's
 * weights times 1e40 (every row against the CPU engine's GSP_F64 result,
 * every predecessor a tight arc, with and without a budget that forces
 * batches). */
static void test_f64_weights(const t_arcs* a) {
  t_arcs big;
  int64_t* ref;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* cpu = NULL;
  double slack;
  int e, lim;
  t_f64_big_arcs(a, &big, 601u);
  ref = cpu_reference(&big, GSP_F64);
  for (e = 0; e < NUM_ENGINES; e++) test_all_pairs(&big, GSP_F64, ref, k_engines[e]);
  free(ref);
  t_arcs_free(&big);
  g = t_f64_scaled_graph(a, 1e40);
  slack = t_f64_slack(g);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_APSP_HEAP;
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &cpu));
  for (e = 0; e < NUM_ENGINES && cpu != NULL; e++) {
    for (lim = 0; lim < 2; lim++) {
      gsp_paths* p = NULL;
      char what[160];
      gsp_status st;
      o = cuda_opts(k_engines[e]);
      /* about a third of the batch unit of test_batches, f64-sized */
      o.device_memory_limit = lim ? (size_t)a->n * 2048 + ((size_t)256 << 10) : 0;
      snprintf(what, sizeof what, "%s/%s/f64-1e40%s", gsp_algorithm_name(k_engines[e]), a->name, lim ? " limited" : "");
      st = gsp_apsp_run(g, NULL, 0, &o, &p);
      if (lim && st == GSP_ERR_DEVICE_OUT_OF_MEMORY) {
        gsp_paths_destroy(p);
        continue; /* the limit is a guess; test_batches finds the tightest one */
      }
      CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
      if (st == GSP_OK) {
        int32_t s, bad = 0;
        for (s = 0; s < a->n; s++) {
          bad += t_f64_compare_row(p, cpu, s, a->n, slack, what) != 0;
          if (s % 16 == 0) bad += check_pred_csr(g, p, s, GSP_F64, what) != 0;
        }
        CHECK(bad == 0, "%s: %d rows differ from the CPU engine or have bad predecessors", what, bad);
      }
      gsp_paths_destroy(p);
    }
  }
  gsp_paths_destroy(cpu);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------- refusals */
static void test_refusals(gsp_algorithm algo) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o = cuda_opts(algo);
  gsp_paths* p = NULL;
  int32_t src[3] = {0, 1, 2}, dst[3] = {1, 2, 3}, w[3] = {2000000000, 2000000000, 5};
  t_make_shape(&a, T_DAG_NEGATIVE, 30, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_NEGATIVE_WEIGHT);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  CHECK_OK(gsp_graph_create(&g, 4, 3, src, dst, w, GSP_I32, 0));
  p = NULL;
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  t_check_float_overflow(GSP_BACKEND_CUDA, algo, 0, 0);
}

int main(void) {
  const char* env = getenv("GSP_TEST_SMALL");
  int shape, d, e;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  g_small = env != NULL && atoi(env) != 0;
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    t_arcs a;
    int32_t n;
    if (shape == T_DAG_NEGATIVE) continue;
    if (env != NULL && atoi(env) >= 3 && shape != T_RANDOM_SPARSE && shape != T_ZERO_WEIGHTS) continue;
    n = g_small ? 40 : 300;
    if (!g_small && shape == T_POWER_LAW) n = 2048; /* hubs of degree in the hundreds */
    if (!g_small && shape == T_RING) n = 1000;
    t_make_shape(&a, shape, n, 11);
    for (d = 0; d < T_NUM_DTYPES; d++) {
      const gsp_dtype dtype = t_dtypes[d];
      int64_t* ref;
      if (!t_in_shard()) continue; /* GSP_TEST_SHARD: one (shape, type) a case */
      ref = cpu_reference(&a, dtype);
      for (e = 0; e < NUM_ENGINES; e++) {
        test_all_pairs(&a, dtype, ref, k_engines[e]);
        test_subset(&a, dtype, ref, k_engines[e]);
        if (shape == T_RANDOM_SPARSE || shape == T_POWER_LAW || shape == T_ZERO_WEIGHTS)
          test_stream(&a, dtype, ref, k_engines[e]);
        if (shape == T_RANDOM_SPARSE || shape == T_ZERO_WEIGHTS) test_batches(&a, dtype, ref, k_engines[e]);
      }
      if (shape == T_POWER_LAW && !g_small) test_result_uses(&a, dtype, ref, GSP_APSP_DELTA_STEPPING);
      if (shape == T_RANDOM_SPARSE || shape == T_ZERO_WEIGHTS) {
        test_held_rows(&a, dtype, ref, GSP_APSP_DELTA_STEPPING);
        test_held_rows(&a, dtype, ref, GSP_APSP_SPMM);
      }
      test_source_counts(&a, dtype, ref, GSP_APSP_DELTA_STEPPING);
      test_source_counts(&a, dtype, ref, GSP_APSP_SPMM);
      /* Both heap layouts (GSP_APSP_HEAP_LAYOUT, read per run); removing
       * the setting gives a GSP_APSP_HEAP_LAYOUT of the environment back. */
      if (shape == T_RANDOM_SPARSE || shape == T_POWER_LAW || shape == T_ZERO_WEIGHTS) {
        t_tuning("GSP_APSP_HEAP_LAYOUT", "contiguous");
        test_all_pairs(&a, dtype, ref, GSP_APSP_HEAP);
        t_tuning("GSP_APSP_HEAP_LAYOUT", "interleaved");
        test_all_pairs(&a, dtype, ref, GSP_APSP_HEAP);
        t_tuning("GSP_APSP_HEAP_LAYOUT", NULL);
        /* SpMM's hub path (GSP_CUDA_SPMM_HUB_ARCS, read per run): every
         * vertex of in-degree > 4 has its in-arcs split over warps, at each
         * tile width (the source counts' passes of 32, 64 and 128). */
        t_tuning("GSP_CUDA_SPMM_HUB_ARCS", "4");
        test_all_pairs(&a, dtype, ref, GSP_APSP_SPMM);
        test_source_counts(&a, dtype, ref, GSP_APSP_SPMM);
        t_tuning("GSP_CUDA_SPMM_HUB_ARCS", NULL);
      }
      free(ref);
    }
    t_arcs_free(&a);
  }
  {
    /* GSP_F64 weights float cannot hold: a random graph and one with
     * zero-weight cycles (the sparse engines take no negative arcs). */
    static const int f64_shapes[] = {T_RANDOM_SPARSE, T_ZERO_WEIGHTS};
    for (shape = 0; shape < 2; shape++) {
      t_arcs a;
      if (!t_in_shard()) continue;
      t_make_shape(&a, f64_shapes[shape], g_small ? 40 : 300, 61);
      test_f64_weights(&a);
      t_arcs_free(&a);
    }
  }
  for (e = 0; e < NUM_ENGINES; e++) {
    if (t_in_shard()) test_refusals(k_engines[e]);
  }
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_apsp_sparse");
}
