/* The C API contract: version, status names, last error, options, enum
 * validation, backends, and the exception firewall's statuses. */
#include <math.h>
#include <pthread.h>

#include "testing.h"

static gsp_graph* small_graph(gsp_dtype dtype) {
  const int32_t s[] = {0, 1, 2};
  const int32_t t[] = {1, 2, 0};
  const float wf[] = {1, 2, 3};
  const int32_t wi[] = {1, 2, 3};
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create(&g, 4, 3, s, t, dtype == GSP_F32 ? (const void*)wf : (const void*)wi, dtype, 0));
  return g;
}

static void test_version_and_names(void) {
  int i;
  CHECK(gsp_version() == GSP_VERSION, "gsp_version %u vs header %u", gsp_version(), (unsigned)GSP_VERSION);
  CHECK(strcmp(gsp_status_name(GSP_OK), "GSP_OK") == 0, "%s", gsp_status_name(GSP_OK));
  CHECK(strcmp(gsp_status_name(GSP_ERR_NO_PATH), "GSP_ERR_NO_PATH") == 0, "%s", gsp_status_name(GSP_ERR_NO_PATH));
  CHECK(strcmp(gsp_status_name((gsp_status)999), "GSP_ERR_UNKNOWN") == 0, "unknown status name");
  /* explicit, stable values */
  CHECK(GSP_ERR_INVALID_ARGUMENT == 1 && GSP_ERR_PARSE == 14 && GSP_ERR_INTERNAL == 16, "status values moved");
  for (i = 0; i <= 16; i++) CHECK(strncmp(gsp_status_name((gsp_status)i), "GSP_", 4) == 0, "name of %d", i);
  CHECK(gsp_last_error() != NULL, "last error is never NULL");
  CHECK(strcmp(gsp_backend_name(GSP_BACKEND_CUDA), "cuda") == 0, "backend name");
  CHECK(strcmp(gsp_backend_name((gsp_backend)9), "unknown") == 0, "bad backend name");
  for (i = 0; i <= 14; i++) {
    gsp_algorithm a;
    const char* name = gsp_algorithm_name((gsp_algorithm)i);
    CHECK(strcmp(name, "unknown") != 0, "algorithm %d has a name", i);
    CHECK_OK(gsp_algorithm_from_name(name, &a));
    CHECK(a == (gsp_algorithm)i, "round trip of %s", name);
  }
  {
    gsp_algorithm a;
    CHECK_STATUS(gsp_algorithm_from_name("warp-drive", &a), GSP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gsp_last_error(), "warp-drive") != NULL, "message names the bad name: %s", gsp_last_error());
  }
}

static void* thread_error(void* arg) {
  gsp_paths* p = NULL;
  (void)arg;
  gsp_sssp_run(NULL, 0, NULL, &p);
  return (void*)(strstr(gsp_last_error(), "graph") != NULL ? (void*)1 : NULL);
}

static void test_last_error_is_per_thread(void) {
  pthread_t th;
  void* ok = NULL;
  gsp_algorithm a;
  gsp_algorithm_from_name("first-thread-error", &a);
  pthread_create(&th, NULL, thread_error, NULL);
  pthread_join(th, &ok);
  CHECK(ok != NULL, "the other thread saw its own error");
  CHECK(strstr(gsp_last_error(), "first-thread-error") != NULL, "this thread's error kept: %s", gsp_last_error());
}

static void test_options(void) {
  gsp_graph* g = small_graph(GSP_F32);
  gsp_paths* p = NULL;
  gsp_options o;
  gsp_options_init(NULL); /* no-op */
  gsp_options_init(&o);
  CHECK(o.size == sizeof o && o.backend == GSP_BACKEND_AUTO && o.algorithm == GSP_ALGO_AUTO, "defaults");
  CHECK(o.delta == 0 && o.num_threads == 0 && o.device == 0 && o.progress == NULL, "defaults zero");

  o.size = 8;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "size") != NULL, "%s", gsp_last_error());
  CHECK(p == NULL, "result NULL on failure");
  gsp_options_init(&o);
  o.backend = (gsp_backend)7;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "backend") != NULL, "%s", gsp_last_error());
  gsp_options_init(&o);
  o.algorithm = (gsp_algorithm)99;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "99") != NULL, "%s", gsp_last_error());
  gsp_options_init(&o);
  o.delta = -1.0;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "delta") != NULL, "%s", gsp_last_error());
  o.delta = NAN;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_options_init(&o);
  o.num_threads = -3;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_options_init(&o);
  o.flags = 1u << 7;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_options_init(&o);
  o.device = -1;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);

  /* a larger size (a newer caller) is accepted */
  {
    struct {
      gsp_options base;
      char future[32];
    } big;
    memset(&big, 0, sizeof big);
    gsp_options_init(&big.base);
    big.base.size = sizeof big;
    CHECK_OK(gsp_sssp_run(g, 0, &big.base, &p));
    gsp_paths_destroy(p);
    p = NULL;
  }
  /* algorithm kind mismatch */
  gsp_options_init(&o);
  o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "gsp_apsp_run") != NULL, "%s", gsp_last_error());
  o.algorithm = GSP_SSSP_DIJKSTRA;
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_graph_destroy(g);
}

