/* Float accuracy and negative-cycle evidence, shared by the CPU test
 * (test_float_paths.c) and the GPU test (gpu/test_gpu_float_paths.c): each
 * names its backend and algorithms and calls fp_run(). Every case is a
 * shard case (t_in_shard, testing.h), so compute-sanitizer can split a run.
 *
 * 1. Random float graphs (degree 6, weights log-uniform in [1e-3, 1e6] or
 *    uniform in (0, 100], several sizes and seeds) on every SSSP and APSP algorithm: never a
 *    negative-cycle verdict, every distance against a float64 reference, and
 *    every returned path checked arc by arc, its exact sum against the
 *    reported distance. The tolerance is the one gsp.h documents for float
 *    weights: |d - sum| <= k * 2^-22 * sum|w| over the path's k arcs.
 * 2. One tiny negative cycle (float: total -1e-3; int32: total -1) in a
 *    positive graph: every algorithm that accepts negative weights reports
 *    it, and SSSP from a vertex that cannot reach it answers normally.
 * 3. Cycles that are not negative although float rounding can make them
 *    look so (1e-3 + 1e6 - 1e6) or that sum to exactly zero: answered, with
 *    distances and paths checked as in 1.
 * 4. A 7-vertex graph on which min-plus squaring keeps lowering an entry by
 *    rounding after the products that cover every simple path.
 * With plan->f64, 1 to 3 also run on GSP_F64 graphs (one seed; all-pairs
 * up to n = 4096) under the double rule (2^-51 for 2^-22): log-uniform
 * weights in [1e-3, 1e45] (past float's range), a negative cycle of total
 * -1e-3 among arcs of 1e8 (float would round it to 0), and a cycle of exact
 * sum +1e-3 that 1e16 - 1e16 can absorb.
 * C99, header-only. */
#ifndef GSP_TESTS_FLOAT_PATHS_H
#define GSP_TESTS_FLOAT_PATHS_H

#include "testing.h"

/* A float (or double) graph kept as CSR for the references and the path
 * checks. The weights are held as double, rounded to float when dt is
 * GSP_F32 (or GSP_I32: integral values), so the references see exactly
 * the values the engines get. */
typedef struct {
  const char* name;
  gsp_dtype dt;
  int32_t n;
  int64_t m;
  int32_t *src, *dst; /* arc list as given to gsp_graph_create */
  double* w;
  int64_t* off; /* CSR of the same arcs */
  int32_t* tg;
  double* tw;
} fp_graph;

/* x as the graph's weight type holds it. */
static double fp_w(const fp_graph* g, double x) { return g->dt == GSP_F64 ? x : (double)(float)x; }

static void fp_graph_csr(fp_graph* g) {
  int64_t e;
  int32_t v;
  int64_t* at;
  g->off = (int64_t*)calloc((size_t)g->n + 1, sizeof(int64_t));
  g->tg = (int32_t*)malloc((size_t)(g->m ? g->m : 1) * sizeof(int32_t));
  g->tw = (double*)malloc((size_t)(g->m ? g->m : 1) * sizeof(double));
  at = (int64_t*)malloc(((size_t)g->n + 1) * sizeof(int64_t));
  for (e = 0; e < g->m; e++) g->off[g->src[e] + 1]++;
  for (v = 0; v < g->n; v++) g->off[v + 1] += g->off[v];
  memcpy(at, g->off, ((size_t)g->n + 1) * sizeof(int64_t));
  for (e = 0; e < g->m; e++) {
    int64_t k = at[g->src[e]]++;
    g->tg[k] = g->dst[e];
    g->tw[k] = g->w[e];
  }
  free(at);
}

static void fp_graph_free(fp_graph* g) {
  free(g->src);
  free(g->dst);
  free(g->w);
  free(g->off);
  free(g->tg);
  free(g->tw);
  memset(g, 0, sizeof *g);
}

