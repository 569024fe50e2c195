/* Every entry point x backend request x weight sign, with the algorithm
 * left to AUTO: AUTO never picks an algorithm the requested backend lacks.
 * Each run either answers (the distances equal an int64 Bellman-Ford
 * reference, every path a real path of that length), reports the graph's
 * negative cycle, or, for a CUDA request where CUDA cannot run, says
 * GSP_ERR_NO_DEVICE; GSP_ERR_UNSUPPORTED or anything else fails. gsp_run_plan
 * agrees with the run. Graphs of every weight type: non-negative weights,
 * negative arcs without a negative cycle (weights shifted by potentials, so
 * every cycle keeps a positive sum), and a negative cycle reachable from
 * every source. Run on CPU-only machines (CUDA requests: NO_DEVICE) and by
 * the GPU check, where every CUDA request answers. */
#include "testing.h"

enum { SIGN_NON_NEGATIVE, SIGN_NEGATIVE, SIGN_NEGATIVE_CYCLE, NUM_SIGNS };
static const char* const sign_names[NUM_SIGNS] = {"w>=0", "negative arcs", "negative cycle"};

enum { N_SOURCES = 5, N_TARGETS = 7 };

/* A random graph of n vertices, 4 arcs each plus a ring (every vertex
 * reaches every other), weights per sign. */
static void make_graph(t_arcs* a, int sign, int32_t n, uint64_t seed) {
  t_rng r = {seed * 104729u + (uint64_t)sign};
  int32_t* h = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t u, j;
  for (u = 0; u < n; u++) h[u] = sign == SIGN_NON_NEGATIVE ? 0 : t_below(&r, 60);
  t_arcs_init(a, sign_names[sign], n);
  for (u = 0; u < n; u++) {
    for (j = 0; j < 5; j++) {
      const int32_t v = j == 0 ? (u + 1) % n : t_below(&r, n);
      /* w' = w + h[u] - h[v]: a cycle's sum is its positive w's sum. */
      t_arc(a, u, v, 1 + t_below(&r, 30) + h[u] - h[v]);
    }
  }
  if (sign == SIGN_NEGATIVE_CYCLE) { /* 1 -> 2 -> 3 -> 1 sums to -3, reached from everywhere by the ring */
    t_arc(a, 1, 2, -1);
    t_arc(a, 2, 3, -1);
    t_arc(a, 3, 1, -1);
  }
  free(h);
}

typedef struct {
  const t_arcs* a;
  gsp_dtype dtype;
  const char* what;
  int64_t** ref; /* ref[v]: the reference row from v (filled on first use) */
} sweep;

static const int64_t* ref_row(sweep* w, int32_t s) {
  if (w->ref[s] == NULL) {
    w->ref[s] = (int64_t*)malloc((size_t)w->a->n * sizeof(int64_t));
    t_ref_bellman_ford(w->a, s, w->ref[s]);
  }
  return w->ref[s];
}

/* Distance v of a row as int64 (T_INF_REF unreachable); the graphs' weights
 * are integers, exact in every type. */
static int64_t as_ref(const void* row, gsp_dtype dtype, int64_t v) {
  const double d = t_dist_at(row, dtype, v);
  return isinf(d) ? T_INF_REF : (int64_t)d;
}

/* pred's chain from v back to s is a path whose weight is d(s, v). */
static int path_ok(const t_arcs* a, const int32_t* pred, int32_t s, int32_t v, int64_t want) {
  int64_t sum = 0;
  int32_t steps = 0;
  while (v != s) {
    const int32_t u = pred[v];
    int64_t best = T_INF_REF, k;
    if (u < 0 || u >= a->n || ++steps > a->n) return 0;
    for (k = 0; k < a->m; k++) {
      if (a->src[k] == u && a->dst[k] == v && a->w[k] < best) best = a->w[k];
    }
    if (best == T_INF_REF) return 0;
    sum += best;
    v = u;
  }
  return sum == want;
}

/* The status a run must end with, or -1 when any of OK is fine. */
static gsp_status expected(int sign, gsp_backend backend) {
  if (backend == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) return GSP_ERR_NO_DEVICE;
  return sign == SIGN_NEGATIVE_CYCLE ? GSP_ERR_NEGATIVE_CYCLE : GSP_OK;
}

