/* Road-index rows on CUDA (index/ch_sweep.cu) against the CPU's
 * (ch_query.cpp) from the same index: every shape with weights >= 0 in every
 * weight type, gsp_sssp_run (paths on and off), gsp_apsp_run over more
 * sources than one pass holds (several passes), gsp_apsp_stream, and
 * gsp_table_run with GSP_BACKEND_CUDA. Distances must be equal byte for
 * byte and predecessors equal (both sweeps read the same labels in the same
 * order); table paths must run from the source to the target over arcs of
 * the graph and sum to the cell. The run info says CUDA and GSP_CH; AUTO
 * runs rows on the device once it has started. An int32 distance past
 * GSP_I32_INF is GSP_ERR_OVERFLOW on both. The DIMACS New York graph, when
 * $GSP_DATA_DIR has it: 64 rows and one row against the CPU. Skips (exit
 * 77) where no CUDA device is usable. GSP_TEST_SMALL=1 (compute-sanitizer
 * runs): four shapes, 150 sources (two passes), no New York. Everything
 * runs once per sweep on the device (GSP_CUDA_INDEX_SWEEP_PER_SM): the
 * cooperative sweep of 4 blocks a multiprocessor (the default), of 1 (a
 * large level takes several rounds of the grid's lanes), and a launch per
 * level below a one-block top (0); with GSP_TEST_SMALL, the first and the
 * last. */
#include "testing.h"
#include "tuning_hook.h"

static int g_small = 0;

static gsp_options index_opts(const gsp_index* ix, gsp_backend backend, int paths) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = backend;
  o.num_threads = 4;
  o.index = ix;
  if (!paths) o.flags |= GSP_NO_PATHS;
  return o;
}

static void check_info(const gsp_paths* p, gsp_backend want, const char* what) {
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_paths_info(p, &info));
  CHECK(info.backend == want && info.algorithm == GSP_CH, "%s: ran on backend %d algorithm %d", what, (int)info.backend,
        (int)info.algorithm);
}

/* Row `index` of a and b (n vertices): distances bytewise, predecessors equal. */
static void compare_rows(const gsp_paths* a, const gsp_paths* b, int32_t source, int32_t n, gsp_dtype dt, int paths,
                         const char* what) {
  const size_t wb = t_dist_bytes(dt);
  char* da = malloc((size_t)n * wb + 1);
  char* db = malloc((size_t)n * wb + 1);
  int32_t* pa = malloc((size_t)n * sizeof(int32_t) + 1);
  int32_t* pb = malloc((size_t)n * sizeof(int32_t) + 1);
  int32_t v;
  CHECK_OK(gsp_paths_distances(a, source, da, n));
  CHECK_OK(gsp_paths_distances(b, source, db, n));
  for (v = 0; v < n; v++) {
    if (memcmp(da + (size_t)v * wb, db + (size_t)v * wb, wb) != 0) {
      CHECK(0, "%s: source %d vertex %d: CUDA %.17g, CPU %.17g", what, (int)source, (int)v, t_dist_at(db, dt, v),
            t_dist_at(da, dt, v));
      break;
    }
  }
  if (paths) {
    CHECK_OK(gsp_paths_predecessors(a, source, pa, n));
    CHECK_OK(gsp_paths_predecessors(b, source, pb, n));
    for (v = 0; v < n; v++) {
      if (pa[v] != pb[v]) {
        CHECK(0, "%s: source %d vertex %d: CUDA predecessor %d, CPU %d", what, (int)source, (int)v, (int)pb[v],
              (int)pa[v]);
        break;
      }
    }
  }
  free(da);
  free(db);
  free(pa);
  free(pb);
}

/* A stream's rows, kept. */
typedef struct {
  char* dist;
  int32_t* pred;
  size_t row_bytes;
  int32_t n, rows;
} kept_rows;

static int keep_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  kept_rows* k = (kept_rows*)user;
  memcpy(k->dist + (size_t)first * k->row_bytes, d, (size_t)rows * k->row_bytes);
  if (p != NULL) memcpy(k->pred + (size_t)first * (size_t)k->n, p, (size_t)rows * (size_t)k->n * sizeof(int32_t));
  k->rows += rows;
  return 0;
}

