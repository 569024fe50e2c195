/* Graph files: write then read gives the same graph, for every format and
 * weight type (GSP_F64 bit for bit, with values that need 17 digits); gzip reading; Matrix Market symmetric / pattern;
 * AUTO detection by extension; I/O errors; a failed load leaves *graph NULL. */
#include <zlib.h>

#include "testing.h"

typedef struct {
  int32_t n;
  int64_t m;
  int64_t* off;
  int32_t* dst;
  void* w;
} csr_t;

static csr_t get_csr(const gsp_graph* g) {
  csr_t c;
  c.n = gsp_graph_num_vertices(g);
  c.m = gsp_graph_num_edges(g);
  c.off = (int64_t*)malloc(((size_t)c.n + 1) * sizeof(int64_t));
  c.dst = (int32_t*)malloc((size_t)(c.m + 1) * sizeof(int32_t));
  c.w = malloc((size_t)(c.m + 1) * 8); /* room for GSP_F64 */
  gsp_graph_csr(g, c.off, c.dst, c.w);
  return c;
}
static void free_csr(csr_t* c) {
  free(c->off);
  free(c->dst);
  free(c->w);
}

static int same_graph(const gsp_graph* a, const gsp_graph* b) {
  csr_t x, y;
  int same;
  if (!a || !b) return 0;
  if (gsp_graph_weight_type(a) != gsp_graph_weight_type(b)) return 0;
  x = get_csr(a);
  y = get_csr(b);
  same = x.n == y.n && x.m == y.m && memcmp(x.off, y.off, ((size_t)x.n + 1) * sizeof(int64_t)) == 0 &&
         memcmp(x.dst, y.dst, (size_t)x.m * sizeof(int32_t)) == 0 &&
         memcmp(x.w, y.w, (size_t)x.m * (gsp_graph_weight_type(a) == GSP_F64 ? 8 : 4)) == 0;
  free_csr(&x);
  free_csr(&y);
  return same;
}

static void write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

/* Compresses file `in` into gzip file `out`. */
static void gzip_file(const char* in, const char* out) {
  FILE* f = fopen(in, "rb");
  gzFile z = gzopen(out, "wb");
  char buf[65536];
  size_t k;
  if (!f || !z) {
    fprintf(stderr, "gzip_file(%s)\n", in);
    exit(2);
  }
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) gzwrite(z, buf, (unsigned)k);
  fclose(f);
  gzclose(z);
}

static const char* ext_of(gsp_format f) {
  return f == GSP_FORMAT_DIMACS ? "gr" : f == GSP_FORMAT_MATRIX_MARKET ? "mtx" : "txt";
}

static void round_trips(void) {
  const gsp_format formats[3] = {GSP_FORMAT_DIMACS, GSP_FORMAT_MATRIX_MARKET, GSP_FORMAT_EDGE_LIST};
  const int shapes[] = {T_RANDOM_SPARSE, T_GRID,   T_DAG_NEGATIVE, T_LOOPS_PARALLEL,
                        T_ISOLATED,      T_SINGLE, T_NO_ARCS,      T_ZERO_WEIGHTS};
  int fi, si, di;
  for (fi = 0; fi < 3; fi++) {
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
      for (di = 0; di < 2; di++) {
        const gsp_dtype dt = di ? GSP_I32 : GSP_F32;
        t_arcs a;
        gsp_graph *g, *back = NULL, *back_auto = NULL;
        char path[128];
        t_make_shape(&a, shapes[si], 40, 11);
        g = t_graph(&a, dt, 0.37f); /* fractional floats must survive the text round trip */
        snprintf(path, sizeof path, "io_rt_%s_%d_%d.%s", ext_of(formats[fi]), si, di, ext_of(formats[fi]));
        CHECK_OK(gsp_graph_save(g, path, formats[fi]));
        CHECK_OK(gsp_graph_load(&back, path, formats[fi], dt, 0));
        CHECK(same_graph(g, back), "%s %s %s: round trip differs", path, a.name, dt == GSP_F32 ? "f32" : "i32");
        CHECK_OK(gsp_graph_load(&back_auto, path, GSP_FORMAT_AUTO, dt, 0));
        CHECK(same_graph(g, back_auto), "%s: AUTO round trip differs", path);
        gsp_graph_destroy(back);
        gsp_graph_destroy(back_auto);
        /* save with AUTO picks the format by extension too */
        CHECK_OK(gsp_graph_save(g, path, GSP_FORMAT_AUTO));
        back = NULL;
        CHECK_OK(gsp_graph_load(&back, path, formats[fi], dt, 0));
        CHECK(same_graph(g, back), "%s: AUTO save differs", path);
        gsp_graph_destroy(back);
        remove(path);
        gsp_graph_destroy(g);
        t_arcs_free(&a);
      }
    }
  }
}

