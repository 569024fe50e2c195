/* GSP_APSP_DELTA_STEPPING ("batched-delta-stepping") on the CPU: one
 * delta-stepping search per source, the sources spread over the threads.
 * On generated graphs (zero weights, parallel arcs and loops, unreachable
 * parts, a single vertex, no arcs), int32 and float, several thread counts
 * and bucket widths, every row equals GSP_APSP_HEAP's and every path is
 * checked arc by arc against it; repeated sources give their rows in
 * gsp_apsp_run, gsp_apsp_run_into and gsp_apsp_stream; the run and the plan
 * name the algorithm; negative weights are GSP_ERR_NEGATIVE_WEIGHT with a
 * message. Also: gsp_algorithm_name() and gsp_algorithm_from_name() agree
 * with GSP_ALGORITHM_LIST for every id. */
#include "testing.h"

/* The cheapest arc u -> v of a graph (T_INF_REF: none), n x n. */
static int64_t* cheapest_arcs(const t_arcs* a) {
  const size_t nn = (size_t)a->n * (size_t)a->n;
  int64_t* c = (int64_t*)malloc(nn * sizeof(int64_t));
  size_t i;
  int64_t k;
  for (i = 0; i < nn; i++) c[i] = T_INF_REF;
  for (k = 0; k < a->m; k++) {
    int64_t* x = &c[(size_t)a->src[k] * (size_t)a->n + (size_t)a->dst[k]];
    if (a->w[k] < *x) *x = a->w[k];
  }
  return c;
}

/* Row `row` of distances (int32, or float / double with integer values) as int64. */
static int64_t value_at(const void* row, gsp_dtype dt, int32_t v) {
  const double x = t_dist_at(row, dt, v);
  return isinf(x) ? T_INF_REF : (int64_t)x;
}

/* A path given as vertices: from s to v, each hop an arc, its cheapest
 * weights summing to want. Returns 0 when so. */
static int check_vertices(const t_arcs* a, const int64_t* cheapest, const int32_t* verts, int32_t len, int32_t s,
                          int32_t v, int64_t want, const char* what) {
  int64_t total = 0;
  int32_t i;
  if (len < 1 || verts[0] != s || verts[len - 1] != v) {
    fprintf(stderr, "%s: path %d->%d has %d vertices, ends %d..%d\n", what, s, v, len, len ? verts[0] : -1,
            len ? verts[len - 1] : -1);
    return 1;
  }
  for (i = 0; i + 1 < len; i++) {
    const int64_t w = cheapest[(size_t)verts[i] * (size_t)a->n + (size_t)verts[i + 1]];
    if (w == T_INF_REF) {
      fprintf(stderr, "%s: path %d->%d uses %d->%d, which is no arc\n", what, s, v, verts[i], verts[i + 1]);
      return 1;
    }
    total += w;
  }
  if (total != want) {
    fprintf(stderr, "%s: path %d->%d sums to %lld, heap's distance is %lld\n", what, s, v, (long long)total,
            (long long)want);
    return 1;
  }
  return 0;
}

/* The path s -> v from a predecessor row, walked back (n + 1 vertices at
 * most); its length, or -1 when the walk does not reach s. */
static int32_t walk_back(const int32_t* pred, int32_t n, int32_t s, int32_t v, int32_t* verts) {
  int32_t len = 0, i, u = v;
  while (len <= n) {
    verts[len++] = u;
    if (u == s) break;
    u = pred[u];
    if (u < 0 || u >= n) return -1;
  }
  if (verts[len - 1] != s) return -1;
  for (i = 0; i < len / 2; i++) {
    const int32_t t = verts[i];
    verts[i] = verts[len - 1 - i];
    verts[len - 1 - i] = t;
  }
  return len;
}

static void options(gsp_options* o, gsp_algorithm algo, int32_t threads, double delta, uint32_t flags) {
  gsp_options_init(o);
  o->backend = GSP_BACKEND_CPU;
  o->algorithm = algo;
  o->num_threads = threads;
  o->delta = delta;
  o->flags = flags;
}

/* One row from `p` against the heap's row `ref` (same source): equal
 * distances, and each reachable vertex's path through gsp_path_get. */
