/* Dense APSP on the GPU (GSP_APSP_FLOYD_WARSHALL in-core and out-of-core,
 * GSP_APSP_MINPLUS), every weight type (i32, f32, f64), against independent
 * references: t_ref_floyd_warshall (int64) for small n, the CPU engines for
 * larger n. i32 and f64 (integer weights) exact, f32 within rounding; sampled
 * paths checked arc by arc. GSP_F64 also with weights float cannot hold:
 * integers of 1e8..2e8 (exact, against the int64 reference) and weights
 * times 1e40 (against the CPU engine's GSP_F64 result).
 * GSP_TEST_SMALL=1: small sizes only (for compute-sanitizer); 2: fewer still;
 * 3: one padded size and two shapes through every kernel, for racecheck,
 * which tracks every shared-memory access and is very slow. */
#include "testing.h"
#include "gpu/f64_check.h"
#include "tuning_hook.h"

static int small_mode = 0;

/* Reference distances, n x n int64 (T_INF_REF for unreachable). Small n:
 * t_ref_floyd_warshall; larger n: the CPU engine on the i32 graph. Returns
 * NULL (and reports) when no reference could be made. */
static int64_t* make_ref(const t_arcs* a) {
  int64_t n = a->n;
  int64_t* ref = (int64_t*)malloc((size_t)(n * n) * sizeof(int64_t));
  if (ref == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (n <= 400) {
    if (t_ref_floyd_warshall(a, ref)) {
      free(ref);
      return NULL;
    }
    return ref;
  } else {
    gsp_graph* g = t_graph(a, GSP_I32, 1.0f);
    gsp_options o;
    gsp_paths* p = NULL;
    gsp_status s;
    int32_t* row = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    int64_t i, j;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CPU;
    o.algorithm = a->negative || n <= 2000 ? GSP_APSP_FLOYD_WARSHALL : GSP_APSP_JOHNSON;
    o.flags = GSP_NO_PATHS;
    s = gsp_apsp_run(g, NULL, 0, &o, &p);
    CHECK(s == GSP_OK, "CPU reference for %s n=%lld: %s %s", a->name, (long long)n, gsp_status_name(s),
          gsp_last_error());
    if (s != GSP_OK) {
      free(ref);
      free(row);
      gsp_graph_destroy(g);
      return NULL;
    }
    for (i = 0; i < n; i++) {
      gsp_paths_distances(p, (int32_t)i, row, n);
      for (j = 0; j < n; j++) ref[i * n + j] = row[j] == GSP_I32_INF ? T_INF_REF : row[j];
    }
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
    free(row);
    return ref;
  }
}

/* Rows streamed by gsp_apsp_stream into two arrays (staged delivery);
 * db bytes a distance (t_dist_bytes). */
typedef struct {
  int32_t n;
  size_t db;
  unsigned char* d;
  int32_t* p;
} collect_rows;
static int collect(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  collect_rows* c = (collect_rows*)user;
  memcpy(c->d + (size_t)first * c->n * c->db, d, (size_t)rows * c->n * c->db);
  if (p != NULL) memcpy(c->p + (size_t)first * c->n, p, (size_t)rows * c->n * sizeof(int32_t));
  return 0;
}

/* The same run through gsp_apsp_run_into (rows written in place into the
 * caller's arrays) and gsp_apsp_stream (staged blocks): bit for bit the
 * rows of the result p. */
static void same_rows_other_calls(const gsp_graph* g, const gsp_options* o, const int32_t* sources, int32_t ns,
                                  const gsp_paths* p, int32_t rows, int32_t n, int paths, const char* what) {
  const size_t db = t_dist_bytes(gsp_graph_weight_type(g));
  size_t cells = (size_t)rows * (size_t)n;
  unsigned char* d = (unsigned char*)malloc(cells * db);
  int32_t* pr = paths ? (int32_t*)malloc(cells * sizeof(int32_t)) : NULL;
  collect_rows c = {n, db, (unsigned char*)malloc(cells * db),
                    paths ? (int32_t*)malloc(cells * sizeof(int32_t)) : NULL};
  unsigned char* want_d = (unsigned char*)malloc((size_t)n * db);
  int32_t* want_p = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  gsp_run_info info;
  int32_t i, diff_into = 0, diff_stream = 0;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_apsp_run_into(g, sources, ns, o, d, pr, &info));
  CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == o->algorithm && info.num_sources == rows,
        "%s: run_into info %d/%d rows %d", what, (int)info.backend, (int)info.algorithm, info.num_sources);
  CHECK_OK(gsp_apsp_stream(g, sources, ns, o, collect, &c));
  for (i = 0; i < rows; i++) {
    int32_t src = sources ? sources[i] : i;
    size_t at = (size_t)i * (size_t)n;
    gsp_paths_distances(p, src, want_d, n);
    diff_into += memcmp(d + at * db, want_d, (size_t)n * db) != 0;
    diff_stream += memcmp(c.d + at * db, want_d, (size_t)n * db) != 0;
    if (paths) {
      gsp_paths_predecessors(p, src, want_p, n);
      diff_into += memcmp(pr + at, want_p, (size_t)n * sizeof(int32_t)) != 0;
      diff_stream += memcmp(c.p + at, want_p, (size_t)n * sizeof(int32_t)) != 0;
    }
  }
  CHECK(diff_into == 0, "%s: gsp_apsp_run_into differs from gsp_apsp_run in %d rows", what, diff_into);
  CHECK(diff_stream == 0, "%s: gsp_apsp_stream differs from gsp_apsp_run in %d rows", what, diff_stream);
  free(d);
  free(pr);
  free(c.d);
  free(c.p);
  free(want_d);
  free(want_p);
}

