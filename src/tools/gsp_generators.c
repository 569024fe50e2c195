/* Deterministic graph generators on the public API (see gsp_generators.h). */
#include "gsp_generators.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t s;
} gen_rng;

static uint64_t gen_next(gen_rng* r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int64_t gen_below(gen_rng* r, int64_t k) { return (int64_t)(gen_next(r) % (uint64_t)k); }

/* An arc list under construction. */
typedef struct {
  int64_t m, cap;
  int32_t* src;
  int32_t* dst;
  int32_t* w;
  int failed;
} gen_arcs;

static void arcs_reserve(gen_arcs* a, int64_t cap) {
  if (a->failed || cap <= a->cap) return;
  {
    int32_t* s = (int32_t*)realloc(a->src, (size_t)cap * sizeof(int32_t));
    if (s) a->src = s;
    int32_t* d = (int32_t*)realloc(a->dst, (size_t)cap * sizeof(int32_t));
    if (d) a->dst = d;
    int32_t* w = (int32_t*)realloc(a->w, (size_t)cap * sizeof(int32_t));
    if (w) a->w = w;
    if (!s || !d || !w) {
      a->failed = 1;
      return;
    }
  }
  a->cap = cap;
}

static void arc(gen_arcs* a, int32_t u, int32_t v, int32_t w) {
  if (a->m == a->cap) arcs_reserve(a, a->cap ? a->cap * 2 : 1024);
  if (a->failed) return;
  a->src[a->m] = u;
  a->dst[a->m] = v;
  a->w[a->m] = w;
  a->m++;
}

static gsp_status finish(gen_arcs* a, gsp_graph** graph, int32_t n, gsp_dtype dtype) {
  gsp_status s = GSP_ERR_OUT_OF_MEMORY;
  if (!a->failed) {
    if (dtype == GSP_F32) {
      float* wf = (float*)malloc((size_t)(a->m ? a->m : 1) * sizeof(float));
      if (wf) {
        int64_t k;
        for (k = 0; k < a->m; k++) wf[k] = (float)a->w[k];
        s = gsp_graph_create(graph, n, a->m, a->src, a->dst, wf, GSP_F32, 0);
        free(wf);
      }
    } else if (dtype == GSP_F64) {
      double* wd = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
      if (wd) {
        int64_t k;
        for (k = 0; k < a->m; k++) wd[k] = (double)a->w[k];
        s = gsp_graph_create(graph, n, a->m, a->src, a->dst, wd, GSP_F64, 0);
        free(wd);
      }
    } else {
      s = gsp_graph_create(graph, n, a->m, a->src, a->dst, a->w, dtype, 0);
    }
  }
  free(a->src);
  free(a->dst);
  free(a->w);
  memset(a, 0, sizeof *a);
  return s;
}

static gsp_status check(gsp_graph** graph, int32_t n, gsp_dtype dtype) {
  if (graph == NULL) return GSP_ERR_INVALID_ARGUMENT;
  *graph = NULL;
  if (n < 1 || (dtype != GSP_F32 && dtype != GSP_I32 && dtype != GSP_F64)) return GSP_ERR_INVALID_ARGUMENT;
  return GSP_OK;
}

static int32_t weight(gen_rng* r, int32_t max_weight) {
  return (int32_t)(1 + gen_below(r, max_weight));
}

#define MAXW(w) ((w) <= 0 ? 100 : (w))

gsp_status gsp_gen_random(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed,
                          gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x52414E444F4D0001ull};
  int32_t u, j;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (degree < 0) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)n * degree + 1);
  for (u = 0; u < n; u++) {
    for (j = 0; j < degree; j++) {
      int32_t v = (int32_t)gen_below(&r, n > 1 ? n - 1 : 1);
      if (n > 1 && v >= u) v++; /* no self-loops */
      arc(&a, u, v, weight(&r, max_weight));
    }
  }
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_rmat(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed,
                        gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x524D415400000002ull};
  int32_t scale = 0, b;
  int64_t k, m;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (degree < 0) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  while (((int64_t)1 << scale) < n) scale++;
  m = (int64_t)n * degree;
  arcs_reserve(&a, m + 1);
  for (k = 0; k < m; k++) {
    int64_t u, v;
    do {
      u = 0;
      v = 0;
      for (b = 0; b < scale; b++) {
        int64_t q = gen_below(&r, 100);
        if (q < 57) {
        } else if (q < 76) {
          v |= (int64_t)1 << b;
        } else if (q < 95) {
          u |= (int64_t)1 << b;
        } else {
          u |= (int64_t)1 << b;
          v |= (int64_t)1 << b;
        }
      }
    } while (u >= n || v >= n);
    arc(&a, (int32_t)u, (int32_t)v, weight(&r, max_weight));
  }
  return finish(&a, graph, n, dtype);
}

