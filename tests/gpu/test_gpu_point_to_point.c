/* Point-to-point queries on CUDA (gsp_table_run with one source, the
 * algorithm left to AUTO): the single-source engine answers, and with one
 * distinct target delta-stepping stops once that target is final, the rest
 * of its row cut (SsspJob::stop_at). Against the CPU's answers on grids in
 * every weight type: near, middle and far targets, a target list that
 * repeats one vertex, the source itself, an unreachable target; the early
 * exit must happen (fewer relaxations than the whole search for a near
 * target), and an overflow beyond the target that the CPU's early exit does
 * not see is not the query's (int32 and float chains whose far end
 * overflows: the whole search says GSP_ERR_OVERFLOW, the query answers).
 * Skips (exit 77) where no CUDA device is usable. */
#include "testing.h"

static gsp_table* run_table(const gsp_graph* g, int32_t s, const int32_t* t, int32_t tn, gsp_backend backend,
                            gsp_status* status) {
  gsp_options o;
  gsp_table* tab = NULL;
  gsp_options_init(&o);
  o.backend = backend;
  *status = gsp_table_run(g, &s, 1, t, tn, &o, &tab);
  return tab;
}

static int64_t relaxations_of(const gsp_table* tab) {
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  if (gsp_table_info(tab, &info) != GSP_OK) return -1;
  return info.relaxations;
}

/* The CUDA table against the CPU one: every cell bytewise, each path from
 * s to its target with the cell's length (weights from the arc list). */
static void compare(const gsp_graph* g, const t_arcs* a, gsp_dtype dt, double scale, int32_t s, const int32_t* t,
                    int32_t tn, const char* what, int64_t* relax) {
  gsp_status sc, sg;
  gsp_table* cpu = run_table(g, s, t, tn, GSP_BACKEND_CPU, &sc);
  gsp_table* gpu = run_table(g, s, t, tn, GSP_BACKEND_CUDA, &sg);
  const size_t wb = t_dist_bytes(dt);
  int32_t j;
  CHECK(sc == GSP_OK && sg == GSP_OK, "%s: CPU %s, CUDA %s: %s", what, gsp_status_name(sc), gsp_status_name(sg),
        gsp_last_error());
  if (sc == GSP_OK && sg == GSP_OK) {
    for (j = 0; j < tn; j++) {
      char dc[8], dg[8];
      int32_t path[4096], len = 0, k;
      double sum = 0;
      CHECK_OK(gsp_table_distance(cpu, 0, j, dc));
      CHECK_OK(gsp_table_distance(gpu, 0, j, dg));
      CHECK(memcmp(dc, dg, wb) == 0, "%s: cell %d: CUDA %.17g, CPU %.17g", what, (int)j, t_dist_at(dg, dt, 0),
            t_dist_at(dc, dt, 0));
      if (isinf(t_dist_at(dc, dt, 0))) continue;
      CHECK_OK(gsp_table_path(gpu, 0, j, path, 4096, &len));
      CHECK(len >= 1 && path[0] == s && path[len - 1] == t[j], "%s: path %d runs %d..%d", what, (int)j,
            len > 0 ? path[0] : -1, len > 0 ? path[len - 1] : -1);
      for (k = 0; k + 1 < len; k++) { /* the lightest arc path[k] -> path[k + 1] */
        double best = HUGE_VAL;
        int64_t e;
        for (e = 0; e < a->m; e++) {
          if (a->src[e] == path[k] && a->dst[e] == path[k + 1] && a->w[e] < best) best = a->w[e];
        }
        sum += best * scale;
      }
      CHECK(fabs(sum - t_dist_at(dg, dt, 0)) <= 1e-6 * sum, "%s: path %d weighs %.17g, the cell says %.17g", what,
            (int)j, sum, t_dist_at(dg, dt, 0));
    }
    *relax = relaxations_of(gpu);
  }
  gsp_table_destroy(cpu);
  gsp_table_destroy(gpu);
}

