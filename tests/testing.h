/* Shared by the C tests (CPU and GPU): checks, a seeded RNG, the graph
 * shapes every engine is tested on, independent references (naive
 * Bellman-Ford, plain O(n^3) Floyd-Warshall, in int64/double), and path
 * validation. Header-only, C99. */
#ifndef GSP_TESTS_TESTING_H
#define GSP_TESTS_TESTING_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gsp/gsp.h"

/* Helpers a test does not use must not warn. */
#if defined(__GNUC__)
#define T_FN static __attribute__((unused))
#else
#define T_FN static
#endif

/* ------------------------------------------------------------- checks */
#include "checks.h" /* CHECK, t_checks, t_failures, t_finish */

#define CHECK_STATUS(expr, want)                                                                         \
  do {                                                                                                   \
    gsp_status got_ = (expr);                                                                            \
    CHECK(got_ == (want), "%s -> %s (want %s): %s", #expr, gsp_status_name(got_), gsp_status_name(want), \
          gsp_last_error());                                                                             \
  } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, GSP_OK)

/* GSP_TEST_TRACE=1: one line per traced case on stderr (unbuffered), with
 * the seconds since the first; shows where a slow run (a GPU test under
 * compute-sanitizer) spends its time. */
T_FN void t_trace(const char* what) {
  static double t0 = -1.0;
  struct timespec ts;
  double now;
  const char* e = getenv("GSP_TEST_TRACE");
  if (e == NULL || e[0] == '\0' || e[0] == '0') return;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
  if (t0 < 0.0) t0 = now;
  fprintf(stderr, "[%9.2f s] %s\n", now - t0, what);
}

/* GSP_TEST_SHARD=i/N: of the cases a test marks with t_in_shard(), this
 * process runs only every N-th, from the i-th on (0 <= i < N), so that N
 * processes split a slow run (a GPU test under compute-sanitizer) between
 * them; together they run every case. Unset or malformed: every case. */
T_FN int t_in_shard(void) {
  static long next = 0;
  static int index = -1, count = 1;
  if (index < 0) {
    const char* e = getenv("GSP_TEST_SHARD");
    int i = 0, n = 1;
    index = 0;
    if (e != NULL && sscanf(e, "%d/%d", &i, &n) == 2 && n >= 1 && i >= 0 && i < n) {
      index = i;
      count = n;
    }
  }
  return next++ % count == index;
}

/* Exit code CTest reads as "skipped" (SKIP_RETURN_CODE 77). */
#define T_SKIP 77