/* One GPU run compared with ref: every row of every requested source, and
 * (with paths) sampled paths arc by arc. */
static void run_case(const t_arcs* a, const int64_t* ref, gsp_dtype dt, gsp_algorithm algo, int paths, size_t mem_limit,
                     const int32_t* sources, int32_t ns, const char* tag) {
  gsp_graph* g;
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_status s;
  char what[200];
  int32_t n = a->n, i, bad = 0;
  if (!t_in_shard()) return;
  g = t_graph(a, dt, 1.0f);
  snprintf(what, sizeof what, "%s %s n=%d %s %s%s%s", tag, a->name, n, t_dtype_name(dt), gsp_algorithm_name(algo),
           paths ? "" : " no-paths", mem_limit ? " limited-memory" : "");
  t_trace(what);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  o.flags = paths ? 0 : GSP_NO_PATHS;
  o.device_memory_limit = mem_limit;
  s = gsp_apsp_run(g, sources, ns, &o, &p);
  CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    gsp_run_info info;
    int32_t rows = sources ? ns : n;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.backend == GSP_BACKEND_CUDA && info.algorithm == algo, "%s: info says %d/%d", what, (int)info.backend,
          (int)info.algorithm);
    CHECK(info.has_paths == (uint32_t)(paths ? 1 : 0), "%s: has_paths %u", what, info.has_paths);
    if (algo == GSP_APSP_FLOYD_WARSHALL)
      CHECK(info.relaxations == (int64_t)n * n * n, "%s: relaxations %lld", what, (long long)info.relaxations);
    CHECK(gsp_paths_num_sources(p) == rows, "%s: %d rows", what, gsp_paths_num_sources(p));
    for (i = 0; i < rows && bad < 3; i++) {
      int32_t src = sources ? sources[i] : i;
      CHECK(gsp_paths_source(p, i) == src, "%s: row %d is source %d", what, i, gsp_paths_source(p, i));
      bad += t_compare_row(p, dt, src, ref + (int64_t)src * n, n, 1.0f, what) != 0;
    }
    CHECK(bad == 0, "%s: %d rows differ from the reference", what, bad);
    if (n <= 1100) same_rows_other_calls(g, &o, sources, ns, p, rows, n, paths, what);
    if (paths) {
      t_rng r = {(uint64_t)n * 31u + (uint64_t)dt};
      int k, pbad = 0;
      int samples = n <= 12 ? n * n : 40;
      for (k = 0; k < samples && pbad < 3; k++) {
        int32_t si = n <= 12 ? (int32_t)(k / n) : t_below(&r, rows);
        int32_t src = sources ? sources[si % rows] : si % n;
        int32_t dst = n <= 12 ? (int32_t)(k % n) : t_below(&r, n);
        if (src == dst) continue;
        pbad += t_check_path(p, a, src, dst, ref[(int64_t)src * n + dst], what) != 0;
      }
      CHECK(pbad == 0, "%s: %d bad paths", what, pbad);
    } else {
      int32_t len = 0;
      CHECK_STATUS(gsp_path_get(p, sources ? sources[0] : 0, n - 1, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
    }
  }
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

/* Predecessors both ways: tracked in the product, and by the pass over the
 * finished matrix (GSP_DENSE_PRED, read per run). */
static void both_pred_modes(const t_arcs* a, const int64_t* ref, gsp_dtype dt, gsp_algorithm algo, int paths,
                            const char* tag) {
  char what[64];
  if (!paths) {
    run_case(a, ref, dt, algo, 0, 0, NULL, 0, tag);
    return;
  }
  t_tuning("GSP_DENSE_PRED", "track");
  snprintf(what, sizeof what, "%s pred=track", tag);
  run_case(a, ref, dt, algo, 1, 0, NULL, 0, what);
  t_tuning("GSP_DENSE_PRED", "pass");
  snprintf(what, sizeof what, "%s pred=pass", tag);
  run_case(a, ref, dt, algo, 1, 0, NULL, 0, what);
  t_tuning("GSP_DENSE_PRED", NULL);
}

/* Both engines, every weight type. */
static void both(const t_arcs* a, const int64_t* ref, int paths, const char* tag) {
  int d;
  for (d = 0; d < T_NUM_DTYPES; d++) both_pred_modes(a, ref, t_dtypes[d], GSP_APSP_FLOYD_WARSHALL, paths, tag);
  for (d = 0; d < T_NUM_DTYPES; d++) both_pred_modes(a, ref, t_dtypes[d], GSP_APSP_MINPLUS, paths, tag);
}

static void expect_status(const t_arcs* a, gsp_dtype dt, gsp_algorithm algo, size_t limit, gsp_status want,
                          const char* what) {
  gsp_graph* g = t_graph(a, dt, 1.0f);
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_status s;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  o.device_memory_limit = limit;
  s = gsp_apsp_run(g, NULL, 0, &o, &p);
  CHECK(s == want, "%s (%s, %s): %s, want %s: %s", what, t_dtype_name(dt), gsp_algorithm_name(algo), gsp_status_name(s),
        gsp_status_name(want), gsp_last_error());
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
}

static void test_shapes(void) {
  const int32_t big[] = {1, 2, 100, 128, 129, 257, 1000, 2000, 5000};
  const int32_t lil[] = {1, 2, 100, 129, 257};
  const int32_t tiny[] = {1, 129};
  const int32_t* sizes = small_mode >= 2 ? tiny : small_mode ? lil : big;
  int nsizes = small_mode >= 2 ? 2 : small_mode ? 5 : 9, si, shape;
  for (si = 0; si < nsizes; si++) {
    int32_t n = sizes[si];
    for (shape = 0; shape < T_NUM_SHAPES; shape++) {
      t_arcs a;
      int64_t* ref;
      if (n == 1 && shape != T_SINGLE) continue;
      if (n > 1 && shape == T_SINGLE) continue;
      if (small_mode >= 3 && (n != 129 || (shape != T_RANDOM_SPARSE && shape != T_ZERO_WEIGHTS))) continue;
      if (n > 300 && shape != T_RANDOM_SPARSE && shape != T_DAG_NEGATIVE && shape != T_ISOLATED &&
          !(shape == T_RING && n <= 1000)) {
        continue;
      }
      if (n >= 5000 && shape != T_RANDOM_SPARSE) continue;
      t_make_shape(&a, shape, n, 11u + (uint64_t)n);
      ref = make_ref(&a);
      if (ref != NULL) {
        both(&a, ref, 1, "shapes");
        if (shape == T_RANDOM_SPARSE && (n == 129 || n == 1000)) both(&a, ref, 0, "shapes");
      }
      free(ref);
      t_arcs_free(&a);
    }
  }
}

static void test_sources_subset(void) {
  t_arcs a;
  int64_t* ref;
  int32_t src[4];
  t_make_shape(&a, T_RANDOM_SPARSE, 300, 5);
  src[0] = 299;
  src[1] = 0;
  src[2] = 150;
  src[3] = 7;
  ref = make_ref(&a);
  run_case(&a, ref, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 1, 0, src, 4, "subset");
  run_case(&a, ref, GSP_F32, GSP_APSP_MINPLUS, 1, 0, src, 4, "subset");
  run_case(&a, ref, GSP_F64, GSP_APSP_FLOYD_WARSHALL, 1, 0, src, 4, "subset");
  run_case(&a, ref, GSP_F64, GSP_APSP_MINPLUS, 1, 0, src, 4, "subset");
  free(ref);
  t_arcs_free(&a);
}

/* An out-of-core limit chosen for 4-byte distances (with paths: 8 bytes a
 * cell, 4 + 4), scaled to dt's cell (f64: 12 bytes with paths, 8 without),
 * so that it still admits the streamed working set but not the matrix. */
static size_t ooc_limit(size_t four_byte_limit, gsp_dtype dt, int paths) {
  const size_t cell = t_dist_bytes(dt) + (paths ? 4 : 0), base = 4 + (paths ? 4 : 0);
  return four_byte_limit / base * cell;
}

static void test_out_of_core(void) {
  /* n = 1000 (padded 1024): the in-core matrix needs ~4 MB (+4 MB of
   * predecessors; f64: 8 + 4 MB); these limits admit only the streamed
   * working set. */
  const int shapes[] = {T_RANDOM_SPARSE, T_DAG_NEGATIVE};
  int i, d;
  for (i = 0; i < 2; i++) {
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, shapes[i], 1000, 77u + (uint64_t)i);
    ref = make_ref(&a);
    if (ref != NULL) {
      for (d = 0; d < T_NUM_DTYPES; d++) {
        const gsp_dtype dt = t_dtypes[d];
        run_case(&a, ref, dt, GSP_APSP_FLOYD_WARSHALL, 1, ooc_limit((size_t)7500 * 1000, dt, 1), NULL, 0, "ooc");
        run_case(&a, ref, dt, GSP_APSP_FLOYD_WARSHALL, 0, ooc_limit((size_t)4000 * 1000, dt, 0), NULL, 0, "ooc");
      }
      /* min-plus does not stream: a clear out-of-memory answer */
      expect_status(&a, GSP_I32, GSP_APSP_MINPLUS, (size_t)4000 * 1000, GSP_ERR_DEVICE_OUT_OF_MEMORY,
                    "min-plus over the memory limit");
      expect_status(&a, GSP_F64, GSP_APSP_MINPLUS, ooc_limit((size_t)4000 * 1000, GSP_F64, 0),
                    GSP_ERR_DEVICE_OUT_OF_MEMORY, "min-plus over the memory limit");
    }
    free(ref);
    t_arcs_free(&a);
  }
  if (!small_mode) {
    /* n = 2000: super-blocks of 256 (two FW tiles each) */
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, T_RANDOM_SPARSE, 2000, 99u);
    ref = make_ref(&a);
    if (ref != NULL) {
      run_case(&a, ref, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 1, (size_t)30 * 1000 * 1000, NULL, 0, "ooc");
      run_case(&a, ref, GSP_F32, GSP_APSP_FLOYD_WARSHALL, 0, (size_t)15 * 1000 * 1000, NULL, 0, "ooc");
      run_case(&a, ref, GSP_F64, GSP_APSP_FLOYD_WARSHALL, 1, ooc_limit((size_t)30 * 1000 * 1000, GSP_F64, 1), NULL, 0,
               "ooc");
      run_case(&a, ref, GSP_F64, GSP_APSP_FLOYD_WARSHALL, 0, ooc_limit((size_t)15 * 1000 * 1000, GSP_F64, 0), NULL, 0,
               "ooc");
    }
    free(ref);
    t_arcs_free(&a);
  }
  {
    /* far too little memory: a clear failure */
    t_arcs a;
    t_make_shape(&a, T_RANDOM_SPARSE, 1000, 3);
    expect_status(&a, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 100 * 1000, GSP_ERR_DEVICE_OUT_OF_MEMORY, "tiny limit");
    t_arcs_free(&a);
  }
}