static int check_status(const char* entry, const sweep* w, gsp_backend backend, int sign, gsp_status got) {
  const gsp_status want = expected(sign, backend);
  CHECK(got == want, "%s, %s, %s, backend %d: %s (want %s): %s", entry, w->what, sign_names[sign], (int)backend,
        gsp_status_name(got), gsp_status_name(want), gsp_last_error());
  return got == GSP_OK && want == GSP_OK;
}

/* One row of distances (and predecessors, or NULL) from s against the reference. */
static void check_row(sweep* w, const char* entry, gsp_backend backend, int32_t s, const void* dist,
                      const int32_t* pred) {
  const int64_t* ref = ref_row(w, s);
  int32_t v, bad = 0;
  for (v = 0; v < w->a->n && bad < 3; v++) {
    const int64_t got = as_ref(dist, w->dtype, v);
    if (got != ref[v] || (pred != NULL && ref[v] != T_INF_REF && !path_ok(w->a, pred, s, v, ref[v]))) {
      CHECK(0, "%s, %s, backend %d: d(%d, %d) = %lld, want %lld (or its path is wrong)", entry, w->what, (int)backend,
            s, v, (long long)got, (long long)ref[v]);
      bad++;
    }
  }
}

static void check_plan(const gsp_graph* g, const sweep* w, int sssp, int32_t k, const gsp_options* o, int sign,
                       gsp_status run_status) {
  gsp_backend b;
  gsp_algorithm al;
  const gsp_status ps = gsp_run_plan(g, sssp, k, o, &b, &al);
  /* A plan sees the weights, not a cycle: it says OK where the run finds one. */
  const gsp_status want = run_status == GSP_ERR_NEGATIVE_CYCLE ? GSP_OK : run_status;
  CHECK(ps == want, "gsp_run_plan(%s, %d sources), %s, %s: %s, the run %s: %s", sssp ? "sssp" : "apsp", (int)k, w->what,
        sign_names[sign], gsp_status_name(ps), gsp_status_name(run_status), gsp_last_error());
  CHECK(ps != GSP_ERR_UNSUPPORTED, "a plan of AUTO is unsupported");
}

typedef struct {
  sweep* w;
  const int32_t* sources;
  gsp_backend backend;
  int32_t rows;
} stream_state;

static int on_rows(void* user, int32_t first, int32_t num_rows, const void* dist, const int32_t* pred) {
  stream_state* st = (stream_state*)user;
  const int32_t n = st->w->a->n;
  int32_t r;
  for (r = 0; r < num_rows; r++) {
    check_row(st->w, "gsp_apsp_stream", st->backend, st->sources[first + r],
              (const char*)dist + (size_t)r * (size_t)n * t_dist_bytes(st->w->dtype),
              pred != NULL ? pred + (size_t)r * (size_t)n : NULL);
  }
  st->rows += num_rows;
  return 0;
}

