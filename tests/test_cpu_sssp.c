/* The CPU SSSP engines (Dijkstra, Bellman-Ford, delta-stepping) through the
 * public API: every shape x both weight types against a naive Bellman-Ford,
 * path validity, negative weights and cycles, int32 overflow, GSP_NO_PATHS,
 * thread counts, delta values, and 16 threads sharing one graph. */
#include <pthread.h>

#include "testing.h"

static const gsp_algorithm k_algos[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD,
                                        GSP_SSSP_DELTA_STEPPING};
enum { K_NUM_ALGOS = 3 };

static int needs_nonneg(gsp_algorithm a) { return a != GSP_SSSP_BELLMAN_FORD; }

static gsp_status run(const gsp_graph* g, int32_t src, gsp_algorithm algo, int32_t threads,
                      uint32_t flags, double delta, gsp_paths** out) {
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
static void check_run(const t_arcs* a, const gsp_graph* g, gsp_dtype dt, gsp_algorithm algo,
                      int32_t src, int32_t threads, double delta, const int64_t* ref) {
  char what[160];
  gsp_paths* p = NULL;
  int32_t* pred = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
  gsp_run_info info;
  int32_t v, step;
  snprintf(what, sizeof what, "%s/%s/%s/src %d/%d thr/delta %g", a->name,
           dt == GSP_I32 ? "i32" : "f32", gsp_algorithm_name(algo), src, threads, delta);
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
          for (v = 0; v < a.n; v += 97) CHECK(t_check_path(p4, &a, 0, v, ref[v], "power-law 4 threads") == 0, "path to %d", v);
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
  test_negative_cycle();
  test_overflow();
  test_no_paths_and_threads();
  test_unsupported();
  test_concurrent();
  test_cancel();
  return t_finish("test_cpu_sssp");
}
