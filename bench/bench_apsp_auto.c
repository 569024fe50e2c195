/* CUDA AUTO for all pairs against every CUDA all-pairs engine (issue 20):
 * Floyd-Warshall, task-parallel and heap on five families (ring, grid,
 * random out-degree 6, a road subgraph, complete) for n from 1,000 to
 * 16,384, each timed as a user calls it: gsp_apsp_run for every row, paths
 * on, the result in host memory (wall time; destroying it is not timed).
 * Then AUTO's choice (gsp_run_plan) and its time beside the best engine's.
 * The table is the measurement behind AUTO's cost model
 * (src/dispatch/cuda_cost_model.cpp, doc/algorithms.md).
 *
 * Each engine gets one warm-up and up to 3 timed runs (1 when a run takes
 * over a second); a run slower than 4x the best engine so far on the same
 * graph (at least 1 s) is cancelled through the progress callback and shown
 * as "> t". Road subgraph: the first n vertices reached by a breadth-first
 * search from vertex 0 of the DIMACS NY graph ($GSP_DATA_DIR, skipped
 * visibly when absent). Complete graphs stop at n = 8192 (67 M arcs).
 * Argument: a family name to run only that one. */
#include "bench_common.h"

enum { FW, TASK, HEAP, NUM_ENGINES };
static const gsp_algorithm kEngines[NUM_ENGINES] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_TASK_PARALLEL, GSP_APSP_HEAP};

typedef struct {
  int32_t *s, *d, *w;
  int64_t m, cap;
} arc_list;

static void add_arc(arc_list* a, int32_t u, int32_t v, int32_t w) {
  if (a->m == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->s = (int32_t*)realloc(a->s, (size_t)a->cap * 4);
    a->d = (int32_t*)realloc(a->d, (size_t)a->cap * 4);
    a->w = (int32_t*)realloc(a->w, (size_t)a->cap * 4);
    if (!a->s || !a->d || !a->w) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
  }
  a->s[a->m] = u;
  a->d[a->m] = v;
  a->w[a->m] = w;
  a->m++;
}

static gsp_graph* from_list(int32_t n, arc_list* a) {
  gsp_graph* g = bench_graph_from_arcs(n, a->m, a->s, a->d, a->w, GSP_F32);
  free(a->s);
  free(a->d);
  free(a->w);
  return g;
}

/* The first n vertices a breadth-first search from vertex 0 of the road
 * graph reaches, and the arcs among them; NULL when the file is absent. */
static gsp_graph* road_subgraph(int32_t n) {
  static gsp_graph* ny = NULL;
  static int tried = 0;
  char path[1024];
  const char* dir = getenv("GSP_DATA_DIR");
  int32_t N, *targets, *queue, *id, head = 0, tail = 0, k;
  int64_t M, *offsets;
  float* weights;
  arc_list a = {0};
  if (!tried) {
    tried = 1;
    snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
    if (gsp_graph_load(&ny, path, GSP_FORMAT_AUTO, GSP_F32, 0) != GSP_OK) {
      printf("road subgraph: skipped (%s)\n", gsp_last_error());
      ny = NULL;
    }
  }
  if (ny == NULL) return NULL;
  N = gsp_graph_num_vertices(ny);
  M = gsp_graph_num_edges(ny);
  offsets = (int64_t*)malloc((size_t)(N + 1) * 8);
  targets = (int32_t*)malloc((size_t)M * 4);
  weights = (float*)malloc((size_t)M * 4);
  queue = (int32_t*)malloc((size_t)N * 4);
  id = (int32_t*)malloc((size_t)N * 4);
  if (!offsets || !targets || !weights || !queue || !id) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  gsp_graph_csr(ny, offsets, targets, weights);
  for (k = 0; k < N; k++) id[k] = -1;
  id[0] = 0;
  queue[tail++] = 0;
  while (head < tail && tail < n) {
    int32_t u = queue[head++];
    int64_t e;
    for (e = offsets[u]; e < offsets[u + 1] && tail < n; e++) {
      if (id[targets[e]] < 0) {
        id[targets[e]] = tail;
        queue[tail++] = targets[e];
      }
    }
  }
  for (k = 0; k < tail; k++) {
    int32_t u = queue[k];
    int64_t e;
    for (e = offsets[u]; e < offsets[u + 1]; e++) {
      if (id[targets[e]] >= 0) add_arc(&a, k, id[targets[e]], (int32_t)weights[e]);
    }
  }
  free(offsets);
  free(targets);
  free(weights);
  free(queue);
  free(id);
  return from_list(tail, &a);
}

static gsp_graph* make_family(const char* family, int32_t n) {
  arc_list a = {0};
  bench_rng r = {7u + (uint64_t)n};
  int32_t i, j;
  if (strcmp(family, "ring") == 0) {
    for (i = 0; i < n; i++) add_arc(&a, i, (i + 1) % n, 1 + bench_below(&r, 10));
    return from_list(n, &a);
  }
  if (strcmp(family, "grid") == 0) { /* side x side, arcs both ways between neighbours */
    int32_t side = 1;
    while ((side + 1) * (side + 1) <= n) side++;
    for (i = 0; i < side; i++) {
      for (j = 0; j < side; j++) {
        int32_t v = i * side + j;
        if (j + 1 < side) {
          add_arc(&a, v, v + 1, 1 + bench_below(&r, 100));
          add_arc(&a, v + 1, v, 1 + bench_below(&r, 100));
        }
        if (i + 1 < side) {
          add_arc(&a, v, v + side, 1 + bench_below(&r, 100));
          add_arc(&a, v + side, v, 1 + bench_below(&r, 100));
        }
      }
    }
    return from_list(side * side, &a);
  }
  if (strcmp(family, "random-6") == 0) return bench_random_graph(n, 6, 100, 11u + (uint64_t)n, GSP_F32);
  if (strcmp(family, "road") == 0) return road_subgraph(n);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if (i != j) add_arc(&a, i, j, 1 + bench_below(&r, 1000));
  return from_list(n, &a);
}