/* In-core FW with the lookahead streams (more than two k-blocks of 4 tiles,
 * the last one partial): part of the small mode, so that memcheck, initcheck
 * and synccheck see the two-stream schedule too. */
static void test_lookahead(void) {
  t_arcs a;
  int64_t* ref;
  t_make_shape(&a, T_RANDOM_SPARSE, 1100, 1234u);
  ref = make_ref(&a);
  if (ref != NULL) {
    int d, paths;
    for (paths = 1; paths >= 0; paths--) {
      for (d = 0; d < T_NUM_DTYPES; d++)
        both_pred_modes(&a, ref, t_dtypes[d], GSP_APSP_FLOYD_WARSHALL, paths, "lookahead");
    }
  }
  free(ref);
  t_arcs_free(&a);
}

static void test_negative_cycles(void) {
  gsp_algorithm algos[2] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS};
  const gsp_dtype* dts = t_dtypes;
  int ai, di, i;
  for (ai = 0; ai < 2; ai++)
    for (di = 0; di < T_NUM_DTYPES; di++) {
      t_arcs a;
      /* a ring with a chord closing a negative cycle 100 -> ... -> 150 -> 100 */
      t_arcs_init(&a, "negative-cycle", 300);
      for (i = 0; i < 300; i++) t_arc(&a, i, (i + 1) % 300, 1);
      t_arc(&a, 150, 100, -60);
      expect_status(&a, dts[di], algos[ai], 0, GSP_ERR_NEGATIVE_CYCLE, "negative cycle");
      t_arcs_free(&a);
      t_arcs_init(&a, "negative-self-loop", 5);
      t_arc(&a, 0, 1, 2);
      t_arc(&a, 2, 2, -1);
      expect_status(&a, dts[di], algos[ai], 0, GSP_ERR_NEGATIVE_CYCLE, "negative self-loop");
      t_arcs_free(&a);
    }
  {
    /* the streamed FW detects it as well */
    t_arcs a;
    t_arcs_init(&a, "negative-cycle-ooc", 1000);
    for (i = 0; i < 1000; i++) t_arc(&a, i, (i + 1) % 1000, 3);
    t_arc(&a, 900, 10, -4000);
    expect_status(&a, GSP_I32, GSP_APSP_FLOYD_WARSHALL, (size_t)7500 * 1000, GSP_ERR_NEGATIVE_CYCLE,
                  "negative cycle, out-of-core");
    expect_status(&a, GSP_F64, GSP_APSP_FLOYD_WARSHALL, ooc_limit((size_t)7500 * 1000, GSP_F64, 1),
                  GSP_ERR_NEGATIVE_CYCLE, "negative cycle, out-of-core");
    t_arcs_free(&a);
  }
  {
    /* a cycle of -1 among arcs of 1e8: float would round it to 0 (no
     * cycle); double sees it */
    t_arcs a;
    t_arcs_init(&a, "negative-cycle-1e8", 200);
    for (i = 0; i < 198; i++) t_arc(&a, i, (i + 1) % 198, 3);
    t_arc(&a, 0, 198, 5);
    t_arc(&a, 198, 199, 100000000);
    t_arc(&a, 199, 198, -100000001); /* the only cycle through it: 198 -> 199 -> 198, total -1 */
    t_arc(&a, 199, 1, 2);
    for (ai = 0; ai < 2; ai++)
      expect_status(&a, GSP_F64, algos[ai], 0, GSP_ERR_NEGATIVE_CYCLE, "negative cycle, 1e8 - (1e8 + 1)");
    t_arcs_free(&a);
  }
}

