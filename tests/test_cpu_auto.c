/* CPU AUTO for one source (issue 20): with GSP_BACKEND_CPU and
 * GSP_ALGO_AUTO, gsp_run_plan() names Bellman-Ford for negative weights and
 * otherwise the engine the CPU cost model (src/dispatch/cpu_cost_model.cpp,
 * doc/algorithms.md "CPU single-source AUTO") estimates faster; the run uses
 * that engine (gsp_run_info) and gives the distances of an explicit
 * Dijkstra (Bellman-Ford reference for negative weights). The choices are
 * the model's, worked out from its constants for each graph below with a
 * margin of 1.4x or more, and hold on any core count: delta-stepping uses
 * at most one thread per core and per 4096 arcs, so "16 threads" means
 * min(16, cores, m / 4096) threads, and the one graph whose choice depends
 * on that (the band) is expected from it. */
#include <unistd.h>

#include "testing.h"

static int32_t g_cores = 1;

/* The threads delta-stepping would use when `threads` are asked for (0: all
 * cores), as src/engines/cpu/sssp/delta_stepping.cpp counts them. */
static int32_t ds_threads(const t_arcs* a, int32_t threads) {
  int64_t t = threads == 0 ? g_cores : threads;
  if (t > g_cores) t = g_cores;
  if (t > a->m / 4096) t = a->m / 4096;
  return t < 1 ? 1 : (int32_t)t;
}

/* What AUTO must choose for `a` at `threads`. */
typedef gsp_algorithm (*t_expect)(const t_arcs* a, int32_t threads);

/* Negative weights: Bellman-Ford. */
static gsp_algorithm want_bellman_ford(const t_arcs* a, int32_t threads) {
  (void)a;
  (void)threads;
  return GSP_SSSP_BELLMAN_FORD;
}
/* One vertex: Dijkstra's fixed cost (0.6 us) is below delta-stepping's (1.1
 * us). Rings (a path of n - 1 arcs): Dijkstra's heap holds one vertex, so it
 * costs ~5 ns an arc against delta-stepping's ~16 ns a vertex and arc on one
 * thread, and a round per bucket (~n / 32 buckets) on more. */
static gsp_algorithm want_dijkstra(const t_arcs* a, int32_t threads) {
  (void)a;
  (void)threads;
  return GSP_SSSP_DIJKSTRA;
}
/* Low or moderate depth (random, grid): delta-stepping, 2.3-4.5x under
 * Dijkstra's estimate at every thread count (random n = 2000 has 8000 arcs:
 * one thread whatever is asked). */
static gsp_algorithm want_delta_stepping(const t_arcs* a, int32_t threads) {
  (void)a;
  (void)threads;
  return GSP_SSSP_DELTA_STEPPING;
}
/* The band (vertex i -> i+1..i+4, n = 10000, ~300 buckets): one thread has
 * no rounds to pay, 0.39 ms against Dijkstra's 0.58 ms; two or more threads
 * pay ~450 rounds, 2.2 ms and more: Dijkstra. */
static gsp_algorithm want_band(const t_arcs* a, int32_t threads) {
  return ds_threads(a, threads) == 1 ? GSP_SSSP_DELTA_STEPPING : GSP_SSSP_DIJKSTRA;
}

static gsp_algorithm plan(const gsp_graph* g, int32_t threads, gsp_status* status) {
  gsp_options o;
  gsp_backend b = (gsp_backend)-1;
  gsp_algorithm al = GSP_ALGO_AUTO;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_ALGO_AUTO;
  o.num_threads = threads;
  *status = gsp_run_plan(g, 1, 1, &o, &b, &al);
  if (*status == GSP_OK && b != GSP_BACKEND_CPU) *status = GSP_ERR_INTERNAL;
  return al;
}

static gsp_paths* run(const gsp_graph* g, gsp_algorithm algo, int32_t threads, const char* what) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = algo;
  o.num_threads = threads;
  CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
  if (p == NULL) fprintf(stderr, "%s: no result\n", what);
  return p;
}

/* Plans and runs AUTO on `a` at each thread count; `ref` holds the
 * reference distances from source 0 (int64, T_INF_REF for unreachable). */
