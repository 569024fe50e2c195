/* The gsp_tools generators: deterministic per seed, the promised shapes and
 * sizes, f32 and i32 giving the same graph, random and R-MAT the same on any
 * number of threads (and of one random stream, the sequential generators'
 * graphs), the road graph's hierarchy of fast roads and its connectivity,
 * and the coordinate files. */
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

/* gsp_gen_road's class of road `line` (a row or a column): 2 highway, 1
 * arterial, 0 local street. */
static int road_class(int32_t line) { return line % 64 == 0 ? 2 : line % 8 == 0 ? 1 : 0; }

/* Distances from `source` on the CPU into d (n values); 0 on failure. */
static int road_distances(const gsp_graph* g, int32_t source, int32_t* d) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_status s;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.flags = GSP_NO_PATHS;
  s = gsp_sssp_run(g, source, &o, &p);
  CHECK(s == GSP_OK, "road: sssp from %d: %s %s", source, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) s = gsp_paths_distances(p, source, d, gsp_graph_num_vertices(g));
  gsp_paths_destroy(p);
  return s == GSP_OK;
}

/* gsp_gen_road, max_weight 100: the lattice's segments less some local
 * ones, two arcs of equal weight each, every arterial and highway segment
 * kept, travel times by class (local 50..100, arterial 17..33, highway
 * 5..10), connected; deterministic per seed; the fast roads make far
 * trips cheap; bad arguments refused with a message. */
