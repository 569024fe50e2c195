/* Results: distances, predecessors, path_get buffer rules, lifetimes (a
 * result outlives its graph), sources lists, streaming, GSP_NO_PATHS. */
#include "testing.h"

static gsp_graph* chain(gsp_dtype dtype) {
  /* 0 -> 1 -> 2 -> 3, plus 0 -> 3 expensive; 4 unreachable */
  const int32_t s[] = {0, 1, 2, 0};
  const int32_t t[] = {1, 2, 3, 3};
  const int32_t wi[] = {1, 2, 3, 100};
  const float wf[] = {1, 2, 3, 100};
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create(&g, 5, 4, s, t, dtype == GSP_I32 ? (const void*)wi : (const void*)wf, dtype, 0));
  return g;
}

static void test_path_get(void) {
  gsp_graph* g = chain(GSP_I32);
  gsp_paths* p = NULL;
  int32_t buf[8], len = -1, d = 0, pred[5], dist[5];
  CHECK_OK(gsp_sssp_run(g, 0, NULL, &p));
  gsp_graph_destroy(g); /* the result keeps what it needs */
  CHECK(gsp_paths_num_sources(p) == 1 && gsp_paths_source(p, 0) == 0, "one source");
  CHECK(gsp_paths_source(p, 1) == -1 && gsp_paths_num_sources(NULL) == -1, "bad index");
  CHECK_OK(gsp_path_get(p, 0, 3, NULL, 0, &len));
  CHECK(len == 4, "length query %d", len);
  CHECK_STATUS(gsp_path_get(p, 0, 3, buf, 3, &len), GSP_ERR_BUFFER_TOO_SMALL);
  CHECK(len == 4, "too small still reports the length: %d", len);
  CHECK_OK(gsp_path_get(p, 0, 3, buf, 8, &len));
  CHECK(len == 4 && buf[0] == 0 && buf[1] == 1 && buf[2] == 2 && buf[3] == 3, "path 0 1 2 3");
  CHECK_OK(gsp_path_get(p, 0, 0, buf, 8, &len));
  CHECK(len == 1 && buf[0] == 0, "path to the source is the source");
  CHECK_STATUS(gsp_path_get(p, 0, 4, buf, 8, &len), GSP_ERR_NO_PATH);
  CHECK(strstr(gsp_last_error(), "4") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_path_get(p, 1, 3, buf, 8, &len), GSP_ERR_INVALID_ARGUMENT); /* not a source */
  CHECK_STATUS(gsp_path_get(p, 0, 9, buf, 8, &len), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_path_get(p, 0, 3, buf, 8, NULL), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_path_get(NULL, 0, 3, buf, 8, &len), GSP_ERR_INVALID_ARGUMENT);
  CHECK_OK(gsp_paths_distance(p, 0, 3, &d));
  CHECK(d == 6, "d = %d", d);
  CHECK_OK(gsp_paths_distance(p, 0, 4, &d));
  CHECK(d == GSP_I32_INF, "unreachable is GSP_I32_INF");
  CHECK_STATUS(gsp_paths_distances(p, 0, dist, 4), GSP_ERR_BUFFER_TOO_SMALL);
  CHECK_OK(gsp_paths_distances(p, 0, dist, 5));
  CHECK(dist[0] == 0 && dist[1] == 1 && dist[2] == 3 && dist[3] == 6 && dist[4] == GSP_I32_INF, "row");
  CHECK_OK(gsp_paths_predecessors(p, 0, pred, 5));
  CHECK(pred[0] == -1 && pred[1] == 0 && pred[3] == 2 && pred[4] == -1, "preds");
  gsp_paths_destroy(p);
  gsp_paths_destroy(NULL);
}

static void test_no_paths_and_sources(void) {
  gsp_graph* g = chain(GSP_F32);
  gsp_paths* p = NULL;
  gsp_options o;
  int32_t len, buf[5], pred[5];
  const int32_t srcs[] = {3, 0, 3};
  const int32_t bad_srcs[] = {0, 5};
  float d;
  gsp_options_init(&o);
  o.flags = GSP_NO_PATHS;
  CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
  CHECK_OK(gsp_paths_distance(p, 0, 3, &d));
  CHECK(d == 6.0f, "d");
  CHECK_STATUS(gsp_path_get(p, 0, 3, buf, 5, &len), GSP_ERR_UNSUPPORTED);
  CHECK_STATUS(gsp_paths_predecessors(p, 0, pred, 5), GSP_ERR_UNSUPPORTED);
  gsp_paths_destroy(p);
  CHECK_STATUS(gsp_sssp_run(g, 5, NULL, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "source = 5") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_sssp_run(g, -1, NULL, &p), GSP_ERR_INVALID_ARGUMENT);

  CHECK_OK(gsp_apsp_run(g, srcs, 3, NULL, &p));
  CHECK(gsp_paths_num_sources(p) == 3 && gsp_paths_source(p, 0) == 3 && gsp_paths_source(p, 1) == 0, "rows");
  CHECK_OK(gsp_paths_distance(p, 0, 2, &d));
  CHECK(d == 3.0f, "row of source 0");
  CHECK_OK(gsp_paths_distance(p, 3, 0, &d));
  CHECK(isinf(d), "3 reaches nothing");
  gsp_paths_destroy(p);
  CHECK_STATUS(gsp_apsp_run(g, bad_srcs, 2, NULL, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "sources[1] = 5") != NULL, "%s", gsp_last_error());
  CHECK_STATUS(gsp_apsp_run(g, srcs, 0, NULL, &p), GSP_ERR_INVALID_ARGUMENT);
  gsp_graph_destroy(g);
}

typedef struct {
  int32_t next, n, bad, stop_at;
} stream_state;

static int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  stream_state* s = (stream_state*)user;
  int32_t r;
  if (first != s->next) s->bad++;
  for (r = 0; r < rows; r++) {
    const float* d = (const float*)dist + (size_t)r * s->n;
    if (d[first + r] != 0.0f) s->bad++; /* all sources: row i is vertex i */
    if (pred && pred[(size_t)r * s->n + first + r] != -1) s->bad++;
  }
  s->next = first + rows;
  return s->stop_at >= 0 && s->next > s->stop_at;
}

static void test_stream(void) {
  t_arcs a;
  gsp_graph* g;
  stream_state st = {0, 0, 0, -1};
  t_make_shape(&a, T_RANDOM_SPARSE, 300, 11);
  g = t_graph(&a, GSP_F32, 1.0f);
  st.n = a.n;
  CHECK_OK(gsp_apsp_stream(g, NULL, 0, NULL, on_rows, &st));
  CHECK(st.next == a.n && st.bad == 0, "all rows in order: next %d bad %d", st.next, st.bad);
  st.next = 0;
  st.stop_at = 10;
  CHECK_STATUS(gsp_apsp_stream(g, NULL, 0, NULL, on_rows, &st), GSP_ERR_CANCELLED);
  CHECK_STATUS(gsp_apsp_stream(g, NULL, 0, NULL, NULL, &st), GSP_ERR_INVALID_ARGUMENT);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  test_path_get();
  test_no_paths_and_sources();
  test_stream();
  return t_finish("test_api_results");
}