static void test_big_weights(void) {
  t_arcs a;
  int64_t* ref;
  int i;
  /* weights large enough for the checked int32 mode, results still fit */
  t_arcs_init(&a, "big-weights", 130);
  for (i = 0; i + 1 < 130; i++) t_arc(&a, i, i + 1, 8000000 + i);
  t_arc(&a, 129, 0, -100000000);
  t_arc(&a, 5, 100, 1000000000);
  ref = make_ref(&a);
  if (ref != NULL) {
    run_case(&a, ref, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 1, 0, NULL, 0, "big");
    run_case(&a, ref, GSP_I32, GSP_APSP_MINPLUS, 1, 0, NULL, 0, "big");
    run_case(&a, ref, GSP_F64, GSP_APSP_FLOYD_WARSHALL, 1, 0, NULL, 0, "big");
    run_case(&a, ref, GSP_F64, GSP_APSP_MINPLUS, 1, 0, NULL, 0, "big");
  }
  free(ref);
  t_arcs_free(&a);
  /* a distance that does not fit int32 */
  t_arcs_init(&a, "overflow", 3);
  t_arc(&a, 0, 1, 2000000000);
  t_arc(&a, 1, 2, 2000000000);
  expect_status(&a, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 0, GSP_ERR_OVERFLOW, "overflow");
  expect_status(&a, GSP_I32, GSP_APSP_MINPLUS, 0, GSP_ERR_OVERFLOW, "overflow");
  t_arcs_free(&a);
  /* a float distance beyond FLT_MAX (negative ones too) */
  t_check_float_overflow(GSP_BACKEND_CUDA, GSP_APSP_FLOYD_WARSHALL, 0, 1);
  t_check_float_overflow(GSP_BACKEND_CUDA, GSP_APSP_MINPLUS, 0, 1);
}