static void check_row(const gsp_paths* p, const gsp_paths* heap, const t_arcs* a, const int64_t* cheapest, gsp_dtype dt,
                      int32_t s, int paths, const char* what) {
  void* got = malloc((size_t)a->n * t_dist_bytes(dt));
  void* want = malloc((size_t)a->n * t_dist_bytes(dt));
  int32_t* verts = (int32_t*)malloc(((size_t)a->n + 1) * sizeof(int32_t));
  int32_t v, bad = 0;
  CHECK_OK(gsp_paths_distances(p, s, got, a->n));
  CHECK_OK(gsp_paths_distances(heap, s, want, a->n));
  for (v = 0; v < a->n; v++) {
    const int64_t d = value_at(got, dt, v), ref = value_at(want, dt, v);
    int32_t len = 0;
    gsp_status st;
    if (d != ref && bad++ < 5) CHECK(0, "%s: d(%d, %d) = %lld, heap %lld", what, s, v, (long long)d, (long long)ref);
    if (!paths) continue;
    st = gsp_path_get(p, s, v, verts, a->n + 1, &len);
    if (ref == T_INF_REF) {
      CHECK(st == GSP_ERR_NO_PATH, "%s: path %d->%d of an unreachable vertex: %s", what, s, v, gsp_status_name(st));
    } else {
      CHECK(st == GSP_OK, "%s: path %d->%d: %s %s", what, s, v, gsp_status_name(st), gsp_last_error());
      if (st == GSP_OK) CHECK(check_vertices(a, cheapest, verts, len, s, v, ref, what) == 0, "%s: path", what);
    }
  }
  free(got);
  free(want);
  free(verts);
}

/* Every row and every path of all-pairs and of a source list against
 * GSP_APSP_HEAP, at several thread counts and bucket widths. */
static void test_against_heap(int shape, int32_t size, gsp_dtype dt) {
  static const int32_t threads[] = {1, 3};
  static const double deltas[] = {0, 1, 7};
  t_arcs a;
  gsp_graph* g;
  gsp_paths* heap = NULL;
  gsp_options o;
  int64_t* cheapest;
  size_t ti, di;
  char what[160];
  t_make_shape(&a, shape, size, 11u + (uint64_t)size);
  g = t_graph(&a, dt, 1.0f);
  cheapest = cheapest_arcs(&a);
  options(&o, GSP_APSP_HEAP, 2, 0, 0);
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &heap));
  for (ti = 0; ti < sizeof threads / sizeof threads[0] && heap != NULL; ti++) {
    for (di = 0; di < sizeof deltas / sizeof deltas[0]; di++) {
      gsp_paths* p = NULL;
      gsp_run_info info;
      int32_t s;
      snprintf(what, sizeof what, "%s n=%d %s, %d threads, delta %g", a.name, a.n, t_dtype_name(dt), threads[ti],
               deltas[di]);
      t_trace(what);
      options(&o, GSP_APSP_DELTA_STEPPING, threads[ti], deltas[di], 0);
      CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
      if (p == NULL) continue;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      CHECK_OK(gsp_paths_info(p, &info));
      CHECK(info.algorithm == GSP_APSP_DELTA_STEPPING && info.backend == GSP_BACKEND_CPU && info.device == -1 &&
                info.num_sources == a.n && info.has_paths == 1,
            "%s: ran %s on %s, %d rows, paths %u", what, gsp_algorithm_name(info.algorithm),
            gsp_backend_name(info.backend), info.num_sources, info.has_paths);
      for (s = 0; s < a.n; s++) check_row(p, heap, &a, cheapest, dt, s, 1, what);
      gsp_paths_destroy(p);
    }
  }
  /* distances only */
  if (heap != NULL) {
    gsp_paths* p = NULL;
    const int32_t srcs[2] = {a.n - 1, 0};
    int32_t len = 0;
    snprintf(what, sizeof what, "%s n=%d %s, no paths", a.name, a.n, t_dtype_name(dt));
    options(&o, GSP_APSP_DELTA_STEPPING, 2, 0, GSP_NO_PATHS);
    CHECK_OK(gsp_apsp_run(g, srcs, 2, &o, &p));
    if (p != NULL) {
      check_row(p, heap, &a, cheapest, dt, srcs[0], 0, what);
      check_row(p, heap, &a, cheapest, dt, srcs[1], 0, what);
      CHECK_STATUS(gsp_path_get(p, srcs[1], srcs[0], NULL, 0, &len), GSP_ERR_UNSUPPORTED);
    }
    gsp_paths_destroy(p);
  }
  gsp_paths_destroy(heap);
  free(cheapest);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* Rows delivered by gsp_apsp_stream, kept for the check. */
