/* The gsp_tools generators: deterministic per seed, the promised shapes and
 * sizes, f32 and i32 giving the same graph, random and R-MAT the same on any
 * number of threads (and of one random stream, the sequential generators'
 * graphs), and the coordinate files. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* setenv */
#endif
#include <math.h>

#include "gsp_generators.h"
#include "testing.h"

typedef struct {
  int32_t n;
  int64_t m;
  int64_t* off;
  int32_t* dst;
  int32_t* wi;
  float* wf;
} csr_t;

static csr_t get_csr(const gsp_graph* g) {
  csr_t c;
  c.n = gsp_graph_num_vertices(g);
  c.m = gsp_graph_num_edges(g);
  c.off = (int64_t*)malloc(((size_t)c.n + 1) * sizeof(int64_t));
  c.dst = (int32_t*)malloc((size_t)(c.m + 1) * sizeof(int32_t));
  c.wi = (int32_t*)malloc((size_t)(c.m + 1) * 4);
  c.wf = (float*)malloc((size_t)(c.m + 1) * 4);
  gsp_graph_csr(g, c.off, c.dst, gsp_graph_weight_type(g) == GSP_I32 ? (void*)c.wi : (void*)c.wf);
  return c;
}
static void free_csr(csr_t* c) {
  free(c->off);
  free(c->dst);
  free(c->wi);
  free(c->wf);
}

static int same(const csr_t* a, const csr_t* b) {
  return a->n == b->n && a->m == b->m && memcmp(a->off, b->off, ((size_t)a->n + 1) * 8) == 0 &&
         memcmp(a->dst, b->dst, (size_t)a->m * 4) == 0 && memcmp(a->wi, b->wi, (size_t)a->m * 4) == 0;
}

/* The sequential generators that random and R-MAT replaced, for graphs of
 * one random stream (at most 65536 vertices / 2^20 arcs), which must come
 * out the same: splitmix64, arcs drawn in order, then sorted by tail
 * (stable) as gsp_graph_create does. */