/* Arc list storage for m arcs of weight type dt. */
static void fp_graph_alloc(fp_graph* g, const char* name, gsp_dtype dt, int32_t n, int64_t m) {
  memset(g, 0, sizeof *g);
  g->name = name;
  g->dt = dt;
  g->n = n;
  g->m = m;
  g->src = (int32_t*)malloc((size_t)(m ? m : 1) * sizeof(int32_t));
  g->dst = (int32_t*)malloc((size_t)(m ? m : 1) * sizeof(int32_t));
  g->w = (double*)malloc((size_t)(m ? m : 1) * sizeof(double));
}

/* Degree-6 random graph, weights log-uniform in [1e-3, 1e6] (log_weights;
 * GSP_F64: [1e-3, 1e45]) or uniform in (0, 100] (the graphs min-plus
 * squaring used to call negative-cycle graphs: at n = 1000 entries still
 * shrank by rounding after 11 products). dt: GSP_F32 or GSP_F64. */
static void fp_random(fp_graph* g, int32_t n, uint64_t seed, int log_weights, gsp_dtype dt) {
  t_rng r = {seed * 104729u + (uint64_t)n + (log_weights ? 0u : 77u)};
  const double decades = dt == GSP_F64 ? 48.0 : 9.0;
  int64_t e = 0;
  int32_t u, j;
  fp_graph_alloc(g, log_weights ? "random-log-weights" : "random-uniform-weights", dt, n, (int64_t)n * 6);
  for (u = 0; u < n; u++) {
    for (j = 0; j < 6; j++, e++) {
      double x = (double)(t_next(&r) >> 11) / 9007199254740992.0; /* [0, 1) */
      g->src[e] = u;
      g->dst[e] = t_below(&r, n);
      g->w[e] = fp_w(g, log_weights ? 1e-3 * pow(10.0, decades * x) : 100.0 * (1.0 - x));
    }
  }
  fp_graph_csr(g);
}

/* A ring 0 -> 1 -> ... -> n-5 -> 0 with random arcs (weights 1..100), and
 * the cycle c0 -> c1 -> c2 -> c0 (vertices n-4..n-2) with weights cw,
 * entered from 0 and left from c2 to 1 by arcs of weight 1, so that every
 * other cycle through its arcs is positive; vertex n-1 has no arcs (it
 * reaches nothing). */
static void fp_with_cycle(fp_graph* g, const char* name, gsp_dtype dt, int32_t n, uint64_t seed, const double cw[3]) {
  t_rng r = {seed * 31337u + (uint64_t)n};
  const int32_t ring = n - 4;
  int64_t e = 0;
  int32_t u, j;
  fp_graph_alloc(g, name, dt, n, (int64_t)ring * 3 + 5);
  for (u = 0; u < ring; u++) {
    g->src[e] = u;
    g->dst[e] = (u + 1) % ring;
    g->w[e] = (double)(1 + t_below(&r, 100));
    e++;
    for (j = 0; j < 2; j++, e++) {
      g->src[e] = u;
      g->dst[e] = t_below(&r, ring);
      g->w[e] = (double)(1 + t_below(&r, 100));
    }
  }
  for (j = 0; j < 3; j++, e++) {
    g->src[e] = ring + j;
    g->dst[e] = ring + (j + 1) % 3;
    g->w[e] = fp_w(g, cw[j]);
  }
  g->src[e] = 0;
  g->dst[e] = ring;
  g->w[e] = 1.0;
  e++;
  g->src[e] = ring + 2;
  g->dst[e] = 1;
  g->w[e] = 1.0;
  e++;
  g->m = e;
  fp_graph_csr(g);
}