void gsp_gen_grid_shape(int32_t n, int32_t* rows, int32_t* cols) {
  int32_t r = 1;
  if (n < 1) n = 1;
  while ((int64_t)r * r < n) r++;
  *rows = r;
  *cols = (int32_t)((n + r - 1) / r);
}

gsp_status gsp_gen_grid(gsp_graph** graph, int32_t rows, int32_t cols, uint64_t seed,
                        gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x4752494400000003ull};
  int32_t i, j;
  gsp_status s;
  if (rows < 1 || cols < 1 || (int64_t)rows * cols > INT32_MAX) {
    if (graph) *graph = NULL;
    return GSP_ERR_INVALID_ARGUMENT;
  }
  s = check(graph, rows * cols, dtype);
  if (s != GSP_OK) return s;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)rows * cols * 4 + 1);
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      int32_t v = i * cols + j;
      if (j + 1 < cols) {
        int32_t w = weight(&r, max_weight);
        arc(&a, v, v + 1, w);
        arc(&a, v + 1, v, w);
      }
      if (i + 1 < rows) {
        int32_t w = weight(&r, max_weight);
        arc(&a, v, v + cols, w);
        arc(&a, v + cols, v, w);
      }
    }
  }
  return finish(&a, graph, rows * cols, dtype);
}

gsp_status gsp_gen_ring(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x52494E4700000004ull};
  int32_t u;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)n + 1);
  for (u = 0; u < n; u++) arc(&a, u, (int32_t)((u + 1) % n), weight(&r, max_weight));
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_complete(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype,
                            int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x434F4D5000000005ull};
  int32_t u, v;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (n > 46341) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)n * (n - 1) + 1);
  for (u = 0; u < n; u++)
    for (v = 0; v < n; v++)
      if (u != v) arc(&a, u, v, weight(&r, max_weight));
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_dag(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed,
                       gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x4441470000000006ull};
  int32_t u, j;
  int64_t lo, span;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (degree < 0) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  lo = -(int64_t)(max_weight / 2);
  span = (int64_t)max_weight - lo + 1;
  arcs_reserve(&a, (int64_t)n * degree + 1);
  for (u = 0; u < n; u++) {
    for (j = 0; j < degree; j++) {
      int64_t v = (int64_t)u + 1 + gen_below(&r, 2 * (int64_t)degree);
      int32_t w = (int32_t)(lo + gen_below(&r, span));
      if (v < n) arc(&a, u, (int32_t)v, w);
    }
  }
  return finish(&a, graph, n, dtype);
}

const char* gsp_gen_kinds(void) { return "random rmat grid ring complete dag"; }

gsp_status gsp_gen_by_name(gsp_graph** graph, const char* kind, int32_t n, int32_t degree,
                           uint64_t seed, gsp_dtype dtype, int32_t max_weight) {
  if (graph) *graph = NULL;
  if (kind == NULL || graph == NULL) return GSP_ERR_INVALID_ARGUMENT;
  if (strcmp(kind, "random") == 0) return gsp_gen_random(graph, n, degree > 0 ? degree : 6, seed, dtype, max_weight);
  if (strcmp(kind, "rmat") == 0) return gsp_gen_rmat(graph, n, degree > 0 ? degree : 6, seed, dtype, max_weight);
  if (strcmp(kind, "grid") == 0) {
    int32_t rows, cols;
    if (n < 1) return GSP_ERR_INVALID_ARGUMENT;
    gsp_gen_grid_shape(n, &rows, &cols);
    return gsp_gen_grid(graph, rows, cols, seed, dtype, max_weight);
  }
  if (strcmp(kind, "ring") == 0) return gsp_gen_ring(graph, n, seed, dtype, max_weight);
  if (strcmp(kind, "complete") == 0) return gsp_gen_complete(graph, n, seed, dtype, max_weight);
  if (strcmp(kind, "dag") == 0) return gsp_gen_dag(graph, n, degree > 0 ? degree : 3, seed, dtype, max_weight);
  return GSP_ERR_INVALID_ARGUMENT;
}
