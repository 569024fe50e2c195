/* The GPU SSSP family (delta-stepping, Bellman-Ford, min-plus SpMV CSR/ELL,
 * GPU Dijkstra) beyond what test_gpu_sssp.c covers: negative cycles on the
 * GPU (reachable and not), the hybrid ELL+COO fallback, explicit delta
 * values (tiny, exact, huge), zero-weight cycles in the predecessor tree,
 * negative-weight refusal, road-like chains, larger graphs against the CPU
 * (grids with and without speculative pushes), and many results alive at
 * once in the cached pinned result buffers.
 *
 * GSP_FAMILY_BENCH=2: a short delta-stepping sweep instead (no CPU engines).
 * GSP_FAMILY_BENCH=1 adds a timing table (NY road graph, Graph65536,
 * R-MAT 1M/16M; CPU delta-stepping/Dijkstra next to every GPU engine, and
 * several delta rules). GSP_TEST_SMALL=1 shrinks the graphs.
 * Skips (exit 77) where no CUDA device is usable. */
#define _POSIX_C_SOURCE 200809L
#include "testing.h"
#include "../bench/bench_common.h"
#include "gsp_generators.h"
#include "gpu/pred_check.h"

static int g_small = 0;

static gsp_status run_opts(const gsp_graph* g, int32_t src, gsp_backend b, gsp_algorithm a, double delta,
                           size_t limit, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = b;
  o.algorithm = a;
  o.delta = delta;
  o.device_memory_limit = limit;
  *out = NULL;
  return gsp_sssp_run(g, src, &o, out);
}

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
    if (x != src) { fprintf(stderr, "%s: following pred from %d does not reach the source\n", what, v); bad++; }
  }
  free(pred);
  return bad;
}

static void check_against_ref(const gsp_graph* g, const t_arcs* a, int32_t src, gsp_dtype dt, gsp_algorithm al,
                              double delta, const int64_t* ref, const char* tag) {
  gsp_paths* p = NULL;
  char what[200];
  gsp_status s = run_opts(g, src, GSP_BACKEND_CUDA, al, delta, 0, &p);
  snprintf(what, sizeof what, "%s/%s/%s/delta=%g", tag, gsp_algorithm_name(al), dt == GSP_I32 ? "i32" : "f32", delta);
  CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    CHECK(t_compare_row(p, dt, src, ref, a->n, 1.0f, what) == 0, "%s: distances differ from the reference", what);
    CHECK(check_tree(g, p, src, dt, what) == 0, "%s: bad predecessor tree", what);
  }
  gsp_paths_destroy(p);
}

static const gsp_algorithm kNeg[] = {GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR, GSP_SSSP_SPMV_ELL};
static const gsp_algorithm kAll[] = {GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,
                                     GSP_SSSP_SPMV_ELL, GSP_SSSP_GPU_DIJKSTRA};