/* ------------------------------------------------------------- RNG */
typedef struct {
  uint64_t s;
} t_rng;
T_FN uint64_t t_next(t_rng* r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
T_FN int32_t t_below(t_rng* r, int64_t k) { return (int32_t)(t_next(r) % (uint64_t)k); }

/* ------------------------------------------------------------- arc lists */
typedef struct {
  const char* name;
  int32_t n;
  int64_t m, cap;
  int32_t* src;
  int32_t* dst;
  int32_t* w;   /* integer weights; f32 graphs use the same values (exact in float) */
  int negative; /* has negative arcs */
} t_arcs;

T_FN void t_arcs_init(t_arcs* a, const char* name, int32_t n) {
  memset(a, 0, sizeof *a);
  a->name = name;
  a->n = n;
}
T_FN void t_arc(t_arcs* a, int32_t u, int32_t v, int32_t w) {
  if (a->m == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 64;
    a->src = (int32_t*)realloc(a->src, (size_t)a->cap * sizeof(int32_t));
    a->dst = (int32_t*)realloc(a->dst, (size_t)a->cap * sizeof(int32_t));
    a->w = (int32_t*)realloc(a->w, (size_t)a->cap * sizeof(int32_t));
    if (!a->src || !a->dst || !a->w) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
  }
  a->src[a->m] = u;
  a->dst[a->m] = v;
  a->w[a->m] = w;
  if (w < 0) a->negative = 1;
  a->m++;
}
T_FN void t_arcs_free(t_arcs* a) {
  free(a->src);
  free(a->dst);
  free(a->w);
  memset(a, 0, sizeof *a);
}

/* The shapes: every engine is tested on each. */
enum {
  T_RANDOM_SPARSE,
  T_RANDOM_DENSE,
  T_POWER_LAW,
  T_RING,
  T_COMPLETE,
  T_GRID,
  T_DAG_NEGATIVE,
  T_ZERO_WEIGHTS,
  T_LOOPS_PARALLEL,
  T_ISOLATED,
  T_SINGLE,
  T_NO_ARCS,
  T_NUM_SHAPES
};

/* Builds shape `shape` with about n vertices (shapes with a fixed size ignore n). */
T_FN void t_make_shape(t_arcs* a, int shape, int32_t n, uint64_t seed) {
  t_rng r = {seed * 7919u + (uint64_t)shape};
  int32_t i, j;
  if (n < 2) n = 2;
  switch (shape) {
    case T_RANDOM_SPARSE:
      t_arcs_init(a, "random-sparse", n);
      for (i = 0; i < n; i++)
        for (j = 0; j < 4; j++) t_arc(a, i, t_below(&r, n), 1 + t_below(&r, 100));
      break;
    case T_RANDOM_DENSE:
      t_arcs_init(a, "random-dense", n);
      for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
          if (t_below(&r, 3) == 0) t_arc(a, i, j, 1 + t_below(&r, 1000));
      break;
    case T_POWER_LAW: { /* R-MAT-like: skewed degrees */
      int32_t scale = 1, k;
      while ((1 << scale) < n) scale++;
      t_arcs_init(a, "power-law", n);
      for (k = 0; k < 6 * n; k++) {
        int32_t u = 0, v = 0, b;
        for (b = 0; b < scale; b++) {
          int32_t q = t_below(&r, 100);
          if (q < 57) {
          } else if (q < 76)
            v |= 1 << b;
          else if (q < 95)
            u |= 1 << b;
          else {
            u |= 1 << b;
            v |= 1 << b;
          }
        }
        t_arc(a, u % n, v % n, 1 + t_below(&r, 50));
      }
      break;
    }
    case T_RING:
      t_arcs_init(a, "ring", n);
      for (i = 0; i < n; i++) t_arc(a, i, (i + 1) % n, 1 + t_below(&r, 10));
      break;
    case T_COMPLETE:
      if (n > 64) n = 64;
      t_arcs_init(a, "complete", n);
      for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
          if (i != j) t_arc(a, i, j, 1 + t_below(&r, 1000));
      break;
    case T_GRID: {
      int32_t side = 2;
      while (side * side < n) side++;
      t_arcs_init(a, "grid", side * side);
      for (i = 0; i < side; i++)
        for (j = 0; j < side; j++) {
          int32_t v = i * side + j;
          if (j + 1 < side) {
            t_arc(a, v, v + 1, 1 + t_below(&r, 20));
            t_arc(a, v + 1, v, 1 + t_below(&r, 20));
          }
          if (i + 1 < side) {
            t_arc(a, v, v + side, 1 + t_below(&r, 20));
            t_arc(a, v + side, v, 1 + t_below(&r, 20));
          }
        }
      break;
    }
    case T_DAG_NEGATIVE:
      t_arcs_init(a, "dag-negative", n);
      for (i = 0; i < n; i++)
        for (j = 0; j < 3; j++) {
          int32_t v = i + 1 + t_below(&r, 5);
          if (v < n) t_arc(a, i, v, t_below(&r, 40) - 20);
        }
      break;
    case T_ZERO_WEIGHTS:
      t_arcs_init(a, "zero-weights", n);
      for (i = 0; i < n; i++)
        for (j = 0; j < 3; j++) t_arc(a, i, t_below(&r, n), t_below(&r, 3) == 0 ? 0 : t_below(&r, 4));
      break;
    case T_LOOPS_PARALLEL:
      t_arcs_init(a, "loops-parallel", n);
      for (i = 0; i < n; i++) {
        int32_t v = t_below(&r, n);
        t_arc(a, i, i, t_below(&r, 5));
        t_arc(a, i, v, 5 + t_below(&r, 10));
        t_arc(a, i, v, 1 + t_below(&r, 10));
        t_arc(a, i, (i + 1) % n, 30);
      }
      break;
    case T_ISOLATED:
      t_arcs_init(a, "isolated", n);
      for (i = 0; i + 1 < n / 2; i++) t_arc(a, i, i + 1, 1 + t_below(&r, 9));
      break;
    case T_SINGLE:
      t_arcs_init(a, "single-vertex", 1);
      t_arc(a, 0, 0, 3);
      break;
    default: /* T_NO_ARCS */ t_arcs_init(a, "no-arcs", n); break;
  }
}

/* Creates a gsp_graph from arcs: GSP_I32 weights as given, GSP_F32 and
 * GSP_F64 the same values scaled by `scale` (use 1.0 for exact comparisons). */
T_FN gsp_graph* t_graph(const t_arcs* a, gsp_dtype dtype, float scale) {
  gsp_graph* g = NULL;
  gsp_status s;
  if (dtype == GSP_I32) {
    s = gsp_graph_create(&g, a->n, a->m, a->src, a->dst, a->w, GSP_I32, 0);
  } else if (dtype == GSP_F64) {
    double* wd = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
    int64_t k;
    for (k = 0; k < a->m; k++) wd[k] = (double)a->w[k] * (double)scale;
    s = gsp_graph_create(&g, a->n, a->m, a->src, a->dst, wd, GSP_F64, 0);
    free(wd);
  } else {
    float* wf = (float*)malloc((size_t)(a->m ? a->m : 1) * sizeof(float));
    int64_t k;
    for (k = 0; k < a->m; k++) wf[k] = (float)a->w[k] * scale;
    s = gsp_graph_create(&g, a->n, a->m, a->src, a->dst, wf, GSP_F32, 0);
    free(wf);
  }
  if (s != GSP_OK) {
    fprintf(stderr, "t_graph(%s): %s: %s\n", a->name, gsp_status_name(s), gsp_last_error());
    exit(2);
  }
  return g;
}

/* The weight types, for tests that run every engine on each. */
#define T_NUM_DTYPES 3
static const gsp_dtype t_dtypes[T_NUM_DTYPES] __attribute__((unused)) = {GSP_I32, GSP_F32, GSP_F64};
T_FN const char* t_dtype_name(gsp_dtype dt) { return dt == GSP_I32 ? "i32" : dt == GSP_F64 ? "f64" : "f32"; }

/* Bytes of one distance of a weight type. */
T_FN size_t t_dist_bytes(gsp_dtype dtype) { return dtype == GSP_F64 ? sizeof(double) : 4; }

/* Distance v of a row of `dtype` as double (+inf for unreachable). */
T_FN double t_dist_at(const void* row, gsp_dtype dtype, int64_t v) {
  if (dtype == GSP_I32) {
    int32_t x = ((const int32_t*)row)[v];
    return x == GSP_I32_INF ? HUGE_VAL : (double)x;
  }
  if (dtype == GSP_F64) return ((const double*)row)[v];
  return (double)((const float*)row)[v];
}

/* ------------------------------------------------------------- references */
#define T_INF_REF INT64_MAX

/* Naive Bellman-Ford in int64 (n-1 rounds over all arcs). Returns 1 if a
 * negative cycle is reachable from src, else 0 with dist filled
 * (T_INF_REF for unreachable). */
T_FN int t_ref_bellman_ford(const t_arcs* a, int32_t src, int64_t* dist) {
  int32_t i, round;
  int64_t k;
  for (i = 0; i < a->n; i++) dist[i] = T_INF_REF;
  dist[src] = 0;
  for (round = 0; round < a->n; round++) {
    int changed = 0;
    for (k = 0; k < a->m; k++) {
      int64_t du = dist[a->src[k]];
      if (du != T_INF_REF && du + a->w[k] < dist[a->dst[k]]) {
        dist[a->dst[k]] = du + a->w[k];
        changed = 1;
      }
    }
    if (!changed) return 0;
  }
  return 1;
}

/* Plain O(n^3) Floyd-Warshall in int64 over an n x n matrix. Returns 1 if
 * any diagonal entry turns negative (negative cycle). */
T_FN int t_ref_floyd_warshall(const t_arcs* a, int64_t* d) {
  int32_t n = a->n, i, j, k;
  int64_t e;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) d[(int64_t)i * n + j] = i == j ? 0 : T_INF_REF;
  for (e = 0; e < a->m; e++) {
    int64_t* x = &d[(int64_t)a->src[e] * n + a->dst[e]];
    if (a->w[e] < *x) *x = a->w[e];
  }
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++) {
      int64_t dik = d[(int64_t)i * n + k];
      if (dik == T_INF_REF) continue;
      for (j = 0; j < n; j++) {
        int64_t dkj = d[(int64_t)k * n + j];
        if (dkj != T_INF_REF && dik + dkj < d[(int64_t)i * n + j]) d[(int64_t)i * n + j] = dik + dkj;
      }
    }
  for (i = 0; i < n; i++)
    if (d[(int64_t)i * n + i] < 0) return 1;
  return 0;
}

