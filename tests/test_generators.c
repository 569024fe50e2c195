/* The gsp_tools generators: deterministic per seed, the promised shapes and
 * sizes, f32 and i32 giving the same graph, and the coordinate files. */
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
static void free_csr(csr_t* c) { free(c->off); free(c->dst); free(c->wi); free(c->wf); }

static int same(const csr_t* a, const csr_t* b) {
  return a->n == b->n && a->m == b->m && memcmp(a->off, b->off, ((size_t)a->n + 1) * 8) == 0 &&
         memcmp(a->dst, b->dst, (size_t)a->m * 4) == 0 && memcmp(a->wi, b->wi, (size_t)a->m * 4) == 0;
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
      if (cf.wf[e] != (float)ca.wi[e]) { CHECK(0, "%s: f32 weight %lld differs", kinds[k], (long long)e); break; }
    switch (k) {
      case 0: /* random: degree 6, no self-loops, weights 1..100 */
        CHECK(ca.n == n && ca.m == 6 * (int64_t)n, "random: n=%d m=%lld", ca.n, (long long)ca.m);
        for (u = 0; u < ca.n; u++) {
          CHECK(ca.off[u + 1] - ca.off[u] == 6, "random: degree of %d", u);
          for (e = ca.off[u]; e < ca.off[u + 1]; e++)
            if (ca.dst[e] == u || ca.wi[e] < 1 || ca.wi[e] > 100) { CHECK(0, "random: arc %lld", (long long)e); break; }
        }
        break;
      case 1: { /* rmat: skewed degrees */
        int64_t maxdeg = 0;
        CHECK(ca.m == 6 * (int64_t)n, "rmat: m=%lld", (long long)ca.m);
        for (u = 0; u < ca.n; u++) if (ca.off[u + 1] - ca.off[u] > maxdeg) maxdeg = ca.off[u + 1] - ca.off[u];
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
      case 4: /* complete */
        CHECK(ca.m == (int64_t)n * (n - 1), "complete: m=%lld", (long long)ca.m);
        break;
      default: { /* dag: arcs go forward, some negative; Bellman-Ford runs without a negative cycle */
        int64_t neg = 0;
        gsp_options o;
        gsp_paths* p = NULL;
        for (u = 0; u < ca.n; u++)
          for (e = ca.off[u]; e < ca.off[u + 1]; e++) {
            if (ca.dst[e] <= u) { CHECK(0, "dag: backward arc %d->%d", u, ca.dst[e]); }
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
    free_csr(&ca); free_csr(&cb); free_csr(&cc); free_csr(&cf);
    gsp_graph_destroy(a); gsp_graph_destroy(b); gsp_graph_destroy(c); gsp_graph_destroy(f);
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