static uint64_t old_next(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int64_t old_below(uint64_t* s, int64_t k) { return (int64_t)(old_next(s) % (uint64_t)k); }

static gsp_graph* old_generator(int rmat, int32_t n, int32_t degree, uint64_t seed, int32_t maxw) {
  const int64_t m = (int64_t)n * degree;
  int32_t* src = (int32_t*)malloc((size_t)m * 4);
  int32_t* dst = (int32_t*)malloc((size_t)m * 4);
  int32_t* w = (int32_t*)malloc((size_t)m * 4);
  uint64_t st = seed ^ (rmat ? 0x524D415400000002ull : 0x52414E444F4D0001ull);
  int32_t scale = 0, b;
  int64_t k;
  gsp_graph* g = NULL;
  while (((int64_t)1 << scale) < n) scale++;
  for (k = 0; k < m; k++) {
    int64_t u = k / degree, v;
    if (rmat) {
      do {
        u = 0;
        v = 0;
        for (b = 0; b < scale; b++) {
          int64_t q = old_below(&st, 100);
          if (q < 57) {
          } else if (q < 76) {
            v |= (int64_t)1 << b;
          } else if (q < 95) {
            u |= (int64_t)1 << b;
          } else {
            u |= (int64_t)1 << b;
            v |= (int64_t)1 << b;
          }
        }
      } while (u >= n || v >= n);
    } else {
      v = old_below(&st, n > 1 ? n - 1 : 1);
      if (n > 1 && v >= u) v++;
    }
    src[k] = (int32_t)u;
    dst[k] = (int32_t)v;
    w[k] = (int32_t)(1 + old_below(&st, maxw));
  }
  if (gsp_graph_create(&g, n, m, src, dst, w, GSP_I32, 0) != GSP_OK) g = NULL;
  free(src);
  free(dst);
  free(w);
  return g;
}

int main(void) {
  const char* kinds[] = {"random", "rmat", "grid", "ring", "complete", "dag"};
  int k;
  for (k = 0; k < 6; k++) {
    gsp_graph *a = NULL, *b = NULL, *c = NULL, *f = NULL;
    const int32_t n = k == 4 ? 40 : 1000;
    csr_t ca, cb, cc, cf;
    int64_t e;
    int32_t u;
    CHECK_OK(gsp_gen_by_name(&a, kinds[k], n, 0, 42, GSP_I32, 0));
    CHECK_OK(gsp_gen_by_name(&b, kinds[k], n, 0, 42, GSP_I32, 0));
    CHECK_OK(gsp_gen_by_name(&c, kinds[k], n, 0, 43, GSP_I32, 0));
    CHECK_OK(gsp_gen_by_name(&f, kinds[k], n, 0, 42, GSP_F32, 0));
    if (!a || !b || !c || !f) continue;
    ca = get_csr(a);
    cb = get_csr(b);
    cc = get_csr(c);
    cf = get_csr(f);
    CHECK(same(&ca, &cb), "%s: same seed, different graphs", kinds[k]);
    CHECK(!same(&ca, &cc), "%s: different seeds, same graph", kinds[k]);
    CHECK(gsp_graph_weight_type(f) == GSP_F32 && cf.m == ca.m, "%s: f32 graph", kinds[k]);
    for (e = 0; e < ca.m && e < cf.m; e++)
      if (cf.wf[e] != (float)ca.wi[e]) {
        CHECK(0, "%s: f32 weight %lld differs", kinds[k], (long long)e);
        break;
      }
    switch (k) {
      case 0: /* random: degree 6, no self-loops, weights 1..100 */
        CHECK(ca.n == n && ca.m == 6 * (int64_t)n, "random: n=%d m=%lld", ca.n, (long long)ca.m);
        for (u = 0; u < ca.n; u++) {
          CHECK(ca.off[u + 1] - ca.off[u] == 6, "random: degree of %d", u);
          for (e = ca.off[u]; e < ca.off[u + 1]; e++)
            if (ca.dst[e] == u || ca.wi[e] < 1 || ca.wi[e] > 100) {
              CHECK(0, "random: arc %lld", (long long)e);
              break;
            }
        }
        break;
      case 1: { /* rmat: skewed degrees */
        int64_t maxdeg = 0;
        CHECK(ca.m == 6 * (int64_t)n, "rmat: m=%lld", (long long)ca.m);
        for (u = 0; u < ca.n; u++)
          if (ca.off[u + 1] - ca.off[u] > maxdeg) maxdeg = ca.off[u + 1] - ca.off[u];
        CHECK(maxdeg > 30, "rmat: max degree %lld is not power-law-like", (long long)maxdeg);
        break;
      }
      case 2: { /* grid: 32 x 32 (ceil(sqrt(1000)) rows), two-way streets with equal weights */
        int32_t rows, cols;
        gsp_gen_grid_shape(n, &rows, &cols);
        CHECK(rows == 32 && cols == 32 && ca.n == 1024, "grid: %d x %d, n=%d", rows, cols, ca.n);
        CHECK(ca.m == 2 * ((int64_t)rows * (cols - 1) + (int64_t)cols * (rows - 1)), "grid: m=%lld", (long long)ca.m);
        break;
      }
      case 3: /* ring */
        CHECK(ca.m == n, "ring: m=%lld", (long long)ca.m);
        for (u = 0; u < ca.n; u++) CHECK(ca.dst[ca.off[u]] == (u + 1) % n, "ring: arc from %d", u);
        break;
      case 4: /* complete */ CHECK(ca.m == (int64_t)n * (n - 1), "complete: m=%lld", (long long)ca.m); break;
      default: { /* dag: arcs go forward, some negative; Bellman-Ford runs without a negative cycle */
        int64_t neg = 0;
        gsp_options o;
        gsp_paths* p = NULL;
        for (u = 0; u < ca.n; u++)
          for (e = ca.off[u]; e < ca.off[u + 1]; e++) {
            if (ca.dst[e] <= u) {
              CHECK(0, "dag: backward arc %d->%d", u, ca.dst[e]);
            }
            if (ca.wi[e] < 0) neg++;
          }
        CHECK(neg > 0, "dag: no negative arcs");
        gsp_options_init(&o);
        o.backend = GSP_BACKEND_CPU;
        o.algorithm = GSP_SSSP_BELLMAN_FORD;
        CHECK_OK(gsp_sssp_run(a, 0, &o, &p));
        gsp_paths_destroy(p);
        break;
      }
    }
    free_csr(&ca);
    free_csr(&cb);
    free_csr(&cc);
    free_csr(&cf);
    gsp_graph_destroy(a);
    gsp_graph_destroy(b);
    gsp_graph_destroy(c);
    gsp_graph_destroy(f);
  }
  /* random and R-MAT: of one stream, the sequential generators' graphs */
  for (k = 0; k < 2; k++) {
    const int32_t ns[3] = {1000, 65536, 4097};
    int i;
    for (i = 0; i < 3; i++) {
      gsp_graph *a = NULL, *b = old_generator(k, ns[i], k ? 16 : 6, 7, 255);
      csr_t ca, cb;
      CHECK_OK(k ? gsp_gen_rmat(&a, ns[i], 16, 7, GSP_I32, 255) : gsp_gen_random(&a, ns[i], 6, 7, GSP_I32, 255));
      if (!a || !b) continue;
      ca = get_csr(a);
      cb = get_csr(b);
      CHECK(same(&ca, &cb), "%s n=%d: not the sequential generator's graph", kinds[k], ns[i]);
      free_csr(&ca);
      free_csr(&cb);
      gsp_graph_destroy(a);
      gsp_graph_destroy(b);
    }
  }
  /* random and R-MAT of several streams: the same graph on 1 and 3 threads,
   * and the *_csr arrays are the graph's */
  for (k = 0; k < 2; k++) {
    const int32_t n = k ? (1 << 17) + 5 : 200001, deg = k ? 12 : 5;
    gsp_graph *one = NULL, *three = NULL;
    gsp_gen_csr arrays;
    csr_t c1, c3;
    setenv("GSP_GEN_THREADS", "1", 1);
    CHECK_OK(k ? gsp_gen_rmat(&one, n, deg, 9, GSP_I32, 0) : gsp_gen_random(&one, n, deg, 9, GSP_I32, 0));
    setenv("GSP_GEN_THREADS", "3", 1);
    CHECK_OK(k ? gsp_gen_rmat(&three, n, deg, 9, GSP_I32, 0) : gsp_gen_random(&three, n, deg, 9, GSP_I32, 0));
    CHECK_OK(k ? gsp_gen_rmat_csr(&arrays, n, deg, 9, GSP_I32, 0) : gsp_gen_random_csr(&arrays, n, deg, 9, GSP_I32, 0));
    unsetenv("GSP_GEN_THREADS");
    if (!one || !three || !arrays.offsets) continue;
    c1 = get_csr(one);
    c3 = get_csr(three);
    CHECK(c1.m == (int64_t)n * deg, "%s: m=%lld", kinds[k], (long long)c1.m);
    CHECK(same(&c1, &c3), "%s: 1 and 3 threads give different graphs", kinds[k]);
    CHECK(arrays.n == n && arrays.m == c1.m && arrays.dtype == GSP_I32 &&
              memcmp(arrays.offsets, c1.off, ((size_t)n + 1) * 8) == 0 &&
              memcmp(arrays.targets, c1.dst, (size_t)c1.m * 4) == 0 &&
              memcmp(arrays.weights, c1.wi, (size_t)c1.m * 4) == 0,
          "%s: the _csr arrays are not the graph's", kinds[k]);
    free_csr(&c1);
    free_csr(&c3);
    gsp_gen_csr_free(&arrays);
    gsp_graph_destroy(one);
    gsp_graph_destroy(three);
  }
  /* bad arguments */
  {
    gsp_graph* g = (gsp_graph*)&g;
    CHECK_STATUS(gsp_gen_by_name(&g, "nonsense", 10, 0, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL, "failed generator left a graph");
    CHECK_STATUS(gsp_gen_random(&g, 0, 6, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(gsp_gen_grid(&g, 0, 5, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  }
  /* the seed papers' Graph4096: 4096 vertices of out-degree 6 */
  {
    gsp_graph* g = NULL;
    CHECK_OK(gsp_gen_random(&g, 4096, 6, 4096, GSP_F32, 10));
    CHECK(g && gsp_graph_num_edges(g) == 4096 * 6, "Graph4096");
    gsp_graph_destroy(g);
  }
  /* coordinate files: write, read back, errors with line numbers */
  {
    double xy[6] = {1.5, -2, 3, 4.25, -5, 6}, *back = NULL;
    char err[256];
    FILE* f;
    CHECK(gsp_coords_write("gen_coords.co", 3, xy, err, sizeof err) == 0, "write: %s", err);
    CHECK(gsp_coords_read("gen_coords.co", 3, &back, err, sizeof err) == 0, "read: %s", err);
    CHECK(back && memcmp(back, xy, sizeof xy) == 0, "coordinates differ");
    free(back);
    back = NULL;
    f = fopen("gen_bad.co", "w");
    fputs("c x\np aux sp co 3\nv 1 1 2\nv 9 1 2\n", f);
    fclose(f);
    CHECK(gsp_coords_read("gen_bad.co", 3, &back, err, sizeof err) != 0 && back == NULL, "bad id accepted");
    CHECK(strstr(err, "gen_bad.co:4: expected a vertex id in 1..3, got '9'") != NULL, "message: %s", err);
    CHECK(gsp_coords_read("no/such.co", 3, &back, err, sizeof err) != 0 && strstr(err, "No such file"), "%s", err);
    remove("gen_coords.co");
    remove("gen_bad.co");
  }
  return t_finish("test_generators");
}
