/* The DIMACS New York road graph (264,346 vertices, 733,846 arcs), read
 * straight from .gr.gz: the load time is printed, and SSSP from vertex 1
 * (0-based 0) with the CPU Dijkstra matches the CPU Bellman-Ford. Also
 * rome99.gr. Skipped, visibly, when $GSP_DATA_DIR has no such files. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "testing.h"

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int exists(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  fclose(f);
  return 1;
}

/* Dijkstra vs Bellman-Ford on the CPU from `src`; returns mismatches. */
static int64_t compare_sssp(const gsp_graph* g, int32_t src, const char* name) {
  gsp_options o;
  gsp_paths *pd = NULL, *pb = NULL;
  int32_t n = gsp_graph_num_vertices(g), v;
  int32_t *dd = (int32_t*)malloc((size_t)n * 4), *db = (int32_t*)malloc((size_t)n * 4);
  int64_t bad = 0, reached = 0;
  double t0;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_SSSP_DIJKSTRA;
  t0 = seconds();
  CHECK_OK(gsp_sssp_run(g, src, &o, &pd));
  printf("%s: Dijkstra (CPU) from %d: %.3f s\n", name, src, seconds() - t0);
  o.algorithm = GSP_SSSP_BELLMAN_FORD;
  t0 = seconds();
  CHECK_OK(gsp_sssp_run(g, src, &o, &pb));
  printf("%s: Bellman-Ford (CPU) from %d: %.3f s\n", name, src, seconds() - t0);
  if (pd && pb) {
    CHECK_OK(gsp_paths_distances(pd, src, dd, n));
    CHECK_OK(gsp_paths_distances(pb, src, db, n));
    for (v = 0; v < n; v++) {
      if (dd[v] != db[v]) {
        if (bad < 5) fprintf(stderr, "%s: d(%d) dijkstra %d, bellman-ford %d\n", name, v, dd[v], db[v]);
        bad++;
      }
      if (dd[v] != GSP_I32_INF) reached++;
    }
    printf("%s: %lld of %d vertices reached, %lld mismatches\n", name, (long long)reached, n, (long long)bad);
    CHECK(reached > 1, "%s: only %lld reached", name, (long long)reached);
  }
  gsp_paths_destroy(pd);
  gsp_paths_destroy(pb);
  free(dd);
  free(db);
  return bad;
}

int main(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char ny[1024], rome[1024];
  gsp_graph* g = NULL;
  double t0, t;
  int ran = 0;
  if (dir == NULL || !*dir) dir = "../shared/data";
  snprintf(ny, sizeof ny, "%s/USA-road-d.NY.gr.gz", dir);
  snprintf(rome, sizeof rome, "%s/rome99.gr", dir);

  if (exists(ny)) {
    ran = 1;
    t0 = seconds();
    CHECK_OK(gsp_graph_load(&g, ny, GSP_FORMAT_AUTO, GSP_I32, 0));
    t = seconds() - t0;
    printf("USA-road-d.NY.gr.gz: loaded in %.3f s (i32)\n", t);
    CHECK(t < 3.0, "loading NY took %.3f s", t); /* well under 1 s alone; slack for loaded CI machines */
    if (g) {
      CHECK(gsp_graph_num_vertices(g) == 264346, "n = %d", gsp_graph_num_vertices(g));
      CHECK(gsp_graph_num_edges(g) == 733846, "m = %lld", (long long)gsp_graph_num_edges(g));
      CHECK(compare_sssp(g, 0, "NY") == 0, "NY: Dijkstra and Bellman-Ford differ");
    }
    gsp_graph_destroy(g);
    g = NULL;
  } else {
    printf("SKIP: %s not found (set GSP_DATA_DIR)\n", ny);
  }
  if (exists(rome)) {
    ran = 1;
    t0 = seconds();
    CHECK_OK(gsp_graph_load(&g, rome, GSP_FORMAT_AUTO, GSP_I32, 0));
    printf("rome99.gr: loaded in %.3f s\n", seconds() - t0);
    if (g) CHECK(compare_sssp(g, 0, "rome99") == 0, "rome99: Dijkstra and Bellman-Ford differ");
    gsp_graph_destroy(g);
  } else {
    printf("SKIP: %s not found\n", rome);
  }
  if (!ran) {
    printf("SKIP: no real graphs in %s\n", dir);
    return T_SKIP;
  }
  return t_finish("test_io_ny");
}