/* Compares one row of a result with a reference row: int32 exactly, f64
 * exactly when scale is 1 (integer sums are exact in double) and within
 * 1e-12 relative otherwise, f32 within 1e-4 relative (weights scaled by
 * `scale`). Returns the number of mismatches (each reported, up to 5). */
T_FN int t_compare_row(const gsp_paths* p, gsp_dtype dtype, int32_t src, const int64_t* ref, int32_t n, float scale,
                       const char* what) {
  int bad = 0;
  int32_t v;
  void* row = malloc((size_t)n * t_dist_bytes(dtype));
  gsp_status s = gsp_paths_distances(p, src, row, n);
  if (s != GSP_OK) {
    fprintf(stderr, "%s: gsp_paths_distances(%d): %s %s\n", what, src, gsp_status_name(s), gsp_last_error());
    free(row);
    return 1;
  }
  for (v = 0; v < n; v++) {
    int ok;
    double got = t_dist_at(row, dtype, v);
    if (ref[v] == T_INF_REF) {
      ok = isinf(got) && got > 0;
    } else {
      double want = (double)ref[v] * (dtype == GSP_I32 ? 1.0 : (double)scale);
      double tol = dtype == GSP_I32 || (dtype == GSP_F64 && scale == 1.0f) ? 0.0
                   : dtype == GSP_F64                                      ? 1e-12 * (fabs(want) + 1.0)
                                                                           : 1e-4 * (fabs(want) + 1.0);
      ok = fabs(got - want) <= tol;
    }
    if (!ok && bad < 5) {
      fprintf(stderr, "%s: d(%d,%d) = %.17g, want %.17g\n", what, src, v, got,
              ref[v] == T_INF_REF ? HUGE_VAL : (double)ref[v] * (dtype == GSP_I32 ? 1.0 : (double)scale));
    }
    if (!ok) bad++;
  }
  free(row);
  return bad;
}

