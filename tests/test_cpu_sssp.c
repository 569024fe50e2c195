/* The CPU SSSP engines (Dijkstra, Bellman-Ford, delta-stepping) through the
 * public API: every shape x both weight types against a naive Bellman-Ford,
 * path validity, negative weights and cycles, int32 overflow, GSP_NO_PATHS,
 * thread counts, delta values, and 16 threads sharing one graph. */
#include <pthread.h>
#include <unistd.h>

#include "testing.h"

static const gsp_algorithm k_algos[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING};
enum { K_NUM_ALGOS = 3 };

static int needs_nonneg(gsp_algorithm a) { return a != GSP_SSSP_BELLMAN_FORD; }

static gsp_status run(const gsp_graph* g, int32_t src, gsp_algorithm algo, int32_t threads, uint32_t flags,
                      double delta, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = algo;
  o.num_threads = threads;
  o.flags = flags;
  o.delta = delta;
  *out = NULL;
  return gsp_sssp_run(g, src, &o, out);
}

/* Runs algo from src and compares with the reference; checks sampled paths,
 * predecessors of the source and of unreachable vertices, and the run info. */
static void check_run(const t_arcs* a, const gsp_graph* g, gsp_dtype dt, gsp_algorithm algo, int32_t src,
                      int32_t threads, double delta, const int64_t* ref) {
  char what[160];
  gsp_paths* p = NULL;
  int32_t* pred = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
  gsp_run_info info;
  int32_t v, step;
  snprintf(what, sizeof what, "%s/%s/%s/src %d/%d thr/delta %g", a->name, dt == GSP_I32 ? "i32" : "f32",
           gsp_algorithm_name(algo), src, threads, delta);
  CHECK_OK(run(g, src, algo, threads, 0, delta, &p));
  if (p == NULL) {
    free(pred);
    return;
  }
  CHECK(t_compare_row(p, dt, src, ref, a->n, 1.0f, what) == 0, "%s: distances differ", what);
  CHECK_OK(gsp_paths_predecessors(p, src, pred, a->n));
  CHECK(pred[src] == -1, "%s: pred[source] = %d", what, pred[src]);
  for (v = 0; v < a->n; v++) {
    if (ref[v] == T_INF_REF && pred[v] != -1) {
      CHECK(0, "%s: unreachable %d has pred %d", what, v, pred[v]);
      break;
    }
  }
  step = a->n <= 64 ? 1 : a->n / 23;
  for (v = 0; v < a->n; v += step) CHECK(t_check_path(p, a, src, v, ref[v], what) == 0, "%s: path to %d", what, v);
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_paths_info(p, &info));
  CHECK(info.backend == GSP_BACKEND_CPU && info.algorithm == algo && info.device == -1,
        "%s: info says backend %d algorithm %d device %d", what, info.backend, info.algorithm, info.device);
  CHECK(strncmp(info.device_name, "CPU (", 5) == 0, "%s: device name '%s'", what, info.device_name);
  gsp_paths_destroy(p);
  free(pred);
}

