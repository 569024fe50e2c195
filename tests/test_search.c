/* Bounded and nearest-source searches (gsp_search.h) on the CPU engines,
 * every weight type: gsp_options::limit cuts SSSP rows, APSP rows (result,
 * caller arrays and stream) and table cells exactly at the reference
 * distances, keeps the paths of what it keeps, refuses negative weights,
 * NaN and negative limits; gsp_nearest_run gives each vertex the minimum
 * over the sources of the reference distances, names a source at that
 * distance (a source itself), and a predecessor chain from that source
 * whose arcs sum to the distance; bad arguments get a status. */
#include "testing.h"

static const gsp_algorithm k_sssp[] = {GSP_ALGO_AUTO, GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD,
                                       GSP_SSSP_DELTA_STEPPING};
static const gsp_algorithm k_apsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON,
                                       GSP_APSP_DELTA_STEPPING};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static gsp_options cpu_opts(gsp_algorithm algo, double limit) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = algo;
  o.num_threads = 2;
  o.limit = limit;
  return o;
}

/* The reference row cut at the limit. */
static void cut_ref(const int64_t* ref, int32_t n, double limit, int64_t* out) {
  int32_t v;
  for (v = 0; v < n; v++) out[v] = ref[v] != T_INF_REF && (double)ref[v] > limit ? T_INF_REF : ref[v];
}

/* Checks source s's row of p against ref cut at limit: distances, no
 * predecessor beyond the limit, and a valid path to a few kept vertices. */
static void check_cut_row(const gsp_paths* p, const t_arcs* a, gsp_dtype dt, int32_t s, const int64_t* ref,
                          double limit, const char* what) {
  int64_t* want = (int64_t*)malloc((size_t)a->n * sizeof(int64_t));
  int32_t* pred = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
  int32_t v;
  cut_ref(ref, a->n, limit, want);
  CHECK(t_compare_row(p, dt, s, want, a->n, 1.0f, what) == 0, "%s: row %d", what, s);
  if (gsp_paths_predecessors(p, s, pred, a->n) == GSP_OK) {
    for (v = 0; v < a->n; v++) {
      if (want[v] == T_INF_REF && pred[v] != -1) {
        CHECK(0, "%s: vertex %d beyond the limit has predecessor %d", what, v, pred[v]);
        break;
      }
    }
    for (v = s % 5; v < a->n; v += 5) CHECK(t_check_path(p, a, s, v, want[v], what) == 0, "%s: path", what);
  }
  free(want);
  free(pred);
}

typedef struct {
  const t_arcs* a;
  gsp_dtype dt;
  const int64_t* ref; /* n x n */
  double limit;
  int32_t rows;
  int bad;
} stream_check;

static int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  stream_check* c = (stream_check*)user;
  int32_t r, v, n = c->a->n;
  (void)pred;
  for (r = 0; r < rows; r++) {
    const char* row = (const char*)dist + (size_t)r * (size_t)n * t_dist_bytes(c->dt);
    const int64_t* ref = c->ref + (size_t)(first + r) * (size_t)n;
    for (v = 0; v < n; v++) {
      double got = t_dist_at(row, c->dt, v);
      int beyond = ref[v] == T_INF_REF || (double)ref[v] > c->limit;
      c->bad += beyond ? !isinf(got) : got != (double)ref[v];
    }
  }
  c->rows += rows;
  return 0;
}