/* Checks that the path src -> dst returned by gsp_path_get exists arc by
 * arc in `a` and that its length (the cheapest parallel arc per hop)
 * equals ref_dist (times scale). Returns 0 when valid. */
T_FN int t_check_path(const gsp_paths* p, const t_arcs* a, int32_t src, int32_t dst, int64_t ref_dist,
                      const char* what) {
  int32_t len = 0, i;
  int32_t* verts;
  int64_t total = 0;
  gsp_status s = gsp_path_get(p, src, dst, NULL, 0, &len);
  if (ref_dist == T_INF_REF) {
    if (s != GSP_ERR_NO_PATH) {
      fprintf(stderr, "%s: path %d->%d: %s, want GSP_ERR_NO_PATH\n", what, src, dst, gsp_status_name(s));
      return 1;
    }
    return 0;
  }
  if (s != GSP_OK && s != GSP_ERR_BUFFER_TOO_SMALL) {
    fprintf(stderr, "%s: path %d->%d length query: %s %s\n", what, src, dst, gsp_status_name(s), gsp_last_error());
    return 1;
  }
  if (len < 1) {
    fprintf(stderr, "%s: path %d->%d has length %d\n", what, src, dst, len);
    return 1;
  }
  verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
  s = gsp_path_get(p, src, dst, verts, len, &len);
  if (s != GSP_OK || verts[0] != src || verts[len - 1] != dst) {
    fprintf(stderr, "%s: path %d->%d: %s, ends %d..%d\n", what, src, dst, gsp_status_name(s), verts[0], verts[len - 1]);
    free(verts);
    return 1;
  }
  for (i = 0; i + 1 < len; i++) {
    int64_t best = T_INF_REF, k;
    for (k = 0; k < a->m; k++)
      if (a->src[k] == verts[i] && a->dst[k] == verts[i + 1] && a->w[k] < best) best = a->w[k];
    if (best == T_INF_REF) {
      fprintf(stderr, "%s: path %d->%d uses %d->%d, which is no arc\n", what, src, dst, verts[i], verts[i + 1]);
      free(verts);
      return 1;
    }
    total += best;
  }
  free(verts);
  if (total != ref_dist) {
    fprintf(stderr, "%s: path %d->%d sums to %lld, want %lld\n", what, src, dst, (long long)total, (long long)ref_dist);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------- float overflow */

/* Counts the row blocks of a stream. */
T_FN int t_count_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)first;
  (void)rows;
  (void)d;
  (void)p;
  ++*(int*)user;
  return 0;
}

