/* The CPU engines' thread pool (src/engines/cpu/common/team.h): threads are reused from
 * run to run, by several callers at once, and a child process after fork()
 * gets working engines (the parent's pooled threads do not exist there; a
 * child that reused them would wait forever, which the alarm turns into a
 * failure). Every distance is checked against the reference Bellman-Ford.
 * Also run with GSP_CPU_POOL=0 (fresh threads per run; tests/hardening.cmake). */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testing.h"

#if defined(__SANITIZE_THREAD__)
#define T_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define T_TSAN 1
#endif
#endif

static t_arcs arcs;
static gsp_graph* graph[2]; /* GSP_F32, GSP_I32 */
static int64_t* ref;

/* Delta-stepping (num_threads 0: all cores) with and without paths, and the
 * parallel Dijkstra APSP over a few sources; returns the number of wrong values. */
static int run_and_count_errors(int dt) {
  const gsp_dtype dtype = dt ? GSP_I32 : GSP_F32;
  gsp_options o;
  gsp_paths* p = NULL;
  int bad = 0;
  const int32_t sources[3] = {0, 1, 2};
  gsp_options_init(&o);
  o.algorithm = GSP_SSSP_DELTA_STEPPING;
  o.backend = GSP_BACKEND_CPU;
  o.num_threads = 0;
  if (gsp_sssp_run(graph[dt], 0, &o, &p) != GSP_OK) return 1000000;
  bad += t_compare_row(p, dtype, 0, ref, arcs.n, 1.0f, "delta-stepping");
  gsp_paths_destroy(p);
  p = NULL;
  o.flags = GSP_NO_PATHS; /* the other label layout: distances only */
  if (gsp_sssp_run(graph[dt], 0, &o, &p) != GSP_OK) return 1000000;
  bad += t_compare_row(p, dtype, 0, ref, arcs.n, 1.0f, "delta-stepping, no paths");
  gsp_paths_destroy(p);
  p = NULL;
  o.flags = 0;
  o.algorithm = GSP_APSP_HEAP;
  if (gsp_apsp_run(graph[dt], sources, 3, &o, &p) != GSP_OK) return 1000000;
  bad += t_compare_row(p, dtype, 0, ref, arcs.n, 1.0f, "heap APSP");
  gsp_paths_destroy(p);
  return bad;
}

static void* caller(void* arg) {
  int i, bad = 0;
  (void)arg;
  for (i = 0; i < 6; i++) bad += run_and_count_errors(i & 1);
  return (void*)(intptr_t)bad;
}

int main(void) {
  int i, dt;
  pthread_t th[6];
  const int32_t n = getenv("GSP_TEST_SMALL") ? 6000 : 20000;

  t_make_shape(&arcs, T_RANDOM_SPARSE, n, 77);
  ref = (int64_t*)malloc((size_t)arcs.n * sizeof *ref);
  CHECK(t_ref_bellman_ford(&arcs, 0, ref) == 0, "reference");
  for (dt = 0; dt < 2; dt++) graph[dt] = t_graph(&arcs, dt ? GSP_I32 : GSP_F32, 1.0f);

  /* One caller, again and again: the same pooled threads each time. */
  for (i = 0; i < 8; i++) CHECK(run_and_count_errors(i & 1) == 0, "serial caller, run %d", i);

  /* Six callers at once, each wanting a team of all cores. */
  for (i = 0; i < 6; i++) CHECK(pthread_create(&th[i], NULL, caller, NULL) == 0, "pthread_create");
  for (i = 0; i < 6; i++) {
    void* r = NULL;
    pthread_join(th[i], &r);
    CHECK((intptr_t)r == 0, "concurrent caller %d: %ld wrong rows", i, (long)(intptr_t)r);
  }

#ifndef T_TSAN /* ThreadSanitizer does not support threads after a multithreaded fork */
  {
    const pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
      int bad = 0;
      alarm(60); /* a hang (threads that are not there) ends as a failure */
      for (i = 0; i < 4; i++) bad += run_and_count_errors(i & 1);
      _exit(bad == 0 ? 0 : 1);
    }
    if (pid > 0) {
      int status = 0;
      CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child after fork: %s %d",
            WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
  }
#endif
  /* The parent's pool still works. */
  for (i = 0; i < 2; i++) CHECK(run_and_count_errors(i) == 0, "parent after fork, run %d", i);

  for (dt = 0; dt < 2; dt++) gsp_graph_destroy(graph[dt]);
  free(ref);
  t_arcs_free(&arcs);
  return t_finish("test_thread_pool");
}
