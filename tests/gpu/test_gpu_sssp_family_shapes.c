/* The GPU SSSP family (delta-stepping, Bellman-Ford, min-plus SpMV CSR/ELL,
 * GPU Dijkstra) on hand-built graph shapes, beyond what test_gpu_sssp.c
 * covers: negative cycles on the GPU (reachable and not), negative-weight
 * refusal, the hybrid ELL+COO fallback, explicit delta values (tiny, exact,
 * huge), zero-weight cycles in the predecessor tree and road-like chains,
 * each against the reference of testing.h with the predecessor tree
 * checked, in every weight type (i32, f32, f64); and GSP_F64 weights float
 * cannot hold (integers of 1e8..2e8: a negative cycle of total -1 that
 * float would round to 0, explicit deltas of that scale). The larger graphs against the CPU, the pinned result buffers
 * and the benchmark are in test_gpu_sssp_family_large.c.
 *
 * GSP_TEST_SMALL=1 shrinks the graphs.
 * Skips (exit 77) where no CUDA device is usable. */
#define _POSIX_C_SOURCE 200809L
#include "testing.h"
#include "gpu/f64_check.h"
#include "gpu/pred_check.h"
#include "gpu/sssp_family_run.h"
#include "tuning_hook.h"

static int g_small = 0;

/* check_pred_csr() (every predecessor a tight arc, -1 exactly for the source
 * and unreachable vertices), and following the predecessors from every
 * vertex reaches the source in < n steps (no cycles). Returns the number of
 * problems. */
static int check_tree(const gsp_graph* g, const gsp_paths* p, int32_t src, gsp_dtype dt, const char* what) {
  const int32_t n = gsp_graph_num_vertices(g);
  int32_t* pred;
  int32_t v;
  int bad = check_pred_csr(g, p, src, dt, what);
  if (bad != 0) return bad;
  pred = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  if (gsp_paths_predecessors(p, src, pred, n) != GSP_OK) bad = 1;
  for (v = 0; v < n && bad < 5; v++) {
    int32_t x = v, steps = 0;
    if (pred[v] < 0) continue;
    for (; x != src && x >= 0 && steps <= n; steps++) x = pred[x];
    if (x != src) {
      fprintf(stderr, "%s: following pred from %d does not reach the source\n", what, v);
      bad++;
    }
  }
  free(pred);
  return bad;
}

static void check_against_ref(const gsp_graph* g, const t_arcs* a, int32_t src, gsp_dtype dt, gsp_algorithm al,
                              double delta, const int64_t* ref, const char* tag) {
  gsp_paths* p = NULL;
  char what[200];
  gsp_status s = run_opts(g, src, GSP_BACKEND_CUDA, al, delta, 0, &p);
  snprintf(what, sizeof what, "%s/%s/%s/delta=%g", tag, gsp_algorithm_name(al), t_dtype_name(dt), delta);
  CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    CHECK(t_compare_row(p, dt, src, ref, a->n, 1.0f, what) == 0, "%s: distances differ from the reference", what);
    CHECK(check_tree(g, p, src, dt, what) == 0, "%s: bad predecessor tree", what);
  }
  gsp_paths_destroy(p);
}

static const gsp_algorithm kNeg[] = {GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR, GSP_SSSP_SPMV_ELL};

