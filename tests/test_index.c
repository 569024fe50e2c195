/* Road indexes (gsp_index.h) on every graph shape with weights >= 0 and
 * every weight type: the rows of gsp_sssp_run, gsp_apsp_run (result,
 * caller arrays, stream) and the cells of gsp_table_run answered from an
 * index equal the reference distances (int32 and integer-valued floats
 * exactly), their paths exist arc by arc in the graph and sum to them,
 * repeated and unreachable targets included, 1 x 1 tables too; the run
 * info names GSP_CH. Saved and loaded, an index answers the same; a file
 * cut short, damaged in one byte, of another kind or missing gets
 * GSP_ERR_PARSE / GSP_ERR_IO naming it; an index of another graph (another
 * size, or the same size with one weight changed) is refused when loaded
 * and when a run is given it. Negative weights, GSP_CH without an index,
 * a cancelled build, int32 overflow and a distance limit get their status
 * or cut; GSP_BACKEND_CUDA answers where a device is usable (the rows'
 * equality with the CPU's: tests/gpu/test_gpu_index.c), else
 * GSP_ERR_NO_DEVICE. The DIMACS New York graph, when $GSP_DATA_DIR has it, against
 * Dijkstra: rows and a table. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <unistd.h>

#include "testing.h"

static gsp_options index_opts(const gsp_index* ix) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_threads = 2;
  o.index = ix;
  return o;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The cheapest arc u -> v of `a`, or T_INF_REF. */
static int64_t arc_weight(const t_arcs* a, int32_t u, int32_t v) {
  int64_t best = T_INF_REF, k;
  for (k = 0; k < a->m; k++)
    if (a->src[k] == u && a->dst[k] == v && a->w[k] < best) best = a->w[k];
  return best;
}

/* Cell (i, j) of a table: its distance and path against want. */
static int check_cell(const gsp_table* t, const t_arcs* a, gsp_dtype dt, int32_t i, int32_t j, int32_t s, int32_t d,
                      int64_t want, int paths, const char* what) {
  double got;
  char buf[8];
  int32_t len = 0, k, *verts;
  int64_t total = 0;
  gsp_status st;
  if (gsp_table_distance(t, i, j, buf) != GSP_OK)
    return fprintf(stderr, "%s: cell (%d,%d) unreadable\n", what, i, j), 1;
  got = t_dist_at(buf, dt, 0);
  if (want == T_INF_REF ? !(isinf(got) && got > 0) : got != (double)want) {
    fprintf(stderr, "%s: cell %d -> %d = %.17g, want %lld\n", what, s, d, got, (long long)want);
    return 1;
  }
  if (!paths) return 0;
  st = gsp_table_path(t, i, j, NULL, 0, &len);
  if (want == T_INF_REF)
    return st == GSP_ERR_NO_PATH ? 0 : (fprintf(stderr, "%s: unreachable cell has a path\n", what), 1);
  if (len < 1)
    return fprintf(stderr, "%s: cell %d -> %d: path length %d (%s)\n", what, s, d, len, gsp_status_name(st)), 1;
  verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
  st = gsp_table_path(t, i, j, verts, len, &len);
  if (st != GSP_OK || verts[0] != s || verts[len - 1] != d) {
    fprintf(stderr, "%s: cell %d -> %d: path %s, ends %d..%d\n", what, s, d, gsp_status_name(st), verts[0],
            verts[len - 1]);
    free(verts);
    return 1;
  }
  for (k = 0; k + 1 < len; k++) {
    const int64_t w = arc_weight(a, verts[k], verts[k + 1]);
    if (w == T_INF_REF) {
      fprintf(stderr, "%s: cell %d -> %d: path uses %d -> %d, no arc\n", what, s, d, verts[k], verts[k + 1]);
      free(verts);
      return 1;
    }
    total += w;
  }
  free(verts);
  if (total != want)
    return fprintf(stderr, "%s: cell %d -> %d: path sums to %lld, want %lld\n", what, s, d, (long long)total,
                   (long long)want),
           1;
  return 0;
}

/* Rows, caller arrays, stream and tables from `ix` against ref (n x n). */
typedef struct {
  const t_arcs* a;
  gsp_dtype dt;
  const int64_t* ref;
  int32_t rows, bad;
} stream_check;