static void check_graph(const t_arcs* a, const gsp_graph* g, gsp_dtype dt, const int64_t* ref, t_expect expect) {
  static const int32_t threads[] = {1, 2, 16, 0};
  size_t i;
  for (i = 0; i < sizeof threads / sizeof threads[0]; i++) {
    const int32_t t = threads[i];
    const gsp_algorithm want = expect(a, t);
    gsp_status s1, s2;
    gsp_algorithm first, again, capped;
    gsp_paths* p;
    char what[160];
    snprintf(what, sizeof what, "%s (n %d, m %lld, %s), %d threads", a->name, a->n, (long long)a->m,
             dt == GSP_I32 ? "i32" : "f32", t);
    first = plan(g, t, &s1);
    again = plan(g, t, &s2);
    CHECK(s1 == GSP_OK && s2 == GSP_OK, "%s: plan %s / %s: %s", what, gsp_status_name(s1), gsp_status_name(s2),
          gsp_last_error());
    if (s1 != GSP_OK || s2 != GSP_OK) continue;
    CHECK(first == want, "%s: AUTO chose %s, the model's choice is %s", what, gsp_algorithm_name(first),
          gsp_algorithm_name(want));
    CHECK(again == first, "%s: AUTO chose %s, then %s", what, gsp_algorithm_name(first), gsp_algorithm_name(again));
    /* More threads than cores add nothing: the choice at 16 (or all) is the
     * choice at min(16, cores). */
    capped = plan(g, t == 0 || t > g_cores ? g_cores : t, &s2);
    CHECK(s2 == GSP_OK && capped == first, "%s: %s, but %s at %d threads", what, gsp_algorithm_name(first),
          gsp_algorithm_name(capped), t == 0 || t > g_cores ? g_cores : t);
    p = run(g, GSP_ALGO_AUTO, t, what);
    if (p != NULL) {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      CHECK_OK(gsp_paths_info(p, &info));
      CHECK(info.backend == GSP_BACKEND_CPU && info.algorithm == first, "%s: planned %s, ran %s on backend %d", what,
            gsp_algorithm_name(first), gsp_algorithm_name(info.algorithm), (int)info.backend);
      CHECK(t_compare_row(p, dt, 0, ref, a->n, 1.0f, what) == 0, "%s: AUTO's distances differ from the reference",
            what);
    }
    gsp_paths_destroy(p);
  }
}

/* Reference distances: explicit Dijkstra, or the naive Bellman-Ford of
 * testing.h for negative weights (explicit Dijkstra refuses them). */
static int64_t* reference(const t_arcs* a, const gsp_graph* g, gsp_dtype dt) {
  int64_t* ref = (int64_t*)malloc((size_t)a->n * sizeof(int64_t));
  if (a->negative) {
    CHECK(t_ref_bellman_ford(a, 0, ref) == 0, "%s: the reference found a negative cycle", a->name);
  } else {
    gsp_paths* p = run(g, GSP_SSSP_DIJKSTRA, 1, a->name);
    void* row = malloc((size_t)a->n * 4);
    int32_t v;
    for (v = 0; v < a->n; v++) ref[v] = T_INF_REF;
    if (p != NULL && row != NULL) {
      CHECK_OK(gsp_paths_distances(p, 0, row, a->n));
      for (v = 0; v < a->n; v++) {
        if (dt == GSP_I32) {
          const int32_t d = ((const int32_t*)row)[v];
          ref[v] = d == GSP_I32_INF ? T_INF_REF : d;
        } else {
          const float d = ((const float*)row)[v];
          ref[v] = isinf(d) ? T_INF_REF : (int64_t)d; /* integer weights, sums below 2^24: exact */
        }
      }
    }
    free(row);
    gsp_paths_destroy(p);
  }
  return ref;
}

static void check_arcs(t_arcs* a, gsp_dtype dt, t_expect expect) {
  gsp_graph* g = t_graph(a, dt, 1.0f);
  int64_t* ref = reference(a, g, dt);
  t_trace(a->name);
  check_graph(a, g, dt, ref, expect);
  free(ref);
  gsp_graph_destroy(g);
  t_arcs_free(a);
}

/* Many sources with AUTO on the CPU: each row by the engine that AUTO
 * picks for one source on one thread (delta-stepping or Dijkstra, said in
 * the run's device name), with the distances of explicit GSP_APSP_HEAP
 * (Dijkstra) and valid paths, row by row. */