static void sweep_graph(sweep* w, const gsp_graph* g, int sign, gsp_backend backend) {
  static const int32_t sources[N_SOURCES] = {0, 7, 3, 0, 11};
  static const int32_t targets[N_TARGETS] = {5, 0, 9, 1, 5, 2, 13};
  const int32_t n = w->a->n;
  const size_t db = t_dist_bytes(w->dtype);
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_table* t = NULL;
  gsp_status s;
  char* dist = (char*)malloc((size_t)N_SOURCES * (size_t)n * db);
  int32_t* pred = (int32_t*)malloc((size_t)N_SOURCES * (size_t)n * sizeof(int32_t));
  int32_t* nearest = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t i, j;
  gsp_options_init(&o);
  o.backend = backend;

  s = gsp_sssp_run(g, 0, &o, &p);
  check_plan(g, w, 1, 1, &o, sign, s);
  if (check_status("gsp_sssp_run", w, backend, sign, s)) {
    CHECK_OK(gsp_paths_distances(p, 0, dist, n));
    CHECK_OK(gsp_paths_predecessors(p, 0, pred, n));
    check_row(w, "gsp_sssp_run", backend, 0, dist, pred);
  }
  gsp_paths_destroy(p);
  p = NULL;

  /* Every source, then a subset (repeats included). */
  for (i = 0; i < 2; i++) {
    const int32_t k = i == 0 ? 0 : N_SOURCES;
    s = gsp_apsp_run(g, i == 0 ? NULL : sources, k, &o, &p);
    check_plan(g, w, 0, k, &o, sign, s);
    if (check_status(i == 0 ? "gsp_apsp_run (all)" : "gsp_apsp_run (sources)", w, backend, sign, s)) {
      const int32_t rows = i == 0 ? 3 : N_SOURCES; /* of all: the first rows suffice */
      for (j = 0; j < rows; j++) {
        const int32_t src = i == 0 ? j : sources[j];
        CHECK_OK(gsp_paths_distances(p, src, dist, n));
        CHECK_OK(gsp_paths_predecessors(p, src, pred, n));
        check_row(w, "gsp_apsp_run", backend, src, dist, pred);
      }
    }
    gsp_paths_destroy(p);
    p = NULL;
  }

  s = gsp_apsp_run_into(g, sources, N_SOURCES, &o, dist, pred, NULL);
  if (check_status("gsp_apsp_run_into", w, backend, sign, s)) {
    for (j = 0; j < N_SOURCES; j++) {
      check_row(w, "gsp_apsp_run_into", backend, sources[j], dist + (size_t)j * (size_t)n * db,
                pred + (size_t)j * (size_t)n);
    }
  }

  {
    stream_state st = {w, sources, backend, 0};
    s = gsp_apsp_stream(g, sources, N_SOURCES, &o, on_rows, &st);
    if (check_status("gsp_apsp_stream", w, backend, sign, s)) {
      CHECK(st.rows == N_SOURCES, "gsp_apsp_stream delivered %d rows", (int)st.rows);
    }
  }

  s = gsp_table_run(g, sources, N_SOURCES, targets, N_TARGETS, &o, &t);
  if (check_status("gsp_table_run", w, backend, sign, s)) {
    CHECK_OK(gsp_table_distances(t, dist, (int64_t)N_SOURCES * N_TARGETS));
    for (i = 0; i < N_SOURCES; i++) {
      for (j = 0; j < N_TARGETS; j++) {
        const int64_t want = ref_row(w, sources[i])[targets[j]];
        const int64_t got = as_ref(dist, w->dtype, (int64_t)i * N_TARGETS + j);
        CHECK(got == want, "gsp_table_run, %s, backend %d: cell (%d, %d) %lld, want %lld", w->what, (int)backend,
              (int)i, (int)j, (long long)got, (long long)want);
      }
    }
  }
  gsp_table_destroy(t);
  t = NULL;

  /* One source and one target (a point-to-point query): with paths. */
  s = gsp_table_run(g, &sources[1], 1, &targets[2], 1, &o, &t);
  if (check_status("gsp_table_run (1 x 1)", w, backend, sign, s)) {
    int32_t len = 0;
    const int64_t want = ref_row(w, sources[1])[targets[2]];
    CHECK_OK(gsp_table_distances(t, dist, 1));
    CHECK(as_ref(dist, w->dtype, 0) == want, "gsp_table_run (1 x 1), %s, backend %d: %lld, want %lld", w->what,
          (int)backend, (long long)as_ref(dist, w->dtype, 0), (long long)want);
    if (want != T_INF_REF) {
      CHECK_OK(gsp_table_path(t, 0, 0, pred, n, &len));
      for (i = 0; i < len; i++) nearest[pred[i]] = len > 1 && i > 0 ? pred[i - 1] : -1; /* pred as a chain */
      CHECK(len >= 1 && pred[0] == sources[1] && pred[len - 1] == targets[2] &&
                path_ok(w->a, nearest, sources[1], targets[2], want),
            "gsp_table_run (1 x 1), %s, backend %d: a path of %d vertices that is not a shortest one", w->what,
            (int)backend, (int)len);
    }
  }
  gsp_table_destroy(t);
  t = NULL;

  s = gsp_table_run_into(g, sources, N_SOURCES, targets, N_TARGETS, &o, dist, NULL);
  if (check_status("gsp_table_run_into", w, backend, sign, s)) {
    for (i = 0; i < N_SOURCES; i++) {
      for (j = 0; j < N_TARGETS; j++) {
        const int64_t want = ref_row(w, sources[i])[targets[j]];
        const int64_t got = as_ref(dist, w->dtype, (int64_t)i * N_TARGETS + j);
        CHECK(got == want, "gsp_table_run_into, %s, backend %d: cell (%d, %d) %lld, want %lld", w->what, (int)backend,
              (int)i, (int)j, (long long)got, (long long)want);
      }
    }
  }

  s = gsp_nearest_run(g, sources, N_SOURCES, &o, dist, nearest, NULL);
  if (check_status("gsp_nearest_run", w, backend, sign, s)) {
    int32_t v;
    for (v = 0; v < n; v++) {
      int64_t best = T_INF_REF;
      for (i = 0; i < N_SOURCES; i++) {
        const int64_t d = ref_row(w, sources[i])[v];
        if (d < best) best = d;
      }
      CHECK(as_ref(dist, w->dtype, v) == best, "gsp_nearest_run, %s, backend %d: vertex %d at %lld, want %lld", w->what,
            (int)backend, (int)v, (long long)as_ref(dist, w->dtype, v), (long long)best);
      CHECK(nearest[v] >= 0 && ref_row(w, nearest[v])[v] == best, "gsp_nearest_run: vertex %d names source %d", (int)v,
            (int)nearest[v]);
    }
  }
  free(dist);
  free(pred);
  free(nearest);
}

