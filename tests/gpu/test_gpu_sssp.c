/* Every CUDA SSSP engine against the CPU engines (Dijkstra, or Bellman-Ford
 * where weights are negative) and the independent reference of testing.h,
 * on every shape and both weight types, with sampled path validation; plus
 * the NY road graph, int32 and float overflow, the device memory limit, the upload
 * cache and concurrent runs on one graph; and the run info's stages of every
 * CUDA engine, SSSP and all-pairs (doc/run-info.md; the CPU's: tests/test_run_info.c).
 *
 * Skips (exit 77) with a visible SKIP line where no CUDA device is usable.
 * GSP_TEST_SMALL=1 shrinks the graphs (for compute-sanitizer runs). */
#include <pthread.h>

#include "testing.h"
#include "gpu/pred_check.h"
#include "run_info_check.h"

static const gsp_algorithm kAlgos[] = {GSP_SSSP_ATOMIC_LOCK,    GSP_SSSP_ATOMIC_64,    GSP_SSSP_HARISH,
                                       GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,
                                       GSP_SSSP_SPMV_ELL,       GSP_SSSP_GPU_DIJKSTRA};
#define NUM_ALGOS ((int)(sizeof kAlgos / sizeof kAlgos[0]))

static int g_small = 0;

static int takes_negative(gsp_algorithm a) {
  return a == GSP_SSSP_BELLMAN_FORD || a == GSP_SSSP_SPMV_CSR || a == GSP_SSSP_SPMV_ELL;
}

static gsp_status run(const gsp_graph* g, int32_t src, gsp_backend b, gsp_algorithm a, uint32_t flags, size_t limit,
                      gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = b;
  o.algorithm = a;
  o.flags = flags;
  o.device_memory_limit = limit;
  *out = NULL;
  return gsp_sssp_run(g, src, &o, out);
}

static gsp_run_info info_of(const gsp_paths* p) {
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  gsp_paths_info(p, &info);
  return info;
}

/* GPU row vs CPU engine row: identical for i32, within float rounding for f32,
 * within 1e-12 relative a hop for f64 (the engines may sum in other orders). */
static int compare_with_cpu(const gsp_paths* gpu, const gsp_paths* cpu, gsp_dtype dt, int32_t src, int32_t n,
                            const char* what) {
  void* a = malloc((size_t)n * t_dist_bytes(dt));
  void* b = malloc((size_t)n * t_dist_bytes(dt));
  int bad = 0;
  int32_t v;
  if (gsp_paths_distances(gpu, src, a, n) != GSP_OK || gsp_paths_distances(cpu, src, b, n) != GSP_OK) {
    free(a);
    free(b);
    return 1;
  }
  for (v = 0; v < n; v++) {
    int ok;
    if (dt == GSP_I32) {
      ok = ((int32_t*)a)[v] == ((int32_t*)b)[v];
    } else {
      const double x = t_dist_at(a, dt, v), y = t_dist_at(b, dt, v);
      const double tol = dt == GSP_F64 ? 1e-12 * (double)n : 1e-4;
      ok = (isinf(x) && isinf(y)) || fabs(x - y) <= tol * (fabs(y) + 1.0);
    }
    if (!ok) {
      if (bad < 5) fprintf(stderr, "%s: vertex %d differs from the CPU engine\n", what, v);
      bad++;
    }
  }
  free(a);
  free(b);
  return bad;
}

/* Path checks on up to `samples` vertices (all when n is small) plus the extremes. */
static int check_paths(const gsp_paths* p, const t_arcs* a, int32_t src, const int64_t* ref, int samples,
                       const char* what) {
  int bad = 0, k;
  t_rng r = {12345u + (uint64_t)a->n};
  if (a->n <= samples) {
    int32_t v;
    for (v = 0; v < a->n; v++) bad += t_check_path(p, a, src, v, ref[v], what);
    return bad;
  }
  bad += t_check_path(p, a, src, src, ref[src], what);
  bad += t_check_path(p, a, src, a->n - 1, ref[a->n - 1], what);
  for (k = 0; k < samples; k++) {
    int32_t v = t_below(&r, a->n);
    bad += t_check_path(p, a, src, v, ref[v], what);
  }
  return bad;
}