/* A reachable negative cycle: GSP_ERR_NEGATIVE_CYCLE; an unreachable one: OK. */
static void test_negative_cycles(void) {
  int d, ai, reach;
  for (reach = 0; reach < 2; reach++) {
    for (d = 0; d < 2; d++) {
      const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
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
                gsp_algorithm_name(kNeg[ai]), dt == GSP_I32 ? "i32" : "f32", gsp_status_name(s), gsp_last_error());
          CHECK(p == NULL, "no result on failure");
        } else {
          CHECK(s == GSP_OK, "unreachable negcycle/%s: %s: %s", gsp_algorithm_name(kNeg[ai]), gsp_status_name(s),
                gsp_last_error());
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
  for (d = 0; d < 2; d++) {
    const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
    t_arcs a;
    t_rng r = {99};
    gsp_graph* g;
    int64_t* ref;
    gsp_paths* p = NULL;
    int32_t i;
    t_arcs_init(&a, "hub", n);
    for (i = 1; i < n; i++) t_arc(&a, i, 0, 2 + t_below(&r, 1000));     /* in-degree n-1 at vertex 0 */
    for (i = 0; i < n; i++) t_arc(&a, i, t_below(&r, n), 1 + t_below(&r, 100));
    for (i = 0; i < n; i++) t_arc(&a, i, t_below(&r, n), 1 + t_below(&r, 100));
    for (i = 0; i < 50; i++) t_arc(&a, 0, 1 + t_below(&r, n - 1), -1); /* negative arcs out of the hub, no negative cycle */
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

/* Explicit deltas: tiny (many buckets), the weights themselves, huge (one bucket). */
static void test_deltas(void) {
  static const int shapes[] = {T_RANDOM_SPARSE, T_POWER_LAW, T_GRID, T_ZERO_WEIGHTS, T_LOOPS_PARALLEL, T_RING};
  static const double deltas[] = {0, 0.25, 1, 7, 50, 1e12};
  const int32_t n = g_small ? 60 : 3000;
  int si, d, k;
  for (si = 0; si < (int)(sizeof shapes / sizeof shapes[0]); si++) {
    for (d = 0; d < 2; d++) {
      const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
      t_arcs a;
      gsp_graph* g;
      int64_t* ref;
      t_make_shape(&a, shapes[si], n, 5);
      g = t_graph(&a, dt, 1.0f);
      ref = (int64_t*)malloc((size_t)a.n * sizeof(int64_t));
      t_ref_bellman_ford(&a, 0, ref);
      for (k = 0; k < (int)(sizeof deltas / sizeof deltas[0]); k++) {
        check_against_ref(g, &a, 0, dt, GSP_SSSP_DELTA_STEPPING, deltas[k], ref, a.name);
      }
      free(ref);
      gsp_graph_destroy(g);
      t_arcs_free(&a);
    }
  }
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

/* Zero-weight cycles everywhere: every engine's predecessors form a tree. */
static void test_zero_cycles(void) {
  const int32_t n = g_small ? 50 : 4000;
  int d, ai;
  for (d = 0; d < 2; d++) {
    const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
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
    for (ai = 0; ai < (int)(sizeof kAll / sizeof kAll[0]); ai++) check_against_ref(g, &a, 3, dt, kAll[ai], 0, ref, "zero-cycles");
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
  for (d = 0; d < 4; d++) {
    /* d = 0, 1: chain weights 0..9 (zero arcs: the speculative pushes are
     * off); d = 2, 3: 1..10 (on). */
    const gsp_dtype dt = d & 1 ? GSP_F32 : GSP_I32;
    const int32_t w0 = d >> 1;
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
      if (c == 0) srcs[nsrc++] = next;                         /* first interior */
      if (c == 1) srcs[nsrc++] = next + len[c] / 2;            /* a middle */
      if (c == 2) srcs[nsrc++] = next + len[c] - 1;            /* last interior */
      if (c == 7) srcs[nsrc++] = next + len[c] / 2;            /* inside a loop chain */
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
      setenv("GSP_CUDA_LOCAL_ROUNDS", "0", 1);
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_DELTA_STEPPING, 0, ref, tag);
      unsetenv("GSP_CUDA_LOCAL_ROUNDS");
      check_against_ref(g, &a, srcs[si], dt, GSP_SSSP_BELLMAN_FORD, 0, ref, tag);
    }
    free(ref);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* Large graphs (many blocks, many buckets, far-pile traffic) against the
 * CPU Dijkstra, distances and predecessors: a random graph, an R-MAT graph,
 * a grid (low degree: block-local waves on the ELL copy, speculative
 * pushes) and a unit-weight grid, where almost every vertex is reached by
 * many shortest paths of equal length: the speculative waves' duplicate
 * filters must keep one vertex from re-offering its whole subtree. On the
 * grids delta-stepping runs a second time with the speculative pushes off
 * (GSP_CUDA_SPEC=0), and the speculative run may relax at most 3x the arcs
 * of that run (a duplicate cascade costs orders of magnitude more). */
static void test_large(void) {
  const int32_t n = g_small ? 2000 : 200000;
  const int32_t side = g_small ? 40 : 400;
  int d, ai;
  for (d = 0; d < 2; d++) {
    const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
    const char* dn = dt == GSP_I32 ? "i32" : "f32";
    gsp_graph* graphs[4] = {NULL, NULL, NULL, NULL};
    int gi;
    graphs[0] = bench_random_graph(n, 6, 1000, 11, dt);
    graphs[1] = bench_rmat_graph(g_small ? 11 : 17, (int64_t)(g_small ? 2048 : 131072) * 12, 1000, 3, dt);
    CHECK_OK(gsp_gen_grid(&graphs[2], side, side, 5, dt, 1000));
    CHECK_OK(gsp_gen_grid(&graphs[3], side, side, 6, dt, 1));
    for (gi = 0; gi < 4; gi++) {
      gsp_graph* g = graphs[gi];
      int32_t gn;
      int64_t relax_spec = 0;
      gsp_paths* cpu = NULL;
      void *want, *got;
      if (g == NULL) continue;
      gn = gsp_graph_num_vertices(g);
      want = malloc((size_t)gn * 4);
      got = malloc((size_t)gn * 4);
      CHECK_OK(run_opts(g, 0, GSP_BACKEND_CPU, GSP_SSSP_DIJKSTRA, 0, 0, &cpu));
      if (cpu) gsp_paths_distances(cpu, 0, want, gn);
      /* kAll[0..3] (GPU Dijkstra is O(n^2): skipped here), then on the
       * grids delta-stepping without speculative pushes. */
      for (ai = 0; ai < (gi >= 2 ? 5 : 4) && cpu; ai++) {
        const gsp_algorithm al = ai < 4 ? kAll[ai] : GSP_SSSP_DELTA_STEPPING;
        const char* spec = ai < 4 ? "" : "/nospec";
        gsp_paths* p = NULL;
        gsp_status s;
        if (ai == 4) setenv("GSP_CUDA_SPEC", "0", 1);
        s = run_opts(g, 0, GSP_BACKEND_CUDA, al, 0, 0, &p);
        unsetenv("GSP_CUDA_SPEC");
        CHECK(s == GSP_OK, "large%d/%s%s: %s: %s", gi, gsp_algorithm_name(al), spec, gsp_status_name(s), gsp_last_error());
        if (s == GSP_OK) {
          int32_t v, bad = 0;
          char what[80];
          gsp_run_info info;
          memset(&info, 0, sizeof info);
          info.size = sizeof info;
          gsp_paths_info(p, &info);
          gsp_paths_distances(p, 0, got, gn);
          for (v = 0; v < gn; v++) {
            if (dt == GSP_I32) bad += ((int32_t*)got)[v] != ((int32_t*)want)[v];
            else {
              float x = ((float*)got)[v], y = ((float*)want)[v];
              bad += !((isinf(x) && isinf(y)) || fabs((double)x - (double)y) <= 1e-4 * (fabs((double)y) + 1.0));
            }
          }
          snprintf(what, sizeof what, "large%d/%s%s/%s", gi, gsp_algorithm_name(al), spec, dn);
          CHECK(bad == 0, "%s: %d distances differ from the CPU Dijkstra", what, bad);
          CHECK(check_pred_csr(g, p, 0, dt, what) == 0, "%s: invalid predecessors", what);
          if (ai == 0) relax_spec = info.relaxations;
          if (ai == 4) {
            CHECK(info.relaxations > 0 && relax_spec <= 3 * info.relaxations,
                  "%s: the speculative run relaxed %lld arcs, this run %lld", what, (long long)relax_spec,
                  (long long)info.relaxations);
          }
        }
        gsp_paths_destroy(p);
      }
      gsp_paths_destroy(cpu);
      free(want); free(got);
      gsp_graph_destroy(g);
    }
  }
}

/* CUDA results live in page-locked buffers that the library caches between
 * runs (cuda/memory_cache.cu): many results alive at once (more than the
 * cache keeps), of two sizes, each checked against the CPU only after all
 * were made (a buffer handed out twice would show as a changed result),
 * destroyed in mixed order, then made again from the cache, and once more
 * after gsp_release_cached_memory(). */
static void test_result_buffers(void) {
  enum { kRuns = 12 };
  const int32_t side[2] = {g_small ? 20 : 60, g_small ? 28 : 84}; /* n and ~2n */
  gsp_graph* graphs[2] = {NULL, NULL};
  gsp_paths* gpu[kRuns];
  int round, i;
  CHECK_OK(gsp_gen_grid(&graphs[0], side[0], side[0], 21, GSP_I32, 100));
  CHECK_OK(gsp_gen_grid(&graphs[1], side[1], side[1], 22, GSP_I32, 100));
  if (graphs[0] == NULL || graphs[1] == NULL) goto out;
  for (round = 0; round < 3; round++) {
    if (round == 2) gsp_release_cached_memory();
    for (i = 0; i < kRuns; i++) {
      const gsp_graph* g = graphs[i & 1];
      gpu[i] = NULL;
      CHECK_OK(run_opts(g, (i * 37) % gsp_graph_num_vertices(g), GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, 0, 0,
                        &gpu[i]));
    }
    for (i = 0; i < kRuns; i++) {
      const gsp_graph* g = graphs[i & 1];
      const int32_t n = gsp_graph_num_vertices(g), src = (i * 37) % n;
      gsp_paths* cpu = NULL;
      int32_t *want, *got, *pw, *pg, v, bad = 0;
      if (gpu[i] == NULL) continue;
      want = (int32_t*)malloc((size_t)n * 4 * 4);
      got = want + n;
      pw = got + n;
      pg = pw + n;
      CHECK_OK(run_opts(g, src, GSP_BACKEND_CPU, GSP_SSSP_DIJKSTRA, 0, 0, &cpu));
      if (cpu != NULL) {
        gsp_paths_distances(cpu, src, want, n);
        gsp_paths_distances(gpu[i], src, got, n);
        gsp_paths_predecessors(cpu, src, pw, n);
        gsp_paths_predecessors(gpu[i], src, pg, n);
        for (v = 0; v < n; v++) bad += want[v] != got[v] || (pg[v] < 0) != (pw[v] < 0);
        CHECK(bad == 0, "result buffers, round %d, run %d: %d vertices differ from the CPU", round, i, bad);
      }
      gsp_paths_destroy(cpu);
      free(want);
    }
    for (i = 0; i < kRuns; i += 2) gsp_paths_destroy(gpu[i]);
    for (i = kRuns - 1; i > 0; i -= 2) gsp_paths_destroy(gpu[i]);
  }
out:
  gsp_graph_destroy(graphs[0]);
  gsp_graph_destroy(graphs[1]);
}

/* ------------------------------------------------------------- bench */
static double time_run(const gsp_graph* g, gsp_backend b, gsp_algorithm al, double delta, int reps, int64_t* iters,
                       double* wall) {
  double t[32], w[32];
  int k, got = 0;
  gsp_paths* p = NULL;
  if (run_opts(g, 0, b, al, delta, 0, &p) != GSP_OK) { /* warm-up (upload) */
    fprintf(stderr, "bench %s: %s\n", gsp_algorithm_name(al), gsp_last_error());
    return NAN;
  }
  gsp_paths_destroy(p);
  for (k = 0; k < reps && k < 32; k++) {
    gsp_run_info info;
    double t0 = bench_now();
    gsp_status s = run_opts(g, 0, b, al, delta, 0, &p);
    w[got] = bench_now() - t0;
    if (s != GSP_OK) break;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    gsp_paths_info(p, &info);
    t[got++] = info.seconds;
    *iters = info.iterations;
    gsp_paths_destroy(p);
  }
  *wall = bench_median(w, got);
  return bench_median(t, got);
}

/* GSP_FAMILY_BENCH=2: the short delta-stepping sweep (no CPU engines):
 * time split, pool on/off, filtering, local waves per round (ELL / CSR
 * waves, chasing), delta, blocks per SM. */
static void bench_ds_row(gsp_graph* g, const char* name, const char* label, double delta, int reps) {
  int64_t it = 0;
  double wall;
  const double t = time_run(g, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, delta, reps, &it, &wall);
  printf("BENCH %-12s %-34s %10.3f ms  wall %8.3f ms  phases %lld\n", name, label, 1e3 * t, 1e3 * wall,
         (long long)it);
  fflush(stdout);
}

static void bench_ds_sweep(gsp_graph* g, const char* name, double avgw, double avgdeg) {
  static const char* local[] = {"8", "12", "16", "24", "32"};
  const double mults[] = {16, 128, 1024};
  char label[80];
  int ci, li, di;
  const int low_degree = avgdeg <= 4.0;
  bench_ds_row(g, name, "default", 0, 9);
  bench_ds_row(g, name, "default (repeat)", 0, 9);
  setenv("GSP_CUDA_SPEC", "0", 1);
  bench_ds_row(g, name, "no speculative pushes", 0, 9);
  unsetenv("GSP_CUDA_SPEC");
  setenv("GSP_CUDA_SSSP_TIMING", "1", 1);
  bench_ds_row(g, name, "default, timed split (stderr)", 0, 3);
  unsetenv("GSP_CUDA_SSSP_TIMING");
  setenv("GSP_CUDA_SSSP_POOL", "0", 1);
  bench_ds_row(g, name, "default, cudaMalloc (no pool)", 0, 9);
  unsetenv("GSP_CUDA_SSSP_POOL");
  {
    /* The filtering load before each atomicMin (GSP_CUDA_FILTER; default
     * "global": in the global tiles, not in the block-local waves). */
    static const char* filter[] = {"both", "global", "none"};
    int k;
    for (k = 0; k < 3; k++) {
      setenv("GSP_CUDA_FILTER", filter[k], 1);
      snprintf(label, sizeof label, "filter %s", filter[k]);
      bench_ds_row(g, name, label, 0, 7);
    }
    unsetenv("GSP_CUDA_FILTER");
  }
  if (!low_degree) {
    setenv("GSP_CUDA_DS_ONE_BUCKET", "0", 1);
    bench_ds_row(g, name, "buckets of the default width", 0, 7);
    unsetenv("GSP_CUDA_DS_ONE_BUCKET");
    setenv("GSP_CUDA_LOCAL_ROUNDS", "8", 1);
    bench_ds_row(g, name, "L8 (not default here)", 0, 5);
    unsetenv("GSP_CUDA_LOCAL_ROUNDS");
    unsetenv("GSP_CUDA_CHASE");
    return;
  }
  /* Local waves per grid round on the ELL copy (default), on the CSR
   * (GSP_CUDA_ELL=0) and with thread-level chasing (CSR path). */
  for (li = 0; li < 5; li++) {
    const int csr_too = li == 0 || li == 2;
    setenv("GSP_CUDA_LOCAL_ROUNDS", local[li], 1);
    for (ci = 0; ci < (csr_too ? 3 : 1); ci++) {
      if (ci == 2) {
        setenv("GSP_CUDA_CHASE", "2", 1);
      } else if (ci == 1) {
        setenv("GSP_CUDA_ELL", "0", 1);
      }
      snprintf(label, sizeof label, "L%s %s", local[li], ci == 0 ? "ELL waves" : ci == 1 ? "CSR waves" : "chase2");
      bench_ds_row(g, name, label, 0, 7);
      unsetenv("GSP_CUDA_ELL");
      unsetenv("GSP_CUDA_CHASE");
    }
  }
  unsetenv("GSP_CUDA_LOCAL_ROUNDS");
  for (di = 0; di < 3; di++) {
    snprintf(label, sizeof label, "delta %g*avgw/deg", mults[di]);
    bench_ds_row(g, name, label, mults[di] * avgw / avgdeg, 7);
  }
  setenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM", "1", 1);
  bench_ds_row(g, name, "1 block/SM", 0, 7);
  setenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM", "4", 1);
  bench_ds_row(g, name, "4 blocks/SM", 0, 7);
  unsetenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM");
}

static void bench_graph(gsp_graph* g, const char* name) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  const gsp_dtype dt = gsp_graph_weight_type(g);
  double sumw = 0, maxw = 0, avgw, avgdeg;
  int64_t k, it = 0;
  double wall;
  int ai, di;
  {
    void* w = malloc((size_t)m * 4);
    gsp_graph_csr(g, NULL, NULL, w);
    for (k = 0; k < m; k++) {
      double x = dt == GSP_I32 ? (double)((int32_t*)w)[k] : (double)((float*)w)[k];
      sumw += x;
      if (x > maxw) maxw = x;
    }
    free(w);
  }
  avgw = m ? sumw / (double)m : 1;
  avgdeg = (double)m / n;
  printf("BENCH %s n=%d m=%lld %s avg_w=%.1f max_w=%.0f avg_deg=%.2f\n", name, n, (long long)m,
         dt == GSP_I32 ? "i32" : "f32", avgw, maxw, avgdeg);
  if (atoi(getenv("GSP_FAMILY_BENCH")) == 2) {
    bench_ds_sweep(g, name, avgw, avgdeg);
    return;
  }
  {
    double t = time_run(g, GSP_BACKEND_CPU, GSP_SSSP_DIJKSTRA, 0, 5, &it, &wall);
    printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms\n", name, "cpu dijkstra", 1e3 * t, 1e3 * wall);
    t = time_run(g, GSP_BACKEND_CPU, GSP_SSSP_DELTA_STEPPING, 0, 5, &it, &wall);
    printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms\n", name, "cpu delta (all threads)", 1e3 * t, 1e3 * wall);
  }
  {
    const double mults[] = {0, 4, 16, 128, 1024};
    static const char* local_rounds[] = {"0", "8", "64", "512"};
    static const char* per_sm[] = {"1", "4", "2"};
    char label[64];
    double t = 0;
    int li;
    for (di = 0; di < 3; di++) {
      setenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM", per_sm[di], 1);
      t = time_run(g, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, 0, 9, &it, &wall);
      snprintf(label, sizeof label, "gpu delta default %s/SM", per_sm[di]);
      printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms  rounds %lld  MTEPS %.0f\n", name, label, 1e3 * t,
             1e3 * wall, (long long)it, m / t / 1e6);
    }
    unsetenv("GSP_CUDA_PERSISTENT_BLOCKS_PER_SM");
    for (li = 0; li < 4; li++) {
      setenv("GSP_CUDA_LOCAL_ROUNDS", local_rounds[li], 1);
      for (di = 0; di < 5; di++) {
        double delta = mults[di] * avgw / avgdeg;
        snprintf(label, sizeof label, "delta %g*avgw/deg L%s", mults[di], local_rounds[li]);
        t = time_run(g, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, delta, 7, &it, &wall);
        printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms  rounds %lld  (delta %.0f)\n", name, label, 1e3 * t,
               1e3 * wall, (long long)it, delta);
      }
      t = time_run(g, GSP_BACKEND_CUDA, GSP_SSSP_DELTA_STEPPING, maxw / avgdeg, 5, &it, &wall);
      snprintf(label, sizeof label, "delta maxw/deg L%s", local_rounds[li]);
      printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms  rounds %lld\n", name, label, 1e3 * t, 1e3 * wall,
             (long long)it);
      t = time_run(g, GSP_BACKEND_CUDA, GSP_SSSP_BELLMAN_FORD, 0, 5, &it, &wall);
      snprintf(label, sizeof label, "bellman-ford L%s", local_rounds[li]);
      printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms  rounds %lld\n", name, label, 1e3 * t, 1e3 * wall,
             (long long)it);
    }
    unsetenv("GSP_CUDA_LOCAL_ROUNDS");
  }
  for (ai = 1; ai < 5; ai++) {
    double t;
    if (kAll[ai] == GSP_SSSP_GPU_DIJKSTRA && n > 70000) continue;
    t = time_run(g, GSP_BACKEND_CUDA, kAll[ai], 0, 5, &it, &wall);
    printf("BENCH %-12s %-26s %10.3f ms  wall %8.3f ms  rounds %lld\n", name, gsp_algorithm_name(kAll[ai]), 1e3 * t,
           1e3 * wall, (long long)it);
  }
  fflush(stdout);
}