typedef struct {
  int32_t n, rows;
  size_t value_bytes;
  unsigned char* dist;
  int32_t* pred;
  int32_t delivered;
} stream_rows;

static int keep_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  stream_rows* k = (stream_rows*)user;
  const size_t n = (size_t)k->n;
  if (first != k->delivered || first + rows > k->rows) return 1;
  memcpy(k->dist + (size_t)first * n * k->value_bytes, d, (size_t)rows * n * k->value_bytes);
  if (p != NULL) memcpy(k->pred + (size_t)first * n, p, (size_t)rows * n * sizeof(int32_t));
  k->delivered += rows;
  return 0;
}

/* Rows i of dist/pred (ns rows of n) against the heap's row of srcs[i]. */
static void check_arrays(const void* dist, const int32_t* pred, const int32_t* srcs, int32_t ns, const t_arcs* a,
                         const int64_t* cheapest, gsp_dtype dt, const gsp_paths* heap, const char* what) {
  void* want = malloc((size_t)a->n * t_dist_bytes(dt));
  int32_t* verts = (int32_t*)malloc(((size_t)a->n + 1) * sizeof(int32_t));
  int32_t i, v;
  for (i = 0; i < ns; i++) {
    const unsigned char* row = (const unsigned char*)dist + (size_t)i * (size_t)a->n * t_dist_bytes(dt);
    const int32_t* prow = pred + (size_t)i * (size_t)a->n;
    const int32_t s = srcs[i];
    int bad = 0;
    CHECK_OK(gsp_paths_distances(heap, s, want, a->n));
    for (v = 0; v < a->n; v++) {
      const int64_t d = value_at(row, dt, v), ref = value_at(want, dt, v);
      if (d != ref && bad++ < 5)
        CHECK(0, "%s: row %d: d(%d, %d) = %lld, heap %lld", what, i, s, v, (long long)d, (long long)ref);
      if (v == s || ref == T_INF_REF) {
        CHECK(prow[v] == -1, "%s: row %d: pred[%d] = %d, want -1", what, i, v, prow[v]);
      } else {
        const int32_t len = walk_back(prow, a->n, s, v, verts);
        CHECK(len > 0, "%s: row %d: predecessors of %d do not lead back to %d", what, i, v, s);
        if (len > 0) CHECK(check_vertices(a, cheapest, verts, len, s, v, ref, what) == 0, "%s: row %d", what, i);
      }
    }
  }
  free(want);
  free(verts);
}