static void test_backends(void) {
  gsp_graph* g = small_graph(GSP_I32);
  gsp_paths* p = NULL;
  gsp_options o;
  gsp_run_info info;
  CHECK(gsp_backend_available(GSP_BACKEND_CPU) == 1, "cpu available");
  CHECK(gsp_backend_available(GSP_BACKEND_AUTO) == 1, "auto available");
  CHECK(gsp_backend_available((gsp_backend)5) == 0, "bad backend");
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_SSSP_HARISH; /* CUDA only */
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_UNSUPPORTED);
  CHECK(strstr(gsp_last_error(), "harish") != NULL, "%s", gsp_last_error());
  /* gsp_device_start: a bad ordinal is refused by name; otherwise it begins
   * (GSP_OK) or says there is no CUDA backend, and runs work after it
   * either way (on a machine without a device, on the CPU). */
  CHECK_STATUS(gsp_device_start(-2), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "device = -2") != NULL, "%s", gsp_last_error());
  {
    const gsp_status s = gsp_device_start(0);
    CHECK(s == GSP_OK || s == GSP_ERR_NO_DEVICE, "gsp_device_start(0): %s", gsp_status_name(s));
    if (s == GSP_ERR_NO_DEVICE) CHECK(strstr(gsp_last_error(), "CUDA") != NULL, "%s", gsp_last_error());
    CHECK(gsp_device_start(GSP_ALL_DEVICES) == s, "gsp_device_start(GSP_ALL_DEVICES) differs");
  }
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    CHECK(gsp_device_count() == 0, "no devices");
    o.backend = GSP_BACKEND_CUDA;
    o.algorithm = GSP_ALGO_AUTO;
    CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_NO_DEVICE);
    CHECK(strlen(gsp_last_error()) > 30, "says why: %s", gsp_last_error());
    o.backend = GSP_BACKEND_AUTO;
    o.algorithm = GSP_SSSP_HARISH;
    CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_NO_DEVICE);
    /* AUTO runs on the CPU and says so */
    gsp_options_init(&o);
    CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.backend == GSP_BACKEND_CPU && info.algorithm == GSP_SSSP_DIJKSTRA, "auto chose %s/%s",
          gsp_backend_name(info.backend), gsp_algorithm_name(info.algorithm));
    CHECK(info.num_vertices == 4 && info.num_sources == 1 && info.has_paths == 1 && info.device == -1, "info");
    CHECK(info.seconds >= 0, "seconds");
    info.size = 4;
    CHECK_STATUS(gsp_paths_info(p, &info), GSP_ERR_INVALID_ARGUMENT);
    memset(&info, 0, sizeof info); /* size 0: this version's struct */
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.size == sizeof info && info.algorithm == GSP_SSSP_DIJKSTRA, "size 0 filled");
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
}

static int cancel_now(void* user, double fraction) {
  (void)fraction;
  ++*(int*)user;
  return 1;
}

static void test_cancel(void) {
  gsp_graph* g = small_graph(GSP_F32);
  gsp_paths* p = NULL;
  gsp_options o;
  int calls = 0;
  gsp_options_init(&o);
  o.progress = cancel_now;
  o.progress_user = &calls;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_CANCELLED);
  CHECK(calls >= 1 && p == NULL, "callback called, nothing returned");
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_CANCELLED);
  gsp_graph_destroy(g);
}

int main(void) {
  test_version_and_names();
  test_last_error_is_per_thread();
  test_options();
  test_backends();
  test_cancel();
  gsp_release_cached_memory(); /* a no-op without CUDA; callable any time */
  gsp_release_cached_memory();
  return t_finish("test_api_contract");
}