static void stream_case(const gsp_graph* g, const gsp_index* ix, const gsp_paths* cpu, const int32_t* src, int32_t k,
                        int32_t n, gsp_dtype dt, const char* what) {
  gsp_options o = index_opts(ix, GSP_BACKEND_CUDA, 1);
  kept_rows kr;
  const size_t wb = t_dist_bytes(dt);
  char* want = malloc((size_t)n * wb + 1);
  int32_t* want_pred = malloc((size_t)n * sizeof(int32_t) + 1);
  int32_t i;
  kr.row_bytes = (size_t)n * wb;
  kr.n = n;
  kr.rows = 0;
  kr.dist = malloc((size_t)k * kr.row_bytes + 1);
  kr.pred = malloc((size_t)k * (size_t)n * sizeof(int32_t) + 1);
  CHECK_OK(gsp_apsp_stream(g, src, k, &o, keep_rows, &kr));
  CHECK(kr.rows == k, "%s: the stream gave %d rows of %d", what, (int)kr.rows, (int)k);
  for (i = 0; i < k && kr.rows == k; i++) {
    CHECK_OK(gsp_paths_distances(cpu, src[i], want, n));
    CHECK_OK(gsp_paths_predecessors(cpu, src[i], want_pred, n));
    CHECK(memcmp(want, kr.dist + (size_t)i * kr.row_bytes, kr.row_bytes) == 0, "%s: stream row %d differs", what,
          (int)i);
    CHECK(memcmp(want_pred, kr.pred + (size_t)i * (size_t)n, (size_t)n * sizeof(int32_t)) == 0,
          "%s: stream row %d's predecessors differ", what, (int)i);
  }
  free(want);
  free(want_pred);
  free(kr.dist);
  free(kr.pred);
}

/* The cheapest arc u -> v of `a` (T_INF_REF: none), through `first`
 * (n + 1 offsets into `order`, the arcs sorted by tail). */
typedef struct {
  int64_t* first;
  int64_t* order;
} arc_lookup;

static arc_lookup lookup_make(const t_arcs* a) {
  arc_lookup l;
  int64_t e, *at = calloc((size_t)a->n + 1, sizeof(int64_t));
  int32_t v;
  l.first = calloc((size_t)a->n + 1, sizeof(int64_t));
  l.order = malloc(sizeof(int64_t) * (size_t)(a->m + 1));
  for (e = 0; e < a->m; e++) l.first[a->src[e] + 1]++;
  for (v = 0; v < a->n; v++) l.first[v + 1] += l.first[v];
  for (v = 0; v < a->n; v++) at[v] = l.first[v];
  for (e = 0; e < a->m; e++) l.order[at[a->src[e]]++] = e;
  free(at);
  return l;
}

static int64_t arc_weight(const t_arcs* a, const arc_lookup* l, int32_t u, int32_t v) {
  int64_t best = T_INF_REF, k;
  for (k = l->first[u]; k < l->first[u + 1]; k++) {
    const int64_t e = l->order[k];
    if (a->dst[e] == v && a->w[e] < best) best = a->w[e];
  }
  return best;
}

static void table_case(const gsp_graph* g, const gsp_index* ix, const t_arcs* a, const int32_t* src, int32_t k,
                       const int32_t* tgt, int32_t t, gsp_dtype dt, const char* what) {
  gsp_options oc = index_opts(ix, GSP_BACKEND_CPU, 1), og = index_opts(ix, GSP_BACKEND_CUDA, 1);
  gsp_table *tc = NULL, *tg = NULL;
  gsp_run_info info;
  int32_t i, j;
  arc_lookup lookup = lookup_make(a);
  CHECK_OK(gsp_table_run(g, src, k, tgt, t, &oc, &tc));
  CHECK_OK(gsp_table_run(g, src, k, tgt, t, &og, &tg));
  if (tc == NULL || tg == NULL) goto done;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_table_info(tg, &info));
  CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == GSP_CH, "%s: table ran on %d / %d", what,
        (int)info.backend, (int)info.algorithm);
  for (i = 0; i < k; i++)
    for (j = 0; j < t; j++) {
      char dc[8], dg[8];
      int32_t path[4096], len = 0, q;
      int64_t sum = 0;
      CHECK_OK(gsp_table_distance(tc, i, j, dc));
      CHECK_OK(gsp_table_distance(tg, i, j, dg));
      if (memcmp(dc, dg, t_dist_bytes(dt)) != 0) {
        CHECK(0, "%s: cell (%d, %d): CUDA %.17g, CPU %.17g", what, (int)i, (int)j, t_dist_at(dg, dt, 0),
              t_dist_at(dc, dt, 0));
        continue;
      }
      if (isinf(t_dist_at(dg, dt, 0)) || (dt == GSP_I32 && *(int32_t*)dg == GSP_I32_INF)) {
        CHECK_STATUS(gsp_table_path(tg, i, j, path, 4096, &len), GSP_ERR_NO_PATH);
        continue;
      }
      if (gsp_table_path(tg, i, j, path, 4096, &len) != GSP_OK) {
        CHECK(0, "%s: cell (%d, %d): no path: %s", what, (int)i, (int)j, gsp_last_error());
        continue;
      }
      CHECK(len >= 1 && path[0] == src[i] && path[len - 1] == tgt[j], "%s: cell (%d, %d): path runs %d..%d", what,
            (int)i, (int)j, path[0], path[len - 1]);
      for (q = 0; q + 1 < len; q++) {
        const int64_t w = arc_weight(a, &lookup, path[q], path[q + 1]);
        if (w == T_INF_REF) {
          CHECK(0, "%s: cell (%d, %d): no arc %d -> %d", what, (int)i, (int)j, path[q], path[q + 1]);
          break;
        }
        sum += w;
      }
      CHECK((double)sum == t_dist_at(dg, dt, 0), "%s: cell (%d, %d): path weighs %lld, cell %.17g", what, (int)i,
            (int)j, (long long)sum, t_dist_at(dg, dt, 0));
    }