static void test_limit(void) {
  static const int shapes[] = {T_GRID, T_RANDOM_SPARSE};
  int si, di, ai;
  for (si = 0; si < COUNT(shapes); si++) {
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, shapes[si], 150, 3);
    ref = (int64_t*)malloc((size_t)a.n * (size_t)a.n * sizeof(int64_t));
    t_ref_floyd_warshall(&a, ref);
    for (di = 0; di < T_NUM_DTYPES; di++) {
      gsp_dtype dt = t_dtypes[di];
      gsp_graph* g = t_graph(&a, dt, 1.0f);
      /* a limit at a reference distance (kept: "at most") and one between distances */
      double limits[3];
      int64_t far = 0;
      int32_t v;
      int li;
      for (v = 0; v < a.n; v++) {
        int64_t d = ref[(size_t)7 * a.n + v];
        if (d != T_INF_REF && d > far) far = d;
      }
      limits[0] = 0;
      limits[1] = (double)(far / 2);
      limits[2] = limits[1] + 0.5;
      for (li = 0; li < 3; li++) {
        char what[128];
        for (ai = 0; ai < COUNT(k_sssp); ai++) {
          gsp_options o = cpu_opts(k_sssp[ai], limits[li]);
          gsp_paths* p = NULL;
          snprintf(what, sizeof what, "%s %s sssp %s limit %g", a.name, t_dtype_name(dt),
                   gsp_algorithm_name(k_sssp[ai]), limits[li]);
          CHECK_OK(gsp_sssp_run(g, 7, &o, &p));
          if (p) check_cut_row(p, &a, dt, 7, ref + (size_t)7 * a.n, limits[li], what);
          gsp_paths_destroy(p);
        }
        for (ai = 0; ai < COUNT(k_apsp); ai++) {
          gsp_options o = cpu_opts(k_apsp[ai], limits[li]);
          gsp_paths* p = NULL;
          int32_t s;
          stream_check c;
          snprintf(what, sizeof what, "%s %s apsp %s limit %g", a.name, t_dtype_name(dt),
                   gsp_algorithm_name(k_apsp[ai]), limits[li]);
          CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
          for (s = 0; p && s < a.n; s += 11) check_cut_row(p, &a, dt, s, ref + (size_t)s * a.n, limits[li], what);
          gsp_paths_destroy(p);
          memset(&c, 0, sizeof c);
          c.a = &a;
          c.dt = dt;
          c.ref = ref;
          c.limit = limits[li];
          CHECK_OK(gsp_apsp_stream(g, NULL, 0, &o, on_rows, &c));
          CHECK(c.rows == a.n && c.bad == 0, "%s: stream %d rows, %d bad", what, c.rows, c.bad);
        }
        {
          /* a table: cells beyond the limit unreachable, with no path */
          int32_t src[3] = {7, 0, 7}, dst[4] = {0, a.n / 2, a.n - 1, 7}, i, j, len = 9;
          gsp_options o = cpu_opts(GSP_ALGO_AUTO, limits[li]);
          gsp_table* t = NULL;
          CHECK_OK(gsp_table_run(g, src, 3, dst, 4, &o, &t));
          for (i = 0; t && i < 3; i++) {
            for (j = 0; j < 4; j++) {
              int64_t want = ref[(size_t)src[i] * a.n + dst[j]];
              double got = 0;
              char cell[8];
              int beyond = want == T_INF_REF || (double)want > limits[li];
              CHECK_OK(gsp_table_distance(t, i, j, cell));
              got = t_dist_at(cell, dt, 0);
              CHECK(beyond ? isinf(got) : got == (double)want, "%s %s table (%d,%d): %g, want %lld", a.name,
                    t_dtype_name(dt), i, j, got, (long long)want);
              CHECK_STATUS(gsp_table_path(t, i, j, NULL, 0, &len), beyond ? GSP_ERR_NO_PATH : GSP_OK);
            }
          }
          gsp_table_destroy(t);
        }
      }
      gsp_graph_destroy(g);
    }
    free(ref);
    t_arcs_free(&a);
  }
}

static void test_limit_refusals(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_paths* p = NULL;
  gsp_options o = cpu_opts(GSP_SSSP_BELLMAN_FORD, 10);
  t_make_shape(&a, T_DAG_NEGATIVE, 30, 2);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_NEGATIVE_WEIGHT);
  CHECK(strstr(gsp_last_error(), "limit") != NULL, "%s", gsp_last_error());
  o.limit = HUGE_VAL;
  CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
  gsp_paths_destroy(p);
  p = NULL;
  o.limit = NAN;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  o.limit = -1;
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "limit") != NULL, "%s", gsp_last_error());
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* Checks a nearest-source answer against the reference matrix. */
static void check_nearest(const t_arcs* a, gsp_dtype dt, const int64_t* ref, const int32_t* srcs, int32_t k,
                          double limit, const void* dist, const int32_t* nearest, const int32_t* pred,
                          const char* what) {
  /* nearest NULL: distances only */
  int32_t v, i, n = a->n;
  int bad = 0;
  for (v = 0; v < n && bad < 5; v++) {
    int64_t best = T_INF_REF, sum = 0;
    int32_t x, steps = 0;
    double got = t_dist_at(dist, dt, v);
    for (i = 0; i < k; i++) {
      int64_t d = ref[(size_t)srcs[i] * n + v];
      if (d < best) best = d;
    }
    if (best != T_INF_REF && (double)best > limit) best = T_INF_REF;
    if (best == T_INF_REF) {
      if (!isinf(got) || (nearest && nearest[v] != -1) || (pred && pred[v] != -1)) {
        fprintf(stderr, "%s: %d unreached: d %g nearest %d\n", what, v, got, nearest ? nearest[v] : -1);
        bad++;
      }
      continue;
    }
    if (got != (double)best) {
      fprintf(stderr, "%s: %d: d %g want %lld\n", what, v, got, (long long)best);
      bad++;
      continue;
    }
    if (!nearest) continue;
    if (nearest[v] < 0 || ref[(size_t)nearest[v] * n + v] != best) {
      fprintf(stderr, "%s: %d: nearest %d\n", what, v, nearest[v]);
      bad++;
      continue;
    }
    if (best == 0) {
      for (i = 0; i < k; i++)
        if (srcs[i] == v) break;
      if (i < k && (nearest[v] != v || (pred && pred[v] != -1))) {
        fprintf(stderr, "%s: source %d names %d\n", what, v, nearest[v]);
        bad++;
      }
    }
    if (!pred) continue;
    for (x = v; pred[x] != -1 && steps <= n; x = pred[x], steps++) {
      int64_t w = T_INF_REF, e;
      for (e = 0; e < a->m; e++)
        if (a->src[e] == pred[x] && a->dst[e] == x && a->w[e] < w) w = a->w[e];
      if (w == T_INF_REF) break;
      sum += w;
    }
    if (x != nearest[v] || sum != best) {
      fprintf(stderr, "%s: %d: chain ends at %d (nearest %d), sums to %lld, want %lld\n", what, v, x, nearest[v],
              (long long)sum, (long long)best);
      bad++;
    }
  }
  CHECK(bad == 0, "%s: %d bad vertices", what, bad);
}

