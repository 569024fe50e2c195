/* AUTO and the cost of starting CUDA (src/dispatch/device_startup.h), in fresh
 * processes on a machine with a device:
 *  - the first small job of a process runs on the CPU (no start-up paid);
 *  - repeated jobs move to CUDA once the CPU time they took would pass the
 *    start-up cost (0.35 s), and stay there;
 *  - a first job too large for the CPU within that cost starts the device
 *    at once (a child process, so that nothing has started CUDA before),
 *    and later small jobs then run on CUDA;
 *  - an explicit backend is never overridden;
 *  - after gsp_device_start() (a child process whose first call it is), a
 *    small AUTO job runs on CUDA: the caller has paid for the start-up;
 *  - gsp_run_plan names what each run then does.
 * Results are checked against the CPU reference each time. Timing enters
 * only through the rule's own account, not as an assertion on speed. */
#include <sys/wait.h>
#include <unistd.h>

#include "testing.h"

/* Runs SSSP AUTO from source 0; returns the backend it ran on (-1 on
 * failure) and its seconds in *secs; checks plan == run and distances ==
 * the CPU Dijkstra's. */
static int auto_sssp(const gsp_graph* g, const int32_t* want, double* secs) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_run_info info;
  gsp_backend pb;
  gsp_algorithm pa;
  int32_t n = gsp_graph_num_vertices(g), v, bad = 0;
  int32_t* d = (int32_t*)malloc((size_t)n * 4);
  int backend = -1;
  gsp_options_init(&o);
  CHECK_OK(gsp_run_plan(g, 1, 1, &o, &pb, &pa));
  if (gsp_sssp_run(g, 0, &o, &p) == GSP_OK) {
    memset(&info, 0, sizeof info);
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.backend == pb && info.algorithm == pa, "plan %d/%s, ran %d/%s", (int)pb, gsp_algorithm_name(pa),
          (int)info.backend, gsp_algorithm_name(info.algorithm));
    CHECK_OK(gsp_paths_distances(p, 0, d, n));
    for (v = 0; v < n; v++) bad += d[v] != want[v];
    CHECK(bad == 0, "%d distances differ from the CPU reference", bad);
    backend = (int)info.backend;
    *secs = info.seconds;
  } else {
    CHECK(0, "gsp_sssp_run: %s", gsp_last_error());
  }
  gsp_paths_destroy(p);
  free(d);
  return backend;
}

static int32_t* reference(const gsp_graph* g) {
  gsp_options o;
  gsp_paths* p = NULL;
  int32_t n = gsp_graph_num_vertices(g);
  int32_t* d = (int32_t*)malloc((size_t)n * 4);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_SSSP_DIJKSTRA;
  CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
  gsp_paths_distances(p, 0, d, n);
  gsp_paths_destroy(p);
  return d;
}

/* A random graph of n vertices and 6 arcs each (test shapes' generator). */
static gsp_graph* random_graph(int32_t n, uint64_t seed) {
  t_arcs a;
  gsp_graph* g;
  t_make_shape(&a, T_RANDOM_SPARSE, n, seed);
  g = t_graph(&a, GSP_I32, 1.0f);
  t_arcs_free(&a);
  return g;
}

static int count_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)first;
  (void)d;
  (void)p;
  *(int32_t*)user += rows;
  return 0;
}

/* In a child process (CUDA untouched there): the first job is 3000 sources
 * of a 200,000-vertex graph, streamed, well beyond 0.35 s of CPU even with
 * the CPU's rows by one-thread delta-stepping on 16 threads (600 sources
 * were estimated at about 0.34 s there, and stayed on the CPU): the plan
 * is CUDA, and after it the device is started (a small job then runs on
 * CUDA too). Returns 1 when all holds. */
static int first_job_large(void) {
  gsp_graph *g, *small;
  gsp_options o;
  gsp_backend pb = GSP_BACKEND_CPU;
  gsp_algorithm pa;
  int32_t sources[3000], rows = 0, i;
  gsp_paths* p = NULL;
  gsp_run_info info;
  int ok;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) return 1; /* the parent skips */
  g = random_graph(200000, 9);
  small = random_graph(1000, 1);
  for (i = 0; i < 3000; i++) sources[i] = i * 61;
  gsp_options_init(&o);
  o.flags = GSP_NO_PATHS;
  ok = gsp_run_plan(g, 0, 3000, &o, &pb, &pa) == GSP_OK && pb == GSP_BACKEND_CUDA;
  if (!ok) fprintf(stderr, "large first job planned on backend %d\n", (int)pb);
  ok = ok && gsp_apsp_stream(g, sources, 3000, &o, count_rows, &rows) == GSP_OK && rows == 3000;
  gsp_options_init(&o);
  if (ok && gsp_sssp_run(small, 0, &o, &p) == GSP_OK) {
    memset(&info, 0, sizeof info);
    gsp_paths_info(p, &info);
    ok = info.backend == GSP_BACKEND_CUDA;
    if (!ok) fprintf(stderr, "after the large job a small one ran on backend %d\n", (int)info.backend);
  } else {
    ok = 0;
  }
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  gsp_graph_destroy(small);
  return ok;
}