/* Where CUDA runs: Johnson on the device against the CPU's on a larger
 * graph with negative arcs (a grid, weights shifted by potentials), 64 rows
 * with paths and a 64 x 64 table: int32 and float64 equal bit for bit,
 * float within 1e-6 relative. */
static void johnson_on_device_vs_cpu(gsp_dtype dtype) {
  enum { SIDE = 120, K = 64 };
  t_arcs a;
  t_rng r = {99};
  int32_t* h = (int32_t*)malloc((size_t)SIDE * SIDE * sizeof(int32_t));
  int32_t sources[K], i, j, v;
  gsp_graph* g;
  gsp_options o;
  gsp_paths *cpu = NULL, *gpu = NULL;
  gsp_table *tc = NULL, *tg = NULL;
  const size_t n = (size_t)SIDE * SIDE, db = t_dist_bytes(dtype);
  char* dc = (char*)malloc(n * db);
  char* dg = (char*)malloc(n * db);
  for (v = 0; v < SIDE * SIDE; v++) h[v] = t_below(&r, 500);
  t_arcs_init(&a, "grid with potentials", SIDE * SIDE);
  for (i = 0; i < SIDE; i++) {
    for (j = 0; j < SIDE; j++) {
      const int32_t u = i * SIDE + j;
      if (j + 1 < SIDE) {
        t_arc(&a, u, u + 1, 1 + t_below(&r, 50) + h[u] - h[u + 1]);
        t_arc(&a, u + 1, u, 1 + t_below(&r, 50) + h[u + 1] - h[u]);
      }
      if (i + 1 < SIDE) {
        t_arc(&a, u, u + SIDE, 1 + t_below(&r, 50) + h[u] - h[u + SIDE]);
        t_arc(&a, u + SIDE, u, 1 + t_below(&r, 50) + h[u + SIDE] - h[u]);
      }
    }
  }
  for (i = 0; i < K; i++) sources[i] = t_below(&r, SIDE * SIDE);
  g = t_graph(&a, dtype, dtype == GSP_I32 ? 1.0f : 0.37f);
  gsp_options_init(&o);
  o.algorithm = GSP_APSP_JOHNSON;
  o.backend = GSP_BACKEND_CPU;
  CHECK_OK(gsp_apsp_run(g, sources, K, &o, &cpu));
  CHECK_OK(gsp_table_run(g, sources, K, sources, K, &o, &tc));
  o.backend = GSP_BACKEND_CUDA;
  CHECK_OK(gsp_apsp_run(g, sources, K, &o, &gpu));
  CHECK_OK(gsp_table_run(g, sources, K, sources, K, &o, &tg));
  if (cpu != NULL && gpu != NULL) {
    gsp_run_info info;
    int bad = 0;
    memset(&info, 0, sizeof info);
    CHECK_OK(gsp_paths_info(gpu, &info));
    CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == GSP_APSP_JOHNSON, "Johnson on CUDA ran %s on %d",
          gsp_algorithm_name(info.algorithm), (int)info.backend);
    for (i = 0; i < K && bad < 5; i++) {
      CHECK_OK(gsp_paths_distances(cpu, sources[i], dc, (int64_t)n));
      CHECK_OK(gsp_paths_distances(gpu, sources[i], dg, (int64_t)n));
      for (v = 0; v < (int32_t)n && bad < 5; v++) {
        const double x = t_dist_at(dc, dtype, v), y = t_dist_at(dg, dtype, v);
        const double tol = dtype == GSP_F32 ? 1e-6 * (fabs(x) + 1.0) : 0.0;
        if (!(fabs(x - y) <= tol || x == y)) {
          CHECK(0, "Johnson %s: d(%d, %d) CUDA %.17g, CPU %.17g", t_dtype_name(dtype), (int)sources[i], (int)v, y, x);
          bad++;
        }
      }
    }
    {
      gsp_run_info ci;
      memset(&ci, 0, sizeof ci);
      CHECK_OK(gsp_paths_info(cpu, &ci));
      printf("Johnson, %s, %d x %d grid with negative arcs, %d rows with paths: CUDA %.4f s (%s), CPU %.4f s\n",
             t_dtype_name(dtype), SIDE, SIDE, K, info.seconds, info.device_name, ci.seconds);
    }
  }
  if (tc != NULL && tg != NULL) {
    int32_t len_c = 0, len_g = 0;
    CHECK_OK(gsp_table_distances(tc, dc, (int64_t)K * K));
    CHECK_OK(gsp_table_distances(tg, dg, (int64_t)K * K));
    for (i = 0; i < K * K; i++) {
      const double x = t_dist_at(dc, dtype, i), y = t_dist_at(dg, dtype, i);
      const double tol = dtype == GSP_F32 ? 1e-6 * (fabs(x) + 1.0) : 0.0;
      CHECK(fabs(x - y) <= tol || x == y, "Johnson table %s: cell %d CUDA %.17g, CPU %.17g", t_dtype_name(dtype),
            (int)i, y, x);
    }
    CHECK_OK(gsp_table_path(tc, 3, 5, NULL, 0, &len_c));
    CHECK_OK(gsp_table_path(tg, 3, 5, NULL, 0, &len_g));
    CHECK(len_c > 0 && len_g > 0, "Johnson table paths: lengths %d / %d", (int)len_c, (int)len_g);
  }
  gsp_paths_destroy(cpu);
  gsp_paths_destroy(gpu);
  gsp_table_destroy(tc);
  gsp_table_destroy(tg);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  free(h);
  free(dc);
  free(dg);
}