static int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  stream_check* c = (stream_check*)user;
  int32_t r, v;
  (void)pred;
  for (r = 0; r < rows; r++) {
    const int32_t s = first + r;
    for (v = 0; v < c->a->n; v++) {
      const double got = t_dist_at(dist, c->dt, (int64_t)r * c->a->n + v);
      const int64_t want = c->ref[(int64_t)s * c->a->n + v];
      if (want == T_INF_REF ? !(isinf(got) && got > 0) : got != (double)want) c->bad++;
    }
  }
  c->rows += rows;
  return 0;
}

static void check_queries(const gsp_graph* g, const gsp_index* ix, const t_arcs* a, gsp_dtype dt, const int64_t* ref,
                          const char* name) {
  char what[200];
  gsp_options o = index_opts(ix);
  gsp_paths* p = NULL;
  gsp_run_info info;
  int32_t n = a->n, s, v, bad = 0;
  /* One source at a time. */
  for (s = 0; s < n; s += n / 7 + 1) {
    snprintf(what, sizeof what, "%s sssp from %d", name, s);
    CHECK_OK(gsp_sssp_run(g, s, &o, &p));
    if (p == NULL) continue;
    CHECK(t_compare_row(p, dt, s, &ref[(int64_t)s * n], n, 1.0f, what) == 0, "%s", what);
    for (v = 0; v < n; v += 3) bad += t_check_path(p, a, s, v, ref[(int64_t)s * n + v], what);
    info.size = sizeof info;
    CHECK(gsp_paths_info(p, &info) == GSP_OK && info.algorithm == GSP_CH && info.backend == GSP_BACKEND_CPU,
          "%s: run info names algorithm %d", what, (int)info.algorithm);
    gsp_paths_destroy(p);
    p = NULL;
  }
  CHECK(bad == 0, "%s: %d bad sssp paths", name, bad);
  /* Every row at once, with and without paths. */
  snprintf(what, sizeof what, "%s apsp", name);
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &p));
  for (s = 0; p != NULL && s < n; s++) bad += t_compare_row(p, dt, s, &ref[(int64_t)s * n], n, 1.0f, what);
  for (s = 1; p != NULL && s < n; s += 17) {
    for (v = 0; v < n; v += 11) bad += t_check_path(p, a, s, v, ref[(int64_t)s * n + v], what);
  }
  gsp_paths_destroy(p);
  p = NULL;
  CHECK(bad == 0, "%s: %d mismatches", what, bad);
  {
    void* into = malloc((size_t)n * (size_t)n * t_dist_bytes(dt));
    stream_check c = {a, dt, ref, 0, 0};
    o.flags = GSP_NO_PATHS;
    CHECK_OK(gsp_apsp_run_into(g, NULL, 0, &o, into, NULL, NULL));
    for (s = 0; s < n; s++) {
      for (v = 0; v < n; v++) {
        const double got = t_dist_at(into, dt, (int64_t)s * n + v);
        const int64_t want = ref[(int64_t)s * n + v];
        bad += want == T_INF_REF ? !(isinf(got) && got > 0) : got != (double)want;
      }
    }
    CHECK(bad == 0, "%s apsp_run_into: %d mismatches", name, bad);
    CHECK_OK(gsp_apsp_stream(g, NULL, 0, &o, on_rows, &c));
    CHECK(c.rows == n && c.bad == 0, "%s stream: %d rows, %d mismatches", name, c.rows, c.bad);
    o.flags = 0;
    free(into);
  }
  /* Tables: repeated sources and targets, with and without paths, and 1 x 1. */
  {
    enum { K = 13, T = 17 };
    int32_t src[K], dst[T], i, j, paths;
    for (i = 0; i < K; i++) src[i] = (int32_t)((i * 37 + 5) % n);
    for (j = 0; j < T; j++) dst[j] = (int32_t)((j * 53 + 2) % n);
    src[K - 1] = src[0];
    dst[T - 1] = dst[3];
    for (paths = 0; paths <= 1; paths++) {
      gsp_table* t = NULL;
      o.flags = paths ? 0 : GSP_NO_PATHS;
      snprintf(what, sizeof what, "%s table%s", name, paths ? " with paths" : "");
      CHECK_OK(gsp_table_run(g, src, K, dst, T, &o, &t));
      for (i = 0; t != NULL && i < K; i++) {
        for (j = 0; j < T; j++)
          bad += check_cell(t, a, dt, i, j, src[i], dst[j], ref[(int64_t)src[i] * n + dst[j]], paths, what);
      }
      info.size = sizeof info;
      CHECK(t != NULL && gsp_table_info(t, &info) == GSP_OK && info.algorithm == GSP_CH, "%s: run info", what);
      gsp_table_destroy(t);
      /* Point to point: each source to three targets (through the top
         table or below it). */
      for (i = 0; i < K; i++) {
        for (j = i % T; j < T; j += 6) {
          t = NULL;
          CHECK_OK(gsp_table_run(g, &src[i], 1, &dst[j], 1, &o, &t));
          if (t != NULL)
            bad += check_cell(t, a, dt, 0, 0, src[i], dst[j], ref[(int64_t)src[i] * n + dst[j]], paths, what);
          gsp_table_destroy(t);
        }
      }
    }
    o.flags = 0;
    CHECK(bad == 0, "%s tables: %d bad cells", name, bad);
  }
}

