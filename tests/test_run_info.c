/* gsp_run_info's stage fields on the CPU engines (doc/run-info.md): each
 * engine fills the stages it documents, leaves the others 0, and the
 * stages never add up to more than the run's seconds; predecessors cost a
 * paths stage exactly where the engine has a separate pass (the dense
 * engines). And the struct's size rule: a caller built against libgsp 0.1
 * (size = offsetof(gsp_run_info, setup_seconds)) gets the old fields and
 * not one byte more, from gsp_paths_info, gsp_table_info and
 * gsp_apsp_run_into. The same stage checks for the CUDA engines are in
 * tests/gpu/test_gpu_sssp.c. */
#include "run_info_check.h"

/* A graph with enough work for every stage to take measurable time. */
static gsp_graph* make_graph(int negative, gsp_dtype dtype, t_arcs* a) {
  t_make_shape(a, negative ? T_DAG_NEGATIVE : T_RANDOM_SPARSE, 300, 7);
  return t_graph(a, dtype, 1.0f);
}

static gsp_run_info info_of(const gsp_paths* p) {
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_paths_info(p, &info));
  return info;
}

static void options(gsp_options* o, gsp_algorithm a, int paths) {
  gsp_options_init(o);
  o->backend = GSP_BACKEND_CPU;
  o->algorithm = a;
  o->num_threads = 2;
  o->flags = paths ? 0 : GSP_NO_PATHS;
}