done:
  free(lookup.first);
  free(lookup.order);
  gsp_table_destroy(tc);
  gsp_table_destroy(tg);
}

static void shape_case(int shape, int32_t n_want, gsp_dtype dt) {
  t_arcs a;
  gsp_graph* g;
  gsp_index* ix = NULL;
  gsp_options build;
  char what[96];
  int32_t n, k, i, *src;
  int paths;
  t_make_shape(&a, shape, n_want, 11);
  if (shape == T_DAG_NEGATIVE) {
    t_arcs_free(&a);
    return;
  }
  snprintf(what, sizeof what, "%s n=%d %s", a.name, (int)a.n, t_dtype_name(dt));
  g = t_graph(&a, dt, 1.0f);
  n = a.n;
  gsp_options_init(&build);
  build.num_threads = 2;
  CHECK_OK(gsp_index_build(g, &build, &ix, NULL));
  if (ix == NULL) goto done;
  /* Rows: more sources than a pass holds (128), repeats included. */
  k = g_small ? 150 : 300;
  src = malloc(sizeof(int32_t) * (size_t)k);
  for (i = 0; i < k; i++) src[i] = (int32_t)((i * 7919) % n);
  for (paths = 0; paths <= 1; paths++) {
    gsp_options oc = index_opts(ix, GSP_BACKEND_CPU, paths), og = index_opts(ix, GSP_BACKEND_CUDA, paths);
    gsp_paths *pc = NULL, *pg = NULL;
    CHECK_OK(gsp_apsp_run(g, src, k, &oc, &pc));
    CHECK_OK(gsp_apsp_run(g, src, k, &og, &pg));
    if (pc != NULL && pg != NULL) {
      check_info(pg, GSP_BACKEND_CUDA, what);
      for (i = 0; i < k; i += 13) compare_rows(pc, pg, src[i], n, dt, paths, what);
      compare_rows(pc, pg, src[k - 1], n, dt, paths, what);
      if (paths) stream_case(g, ix, pc, src, k, n, dt, what);
    }
    gsp_paths_destroy(pc);
    gsp_paths_destroy(pg);
    for (i = 0; i < 3; i++) { /* one row */
      const int32_t s = (int32_t)((i * 104729) % n);
      CHECK_OK(gsp_sssp_run(g, s, &oc, &pc));
      CHECK_OK(gsp_sssp_run(g, s, &og, &pg));
      if (pc != NULL && pg != NULL) {
        check_info(pg, GSP_BACKEND_CUDA, what);
        compare_rows(pc, pg, s, n, dt, paths, what);
      }
      gsp_paths_destroy(pc);
      gsp_paths_destroy(pg);
    }
  }
  {
    int32_t tgt[40];
    const int32_t t = n < 40 ? n : 40;
    for (i = 0; i < t; i++) tgt[i] = (int32_t)((i * 31 + 3) % n);
    if (t > 2) tgt[1] = tgt[0]; /* a repeated target */
    table_case(g, ix, &a, src, 20, tgt, t, dt, what);
    table_case(g, ix, &a, src, 1, tgt, 1, dt, what);
  }
  free(src);
done:
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* AUTO, with the device started (this process has used it): rows run on CUDA. */
static void auto_case(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_index* ix = NULL;
  gsp_options o;
  gsp_paths* p = NULL;
  t_make_shape(&a, T_GRID, 4096, 5);
  g = t_graph(&a, GSP_I32, 1.0f);
  gsp_options_init(&o);
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  o = index_opts(ix, GSP_BACKEND_AUTO, 1);
  CHECK_OK(gsp_device_start(0));
  CHECK_OK(gsp_sssp_run(g, 0, &o, &p));
  if (p != NULL) check_info(p, GSP_BACKEND_CUDA, "auto grid");
  gsp_paths_destroy(p);
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* A path of heavy arcs whose far end is past int32: GSP_ERR_OVERFLOW on both backends. */
static void overflow_case(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_index* ix = NULL;
  gsp_options o;
  gsp_paths* p = NULL;
  int32_t i, s = 0;
  t_arcs_init(&a, "heavy-chain", 8);
  for (i = 0; i + 1 < 8; i++) t_arc(&a, i, i + 1, 1000000000);
  g = t_graph(&a, GSP_I32, 1.0f);
  gsp_options_init(&o);
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  o = index_opts(ix, GSP_BACKEND_CUDA, 1);
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  p = NULL;
  CHECK_STATUS(gsp_apsp_run(g, &s, 1, &o, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  o = index_opts(ix, GSP_BACKEND_CPU, 1);
  p = NULL;
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_OVERFLOW);
  gsp_paths_destroy(p);
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

static void new_york(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char path[1024];
  gsp_graph* g = NULL;
  gsp_index* ix = NULL;
  gsp_options o;
  int32_t src[64], i, n;
  int paths;
  snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir != NULL ? dir : "../shared/data");
  if (gsp_graph_load(&g, path, GSP_FORMAT_AUTO, GSP_I32, 0) != GSP_OK) {
    printf("SKIP part: %s not found (set GSP_DATA_DIR)\n", path);
    return;
  }
  n = gsp_graph_num_vertices(g);
  gsp_options_init(&o);
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  for (i = 0; i < 64; i++) src[i] = (int32_t)(((int64_t)i * 4099) % n);
  for (paths = 0; paths <= 1 && ix != NULL; paths++) {
    gsp_options oc = index_opts(ix, GSP_BACKEND_CPU, paths), og = index_opts(ix, GSP_BACKEND_CUDA, paths);
    gsp_paths *pc = NULL, *pg = NULL;
    oc.num_threads = 0;
    CHECK_OK(gsp_apsp_run(g, src, 64, &oc, &pc));
    CHECK_OK(gsp_apsp_run(g, src, 64, &og, &pg));
    if (pc != NULL && pg != NULL)
      for (i = 0; i < 64; i += 7) compare_rows(pc, pg, src[i], n, GSP_I32, paths, "NY rows");
    gsp_paths_destroy(pc);
    gsp_paths_destroy(pg);
    pc = pg = NULL;
    CHECK_OK(gsp_sssp_run(g, src[5], &oc, &pc));
    CHECK_OK(gsp_sssp_run(g, src[5], &og, &pg));
    if (pc != NULL && pg != NULL) compare_rows(pc, pg, src[5], n, GSP_I32, paths, "NY row");
    gsp_paths_destroy(pc);
    gsp_paths_destroy(pg);
  }
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
}

int main(void) {
  static const char* const sweeps[3] = {NULL, "1", "0"};
  int shape, d, sweep;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no usable CUDA device (%s)\n", gsp_last_error());
    return T_SKIP;
  }
  g_small = getenv("GSP_TEST_SMALL") != NULL && atoi(getenv("GSP_TEST_SMALL")) != 0;
  for (sweep = 0; sweep < 3; sweep++) {
    if (g_small && sweep == 1) continue;
    t_tuning("GSP_CUDA_INDEX_SWEEP_PER_SM", sweeps[sweep]);
    printf("sweep: GSP_CUDA_INDEX_SWEEP_PER_SM=%s\n", sweeps[sweep] != NULL ? sweeps[sweep] : "(default)");
    for (shape = 0; shape < T_NUM_SHAPES; shape++) {
      if (g_small && shape != T_GRID && shape != T_ZERO_WEIGHTS && shape != T_ISOLATED && shape != T_SINGLE) continue;
      const int32_t n = shape == T_COMPLETE || shape == T_RANDOM_DENSE ? 80 : g_small ? 300 : 600;
      for (d = 0; d < T_NUM_DTYPES; d++) shape_case(shape, n, t_dtypes[d]);
    }
    if (!g_small) {
      shape_case(T_GRID, 20000, GSP_I32);
      shape_case(T_GRID, 20000, GSP_F64);
    }
    auto_case();
    overflow_case();
    if (!g_small) new_york();
  }
  t_tuning("GSP_CUDA_INDEX_SWEEP_PER_SM", NULL);
  return t_finish("test_gpu_index");
}