/* Every shape with weights >= 0, every type: build, query, save, load. */
static void test_shapes(void) {
  int shape, d;
  char path[256];
  snprintf(path, sizeof path, "/tmp/gsp_test_index_%ld.gspidx", (long)getpid());
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    t_arcs a;
    int64_t* ref;
    int32_t s;
    if (shape == T_DAG_NEGATIVE) continue;
    /* Dense shapes are what a road index is not for: kept small. */
    t_make_shape(&a, shape, shape == T_COMPLETE || shape == T_RANDOM_DENSE ? 80 : 300, 23);
    ref = (int64_t*)malloc((size_t)a.n * (size_t)a.n * sizeof(int64_t));
    for (s = 0; s < a.n; s++) t_ref_bellman_ford(&a, s, &ref[(int64_t)s * a.n]);
    for (d = 0; d < T_NUM_DTYPES; d++) {
      char name[96];
      gsp_graph* g = t_graph(&a, t_dtypes[d], 1.0f);
      gsp_index* ix = NULL;
      gsp_index* back = NULL;
      gsp_run_info info;
      gsp_options o = index_opts(NULL);
      int32_t nv = 0;
      int64_t arcs = -1, shortcuts = -1;
      snprintf(name, sizeof name, "%s/%s", a.name, t_dtype_name(t_dtypes[d]));
      info.size = sizeof info;
      CHECK_OK(gsp_index_build(g, &o, &ix, &info));
      if (ix == NULL) {
        gsp_graph_destroy(g);
        continue;
      }
      CHECK(info.algorithm == GSP_CH && info.seconds >= 0, "%s: build info", name);
      CHECK_OK(gsp_index_size(ix, &nv, &arcs, &shortcuts));
      CHECK(nv == a.n && arcs >= 0 && shortcuts >= 0, "%s: size n %d arcs %lld shortcuts %lld", name, nv,
            (long long)arcs, (long long)shortcuts);
      check_queries(g, ix, &a, t_dtypes[d], ref, name);
      CHECK_OK(gsp_index_save(ix, path));
      CHECK_OK(gsp_index_load(g, path, &back));
      if (back != NULL) {
        char again[128];
        snprintf(again, sizeof again, "%s (loaded)", name);
        check_queries(g, back, &a, t_dtypes[d], ref, again);
      }
      gsp_index_destroy(back);
      gsp_index_destroy(ix);
      gsp_graph_destroy(g);
    }
    free(ref);
    t_arcs_free(&a);
  }
  unlink(path);
}

/* Writes `bytes` of `data` to path. */
static void write_file(const char* path, const void* data, size_t bytes) {
  FILE* f = fopen(path, "wb");
  if (f == NULL) return;
  if (bytes > 0) fwrite(data, 1, bytes, f);
  fclose(f);
}
static size_t read_file(const char* path, char** out) {
  FILE* f = fopen(path, "rb");
  long len;
  *out = NULL;
  if (f == NULL) return 0;
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  *out = (char*)malloc((size_t)len + 1);
  if (fread(*out, 1, (size_t)len, f) != (size_t)len) len = 0;
  fclose(f);
  return (size_t)len;
}

