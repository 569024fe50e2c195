/* gsp_apsp_run_into: rows written into the caller's arrays are the rows of
 * gsp_apsp_run, bit for bit, for every test shape, both weight types, every
 * APSP algorithm of the CPU backend, all sources and a list with repeats,
 * with and without predecessors; its info names what ran; bad arguments
 * get a status and a message and leave the caller's arrays untouched. (The
 * CUDA engines write rows in place through the same call:
 * tests/gpu/test_gpu_apsp_dense.c compares them the same way.) */
#include "testing.h"

static const gsp_algorithm kAlgos[] = {GSP_ALGO_AUTO, GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP,
                                       GSP_APSP_JOHNSON};

/* Runs both calls and compares them: the same status (negative weights
 * refused by the Dijkstra-based algorithms), and on success the same rows. */
static void compare(const gsp_graph* g, const char* name, gsp_algorithm algo, const int32_t* sources, int32_t ns,
                    int paths) {
  int32_t n = gsp_graph_num_vertices(g);
  int32_t rows = sources ? ns : n;
  size_t cells = (size_t)rows * (size_t)n;
  int32_t* d = (int32_t*)malloc(cells * 4 + 4);
  int32_t* p = paths ? (int32_t*)malloc(cells * 4 + 4) : NULL;
  int32_t* want = (int32_t*)malloc((size_t)n * 4 + 4);
  gsp_options o;
  gsp_paths* r = NULL;
  gsp_run_info info, rinfo;
  gsp_status s1, s2;
  int32_t i, diff = 0;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = algo;
  o.flags = paths ? 0 : GSP_NO_PATHS;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  s1 = gsp_apsp_run(g, sources, ns, &o, &r);
  s2 = gsp_apsp_run_into(g, sources, ns, &o, d, p, &info);
  CHECK(s1 == s2, "%s %s paths=%d: run %s, run_into %s (%s)", name, gsp_algorithm_name(algo), paths,
        gsp_status_name(s1), gsp_status_name(s2), gsp_last_error());
  if (s1 == GSP_OK && s2 == GSP_OK) {
    memset(&rinfo, 0, sizeof rinfo);
    CHECK_OK(gsp_paths_info(r, &rinfo));
    CHECK(info.algorithm == rinfo.algorithm && info.backend == GSP_BACKEND_CPU && info.num_sources == rows &&
              info.num_vertices == n && info.has_paths == (uint32_t)paths && info.weight_type == rinfo.weight_type,
          "%s %s: info %s rows %d paths %u", name, gsp_algorithm_name(algo), gsp_algorithm_name(info.algorithm),
          info.num_sources, info.has_paths);
    for (i = 0; i < rows; i++) {
      int32_t src = sources ? sources[i] : i;
      size_t at = (size_t)i * (size_t)n;
      CHECK_OK(gsp_paths_distances(r, src, want, n));
      diff += memcmp(d + at, want, (size_t)n * 4) != 0;
      if (paths) {
        CHECK_OK(gsp_paths_predecessors(r, src, want, n));
        diff += memcmp(p + at, want, (size_t)n * 4) != 0;
      }
    }
    CHECK(diff == 0, "%s %s paths=%d: %d rows differ", name, gsp_algorithm_name(algo), paths, diff);
  }
  gsp_paths_destroy(r);
  free(d);
  free(p);
  free(want);
}

static void test_shapes(void) {
  int shape, dt, a, paths;
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    t_arcs arcs;
    t_make_shape(&arcs, shape, 70, 5);
    for (dt = 0; dt < 2; dt++) {
      gsp_graph* g = t_graph(&arcs, dt ? GSP_F32 : GSP_I32, 1.0f);
      int32_t n = gsp_graph_num_vertices(g);
      int32_t list[5];
      list[0] = n - 1;
      list[1] = 0;
      list[2] = n / 2;
      list[3] = 0;
      list[4] = n - 1; /* repeats */
      for (a = 0; a < (int)(sizeof kAlgos / sizeof kAlgos[0]); a++) {
        for (paths = 0; paths < 2; paths++) {
          compare(g, arcs.name, kAlgos[a], NULL, 0, paths);
          compare(g, arcs.name, kAlgos[a], list, 5, paths);
        }
      }
      gsp_graph_destroy(g);
    }
    t_arcs_free(&arcs);
  }
}

/* Bad input: a status, a message naming the problem, the arrays untouched. */
static void test_bad_input(void) {
  t_arcs arcs;
  gsp_graph* g;
  gsp_options o;
  gsp_run_info info;
  int32_t d[64 * 64], p[64 * 64];
  int32_t bad_src[2] = {0, 64};
  int32_t i, touched = 0;
  t_make_shape(&arcs, T_RANDOM_SPARSE, 64, 1);
  g = t_graph(&arcs, GSP_I32, 1.0f);
  for (i = 0; i < 64 * 64; i++) d[i] = p[i] = -7;
  gsp_options_init(&o);
  CHECK_STATUS(gsp_apsp_run_into(NULL, NULL, 0, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "graph") != NULL, "message: %s", gsp_last_error());
  CHECK_STATUS(gsp_apsp_run_into(g, NULL, 0, &o, NULL, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "distances") != NULL, "message: %s", gsp_last_error());
  CHECK_STATUS(gsp_apsp_run_into(g, bad_src, 2, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "sources[1] = 64") != NULL, "message: %s", gsp_last_error());
  CHECK_STATUS(gsp_apsp_run_into(g, bad_src, 0, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "num_sources") != NULL, "message: %s", gsp_last_error());
  CHECK_STATUS(gsp_apsp_run_into(g, bad_src, -3, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  o.flags = GSP_NO_PATHS;
  CHECK_STATUS(gsp_apsp_run_into(g, NULL, 0, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "GSP_NO_PATHS") != NULL, "message: %s", gsp_last_error());
  o.flags = 0;
  memset(&info, 0, sizeof info);
  info.size = 3; /* smaller than any gsp_run_info */
  CHECK_STATUS(gsp_apsp_run_into(g, NULL, 0, &o, d, p, &info), GSP_ERR_INVALID_ARGUMENT);
  o.size = 2;
  CHECK_STATUS(gsp_apsp_run_into(g, NULL, 0, &o, d, p, NULL), GSP_ERR_INVALID_ARGUMENT);
  for (i = 0; i < 64 * 64; i++) touched += d[i] != -7 || p[i] != -7;
  CHECK(touched == 0, "refused calls wrote %d entries", touched);
  /* A negative cycle: the status of gsp_apsp_run. */
  {
    t_arcs neg;
    gsp_graph* gn;
    t_arcs_init(&neg, "negative-cycle", 3);
    t_arc(&neg, 0, 1, 1);
    t_arc(&neg, 1, 2, -3);
    t_arc(&neg, 2, 0, 1);
    gn = t_graph(&neg, GSP_I32, 1.0f);
    gsp_options_init(&o);
    CHECK_STATUS(gsp_apsp_run_into(gn, NULL, 0, &o, d, p, NULL), GSP_ERR_NEGATIVE_CYCLE);
    gsp_graph_destroy(gn);
    t_arcs_free(&neg);
  }
  /* NULL options and info: defaults, AUTO. */
  CHECK_OK(gsp_apsp_run_into(g, NULL, 0, NULL, d, NULL, NULL));
  CHECK(d[0] == 0, "d[0][0] = %d", d[0]);
  gsp_graph_destroy(g);
  t_arcs_free(&arcs);
}

int main(void) {
  test_shapes();
  test_bad_input();
  return t_finish("test_apsp_into");
}