/* A GSP_F64 graph of `a`'s arcs whose weights need every one of double's
 * 17 digits: w * 0.1 + w / 3, and among them the extremes (DBL_MAX, the
 * smallest normal and subnormal, -0.0, 2^53 + 2, 1e39, which float cannot hold). */
static gsp_graph* f64_graph(const t_arcs* a) {
  static const double special[] = {
      1.7976931348623157e308, 2.2250738585072014e-308, 4.9406564584124654e-324, -0.0, 9007199254740994.0, 1e39, -1e-300,
      0.30000000000000004};
  gsp_graph* g = NULL;
  double* w = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
  int64_t k;
  for (k = 0; k < a->m; k++) {
    w[k] = k < 8 ? special[k] : (double)a->w[k] * 0.1 + (double)a->w[k] / 3.0;
  }
  CHECK_OK(gsp_graph_create(&g, a->n, a->m, a->src, a->dst, w, GSP_F64, 0));
  free(w);
  return g;
}

static void f64_round_trips(void) {
  const gsp_format formats[3] = {GSP_FORMAT_DIMACS, GSP_FORMAT_MATRIX_MARKET, GSP_FORMAT_EDGE_LIST};
  const int shapes[] = {T_RANDOM_SPARSE, T_DAG_NEGATIVE, T_LOOPS_PARALLEL, T_NO_ARCS};
  int fi, si;
  for (fi = 0; fi < 3; fi++) {
    for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
      t_arcs a;
      gsp_graph *g, *back = NULL, *as_f32 = NULL;
      char path[128];
      t_make_shape(&a, shapes[si], 40, 13);
      g = f64_graph(&a);
      snprintf(path, sizeof path, "io_rt64_%d.%s", si, ext_of(formats[fi]));
      CHECK_OK(gsp_graph_save(g, path, formats[fi]));
      CHECK_OK(gsp_graph_load(&back, path, GSP_FORMAT_AUTO, GSP_F64, 0));
      CHECK(back && gsp_graph_weight_type(back) == GSP_F64, "%s: not loaded as f64", path);
      CHECK(same_graph(g, back), "%s %s f64: round trip is not bit for bit", path, a.name);
      /* the same file as f32: 1e39 and DBL_MAX do not fit float, named with file:line */
      if (a.m > 0) {
        CHECK_STATUS(gsp_graph_load(&as_f32, path, GSP_FORMAT_AUTO, GSP_F32, 0), GSP_ERR_PARSE);
        CHECK(as_f32 == NULL && strstr(gsp_last_error(), path) && strstr(gsp_last_error(), "float range"),
              "%s as f32: %s", path, gsp_last_error());
      }
      gsp_graph_destroy(back);
      remove(path);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
  /* values the writer did not produce: %.17g text, long integers, tiny values */
  {
    gsp_graph* g = NULL;
    csr_t c;
    write_text("io_f64.txt",
               "0 1 0.10000000000000001\n1 2 1e39\n2 3 123456789012345678901234567890\n"
               "3 4 1e-400\n4 0 -2.5E-3\n0 2 +7\n");
    CHECK_OK(gsp_graph_load(&g, "io_f64.txt", GSP_FORMAT_AUTO, GSP_F64, 0));
    if (g) {
      const double want[6] = {0.1, 7.0, 1e39, 123456789012345678901234567890.0, 0.0, -2.5e-3};
      int k;
      c = get_csr(g);
      CHECK(c.m == 6, "f64 text: %lld arcs", (long long)c.m);
      for (k = 0; k < 6 && c.m == 6; k++)
        CHECK(((double*)c.w)[k] == want[k], "f64 text: weight %d = %.17g, want %.17g", k, ((double*)c.w)[k], want[k]);
      free_csr(&c);
    }
    gsp_graph_destroy(g);
    g = NULL;
    /* a Matrix Market integer file loads as f64; skew-symmetric negates */
    write_text("io_f64.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 2147483648\n");
    CHECK_OK(gsp_graph_load(&g, "io_f64.mtx", GSP_FORMAT_AUTO, GSP_F64, 0));
    if (g) {
      c = get_csr(g);
      CHECK(c.m == 2 && ((double*)c.w)[0] == -2147483648.0 && ((double*)c.w)[1] == 2147483648.0,
            "f64 skew-symmetric values");
      free_csr(&c);
    }
    gsp_graph_destroy(g);
    remove("io_f64.txt");
    remove("io_f64.mtx");
  }
}

static void gz_and_auto(void) {
  t_arcs a;
  gsp_graph *g, *back = NULL;
  t_make_shape(&a, T_GRID, 400, 3);
  g = t_graph(&a, GSP_I32, 1.0f);
  /* .gr.gz, .mtx.gz: AUTO by extension, read through zlib */
  CHECK_OK(gsp_graph_save(g, "io_gz.gr", GSP_FORMAT_DIMACS));
  gzip_file("io_gz.gr", "io_gz.gr.gz");
  CHECK_OK(gsp_graph_load(&back, "io_gz.gr.gz", GSP_FORMAT_AUTO, GSP_I32, 0));
  CHECK(same_graph(g, back), ".gr.gz differs");
  gsp_graph_destroy(back);
  back = NULL;
  CHECK_OK(gsp_graph_save(g, "io_gz.mtx", GSP_FORMAT_MATRIX_MARKET));
  gzip_file("io_gz.mtx", "io_gz.mtx.gz");
  CHECK_OK(gsp_graph_load(&back, "io_gz.mtx.gz", GSP_FORMAT_AUTO, GSP_I32, 0));
  CHECK(same_graph(g, back), ".mtx.gz differs");
  gsp_graph_destroy(back);
  back = NULL;
  /* a gzip edge list with an unknown extension: AUTO means edge list */
  CHECK_OK(gsp_graph_save(g, "io_gz.edges", GSP_FORMAT_EDGE_LIST));
  gzip_file("io_gz.edges", "io_gz.edges.gz");
  CHECK_OK(gsp_graph_load(&back, "io_gz.edges.gz", GSP_FORMAT_AUTO, GSP_I32, 0));
  CHECK(same_graph(g, back), ".edges.gz differs");
  gsp_graph_destroy(back);
  back = NULL;
  /* AUTO by extension: a DIMACS file named .txt is read as an edge list and fails on line 1 */
  rename("io_gz.gr", "io_gz_dimacs.txt");
  CHECK_STATUS(gsp_graph_load(&back, "io_gz_dimacs.txt", GSP_FORMAT_AUTO, GSP_I32, 0), GSP_ERR_PARSE);
  CHECK(back == NULL, "failed load left a graph");
  CHECK(strstr(gsp_last_error(), "io_gz_dimacs.txt:1:") != NULL, "message: %s", gsp_last_error());
  CHECK_OK(gsp_graph_load(&back, "io_gz_dimacs.txt", GSP_FORMAT_DIMACS, GSP_I32, 0));
  CHECK(same_graph(g, back), "explicit format differs");
  gsp_graph_destroy(back);
  back = NULL;

  /* truncated gzip: a parse (or I/O) error that says so, no graph */
  {
    FILE* f = fopen("io_gz.gr.gz", "rb");
    long size;
    char* buf;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (char*)malloc((size_t)size);
    CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size, "read");
    fclose(f);
    f = fopen("io_trunc.gr.gz", "wb");
    fwrite(buf, 1, (size_t)size / 2, f);
    fclose(f);
    free(buf);
    back = (gsp_graph*)&back; /* must be overwritten with NULL */
    {
      gsp_status s = gsp_graph_load(&back, "io_trunc.gr.gz", GSP_FORMAT_AUTO, GSP_I32, 0);
      CHECK(s == GSP_ERR_PARSE || s == GSP_ERR_IO, "truncated gzip: %s", gsp_status_name(s));
    }
    CHECK(back == NULL, "truncated gzip left a graph");
    CHECK(strstr(gsp_last_error(), "io_trunc.gr.gz") != NULL && strstr(gsp_last_error(), "gzip") != NULL, "message: %s",
          gsp_last_error());
  }
  /* saving to .gz is refused (files are written uncompressed) */
  CHECK_STATUS(gsp_graph_save(g, "io_out.gr.gz", GSP_FORMAT_AUTO), GSP_ERR_INVALID_ARGUMENT);
  remove("io_gz.gr.gz");
  remove("io_gz.mtx");
  remove("io_gz.mtx.gz");
  remove("io_gz.edges");
  remove("io_gz.edges.gz");
  remove("io_gz_dimacs.txt");
  remove("io_trunc.gr.gz");
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* A compressed file of 1 MiB or more is inflated on a thread beside the
 * parser (src/io/inflate_ahead.h): a large .gr.gz loads as the graph it
 * holds, and one cut short fails with GSP_ERR_PARSE naming the file. */
static long file_size(const char* path) {
  FILE* f = fopen(path, "rb");
  long n = -1;
  if (f != NULL && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
  if (f != NULL) fclose(f);
  return n;
}

static void large_gz(void) {
  t_arcs a;
  gsp_graph *g, *back = NULL;
  long size;
  t_make_shape(&a, T_RANDOM_SPARSE, 100000, 9); /* 400,000 arcs, about 2 MB compressed */
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_OK(gsp_graph_save(g, "io_big.gr", GSP_FORMAT_DIMACS));
  gzip_file("io_big.gr", "io_big.gr.gz");
  size = file_size("io_big.gr.gz");
  CHECK(size >= (1L << 20), "io_big.gr.gz is %ld bytes: below the threaded reader's 1 MiB", size);
  CHECK_OK(gsp_graph_load(&back, "io_big.gr.gz", GSP_FORMAT_AUTO, GSP_I32, 0));
  CHECK(same_graph(g, back), "large .gr.gz differs");
  gsp_graph_destroy(back);
  back = NULL;
  { /* the first 1.5 MiB of it only */
    FILE* in = fopen("io_big.gr.gz", "rb");
    FILE* out = fopen("io_big_cut.gr.gz", "wb");
    static char buf[3 << 19];
    size_t k;
    if (in == NULL || out == NULL) {
      fprintf(stderr, "large_gz: cannot copy\n");
      exit(2);
    }
    k = fread(buf, 1, sizeof buf, in);
    fwrite(buf, 1, k, out);
    fclose(in);
    fclose(out);
  }
  CHECK_STATUS(gsp_graph_load(&back, "io_big_cut.gr.gz", GSP_FORMAT_AUTO, GSP_I32, 0), GSP_ERR_PARSE);
  CHECK(back == NULL, "a cut file left a graph");
  CHECK(strstr(gsp_last_error(), "io_big_cut.gr.gz:") != NULL, "message: %s", gsp_last_error());
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  remove("io_big.gr");
  remove("io_big.gr.gz");
  remove("io_big_cut.gr.gz");
}

static void matrix_market_variants(void) {
  gsp_graph* g = NULL;
  csr_t c;
  /* pattern symmetric: weight 1, both directions, diagonal once */
  write_text("io_mm1.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% a comment\n\n3 3 3\n2 1\n3 2\n3 3\n");
  CHECK_OK(gsp_graph_load(&g, "io_mm1.mtx", GSP_FORMAT_AUTO, GSP_I32, 0));
  if (g) {
    c = get_csr(g);
    CHECK(c.n == 3 && c.m == 5, "pattern symmetric: n=%d m=%lld", c.n, (long long)c.m);
    CHECK(c.off[1] - c.off[0] == 1 && c.dst[0] == 1 && ((int32_t*)c.w)[0] == 1, "arc 0->1 weight 1");
    free_csr(&c);
  }
  gsp_graph_destroy(g);
  g = NULL;
  /* real general, f32 */
  write_text("io_mm2.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.5\n2 1 -1e-1\n");
  CHECK_OK(gsp_graph_load(&g, "io_mm2.mtx", GSP_FORMAT_MATRIX_MARKET, GSP_F32, 0));
  if (g) {
    c = get_csr(g);
    CHECK(c.m == 2 && ((float*)c.w)[0] == 2.5f && ((float*)c.w)[1] == -0.1f, "real values");
    free_csr(&c);
  }
  gsp_graph_destroy(g);
  g = NULL;
  /* real values that are integers load as i32 */
  write_text("io_mm3.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.000e+00\n");
  CHECK_OK(gsp_graph_load(&g, "io_mm3.mtx", GSP_FORMAT_MATRIX_MARKET, GSP_I32, 0));
  gsp_graph_destroy(g);
  g = NULL;
  /* integer skew-symmetric: mirrored arcs negated */
  write_text("io_mm4.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 7\n");
  CHECK_OK(gsp_graph_load(&g, "io_mm4.mtx", GSP_FORMAT_AUTO, GSP_I32, 0));
  if (g) {
    c = get_csr(g);
    CHECK(c.m == 2 && ((int32_t*)c.w)[0] == -7 && ((int32_t*)c.w)[1] == 7, "skew-symmetric values");
    free_csr(&c);
  }
  gsp_graph_destroy(g);
  g = NULL;
  /* GSP_GRAPH_UNDIRECTED doubles the arcs of any format */
  write_text("io_el.txt", "# an edge list\n0 1 4\n1 2\n\n2 0 1.5 # trailing comment\n");
  CHECK_OK(gsp_graph_load(&g, "io_el.txt", GSP_FORMAT_AUTO, GSP_F32, GSP_GRAPH_UNDIRECTED));
  CHECK(g && gsp_graph_num_edges(g) == 6 && gsp_graph_num_vertices(g) == 3, "undirected edge list");
  gsp_graph_destroy(g);
  g = NULL;
  /* "# vertices N" keeps trailing isolated vertices */
  write_text("io_el2.txt", "# vertices 10\n0 1\n");
  CHECK_OK(gsp_graph_load(&g, "io_el2.txt", GSP_FORMAT_EDGE_LIST, GSP_I32, 0));
  CHECK(g && gsp_graph_num_vertices(g) == 10, "vertices hint");
  gsp_graph_destroy(g);
  g = NULL;
  /* CRLF line endings */
  write_text("io_crlf.gr", "c windows\r\np sp 2 1\r\na 1 2 3\r\n");
  CHECK_OK(gsp_graph_load(&g, "io_crlf.gr", GSP_FORMAT_AUTO, GSP_I32, 0));
  CHECK(g && gsp_graph_num_edges(g) == 1, "CRLF");
  gsp_graph_destroy(g);
  g = NULL;
  remove("io_mm1.mtx");
  remove("io_mm2.mtx");
  remove("io_mm3.mtx");
  remove("io_mm4.mtx");
  remove("io_el.txt");
  remove("io_el2.txt");
  remove("io_crlf.gr");
}

static void io_errors(void) {
  gsp_graph* g = (gsp_graph*)&g;
  CHECK_STATUS(gsp_graph_load(&g, "no/such/dir/graph.gr", GSP_FORMAT_AUTO, GSP_I32, 0), GSP_ERR_IO);
  CHECK(g == NULL, "failed load left a graph");
  CHECK(strstr(gsp_last_error(), "no/such/dir/graph.gr") && strstr(gsp_last_error(), "No such file"), "message: %s",
        gsp_last_error());
  g = (gsp_graph*)&g;
  CHECK_STATUS(gsp_graph_load(&g, ".", GSP_FORMAT_DIMACS, GSP_I32, 0), GSP_ERR_IO);
  CHECK(g == NULL, "failed load left a graph");
  CHECK_STATUS(gsp_graph_load(&g, "x.gr", GSP_FORMAT_AUTO, (gsp_dtype)7, 0), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_graph_load(&g, "x.gr", (gsp_format)9, GSP_I32, 0), GSP_ERR_INVALID_ARGUMENT);
  {
    t_arcs a;
    gsp_graph* h;
    t_make_shape(&a, T_RING, 5, 1);
    h = t_graph(&a, GSP_I32, 1.0f);
    CHECK_STATUS(gsp_graph_save(h, "no/such/dir/out.gr", GSP_FORMAT_AUTO), GSP_ERR_IO);
    CHECK(strstr(gsp_last_error(), "No such file") != NULL, "message: %s", gsp_last_error());
    gsp_graph_destroy(h);
    t_arcs_free(&a);
  }
}

int main(void) {
  round_trips();
  f64_round_trips();
  gz_and_auto();
  large_gz();
  matrix_market_variants();
  io_errors();
  return t_finish("test_io_roundtrip");
}