/* Damaged files and other graphs. */
static void test_files(void) {
  t_arcs a;
  gsp_graph *g, *other, *changed;
  gsp_index *ix = NULL, *back = (gsp_index*)&back;
  gsp_options o = index_opts(NULL);
  char path[256], bad_path[256], *data = NULL;
  size_t len;
  gsp_status st;
  snprintf(path, sizeof path, "/tmp/gsp_test_index_files_%ld.gspidx", (long)getpid());
  snprintf(bad_path, sizeof bad_path, "/tmp/gsp_test_index_bad_%ld.gspidx", (long)getpid());
  t_make_shape(&a, T_GRID, 400, 5);
  g = t_graph(&a, GSP_I32, 1.0f);
  a.w[a.m / 2] += 1;
  changed = t_graph(&a, GSP_I32, 1.0f);
  a.w[a.m / 2] -= 1;
  t_arcs_free(&a);
  t_make_shape(&a, T_RANDOM_SPARSE, 120, 5);
  other = t_graph(&a, GSP_I32, 1.0f);
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  CHECK_OK(gsp_index_save(ix, path));
  len = read_file(path, &data);
  CHECK(len > 100, "index file of %zu bytes", len);
  if (len > 100) {
    /* Cut short, one byte flipped in the arrays, in the header, another file. */
    write_file(bad_path, data, len - 9);
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE && back == NULL && strstr(gsp_last_error(), bad_path) != NULL &&
              strstr(gsp_last_error(), "cut short") != NULL,
          "cut short: %s %s", gsp_status_name(st), gsp_last_error());
    data[len / 2] ^= 0x40;
    write_file(bad_path, data, len);
    back = (gsp_index*)&back;
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE && back == NULL && strstr(gsp_last_error(), "checksum") != NULL,
          "one byte flipped: %s %s", gsp_status_name(st), gsp_last_error());
    data[len / 2] ^= 0x40;
    data[20] ^= 0x01; /* n */
    write_file(bad_path, data, len);
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE, "header damaged: %s %s", gsp_status_name(st), gsp_last_error());
    data[20] ^= 0x01;
    data[8] = 9; /* version */
    write_file(bad_path, data, len);
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE && strstr(gsp_last_error(), "version") != NULL, "version: %s %s", gsp_status_name(st),
          gsp_last_error());
    write_file(bad_path, "p sp 3 2\na 1 2 5\n", 17);
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE && strstr(gsp_last_error(), "GSPINDEX") != NULL, "a graph file: %s %s",
          gsp_status_name(st), gsp_last_error());
    write_file(bad_path, "", 0);
    st = gsp_index_load(g, bad_path, &back);
    CHECK(st == GSP_ERR_PARSE, "empty file: %s %s", gsp_status_name(st), gsp_last_error());
  }
  free(data);
  unlink(bad_path);
  st = gsp_index_load(g, bad_path, &back);
  CHECK(st == GSP_ERR_IO && strstr(gsp_last_error(), bad_path) != NULL, "missing file: %s %s", gsp_status_name(st),
        gsp_last_error());
  /* Another graph: when loaded, and when a run is given the index. */
  st = gsp_index_load(other, path, &back);
  CHECK(st == GSP_ERR_INVALID_ARGUMENT && strstr(gsp_last_error(), "another graph") != NULL, "other graph: %s %s",
        gsp_status_name(st), gsp_last_error());
  st = gsp_index_load(changed, path, &back);
  CHECK(st == GSP_ERR_INVALID_ARGUMENT && strstr(gsp_last_error(), "same size") != NULL, "changed graph: %s %s",
        gsp_status_name(st), gsp_last_error());
  {
    gsp_paths* p = NULL;
    gsp_table* t = NULL;
    int32_t zero = 0;
    o = index_opts(ix);
    CHECK_STATUS(gsp_sssp_run(other, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gsp_table_run(changed, &zero, 1, &zero, 1, &o, &t), GSP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gsp_apsp_run(changed, NULL, 0, &o, &p), GSP_ERR_INVALID_ARGUMENT);
    /* Another algorithm named: the index is not used. */
    o.algorithm = GSP_SSSP_DIJKSTRA;
    CHECK_OK(gsp_sssp_run(changed, 0, &o, &p));
    gsp_paths_destroy(p);
    p = NULL;
    /* GSP_CH without an index; CUDA asked with one. */
    o = index_opts(NULL);
    o.algorithm = GSP_CH;
    st = gsp_sssp_run(g, 0, &o, &p);
    CHECK(st == GSP_ERR_INVALID_ARGUMENT && strstr(gsp_last_error(), "options.index") != NULL,
          "ch without index: %s %s", gsp_status_name(st), gsp_last_error());
    o = index_opts(ix);
    o.backend = GSP_BACKEND_CUDA;
    st = gsp_sssp_run(g, 0, &o, &p);
    /* CUDA sweeps an index's rows (tests/gpu/test_gpu_index.c checks them). */
    if (gsp_backend_available(GSP_BACKEND_CUDA)) {
      CHECK(st == GSP_OK, "CUDA with an index: %s %s", gsp_status_name(st), gsp_last_error());
    } else {
      CHECK(st == GSP_ERR_NO_DEVICE, "CUDA with an index, no device: %s", gsp_status_name(st));
    }
    gsp_paths_destroy(p);
    p = NULL;
  }
  CHECK_STATUS(gsp_index_save(NULL, path), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_index_save(ix, "/nonexistent-dir/x.gspidx"), GSP_ERR_IO);
  CHECK_STATUS(gsp_index_load(NULL, path, &back), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_index_size(NULL, NULL, NULL, NULL), GSP_ERR_INVALID_ARGUMENT);
  gsp_index_destroy(NULL);
  gsp_index_destroy(ix);
  unlink(path);
  gsp_graph_destroy(g);
  gsp_graph_destroy(changed);
  gsp_graph_destroy(other);
  t_arcs_free(&a);
}