/* Repeated sources: each occurrence is a row, in every way of getting rows. */
static void test_repeated_sources(gsp_dtype dt) {
  static const int32_t srcs[] = {5, 0, 5, 17, 0, 5, 42, 17};
  const int32_t ns = (int32_t)(sizeof srcs / sizeof srcs[0]);
  t_arcs a;
  gsp_graph* g;
  gsp_paths *heap = NULL, *p = NULL;
  gsp_options o;
  int64_t* cheapest;
  void* dist;
  int32_t* pred;
  gsp_run_info info;
  stream_rows k;
  char what[64];
  int32_t i;
  snprintf(what, sizeof what, "repeated sources, %s", t_dtype_name(dt));
  t_make_shape(&a, T_ZERO_WEIGHTS, 90, 5);
  g = t_graph(&a, dt, 1.0f);
  cheapest = cheapest_arcs(&a);
  dist = malloc((size_t)ns * (size_t)a.n * t_dist_bytes(dt));
  pred = (int32_t*)malloc((size_t)ns * (size_t)a.n * sizeof(int32_t));
  options(&o, GSP_APSP_HEAP, 1, 0, 0);
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &heap));
  options(&o, GSP_APSP_DELTA_STEPPING, 3, 0, 0);
  /* gsp_apsp_run: one row per entry, in order */
  CHECK_OK(gsp_apsp_run(g, srcs, ns, &o, &p));
  if (p != NULL && heap != NULL) {
    CHECK(gsp_paths_num_sources(p) == ns, "%s: %d rows", what, gsp_paths_num_sources(p));
    for (i = 0; i < ns; i++) {
      CHECK(gsp_paths_source(p, i) == srcs[i], "%s: row %d is source %d", what, i, gsp_paths_source(p, i));
      check_row(p, heap, &a, cheapest, dt, srcs[i], 1, what);
    }
  }
  gsp_paths_destroy(p);
  /* gsp_apsp_run_into */
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_apsp_run_into(g, srcs, ns, &o, dist, pred, &info));
  CHECK(info.algorithm == GSP_APSP_DELTA_STEPPING && info.num_sources == ns, "%s: run_into ran %s, %d rows", what,
        gsp_algorithm_name(info.algorithm), info.num_sources);
  if (heap != NULL) check_arrays(dist, pred, srcs, ns, &a, cheapest, dt, heap, what);
  /* gsp_apsp_stream */
  memset(dist, 0xff, (size_t)ns * (size_t)a.n * t_dist_bytes(dt));
  memset(pred, 0xff, (size_t)ns * (size_t)a.n * sizeof(int32_t));
  k.n = a.n;
  k.rows = ns;
  k.value_bytes = t_dist_bytes(dt);
  k.dist = (unsigned char*)dist;
  k.pred = pred;
  k.delivered = 0;
  CHECK_OK(gsp_apsp_stream(g, srcs, ns, &o, keep_rows, &k));
  CHECK(k.delivered == ns, "%s: stream delivered %d rows", what, k.delivered);
  if (heap != NULL && k.delivered == ns) check_arrays(dist, pred, srcs, ns, &a, cheapest, dt, heap, what);
  gsp_paths_destroy(heap);
  free(dist);
  free(pred);
  free(cheapest);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* The plan and the kind: all-pairs only, on the CPU, named in run_info. */