/* The gsp_graph of g in its weight type. */
static gsp_graph* fp_create(const fp_graph* g) {
  gsp_graph* h = NULL;
  gsp_status s;
  if (g->dt == GSP_F64) {
    s = gsp_graph_create(&h, g->n, g->m, g->src, g->dst, g->w, GSP_F64, 0);
  } else if (g->dt == GSP_F32) {
    float* wf = (float*)malloc((size_t)(g->m ? g->m : 1) * sizeof(float));
    int64_t e;
    for (e = 0; e < g->m; e++) wf[e] = (float)g->w[e];
    s = gsp_graph_create(&h, g->n, g->m, g->src, g->dst, wf, GSP_F32, 0);
    free(wf);
  } else {
    int32_t* wi = (int32_t*)malloc((size_t)(g->m ? g->m : 1) * sizeof(int32_t));
    int64_t e;
    for (e = 0; e < g->m; e++) wi[e] = (int32_t)g->w[e];
    s = gsp_graph_create(&h, g->n, g->m, g->src, g->dst, wi, GSP_I32, 0);
    free(wi);
  }
  if (s != GSP_OK) {
    fprintf(stderr, "fp_create(%s): %s: %s\n", g->name, gsp_status_name(s), gsp_last_error());
    exit(2);
  }
  return h;
}

/* ------------------------------------------------------------ reference */
/* float64 shortest paths from s: dist (INFINITY: unreachable), the arcs and
 * the sum of |w| of the reference path (for the tolerance). Queue
 * Bellman-Ford (the graphs here have no negative cycle when it is used). */
typedef struct {
  double* dist;
  int32_t* hops;
  double* abs_sum;
} fp_ref;

static void fp_ref_run(const fp_graph* g, int32_t s, fp_ref* r) {
  int32_t* queue = (int32_t*)malloc((size_t)g->n * sizeof(int32_t));
  char* inq = (char*)calloc((size_t)g->n, 1);
  int64_t head = 0, count = 0;
  int32_t v;
  for (v = 0; v < g->n; v++) {
    r->dist[v] = INFINITY;
    r->hops[v] = 0;
    r->abs_sum[v] = 0;
  }
  r->dist[s] = 0;
  queue[0] = s;
  inq[s] = 1;
  count = 1;
  while (count > 0) {
    const int32_t u = queue[head];
    int64_t e;
    head = (head + 1) % g->n;
    count--;
    inq[u] = 0;
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      const int32_t x = g->tg[e];
      const double nd = r->dist[u] + (double)g->tw[e];
      if (nd < r->dist[x]) {
        r->dist[x] = nd;
        r->hops[x] = r->hops[u] + 1;
        r->abs_sum[x] = r->abs_sum[u] + fabs((double)g->tw[e]);
        if (!inq[x]) {
          queue[(head + count) % g->n] = x;
          count++;
          inq[x] = 1;
        }
      }
    }
  }
  free(queue);
  free(inq);
}

/* The documented tolerance for a path of k arcs and sum |w| = S: float's
 * k 2^-22 S, double's k 2^-51 S. */
static double fp_tol(gsp_dtype dt, int32_t k, double S) {
  return (double)k * ldexp(1.0, dt == GSP_F64 ? -51 : -22) * S;
}

/* The S the tolerance adds for a graph: 0 without negative arcs; with them,
 * 2 max|w|, since a matrix engine may add arcs of opposite signs that the
 * path does not use (1e6 - 1e6 absorbs 1e-3; gsp.h, gsp_dtype). */
static double fp_cancel_S(const fp_graph* g) {
  double big = 0;
  int negative = 0;
  int64_t e;
  for (e = 0; e < g->m; e++) {
    if (fabs((double)g->w[e]) > big) big = fabs((double)g->w[e]);
    if (g->w[e] < 0) negative = 1;
  }
  return negative ? 2.0 * big : 0.0;
}

/* Checks row s of a result (float or double weights) against the reference: same
 * reachability; every path exists arc by arc (cheapest parallel arc), its
 * exact sum agrees with the reported distance within the tolerance, and is
 * no longer than the reference distance beyond both paths' tolerances.
 * Returns the number of bad vertices (each reported, up to 3). */