static void test_shapes(void) {
  static const int32_t sizes[] = {40, 150};
  int shape, si, di, ai, k;
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    for (si = 0; si < 2; si++) {
      t_arcs a;
      int64_t* ref;
      int32_t srcs[4];
      t_make_shape(&a, shape, sizes[si], 11u + (uint64_t)si);
      ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
      srcs[0] = 0;
      srcs[1] = a.n - 1;
      srcs[2] = a.n / 2;
      srcs[3] = (int32_t)((a.n * 7) / 11);
      for (di = 0; di < 2; di++) {
        gsp_dtype dt = di == 0 ? GSP_I32 : GSP_F32;
        gsp_graph* g = t_graph(&a, dt, 1.0f);
        for (ai = 0; ai < K_NUM_ALGOS; ai++) {
          gsp_algorithm algo = k_algos[ai];
          if (a.negative && needs_nonneg(algo)) {
            gsp_paths* p = NULL;
            CHECK_STATUS(run(g, 0, algo, 2, 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
            CHECK(p == NULL, "%s: result on failure", a.name);
            continue;
          }
          for (k = 0; k < 4; k++) {
            int cyc = t_ref_bellman_ford(&a, srcs[k], ref);
            CHECK(!cyc, "%s: reference found a cycle", a.name);
            check_run(&a, g, dt, algo, srcs[k], algo == GSP_SSSP_DELTA_STEPPING ? 1 + k : 1, 0, ref);
          }
        }
        gsp_graph_destroy(g);
      }
      free(ref);
      t_arcs_free(&a);
    }
  }
}

/* Delta-stepping with explicit bucket widths, small to huge. */
static void test_delta_values(void) {
  static const double deltas[] = {0.3, 1, 7, 50, 1e6};
  int shape, di, k;
  int shapes[] = {T_RANDOM_SPARSE, T_GRID, T_ZERO_WEIGHTS, T_POWER_LAW};
  for (shape = 0; shape < 4; shape++) {
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, shapes[shape], 200, 5);
    ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
    t_ref_bellman_ford(&a, 1, ref);
    for (di = 0; di < 2; di++) {
      gsp_dtype dt = di == 0 ? GSP_I32 : GSP_F32;
      gsp_graph* g = t_graph(&a, dt, 1.0f);
      for (k = 0; k < 5; k++) check_run(&a, g, dt, GSP_SSSP_DELTA_STEPPING, 1, 3, deltas[k], ref);
      gsp_graph_destroy(g);
    }
    free(ref);
    t_arcs_free(&a);
  }
}