/* In a child process: gsp_device_start() first, then a small AUTO job runs
 * on CUDA with the CPU reference's distances. Returns 1 when all holds. */
static int started_early(void) {
  gsp_graph* small;
  int32_t* want;
  double secs = 0;
  int b;
  if (gsp_device_start(0) != GSP_OK) {
    fprintf(stderr, "gsp_device_start(0): %s\n", gsp_last_error());
    return 0;
  }
  small = random_graph(1000, 1);
  want = reference(small);
  b = auto_sssp(small, want, &secs);
  if (b != GSP_BACKEND_CUDA) fprintf(stderr, "after gsp_device_start a small job ran on backend %d\n", b);
  free(want);
  gsp_graph_destroy(small);
  return b == GSP_BACKEND_CUDA && t_failures == 0;
}

int main(void) {
  gsp_graph *small, *medium;
  int32_t *want_small, *want_medium;
  double secs = 0, charged = 0;
  int i, b, switched_at = -1;
  pid_t child, early, quick;
  /* Before anything touches CUDA in this process. */
  child = fork();
  if (child == 0) _exit(first_job_large() ? 0 : 1);
  early = fork();
  if (early == 0) _exit(started_early() ? 0 : 1);
  /* a process that starts every device and exits at once, through exit() */
  quick = fork();
  if (quick == 0) exit(gsp_device_start(GSP_ALL_DEVICES) == GSP_OK ? 0 : 1);
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    int st = 0;
    waitpid(child, &st, 0);
    waitpid(early, &st, 0);
    waitpid(quick, &st, 0);
    printf("SKIP: no CUDA device (%s)\n", gsp_last_error());
    return T_SKIP;
  }
  {
    int st = 0;
    CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "a large first job did not start the device (status %d)", st);
    CHECK(waitpid(early, &st, 0) == early && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "after gsp_device_start a small job did not run on CUDA (status %d)", st);
    CHECK(waitpid(quick, &st, 0) == quick && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "a process that started the devices and exited at once failed (status %d)", st);
  }
  small = random_graph(1000, 1);
  medium = random_graph(300000, 2);
  want_small = reference(small);
  want_medium = reference(medium);
  /* The references ran with an explicit CPU backend: nothing charged, CUDA
   * not started. The first small AUTO job stays on the CPU. */
  b = auto_sssp(small, want_small, &secs);
  CHECK(b == GSP_BACKEND_CPU, "first small job ran on backend %d, not the CPU", b);
  charged += secs;
  /* Repeated medium jobs: CPU until the account would pass 0.35 s, then CUDA
   * for good. */
  for (i = 0; i < 400; i++) {
    b = auto_sssp(medium, want_medium, &secs);
    if (b == GSP_BACKEND_CPU) {
      CHECK(switched_at < 0, "job %d went back to the CPU after CUDA started at job %d", i, switched_at);
      charged += secs;
    } else if (b == GSP_BACKEND_CUDA && switched_at < 0) {
      switched_at = i;
    }
    if (switched_at >= 0 && i >= switched_at + 3) break;
  }
  CHECK(switched_at >= 0, "AUTO never started the device (%.3f s of CPU charged)", charged);
  /* The account bounds the CPU time (plus the last job's estimate error). */
  CHECK(charged <= 0.35 + 0.5, "%.3f s of CPU runs before starting the device", charged);
  /* Now the device is started: a small job goes to CUDA too, and an
   * explicit CPU backend stays on the CPU. */
  b = auto_sssp(small, want_small, &secs);
  CHECK(b == GSP_BACKEND_CUDA, "small job after start-up ran on backend %d", b);
  {
    gsp_options o;
    gsp_paths* p = NULL;
    gsp_run_info info;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    CHECK_OK(gsp_sssp_run(small, 0, &o, &p));
    memset(&info, 0, sizeof info);
    gsp_paths_info(p, &info);
    CHECK(info.backend == GSP_BACKEND_CPU, "explicit CPU ran on %d", (int)info.backend);
    gsp_paths_destroy(p);
  }
  printf("cold start: CPU until job %d (%.3f s of CPU charged)\n", switched_at, charged);
  free(want_small);
  free(want_medium);
  gsp_graph_destroy(small);
  gsp_graph_destroy(medium);
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_cold_start");
}
