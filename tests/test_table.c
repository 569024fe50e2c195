/* Many-to-many tables (gsp_table_*): every cell's distance equals
 * gsp_apsp_run's for the same sources, and every cell's path is a path of
 * the graph arc by arc (first = source, last = target, cheapest parallel
 * arcs summing to the distance), on every test shape, both weight types,
 * negative arcs (Johnson), lists with repeats and overlaps, all vertices
 * as sources, 1, 2 and all threads, with and without paths;
 * gsp_table_run_into equals gsp_table_distances; info fields; progress
 * and cancellation; overflow; bad arguments get a status and a message
 * naming the argument. Where CUDA is usable, the shapes run on it too
 * (gsp_apsp_run on CUDA as the reference), and AUTO's point-to-point bet
 * (near target: CPU; far target: the CPU gives up for the device).
 * Point-to-point tables (one target: the CPU's bidirectional search) on
 * every weight type against the CPU Dijkstra, paths arc by arc, zero
 * weights, loops, unreachable targets, s = t, overflow, more sources per
 * thread than stamps, NY when GSP_DATA_DIR has it. The settle budget,
 * which only AUTO's device bet sets, is tested in
 * tests/internal/test_point_to_point.cpp. */
#include "testing.h"

/* The arcs by tail, for path checks (cheapest parallel arc per hop). */
typedef struct {
  int32_t n;
  int64_t* off;
  int32_t* dst;
  int32_t* w;
} adj;

static adj adj_make(const t_arcs* a) {
  adj g;
  int64_t k;
  int32_t v;
  int64_t* at = (int64_t*)calloc((size_t)a->n + 1, sizeof(int64_t));
  g.n = a->n;
  g.off = (int64_t*)calloc((size_t)a->n + 1, sizeof(int64_t));
  g.dst = (int32_t*)malloc((size_t)(a->m ? a->m : 1) * sizeof(int32_t));
  g.w = (int32_t*)malloc((size_t)(a->m ? a->m : 1) * sizeof(int32_t));
  for (k = 0; k < a->m; k++) g.off[a->src[k] + 1]++;
  for (v = 0; v < a->n; v++) g.off[v + 1] += g.off[v];
  for (v = 0; v <= a->n; v++) at[v] = g.off[v];
  for (k = 0; k < a->m; k++) {
    int64_t p = at[a->src[k]]++;
    g.dst[p] = a->dst[k];
    g.w[p] = a->w[k];
  }
  free(at);
  return g;
}

static void adj_free(adj* g) {
  free(g->off);
  free(g->dst);
  free(g->w);
}

/* A distance of the graph's type as double (inf for unreachable). */
static double as_double(const void* d, gsp_dtype dt) {
  if (dt == GSP_F32) return (double)*(const float*)d;
  if (dt == GSP_F64) return *(const double*)d;
  return *(const int32_t*)d == GSP_I32_INF ? INFINITY : (double)*(const int32_t*)d;
}

/* Checks cell (i, j)'s path against the arcs; returns 0 when valid. */
static int path_ok(const gsp_table* t, const adj* g, int32_t i, int32_t j, int32_t s, int32_t v, double want) {
  int32_t len = -1, k;
  int32_t* verts;
  double total = 0;
  gsp_status st = gsp_table_path(t, i, j, NULL, 0, &len);
  if (isinf(want)) return st == GSP_ERR_NO_PATH && len == 0 ? 0 : 1;
  if (st != GSP_OK || len < 1) return 1;
  verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
  st = gsp_table_path(t, i, j, verts, len, &len);
  if (st != GSP_OK || verts[0] != s || verts[len - 1] != v) {
    free(verts);
    return 1;
  }
  for (k = 0; k + 1 < len; k++) {
    int64_t e, best = T_INF_REF;
    for (e = g->off[verts[k]]; e < g->off[verts[k] + 1]; e++)
      if (g->dst[e] == verts[k + 1] && g->w[e] < best) best = g->w[e];
    if (best == T_INF_REF) {
      free(verts);
      return 1;
    }
    total += (double)best;
  }
  free(verts);
  return total == want ? 0 : 1;
}

/* One table against gsp_apsp_run on the same graph and options (backend,
 * algorithm, threads), cell by cell; paths checked when `paths`; the
 * table's info and gsp_table_run_into checked too. */
