/* Memory limits and float overflow (issue 24), CPU backend:
 * - impossible sizes answer GSP_ERR_OUT_OF_MEMORY at once (well under 1 s),
 *   touching nothing (peak RSS grows by less than 100 MB), with the bytes
 *   needed and available in the message: an empty graph of 2^31 - 1
 *   vertices under RLIMIT_AS (in a child process, so the limit is the same
 *   on every machine), an all-pairs result of 2^20 x 2^20, a Floyd-Warshall
 *   matrix of 2^20 x 2^20 streamed, and file headers declaring 2^40 arcs
 *   (refused at the header's line);
 * - without a limit, that empty graph either succeeds cheaply (its offsets
 *   are untouched zero pages) or is refused at once;
 * - a float path longer than FLT_MAX is GSP_ERR_OVERFLOW on every CPU
 *   algorithm (SSSP, APSP, streamed APSP), never "unreachable", while an
 *   overflowed sum that does not decide a distance is harmless.
 * The limits are generous upper bounds that catch "49 seconds", not
 * benchmarks. */
#define _GNU_SOURCE
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testing.h"

#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif

static const double kMaxSeconds = 1.0;
static const long kMaxRssGrowthKb = 100L * 1024;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long peak_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* The message of an up-front refusal names the bytes needed and available. */
static void check_refusal_text(const char* what) {
  const char* e = gsp_last_error();
  CHECK(strstr(e, " needs ") != NULL && strstr(e, "bytes") != NULL && strstr(e, "can have at most") != NULL,
        "%s: message without the bytes needed and available: %s", what, e);
}

/* The empty graph of INT32_MAX vertices, timed, with RSS growth. Returns
 * the status; *secs and *rss_kb get the time and the peak RSS growth. */
T_FN gsp_status empty_max_graph(double* secs, long* rss_kb) {
  gsp_graph* g = NULL;
  const long rss0 = peak_rss_kb();
  const double t0 = now_s();
  gsp_status s = gsp_graph_create(&g, INT32_MAX, 0, NULL, NULL, NULL, GSP_F32, 0);
  *secs = now_s() - t0;
  if (s == GSP_OK) {
    CHECK(gsp_graph_num_vertices(g) == INT32_MAX, "vertices %d", (int)gsp_graph_num_vertices(g));
    CHECK(gsp_graph_num_edges(g) == 0, "edges");
  } else {
    CHECK(g == NULL, "out-handle not NULL after a failure");
  }
  gsp_graph_destroy(g);
  *rss_kb = peak_rss_kb() - rss0;
  return s;
}

/* Under RLIMIT_AS = 2 GiB, in a child: refused at once. */
static void test_empty_graph_under_rlimit(void) {
#ifdef T_ASAN
  printf("SKIP empty graph under RLIMIT_AS: AddressSanitizer reserves terabytes of address space\n");
#else
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit rl = {(rlim_t)2 << 30, (rlim_t)2 << 30};
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(3);
    double secs = 0;
    long rss = 0;
    gsp_status s = empty_max_graph(&secs, &rss);
    printf("child, RLIMIT_AS 2 GiB: gsp_graph_create(INT32_MAX, 0 arcs): %s in %.1f ms, peak RSS +%ld KiB\n  %s\n",
           gsp_status_name(s), secs * 1e3, rss, gsp_last_error());
    int bad = 0;
    if (s != GSP_ERR_OUT_OF_MEMORY) bad |= 1;
    if (secs > kMaxSeconds || rss > kMaxRssGrowthKb) bad |= 2;
    if (strstr(gsp_last_error(), "RLIMIT_AS") == NULL || strstr(gsp_last_error(), " needs ") == NULL) bad |= 4;
    fflush(stdout);
    _exit(bad == 0 ? 0 : 10 + bad);
  }
  int st = 0;
  CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork/wait");
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
        "the child under RLIMIT_AS failed (exit %d: 11 wrong status, 12 too slow or too much RSS, 14 message)",
        WIFEXITED(st) ? WEXITSTATUS(st) : -1);
#endif
}

/* With no limit of ours: cheap success or a prompt refusal. */
static void test_empty_graph_unlimited(void) {
#ifdef T_ASAN
  printf("SKIP empty graph without a limit: under AddressSanitizer a 17 GB calloc is not cheap\n");
#else
  double secs = 0;
  long rss = 0;
  gsp_status s = empty_max_graph(&secs, &rss);
  printf("gsp_graph_create(INT32_MAX, 0 arcs): %s in %.1f ms, peak RSS +%ld KiB\n", gsp_status_name(s), secs * 1e3,
         rss);
  CHECK(s == GSP_OK || s == GSP_ERR_OUT_OF_MEMORY, "status %s: %s", gsp_status_name(s), gsp_last_error());
  if (s == GSP_ERR_OUT_OF_MEMORY) check_refusal_text("empty INT32_MAX graph");
  CHECK(secs < kMaxSeconds, "took %.2f s", secs);
  CHECK(rss < kMaxRssGrowthKb, "peak RSS grew by %ld KiB", rss);
#endif
}

static int on_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)first;
  (void)rows;
  (void)d;
  (void)p;
  ++*(int*)user;
  return 0;
}