/* Weights times 1e40 (beyond float's range) on one engine: every row
 * against the CPU Floyd-Warshall's GSP_F64 result, and sampled paths arc by
 * arc against the int64 reference of the unscaled weights (a shortest path
 * stays one: a path longer by one unit is longer by 1e40, far beyond the
 * rounding). */
static void run_scaled(const t_arcs* a, const int64_t* ref, gsp_algorithm algo, const char* tag) {
  gsp_graph* g;
  gsp_options o;
  gsp_paths *p = NULL, *cpu = NULL;
  gsp_status s;
  char what[200];
  const int32_t n = a->n;
  if (!t_in_shard()) return;
  g = t_f64_scaled_graph(a, 1e40);
  snprintf(what, sizeof what, "%s %s n=%d f64-1e40 %s", tag, a->name, n, gsp_algorithm_name(algo));
  t_trace(what);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  CHECK_OK(gsp_apsp_run(g, NULL, 0, &o, &cpu));
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  s = gsp_apsp_run(g, NULL, 0, &o, &p);
  CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK && cpu != NULL) {
    const double slack = t_f64_slack(g);
    t_rng r = {(uint64_t)n * 17u};
    int32_t i, bad = 0, pbad = 0, k;
    for (i = 0; i < n && bad < 3; i++) bad += t_f64_compare_row(p, cpu, i, n, slack, what) != 0;
    CHECK(bad == 0, "%s: %d rows differ from the CPU engine", what, bad);
    for (k = 0; k < 40 && pbad < 3; k++) {
      const int32_t src = t_below(&r, n), dst = t_below(&r, n);
      pbad += t_check_path(p, a, src, dst, ref[(int64_t)src * n + dst], what) != 0;
    }
    CHECK(pbad == 0, "%s: %d bad paths", what, pbad);
  }
  gsp_paths_destroy(p);
  gsp_paths_destroy(cpu);
  gsp_graph_destroy(g);
}