static void test_road(void) {
  const int32_t shapes[][2] = {{129, 129}, {1, 1}, {1, 50}, {70, 13}, {3, 1000}, {200, 67}};
  const int32_t wlo[3] = {50, 17, 5}, whi[3] = {100, 33, 10};
  int sh;
  for (sh = 0; sh < (int)(sizeof shapes / sizeof shapes[0]); sh++) {
    const int32_t rows = shapes[sh][0], cols = shapes[sh][1], n = rows * cols;
    gsp_graph* g = NULL;
    csr_t c;
    int32_t u, *d;
    int64_t e, f, segments = 0, fast = 0, fast_arcs = 0, local = 0, bad = 0;
    CHECK_OK(gsp_gen_road(&g, rows, cols, 5, GSP_I32, 100));
    if (g == NULL) continue;
    CHECK(gsp_gen_error()[0] == 0, "road: a message after success: %s", gsp_gen_error());
    c = get_csr(g);
    for (u = 0; u < n; u++) { /* the full lattice's segments, by class */
      const int32_t i = u / cols, j = u % cols;
      if (j + 1 < cols) {
        segments++;
        if (road_class(i) > 0)
          fast++;
        else
          local++;
      }
      if (i + 1 < rows) {
        segments++;
        if (road_class(j) > 0)
          fast++;
        else
          local++;
      }
    }
    CHECK(c.n == n, "road %d x %d: n=%d", rows, cols, c.n);
    CHECK(c.m % 2 == 0 && c.m / 2 <= segments && c.m / 2 >= fast, "road %d x %d: m=%lld of %lld segments", rows, cols,
          (long long)c.m, (long long)segments);
    for (u = 0; u < n && bad < 5; u++)
      for (e = c.off[u]; e < c.off[u + 1] && bad < 5; e++) {
        const int32_t v = c.dst[e], i = u / cols, j = u % cols;
        const int along_row = v / cols == i && (v == u + 1 || v == u - 1);
        const int along_col = v % cols == j && (v == u + cols || v == u - cols);
        int back = 0, cl;
        if (!along_row && !along_col) {
          CHECK(0, "road %d x %d: arc %d->%d joins no neighbours", rows, cols, u, v);
          bad++;
          continue;
        }
        cl = road_class(along_row ? i : j);
        if (cl > 0) fast_arcs++;
        if (c.wi[e] < wlo[cl] || c.wi[e] > whi[cl]) {
          CHECK(0, "road %d x %d: arc %d->%d of class %d weighs %d", rows, cols, u, v, cl, c.wi[e]);
          bad++;
        }
        for (f = c.off[v]; f < c.off[v + 1]; f++)
          if (c.dst[f] == u) back += c.wi[f] == c.wi[e] ? 1 : 100;
        if (back != 1) {
          CHECK(0, "road %d x %d: arc %d->%d: no single way back of equal weight (%d)", rows, cols, u, v, back);
          bad++;
        }
      }
    CHECK(fast_arcs == 2 * fast, "road %d x %d: %lld arcs on fast roads, want %lld (none dropped)", rows, cols,
          (long long)fast_arcs, (long long)(2 * fast));
    if (local > 10000) { /* about 1 in 10 local segments dropped */
      const double dropped = (double)(segments - c.m / 2) / (double)local;
      CHECK(dropped > 0.05 && dropped < 0.12, "road %d x %d: %.3f of the local segments dropped", rows, cols, dropped);
    }
    d = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    if (road_distances(g, 0, d)) {
      for (u = 0; u < n; u++)
        if (d[u] == GSP_I32_INF) {
          CHECK(0, "road %d x %d (seed 5): vertex %d unreachable from 0", rows, cols, u);
          break;
        }
      if (rows == 129 && cols == 129) {
        /* Corner to corner along highways row 0 and column 128: at most 256
         * x 10, where local streets alone cost at least 256 x 50. From
         * (4, 4) to (124, 124), both off the fast roads: within a third of
         * the local streets' 240 x 50. */
        const int32_t far = 124 * cols + 124;
        CHECK(d[n - 1] <= 256 * 10 && d[n - 1] * 3 < 256 * 50, "road: corner to corner %d", d[n - 1]);
        if (road_distances(g, 4 * cols + 4, d))
          CHECK(d[far] * 3 < 240 * 50, "road: (4, 4) to (124, 124) %d, not a third of 240 x 50", d[far]);
      }
    }
    free(d);
    free_csr(&c);
    gsp_graph_destroy(g);
  }
  /* connected for other seeds, and more drops: a long thin strip */
  {
    uint64_t seed;
    for (seed = 1; seed <= 20; seed++) {
      gsp_graph* g = NULL;
      const int32_t rows = 40, cols = 47;
      int32_t* d = (int32_t*)malloc((size_t)rows * cols * sizeof(int32_t));
      int32_t u;
      CHECK_OK(gsp_gen_road(&g, rows, cols, seed, GSP_I32, 7));
      if (g != NULL && road_distances(g, 0, d))
        for (u = 0; u < rows * cols; u++)
          if (d[u] == GSP_I32_INF) {
            CHECK(0, "road 40 x 47 seed %llu: vertex %d unreachable", (unsigned long long)seed, u);
            break;
          }
      free(d);
      gsp_graph_destroy(g);
    }
  }
  /* deterministic per seed; f32 and f64 the same values; by name */
  {
    gsp_graph *a = NULL, *b = NULL, *c = NULL, *f = NULL, *x = NULL, *named = NULL;
    csr_t ca, cb, cc, cf, cn;
    double* wd;
    int64_t e;
    CHECK_OK(gsp_gen_road(&a, 100, 90, 11, GSP_I32, 0));
    CHECK_OK(gsp_gen_road(&b, 100, 90, 11, GSP_I32, 0));
    CHECK_OK(gsp_gen_road(&c, 100, 90, 12, GSP_I32, 0));
    CHECK_OK(gsp_gen_road(&f, 100, 90, 11, GSP_F32, 0));
    CHECK_OK(gsp_gen_road(&x, 100, 90, 11, GSP_F64, 0));
    CHECK_OK(gsp_gen_by_name(&named, "road", 100 * 100, 0, 11, GSP_I32, 0));
    if (a && b && c && f && x && named) {
      ca = get_csr(a);
      cb = get_csr(b);
      cc = get_csr(c);
      cf = get_csr(f);
      cn = get_csr(named);
      CHECK(same(&ca, &cb), "road: same seed, different graphs");
      CHECK(!same(&ca, &cc), "road: different seeds, same graph");
      CHECK(gsp_graph_weight_type(f) == GSP_F32 && cf.m == ca.m && memcmp(cf.dst, ca.dst, (size_t)ca.m * 4) == 0,
            "road: f32 graph");
      wd = (double*)malloc((size_t)(ca.m + 1) * sizeof(double));
      CHECK(gsp_graph_weight_type(x) == GSP_F64 && gsp_graph_num_edges(x) == ca.m, "road: f64 graph");
      CHECK_OK(gsp_graph_csr(x, cb.off, cb.dst, wd));
      for (e = 0; e < ca.m; e++)
        if (cf.wf[e] != (float)ca.wi[e] || wd[e] != (double)ca.wi[e]) {
          CHECK(0, "road: f32/f64 weight %lld differs", (long long)e);
          break;
        }
      CHECK(cn.n == 100 * 100 && cn.m > 0, "road by name: n=%d", cn.n);
      free(wd);
      free_csr(&ca);
      free_csr(&cb);
      free_csr(&cc);
      free_csr(&cf);
      free_csr(&cn);
    }
    gsp_graph_destroy(a);
    gsp_graph_destroy(b);
    gsp_graph_destroy(c);
    gsp_graph_destroy(f);
    gsp_graph_destroy(x);
    gsp_graph_destroy(named);
  }
  /* bad arguments: GSP_ERR_INVALID_ARGUMENT, no graph, a message */
  {
    gsp_graph* g = (gsp_graph*)&g;
    CHECK_STATUS(gsp_gen_road(&g, 0, 5, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL && strstr(gsp_gen_error(), "0 x 5") != NULL, "road 0 x 5: %p '%s'", (void*)g, gsp_gen_error());
    g = (gsp_graph*)&g;
    CHECK_STATUS(gsp_gen_road(&g, 5, -1, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL && gsp_gen_error()[0] != 0, "road 5 x -1");
    CHECK_STATUS(gsp_gen_road(&g, 65536, 65536, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL && strstr(gsp_gen_error(), "rows * cols") != NULL, "road 65536 x 65536: '%s'", gsp_gen_error());
    CHECK_STATUS(gsp_gen_road(&g, 5, 5, 1, (gsp_dtype)9, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL && strstr(gsp_gen_error(), "dtype") != NULL, "road dtype 9: '%s'", gsp_gen_error());
    CHECK_STATUS(gsp_gen_road(NULL, 5, 5, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(gsp_gen_error()[0] != 0, "road NULL graph: no message");
    CHECK_STATUS(gsp_gen_by_name(&g, "road", 0, 0, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL, "road by name, 0 vertices: a graph");
  }
}

int main(void) {
  const char* kinds[] = {"random", "rmat", "grid", "ring", "complete", "dag", "road"};
  int k;
  test_road();
  for (k = 0; k < 7; k++) {
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
      case 6: { /* road: 32 x 32 like the grid, some local segments dropped */
        const int64_t full = 2 * (32 * 31 + 32 * 31);
        CHECK(ca.n == 1024 && ca.m <= full && ca.m > full * 8 / 10, "road: n=%d m=%lld", ca.n, (long long)ca.m);
        break;
      }
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
    CHECK(strstr(gsp_gen_error(), "0 vertices") != NULL, "random n = 0: '%s'", gsp_gen_error());
    CHECK_STATUS(gsp_gen_grid(&g, 0, 5, 1, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gsp_gen_error(), "0 x 5") != NULL, "grid 0 x 5: '%s'", gsp_gen_error());
    CHECK_STATUS(gsp_gen_ring(&g, 5, 1, (gsp_dtype)9, 0), GSP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gsp_gen_error(), "dtype 9") != NULL, "ring dtype 9: '%s'", gsp_gen_error());
    CHECK_OK(gsp_gen_ring(&g, 5, 1, GSP_I32, 0));
    CHECK(gsp_gen_error()[0] == 0, "ring: a message after success: '%s'", gsp_gen_error());
    gsp_graph_destroy(g);
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