/* Median wall seconds of gsp_apsp_run (all rows, paths, CUDA); a run past
 * `limit` seconds is cancelled: returns -limit. NAN on another failure. */
static double time_all_pairs(const gsp_graph* g, gsp_algorithm algo, double limit) {
  gsp_options o;
  double t[3];
  int i, reps = 3;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  o.progress = bench_deadline_cb;
  for (i = -1; i < reps; i++) {
    gsp_paths* p = NULL;
    double t0 = bench_now(), dt;
    gsp_status s;
    bench_deadline_at = t0 + limit;
    s = gsp_apsp_run(g, NULL, 0, &o, &p);
    dt = bench_now() - t0;
    gsp_paths_destroy(p);
    if (s == GSP_ERR_CANCELLED) return -limit;
    if (s != GSP_OK) {
      printf("  %s: %s: %s\n", gsp_algorithm_name(algo), gsp_status_name(s), gsp_last_error());
      return NAN;
    }
    if (i >= 0) t[i] = dt;
    if (dt > 1.0 && i >= 0) {
      reps = i + 1;
      break;
    }
  }
  return bench_median(t, reps);
}

int main(int argc, char** argv) {
  const char* families[] = {"ring", "grid", "random-6", "road", "complete"};
  const int32_t sizes[] = {1000, 2048, 4096, 8192, 16384};
  char date[40], lines[64][256];
  const char* rpath;
  int fi, si, e, nl = 0, worst_line = -1;
  double worst = 0;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("bench_apsp_auto: no CUDA device (%s): skipped\n", gsp_last_error());
    return 0;
  }
  for (fi = 0; fi < 5; fi++) {
    if (argc > 1 && strcmp(argv[1], families[fi]) != 0) continue;
    for (si = 0; si < 5; si++) {
      int32_t n = sizes[si];
      gsp_graph* g;
      double t[NUM_ENGINES], best = INFINITY, auto_s;
      int best_e = -1;
      gsp_backend pb;
      gsp_algorithm pa;
      if (strcmp(families[fi], "complete") == 0 && n > 8192) continue;
      g = make_family(families[fi], n);
      if (g == NULL) continue;
      for (e = 0; e < NUM_ENGINES; e++) {
        double limit = isinf(best) ? 60.0 : (4 * best > 1.0 ? 4 * best : 1.0);
        t[e] = time_all_pairs(g, kEngines[e], limit);
        if (t[e] > 0 && t[e] < best) {
          best = t[e];
          best_e = e;
        }
      }
      if (gsp_run_plan(g, 0, 0, NULL, &pb, &pa) != GSP_OK) pa = GSP_ALGO_AUTO;
      auto_s = NAN;
      for (e = 0; e < NUM_ENGINES; e++)
        if (kEngines[e] == pa) auto_s = t[e];
      printf("%-9s n=%6d m=%9lld  FW %9.2f  task %9.2f  heap %9.2f ms  best %s  AUTO %s %.3fx\n", families[fi],
             gsp_graph_num_vertices(g), (long long)gsp_graph_num_edges(g), 1e3 * t[FW], 1e3 * t[TASK], 1e3 * t[HEAP],
             best_e >= 0 ? gsp_algorithm_name(kEngines[best_e]) : "-", gsp_algorithm_name(pa), auto_s / best);
      fflush(stdout);
      if (nl < 64) {
        char* l = lines[nl];
        int k = snprintf(l, 256, "| %s | %d | %lld |", families[fi], gsp_graph_num_vertices(g),
                         (long long)gsp_graph_num_edges(g));
        for (e = 0; e < NUM_ENGINES; e++) {
          if (isnan(t[e]))
            k += snprintf(l + k, 256 - k, " failed |");
          else if (t[e] < 0)
            k += snprintf(l + k, 256 - k, " > %.0f |", -1e3 * t[e]);
          else
            k += snprintf(l + k, 256 - k, " %.2f |", 1e3 * t[e]);
        }
        snprintf(l + k, 256 - k, " %s | %s | %.3f |", best_e >= 0 ? gsp_algorithm_name(kEngines[best_e]) : "-",
                 gsp_algorithm_name(pa), auto_s / best);
        if (auto_s > 0 && auto_s / best > worst) {
          worst = auto_s / best;
          worst_line = nl;
        }
        nl++;
      }
      gsp_graph_destroy(g);
    }
  }
  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    int i;
    if (f != NULL) {
      bench_today(date, sizeof date);
      fprintf(f, "\n## CUDA AUTO for all pairs (bench_apsp_auto), %s\n\n", date);
      fprintf(f,
              "Wall ms of gsp_apsp_run, every row, paths on, result in host memory, f32 weights; median of up to 3 "
              "after a warm-up; \"> t\": cancelled at 4x the best (at least 1 s). AUTO/best: the time of AUTO's "
              "choice over the best engine's.\n\n");
      fprintf(f,
              "| family | n | m | Floyd-Warshall | task-parallel | heap | best | AUTO picks | AUTO/best |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
      for (i = 0; i < nl; i++) fprintf(f, "%s\n", lines[i]);
      if (worst_line >= 0) fprintf(f, "\nWorst AUTO/best in this run: %.3f.\n", worst);
      fclose(f);
    }
  }
  return 0;
}