/* A reachable negative cycle: GSP_ERR_NEGATIVE_CYCLE; an unreachable one: OK. */
static void test_negative_cycles(void) {
  int d, ai, reach;
  for (reach = 0; reach < 2; reach++) {
    for (d = 0; d < T_NUM_DTYPES; d++) {
      const gsp_dtype dt = t_dtypes[d];
      t_arcs a;
      gsp_graph* g;
      int64_t* ref;
      int32_t i, n = g_small ? 30 : 2000;
      t_arcs_init(&a, "negcycle", n);
      /* a path 0 -> 1 -> ... -> n-3 with a cycle (n-2 <-> n-1) of weight -1 hanging off it */
      for (i = 0; i + 3 < n; i++) t_arc(&a, i, i + 1, 3);
      if (reach) t_arc(&a, n - 3, n - 2, 5);
      t_arc(&a, n - 2, n - 1, 4);
      t_arc(&a, n - 1, n - 2, -5);
      t_arc(&a, n - 1, 0, 7);
      g = t_graph(&a, dt, 1.0f);
      ref = (int64_t*)malloc((size_t)n * sizeof(int64_t));
      CHECK(t_ref_bellman_ford(&a, 0, ref) == reach, "reference disagrees about the cycle");
      for (ai = 0; ai < 3; ai++) {
        gsp_paths* p = NULL;
        gsp_status s = run_opts(g, 0, GSP_BACKEND_CUDA, kNeg[ai], 0, 0, &p);
        if (reach) {
          CHECK(s == GSP_ERR_NEGATIVE_CYCLE, "negcycle/%s/%s: %s (want GSP_ERR_NEGATIVE_CYCLE): %s",
                gsp_algorithm_name(kNeg[ai]), t_dtype_name(dt), gsp_status_name(s), gsp_last_error());
          CHECK(p == NULL, "no result on failure");
        } else {
          CHECK(s == GSP_OK, "unreachable negcycle/%s/%s: %s: %s", gsp_algorithm_name(kNeg[ai]), t_dtype_name(dt),
                gsp_status_name(s), gsp_last_error());
          if (s == GSP_OK) CHECK(t_compare_row(p, dt, 0, ref, n, 1.0f, "unreachable negcycle") == 0, "distances");
        }
        gsp_paths_destroy(p);
      }
      /* Source on the cycle itself, and a negative self-loop at the source. */
      if (reach) {
        gsp_paths* p = NULL;
        CHECK_STATUS(run_opts(g, n - 1, GSP_BACKEND_CUDA, GSP_SSSP_BELLMAN_FORD, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
        gsp_paths_destroy(p);
        /* Non-negative engines refuse the graph outright. */
        CHECK_STATUS(run_opts(g, 0, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
        CHECK_STATUS(run_opts(g, 0, GSP_BACKEND_CUDA, GSP_SSSP_GPU_DIJKSTRA, 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
      }
      free(ref);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
  {
    /* GSP_F64: a cycle of total -1 among arcs of 1e8 (float would round
     * -100000001 to -1e8: a zero cycle), reachable and not. */
    for (reach = 0; reach < 2; reach++) {
      t_arcs a;
      gsp_graph* g;
      int64_t* ref;
      int32_t i, n = g_small ? 30 : 2000;
      t_arcs_init(&a, "negcycle-1e8", n);
      for (i = 0; i + 3 < n; i++) t_arc(&a, i, i + 1, 100000000 + i);
      if (reach) t_arc(&a, n - 3, n - 2, 100000000);
      t_arc(&a, n - 2, n - 1, 100000000);
      t_arc(&a, n - 1, n - 2, -100000001);
      t_arc(&a, n - 1, 0, 7);
      g = t_graph(&a, GSP_F64, 1.0f);
      ref = (int64_t*)malloc((size_t)n * sizeof(int64_t));
      CHECK(t_ref_bellman_ford(&a, 0, ref) == reach, "reference disagrees about the 1e8 cycle");
      for (ai = 0; ai < 3; ai++) {
        gsp_paths* p = NULL;
        gsp_status s = run_opts(g, 0, GSP_BACKEND_CUDA, kNeg[ai], 0, 0, &p);
        if (reach) {
          CHECK(s == GSP_ERR_NEGATIVE_CYCLE, "negcycle-1e8/%s/f64: %s (want GSP_ERR_NEGATIVE_CYCLE): %s",
                gsp_algorithm_name(kNeg[ai]), gsp_status_name(s), gsp_last_error());
        } else {
          CHECK(s == GSP_OK, "unreachable negcycle-1e8/%s/f64: %s: %s", gsp_algorithm_name(kNeg[ai]),
                gsp_status_name(s), gsp_last_error());
          if (s == GSP_OK)
            CHECK(t_compare_row(p, GSP_F64, 0, ref, n, 1.0f, "unreachable negcycle-1e8") == 0, "distances");
        }
        gsp_paths_destroy(p);
      }
      free(ref);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
  {
    int32_t s1[] = {0}, t1[] = {0}, w1[] = {-1};
    gsp_graph* g = NULL;
    gsp_paths* p = NULL;
    CHECK_OK(gsp_graph_create(&g, 1, 1, s1, t1, w1, GSP_I32, 0));
    for (ai = 0; ai < 3; ai++) {
      CHECK_STATUS(run_opts(g, 0, GSP_BACKEND_CUDA, kNeg[ai], 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
      gsp_paths_destroy(p);
    }
    gsp_graph_destroy(g);
  }
}

/* A hub with in-degree n-1 on top of sparse arcs: ELL must go hybrid
 * (ELL + COO tail) and still be exact; a tight budget refuses cleanly. */
static void test_ell_hybrid(void) {
  int d;
  const int32_t n = g_small ? 300 : 20000;
  for (d = 0; d < T_NUM_DTYPES; d++) {
    const gsp_dtype dt = t_dtypes[d];
    t_arcs a;
    t_rng r = {99};
    gsp_graph* g;
    int64_t* ref;
    gsp_paths* p = NULL;
    int32_t i;
    t_arcs_init(&a, "hub", n);
    for (i = 1; i < n; i++) t_arc(&a, i, 0, 2 + t_below(&r, 1000)); /* in-degree n-1 at vertex 0 */
    for (i = 0; i < n; i++) t_arc(&a, i, t_below(&r, n), 1 + t_below(&r, 100));
    for (i = 0; i < n; i++) t_arc(&a, i, t_below(&r, n), 1 + t_below(&r, 100));
    for (i = 0; i < 50; i++)
      t_arc(&a, 0, 1 + t_below(&r, n - 1), -1); /* negative arcs out of the hub, no negative cycle */
    g = t_graph(&a, dt, 1.0f);
    ref = (int64_t*)malloc((size_t)n * sizeof(int64_t));
    if (t_ref_bellman_ford(&a, 5, ref) == 0) {
      check_against_ref(g, &a, 5, dt, GSP_SSSP_SPMV_ELL, 0, ref, "hub");
      check_against_ref(g, &a, 5, dt, GSP_SSSP_SPMV_CSR, 0, ref, "hub");
      check_against_ref(g, &a, 5, dt, GSP_SSSP_BELLMAN_FORD, 0, ref, "hub");
    } else {
      CHECK_STATUS(run_opts(g, 5, GSP_BACKEND_CUDA, GSP_SSSP_SPMV_ELL, 0, 0, &p), GSP_ERR_NEGATIVE_CYCLE);
      gsp_paths_destroy(p);
    }
    /* Not even the hybrid fits in 4 KiB beyond the graph. */
    p = NULL;
    CHECK_STATUS(run_opts(g, 5, GSP_BACKEND_CUDA, GSP_SSSP_SPMV_ELL, 0, 4096, &p), GSP_ERR_DEVICE_OUT_OF_MEMORY);
    gsp_paths_destroy(p);
    /* And the next run still works. */
    p = NULL;
    CHECK_OK(run_opts(g, 5, GSP_BACKEND_CUDA, GSP_SSSP_SPMV_ELL, 0, 0, &p));
    gsp_paths_destroy(p);
    free(ref);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* The shapes delta-stepping is checked on, each in every weight type: body
 * runs on the graph with its Bellman-Ford reference from vertex 0. */
typedef void (*shape_body)(const gsp_graph* g, const t_arcs* a, gsp_dtype dt, const int64_t* ref);

static void for_each_shape(shape_body body) {
  static const int shapes[] = {T_RANDOM_SPARSE, T_POWER_LAW, T_GRID, T_ZERO_WEIGHTS, T_LOOPS_PARALLEL, T_RING};
  const int32_t n = g_small ? 60 : 3000;
  int si, d;
  for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
    for (d = 0; d < T_NUM_DTYPES; d++) {
      t_arcs a;
      gsp_graph* g;
      int64_t* ref;
      t_make_shape(&a, shapes[si], n, 5);
      g = t_graph(&a, t_dtypes[d], 1.0f);
      ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
      t_ref_bellman_ford(&a, 0, ref);
      body(g, &a, t_dtypes[d], ref);
      free(ref);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
}

/* Explicit deltas: tiny (many buckets), the weights themselves, huge (one bucket). */
static void deltas_on(const gsp_graph* g, const t_arcs* a, gsp_dtype dt, const int64_t* ref) {
  static const double deltas[] = {0, 0.25, 1, 7, 50, 1e12};
  int k;
  for (k = 0; k < (int)(sizeof deltas / sizeof deltas[0]); k++) {
    check_against_ref(g, a, 0, dt, GSP_SSSP_DELTA_STEPPING, deltas[k], ref, a->name);
  }
}

static void test_deltas(void) {
  for_each_shape(deltas_on);
  {
    t_arcs a;
    gsp_graph* g;
    gsp_paths* p = NULL;
    t_make_shape(&a, T_RING, 10, 1);
    g = t_graph(&a, GSP_F32, 1.0f);
    CHECK_STATUS(run_opts(g, 0, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, -1.0, 0, &p), GSP_ERR_INVALID_ARGUMENT);
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* The frontier engine's designs (doc/gpu-sssp-family.md, "Choosing delta"
 * and "Hubs"), forced through their knobs on every shape and weight type:
 * hub lists on every vertex with more than one arc (GSP_CUDA_HUB_ARCS=1;
 * light and heavy hub entries, one bucket with its round limit of 2n + 2),
 * the heavy arcs told apart by weight, copied, or not at all
 * (GSP_CUDA_DS_SPLIT) at narrow widths (GSP_CUDA_DS_DELTA_SCALE), with and
 * without the block-local waves, and one bucket (GSP_CUDA_DS_ONE_BUCKET).
 * Each against the Bellman-Ford reference with its predecessor tree
 * checked. */
static void designs_on(const gsp_graph* g, const t_arcs* a, gsp_dtype dt, const int64_t* ref) {
  static const char* const designs[][8] = {
      {"GSP_CUDA_HUB_ARCS", "1", NULL},
      {"GSP_CUDA_HUB_ARCS", "1", "GSP_CUDA_DS_SPLIT", "filter", "GSP_CUDA_DS_DELTA_SCALE", "1", NULL},
      {"GSP_CUDA_HUB_ARCS", "1", "GSP_CUDA_DS_ONE_BUCKET", "1", NULL},
      {"GSP_CUDA_DS_SPLIT", "filter", "GSP_CUDA_DS_DELTA_SCALE", "2", NULL},
      {"GSP_CUDA_DS_SPLIT", "none", "GSP_CUDA_DS_DELTA_SCALE", "2", NULL},
      {"GSP_CUDA_DS_SPLIT", "copy", "GSP_CUDA_DS_DELTA_SCALE", "2", NULL},
      {"GSP_CUDA_DS_SPLIT", "filter", "GSP_CUDA_DS_DELTA_SCALE", "1", "GSP_CUDA_LOCAL_ROUNDS", "0", NULL},
      {"GSP_CUDA_DS_ONE_BUCKET", "1", NULL},
  };
  int k, v;
  for (k = 0; k < (int)(sizeof designs / sizeof designs[0]); k++) {
    char tag[160];
    int used = snprintf(tag, sizeof tag, "%s", a->name);
    for (v = 0; designs[k][v] != NULL; v += 2) {
      t_tuning(designs[k][v], designs[k][v + 1]);
      if (used < (int)sizeof tag)
        used += snprintf(tag + used, sizeof tag - (size_t)used, ",%s=%s", designs[k][v] + 4, designs[k][v + 1]);
    }
    check_against_ref(g, a, 0, dt, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
    for (v = 0; designs[k][v] != NULL; v += 2) t_tuning(designs[k][v], NULL);
  }
}

static void test_designs(void) { for_each_shape(designs_on); }

/* Zero-weight cycles everywhere: every engine's predecessors form a tree. */
static void test_zero_cycles(void) {
  const int32_t n = g_small ? 50 : 4000;
  int d, ai;
  for (d = 0; d < T_NUM_DTYPES; d++) {
    const gsp_dtype dt = t_dtypes[d];
    t_arcs a;
    t_rng r = {7};
    gsp_graph* g;
    int64_t* ref;
    int32_t i;
    t_arcs_init(&a, "zero-cycles", n);
    for (i = 0; i < n; i++) {
      t_arc(&a, i, (i + 1) % n, 0);
      t_arc(&a, (i + 1) % n, i, 0);
      t_arc(&a, i, t_below(&r, n), t_below(&r, 3));
    }
    g = t_graph(&a, dt, 1.0f);
    ref = (int64_t*)malloc((size_t)n * sizeof(int64_t));
    t_ref_bellman_ford(&a, 3, ref);
    for (ai = 0; ai < (int)(sizeof kAll / sizeof kAll[0]); ai++)
      check_against_ref(g, &a, 3, dt, kAll[ai], 0, ref, "zero-cycles");
    free(ref);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* Road-like shapes: chains of degree-2 vertices between core vertices,
 * with two-way and one-way links, parallel arcs, chains that loop back to
 * their own end, zero weights (and a variant without: the speculative
 * pushes need weights > 0), a dangling chain and a ring made only of
 * degree-2 vertices; sources at core vertices and at the ends and middles
 * of chains. Delta-stepping against the reference with the default delta
 * (local waves on the ELL copy), a narrow delta (heavy arcs: the split
 * copy) and no local waves (CSR path), and Bellman-Ford. (Written for a
 * chain contraction that was measured and dropped; doc/gpu-sssp-family.md.) */
static void test_chains(void) {
  const int32_t core = g_small ? 12 : 60;
  const int32_t chains = 3 * core;
  int d;
  for (d = 0; d < 2 * T_NUM_DTYPES; d++) {
    /* d < T_NUM_DTYPES: chain weights 0..9 (zero arcs: the speculative
     * pushes are off); then 1..10 (on); each in every weight type. */
    const gsp_dtype dt = t_dtypes[d % T_NUM_DTYPES];
    const int32_t w0 = d / T_NUM_DTYPES;
    t_arcs a;
    t_rng r = {11};
    int32_t len[3 * 60], ends[3 * 60][2], c, i, n = core, next, ring, dangle, srcs[8], si, nsrc = 0;
    gsp_graph* g;
    int64_t* ref;
    for (c = 0; c < chains; c++) {
      len[c] = 1 + t_below(&r, 6);
      ends[c][0] = t_below(&r, core);
      ends[c][1] = c % 7 == 0 ? ends[c][0] : t_below(&r, core);
      n += len[c];
    }
    ring = n;
    n += 5;
    dangle = n;
    n += 4;
    t_arcs_init(&a, "chains", n);
    for (i = 0; i < core; i++) {
      t_arc(&a, i, (i + 1) % core, 1 + t_below(&r, 9));
      if (t_below(&r, 2)) t_arc(&a, (i + 1) % core, i, 1 + t_below(&r, 9));
    }
    next = core;
    for (c = 0; c < chains; c++) {
      int32_t prev = ends[c][0], k;
      for (k = 0; k <= len[c]; k++) {
        const int32_t x = k == len[c] ? ends[c][1] : next + k;
        if (t_below(&r, 10) != 0) t_arc(&a, prev, x, w0 + t_below(&r, 10));
        if (t_below(&r, 10) != 0) t_arc(&a, x, prev, w0 + t_below(&r, 10));
        if (t_below(&r, 10) == 0) t_arc(&a, prev, x, w0 + t_below(&r, 10)); /* parallel */
        prev = x;
      }
      if (c == 0) srcs[nsrc++] = next;              /* first interior */
      if (c == 1) srcs[nsrc++] = next + len[c] / 2; /* a middle */
      if (c == 2) srcs[nsrc++] = next + len[c] - 1; /* last interior */
      if (c == 7) srcs[nsrc++] = next + len[c] / 2; /* inside a loop chain */
      next += len[c];
    }
    for (i = 0; i < 5; i++) {
      t_arc(&a, ring + i, ring + (i + 1) % 5, 1 + t_below(&r, 9));
      t_arc(&a, ring + (i + 1) % 5, ring + i, 1 + t_below(&r, 9));
    }
    t_arc(&a, 0, dangle, 2);
    for (i = 0; i < 3; i++) {
      t_arc(&a, dangle + i, dangle + i + 1, 1 + i);
      t_arc(&a, dangle + i + 1, dangle + i, 1);
    }
    t_arc(&a, dangle, 0, 3);
    srcs[nsrc++] = 0;
    srcs[nsrc++] = ring + 2;
    srcs[nsrc++] = dangle + 1;
    srcs[nsrc++] = dangle + 3;
    g = t_graph(&a, dt, 1.0f);
    ref = (int64_t*)malloc((size_t)n * sizeof(int64_t));
    for (si = 0; si < nsrc; si++) {
      char tag[64];
      t_ref_bellman_ford(&a, srcs[si], ref);
      snprintf(tag, sizeof tag, "chains/w%d+/src=%d", w0, srcs[si]);
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_DELTA_STEPPING, 3, ref, tag);
      t_tuning("GSP_CUDA_LOCAL_ROUNDS", "0");
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
      t_tuning("GSP_CUDA_LOCAL_ROUNDS", NULL);
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_BELLMAN_FORD, 0, ref, tag);
    }
    free(ref);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* GSP_F64 weights float cannot hold (testing shapes with integer weights of
 * 1e8..2e8, f64_check.h): every engine of the family against the int64
 * reference, exactly, with the predecessor tree checked; delta-stepping
 * also with deltas of that scale (one weight, a tenth of one: many
 * buckets), without local waves and without speculative pushes. */
static void test_f64_weights(void) {
  static const int shapes[] = {T_POWER_LAW, T_GRID, T_ZERO_WEIGHTS, T_LOOPS_PARALLEL, T_DAG_NEGATIVE};
  const int32_t n = g_small ? 60 : 3000;
  int si, ai;
  for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
    t_arcs a, big;
    gsp_graph* g;
    int64_t* ref;
    char tag[64];
    t_make_shape(&a, shapes[si], n, 9);
    t_f64_big_arcs(&a, &big, 19u + (uint64_t)si);
    snprintf(tag, sizeof tag, "%s-1e8", a.name);
    g = t_graph(&big, GSP_F64, 1.0f);
    ref = (int64_t*)malloc((size_t)big.n * sizeof(int64_t));
    CHECK(t_ref_bellman_ford(&big, 0, ref) == 0, "%s: the reference found a negative cycle", tag);
    for (ai = 0; ai < (int)(sizeof kAll / sizeof kAll[0]); ai++) {
      if (big.negative && kAll[ai] != GSP_SSSP_BELLMAN_FORD && kAll[ai] != GSP_SSSP_SPMV_CSR &&
          kAll[ai] != GSP_SSSP_SPMV_ELL) {
        gsp_paths* p = NULL;
        CHECK_STATUS(run_opts(g, 0, GSP_BACKEND_CUDA, kAll[ai], 0, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
        gsp_paths_destroy(p);
        continue;
      }
      check_against_ref(g, &big, 0, GSP_F64, kAll[ai], 0, ref, tag);
    }
    if (!big.negative) {
      check_against_ref(g, &big, 0, GSP_F64, GSP_SSSP_DELTA_STEPPING, 1.5e8, ref, tag);
      check_against_ref(g, &big, 0, GSP_F64, GSP_SSSP_DELTA_STEPPING, 1.5e7, ref, tag);
      t_tuning("GSP_CUDA_LOCAL_ROUNDS", "0");
      check_against_ref(g, &big, 0, GSP_F64, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
      t_tuning("GSP_CUDA_LOCAL_ROUNDS", NULL);
      t_tuning("GSP_CUDA_SPEC", "0");
      check_against_ref(g, &big, 0, GSP_F64, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
      t_tuning("GSP_CUDA_SPEC", NULL);
    }
    free(ref);
    gsp_graph_destroy(g);
    t_arcs_free(&big);
    t_arcs_free(&a);
  }
}

int main(void) {
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  g_small = getenv("GSP_TEST_SMALL") != NULL && atoi(getenv("GSP_TEST_SMALL")) != 0;
  test_negative_cycles();
  test_ell_hybrid();
  test_deltas();
  test_designs();
  test_zero_cycles();
  test_chains();
  test_f64_weights();
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_sssp_family_shapes");
}
