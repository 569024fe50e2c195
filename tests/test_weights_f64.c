/* GSP_F64 weights through the C API, where float32 and int32 fall short:
 * integer weights of 1e8..2e8 whose sums float rounds (every CPU engine
 * exact, as scipy and networkx compute them), weights beyond FLT_MAX,
 * overflow past DBL_MAX answered GSP_ERR_OVERFLOW, NaN and inf refused,
 * the CSR and the results copied out as doubles, the options of libgsp 0.1
 * (no `limit` field) still accepted. The engines' shapes and every
 * algorithm are covered by test_cpu_apsp, test_cpu_sssp and test_table,
 * which loop over all three weight types. */
#include <float.h>

#include "testing.h"

static const gsp_algorithm k_sssp[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING};
static const gsp_algorithm k_apsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON,
                                       GSP_APSP_DELTA_STEPPING};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static gsp_options cpu_opts(gsp_algorithm algo, int32_t threads) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = algo;
  o.num_threads = threads;
  return o;
}

/* 20 vertices, random arcs of integer weight in [1e8, 2e8]: every distance
 * is an integer below 2^53, so double sums are exact in any order; float
 * rounds them (its spacing at 2e9 is 256). */
static void test_large_integers(void) {
  t_arcs a;
  t_rng r = {7};
  int32_t i, u, v;
  int64_t ref[20 * 20];
  double* w;
  gsp_graph* g = NULL;
  int ai, th;
  t_arcs_init(&a, "large-int", 20);
  for (i = 0; i < 70; i++) {
    u = t_below(&r, 20);
    v = t_below(&r, 20);
    t_arc(&a, u, v, 100000000 + t_below(&r, 100000001));
  }
  t_ref_floyd_warshall(&a, ref);
  w = (double*)malloc((size_t)a.m * sizeof(double));
  for (i = 0; i < a.m; i++) w[i] = (double)a.w[i];
  CHECK_OK(gsp_graph_create(&g, a.n, a.m, a.src, a.dst, w, GSP_F64, 0));
  CHECK(gsp_graph_weight_type(g) == GSP_F64, "weight type %d", (int)gsp_graph_weight_type(g));
  for (ai = 0; ai < COUNT(k_apsp); ai++) {
    for (th = 1; th <= 3; th += 2) {
      gsp_options o = cpu_opts(k_apsp[ai], th);
      gsp_paths* p = NULL;
      char what[96];
      snprintf(what, sizeof what, "large-int %s threads=%d", gsp_algorithm_name(k_apsp[ai]), th);
      CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
      for (u = 0; p && u < a.n; u++) {
        CHECK(t_compare_row(p, GSP_F64, u, ref + (size_t)u * 20, a.n, 1.0f, what) == 0, "%s: row %d", what, u);
        for (v = 0; v < a.n; v += 3) CHECK(t_check_path(p, &a, u, v, ref[u * 20 + v], what) == 0, "%s", what);
      }
      gsp_paths_destroy(p);
    }
  }
  for (ai = 0; ai < COUNT(k_sssp); ai++) {
    gsp_options o = cpu_opts(k_sssp[ai], 2);
    gsp_paths* p = NULL;
    CHECK_OK(gsp_sssp_run(g, 5, &o, &p));
    if (p) CHECK(t_compare_row(p, GSP_F64, 5, ref + 5 * 20, a.n, 1.0f, gsp_algorithm_name(k_sssp[ai])) == 0, "sssp");
    gsp_paths_destroy(p);
  }
  {
    /* The same graph in float: some distance is off, which is why GSP_F64 exists. */
    float* wf = (float*)malloc((size_t)a.m * sizeof(float));
    gsp_graph* gf = NULL;
    gsp_paths* p = NULL;
    gsp_options o = cpu_opts(GSP_APSP_FLOYD_WARSHALL, 1);
    int off = 0;
    float d = 0;
    for (i = 0; i < a.m; i++) wf[i] = (float)a.w[i];
    CHECK_OK(gsp_graph_create(&gf, a.n, a.m, a.src, a.dst, wf, GSP_F32, 0));
    CHECK_OK(gsp_apsp_run(gf, NULL, 0, &o, &p));
    for (u = 0; p && u < a.n; u++) {
      for (v = 0; v < a.n; v++) {
        if (ref[u * 20 + v] == T_INF_REF) continue;
        gsp_paths_distance(p, u, v, &d);
        off += (double)d != (double)ref[u * 20 + v];
      }
    }
    CHECK(off > 0, "float32 was expected to round some of these sums");
    gsp_paths_destroy(p);
    gsp_graph_destroy(gf);
    free(wf);
  }
  gsp_graph_destroy(g);
  free(w);
  t_arcs_free(&a);
}