static int stop_at_half(void* user, double done) {
  (void)user;
  return done >= 0.5;
}

/* Negative weights, cancellation, int32 overflow, a limit. */
static void test_rules(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_index* ix = (gsp_index*)&ix;
  gsp_options o = index_opts(NULL);
  gsp_status st;
  t_make_shape(&a, T_DAG_NEGATIVE, 50, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  st = gsp_index_build(g, &o, &ix, NULL);
  CHECK(st == GSP_ERR_NEGATIVE_WEIGHT && ix == NULL, "negative weights: %s", gsp_status_name(st));
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  t_make_shape(&a, T_GRID, 900, 3);
  g = t_graph(&a, GSP_F32, 1.0f);
  o.progress = stop_at_half;
  ix = (gsp_index*)&ix;
  st = gsp_index_build(g, &o, &ix, NULL);
  CHECK(st == GSP_ERR_CANCELLED && ix == NULL, "cancelled build: %s", gsp_status_name(st));
  o.progress = NULL;
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  {
    gsp_paths* p = NULL;
    int32_t v, beyond = 0, within = 0;
    float* d = (float*)malloc((size_t)a.n * sizeof(float));
    int64_t* ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
    t_ref_bellman_ford(&a, 7, ref);
    o = index_opts(ix);
    o.limit = 40;
    CHECK_OK(gsp_sssp_run(g, 7, &o, &p));
    if (p != NULL && gsp_paths_distances(p, 7, d, a.n) == GSP_OK) {
      for (v = 0; v < a.n; v++) {
        if (ref[v] != T_INF_REF && ref[v] <= 40)
          within += d[v] == (float)ref[v];
        else
          beyond += isinf(d[v]);
      }
    }
    CHECK(within + beyond == a.n, "limit: %d within, %d beyond of %d", within, beyond, a.n);
    gsp_paths_destroy(p);
    free(d);
    free(ref);
  }
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  {
    /* 0 -> 1 -> 2 of 2e9 each: the distance to 2 does not fit int32. */
    int32_t s3[2] = {0, 1}, t3[2] = {1, 2}, w3[2] = {2000000000, 2000000000};
    gsp_paths* p = NULL;
    g = NULL;
    CHECK_OK(gsp_graph_create(&g, 3, 2, s3, t3, w3, GSP_I32, 0));
    o = index_opts(NULL);
    ix = NULL;
    CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
    o.index = ix;
    st = gsp_sssp_run(g, 0, &o, &p);
    CHECK(st == GSP_ERR_OVERFLOW, "int32 overflow: %s %s", gsp_status_name(st), gsp_last_error());
    gsp_paths_destroy(p);
    gsp_index_destroy(ix);
    gsp_graph_destroy(g);
  }
}

/* New York, when there: rows and a table against Dijkstra. */
static void test_ny(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char ny[1024];
  gsp_graph* g = NULL;
  gsp_index* ix = NULL;
  gsp_options o = index_opts(NULL), plain;
  double t0;
  int32_t n, k, bad = 0;
  if (dir == NULL || !*dir) dir = "../shared/data";
  snprintf(ny, sizeof ny, "%s/USA-road-d.NY.gr.gz", dir);
  if (access(ny, R_OK) != 0) {
    printf("SKIP part: %s not found (set GSP_DATA_DIR)\n", ny);
    return;
  }
  CHECK_OK(gsp_graph_load(&g, ny, GSP_FORMAT_AUTO, GSP_I32, 0));
  if (g == NULL) return;
  n = gsp_graph_num_vertices(g);
  o.num_threads = 0;
  t0 = now();
  CHECK_OK(gsp_index_build(g, &o, &ix, NULL));
  printf("NY: index built in %.2f s\n", now() - t0);
  o = index_opts(ix);
  gsp_options_init(&plain);
  plain.backend = GSP_BACKEND_CPU;
  plain.algorithm = GSP_SSSP_DIJKSTRA;
  for (k = 0; k < 4 && ix != NULL; k++) {
    const int32_t s = (int32_t)(((int64_t)k * 104729) % n);
    gsp_paths *a = NULL, *b = NULL;
    int32_t* da = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    int32_t* db = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    CHECK_OK(gsp_sssp_run(g, s, &o, &a));
    CHECK_OK(gsp_sssp_run(g, s, &plain, &b));
    if (a != NULL && b != NULL && gsp_paths_distances(a, s, da, n) == GSP_OK &&
        gsp_paths_distances(b, s, db, n) == GSP_OK) {
      bad += memcmp(da, db, (size_t)n * sizeof(int32_t)) != 0;
    }
    gsp_paths_destroy(a);
    gsp_paths_destroy(b);
    free(da);
    free(db);
  }
  CHECK(bad == 0, "NY: %d rows differ from Dijkstra", bad);
  if (ix != NULL) {
    enum { K = 40 };
    int32_t src[K], i;
    gsp_table *a = NULL, *b = NULL;
    int32_t da[K * K], db[K * K];
    for (i = 0; i < K; i++) src[i] = (int32_t)(((int64_t)i * 7919 + 11) % n);
    plain.algorithm = GSP_ALGO_AUTO;
    o.flags = GSP_NO_PATHS;
    plain.flags = GSP_NO_PATHS;
    CHECK_OK(gsp_table_run(g, src, K, src, K, &o, &a));
    CHECK_OK(gsp_table_run(g, src, K, src, K, &plain, &b));
    if (a != NULL && b != NULL && gsp_table_distances(a, da, K * K) == GSP_OK &&
        gsp_table_distances(b, db, K * K) == GSP_OK) {
      CHECK(memcmp(da, db, sizeof da) == 0, "NY: the table differs from the CPU's");
      /* Point to point (through the top table: New York's has 2,048
         positions) against the table's buckets, which search whole. */
      for (i = 0; i < K; i++) {
        const int32_t j = (i * 7 + 3) % K;
        int32_t d = -1;
        CHECK_OK(gsp_table_run_into(g, &src[i], 1, &src[j], 1, &o, &d, NULL));
        CHECK(d == da[i * K + j], "NY: point to point %d -> %d is %d, the table says %d", src[i], src[j], d,
              da[i * K + j]);
      }
    }
    gsp_table_destroy(a);
    gsp_table_destroy(b);
  }
  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
}

int main(void) {
  test_shapes();
  test_files();
  test_rules();
  test_ny();
  return t_finish("test_index");
}