/* Runs algo (SSSP from `source`, else APSP of all rows, then the stream,
 * which must agree) on backend; on success *d = d(source, target). */
T_FN gsp_status t_run_distance(const gsp_graph* g, gsp_backend backend, gsp_algorithm algo, int sssp, int32_t source,
                               int32_t target, void* d) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_status s;
  gsp_options_init(&o);
  o.backend = backend;
  o.algorithm = algo;
  o.num_threads = 2;
  s = sssp ? gsp_sssp_run(g, source, &o, &p) : gsp_apsp_run(g, NULL, 0, &o, &p);
  if (s == GSP_OK) s = gsp_paths_distance(p, source, target, d);
  gsp_paths_destroy(p);
  if (!sssp && s != GSP_ERR_INTERNAL) {
    int calls = 0;
    gsp_status t = gsp_apsp_stream(g, NULL, 0, &o, t_count_rows, &calls);
    if (t != s) s = GSP_ERR_INTERNAL;
  }
  return s;
}

/* Float overflow (issue 24), one algorithm on one backend: a path of two
 * 3e38 arcs is GSP_ERR_OVERFLOW with a message naming float and the target
 * (never "unreachable"); the same graph plus a shortcut of weight 1 answers
 * 1 (the overflowed sum decides nothing) and leaves an isolated vertex at
 * +INFINITY; with negative arcs (negative_ok) -3e38 - 3e38 is
 * GSP_ERR_OVERFLOW too; int32 arcs of 2e9 answer the same status. */
T_FN void t_check_float_overflow(gsp_backend backend, gsp_algorithm algo, int sssp, int negative_ok) {
  int32_t s1[3] = {0, 1, 0}, t1[3] = {1, 2, 2}, wi[2] = {2000000000, 2000000000};
  float w1[3] = {3e38f, 3e38f, 1.0f}, w3[2] = {-3e38f, -3e38f};
  const char* name = gsp_algorithm_name(algo);
  gsp_graph *g1 = NULL, *g2 = NULL, *g3 = NULL, *gi = NULL;
  float d = 0;
  int32_t di = 0;
  gsp_status s;
  CHECK_OK(gsp_graph_create(&g1, 4, 2, s1, t1, w1, GSP_F32, 0));
  CHECK_OK(gsp_graph_create(&g2, 4, 3, s1, t1, w1, GSP_F32, 0));
  CHECK_OK(gsp_graph_create(&g3, 4, 2, s1, t1, w3, GSP_F32, 0));
  CHECK_OK(gsp_graph_create(&gi, 4, 2, s1, t1, wi, GSP_I32, 0));
  if (g1 == NULL || g2 == NULL || g3 == NULL || gi == NULL) goto done;
  s = t_run_distance(g1, backend, algo, sssp, 0, 2, &d);
  CHECK(s == GSP_ERR_OVERFLOW, "%s, 3e38 + 3e38: %s (d = %g): %s", name, gsp_status_name(s), (double)d,
        gsp_last_error());
  if (s == GSP_ERR_OVERFLOW) {
    CHECK(strstr(gsp_last_error(), "float") != NULL && strstr(gsp_last_error(), " 2") != NULL,
          "%s: the message names float and vertex 2: %s", name, gsp_last_error());
  }
  d = 0;
  CHECK_OK(t_run_distance(g2, backend, algo, sssp, 0, 2, &d));
  CHECK(d == 1.0f, "%s: harmless overflow: d(0, 2) = %g", name, (double)d);
  d = 0;
  CHECK_OK(t_run_distance(g2, backend, algo, sssp, 0, 3, &d));
  CHECK(d == INFINITY, "%s: vertex 3 stays unreachable: %g", name, (double)d);
  if (negative_ok) {
    s = t_run_distance(g3, backend, algo, sssp, 0, 2, &d);
    CHECK(s == GSP_ERR_OVERFLOW, "%s, -3e38 - 3e38: %s (d = %g): %s", name, gsp_status_name(s), (double)d,
          gsp_last_error());
  }
  s = t_run_distance(gi, backend, algo, sssp, 0, 2, &di);
  CHECK(s == GSP_ERR_OVERFLOW, "%s, int32 2e9 + 2e9: %s", name, gsp_status_name(s));
done:
  gsp_graph_destroy(g1);
  gsp_graph_destroy(g2);
  gsp_graph_destroy(g3);
  gsp_graph_destroy(gi);
}

#endif