static int fp_check_row(const gsp_paths* p, const fp_graph* g, int32_t s, const fp_ref* r, const char* what) {
  const double cancel = fp_cancel_S(g);
  void* d = malloc((size_t)g->n * t_dist_bytes(g->dt));
  int32_t* path = (int32_t*)malloc((size_t)g->n * sizeof(int32_t));
  int bad = 0;
  int32_t v;
  gsp_status st = gsp_paths_distances(p, s, d, g->n);
  if (st != GSP_OK) {
    fprintf(stderr, "%s: gsp_paths_distances(%d): %s %s\n", what, s, gsp_status_name(st), gsp_last_error());
    free(d);
    free(path);
    return 1;
  }
  for (v = 0; v < g->n && bad < 50; v++) {
    int32_t len = 0, i;
    double sum = 0, abs_sum = 0;
    const double dv = t_dist_at(d, g->dt, v);
    const char* why = NULL;
    if (isinf(r->dist[v])) {
      if (!(isinf(dv) && dv > 0))
        why = "reachable, want unreachable";
      else if (gsp_path_get(p, s, v, path, g->n, &len) != GSP_ERR_NO_PATH)
        why = "a path to an unreachable vertex";
    } else if (!isfinite(dv)) {
      why = "unreachable, want reachable";
    } else if ((st = gsp_path_get(p, s, v, path, g->n, &len)) != GSP_OK) {
      why = gsp_status_name(st);
    } else if (len < 1 || path[0] != s || path[len - 1] != v) {
      why = "a path with the wrong ends";
    } else {
      for (i = 0; i + 1 < len && why == NULL; i++) {
        int64_t e;
        double best = INFINITY;
        for (e = g->off[path[i]]; e < g->off[path[i] + 1]; e++) {
          if (g->tg[e] == path[i + 1] && g->tw[e] < best) best = g->tw[e];
        }
        if (isinf(best)) why = "a path over a missing arc";
        sum += best;
        abs_sum += fabs(best);
      }
      if (why == NULL) {
        const int32_t k = len - 1 > r->hops[v] ? len - 1 : r->hops[v];
        const double S = (abs_sum > r->abs_sum[v] ? abs_sum : r->abs_sum[v]) + cancel;
        if (fabs(dv - sum) > fp_tol(g->dt, len - 1, abs_sum + cancel))
          why = "distance and path sum differ";
        else if (sum > r->dist[v] + 2.0 * fp_tol(g->dt, k, S))
          why = "the path is longer than the shortest";
        else if (fabs(dv - r->dist[v]) > 2.0 * fp_tol(g->dt, k, S))
          why = "distance off the reference";
      }
    }
    if (why != NULL) {
      if (bad < 3) {
        fprintf(stderr, "%s: %d -> %d: %s (d = %.17g, reference %.17g over %d arcs, path sum %.17g over %d arcs)\n",
                what, s, v, why, dv, r->dist[v], r->hops[v], sum, len - 1);
      }
      bad++;
    }
  }
  free(d);
  free(path);
  return bad;
}

/* ------------------------------------------------------------ the cases */
typedef struct {
  gsp_backend backend;
  const gsp_algorithm* sssp; /* algorithms for w >= 0 graphs, GSP_ALGO_AUTO included */
  int num_sssp;
  const gsp_algorithm* apsp;
  int num_apsp;
  const gsp_algorithm* sssp_negative; /* those that accept negative weights */
  int num_sssp_negative;
  const gsp_algorithm* apsp_negative;
  int num_apsp_negative;
  const int32_t* sssp_sizes;
  int num_sssp_sizes;
  const int32_t* apsp_sizes;
  int num_apsp_sizes;
  int32_t apsp_full_check; /* check every row up to this n, else 24 rows */
  int seeds;
  int f64; /* also GSP_F64 graphs (cases 1 to 3) */
} fp_plan;

static gsp_options fp_options(const fp_plan* plan, gsp_algorithm a) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = plan->backend;
  o.algorithm = a;
  return o;
}