static void grid_cases(gsp_dtype dt) {
  enum { SIDE = 200 };
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* full = NULL;
  gsp_run_info info;
  int32_t i, j;
  int64_t near_relax = -1, far_relax = -1, dummy = 0;
  t_rng r = {5};
  char what[96];
  const int32_t s = (SIDE / 2) * SIDE + SIDE / 2; /* the middle */
  t_arcs_init(&a, "grid", SIDE * SIDE + 1);       /* + one vertex nothing reaches */
  for (i = 0; i < SIDE; i++) {
    for (j = 0; j < SIDE; j++) {
      const int32_t v = i * SIDE + j;
      if (j + 1 < SIDE) {
        t_arc(&a, v, v + 1, 1 + t_below(&r, 40));
        t_arc(&a, v + 1, v, 1 + t_below(&r, 40));
      }
      if (i + 1 < SIDE) {
        t_arc(&a, v, v + SIDE, 1 + t_below(&r, 40));
        t_arc(&a, v + SIDE, v, 1 + t_below(&r, 40));
      }
    }
  }
  g = t_graph(&a, dt, 1.0f);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  CHECK_OK(gsp_sssp_run(g, s, &o, &full));
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_paths_info(full, &info));
  gsp_paths_destroy(full);
  {
    const int32_t near_t = s + 2, mid = s + SIDE * (SIDE / 4), far_t = 0, self = s, none = SIDE * SIDE;
    const int32_t repeated[3] = {mid, mid, mid}, several[3] = {near_t, mid, far_t};
    snprintf(what, sizeof what, "grid %s, near target", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, &near_t, 1, what, &near_relax);
    snprintf(what, sizeof what, "grid %s, middle target", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, &mid, 1, what, &dummy);
    snprintf(what, sizeof what, "grid %s, far target", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, &far_t, 1, what, &far_relax);
    snprintf(what, sizeof what, "grid %s, the source itself", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, &self, 1, what, &dummy);
    snprintf(what, sizeof what, "grid %s, unreachable target", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, &none, 1, what, &dummy);
    snprintf(what, sizeof what, "grid %s, one target three times", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, repeated, 3, what, &dummy);
    snprintf(what, sizeof what, "grid %s, three targets", t_dtype_name(dt));
    compare(g, &a, dt, 1.0, s, several, 3, what, &dummy);
  }
  CHECK(near_relax >= 0 && near_relax < info.relaxations / 2,
        "grid %s: a near target's query relaxed %lld arcs, the whole search %lld: no early exit", t_dtype_name(dt),
        (long long)near_relax, (long long)info.relaxations);
  printf("grid %s: relaxations near / far / whole search: %lld / %lld / %lld\n", t_dtype_name(dt),
         (long long)near_relax, (long long)far_relax, (long long)info.relaxations);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* A chain whose far end overflows the weight type: the whole search reports
 * GSP_ERR_OVERFLOW, a query to a near vertex answers on both backends. */
static void overflow_beyond_target(gsp_dtype dt) {
  enum { N = 200 };
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* p = NULL;
  int32_t v;
  int64_t dummy = 0;
  const int32_t target = 5;
  char what[64];
  t_arcs_init(&a, "chain", N);
  for (v = 0; v + 1 < N; v++) t_arc(&a, v, v + 1, 100000000); /* 1e8: int32 overflows at 22 hops */
  g = t_graph(&a, dt, dt == GSP_F32 ? 1e30f : 1.0f);          /* float: 1e38 a hop, FLT_MAX at 4 */
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  snprintf(what, sizeof what, "chain %s overflowing beyond the target", t_dtype_name(dt));
  if (dt == GSP_F32) { /* float reaches FLT_MAX within 4 hops: ask for vertex 2 */
    const int32_t t2 = 2;
    compare(g, &a, dt, 1e30, 0, &t2, 1, what, &dummy);
  } else {
    compare(g, &a, dt, 1.0, 0, &target, 1, what, &dummy);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  int d;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no usable CUDA device (%s)\n", gsp_last_error());
    return T_SKIP;
  }
  for (d = 0; d < T_NUM_DTYPES; d++) grid_cases(t_dtypes[d]);
  overflow_beyond_target(GSP_I32);
  overflow_beyond_target(GSP_F32);
  return t_finish("test_gpu_point_to_point");
}
