/* 16 threads share one graph and run mixed SSSP/APSP (CPU, and CUDA when a
 * device is usable); every answer equals the serial run's. The graph is
 * destroyed while results are still alive; progress callbacks cancel runs
 * at random points from many threads. Built also under ThreadSanitizer. */
#include <pthread.h>

#include "testing.h"

#define THREADS 16
#define ROUNDS 6

static gsp_graph* g_graph;
static int32_t g_n;
static int32_t* g_serial_sssp; /* per source 0..7: n distances */
static int32_t* g_serial_apsp; /* sources {1,5,9}: 3 x n */
static const int32_t k_apsp_sources[3] = {1, 5, 9};
static int g_cuda;

typedef struct {
  int id;
  int bad;
  int cancelled;
} worker;

static int cancel_after(void* user, double fraction) {
  int* calls = (int*)user;
  (void)fraction;
  return ++*calls >= 2;
}

static int rows_equal(const gsp_paths* p, int32_t src, const int32_t* want) {
  int32_t* row = (int32_t*)malloc((size_t)g_n * sizeof(int32_t));
  int ok = gsp_paths_distances(p, src, row, g_n) == GSP_OK && memcmp(row, want, (size_t)g_n * 4) == 0;
  free(row);
  return ok;
}

static void* work(void* arg) {
  worker* w = (worker*)arg;
  int r;
  for (r = 0; r < ROUNDS; r++) {
    gsp_options o;
    gsp_paths* p = NULL;
    int32_t src = (w->id + r) % 8;
    gsp_options_init(&o);
    o.num_threads = 1 + (w->id % 3);
    o.backend = g_cuda && (w->id % 2) ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
    switch ((w->id + r) % 4) {
      case 0: o.algorithm = o.backend == GSP_BACKEND_CUDA ? GSP_SSSP_DELTA_STEPPING : GSP_SSSP_DIJKSTRA; break;
      case 1: o.algorithm = GSP_SSSP_BELLMAN_FORD; break;
      case 2: o.algorithm = GSP_SSSP_DELTA_STEPPING; break;
      default: { /* APSP on a few sources */
        int calls = 0;
        o.algorithm = GSP_APSP_HEAP;
        if (gsp_apsp_run(g_graph, k_apsp_sources, 3, &o, &p) != GSP_OK) {
          fprintf(stderr, "thread %d: apsp: %s\n", w->id, gsp_last_error());
          w->bad++;
          continue;
        }
        if (!rows_equal(p, 1, g_serial_apsp) || !rows_equal(p, 5, g_serial_apsp + g_n) ||
            !rows_equal(p, 9, g_serial_apsp + 2 * g_n)) {
          w->bad++;
        }
        gsp_paths_destroy(p);
        /* and a cancelled run, which must free everything */
        o.progress = cancel_after;
        o.progress_user = &calls;
        if (gsp_apsp_run(g_graph, NULL, 0, &o, &p) == GSP_ERR_CANCELLED && p == NULL)
          w->cancelled++;
        else {
          gsp_paths_destroy(p);
          w->bad++;
        }
        continue;
      }
    }
    if (gsp_sssp_run(g_graph, src, &o, &p) != GSP_OK) {
      fprintf(stderr, "thread %d: sssp %s: %s\n", w->id, gsp_algorithm_name(o.algorithm), gsp_last_error());
      w->bad++;
      continue;
    }
    if (!rows_equal(p, src, g_serial_sssp + (size_t)src * g_n)) {
      fprintf(stderr, "thread %d: sssp %s from %d differs from the serial run\n", w->id,
              gsp_algorithm_name(o.algorithm), src);
      w->bad++;
    }
    gsp_paths_destroy(p);
  }
  return NULL;
}

int main(void) {
  t_arcs a;
  pthread_t th[THREADS];
  worker ws[THREADS];
  int i, bad = 0, cancelled = 0;
  gsp_paths* keep = NULL;
  gsp_options o;
  t_make_shape(&a, T_GRID, getenv("GSP_TEST_SMALL") ? 400 : 2500, 3);
  g_graph = t_graph(&a, GSP_I32, 1.0f);
  g_n = a.n;
  g_cuda = gsp_backend_available(GSP_BACKEND_CUDA);
  printf("threads %d, n %d, cuda %s\n", THREADS, g_n, g_cuda ? "yes" : "no");

  /* the serial answers */
  g_serial_sssp = (int32_t*)malloc((size_t)8 * g_n * sizeof(int32_t));
  g_serial_apsp = (int32_t*)malloc((size_t)3 * g_n * sizeof(int32_t));
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_SSSP_DIJKSTRA;
  for (i = 0; i < 8; i++) {
    gsp_paths* p = NULL;
    CHECK_OK(gsp_sssp_run(g_graph, i, &o, &p));
    CHECK_OK(gsp_paths_distances(p, i, g_serial_sssp + (size_t)i * g_n, g_n));
    gsp_paths_destroy(p);
  }
  o.algorithm = GSP_APSP_JOHNSON;
  CHECK_OK(gsp_apsp_run(g_graph, k_apsp_sources, 3, &o, &keep));
  for (i = 0; i < 3; i++) CHECK_OK(gsp_paths_distances(keep, k_apsp_sources[i], g_serial_apsp + (size_t)i * g_n, g_n));

  for (i = 0; i < THREADS; i++) {
    ws[i].id = i;
    ws[i].bad = 0;
    ws[i].cancelled = 0;
    pthread_create(&th[i], NULL, work, &ws[i]);
  }
  for (i = 0; i < THREADS; i++) {
    pthread_join(th[i], NULL);
    bad += ws[i].bad;
    cancelled += ws[i].cancelled;
  }
  CHECK(bad == 0, "%d concurrent runs differed from the serial run or failed", bad);
  CHECK(cancelled > 0, "cancellations seen: %d", cancelled);

  /* the graph goes first; the result stays valid */
  gsp_graph_destroy(g_graph);
  CHECK(rows_equal(keep, 5, g_serial_apsp + g_n), "result valid after its graph was destroyed");
  {
    int32_t len = 0;
    CHECK_OK(gsp_path_get(keep, 1, g_n - 1, NULL, 0, &len));
    CHECK(len >= 2, "path length %d", len);
  }
  gsp_paths_destroy(keep);
  free(g_serial_sssp);
  free(g_serial_apsp);
  t_arcs_free(&a);
  return t_finish("test_concurrency");
}