static fp_ref fp_ref_alloc(int32_t n) {
  fp_ref r;
  r.dist = (double*)malloc((size_t)n * sizeof(double));
  r.hops = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  r.abs_sum = (double*)malloc((size_t)n * sizeof(double));
  return r;
}
static void fp_ref_free(fp_ref* r) {
  free(r->dist);
  free(r->hops);
  free(r->abs_sum);
}

/* An explicit algorithm on a graph without negative arcs must be the one
 * that ran: dispatch stands in for a float engine only when a negative-cycle
 * verdict on a graph with negative arcs is not confirmed in float64. */
static void fp_check_ran(const gsp_paths* p, const fp_graph* g, gsp_algorithm a, gsp_backend b, const char* what) {
  gsp_run_info info;
  if (a == GSP_ALGO_AUTO || fp_cancel_S(g) > 0) return;
  memset(&info, 0, sizeof info);
  CHECK_OK(gsp_paths_info(p, &info));
  CHECK(info.algorithm == a && info.backend == b, "%s: ran %s on backend %d", what, gsp_algorithm_name(info.algorithm),
        (int)info.backend);
}

/* SSSP from each of `sources` with algorithm a, checked against the reference. */
static void fp_sssp_case(const fp_plan* plan, const fp_graph* g, gsp_graph* h, gsp_algorithm a, const int32_t* sources,
                         int num_sources) {
  fp_ref r = fp_ref_alloc(g->n);
  int i;
  if (!t_in_shard()) return;
  for (i = 0; i < num_sources; i++) {
    gsp_options o = fp_options(plan, a);
    gsp_paths* p = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s/%s n=%d sssp %s from %d", g->name, t_dtype_name(g->dt), g->n, gsp_algorithm_name(a),
             sources[i]);
    t_trace(what);
    CHECK_STATUS(gsp_sssp_run(h, sources[i], &o, &p), GSP_OK);
    if (p != NULL) {
      fp_check_ran(p, g, a, plan->backend, what);
      fp_ref_run(g, sources[i], &r);
      CHECK(fp_check_row(p, g, sources[i], &r, what) == 0, "%s: rows differ", what);
    }
    gsp_paths_destroy(p);
  }
  fp_ref_free(&r);
}

/* APSP (all sources) with algorithm a: rows checked against the reference
 * (all of them up to apsp_full_check vertices, else 24 spread rows). */
static void fp_apsp_case(const fp_plan* plan, const fp_graph* g, gsp_graph* h, gsp_algorithm a) {
  gsp_options o = fp_options(plan, a);
  gsp_paths* p = NULL;
  char what[160];
  if (!t_in_shard()) return;
  snprintf(what, sizeof what, "%s/%s n=%d apsp %s", g->name, t_dtype_name(g->dt), g->n, gsp_algorithm_name(a));
  t_trace(what);
  CHECK_STATUS(gsp_apsp_run(h, NULL, 0, &o, &p), GSP_OK);
  if (p != NULL) {
    fp_ref r = fp_ref_alloc(g->n);
    const int32_t rows = g->n <= plan->apsp_full_check ? g->n : 24;
    int32_t i, bad = 0;
    fp_check_ran(p, g, a, plan->backend, what);
    for (i = 0; i < rows; i++) {
      const int32_t s = rows == g->n ? i : (int32_t)(((int64_t)i * g->n) / rows);
      fp_ref_run(g, s, &r);
      bad += fp_check_row(p, g, s, &r, what) != 0;
    }
    CHECK(bad == 0, "%s: %d of %d rows differ", what, bad, rows);
    fp_ref_free(&r);
  }
  gsp_paths_destroy(p);
}

/* 1. Random float graphs (and double ones, plan->f64: one seed, all-pairs
 * up to n = 4096): no cycle verdict, distances and paths checked. */