static void test_negative_cycle(void) {
  t_arcs a;
  int di;
  t_arcs_init(&a, "neg-cycle", 8);
  t_arc(&a, 0, 1, 1);
  t_arc(&a, 1, 2, 1);
  t_arc(&a, 2, 3, -5);
  t_arc(&a, 3, 2, 2);
  t_arc(&a, 3, 4, 1);
  t_arc(&a, 5, 6, 4);
  t_arc(&a, 6, 7, -1);
  for (di = 0; di < 2; di++) {
    gsp_dtype dt = di == 0 ? GSP_I32 : GSP_F32;
    gsp_graph* g = t_graph(&a, dt, 1.0f);
    gsp_paths* p = NULL;
    int64_t ref[8];
    CHECK_STATUS(run(g, 0, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
    CHECK(p == NULL, "result on failure");
    CHECK(strlen(gsp_last_error()) > 0, "no message");
    CHECK_STATUS(run(g, 3, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
    /* Source 5 does not reach the cycle: fine. */
    CHECK(t_ref_bellman_ford(&a, 5, ref) == 0, "ref");
    check_run(&a, g, dt, GSP_SSSP_BELLMAN_FORD, 5, 1, 0, ref);
    CHECK_STATUS(run(g, 0, GSP_SSSP_DIJKSTRA, 1, 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
    CHECK_STATUS(run(g, 0, GSP_SSSP_DELTA_STEPPING, 4, 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
    gsp_graph_destroy(g);
  }
  /* A negative self-loop is a negative cycle; a Hamiltonian one too. */
  t_arcs_free(&a);
  t_arcs_init(&a, "neg-loop", 3);
  t_arc(&a, 0, 1, 2);
  t_arc(&a, 1, 1, -1);
  {
    gsp_graph* g = t_graph(&a, GSP_I32, 1.0f);
    gsp_paths* p = NULL;
    CHECK_STATUS(run(g, 0, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
  t_arcs_init(&a, "neg-ring", 50);
  {
    int32_t i;
    gsp_graph* g;
    gsp_paths* p = NULL;
    for (i = 0; i < 50; i++) t_arc(&a, i, (i + 1) % 50, i == 49 ? -50 : 1);
    g = t_graph(&a, GSP_F32, 1.0f);
    CHECK_STATUS(run(g, 17, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

static void test_overflow(void) {
  t_arcs a;
  int ai;
  gsp_graph* g;
  int32_t big = INT32_MAX / 2 + 10;
  /* 0 -> 1 -> 2 -> 3 with weights near INT32_MAX/2: d(2) does not fit. */
  t_arcs_init(&a, "overflow", 4);
  t_arc(&a, 0, 1, big);
  t_arc(&a, 1, 2, big);
  t_arc(&a, 2, 3, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    gsp_paths* p = NULL;
    CHECK_STATUS(run(g, 0, k_algos[ai], 2, 0, 0, &p), GSP_ERR_OVERFLOW);
    CHECK(p == NULL, "result on failure");
    /* From 1 every distance fits. */
    CHECK_OK(run(g, 1, k_algos[ai], 2, 0, 0, &p));
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  /* The largest finite distance, INT32_MAX - 1, is exact. */
  t_arcs_init(&a, "edge", 3);
  t_arc(&a, 0, 1, INT32_MAX / 2);
  t_arc(&a, 1, 2, INT32_MAX / 2);
  g = t_graph(&a, GSP_I32, 1.0f);
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    gsp_paths* p = NULL;
    int32_t d = 0;
    CHECK_OK(run(g, 0, k_algos[ai], 2, 0, 0, &p));
    if (p) {
      CHECK_OK(gsp_paths_distance(p, 0, 2, &d));
      CHECK(d == INT32_MAX - 1, "%s: d = %d", gsp_algorithm_name(k_algos[ai]), d);
    }
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  /* A sum that overflows on the way to a vertex reached more cheaply
   * another way is harmless: d(2) = 5 exactly. */
  t_arcs_init(&a, "harmless", 3);
  t_arc(&a, 0, 1, big);
  t_arc(&a, 1, 2, big);
  t_arc(&a, 0, 2, 5);
  g = t_graph(&a, GSP_I32, 1.0f);
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    int64_t ref[3];
    t_ref_bellman_ford(&a, 0, ref);
    check_run(&a, g, GSP_I32, k_algos[ai], 0, 2, 0, ref);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  /* Bellman-Ford below INT32_MIN. */
  t_arcs_init(&a, "underflow", 4);
  t_arc(&a, 0, 1, -(1 << 30));
  t_arc(&a, 1, 2, -(1 << 30));
  t_arc(&a, 2, 3, -(1 << 30));
  g = t_graph(&a, GSP_I32, 1.0f);
  {
    gsp_paths* p = NULL;
    CHECK_STATUS(run(g, 0, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p), GSP_ERR_OVERFLOW);
    CHECK_OK(run(g, 2, GSP_SSSP_BELLMAN_FORD, 1, 0, 0, &p));
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

static void test_no_paths_and_threads(void) {
  t_arcs a;
  int di, ai;
  int64_t* ref;
  /* Big enough (18k arcs) that delta-stepping runs more than one thread
   * (it uses at most one thread per 4096 arcs), so the threaded rounds run. */
  t_make_shape(&a, T_POWER_LAW, 3000, 9);
  ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
  t_ref_bellman_ford(&a, 0, ref);
  for (di = 0; di < 2; di++) {
    gsp_dtype dt = di == 0 ? GSP_I32 : GSP_F32;
    gsp_graph* g = t_graph(&a, dt, 1.0f);
    for (ai = 0; ai < K_NUM_ALGOS; ai++) {
      gsp_paths *p1 = NULL, *p4 = NULL, *pn = NULL;
      int32_t len = 0;
      void* r1 = malloc((size_t)a.n * 4);
      void* r4 = malloc((size_t)a.n * 4);
      void* rn = malloc((size_t)a.n * 4);
      CHECK_OK(run(g, 0, k_algos[ai], 1, 0, 0, &p1));
      CHECK_OK(run(g, 0, k_algos[ai], 4, 0, 0, &p4));
      CHECK_OK(run(g, 0, k_algos[ai], 4, GSP_NO_PATHS, 0, &pn));
      if (p1 && p4 && pn) {
        CHECK_OK(gsp_paths_distances(p1, 0, r1, a.n));
        CHECK_OK(gsp_paths_distances(p4, 0, r4, a.n));
        CHECK_OK(gsp_paths_distances(pn, 0, rn, a.n));
        CHECK(memcmp(r1, r4, (size_t)a.n * 4) == 0, "%s: 1 and 4 threads differ", gsp_algorithm_name(k_algos[ai]));
        CHECK(t_compare_row(p4, dt, 0, ref, a.n, 1.0f, "power-law 4 threads") == 0, "%s: 4 threads wrong",
              gsp_algorithm_name(k_algos[ai]));
        {
          int32_t v;
          for (v = 0; v < a.n; v += 97)
            CHECK(t_check_path(p4, &a, 0, v, ref[v], "power-law 4 threads") == 0, "path to %d", v);
        }
        CHECK(memcmp(r1, rn, (size_t)a.n * 4) == 0, "%s: GSP_NO_PATHS differs", gsp_algorithm_name(k_algos[ai]));
        CHECK_STATUS(gsp_path_get(pn, 0, 1, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
      }
      gsp_paths_destroy(p1);
      gsp_paths_destroy(p4);
      gsp_paths_destroy(pn);
      free(r1);
      free(r4);
      free(rn);
    }
    gsp_graph_destroy(g);
  }
  free(ref);
  t_arcs_free(&a);
}

static void test_unsupported(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_paths* p = NULL;
  t_make_shape(&a, T_RING, 10, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_STATUS(run(g, 0, GSP_SSSP_HARISH, 1, 0, 0, &p), GSP_ERR_UNSUPPORTED);
  CHECK_STATUS(run(g, 0, GSP_SSSP_SPMV_CSR, 1, 0, 0, &p), GSP_ERR_UNSUPPORTED);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* 16 threads, one graph, concurrent runs: every answer equals the reference. */
typedef struct {
  const gsp_graph* g;
  const t_arcs* a;
  const int64_t* refs; /* 4 sources x n */
  int id;
  int bad;
} t_worker;

static const int32_t k_conc_src[4] = {0, 7, 100, 999};

static void* worker(void* arg) {
  t_worker* w = (t_worker*)arg;
  int r;
  int32_t* row = (int32_t*)malloc((size_t)w->a->n * sizeof(int32_t));
  for (r = 0; r < 6; r++) {
    int k = (w->id + r) % 4;
    gsp_algorithm algo = k_algos[(w->id + r) % K_NUM_ALGOS];
    gsp_paths* p = NULL;
    int32_t v;
    if (run(w->g, k_conc_src[k], algo, 1 + (w->id % 3), 0, 0, &p) != GSP_OK) {
      w->bad++;
      continue;
    }
    if (gsp_paths_distances(p, k_conc_src[k], row, w->a->n) != GSP_OK) w->bad++;
    for (v = 0; v < w->a->n; v++) {
      int64_t want = w->refs[(size_t)k * (size_t)w->a->n + (size_t)v];
      if (want == T_INF_REF ? row[v] != GSP_I32_INF : (int64_t)row[v] != want) {
        w->bad++;
        break;
      }
    }
    gsp_paths_destroy(p);
  }
  free(row);
  return NULL;
}

static void test_concurrent(void) {
  t_arcs a;
  gsp_graph* g;
  int64_t* refs;
  pthread_t th[16];
  t_worker w[16];
  int i, k;
  t_make_shape(&a, T_RANDOM_SPARSE, 1000, 77);
  refs = (int64_t*)malloc((size_t)4 * (size_t)a.n * sizeof(int64_t));
  for (k = 0; k < 4; k++) t_ref_bellman_ford(&a, k_conc_src[k], refs + (size_t)k * (size_t)a.n);
  g = t_graph(&a, GSP_I32, 1.0f);
  for (i = 0; i < 16; i++) {
    w[i].g = g;
    w[i].a = &a;
    w[i].refs = refs;
    w[i].id = i;
    w[i].bad = 0;
    CHECK(pthread_create(&th[i], NULL, worker, &w[i]) == 0, "pthread_create");
  }
  for (i = 0; i < 16; i++) {
    pthread_join(th[i], NULL);
    CHECK(w[i].bad == 0, "thread %d: %d bad runs", i, w[i].bad);
  }
  gsp_graph_destroy(g);
  free(refs);
  t_arcs_free(&a);
}

/* The threaded rounds of delta-stepping need graphs of more than 4096 arcs
 * per thread: a 40,000-vertex grid and 20,000-vertex sparse random,
 * zero-weight and power-law graphs, all of the machine's cores (up to 16),
 * at the default and a narrow width, with paths and distances only (the
 * small shapes above run on one thread). */
static void test_parallel_rounds(void) {
  static const int shapes[] = {T_GRID, T_RANDOM_SPARSE, T_ZERO_WEIGHTS, T_POWER_LAW};
  static const int32_t sizes[] = {40000, 20000, 20000, 20000};
  int si, di, k;
  for (si = 0; si < 4; si++) {
    t_arcs a;
    int64_t* ref;
    const int32_t srcs[2] = {0, sizes[si] / 2};
    t_make_shape(&a, shapes[si], sizes[si], 31u + (uint64_t)si);
    ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
    for (k = 0; k < 2; k++) {
      t_ref_bellman_ford(&a, srcs[k], ref);
      for (di = 0; di < 2; di++) {
        const gsp_dtype dt = di == 0 ? GSP_I32 : GSP_F32;
        gsp_graph* g = t_graph(&a, dt, 1.0f);
        gsp_paths* p = NULL;
        char what[96];
        check_run(&a, g, dt, GSP_SSSP_DELTA_STEPPING, srcs[k], 16, 0, ref);
        check_run(&a, g, dt, GSP_SSSP_DELTA_STEPPING, srcs[k], 16, 3, ref);
        snprintf(what, sizeof what, "%s/%s/no paths", a.name, dt == GSP_I32 ? "i32" : "f32");
        CHECK_OK(run(g, srcs[k], GSP_SSSP_DELTA_STEPPING, 16, GSP_NO_PATHS, 0, &p));
        if (p != NULL) CHECK(t_compare_row(p, dt, srcs[k], ref, a.n, 1.0f, what) == 0, "%s: distances differ", what);
        gsp_paths_destroy(p);
        gsp_graph_destroy(g);
      }
    }
    free(ref);
    t_arcs_free(&a);
  }
}

/* ------------------------------------------------- GSP_F64 delta-stepping */

/* An arc of a sorted list, for looking up the cheapest parallel arc u -> v. */
typedef struct {
  int32_t u, v;
  double w;
} t_f64_arc;

static int cmp_f64_arc(const void* x, const void* y) {
  const t_f64_arc* a = (const t_f64_arc*)x;
  const t_f64_arc* b = (const t_f64_arc*)y;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return a->w < b->w ? -1 : a->w > b->w;
}

/* The cheapest arc u -> v of the sorted list (+inf when there is none). */
static double f64_arc_weight(const t_f64_arc* arcs, int64_t m, int32_t u, int32_t v) {
  int64_t lo = 0, hi = m;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (arcs[mid].u < u || (arcs[mid].u == u && arcs[mid].v < v))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m && arcs[lo].u == u && arcs[lo].v == v ? arcs[lo].w : HUGE_VAL;
}

/* Zero-weight 4-cycles (i -> i+1 within each block of 4, with 0 arcs), zero
 * self-loops, and random arcs of weight 0..9 between the blocks: many tied
 * in-arcs, so the predecessors taken from tight arcs can cycle. */
static void make_zero_cycles(t_arcs* a, int32_t n, uint64_t seed) {
  t_rng r;
  int32_t i;
  r.s = seed;
  t_arcs_init(a, "zero-cycles", n);
  for (i = 0; i < n; i++) {
    int32_t base = i - i % 4;
    if (base + 3 < n) t_arc(a, i, base + (i + 1) % 4, 0);
    if (i % 7 == 0) t_arc(a, i, i, 0);
    t_arc(a, i, t_below(&r, n), t_below(&r, 10));
    t_arc(a, i, t_below(&r, n), 1 + t_below(&r, 9));
  }
}

/* Checks a GSP_F64 delta-stepping result p (source src) against Dijkstra's
 * distances ref: equal (exactly when every weight is an integer, else within
 * 1e-12 relative); with paths, every predecessor arc tight (same tolerance),
 * the predecessors a tree (every reachable vertex's chain ends at src), and
 * sampled paths summing to their distances. */
static void check_f64_result(const gsp_paths* p, const t_f64_arc* arcs, int64_t m, int32_t n, int32_t src,
                             const double* ref, int exact, int paths, const char* what) {
  double* d = (double*)malloc((size_t)n * sizeof(double));
  int32_t* pred = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  int32_t v, bad = 0;
  const double rel = exact ? 0.0 : 1e-12;
  CHECK_OK(gsp_paths_distances(p, src, d, n));
  for (v = 0; v < n && bad < 5; v++) {
    int ok = isinf(ref[v]) ? isinf(d[v]) && d[v] > 0 : fabs(d[v] - ref[v]) <= rel * fabs(ref[v]);
    if (!ok) {
      CHECK(0, "%s: d(%d) = %.17g, Dijkstra %.17g", what, v, d[v], ref[v]);
      bad++;
    }
  }
  if (paths) {
    CHECK_OK(gsp_paths_predecessors(p, src, pred, n));
    CHECK(pred[src] == -1, "%s: pred[source] = %d", what, pred[src]);
    for (v = 0; v < n && bad < 5; v++) {
      int32_t u = pred[v], x, hops = 0;
      if (v == src) continue;
      if (isinf(d[v])) {
        if (u != -1) {
          CHECK(0, "%s: unreachable %d has pred %d", what, v, u);
          bad++;
        }
        continue;
      }
      if (u < 0 || u >= n || fabs(d[u] + f64_arc_weight(arcs, m, u, v) - d[v]) > rel * fabs(d[v])) {
        CHECK(0, "%s: pred arc %d -> %d is not tight (d %.17g -> %.17g)", what, u, v, u >= 0 && u < n ? d[u] : -1.0,
              d[v]);
        bad++;
        continue;
      }
      for (x = v; x != src && x >= 0 && hops <= n; x = pred[x]) hops++;
      if (x != src) {
        CHECK(0, "%s: the predecessors of %d do not lead to the source", what, v);
        bad++;
      }
    }
    for (v = 0; v < n; v += n <= 64 ? 1 : n / 17) {
      int32_t len = 0, i;
      int32_t* verts;
      double sum = 0;
      if (isinf(d[v])) continue;
      CHECK_OK(gsp_path_get(p, src, v, NULL, 0, &len));
      verts = (int32_t*)malloc((size_t)(len > 0 ? len : 1) * sizeof(int32_t));
      CHECK_OK(gsp_path_get(p, src, v, verts, len, &len));
      for (i = 0; i + 1 < len; i++) sum += f64_arc_weight(arcs, m, verts[i], verts[i + 1]);
      CHECK(len >= 1 && verts[0] == src && verts[len - 1] == v && fabs(sum - d[v]) <= 1e-12 * fabs(d[v]),
            "%s: path to %d sums to %.17g, distance %.17g", what, v, sum, d[v]);
      free(verts);
    }
  }
  free(d);
  free(pred);
}

/* GSP_F64 delta-stepping against GSP_F64 Dijkstra, on one thread and on
 * several (options.num_threads; the big graphs have enough arcs for the
 * threaded rounds), with and without paths, on graphs with zero-weight arcs
 * and cycles, with integer weights (exact sums) and the same weights times
 * 0.1 (rounded sums). */
static void test_f64_delta_stepping(void) {
  static const struct {
    int shape; /* -1: make_zero_cycles */
    int32_t n;
  } graphs[] = {{-1, 200},
                {-1, 24000},
                {T_ZERO_WEIGHTS, 150},
                {T_ZERO_WEIGHTS, 20000},
                {T_LOOPS_PARALLEL, 150},
                {T_GRID, 40000},
                {T_RANDOM_SPARSE, 20000}};
  static const float scales[] = {1.0f, 0.1f};
  static const int32_t threads[] = {1, 16};
  int gi, si, ti, k, threaded = 0;
  for (gi = 0; gi < (int)(sizeof graphs / sizeof graphs[0]); gi++) {
    t_arcs a;
    t_f64_arc* arcs;
    double* ref;
    int64_t e;
    if (graphs[gi].shape < 0)
      make_zero_cycles(&a, graphs[gi].n, 41u + (uint64_t)gi);
    else
      t_make_shape(&a, graphs[gi].shape, graphs[gi].n, 41u + (uint64_t)gi);
    arcs = (t_f64_arc*)malloc((size_t)(a.m ? a.m : 1) * sizeof(t_f64_arc));
    ref = (double*)malloc((size_t)a.n * sizeof(double));
    for (si = 0; si < 2; si++) {
      gsp_graph* g = t_graph(&a, GSP_F64, scales[si]);
      for (e = 0; e < a.m; e++) {
        arcs[e].u = a.src[e];
        arcs[e].v = a.dst[e];
        arcs[e].w = (double)a.w[e] * (double)scales[si];
      }
      qsort(arcs, (size_t)a.m, sizeof(t_f64_arc), cmp_f64_arc);
      for (k = 0; k < 2 && g != NULL; k++) {
        const int32_t src = k == 0 ? 0 : a.n / 2;
        gsp_paths* pd = NULL;
        CHECK_OK(run(g, src, GSP_SSSP_DIJKSTRA, 1, GSP_NO_PATHS, 0, &pd));
        if (pd == NULL) continue;
        CHECK_OK(gsp_paths_distances(pd, src, ref, a.n));
        gsp_paths_destroy(pd);
        for (ti = 0; ti < 2; ti++) {
          int paths;
          for (paths = 0; paths < 2; paths++) {
            gsp_paths* p = NULL;
            gsp_run_info info;
            char what[160];
            snprintf(what, sizeof what, "f64 delta-stepping/%s %d/scale %g/src %d/%d thr/%s", a.name, a.n,
                     (double)scales[si], src, threads[ti], paths ? "paths" : "no paths");
            CHECK_OK(run(g, src, GSP_SSSP_DELTA_STEPPING, threads[ti], paths ? 0 : GSP_NO_PATHS, 0, &p));
            if (p == NULL) continue;
            check_f64_result(p, arcs, a.m, a.n, src, ref, scales[si] == 1.0f, paths, what);
            memset(&info, 0, sizeof info);
            info.size = sizeof info;
            CHECK_OK(gsp_paths_info(p, &info));
            if (paths && strcmp(info.device_name, "CPU (1 thread)") != 0) threaded++;
            gsp_paths_destroy(p);
          }
        }
      }
      gsp_graph_destroy(g);
    }
    free(arcs);
    free(ref);
    t_arcs_free(&a);
  }
  /* With more than one core, the threaded search with paths ran. */
  if (sysconf(_SC_NPROCESSORS_ONLN) > 1) CHECK(threaded > 0, "f64 delta-stepping never ran threaded with paths");
}

/* Stops at the second call: the first comes from the dispatcher before the
 * engine starts, the second from inside the engine (threads running). */
static int cancel_cb(void* user, double f) {
  (void)f;
  return ++*(int*)user >= 2;
}

static void test_cancel(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* p = NULL;
  int calls = 0;
  t_make_shape(&a, T_GRID, 4000, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_SSSP_DELTA_STEPPING;
  o.num_threads = 4;
  o.delta = 0.5; /* one bucket per distance: many buckets */
  o.progress = cancel_cb;
  o.progress_user = &calls;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_CANCELLED);
  CHECK(p == NULL, "result on cancel");
  CHECK(calls == 2, "progress called %d times", calls);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  test_shapes();
  test_delta_values();
  test_parallel_rounds();
  test_f64_delta_stepping();
  test_negative_cycle();
  test_overflow();
  test_no_paths_and_threads();
  test_unsupported();
  test_concurrent();
  test_cancel();
  return t_finish("test_cpu_sssp");
}