/* Weights beyond FLT_MAX: a float graph refuses them, a double one runs. */
static void test_beyond_float(void) {
  const int32_t s[] = {0, 1, 0};
  const int32_t t[] = {1, 2, 2};
  const double w[] = {1e39, 2e39, 5e39};
  const double huge[] = {1.5e308, 1.5e308, 1.0};
  const double bad[] = {1.0, NAN, 1.0};
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  double d = 0;
  int ai;
  for (ai = 0; ai < COUNT(k_sssp); ai++) {
    gsp_options o = cpu_opts(k_sssp[ai], 2);
    CHECK_OK(gsp_graph_create(&g, 3, 3, s, t, w, GSP_F64, 0));
    CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
    CHECK_OK(gsp_paths_distance(p, 0, 2, &d));
    CHECK(d == 3e39, "%s: d(0,2) = %.17g, want 3e39", gsp_algorithm_name(k_sssp[ai]), d);
    gsp_paths_destroy(p);
    p = NULL;
    gsp_graph_destroy(g);
    g = NULL;
  }
  /* 0 -> 1 -> 2 sums past DBL_MAX while 2 is reachable: overflow, named. */
  CHECK_OK(gsp_graph_create(&g, 3, 2, s, t, huge, GSP_F64, 0));
  for (ai = 0; ai < COUNT(k_apsp); ai++) {
    gsp_options o = cpu_opts(k_apsp[ai], 2);
    CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_OVERFLOW);
    CHECK(strstr(gsp_last_error(), "DBL_MAX") != NULL || strstr(gsp_last_error(), "double") != NULL, "%s: %s",
          gsp_algorithm_name(k_apsp[ai]), gsp_last_error());
    CHECK(p == NULL, "no result on failure");
  }
  gsp_graph_destroy(g);
  g = NULL;
  CHECK_STATUS(gsp_graph_create(&g, 3, 3, s, t, bad, GSP_F64, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "weights[1]") != NULL, "%s", gsp_last_error());
  CHECK(g == NULL, "no graph on failure");
}

/* CSR out, distances out, one distance out: 8 bytes each, nothing more. */
static void test_copies(void) {
  const int64_t off[] = {0, 2, 3, 3};
  const int32_t tg[] = {1, 2, 2};
  const double w[] = {0.1, 0.7, 0.2};
  int64_t o2[4];
  int32_t t2[3];
  double w2[4] = {-1, -1, -1, -1}, d[4] = {-1, -1, -1, -1};
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  CHECK_OK(gsp_graph_create_csr(&g, 3, off, tg, w, GSP_F64, 0));
  CHECK_OK(gsp_graph_csr(g, o2, t2, w2));
  CHECK(w2[0] == 0.1 && w2[1] == 0.7 && w2[2] == 0.2 && w2[3] == -1, "csr weights %g %g %g", w2[0], w2[1], w2[2]);
  CHECK_OK(gsp_sssp_run(g, 0, NULL, &p));
  CHECK_OK(gsp_paths_distances(p, 0, d, 3));
  CHECK(d[0] == 0 && d[1] == 0.1 && d[2] == 0.1 + 0.2 && d[3] == -1, "d = %.17g %.17g %.17g", d[0], d[1], d[2]);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* A caller built against libgsp 0.1 has the 72-byte gsp_options, without
 * `limit`: its gsp_options_init (the exported function, not the header's
 * macro) writes only those bytes, its runs are accepted with no limit (the
 * bytes beyond are not read), and gsp_options_init_sized never writes past
 * the size it is given. */
static void test_old_options(void) {
  const int32_t s[] = {0};
  const int32_t t[] = {1};
  const double w[] = {1e6};
  const size_t v1 = offsetof(gsp_options, limit);
  unsigned char raw[sizeof(gsp_options) + 16];
  gsp_options o;
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  double d = 0;
  size_t i;
  int untouched = 1;
  gsp_options_init(&o);
  CHECK(o.limit == HUGE_VAL && o.size == sizeof o, "gsp_options_init: limit %g, size %u", o.limit, o.size);
  memset(raw, 0xab, sizeof raw);
  (gsp_options_init)((gsp_options*)(void*)raw); /* libgsp 0.1's function */
  for (i = v1; i < sizeof raw; i++) untouched &= raw[i] == 0xab;
  CHECK(untouched, "0.1's gsp_options_init wrote past 0.1's struct");
  CHECK(((gsp_options*)(void*)raw)->size == v1, "0.1's gsp_options_init: size %u", ((gsp_options*)(void*)raw)->size);
  memset(raw, 0xab, sizeof raw);
  gsp_options_init_sized((gsp_options*)(void*)raw, v1 + 4);
  for (i = v1 + 4, untouched = 1; i < sizeof raw; i++) untouched &= raw[i] == 0xab;
  CHECK(untouched, "gsp_options_init_sized wrote past the size it was given");
  memset(raw, 0xab, sizeof raw);
  gsp_options_init_sized((gsp_options*)(void*)raw, sizeof raw);
  for (i = sizeof(gsp_options), untouched = 1; i < sizeof raw; i++) untouched &= raw[i] == 0xab;
  CHECK(untouched && ((gsp_options*)(void*)raw)->size == sizeof(gsp_options), "a larger caller struct");
  /* a 0.1 caller's run: the bytes past its struct (here: limit 0) are not read */
  memset(raw, 0, sizeof raw);
  (gsp_options_init)((gsp_options*)(void*)raw);
  CHECK_OK(gsp_graph_create(&g, 2, 1, s, t, w, GSP_F64, 0));
  CHECK_OK(gsp_sssp_run(g, 0, (const gsp_options*)(const void*)raw, &p));
  CHECK_OK(gsp_paths_distance(p, 0, 1, &d));
  CHECK(d == 1e6, "old options: d = %g", d);
  gsp_paths_destroy(p);
  o.size = (uint32_t)v1 - 1;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_graph_destroy(g);
}

int main(void) {
  test_large_integers();
  test_beyond_float();
  test_copies();
  test_old_options();
  return t_finish("test_weights_f64");
}