static void compare(const gsp_graph* g, const t_arcs* a, const adj* arcs, const char* what, const int32_t* src,
                    int32_t k, const int32_t* dst, int32_t t, int threads, int paths, gsp_backend backend) {
  gsp_options o;
  gsp_table* tab = NULL;
  gsp_paths* ref = NULL;
  gsp_dtype dt = gsp_graph_weight_type(g);
  size_t cells = (size_t)k * (size_t)t, wb = t_dist_bytes(dt);
  char* all = (char*)malloc(cells * wb + 8);
  char* into = (char*)malloc(cells * wb + 8);
  int32_t i, j, kk = -1, tt = -1, bad_d = 0, bad_p = 0;
  gsp_run_info info, info2;
  gsp_status s1, s2;
  gsp_options_init(&o);
  o.backend = backend;
  o.num_threads = threads;
  o.flags = paths ? 0 : GSP_NO_PATHS;
  s1 = gsp_table_run(g, src, k, dst, t, &o, &tab);
  s2 = k > 0 ? gsp_apsp_run(g, src, k, &o, &ref) : GSP_OK;
  CHECK(s1 == s2, "%s K=%d T=%d threads=%d: table %s, apsp %s (%s)", what, k, t, threads, gsp_status_name(s1),
        gsp_status_name(s2), gsp_last_error());
  if (s1 == GSP_OK && s2 == GSP_OK) {
    CHECK_OK(gsp_table_size(tab, &kk, &tt));
    CHECK(kk == k && tt == t, "%s: size %d x %d", what, kk, tt);
    CHECK_OK(gsp_table_distances(tab, all, (int64_t)cells));
    for (i = 0; i < k; i++) {
      for (j = 0; j < t; j++) {
        int64_t want = 0, got = 0; /* room for any weight type; compared bytewise */
        CHECK_OK(gsp_paths_distance(ref, src[i], dst[j], &want));
        CHECK_OK(gsp_table_distance(tab, i, j, &got));
        bad_d += want != got || memcmp(all + ((size_t)i * t + j) * wb, &got, wb) != 0;
        if (paths) bad_p += path_ok(tab, arcs, i, j, src[i], dst[j], as_double(&got, dt));
      }
    }
    CHECK(bad_d == 0, "%s K=%d T=%d threads=%d paths=%d: %d cells differ from gsp_apsp_run", what, k, t, threads, paths,
          bad_d);
    CHECK(bad_p == 0, "%s K=%d T=%d threads=%d: %d bad paths", what, k, t, threads, bad_p);
    memset(&info, 0, sizeof info);
    CHECK_OK(gsp_table_info(tab, &info));
    CHECK(info.num_sources == k && info.num_vertices == gsp_graph_num_vertices(g) && info.weight_type == dt &&
              info.has_paths == (uint32_t)paths && info.size == sizeof info,
          "%s: info K %d n %d paths %u", what, info.num_sources, info.num_vertices, info.has_paths);
    if (backend == GSP_BACKEND_CPU && k > 0 && t > 0) {
      CHECK(info.backend == GSP_BACKEND_CPU && info.device == -1 && strncmp(info.device_name, "CPU", 3) == 0 &&
                info.algorithm == (a->negative ? GSP_APSP_JOHNSON : GSP_APSP_HEAP) && info.iterations == k,
            "%s: info %s on %s, %lld iterations", what, gsp_algorithm_name(info.algorithm), info.device_name,
            (long long)info.iterations);
    }
    if (!paths) {
      int32_t len = 7;
      if (k > 0 && t > 0) {
        CHECK_STATUS(gsp_table_path(tab, 0, 0, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
        CHECK(strstr(gsp_last_error(), "GSP_NO_PATHS") != NULL, "%s", gsp_last_error());
      }
      memset(&info2, 0, sizeof info2);
      info2.size = sizeof info2;
      memset(into, 0x5a, cells * wb);
      CHECK_OK(gsp_table_run_into(g, src, k, dst, t, &o, into, &info2));
      CHECK(memcmp(into, all, cells * wb) == 0, "%s: gsp_table_run_into differs from gsp_table_distances", what);
      CHECK(info2.num_sources == k && info2.has_paths == 0 && info2.backend == info.backend &&
                info2.algorithm == info.algorithm,
            "%s: run_into info", what);
    }
  }
  gsp_table_destroy(tab);
  gsp_paths_destroy(ref);
  free(all);
  free(into);
}

/* Random vertices of [0, n), with repeats. */
static void pick(t_rng* r, int32_t n, int32_t count, int32_t* out) {
  int32_t i;
  for (i = 0; i < count; i++) out[i] = t_below(r, n);
  if (count >= 3) out[count - 1] = out[0]; /* a repeat */
}

static void test_shapes(void) {
  static const int32_t ks[] = {1, 2, 31, 32, 33};
  static const int threads[] = {1, 2, 0};
  int shape, dt, ki, th, paths;
  const int cuda = gsp_backend_available(GSP_BACKEND_CUDA);
  t_rng r = {42};
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    t_arcs a;
    adj arcs;
    t_make_shape(&a, shape, 70, 11);
    arcs = adj_make(&a);
    for (dt = 0; dt < T_NUM_DTYPES; dt++) {
      gsp_graph* g = t_graph(&a, t_dtypes[dt], 1.0f);
      int32_t n = gsp_graph_num_vertices(g), v;
      int32_t src[40], dst[80], every[80];
      char what[96];
      snprintf(what, sizeof what, "%s %s", a.name, t_dtype_name(t_dtypes[dt]));
      for (v = 0; v < n && v < 80; v++) every[v] = v;
      for (ki = 0; ki < (int)(sizeof ks / sizeof ks[0]); ki++) {
        int32_t t = 1 + t_below(&r, 40);
        pick(&r, n, ks[ki], src);
        pick(&r, n, t, dst);
        for (th = 0; th < 3; th++) {
          for (paths = 0; paths < 2; paths++) {
            compare(g, &a, &arcs, what, src, ks[ki], dst, t, threads[th], paths, GSP_BACKEND_CPU);
          }
        }
        /* targets = sources: distance 0 and a path of one vertex on the diagonal */
        compare(g, &a, &arcs, what, src, ks[ki], src, ks[ki], 2, 1, GSP_BACKEND_CPU);
        compare(g, &a, &arcs, what, src, ks[ki], dst, t, 0, 1, GSP_BACKEND_AUTO);
        if (cuda) { /* the CUDA path: all-pairs rows reduced to the target columns */
          compare(g, &a, &arcs, what, src, ks[ki], dst, t, 0, 0, GSP_BACKEND_CUDA);
          compare(g, &a, &arcs, what, src, ks[ki], dst, t, 0, 1, GSP_BACKEND_CUDA);
        }
      }
      /* all vertices as sources and as targets */
      if (n <= 80) {
        compare(g, &a, &arcs, what, every, n, every, n, 0, 1, GSP_BACKEND_CPU);
        compare(g, &a, &arcs, what, every, n, every, n, 1, 0, GSP_BACKEND_CPU);
        if (cuda) compare(g, &a, &arcs, what, every, n, every, n, 0, 1, GSP_BACKEND_CUDA);
      }
      gsp_graph_destroy(g);
    }
    adj_free(&arcs);
    t_arcs_free(&a);
  }
}

/* Diagonal cells of targets = sources, and K = 0 / T = 0. */
static void test_diagonal_and_empty(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_table* t = NULL;
  int32_t list[3] = {4, 9, 4}, d = -1, len = 0, buf[4], k = -1, tt = -1, i;
  gsp_run_info info;
  t_make_shape(&a, T_GRID, 36, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_OK(gsp_table_run(g, list, 3, list, 3, NULL, &t));
  for (i = 0; i < 3; i++) {
    CHECK_OK(gsp_table_distance(t, i, i, &d));
    CHECK(d == 0, "diagonal %d: %d", i, d);
    CHECK_OK(gsp_table_path(t, i, i, buf, 4, &len));
    CHECK(len == 1 && buf[0] == list[i], "diagonal path %d: length %d", i, len);
  }
  CHECK_OK(gsp_table_distance(t, 0, 2, &d));
  CHECK(d == 0, "repeated vertex: %d", d);
  gsp_table_destroy(t);
  t = NULL;
  CHECK_OK(gsp_table_run(g, NULL, 0, list, 3, NULL, &t));
  CHECK_OK(gsp_table_size(t, &k, &tt));
  CHECK(k == 0 && tt == 3, "0 x 3: %d x %d", k, tt);
  CHECK_OK(gsp_table_distances(t, NULL, 0));
  CHECK_STATUS(gsp_table_distance(t, 0, 0, &d), GSP_ERR_INVALID_ARGUMENT);
  memset(&info, 0, sizeof info);
  CHECK_OK(gsp_table_info(t, &info));
  CHECK(info.num_sources == 0, "info of an empty table");
  gsp_table_destroy(t);
  t = NULL;
  CHECK_OK(gsp_table_run(g, list, 3, NULL, 0, NULL, &t));
  CHECK_OK(gsp_table_size(t, &k, NULL));
  CHECK(k == 3, "3 x 0");
  gsp_table_destroy(t);
  CHECK_OK(gsp_table_run_into(g, list, 3, NULL, 0, NULL, NULL, NULL));
  /* the table outlives its graph */
  t = NULL;
  CHECK_OK(gsp_table_run(g, list, 2, list + 1, 1, NULL, &t));
  gsp_graph_destroy(g);
  CHECK_OK(gsp_table_path(t, 0, 0, buf, 4, &len));
  CHECK(len >= 2 && buf[0] == 4 && buf[len - 1] == 9, "path after the graph is gone");
  gsp_table_destroy(t);
  t_arcs_free(&a);
}

/* K = 1000 sources (with repeats) on a 2500-vertex grid, all threads; and
 * a graph with unreachable parts. */
static void test_large(void) {
  int dt;
  t_rng r = {7};
  for (dt = 0; dt < 2; dt++) {
    t_arcs a;
    adj arcs;
    gsp_graph* g;
    int32_t* src = (int32_t*)malloc(1000 * sizeof(int32_t));
    int32_t dst[60];
    t_make_shape(&a, dt ? T_ISOLATED : T_GRID, dt ? 3000 : 2500, 5);
    arcs = adj_make(&a);
    g = t_graph(&a, dt ? GSP_F32 : GSP_I32, 1.0f);
    pick(&r, a.n, 1000, src);
    pick(&r, a.n, 60, dst);
    compare(g, &a, &arcs, a.name, src, 1000, dst, 60, 0, 1, GSP_BACKEND_CPU);
    compare(g, &a, &arcs, a.name, src, 1000, dst, 7, 2, 0, GSP_BACKEND_CPU);
    gsp_graph_destroy(g);
    adj_free(&arcs);
    t_arcs_free(&a);
    free(src);
  }
}

/* AUTO's point-to-point bet (where CUDA is usable and AUTO plans the
 * device for one source): a near target is answered on the CPU by a
 * search that stops there; a far one outgrows the CPU's settle budget and
 * the device answers. Both equal the single-source run. */
static void test_point_to_point_bet(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* warm = NULL;
  gsp_backend be = GSP_BACKEND_AUTO;
  gsp_algorithm al = GSP_ALGO_AUTO;
  int far;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP point-to-point bet: no CUDA device\n");
    return;
  }
  t_make_shape(&a, T_GRID, 300 * 300, 11);
  g = t_graph(&a, GSP_I32, 1.0f);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  CHECK_OK(gsp_sssp_run(g, 0, &o, &warm)); /* the device is started: AUTO may plan it */
  gsp_paths_destroy(warm);
  CHECK_OK(gsp_run_plan(g, 0, 1, NULL, &be, &al));
  if (be != GSP_BACKEND_CUDA) {
    printf("SKIP point-to-point bet: AUTO plans %s for one source\n", gsp_backend_name(be));
  } else {
    for (far = 0; far < 2; far++) {
      const int32_t s = 0, t = far ? a.n - 1 : a.dst[0];
      int32_t want = 0, got = -1, len = 0;
      gsp_table* tab = NULL;
      gsp_run_info info;
      gsp_paths* ref = NULL;
      CHECK_OK(gsp_sssp_run(g, s, NULL, &ref));
      CHECK_OK(gsp_paths_distance(ref, s, t, &want));
      gsp_paths_destroy(ref);
      CHECK_OK(gsp_table_run(g, &s, 1, &t, 1, NULL, &tab));
      CHECK_OK(gsp_table_distance(tab, 0, 0, &got));
      CHECK(got == want, "point to point %d -> %d (%s target): %d, single source %d", s, t, far ? "far" : "near", got,
            want);
      CHECK_OK(gsp_table_path(tab, 0, 0, NULL, 0, &len));
      CHECK(len >= 2, "a path of at least two vertices: %d", len);
      info.size = 0;
      CHECK_OK(gsp_table_info(tab, &info));
      CHECK(info.backend == (far ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU), "the %s target was answered on %s (want %s)",
            far ? "far" : "near", gsp_backend_name(info.backend),
            far ? "cuda: the CPU gives up" : "cpu: its search stops there");
      gsp_table_destroy(tab);
    }
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* ------------------------------------------- point to point (K x 1)
 * A table whose targets are one vertex runs, on the CPU and without
 * negative arcs, a bidirectional search per source (doc/tables.md). Its
 * cells are checked against gsp_sssp_run with the CPU Dijkstra: int32, and
 * float / double sums that are exact (integer weights), bit for bit; other
 * float and double weights within the bound doc/tables.md states, twice
 * gsp.h's k * 2^-22 * S (2^-51 for double) over the longer of the two
 * paths. Every path is checked arc by arc, its exact sum against the cell. */

/* A graph with its weights as the library holds them (rounded to float for
 * GSP_F32), by tail, for the references and the path checks. */
typedef struct {
  gsp_graph* g;
  gsp_dtype dt;
  int exact; /* every sum is exact in the weight type: compare bit for bit */
  int32_t n;
  int64_t* off;
  int32_t* dst;
  double* w;
} p2p_graph;

/* arcs' weights times (1 + a fraction in [0, 1)) unless exact; int32 takes
 * the integer weights. */
static p2p_graph p2p_make(const t_arcs* a, gsp_dtype dt, int exact, uint64_t seed) {
  p2p_graph p;
  t_rng r = {seed};
  int64_t k, m = a->m;
  int32_t v;
  double* wd = (double*)malloc((size_t)(m ? m : 1) * sizeof(double));
  float* wf = (float*)malloc((size_t)(m ? m : 1) * sizeof(float));
  int64_t* at = (int64_t*)calloc((size_t)a->n + 1, sizeof(int64_t));
  gsp_status st;
  memset(&p, 0, sizeof p);
  p.dt = dt;
  p.exact = exact || dt == GSP_I32;
  p.n = a->n;
  for (k = 0; k < m; k++) {
    double x = (double)a->w[k];
    if (!p.exact) x *= 1.0 + (double)t_below(&r, 1 << 20) / (double)(1 << 20);
    wf[k] = (float)x;
    wd[k] = dt == GSP_F32 ? (double)wf[k] : x;
  }
  st = gsp_graph_create(&p.g, a->n, m, a->src, a->dst,
                        dt == GSP_I32   ? (const void*)a->w
                        : dt == GSP_F32 ? (const void*)wf
                                        : (const void*)wd,
                        dt, 0);
  if (st != GSP_OK) {
    fprintf(stderr, "p2p_make(%s): %s\n", a->name, gsp_last_error());
    exit(2);
  }
  p.off = (int64_t*)calloc((size_t)a->n + 1, sizeof(int64_t));
  p.dst = (int32_t*)malloc((size_t)(m ? m : 1) * sizeof(int32_t));
  p.w = (double*)malloc((size_t)(m ? m : 1) * sizeof(double));
  for (k = 0; k < m; k++) p.off[a->src[k] + 1]++;
  for (v = 0; v < a->n; v++) p.off[v + 1] += p.off[v];
  for (v = 0; v <= a->n; v++) at[v] = p.off[v];
  for (k = 0; k < m; k++) {
    int64_t e = at[a->src[k]]++;
    p.dst[e] = a->dst[k];
    p.w[e] = dt == GSP_I32 ? (double)a->w[k] : wd[k];
  }
  free(at);
  free(wd);
  free(wf);
  return p;
}

static void p2p_free(p2p_graph* p) {
  gsp_graph_destroy(p->g);
  free(p->off);
  free(p->dst);
  free(p->w);
}

/* The unit of the rounding bound: 2^-22 for float, 2^-51 for double, 0 when
 * sums are exact. */
static double p2p_unit(const p2p_graph* p) {
  return p->exact ? 0.0 : p->dt == GSP_F32 ? ldexp(1.0, -22) : ldexp(1.0, -51);
}

/* Checks a path s..t against the graph: consecutive vertices joined by an
 * arc (the cheapest parallel one counts), no vertex twice; its exact sum
 * (double) and k * S, the rounding bound's factor, in *sum and *ks.
 * Returns 0 when valid. */
static int p2p_path(const p2p_graph* p, const int32_t* verts, int32_t len, int32_t s, int32_t t, double* sum,
                    double* ks) {
  int32_t i, j;
  double total = 0, abs_total = 0;
  if (len < 1 || verts[0] != s || verts[len - 1] != t) return 1;
  for (i = 0; i + 1 < len; i++) {
    int64_t e;
    double best = INFINITY;
    for (e = p->off[verts[i]]; e < p->off[verts[i] + 1]; e++)
      if (p->dst[e] == verts[i + 1] && p->w[e] < best) best = p->w[e];
    if (isinf(best)) return 1;
    total += best;
    abs_total += fabs(best);
  }
  for (i = 0; i < len && len <= 4096; i++)
    for (j = i + 1; j < len; j++)
      if (verts[i] == verts[j]) return 1;
  *sum = total;
  *ks = (double)(len - 1) * abs_total;
  return 0;
}

/* Cell (i, j) of table `tab` against a CPU Dijkstra from s to t: the same
 * distance (bit for bit where exact, else within 2 u k S of the longer
 * path), and with paths a valid path whose sum is the cell's within u k S.
 * Returns the number of failures (each reported). */
static int p2p_cell(const p2p_graph* p, const gsp_table* tab, const gsp_paths* ref, int32_t i, int32_t j, int32_t s,
                    int32_t t, int paths, const char* what) {
  int64_t want = 0, got = 0;
  double dw, dg, ks_ref = 0, ks_tab = 0, sum_ref = 0, sum_tab = 0, tol;
  int32_t len = 0, *verts;
  const size_t wb = t_dist_bytes(p->dt);
  int bad = 0;
  CHECK_OK(gsp_paths_distance(ref, s, t, &want));
  CHECK_OK(gsp_table_distance(tab, i, j, &got));
  dw = as_double(&want, p->dt);
  dg = as_double(&got, p->dt);
  if (gsp_path_get(ref, s, t, NULL, 0, &len) == GSP_OK && len > 0) {
    verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
    CHECK_OK(gsp_path_get(ref, s, t, verts, len, &len));
    CHECK(p2p_path(p, verts, len, s, t, &sum_ref, &ks_ref) == 0, "%s: the Dijkstra path %d -> %d is not a path", what,
          s, t);
    free(verts);
  }
  if (paths) {
    gsp_status st = gsp_table_path(tab, i, j, NULL, 0, &len);
    if (isinf(dg)) {
      bad += st != GSP_ERR_NO_PATH || len != 0;
      CHECK(st == GSP_ERR_NO_PATH && len == 0, "%s: %d -> %d unreachable, yet path %s of length %d", what, s, t,
            gsp_status_name(st), len);
    } else if (st == GSP_OK && len > 0) {
      verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
      CHECK_OK(gsp_table_path(tab, i, j, verts, len, &len));
      if (p2p_path(p, verts, len, s, t, &sum_tab, &ks_tab) != 0) {
        bad++;
        CHECK(0, "%s: cell %d -> %d: not a path of the graph (%d vertices)", what, s, t, len);
      } else {
        tol = p2p_unit(p) * ks_tab;
        bad += fabs(sum_tab - dg) > tol;
        CHECK(fabs(sum_tab - dg) <= tol, "%s: cell %d -> %d = %.17g, its path sums to %.17g (tolerance %g)", what, s, t,
              dg, sum_tab, tol);
      }
      free(verts);
    } else {
      bad++;
      CHECK(0, "%s: cell %d -> %d: %s, length %d", what, s, t, gsp_status_name(st), len);
    }
  }
  if (p->exact || isinf(dw) || isinf(dg)) {
    bad += memcmp(&want, &got, wb) != 0;
    CHECK(memcmp(&want, &got, wb) == 0, "%s: cell %d -> %d = %.17g, Dijkstra %.17g", what, s, t, dg, dw);
  } else {
    tol = 2.0 * p2p_unit(p) * (ks_ref > ks_tab ? ks_ref : ks_tab);
    bad += fabs(dw - dg) > tol;
    CHECK(fabs(dw - dg) <= tol, "%s: cell %d -> %d = %.17g, Dijkstra %.17g (tolerance %g)", what, s, t, dg, dw, tol);
  }
  return bad;
}

/* K sources to `reps` copies of target t (one distinct target), with and
 * without paths, on `threads` threads; each cell against Dijkstra. */
static void p2p_table(const p2p_graph* p, const int32_t* src, int32_t k, int32_t t, int32_t reps, int threads,
                      const char* what) {
  int32_t dst[4], i, j, paths;
  gsp_options o, dij;
  gsp_options_init(&dij);
  dij.backend = GSP_BACKEND_CPU;
  dij.algorithm = GSP_SSSP_DIJKSTRA;
  for (j = 0; j < reps; j++) dst[j] = t;
  for (paths = 0; paths < 2; paths++) {
    gsp_table* tab = NULL;
    gsp_run_info info;
    int bad = 0;
    char* into = (char*)malloc((size_t)k * (size_t)reps * 8 + 8);
    char* all = (char*)malloc((size_t)k * (size_t)reps * 8 + 8);
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    o.num_threads = threads;
    o.flags = paths ? 0 : GSP_NO_PATHS;
    CHECK_OK(gsp_table_run(p->g, src, k, dst, reps, &o, &tab));
    if (tab == NULL) {
      free(into);
      free(all);
      continue;
    }
    for (i = 0; i < k; i++) {
      gsp_paths* ref = NULL;
      CHECK_OK(gsp_sssp_run(p->g, src[i], &dij, &ref));
      if (ref == NULL) continue;
      for (j = 0; j < reps; j++) bad += p2p_cell(p, tab, ref, i, j, src[i], t, paths, what);
      gsp_paths_destroy(ref);
    }
    CHECK(bad == 0, "%s: K=%d x %d copies of target %d, %d threads, paths %d: %d bad cells", what, k, reps, t, threads,
          paths, bad);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_table_info(tab, &info));
    CHECK(info.backend == GSP_BACKEND_CPU && info.algorithm == GSP_APSP_HEAP && info.iterations == k &&
              info.relaxations >= 0,
          "%s: info %s, %lld iterations", what, gsp_algorithm_name(info.algorithm), (long long)info.iterations);
    /* gsp_table_run_into: the same distances */
    CHECK_OK(gsp_table_distances(tab, all, (int64_t)k * reps));
    CHECK_OK(gsp_table_run_into(p->g, src, k, dst, reps, &o, into, NULL));
    CHECK(memcmp(into, all, (size_t)k * (size_t)reps * t_dist_bytes(p->dt)) == 0,
          "%s: gsp_table_run_into differs from the table", what);
    gsp_table_destroy(tab);
    free(into);
    free(all);
  }
}

/* Random graphs, grids, zero weights, loops and parallel arcs, isolated
 * parts (unreachable targets), of every weight type, exact and not. */
static void test_point_to_point_shapes(void) {
  static const int shapes[] = {T_RANDOM_SPARSE, T_GRID, T_POWER_LAW, T_ZERO_WEIGHTS, T_LOOPS_PARALLEL,
                               T_ISOLATED,      T_RING, T_SINGLE,    T_NO_ARCS};
  int si, dt, exact, q;
  t_rng r = {2024};
  for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
    t_arcs a;
    t_make_shape(&a, shapes[si], shapes[si] == T_GRID ? 900 : 400, 17 + (uint64_t)si);
    for (dt = 0; dt < T_NUM_DTYPES; dt++) {
      for (exact = 1; exact >= (t_dtypes[dt] == GSP_I32 ? 1 : 0); exact--) {
        p2p_graph p = p2p_make(&a, t_dtypes[dt], exact, 99 + (uint64_t)si);
        char what[96];
        snprintf(what, sizeof what, "point to point %s %s%s", a.name, t_dtype_name(p.dt),
                 p.exact ? "" : " (real weights)");
        for (q = 0; q < 6; q++) {
          int32_t src[8], i, t = t_below(&r, a.n);
          for (i = 0; i < 8; i++) src[i] = t_below(&r, a.n);
          src[3] = t;                                       /* s == t: 0, a path of one vertex */
          src[5] = src[4];                                  /* a repeated source */
          p2p_table(&p, src, 1, t, 1, 1, what);             /* 1 x 1 */
          p2p_table(&p, src + 1, 1, t, 3, 1, what);         /* 1 x 3 copies of one target */
          p2p_table(&p, src, 8, t, 1, q % 2 ? 2 : 1, what); /* K x 1 */
        }
        p2p_free(&p);
      }
    }
    t_arcs_free(&a);
  }
}

/* More sources per thread than one-byte stamps have values (255: the
 * stamps are cleared and start again), point to point and by targets. */
static void test_stamps_wrap(void) {
  t_arcs a;
  adj arcs;
  t_rng r = {5};
  int32_t src[600], dst[3];
  p2p_graph p;
  gsp_graph* g;
  t_make_shape(&a, T_GRID, 900, 23);
  arcs = adj_make(&a);
  pick(&r, a.n, 600, src);
  pick(&r, a.n, 3, dst);
  p = p2p_make(&a, GSP_F32, 0, 3);
  p2p_table(&p, src, 600, dst[0], 1, 1, "600 x 1 on one thread");
  p2p_free(&p);
  g = t_graph(&a, GSP_I32, 1.0f);
  compare(g, &a, &arcs, "600 x 3 on one thread", src, 600, dst, 3, 1, 1, GSP_BACKEND_CPU);
  gsp_graph_destroy(g);
  adj_free(&arcs);
  t_arcs_free(&a);
}

/* A graph where n times the largest weight passes GSP_I32_INF although no
 * distance does: an unreachable target is then decided by the forward
 * search alone (which finds no overflow); reachable ones as before. */
static void test_point_to_point_heavy_arc(void) {
  t_arcs a;
  t_rng r = {77};
  int32_t i;
  t_make_shape(&a, T_ISOLATED, 600, 5);
  t_arc(&a, 0, 1, 1000000000);
  for (i = 0; i < 12; i++) {
    p2p_graph p = p2p_make(&a, GSP_I32, 1, 1);
    int32_t src[4], t = t_below(&r, a.n);
    src[0] = t_below(&r, a.n / 2);
    src[1] = t_below(&r, a.n);
    src[2] = 0;
    src[3] = a.n - 1;
    p2p_table(&p, src, 4, t, 1, 1, "point to point, a heavy arc");
    p2p_free(&p);
  }
  t_arcs_free(&a);
}

/* int32 overflow: a cell answers where the forward search answers (the
 * target is settled before any sum leaves the range) and is
 * GSP_ERR_OVERFLOW where it reports one; the edge GSP_I32_INF - 1 fits. */
static void test_point_to_point_overflow(void) {
  /* a chain 0 -> 1 -> 2 -> 3 of 1e9 each; 4 -> 5 -> 6 summing to INF - 1,
   * then 6 -> 7 of 1; 8 isolated; 9 -> 10 and 9 -> 11 -> 12 of 2e9 each */
  const int32_t from[] = {0, 1, 2, 4, 5, 6, 9, 9, 11};
  const int32_t to[] = {1, 2, 3, 5, 6, 7, 10, 11, 12};
  const int32_t w[] = {1000000000, 1000000000, 1000000000, 1073741823, 1073741823, 1, 5, 2000000000, 2000000000};
  const double wd[] = {1e308, 1e308, 1, 1, 1, 1, 1, 1, 1};
  gsp_graph* g = NULL;
  gsp_options o;
  int32_t d = 0, s, t;
  double x = 0;
  gsp_table* tab = NULL;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  CHECK_OK(gsp_graph_create(&g, 13, 9, from, to, w, GSP_I32, 0));
  s = 0, t = 2;
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL));
  CHECK(d == 2000000000, "0 -> 2: %d", d);
  t = 3;
  CHECK_STATUS(gsp_table_run(g, &s, 1, &t, 1, &o, &tab), GSP_ERR_OVERFLOW);
  CHECK(tab == NULL, "no table on overflow");
  s = 4, t = 6;
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL));
  CHECK(d == GSP_I32_INF - 1, "4 -> 6: %d (want INF - 1)", d);
  t = 7;
  CHECK_STATUS(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL), GSP_ERR_OVERFLOW);
  s = 9, t = 10;
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL));
  CHECK(d == 5, "9 -> 10 beside an overflow: %d", d);
  t = 8; /* unreachable, while 12 overflows: what the forward search reports */
  CHECK_STATUS(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL), GSP_ERR_OVERFLOW);
  s = 8, t = 0; /* from an isolated vertex: unreachable */
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL));
  CHECK(d == GSP_I32_INF, "8 -> 0: %d", d);
  s = 5, t = 4; /* against the arcs: unreachable */
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &d, NULL));
  CHECK(d == GSP_I32_INF, "5 -> 4: %d", d);
  gsp_graph_destroy(g);
  /* double: 1e308 + 1e308 is beyond DBL_MAX */
  CHECK_OK(gsp_graph_create(&g, 13, 9, from, to, wd, GSP_F64, 0));
  s = 0, t = 1;
  CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &o, &x, NULL));
  CHECK(x == 1e308, "f64 0 -> 1: %g", x);
  t = 2;
  CHECK_STATUS(gsp_table_run_into(g, &s, 1, &t, 1, &o, &x, NULL), GSP_ERR_OVERFLOW);
  gsp_graph_destroy(g);
}