/* Single source: the search is everything (predecessors come with it). */
static void test_sssp(void) {
  static const gsp_algorithm algos[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING};
  static const int want[4] = {T_ZERO, T_POSITIVE, T_ZERO, T_ZERO};
  t_arcs a;
  gsp_graph* g = make_graph(0, GSP_F32, &a);
  size_t k;
  int paths;
  for (k = 0; k < sizeof algos / sizeof algos[0]; k++) {
    for (paths = 0; paths <= 1; paths++) {
      gsp_options o;
      gsp_paths* p = NULL;
      char what[96];
      options(&o, algos[k], paths);
      CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
      if (p == NULL) continue;
      snprintf(what, sizeof what, "sssp %s paths=%d", gsp_algorithm_name(algos[k]), paths);
      {
        const gsp_run_info info = info_of(p);
        t_check_stages(&info, want, what);
        if (paths && k == 0) t_check_old_sizes(p, NULL, &info, what);
      }
      gsp_paths_destroy(p);
    }
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* All pairs: the dense engines split set-up (the matrix), compute (the
 * k-steps or products), paths (the predecessor pass and check, only with
 * paths) and copy (rows into the result); Johnson's potentials are set-up;
 * the row engines report their searches, which deliver the rows as they
 * go, as compute. */
static void test_apsp(void) {
  static const struct {
    gsp_algorithm algo;
    int negative;
    int want[4]; /* with paths; without them paths_seconds must be 0 */
  } cases[] = {
      {GSP_APSP_FLOYD_WARSHALL, 0, {T_POSITIVE, T_POSITIVE, T_POSITIVE, T_POSITIVE}},
      {GSP_APSP_FLOYD_WARSHALL, 1, {T_POSITIVE, T_POSITIVE, T_POSITIVE, T_POSITIVE}},
      {GSP_APSP_MINPLUS, 0, {T_POSITIVE, T_POSITIVE, T_POSITIVE, T_POSITIVE}},
      {GSP_APSP_HEAP, 0, {T_ZERO, T_POSITIVE, T_ZERO, T_ZERO}},
      {GSP_APSP_DELTA_STEPPING, 0, {T_ZERO, T_POSITIVE, T_ZERO, T_ZERO}},
      {GSP_APSP_JOHNSON, 1, {T_POSITIVE, T_POSITIVE, T_ZERO, T_ZERO}},
  };
  size_t k;
  int paths;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    t_arcs a;
    gsp_graph* g = make_graph(cases[k].negative, GSP_I32, &a);
    for (paths = 0; paths <= 1; paths++) {
      gsp_options o;
      gsp_paths* p = NULL;
      char what[96];
      int want[4];
      memcpy(want, cases[k].want, sizeof want);
      if (!paths) want[3] = T_ZERO;
      options(&o, cases[k].algo, paths);
      CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
      if (p == NULL) continue;
      snprintf(what, sizeof what, "apsp %s%s paths=%d", gsp_algorithm_name(cases[k].algo),
               cases[k].negative ? " (negative arcs)" : "", paths);
      {
        const gsp_run_info info = info_of(p);
        CHECK(info.has_paths == (uint32_t)paths, "%s: has_paths %u", what, info.has_paths);
        t_check_stages(&info, want, what);
        if (paths && k == 0) t_check_old_sizes(p, NULL, &info, what);
      }
      gsp_paths_destroy(p);
    }
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* gsp_apsp_run_into fills the stages of the info it is given; a 0.1
 * caller's info gets the old fields only, before and after the run. */
static void test_run_into(void) {
  union {
    gsp_run_info info;
    unsigned char bytes[sizeof(gsp_run_info)];
  } u;
  static const int want[4] = {T_POSITIVE, T_POSITIVE, T_POSITIVE, T_POSITIVE};
  const size_t v01 = offsetof(gsp_run_info, setup_seconds);
  t_arcs a;
  gsp_graph* g = make_graph(0, GSP_F32, &a);
  const int32_t n = gsp_graph_num_vertices(g);
  float* d = (float*)malloc((size_t)n * (size_t)n * sizeof(float));
  int32_t* p = (int32_t*)malloc((size_t)n * (size_t)n * sizeof(int32_t));
  gsp_options o;
  size_t b;
  int untouched = 1;
  options(&o, GSP_APSP_FLOYD_WARSHALL, 1);
  memset(&u, 0, sizeof u);
  u.info.size = sizeof u.info;
  CHECK_OK(gsp_apsp_run_into(g, NULL, 0, &o, d, p, &u.info));
  t_check_stages(&u.info, want, "apsp_run_into floyd-warshall");
  memset(u.bytes, 0xA5, sizeof u.bytes);
  u.info.size = (uint32_t)v01;
  CHECK_OK(gsp_apsp_run_into(g, NULL, 0, &o, d, p, &u.info));
  CHECK(u.info.size == v01 && u.info.algorithm == GSP_APSP_FLOYD_WARSHALL && u.info.num_vertices == n &&
            u.info.has_paths == 1 && u.info.seconds > 0,
        "apsp_run_into, 0.1 caller: size %u algorithm %d n %d", u.info.size, (int)u.info.algorithm,
        u.info.num_vertices);
  for (b = v01; b < sizeof u.bytes; b++) untouched = untouched && u.bytes[b] == 0xA5;
  CHECK(untouched, "apsp_run_into wrote past a 0.1 caller's struct");
  free(d);
  free(p);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* Tables on the CPU: the searches (cells and paths included) are compute,
 * Johnson's potentials set-up. */
static void test_table(void) {
  int negative;
  for (negative = 0; negative <= 1; negative++) {
    const int want[4] = {negative ? T_POSITIVE : T_ZERO, T_POSITIVE, T_ZERO, T_ZERO};
    const int32_t src[3] = {0, 5, 9}, dst[4] = {1, 2, 50, 299};
    t_arcs a;
    gsp_graph* g = make_graph(negative, GSP_I32, &a);
    gsp_table* t = NULL;
    gsp_options o;
    gsp_run_info info;
    char what[64];
    options(&o, GSP_ALGO_AUTO, 1);
    CHECK_OK(gsp_table_run(g, src, 3, dst, 4, &o, &t));
    if (t != NULL) {
      snprintf(what, sizeof what, "table%s", negative ? " (negative arcs)" : "");
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      CHECK_OK(gsp_table_info(t, &info));
      t_check_stages(&info, want, what);
      t_check_old_sizes(NULL, t, &info, what);
    }
    gsp_table_destroy(t);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

int main(void) {
  test_sssp();
  test_apsp();
  test_run_into();
  test_table();
  return t_finish("test_run_info");
}