/* GSP_F64 with weights float cannot hold, on both engines and both
 * predecessor modes: integers of 1e8..2e8 (exact: against the int64
 * reference) and weights times 1e40 (against the CPU engine), on a random
 * graph, one with negative arcs and one with zero-weight cycles. */
static void test_f64_weights(void) {
  const int shapes[] = {T_RANDOM_SPARSE, T_DAG_NEGATIVE, T_ZERO_WEIGHTS};
  const int32_t n = small_mode ? 129 : 300;
  int i;
  for (i = 0; i < 3; i++) {
    t_arcs a, big;
    int64_t* ref;
    t_make_shape(&a, shapes[i], n, 501u + (uint64_t)i);
    t_f64_big_arcs(&a, &big, 502u + (uint64_t)i);
    ref = make_ref(&big);
    if (ref != NULL) {
      both_pred_modes(&big, ref, GSP_F64, GSP_APSP_FLOYD_WARSHALL, 1, "f64-1e8");
      both_pred_modes(&big, ref, GSP_F64, GSP_APSP_MINPLUS, 1, "f64-1e8");
    }
    free(ref);
    ref = make_ref(&a);
    if (ref != NULL) {
      run_scaled(&a, ref, GSP_APSP_FLOYD_WARSHALL, "f64");
      run_scaled(&a, ref, GSP_APSP_MINPLUS, "f64");
    }
    free(ref);
    t_arcs_free(&big);
    t_arcs_free(&a);
  }
}