static void fp_random_graphs(const fp_plan* plan) {
  int si, seed, ai, lw, ti;
  for (ti = 0; ti < (plan->f64 ? 2 : 1); ti++) {
    const gsp_dtype dt = ti == 0 ? GSP_F32 : GSP_F64;
    const int seeds = dt == GSP_F64 ? 1 : plan->seeds;
    for (lw = 0; lw < 2; lw++) {
      for (si = 0; si < plan->num_sssp_sizes; si++) {
        for (seed = 1; seed <= seeds; seed++) {
          fp_graph g;
          gsp_graph* h;
          int32_t sources[2];
          fp_random(&g, plan->sssp_sizes[si], (uint64_t)seed, lw, dt);
          h = fp_create(&g);
          sources[0] = 0;
          sources[1] = g.n / 2;
          for (ai = 0; ai < plan->num_sssp; ai++) fp_sssp_case(plan, &g, h, plan->sssp[ai], sources, 2);
          gsp_graph_destroy(h);
          fp_graph_free(&g);
        }
      }
      for (si = 0; si < plan->num_apsp_sizes; si++) {
        if (dt == GSP_F64 && plan->apsp_sizes[si] > 4096) continue;
        for (seed = 1; seed <= seeds; seed++) {
          fp_graph g;
          gsp_graph* h;
          fp_random(&g, plan->apsp_sizes[si], (uint64_t)seed, lw, dt);
          h = fp_create(&g);
          for (ai = 0; ai < plan->num_apsp; ai++) fp_apsp_case(plan, &g, h, plan->apsp[ai]);
          gsp_graph_destroy(h);
          fp_graph_free(&g);
        }
      }
    }
  }
}

/* 2. One tiny negative cycle: float (-1e-3), int32 (-1), and with plan->f64
 * double (-1e-3 among arcs of 1e8: in float 1e8 + 1e8 - 200000000.001 is 0,
 * no cycle). */
static void fp_negative_cycles(const fp_plan* plan) {
  static const double f_cycle[3] = {1.5, 2.25, -3.751};
  static const double i_cycle[3] = {1000.0, 1000.0, -2001.0};
  static const double d_cycle[3] = {1e8, 1e8, -200000000.001};
  static const gsp_dtype types[3] = {GSP_F32, GSP_I32, GSP_F64};
  static const char* names[3] = {"tiny-negative-cycle-f32", "tiny-negative-cycle-i32", "tiny-negative-cycle-f64"};
  const int32_t sizes[2] = {50, 300};
  int si, ai, ti;
  for (ti = 0; ti < (plan->f64 ? 3 : 2); ti++) {
    const gsp_dtype dt = types[ti];
    for (si = 0; si < 2; si++) {
      fp_graph g;
      gsp_graph* h;
      fp_with_cycle(&g, names[ti], dt, sizes[si], 7, ti == 0 ? f_cycle : ti == 1 ? i_cycle : d_cycle);
      h = fp_create(&g);
      for (ai = 0; ai < plan->num_sssp_negative; ai++) {
        gsp_options o = fp_options(plan, plan->sssp_negative[ai]);
        gsp_paths* p = NULL;
        gsp_status st;
        if (!t_in_shard()) continue;
        st = gsp_sssp_run(h, 0, &o, &p);
        CHECK(st == GSP_ERR_NEGATIVE_CYCLE, "%s n=%d sssp %s from 0: %s (%s), want GSP_ERR_NEGATIVE_CYCLE", g.name, g.n,
              gsp_algorithm_name(plan->sssp_negative[ai]), gsp_status_name(st), gsp_last_error());
        gsp_paths_destroy(p);
        p = NULL;
        /* vertex n-1 has no arcs: nothing of the cycle is reachable from it */
        st = gsp_sssp_run(h, g.n - 1, &o, &p);
        CHECK(st == GSP_OK, "%s n=%d sssp %s from %d (reaches no cycle): %s (%s)", g.name, g.n,
              gsp_algorithm_name(plan->sssp_negative[ai]), g.n - 1, gsp_status_name(st), gsp_last_error());
        gsp_paths_destroy(p);
      }
      for (ai = 0; ai < plan->num_apsp_negative; ai++) {
        gsp_options o = fp_options(plan, plan->apsp_negative[ai]);
        gsp_paths* p = NULL;
        gsp_status st;
        if (!t_in_shard()) continue;
        st = gsp_apsp_run(h, NULL, 0, &o, &p);
        CHECK(st == GSP_ERR_NEGATIVE_CYCLE, "%s n=%d apsp %s: %s (%s), want GSP_ERR_NEGATIVE_CYCLE", g.name, g.n,
              gsp_algorithm_name(plan->apsp_negative[ai]), gsp_status_name(st), gsp_last_error());
        gsp_paths_destroy(p);
      }
      gsp_graph_destroy(h);
      fp_graph_free(&g);
    }
  }
}

