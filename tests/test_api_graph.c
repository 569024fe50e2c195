/* Graph creation (COO and CSR), accessors, and every kind of bad input. */
#include <math.h>

#include "testing.h"

static void test_coo_and_accessors(void) {
  const int32_t s[] = {0, 0, 2, 1};
  const int32_t t[] = {1, 2, 1, 1};
  const int32_t w[] = {5, 1, 2, 7};
  int64_t off[4];
  int32_t tg[4], wg[4];
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create(&g, 3, 4, s, t, w, GSP_I32, 0));
  CHECK(gsp_graph_num_vertices(g) == 3 && gsp_graph_num_edges(g) == 4, "counts");
  CHECK(gsp_graph_weight_type(g) == GSP_I32, "dtype");
  CHECK_OK(gsp_graph_csr(g, off, tg, wg));
  CHECK(off[0] == 0 && off[1] == 2 && off[2] == 3 && off[3] == 4, "offsets %lld %lld %lld %lld", (long long)off[0],
        (long long)off[1], (long long)off[2], (long long)off[3]);
  CHECK(tg[0] == 1 && wg[0] == 5 && tg[1] == 2 && wg[1] == 1, "arc order kept within a vertex");
  CHECK(tg[2] == 1 && wg[2] == 7 && tg[3] == 1 && wg[3] == 2, "vertex 1 then 2");
  gsp_graph_destroy(g);
  CHECK(gsp_graph_num_vertices(NULL) == -1 && gsp_graph_num_edges(NULL) == -1, "NULL accessors");
  CHECK(gsp_graph_weight_type(NULL) == 0, "NULL dtype");
  gsp_graph_destroy(NULL);
}

static void test_undirected_and_defaults(void) {
  const int32_t s[] = {0, 1, 2};
  const int32_t t[] = {1, 2, 2};
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  float d;
  CHECK_OK(gsp_graph_create(&g, 3, 3, s, t, NULL, GSP_F32, GSP_GRAPH_UNDIRECTED));
  CHECK(gsp_graph_num_edges(g) == 5, "undirected doubles all but the self-loop: %lld",
        (long long)gsp_graph_num_edges(g));
  CHECK_OK(gsp_sssp_run(g, 2, NULL, &p));
  CHECK_OK(gsp_paths_distance(p, 2, 0, &d));
  CHECK(d == 2.0f, "NULL weights are 1: d = %g", d);
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

static void test_csr(void) {
  const int64_t off[] = {0, 2, 2, 3};
  const int32_t t[] = {1, 2, 0};
  const float w[] = {1.5f, 2.5f, 0.5f};
  const int64_t bad_off[] = {0, 2, 1, 3};
  const int64_t bad_first[] = {1, 2, 2, 3};
  const int32_t bad_t[] = {1, 3, 0};
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create_csr(&g, 3, off, t, w, GSP_F32, 0));
  CHECK(gsp_graph_num_edges(g) == 3, "csr arcs");
  gsp_graph_destroy(g);
  CHECK_OK(gsp_graph_create_csr(&g, 3, off, t, w, GSP_F32, GSP_GRAPH_UNDIRECTED));
  CHECK(gsp_graph_num_edges(g) == 6, "csr undirected");
  gsp_graph_destroy(g);
  g = (gsp_graph*)&g; /* garbage: must be reset to NULL on failure */
  CHECK_STATUS(gsp_graph_create_csr(&g, 3, bad_off, t, w, GSP_F32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(g == NULL, "graph NULL after failure");
  CHECK(strstr(gsp_last_error(), "offsets[2]") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create_csr(&g, 3, bad_first, t, w, GSP_F32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK_STATUS(gsp_graph_create_csr(&g, 3, off, bad_t, w, GSP_F32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "targets[1] = 3") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create_csr(&g, 3, NULL, t, w, GSP_F32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_create_csr(&g, 3, off, NULL, w, GSP_F32, 0), GSP_ERR_INVALID_ARGUMENT);
}

static void test_bad_input(void) {
  const int32_t s[] = {0, 1};
  const int32_t t[] = {1, 0};
  const int32_t bad[] = {0, 5};
  const int32_t neg[] = {-1, 0};
  float wnan[2], winf[2];
  const int32_t wi[] = {1, 1};
  gsp_graph* g = NULL;
  wnan[0] = 1;
  wnan[1] = NAN;
  winf[0] = INFINITY;
  winf[1] = 1;
  CHECK_STATUS(gsp_graph_create(NULL, 2, 2, s, t, wi, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_create(&g, 0, 0, NULL, NULL, NULL, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "num_vertices") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, -4, 0, NULL, NULL, NULL, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_create(&g, 2, -1, s, t, wi, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "-1") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, NULL, t, wi, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, s, bad, wi, GSP_I32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "targets[1] = 5") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, neg, t, wi, GSP_I32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "sources[0] = -1") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, s, t, wnan, GSP_F32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "NaN") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, s, t, winf, GSP_F32, 0), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "weights[0]") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, s, t, wi, (gsp_dtype)4, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_create(&g, 2, 2, s, t, wi, GSP_I32, 0x80), GSP_ERR_INVALID_ARGUMENT);
  CHECK(g == NULL, "no graph left behind");
  /* n = 1, m = 0 are fine */
  CHECK_OK(gsp_graph_create(&g, 1, 0, NULL, NULL, NULL, GSP_F32, 0));
  gsp_graph_destroy(g);
}

int main(void) {
  test_coo_and_accessors();
  test_undirected_and_defaults();
  test_csr();
  test_bad_input();
  return t_finish("test_api_graph");
}