static void test_plan(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_backend backend = GSP_BACKEND_AUTO;
  gsp_algorithm algo = GSP_ALGO_AUTO;
  gsp_paths* p = NULL;
  t_make_shape(&a, T_GRID, 25, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  options(&o, GSP_APSP_DELTA_STEPPING, 2, 0, 0);
  CHECK_OK(gsp_run_plan(g, 0, 0, &o, &backend, &algo));
  CHECK(backend == GSP_BACKEND_CPU && algo == GSP_APSP_DELTA_STEPPING, "plan: %s on %s", gsp_algorithm_name(algo),
        gsp_backend_name(backend));
  CHECK_STATUS(gsp_run_plan(g, 1, 1, &o, &backend, &algo), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_sssp_run(g, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "batched-delta-stepping") != NULL && strstr(gsp_last_error(), "APSP") != NULL,
        "an all-pairs algorithm for gsp_sssp_run: %s", gsp_last_error());
  CHECK(p == NULL, "no result on failure");
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* Negative weights: refused before anything runs, naming the algorithm. */
static void test_negative_weights(gsp_dtype dt) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_backend backend;
  gsp_algorithm algo;
  int32_t src = 0;
  void* dist;
  stream_rows k;
  t_make_shape(&a, T_DAG_NEGATIVE, 60, 9);
  CHECK(a.negative, "the graph has negative arcs");
  g = t_graph(&a, dt, 1.0f);
  dist = malloc((size_t)a.n * t_dist_bytes(dt));
  memset(&k, 0, sizeof k);
  options(&o, GSP_APSP_DELTA_STEPPING, 2, 0, 0);
  CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_NEGATIVE_WEIGHT);
  CHECK(strstr(gsp_last_error(), "batched-delta-stepping") != NULL && strstr(gsp_last_error(), "non-negative") != NULL,
        "the message names the algorithm and the rule: %s", gsp_last_error());
  CHECK(p == NULL, "no result on failure");
  CHECK_STATUS(gsp_run_plan(g, 0, 0, &o, &backend, &algo), GSP_ERR_NEGATIVE_WEIGHT);
  CHECK_STATUS(gsp_apsp_run_into(g, &src, 1, &o, dist, NULL, NULL), GSP_ERR_NEGATIVE_WEIGHT);
  CHECK_STATUS(gsp_apsp_stream(g, NULL, 0, &o, keep_rows, &k), GSP_ERR_NEGATIVE_WEIGHT);
  CHECK(gsp_last_error()[0] != '\0', "a message");
  free(dist);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* Every entry of GSP_ALGORITHM_LIST: its name both ways; nothing beyond. */
typedef struct {
  gsp_algorithm id;
  int value;
  const char* name;
} listed_algorithm;
#define LISTED_(id, value, cli_name, summary) {id, value, cli_name},
static const listed_algorithm k_listed[] = {GSP_ALGORITHM_LIST(LISTED_)};
#undef LISTED_

static void test_names(void) {
  const int count = (int)(sizeof k_listed / sizeof k_listed[0]);
  gsp_algorithm a;
  int i;
  CHECK(GSP_APSP_DELTA_STEPPING == 15, "GSP_APSP_DELTA_STEPPING = %d", (int)GSP_APSP_DELTA_STEPPING);
  CHECK(strcmp(gsp_algorithm_name(GSP_APSP_DELTA_STEPPING), "batched-delta-stepping") == 0, "name %s",
        gsp_algorithm_name(GSP_APSP_DELTA_STEPPING));
  CHECK(GSP_APSP_SPMM == 16, "GSP_APSP_SPMM = %d", (int)GSP_APSP_SPMM);
  CHECK(strcmp(gsp_algorithm_name(GSP_APSP_SPMM), "spmm") == 0, "name %s", gsp_algorithm_name(GSP_APSP_SPMM));
  for (i = 0; i < count; i++) {
    const char* name = gsp_algorithm_name(k_listed[i].id);
    CHECK((int)k_listed[i].id == k_listed[i].value && k_listed[i].value == i, "entry %d has value %d", i,
          k_listed[i].value);
    CHECK(strcmp(name, k_listed[i].name) == 0, "gsp_algorithm_name(%d) = %s, want %s", i, name, k_listed[i].name);
    a = (gsp_algorithm)-1;
    CHECK_OK(gsp_algorithm_from_name(k_listed[i].name, &a));
    CHECK(a == k_listed[i].id, "gsp_algorithm_from_name(%s) = %d, want %d", k_listed[i].name, (int)a, i);
  }
  CHECK(strcmp(gsp_algorithm_name((gsp_algorithm)count), "unknown") == 0, "id %d past the list: %s", count,
        gsp_algorithm_name((gsp_algorithm)count));
  CHECK(strcmp(gsp_algorithm_name((gsp_algorithm)-1), "unknown") == 0, "id -1");
  CHECK_STATUS(gsp_algorithm_from_name("batched-delta", &a), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "batched-delta-stepping") != NULL, "the known names are listed: %s", gsp_last_error());
}

int main(void) {
  static const int shapes[] = {T_RANDOM_SPARSE,  T_POWER_LAW, T_RING,     T_GRID,   T_ZERO_WEIGHTS,
                               T_LOOPS_PARALLEL, T_ISOLATED,  T_COMPLETE, T_SINGLE, T_NO_ARCS};
  static const int32_t sizes[] = {40, 150};
  size_t si, ni, di;
  test_names();
  test_plan();
  for (di = 0; di < T_NUM_DTYPES; di++) {
    for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
      for (ni = 0; ni < sizeof sizes / sizeof sizes[0]; ni++) {
        if (ni > 0 && (shapes[si] == T_SINGLE || shapes[si] == T_COMPLETE)) continue; /* fixed sizes */
        test_against_heap(shapes[si], sizes[ni], t_dtypes[di]);
      }
    }
    test_repeated_sources(t_dtypes[di]);
    test_negative_weights(t_dtypes[di]);
  }
  return t_finish("test_cpu_apsp_batched");
}