/* GSP_F64 weights that float cannot hold: every shape's weights scaled to
 * 1e40 and beyond, and integers of 1e8..2e8 (sums past float's exact range);
 * each engine against the CPU engine (Bellman-Ford with negative weights)
 * and its predecessors arc by arc. */
static void test_f64_weights(void) {
  static const int kShapes[] = {T_RANDOM_SPARSE, T_GRID, T_DAG_NEGATIVE, T_ZERO_WEIGHTS};
  const int32_t n = g_small ? 40 : 800;
  int si, kind, ai;
  for (si = 0; si < (int)(sizeof kShapes / sizeof kShapes[0]); si++) {
    for (kind = 0; kind < 2; kind++) {
      t_arcs a;
      gsp_graph* g;
      gsp_paths* cpu = NULL;
      int64_t k;
      t_make_shape(&a, kShapes[si], n, 7);
      {
        double* wd = (double*)malloc((size_t)(a.m ? a.m : 1) * sizeof(double));
        t_rng r = {99u};
        for (k = 0; k < a.m; k++) {
          const double mag = 1e8 + (double)t_below(&r, 100000000);
          if (kind == 0)
            wd[k] = (double)a.w[k] * 1e40; /* beyond float's 3.4e38 */
          else
            wd[k] = a.w[k] < 0 ? -mag : (a.w[k] == 0 ? 0.0 : mag);
        }
        CHECK_OK(gsp_graph_create(&g, a.n, a.m, a.src, a.dst, wd, GSP_F64, 0));
        free(wd);
      }
      CHECK_OK(run(g, 0, GSP_BACKEND_CPU, a.negative ? GSP_SSSP_BELLMAN_FORD : GSP_SSSP_DIJKSTRA, 0, 0, &cpu));
      for (ai = 0; ai < NUM_ALGOS && cpu != NULL; ai++) {
        const gsp_algorithm al = kAlgos[ai];
        gsp_paths* p = NULL;
        char what[160];
        gsp_status s = run(g, 0, GSP_BACKEND_CUDA, al, 0, 0, &p);
        snprintf(what, sizeof what, "%s/%s/f64-%s", gsp_algorithm_name(al), a.name, kind == 0 ? "1e40" : "1e8");
        if (a.negative && !takes_negative(al)) {
          CHECK(s == GSP_ERR_NEGATIVE_WEIGHT, "%s: %s (want GSP_ERR_NEGATIVE_WEIGHT)", what, gsp_status_name(s));
        } else {
          CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
          if (s == GSP_OK) {
            CHECK(compare_with_cpu(p, cpu, GSP_F64, 0, a.n, what) == 0, "%s: distances differ from the CPU engine",
                  what);
            CHECK(check_pred_csr(g, p, 0, GSP_F64, what) == 0, "%s: invalid predecessors", what);
          }
        }
        gsp_paths_destroy(p);
      }
      gsp_paths_destroy(cpu);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
}

static void test_shapes(void) {
  int shape, d, ai;
  const int32_t n = g_small ? 40 : 1500;
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    for (d = 0; d < T_NUM_DTYPES; d++) {
      const gsp_dtype dt = t_dtypes[d];
      t_arcs a;
      gsp_graph* g;
      int64_t* ref;
      gsp_paths* cpu = NULL;
      int32_t src;
      char what[160];
      if (!t_in_shard()) continue; /* GSP_TEST_SHARD: one (shape, type) a case */
      t_make_shape(&a, shape, shape == T_RANDOM_DENSE && n > 400 ? 400 : n, 42);
      g = t_graph(&a, dt, 1.0f);
      src = a.n > 2 ? 1 : 0;
      ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
      CHECK(t_ref_bellman_ford(&a, src, ref) == 0, "%s: the reference found a negative cycle", a.name);
      CHECK_OK(run(g, src, GSP_BACKEND_CPU, a.negative ? GSP_SSSP_BELLMAN_FORD : GSP_SSSP_DIJKSTRA, 0, 0, &cpu));
      for (ai = 0; ai < NUM_ALGOS; ai++) {
        const gsp_algorithm al = kAlgos[ai];
        gsp_paths* p = NULL;
        gsp_status s = run(g, src, GSP_BACKEND_CUDA, al, 0, 0, &p);
        snprintf(what, sizeof what, "%s/%s/%s", gsp_algorithm_name(al), a.name, t_dtype_name(dt));
        if (a.negative && !takes_negative(al)) {
          CHECK(s == GSP_ERR_NEGATIVE_WEIGHT, "%s: %s (want GSP_ERR_NEGATIVE_WEIGHT): %s", what, gsp_status_name(s),
                gsp_last_error());
        } else {
          CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
          if (s == GSP_OK) {
            gsp_run_info info = info_of(p);
            CHECK(info.backend == GSP_BACKEND_CUDA && info.device >= 0 && info.device_name[0] != '\0',
                  "%s: run info backend %d device %d name '%s'", what, (int)info.backend, info.device,
                  info.device_name);
            CHECK(info.algorithm == al, "%s: ran %s", what, gsp_algorithm_name(info.algorithm));
            CHECK(t_compare_row(p, dt, src, ref, a.n, 1.0f, what) == 0, "%s: distances differ from the reference",
                  what);
            if (cpu)
              CHECK(compare_with_cpu(p, cpu, dt, src, a.n, what) == 0, "%s: distances differ from the CPU engine",
                    what);
            CHECK(check_paths(p, &a, src, ref, g_small ? 64 : 24, what) == 0, "%s: invalid paths", what);
          }
        }
        gsp_paths_destroy(p);
      }
      gsp_paths_destroy(cpu);
      free(ref);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
}

/* A reachable distance plus an arc weight past INT32_MAX: GSP_ERR_OVERFLOW, never a wrap. */
static void test_overflow(void) {
  int32_t src[] = {0, 1, 2}, dst[] = {1, 2, 3}, w[] = {2000000000, 2000000000, 1};
  gsp_graph* g = NULL;
  int ai;
  gsp_paths* p = NULL;
  CHECK_OK(gsp_graph_create(&g, 4, 3, src, dst, w, GSP_I32, 0));
  CHECK_STATUS(run(g, 0, GSP_BACKEND_CPU, GSP_SSSP_DIJKSTRA, 0, 0, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  for (ai = 0; ai < NUM_ALGOS; ai++) {
    gsp_status s = run(g, 0, GSP_BACKEND_CUDA, kAlgos[ai], 0, 0, &p);
    CHECK(s == GSP_ERR_OVERFLOW, "overflow/%s: %s (want GSP_ERR_OVERFLOW): %s", gsp_algorithm_name(kAlgos[ai]),
          gsp_status_name(s), gsp_last_error());
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
  {
    /* Below INT32_MIN through negative arcs (Bellman-Ford), where the
     * largest weight alone could not overflow: the check's bound uses the
     * smallest weight too. */
    int32_t nsrc[] = {0, 1, 2, 0}, ndst[] = {1, 2, 3, 3}, nw[] = {-2000000000, -2000000000, 1, 5};
    g = NULL;
    CHECK_OK(gsp_graph_create(&g, 4, 4, nsrc, ndst, nw, GSP_I32, 0));
    CHECK_STATUS(run(g, 0, GSP_BACKEND_CPU, GSP_SSSP_BELLMAN_FORD, 0, 0, &p), GSP_ERR_OVERFLOW);
    gsp_paths_destroy(p);
    p = NULL;
    CHECK_STATUS(run(g, 0, GSP_BACKEND_CUDA, GSP_SSSP_BELLMAN_FORD, 0, 0, &p), GSP_ERR_OVERFLOW);
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
  }
}

/* A float distance beyond FLT_MAX: GSP_ERR_OVERFLOW on every CUDA engine
 * (testing.h's t_check_float_overflow), never "unreachable". */
static void test_float_overflow(void) {
  int ai;
  for (ai = 0; ai < NUM_ALGOS; ai++)
    t_check_float_overflow(GSP_BACKEND_CUDA, kAlgos[ai], 1, takes_negative(kAlgos[ai]));
}

/* A tiny device_memory_limit: GSP_ERR_DEVICE_OUT_OF_MEMORY, and the next run still works.
 * Repeated runs on one graph upload once. Bad ordinals and distance-only runs. */
static void test_device_layer(void) {
  t_arcs a;
  int ai;
  t_make_shape(&a, T_RANDOM_SPARSE, g_small ? 64 : 5000, 7);
  for (ai = 0; ai < NUM_ALGOS; ai++) {
    const gsp_algorithm al = kAlgos[ai];
    gsp_graph* g = t_graph(&a, GSP_F32, 1.0f);
    gsp_paths* p = NULL;
    gsp_status s = run(g, 0, GSP_BACKEND_CUDA, al, 0, 256, &p);
    int k;
    CHECK(s == GSP_ERR_DEVICE_OUT_OF_MEMORY, "limit/%s: %s (want GSP_ERR_DEVICE_OUT_OF_MEMORY): %s",
          gsp_algorithm_name(al), gsp_status_name(s), gsp_last_error());
    gsp_paths_destroy(p);
    for (k = 0; k < 3; k++) {
      p = NULL;
      s = run(g, 0, GSP_BACKEND_CUDA, al, 0, 0, &p);
      CHECK(s == GSP_OK, "upload/%s run %d: %s: %s", gsp_algorithm_name(al), k, gsp_status_name(s), gsp_last_error());
      if (s == GSP_OK) {
        gsp_run_info info = info_of(p);
        if (k == 0)
          CHECK(info.upload_seconds > 0, "upload/%s: first run reports upload_seconds %g", gsp_algorithm_name(al),
                info.upload_seconds);
        else
          CHECK(info.upload_seconds == 0, "upload/%s: run %d re-uploaded (%g s)", gsp_algorithm_name(al), k,
                info.upload_seconds);
      }
      gsp_paths_destroy(p);
    }
    /* Distances only. */
    p = NULL;
    s = run(g, 0, GSP_BACKEND_CUDA, al, GSP_NO_PATHS, 0, &p);
    CHECK(s == GSP_OK, "nopaths/%s: %s: %s", gsp_algorithm_name(al), gsp_status_name(s), gsp_last_error());
    if (s == GSP_OK) {
      int32_t len = 0;
      CHECK_STATUS(gsp_path_get(p, 0, 1, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
    }
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
  }
  {
    gsp_graph* g = t_graph(&a, GSP_I32, 1.0f);
    gsp_options o;
    gsp_paths* p = NULL;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CUDA;
    o.algorithm = GSP_SSSP_ATOMIC_LOCK;
    o.device = 9999;
    CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

/* Several threads on one fresh graph: one upload, every result right (every
 * distance of every run compared with the reference after the join). */
typedef struct {
  const gsp_graph* g;
  gsp_algorithm al;
  gsp_status status;
  double upload;
  float* dist; /* n distances, filled by the worker */
} t_job;

static void* worker(void* arg) {
  t_job* j = (t_job*)arg;
  gsp_paths* p = NULL;
  j->status = run(j->g, 0, GSP_BACKEND_CUDA, j->al, 0, 0, &p);
  if (j->status == GSP_OK) {
    gsp_run_info info = info_of(p);
    j->upload = info.upload_seconds;
    j->status = gsp_paths_distances(p, 0, j->dist, gsp_graph_num_vertices(j->g));
  }
  gsp_paths_destroy(p);
  return NULL;
}

static void test_threads(void) {
  enum { T = 4 };
  t_arcs a;
  gsp_graph* g;
  pthread_t th[T];
  t_job jobs[T];
  int64_t* ref;
  int i, uploads = 0;
  int32_t v;
  t_make_shape(&a, T_GRID, g_small ? 64 : 10000, 3);
  g = t_graph(&a, GSP_F32, 1.0f);
  ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
  t_ref_bellman_ford(&a, 0, ref);
  for (i = 0; i < T; i++) {
    jobs[i].g = g;
    jobs[i].al = i % 2 ? GSP_SSSP_ATOMIC_64 : GSP_SSSP_ATOMIC_LOCK;
    jobs[i].status = GSP_ERR_INTERNAL;
    jobs[i].upload = 0;
    jobs[i].dist = (float*)calloc((size_t)a.n, sizeof(float));
    if (jobs[i].dist == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    pthread_create(&th[i], NULL, worker, &jobs[i]);
  }
  for (i = 0; i < T; i++) pthread_join(th[i], NULL);
  for (i = 0; i < T; i++) {
    CHECK(jobs[i].status == GSP_OK, "threads: job %d: %s", i, gsp_status_name(jobs[i].status));
    for (v = 0; v < a.n && jobs[i].status == GSP_OK; v++) {
      const double want = ref[v] == T_INF_REF ? (double)INFINITY : (double)ref[v];
      if ((double)jobs[i].dist[v] != want) {
        CHECK(0, "threads: job %d (%s): d[%d] = %g, want %g", i, gsp_algorithm_name(jobs[i].al), v,
              (double)jobs[i].dist[v], want);
        break;
      }
    }
    CHECK(v == a.n, "threads: job %d: every distance right", i);
    if (jobs[i].upload > 0) uploads++;
    free(jobs[i].dist);
  }
  CHECK(uploads == 1, "threads: %d runs uploaded the graph (want 1)", uploads);
  free(ref);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* The NY road graph (DIMACS), both weight types, against the CPU Dijkstra. */
static void test_ny(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char path[1024];
  int d, ai;
  if (g_small) {
    printf("SKIP (small mode): NY road graph\n");
    return;
  }
  snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
  for (d = 0; d < T_NUM_DTYPES; d++) {
    const gsp_dtype dt = t_dtypes[d];
    gsp_graph* g = NULL;
    gsp_paths* cpu = NULL;
    gsp_status s = gsp_graph_load(&g, path, GSP_FORMAT_AUTO, dt, 0);
    int32_t n, src = 0;
    if (s == GSP_ERR_UNSUPPORTED || s == GSP_ERR_IO) {
      printf("SKIP: NY road graph (%s): %s: %s\n", path, gsp_status_name(s), gsp_last_error());
      return;
    }
    CHECK(s == GSP_OK, "load %s: %s: %s", path, gsp_status_name(s), gsp_last_error());
    if (s != GSP_OK) return;
    n = gsp_graph_num_vertices(g);
    CHECK_OK(run(g, src, GSP_BACKEND_CPU, GSP_SSSP_DIJKSTRA, 0, 0, &cpu));
    for (ai = 0; ai < NUM_ALGOS && cpu != NULL; ai++) {
      gsp_paths* p = NULL;
      char what[96];
      s = run(g, src, GSP_BACKEND_CUDA, kAlgos[ai], 0, 0, &p);
      snprintf(what, sizeof what, "NY/%s/%s", gsp_algorithm_name(kAlgos[ai]), t_dtype_name(dt));
      CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
      if (s == GSP_OK) {
        CHECK(compare_with_cpu(p, cpu, dt, src, n, what) == 0, "%s: distances differ from the CPU Dijkstra", what);
        CHECK(check_pred_csr(g, p, src, dt, what) == 0, "%s: invalid predecessors", what);
      }
      gsp_paths_destroy(p);
    }
    gsp_paths_destroy(cpu);
    gsp_graph_destroy(g);
  }
}

/* Each CUDA engine's stages, as doc/run-info.md documents them, on a graph
 * with positive weights (no predecessor repair) large enough for every
 * stage to take measurable time: set-up, compute and copy always; paths
 * where the engine has a separate predecessor pass (atomic-64, Harish,
 * task-parallel; the dense engines' pass or check: may be 0 on int32 graphs
 * with tracked predecessors), else 0, and 0 without paths. The stages add
 * up to no more than the run's seconds; a 0.1 caller gets the old fields. */
static void test_run_info_stages(void) {
  static const struct {
    gsp_algorithm algo;
    int sssp, paths_stage;
  } cases[] = {
      {GSP_SSSP_ATOMIC_LOCK, 1, T_ZERO},    {GSP_SSSP_ATOMIC_64, 1, T_POSITIVE},
      {GSP_SSSP_HARISH, 1, T_POSITIVE},     {GSP_SSSP_DELTA_STEPPING, 1, T_ZERO},
      {GSP_SSSP_BELLMAN_FORD, 1, T_ZERO},   {GSP_SSSP_SPMV_CSR, 1, T_ZERO},
      {GSP_SSSP_SPMV_ELL, 1, T_ZERO},       {GSP_SSSP_GPU_DIJKSTRA, 1, T_ZERO},
      {GSP_APSP_FLOYD_WARSHALL, 0, T_ANY},  {GSP_APSP_MINPLUS, 0, T_ANY},
      {GSP_APSP_HEAP, 0, T_ZERO},           {GSP_APSP_TASK_PARALLEL, 0, T_POSITIVE},
      {GSP_APSP_DELTA_STEPPING, 0, T_ZERO}, {GSP_APSP_SPMM, 0, T_ZERO},
  };
  t_arcs big, small;
  gsp_graph *gb, *gs;
  size_t k;
  int paths;
  t_make_shape(&big, T_RANDOM_SPARSE, g_small ? 500 : 4000, 11);
  t_make_shape(&small, T_RANDOM_SPARSE, g_small ? 100 : 300, 12);
  gb = t_graph(&big, GSP_I32, 1.0f);
  gs = t_graph(&small, GSP_F32, 1.0f);
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    for (paths = 0; paths <= 1; paths++) {
      gsp_options o;
      gsp_paths* p = NULL;
      gsp_status st;
      char what[96];
      int want[4] = {T_POSITIVE, T_POSITIVE, T_POSITIVE, T_ZERO};
      if (paths) want[3] = cases[k].paths_stage;
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CUDA;
      o.algorithm = cases[k].algo;
      o.flags = paths ? 0 : GSP_NO_PATHS;
      st = cases[k].sssp ? gsp_sssp_run(gb, 0, &o, &p) : gsp_apsp_run(gs, NULL, 0, &o, &p);
      snprintf(what, sizeof what, "cuda %s paths=%d", gsp_algorithm_name(cases[k].algo), paths);
      CHECK(st == GSP_OK, "%s: %s (%s)", what, gsp_status_name(st), gsp_last_error());
      if (p == NULL) continue;
      {
        const gsp_run_info info = info_of(p);
        CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == cases[k].algo, "%s: ran %s on %s", what,
              gsp_algorithm_name(info.algorithm), gsp_backend_name(info.backend));
        t_check_stages(&info, want, what);
        if (paths && k == 0) t_check_old_sizes(p, NULL, &info, what);
      }
      gsp_paths_destroy(p);
    }
  }
  gsp_graph_destroy(gb);
  gsp_graph_destroy(gs);
  t_arcs_free(&big);
  t_arcs_free(&small);
}

int main(void) {
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  g_small = getenv("GSP_TEST_SMALL") != NULL && atoi(getenv("GSP_TEST_SMALL")) != 0;
  /* Cases for GSP_TEST_SHARD (run.sh splits sanitizer runs): each shape and
   * weight type of test_shapes, then each test below. */
  test_shapes();
  if (t_in_shard()) test_f64_weights();
  if (t_in_shard()) test_overflow();
  if (t_in_shard()) test_float_overflow();
  if (t_in_shard()) test_device_layer();
  if (t_in_shard()) test_threads();
  if (t_in_shard()) test_ny();
  if (t_in_shard()) test_run_info_stages();
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_sssp");
}