int main(void) {
  static const gsp_backend backends[] = {GSP_BACKEND_AUTO, GSP_BACKEND_CPU, GSP_BACKEND_CUDA};
  static const int32_t sizes[] = {40, 300};
  int sign, d;
  size_t si, bi;
  printf("test_backend_sweep: CUDA %s\n", gsp_backend_available(GSP_BACKEND_CUDA)
                                              ? "usable: every CUDA request must answer"
                                              : "not usable: CUDA requests must say GSP_ERR_NO_DEVICE");
  for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    for (sign = 0; sign < NUM_SIGNS; sign++) {
      t_arcs a;
      int32_t v;
      make_graph(&a, sign, sizes[si], 3);
      for (d = 0; d < T_NUM_DTYPES; d++) {
        char what[64];
        gsp_graph* g = t_graph(&a, t_dtypes[d], 1.0f);
        sweep w;
        w.a = &a;
        w.dtype = t_dtypes[d];
        w.ref = (int64_t**)calloc((size_t)a.n, sizeof(int64_t*));
        snprintf(what, sizeof what, "n = %d, %s", (int)a.n, t_dtype_name(t_dtypes[d]));
        w.what = what;
        for (bi = 0; bi < sizeof backends / sizeof backends[0]; bi++) sweep_graph(&w, g, sign, backends[bi]);
        for (v = 0; v < a.n; v++) free(w.ref[v]);
        free(w.ref);
        gsp_graph_destroy(g);
      }
      t_arcs_free(&a);
    }
  }
  if (gsp_backend_available(GSP_BACKEND_CUDA)) {
    for (d = 0; d < T_NUM_DTYPES; d++) johnson_on_device_vs_cpu(t_dtypes[d]);
  }
  return t_finish("test_backend_sweep");
}