/* int32 with paths has two fast kernels: the packed one (a single DPX
 * add-min on (distance << 7 | k tag), chosen when 4 (n+1) max|w| < 2^23 - 1)
 * and the unpacked one (larger weights, up to 2^30 - 1). Graphs on either
 * side of that boundary, with negative arcs (weights w + pot[u] - pot[v], no
 * negative cycles) and many equal-length paths (ties). (The out-of-core
 * tests run the packed kernel with K = the super-block.) */
static void test_weight_ranges(void) {
  const int32_t maxw[] = {6900, 6970, 100000};
  const int32_t n = 300;
  int wi;
  for (wi = 0; wi < 3; wi++) {
    t_arcs a;
    t_rng r;
    int64_t* ref;
    int32_t u, pot[300];
    const int32_t half = maxw[wi] / 2;
    r.s = 77u + (uint64_t)wi;
    t_arcs_init(&a, "weight-range", n);
    for (u = 0; u < n; u++) pot[u] = t_below(&r, half);
    for (u = 0; u < n; u++) {
      int e;
      for (e = 0; e < 6; e++) {
        const int32_t v = t_below(&r, n);
        /* coarse base weights: many ties */
        const int32_t base = (t_below(&r, 4) * (half - 1)) / 3;
        t_arc(&a, u, v, base + pot[u] - pot[v]);
      }
    }
    ref = make_ref(&a);
    if (ref != NULL) {
      run_case(&a, ref, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 1, 0, NULL, 0, "weight range");
      run_case(&a, ref, GSP_I32, GSP_APSP_MINPLUS, 1, 0, NULL, 0, "weight range");
      run_case(&a, ref, GSP_I32, GSP_APSP_FLOYD_WARSHALL, 0, 0, NULL, 0, "weight range");
    }
    free(ref);
    t_arcs_free(&a);
  }
}

int main(void) {
  const char* e = getenv("GSP_TEST_SMALL");
  small_mode = e != NULL ? atoi(e) : 0;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  if (small_mode < 3) {
    test_negative_cycles();
    test_big_weights();
    test_f64_weights();
    test_weight_ranges();
    test_sources_subset();
    test_out_of_core();
  }
  if (small_mode < 2) test_lookahead();
  test_shapes();
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_apsp_dense");
}