static void check_many_sources(t_arcs* a, gsp_dtype dt) {
  gsp_graph* g = t_graph(a, dt, 1.0f);
  gsp_options o;
  gsp_paths *p = NULL, *ref = NULL;
  gsp_run_info info;
  gsp_status st;
  int32_t src[40], i, k = a->n < 40 ? a->n : 40, v;
  const int by_ds = plan(g, 1, &st) == GSP_SSSP_DELTA_STEPPING;
  int64_t* row = (int64_t*)malloc((size_t)a->n * sizeof(int64_t));
  for (i = 0; i < k; i++) src[i] = (int32_t)((int64_t)i * a->n / k);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_threads = 2;
  CHECK_OK(gsp_apsp_run(g, src, k, &o, &p));
  o.algorithm = GSP_APSP_HEAP;
  CHECK_OK(gsp_apsp_run(g, src, k, &o, &ref));
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  if (p != NULL && ref != NULL && row != NULL && gsp_paths_info(p, &info) == GSP_OK) {
    CHECK((strstr(info.device_name, "delta-stepping") != NULL) == by_ds && info.algorithm == GSP_APSP_HEAP,
          "%s: AUTO's rows ran as '%s' (%s), want delta-stepping rows: %d", a->name, info.device_name,
          gsp_algorithm_name(info.algorithm), by_ds);
    for (i = 0; i < k; i++) {
      /* the reference row from explicit Dijkstra, as int64 */
      for (v = 0; v < a->n; v++) {
        if (dt == GSP_I32) {
          int32_t d;
          gsp_paths_distance(ref, src[i], v, &d);
          row[v] = d == GSP_I32_INF ? T_INF_REF : d;
        } else {
          float d;
          gsp_paths_distance(ref, src[i], v, &d);
          row[v] = isinf(d) ? T_INF_REF : (int64_t)d;
        }
      }
      CHECK(t_compare_row(p, dt, src[i], row, a->n, 1.0f, a->name) == 0, "%s: row %d differs from Dijkstra's", a->name,
            src[i]);
      for (v = 0; v < a->n; v += 97) CHECK(t_check_path(p, a, src[i], v, row[v], a->name) == 0, "%s: path", a->name);
    }
  }
  free(row);
  gsp_paths_destroy(p);
  gsp_paths_destroy(ref);
  gsp_graph_destroy(g);
  t_arcs_free(a);
}

/* n vertices, `degree` arcs each to uniform random targets, weights 1..maxw. */
static void make_random(t_arcs* a, const char* name, int32_t n, int degree, int32_t maxw, uint64_t seed) {
  t_rng r = {seed};
  int32_t i;
  int j;
  t_arcs_init(a, name, n);
  for (i = 0; i < n; i++)
    for (j = 0; j < degree; j++) t_arc(a, i, t_below(&r, n), 1 + t_below(&r, maxw));
}

int main(void) {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  t_arcs a;
  g_cores = cores >= 1 ? (int32_t)(cores < 1024 ? cores : 1024) : 1;
  printf("%d cores\n", g_cores);

  t_make_shape(&a, T_DAG_NEGATIVE, 500, 1);
  check_arcs(&a, GSP_I32, want_bellman_ford);
  t_make_shape(&a, T_DAG_NEGATIVE, 500, 2);
  check_arcs(&a, GSP_F32, want_bellman_ford);

  t_make_shape(&a, T_SINGLE, 1, 1);
  check_arcs(&a, GSP_I32, want_dijkstra);
  t_make_shape(&a, T_RING, 2000, 1);
  check_arcs(&a, GSP_I32, want_dijkstra);
  t_make_shape(&a, T_RING, 200000, 1);
  a.name = "ring-200000";
  check_arcs(&a, GSP_I32, want_dijkstra);

  /* Small, but not a path: delta-stepping, even on one thread. */
  t_make_shape(&a, T_RANDOM_SPARSE, 2000, 1);
  check_arcs(&a, GSP_I32, want_delta_stepping);
  t_make_shape(&a, T_GRID, 10000, 1);
  check_arcs(&a, GSP_I32, want_delta_stepping);

  {
    int32_t i, j;
    t_rng r = {7};
    t_arcs_init(&a, "band-4", 10000);
    for (i = 0; i < a.n; i++)
      for (j = 1; j <= 4; j++) t_arc(&a, i, (i + j) % a.n, 1 + t_below(&r, 10));
    check_arcs(&a, GSP_I32, want_band);
  }

  /* Large and shallow (as Graph65536): delta-stepping at every thread count,
   * 5.3x under Dijkstra's estimate on one thread. */
  make_random(&a, "random-6-100000", 100000, 6, 1000, 42);
  check_arcs(&a, GSP_F32, want_delta_stepping);

  /* Many sources: rows by delta-stepping (random) and by Dijkstra (ring). */
  t_make_shape(&a, T_RANDOM_SPARSE, 2000, 3);
  check_many_sources(&a, GSP_I32);
  t_make_shape(&a, T_RANDOM_SPARSE, 2000, 4);
  check_many_sources(&a, GSP_F32);
  t_make_shape(&a, T_RING, 2000, 5);
  check_many_sources(&a, GSP_I32);

  return t_finish("test_cpu_auto");
}
