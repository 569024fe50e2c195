/* gsp_run_plan: the backend and algorithm it names are the ones the run
 * then uses (gsp_paths_info), for AUTO and explicit choices, SSSP and APSP,
 * on graph shapes that steer AUTO differently (negative arcs, dense, sparse),
 * and it answers the failures the run would answer, before running. */
#include "testing.h"

/* Plans, runs, and compares the plan with what ran. */
static void check_plan(const gsp_graph* g, const char* name, int sssp, int32_t num_sources, gsp_backend backend,
                       gsp_algorithm algorithm) {
  gsp_options o;
  gsp_backend pb = (gsp_backend)-1;
  gsp_algorithm pa = (gsp_algorithm)-1;
  gsp_paths* p = NULL;
  gsp_status ps, rs;
  int32_t* sources = NULL;
  int32_t i;
  gsp_options_init(&o);
  o.backend = backend;
  o.algorithm = algorithm;
  ps = gsp_run_plan(g, sssp, num_sources, &o, &pb, &pa);
  if (!sssp && num_sources > 0) {
    sources = (int32_t*)malloc((size_t)num_sources * sizeof(int32_t));
    for (i = 0; i < num_sources; i++) sources[i] = i % gsp_graph_num_vertices(g);
  }
  rs = sssp ? gsp_sssp_run(g, 0, &o, &p) : gsp_apsp_run(g, sources, num_sources, &o, &p);
  CHECK(ps == rs, "%s %s %s: plan %s, run %s (%s)", name, sssp ? "sssp" : "apsp", gsp_algorithm_name(algorithm),
        gsp_status_name(ps), gsp_status_name(rs), gsp_last_error());
  if (ps == GSP_OK && rs == GSP_OK) {
    gsp_run_info info;
    memset(&info, 0, sizeof info);
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.algorithm == pa && info.backend == pb, "%s %s %s: plan %s on %d, ran %s on %d", name,
          sssp ? "sssp" : "apsp", gsp_algorithm_name(algorithm), gsp_algorithm_name(pa), (int)pb,
          gsp_algorithm_name(info.algorithm), (int)info.backend);
    CHECK(pa != GSP_ALGO_AUTO && pb != GSP_BACKEND_AUTO, "%s: the plan left AUTO unresolved", name);
  }
  gsp_paths_destroy(p);
  free(sources);
}

int main(void) {
  static const int shapes[] = {T_RANDOM_SPARSE, T_RANDOM_DENSE, T_DAG_NEGATIVE, T_RING, T_NO_ARCS};
  static const gsp_algorithm sssp_algos[] = {GSP_ALGO_AUTO,           GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD,
                                             GSP_SSSP_DELTA_STEPPING, GSP_SSSP_HARISH,   GSP_APSP_HEAP};
  static const gsp_algorithm apsp_algos[] = {GSP_ALGO_AUTO, GSP_APSP_FLOYD_WARSHALL, GSP_APSP_HEAP, GSP_APSP_JOHNSON,
                                             GSP_SSSP_DIJKSTRA};
  static const gsp_backend backends[] = {GSP_BACKEND_AUTO, GSP_BACKEND_CPU, GSP_BACKEND_CUDA};
  size_t si, ai, bi;
  for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    t_arcs a;
    gsp_graph* g;
    t_make_shape(&a, shapes[si], 120, 5);
    g = t_graph(&a, GSP_F32, 1.0f);
    for (bi = 0; bi < 3; bi++) {
      for (ai = 0; ai < sizeof sssp_algos / sizeof sssp_algos[0]; ai++) {
        check_plan(g, a.name, 1, 1, backends[bi], sssp_algos[ai]);
      }
      for (ai = 0; ai < sizeof apsp_algos / sizeof apsp_algos[0]; ai++) {
        check_plan(g, a.name, 0, 0, backends[bi], apsp_algos[ai]);
        check_plan(g, a.name, 0, 7, backends[bi], apsp_algos[ai]);
      }
    }
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
  {
    t_arcs a;
    gsp_graph* g;
    gsp_backend b;
    gsp_algorithm al;
    t_make_shape(&a, T_RING, 10, 1);
    g = t_graph(&a, GSP_I32, 1.0f);
    CHECK_STATUS(gsp_run_plan(NULL, 1, 0, NULL, &b, &al), GSP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gsp_run_plan(g, 1, 0, NULL, NULL, &al), GSP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gsp_run_plan(g, 1, 0, NULL, &b, NULL), GSP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gsp_last_error(), "algorithm") != NULL, "message names the NULL argument: %s", gsp_last_error());
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
  return t_finish("test_run_plan");
}