/* 2^20 vertices (a chain of a few arcs): the all-pairs result is 8 TB. */
static void test_impossible_apsp(void) {
  const int32_t n = 1 << 20;
  int32_t src[4] = {0, 1, 2, 3}, dst[4] = {1, 2, 3, 4};
  float w[4] = {1, 1, 1, 1};
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create(&g, n, 4, src, dst, w, GSP_F32, 0));
  if (g == NULL) return;
  const gsp_algorithm algos[] = {GSP_ALGO_AUTO, GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP,
                                 GSP_APSP_JOHNSON};
  for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
    gsp_options o;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    o.algorithm = algos[i];
    gsp_paths* p = (gsp_paths*)&o;
    const long rss0 = peak_rss_kb();
    const double t0 = now_s();
    gsp_status s = gsp_apsp_run(g, NULL, 0, &o, &p);
    const double secs = now_s() - t0;
    CHECK(s == GSP_ERR_OUT_OF_MEMORY, "apsp %s on 2^20 vertices: %s: %s", gsp_algorithm_name(algos[i]),
          gsp_status_name(s), gsp_last_error());
    CHECK(p == NULL, "out-handle");
    check_refusal_text("impossible apsp");
    CHECK(secs < kMaxSeconds, "apsp refusal took %.2f s", secs);
    CHECK(peak_rss_kb() - rss0 < kMaxRssGrowthKb, "apsp refusal grew the peak RSS by %ld KiB", peak_rss_kb() - rss0);
    if (i == 0) printf("apsp 2^20 x 2^20: %s in %.1f ms\n  %s\n", gsp_status_name(s), secs * 1e3, gsp_last_error());
  }
  /* Streamed: no result, but the dense engines' matrices are 4-8 TB. */
  const gsp_algorithm dense[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS};
  for (size_t i = 0; i < 2; i++) {
    gsp_options o;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    o.algorithm = dense[i];
    int calls = 0;
    const double t0 = now_s();
    gsp_status s = gsp_apsp_stream(g, NULL, 0, &o, on_rows, &calls);
    const double secs = now_s() - t0;
    CHECK(s == GSP_ERR_OUT_OF_MEMORY && calls == 0, "stream %s: %s: %s", gsp_algorithm_name(dense[i]),
          gsp_status_name(s), gsp_last_error());
    check_refusal_text("impossible stream");
    CHECK(strstr(gsp_last_error(), "working memory") != NULL, "names the engine's working memory: %s",
          gsp_last_error());
    CHECK(secs < kMaxSeconds, "stream refusal took %.2f s", secs);
  }
  /* The graph still works: a few sources fit. */
  int32_t sources[2] = {0, 3};
  gsp_paths* p = NULL;
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_APSP_HEAP;
  CHECK_OK(gsp_apsp_run(g, sources, 2, &o, &p));
  float d = 0;
  if (p != NULL) CHECK_OK(gsp_paths_distance(p, 0, 4, &d));
  CHECK(d == 4.0f, "d(0, 4) = %g", (double)d);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* Headers declaring 2^31 - 1 vertices and 2^40 arcs: refused at their line. */
static void test_impossible_load(void) {
  static const struct {
    const char* suffix;
    const char* text;
    const char* at;
  } files[] = {
      {".gr", "c huge\np sp 2147483647 1099511627776\na 1 2 3\n", ":2:"},
      {".mtx", "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1099511627776\n1 2 3\n", ":2:"},
  };
  for (size_t i = 0; i < 2; i++) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/gsp_memlimits_XXXXXX%s", files[i].suffix);
    int fd = mkstemps(path, (int)strlen(files[i].suffix));
    CHECK(fd >= 0, "mkstemps");
    if (fd < 0) continue;
    FILE* f = fdopen(fd, "w");
    fputs(files[i].text, f);
    fclose(f);
    gsp_graph* g = (gsp_graph*)path;
    const double t0 = now_s();
    gsp_status s = gsp_graph_load(&g, path, GSP_FORMAT_AUTO, GSP_F32, 0);
    const double secs = now_s() - t0;
    CHECK(s == GSP_ERR_OUT_OF_MEMORY, "load %s: %s: %s", path, gsp_status_name(s), gsp_last_error());
    CHECK(g == NULL, "out-handle");
    check_refusal_text("impossible load");
    char want[96];
    snprintf(want, sizeof want, "%s%s", path, files[i].at);
    CHECK(strstr(gsp_last_error(), want) != NULL, "message names '%s': %s", want, gsp_last_error());
    CHECK(secs < kMaxSeconds, "load refusal took %.2f s", secs);
    if (i == 0)
      printf("load of a 2^40-arc header: %s in %.1f ms\n  %s\n", gsp_status_name(s), secs * 1e3, gsp_last_error());
    remove(path);
  }
}

/* ------------------------------------------------------------ float overflow */

static void test_float_overflow(void) {
  const gsp_algorithm sssp[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING};
  const gsp_algorithm apsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON};
  size_t i;
  for (i = 0; i < 3; i++) t_check_float_overflow(GSP_BACKEND_CPU, sssp[i], 1, sssp[i] == GSP_SSSP_BELLMAN_FORD);
  for (i = 0; i < 4; i++) t_check_float_overflow(GSP_BACKEND_CPU, apsp[i], 0, apsp[i] != GSP_APSP_HEAP);
}

int main(void) {
  test_empty_graph_under_rlimit();
  test_empty_graph_unlimited();
  test_impossible_apsp();
  test_impossible_load();
  test_float_overflow();
  return t_finish("test_memory_limits");
}