/* Negative arcs keep Johnson's single search: K x 1 answers as
 * Bellman-Ford does, and info says Johnson. */
static void test_point_to_point_negative(void) {
  t_arcs a;
  int dt;
  t_make_shape(&a, T_DAG_NEGATIVE, 300, 3);
  for (dt = 0; dt < T_NUM_DTYPES; dt++) {
    gsp_graph* g = t_graph(&a, t_dtypes[dt], 1.0f);
    gsp_options o, bf;
    gsp_table* tab = NULL;
    gsp_run_info info;
    int32_t src[3] = {0, 7, 150}, t = 200, i;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    gsp_options_init(&bf);
    bf.backend = GSP_BACKEND_CPU;
    bf.algorithm = GSP_SSSP_BELLMAN_FORD;
    CHECK_OK(gsp_table_run(g, src, 3, &t, 1, &o, &tab));
    for (i = 0; i < 3 && tab != NULL; i++) {
      gsp_paths* ref = NULL;
      int64_t want = 0, got = 0;
      CHECK_OK(gsp_sssp_run(g, src[i], &bf, &ref));
      CHECK_OK(gsp_paths_distance(ref, src[i], t, &want));
      CHECK_OK(gsp_table_distance(tab, i, 0, &got));
      CHECK(want == got, "negative arcs %s: %d -> %d differs from Bellman-Ford", t_dtype_name(t_dtypes[dt]), src[i], t);
      gsp_paths_destroy(ref);
    }
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_table_info(tab, &info));
    CHECK(info.algorithm == GSP_APSP_JOHNSON, "negative arcs: ran %s", gsp_algorithm_name(info.algorithm));
    gsp_table_destroy(tab);
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

/* The New York road graph, when GSP_DATA_DIR has it: random pairs, int32
 * and float, against Dijkstra, paths checked; K x 1 on two threads. */
static void test_point_to_point_ny(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char ny[1024];
  int dt;
  FILE* f;
  if (dir == NULL || !*dir) dir = "../shared/data";
  snprintf(ny, sizeof ny, "%s/USA-road-d.NY.gr.gz", dir);
  f = fopen(ny, "rb");
  if (f == NULL) {
    printf("SKIP point to point on NY: %s not found (set GSP_DATA_DIR)\n", ny);
    return;
  }
  fclose(f);
  for (dt = 0; dt < 2; dt++) {
    t_rng r = {31 + (uint64_t)dt};
    p2p_graph p;
    t_arcs a;
    int32_t src[4], q, i;
    int64_t k, m;
    gsp_graph* g = NULL;
    CHECK_OK(gsp_graph_load(&g, ny, GSP_FORMAT_AUTO, GSP_I32, 0));
    if (g == NULL) return;
    /* the arcs, for p2p_make's CSR copy */
    t_arcs_init(&a, "NY", gsp_graph_num_vertices(g));
    m = gsp_graph_num_edges(g);
    {
      int64_t* off = (int64_t*)malloc((size_t)(a.n + 1) * sizeof(int64_t));
      int32_t* dst = (int32_t*)malloc((size_t)m * sizeof(int32_t));
      int32_t* w = (int32_t*)malloc((size_t)m * sizeof(int32_t));
      int32_t u;
      CHECK_OK(gsp_graph_csr(g, off, dst, w));
      for (u = 0; u < a.n; u++)
        for (k = off[u]; k < off[u + 1]; k++) t_arc(&a, u, dst[k], w[k]);
      free(off);
      free(dst);
      free(w);
    }
    gsp_graph_destroy(g);
    p = p2p_make(&a, dt ? GSP_F32 : GSP_I32, 1, 0);
    for (q = 0; q < 6; q++) {
      for (i = 0; i < 4; i++) src[i] = t_below(&r, a.n);
      p2p_table(&p, src, 1, src[3], 1, 1, dt ? "point to point NY f32" : "point to point NY i32");
      p2p_table(&p, src, 1, t_below(&r, a.n), 1, 1, dt ? "point to point NY f32" : "point to point NY i32");
    }
    p2p_table(&p, src, 4, t_below(&r, a.n), 1, 2, dt ? "point to point NY f32, K x 1" : "point to point NY i32, K x 1");
    p2p_free(&p);
    t_arcs_free(&a);
  }
}

/* Explicit algorithms: every CPU all-pairs algorithm answers the same
 * table; Dijkstra-based ones refuse negative arcs as gsp_apsp_run does. */
static void test_algorithms(void) {
  static const gsp_algorithm algos[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON};
  int shape, ai;
  for (shape = 0; shape < 2; shape++) {
    t_arcs a;
    gsp_graph* g;
    int32_t src[3] = {0, 5, 17}, dst[4] = {3, 0, 29, 17};
    int32_t base[12], got[12];
    t_make_shape(&a, shape ? T_DAG_NEGATIVE : T_RANDOM_SPARSE, 40, 9);
    g = t_graph(&a, GSP_I32, 1.0f);
    CHECK_OK(gsp_table_run_into(g, src, 3, dst, 4, NULL, base, NULL));
    for (ai = 0; ai < 4; ai++) {
      gsp_options o;
      gsp_run_info info;
      gsp_status want = a.negative && algos[ai] == GSP_APSP_HEAP ? GSP_ERR_NEGATIVE_WEIGHT : GSP_OK;
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CPU;
      o.algorithm = algos[ai];
      memset(&info, 0, sizeof info);
      CHECK_STATUS(gsp_table_run_into(g, src, 3, dst, 4, &o, got, &info), want);
      if (want == GSP_OK) {
        CHECK(memcmp(got, base, sizeof got) == 0, "%s %s differs", a.name, gsp_algorithm_name(algos[ai]));
        CHECK(info.algorithm == (a.negative ? GSP_APSP_JOHNSON : GSP_APSP_HEAP), "%s %s ran %s", a.name,
              gsp_algorithm_name(algos[ai]), gsp_algorithm_name(info.algorithm));
      }
    }
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* A negative cycle: GSP_ERR_NEGATIVE_CYCLE, as gsp_apsp_run answers. */
static void test_negative_cycle(void) {
  const int32_t s[] = {0, 1, 2, 2, 3}, t[] = {1, 2, 1, 3, 4}, w[] = {1, 2, -3, 1, 1};
  const float wf[] = {1, 2, -3, 1, 1};
  int32_t src[1] = {0}, dst[1] = {4}, d[1];
  int dt;
  for (dt = 0; dt < 2; dt++) {
    gsp_graph* g = NULL;
    gsp_table* tab = (gsp_table*)&g;
    gsp_paths* p = NULL;
    CHECK_OK(gsp_graph_create(&g, 5, 5, s, t, dt ? (const void*)wf : (const void*)w, dt ? GSP_F32 : GSP_I32, 0));
    CHECK_STATUS(gsp_table_run(g, src, 1, dst, 1, NULL, &tab), GSP_ERR_NEGATIVE_CYCLE);
    CHECK(tab == NULL, "result NULL on failure");
    CHECK_STATUS(gsp_table_run_into(g, src, 1, dst, 1, NULL, d, NULL), GSP_ERR_NEGATIVE_CYCLE);
    CHECK_STATUS(gsp_apsp_run(g, src, 1, NULL, &p), GSP_ERR_NEGATIVE_CYCLE);
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
  }
}

/* Distances that do not fit: GSP_ERR_OVERFLOW for the cell that needs one;
 * nearer cells are exact. */
static void test_overflow(void) {
  const int32_t s[] = {0, 1}, t[] = {1, 2}, w[] = {2000000000, 2000000000};
  const float wf[] = {3e38f, 3e38f};
  int32_t src[1] = {0}, near[1] = {1}, far[1] = {2};
  int dt;
  for (dt = 0; dt < 2; dt++) {
    gsp_graph* g = NULL;
    gsp_table* tab = NULL;
    gsp_paths* p = NULL;
    union {
      int32_t i;
      float f;
    } d;
    CHECK_OK(gsp_graph_create(&g, 3, 2, s, t, dt ? (const void*)wf : (const void*)w, dt ? GSP_F32 : GSP_I32, 0));
    CHECK_OK(gsp_table_run_into(g, src, 1, near, 1, NULL, &d, NULL));
    CHECK(dt ? d.f == 3e38f : d.i == 2000000000, "near cell");
    CHECK_STATUS(gsp_table_run(g, src, 1, far, 1, NULL, &tab), GSP_ERR_OVERFLOW);
    CHECK(strstr(gsp_last_error(), "2") != NULL, "%s", gsp_last_error());
    CHECK_STATUS(gsp_apsp_run(g, src, 1, NULL, &p), GSP_ERR_OVERFLOW);
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
  }
}

static int g_calls;
static double g_last;
static int progress(void* user, double f) {
  g_calls++;
  g_last = f;
  return user != NULL && f > 0.3;
}

static void test_progress(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_options o;
  int32_t src[50], dst[5], d[250];
  t_rng r = {3};
  int th;
  t_make_shape(&a, T_GRID, 400, 2);
  g = t_graph(&a, GSP_I32, 1.0f);
  pick(&r, a.n, 50, src);
  pick(&r, a.n, 5, dst);
  for (th = 1; th <= 2; th++) {
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    o.num_threads = th;
    o.progress = progress;
    g_calls = 0;
    CHECK_OK(gsp_table_run_into(g, src, 50, dst, 5, &o, d, NULL));
    /* 0 and 1 always; per source only for the caller's thread's sources,
     * which with two threads may be none on a graph this small */
    CHECK(g_calls >= 2 && g_last == 1.0, "progress: %d calls, last %g", g_calls, g_last);
    o.progress_user = &o;
    CHECK_STATUS(gsp_table_run_into(g, src, 50, dst, 5, &o, d, NULL), GSP_ERR_CANCELLED);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

#define CHECK_MSG(expr, want, word)                                                                              \
  do {                                                                                                           \
    CHECK_STATUS(expr, want);                                                                                    \
    CHECK(strstr(gsp_last_error(), word) != NULL, "%s: message '%s' lacks '%s'", #expr, gsp_last_error(), word); \
  } while (0)

static void test_bad_arguments(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_table* t = NULL;
  gsp_options o;
  int32_t src[2] = {0, 3}, dst[3] = {1, 99, 2}, d[8], len = 5, buf[1], k;
  t_make_shape(&a, T_RING, 10, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_MSG(gsp_table_run(NULL, src, 2, dst, 1, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "graph");
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 1, NULL, NULL), GSP_ERR_INVALID_ARGUMENT, "result");
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 3, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "targets[1] = 99");
  CHECK(t == NULL, "no table on failure");
  src[1] = -4;
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 1, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "sources[1] = -4");
  src[1] = 3;
  CHECK_MSG(gsp_table_run(g, src, -1, dst, 1, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "num_sources");
  CHECK_MSG(gsp_table_run(g, src, 2, dst, -2, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "num_targets");
  CHECK_MSG(gsp_table_run(g, NULL, 2, dst, 1, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "sources");
  CHECK_MSG(gsp_table_run(g, src, 2, NULL, 1, NULL, &t), GSP_ERR_INVALID_ARGUMENT, "targets");
  CHECK_MSG(gsp_table_run_into(NULL, src, 2, dst, 1, NULL, d, NULL), GSP_ERR_INVALID_ARGUMENT, "graph");
  CHECK_MSG(gsp_table_run_into(g, src, 2, dst, 1, NULL, NULL, NULL), GSP_ERR_INVALID_ARGUMENT, "distances");
  CHECK_MSG(gsp_table_run_into(g, src, 2, dst, 3, NULL, d, NULL), GSP_ERR_INVALID_ARGUMENT, "targets[1]");
  gsp_options_init(&o);
  o.size = 4;
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 1, &o, &t), GSP_ERR_INVALID_ARGUMENT, "options->size");
  gsp_options_init(&o);
  o.algorithm = GSP_SSSP_DIJKSTRA;
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 1, &o, &t), GSP_ERR_INVALID_ARGUMENT, "SSSP");
  gsp_options_init(&o);
  o.num_threads = -3;
  CHECK_MSG(gsp_table_run(g, src, 2, dst, 1, &o, &t), GSP_ERR_INVALID_ARGUMENT, "num_threads");
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CUDA;
    CHECK_STATUS(gsp_table_run(g, src, 2, dst, 1, &o, &t), GSP_ERR_NO_DEVICE);
  }
  CHECK(t == NULL, "no table on failure");

  CHECK_OK(gsp_table_run(g, src, 2, dst, 1, NULL, &t));
  CHECK_MSG(gsp_table_distance(t, 2, 0, d), GSP_ERR_INVALID_ARGUMENT, "source_index");
  CHECK_MSG(gsp_table_distance(t, -1, 0, d), GSP_ERR_INVALID_ARGUMENT, "source_index");
  CHECK_MSG(gsp_table_distance(t, 0, 1, d), GSP_ERR_INVALID_ARGUMENT, "target_index");
  CHECK_MSG(gsp_table_distance(t, 0, 0, NULL), GSP_ERR_INVALID_ARGUMENT, "out");
  CHECK_MSG(gsp_table_path(t, 0, 1, buf, 1, &len), GSP_ERR_INVALID_ARGUMENT, "target_index");
  CHECK_MSG(gsp_table_path(t, 0, 0, buf, 1, NULL), GSP_ERR_INVALID_ARGUMENT, "length");
  CHECK_MSG(gsp_table_path(t, 1, 0, buf, 1, &len), GSP_ERR_BUFFER_TOO_SMALL, "capacity");
  CHECK(len > 1, "the length comes with BUFFER_TOO_SMALL: %d", len);
  CHECK_MSG(gsp_table_distances(t, d, 1), GSP_ERR_BUFFER_TOO_SMALL, "capacity");
  CHECK_MSG(gsp_table_distances(t, NULL, 8), GSP_ERR_INVALID_ARGUMENT, "out");
  CHECK_MSG(gsp_table_info(t, NULL), GSP_ERR_INVALID_ARGUMENT, "info");
  CHECK_MSG(gsp_table_size(NULL, &k, &k), GSP_ERR_INVALID_ARGUMENT, "table");
  CHECK_MSG(gsp_table_distances(NULL, d, 8), GSP_ERR_INVALID_ARGUMENT, "table");
  CHECK_MSG(gsp_table_distance(NULL, 0, 0, d), GSP_ERR_INVALID_ARGUMENT, "table");
  CHECK_MSG(gsp_table_path(NULL, 0, 0, buf, 1, &len), GSP_ERR_INVALID_ARGUMENT, "table");
  CHECK_MSG(gsp_table_info(NULL, NULL), GSP_ERR_INVALID_ARGUMENT, "table");
  gsp_table_destroy(t);
  gsp_table_destroy(NULL);

  /* unreachable: GSP_ERR_NO_PATH naming the vertices; inf distance */
  {
    const int32_t s2[] = {0}, t2[] = {1}, w2[] = {4};
    int32_t from[1] = {1}, to[1] = {0};
    gsp_graph* h = NULL;
    CHECK_OK(gsp_graph_create(&h, 3, 1, s2, t2, w2, GSP_I32, 0));
    CHECK_OK(gsp_table_run(h, from, 1, to, 1, NULL, &t));
    CHECK_OK(gsp_table_distance(t, 0, 0, d));
    CHECK(d[0] == GSP_I32_INF, "unreachable is GSP_I32_INF");
    CHECK_MSG(gsp_table_path(t, 0, 0, buf, 1, &len), GSP_ERR_NO_PATH, "vertex 0");
    CHECK(len == 0, "length 0 when unreachable");
    gsp_table_destroy(t);
    gsp_graph_destroy(h);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  test_bad_arguments();
  test_diagonal_and_empty();
  test_negative_cycle();
  test_overflow();
  test_progress();
  test_algorithms();
  test_shapes();
  test_large();
  test_point_to_point_bet();
  test_point_to_point_shapes();
  test_point_to_point_heavy_arc();
  test_stamps_wrap();
  test_point_to_point_overflow();
  test_point_to_point_negative();
  test_point_to_point_ny();
  return t_finish("test_table");
}