static void bench(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char path[1024];
  gsp_graph* g = NULL;
  int d;
  for (d = 0; d < 1; d++) { /* i32 only: f32 times matched i32 within 3% on the H100 */
    const gsp_dtype dt = d ? GSP_F32 : GSP_I32;
    snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
    if (gsp_graph_load(&g, path, GSP_FORMAT_AUTO, dt, 0) == GSP_OK) {
      bench_graph(g, "NY");
      gsp_graph_destroy(g);
    } else {
      printf("BENCH NY skipped: %s\n", gsp_last_error());
    }
    g = bench_random_graph(65536, 6, 1000, 65536, dt);
    if (g) { bench_graph(g, "Graph65536"); gsp_graph_destroy(g); }
    /* A second low-degree graph with long shortest paths (local waves on). */
    g = NULL;
    if (gsp_gen_grid(&g, 1024, 1024, 7, dt, 1000) == GSP_OK) {
      bench_graph(g, "Grid-1024");
      gsp_graph_destroy(g);
    }
  }
  g = bench_rmat_graph(20, (int64_t)16 << 20, 1000, 20, GSP_F32);
  if (g) { bench_graph(g, "RMAT-1M"); gsp_graph_destroy(g); }
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
  test_zero_cycles();
  test_chains();
  test_large();
  test_result_buffers();
  if (getenv("GSP_FAMILY_BENCH") != NULL && atoi(getenv("GSP_FAMILY_BENCH")) != 0) bench();
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_sssp_family");
}