/* 3. Cycles that are not negative: one that rounding can make look
 * negative (exact sum +1e-3: 1e-3 + 1e6 - 1e6 in float; with plan->f64,
 * 1e-3 + 1e16 - 1e16 in double), and one of exact sum 0. */
static void fp_rounding_cycles(const fp_plan* plan) {
  static const double absorbed[3] = {1e-3, 1e6, -1e6};
  static const double absorbed_f64[3] = {1e-3, 1e16, -1e16};
  static const double zero[3] = {0.5, 0.25, -0.75};
  int ci, ai, ti;
  for (ti = 0; ti < (plan->f64 ? 2 : 1); ti++) {
    const gsp_dtype dt = ti == 0 ? GSP_F32 : GSP_F64;
    for (ci = 0; ci < 2; ci++) {
      fp_graph g;
      gsp_graph* h;
      int32_t sources[2];
      fp_with_cycle(&g, ci == 0 ? "absorbed-cycle" : "zero-cycle", dt, 300, 11,
                    ci == 1         ? zero
                    : dt == GSP_F64 ? absorbed_f64
                                    : absorbed);
      h = fp_create(&g);
      sources[0] = 0;
      sources[1] = g.n / 2;
      for (ai = 0; ai < plan->num_sssp_negative; ai++) fp_sssp_case(plan, &g, h, plan->sssp_negative[ai], sources, 2);
      for (ai = 0; ai < plan->num_apsp_negative; ai++) fp_apsp_case(plan, &g, h, plan->apsp_negative[ai]);
      gsp_graph_destroy(h);
      fp_graph_free(&g);
    }
  }
}

/* 4. A graph of 7 vertices and positive float weights on which min-plus
 * squaring still lowers an entry, by rounding, in product 4, after the
 * ceil(log2(6)) = 3 that cover every simple path (found by a search over
 * random small graphs; the engines used to call it a negative-cycle graph). */
static void fp_rounding_tail(const fp_plan* plan) {
  static const int32_t src[] = {0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6};
  static const int32_t dst[] = {5, 6, 3, 4, 3, 5, 6, 0, 4, 1, 3, 5, 0, 1, 2, 3, 5};
  static const float w[] = {51622.0039f, 169.166824f,   9.71351242f,    6165.84668f, 23.0496502f, 0.0909809768f,
                            326345.656f, 0.0108998166f, 0.00135397515f, 48893.5312f, 7.49317026f, 65524.8281f,
                            82023.6484f, 131.814377f,   124825.383f,    1.56331146f, 0.551503539f};
  fp_graph g;
  gsp_graph* h;
  int ai, k;
  fp_graph_alloc(&g, "rounding-tail", GSP_F32, 7, 17);
  memcpy(g.src, src, sizeof src);
  memcpy(g.dst, dst, sizeof dst);
  for (k = 0; k < 17; k++) g.w[k] = (double)w[k];
  fp_graph_csr(&g);
  h = fp_create(&g);
  for (ai = 0; ai < plan->num_apsp; ai++) fp_apsp_case(plan, &g, h, plan->apsp[ai]);
  gsp_graph_destroy(h);
  fp_graph_free(&g);
}

static int fp_run(const fp_plan* plan, const char* name) {
  fp_rounding_tail(plan);
  fp_random_graphs(plan);
  fp_negative_cycles(plan);
  fp_rounding_cycles(plan);
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish(name);
}

#endif