static void test_nearest(void) {
  static const int shapes[] = {T_GRID, T_RANDOM_SPARSE, T_DAG_NEGATIVE, T_ISOLATED};
  int si, di, ai;
  for (si = 0; si < COUNT(shapes); si++) {
    t_arcs a;
    int64_t* ref;
    int32_t srcs[5];
    t_make_shape(&a, shapes[si], 120, 9);
    ref = (int64_t*)malloc((size_t)a.n * (size_t)a.n * sizeof(int64_t));
    t_ref_floyd_warshall(&a, ref);
    srcs[0] = 3;
    srcs[1] = a.n - 2;
    srcs[2] = a.n / 2;
    srcs[3] = 3; /* a repeat */
    srcs[4] = a.n / 3;
    for (di = 0; di < T_NUM_DTYPES; di++) {
      gsp_dtype dt = t_dtypes[di];
      gsp_graph* g = t_graph(&a, dt, 1.0f);
      void* dist = malloc((size_t)a.n * 8);
      int32_t* nearest = (int32_t*)malloc((size_t)a.n * sizeof(int32_t));
      int32_t* pred = (int32_t*)malloc((size_t)a.n * sizeof(int32_t));
      for (ai = 0; ai < COUNT(k_sssp); ai++) {
        gsp_algorithm algo = k_sssp[ai];
        double limit = ai == 1 && !a.negative ? 12 : HUGE_VAL;
        gsp_options o = cpu_opts(algo, limit);
        char what[128];
        gsp_status st;
        snprintf(what, sizeof what, "nearest %s %s %s limit %g", a.name, t_dtype_name(dt), gsp_algorithm_name(algo),
                 limit);
        st = gsp_nearest_run(g, srcs, 5, &o, dist, nearest, pred);
        if (a.negative && (algo == GSP_SSSP_DIJKSTRA || algo == GSP_SSSP_DELTA_STEPPING)) {
          CHECK(st == GSP_ERR_NEGATIVE_WEIGHT, "%s: %s", what, gsp_status_name(st));
          continue;
        }
        CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
        if (st == GSP_OK) check_nearest(&a, dt, ref, srcs, 5, limit, dist, nearest, pred, what);
        /* without predecessors (and GSP_NO_PATHS): the same distances and sources */
        o.flags = GSP_NO_PATHS;
        st = gsp_nearest_run(g, srcs, 5, &o, dist, nearest, NULL);
        CHECK(st == GSP_OK, "%s no paths: %s", what, gsp_status_name(st));
        if (st == GSP_OK) check_nearest(&a, dt, ref, srcs, 5, limit, dist, nearest, NULL, what);
        CHECK_STATUS(gsp_nearest_run(g, srcs, 5, &o, dist, nearest, pred), GSP_ERR_INVALID_ARGUMENT);
      }
      /* one source: the SSSP row */
      {
        gsp_options o = cpu_opts(GSP_ALGO_AUTO, HUGE_VAL);
        CHECK_OK(gsp_nearest_run(g, srcs + 2, 1, &o, dist, NULL, NULL));
        check_nearest(&a, dt, ref, srcs + 2, 1, HUGE_VAL, dist, NULL, NULL, "nearest, one source (distances)");
      }
      free(dist);
      free(nearest);
      free(pred);
      gsp_graph_destroy(g);
    }
    free(ref);
    t_arcs_free(&a);
  }
}

static void test_nearest_refusals(void) {
  t_arcs a;
  gsp_graph* g;
  int32_t d[10], near[10], bad = 10, one = 1;
  gsp_options o = cpu_opts(GSP_APSP_HEAP, HUGE_VAL);
  t_make_shape(&a, T_RING, 10, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_STATUS(gsp_nearest_run(g, &one, 1, &o, d, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  o.algorithm = GSP_ALGO_AUTO;
  CHECK_STATUS(gsp_nearest_run(NULL, &one, 1, &o, d, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_nearest_run(g, NULL, 1, &o, d, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_nearest_run(g, &one, 0, &o, d, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_nearest_run(g, &bad, 1, &o, d, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "sources[0] = 10") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_nearest_run(g, &one, 1, &o, NULL, near, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK_OK(gsp_nearest_run(g, &one, 1, NULL, d, near, NULL));
  CHECK(d[1] == 0 && near[1] == 1 && near[0] == 1, "ring from 1: d %d, nearest %d %d", d[1], near[1], near[0]);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  test_limit();
  test_limit_refusals();
  test_nearest();
  test_nearest_refusals();
  return t_finish("test_search");
}
