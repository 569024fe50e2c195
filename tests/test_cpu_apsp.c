/* The CPU APSP engines (blocked Floyd-Warshall, min-plus squaring, repeated
 * Dijkstra, Johnson) through the public API: every shape x both weight types
 * against a plain O(n^3) Floyd-Warshall, sampled path validity, source
 * subsets, negative weights and cycles, int32 overflow, GSP_NO_PATHS,
 * thread counts, streaming and cancellation. */
#include "testing.h"
#include "tuning_hook.h"

static const gsp_algorithm k_algos[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_JOHNSON};
enum { K_NUM_ALGOS = 4 };

static void opts(gsp_options* o, gsp_algorithm algo, int32_t threads, uint32_t flags) {
  gsp_options_init(o);
  o->backend = GSP_BACKEND_CPU;
  o->algorithm = algo;
  o->num_threads = threads;
  o->flags = flags;
}

static gsp_status run(const gsp_graph* g, const int32_t* srcs, int32_t ns, gsp_algorithm algo, int32_t threads,
                      uint32_t flags, gsp_paths** out) {
  gsp_options o;
  opts(&o, algo, threads, flags);
  *out = NULL;
  return gsp_apsp_run(g, srcs, ns, &o, out);
}

/* Checks rows for `srcs` (NULL: all) against the reference matrix. */
static void check_result(const gsp_paths* p, const t_arcs* a, gsp_dtype dt, const int32_t* srcs, int32_t ns,
                         const int64_t* ref, const char* what) {
  int32_t r, v;
  int32_t* pred = (int32_t*)malloc((size_t)a->n * sizeof(int32_t));
  int32_t rows = srcs ? ns : a->n;
  CHECK(gsp_paths_num_sources(p) == rows, "%s: %d rows", what, gsp_paths_num_sources(p));
  for (r = 0; r < rows; r++) {
    int32_t s = srcs ? srcs[r] : r;
    const int64_t* row = ref + (size_t)s * (size_t)a->n;
    CHECK(gsp_paths_source(p, r) == s, "%s: row %d is source %d", what, r, gsp_paths_source(p, r));
    CHECK(t_compare_row(p, dt, s, row, a->n, 1.0f, what) == 0, "%s: row of %d differs", what, s);
    if (r % 7 == 0 || srcs) {
      int32_t step = a->n <= 40 ? 1 : a->n / 13;
      CHECK_OK(gsp_paths_predecessors(p, s, pred, a->n));
      CHECK(pred[s] == -1, "%s: pred[%d][%d] = %d", what, s, s, pred[s]);
      for (v = 0; v < a->n; v++) {
        if (row[v] == T_INF_REF && pred[v] != -1) {
          CHECK(0, "%s: unreachable %d has pred %d", what, v, pred[v]);
          break;
        }
      }
      for (v = (s * 5) % step; v < a->n; v += step)
        CHECK(t_check_path(p, a, s, v, row[v], what) == 0, "%s: path %d->%d", what, s, v);
    }
  }
  free(pred);
}

static void test_shapes(void) {
  static const int32_t sizes[] = {40, 130};
  int shape, si, di, ai;
  for (shape = 0; shape < T_NUM_SHAPES; shape++) {
    for (si = 0; si < 2; si++) {
      t_arcs a;
      int64_t* ref;
      int cyc;
      t_make_shape(&a, shape, sizes[si], 21u + (uint64_t)si);
      ref = (int64_t*)malloc((size_t)a.n * (size_t)a.n * sizeof(int64_t));
      cyc = t_ref_floyd_warshall(&a, ref);
      CHECK(!cyc, "%s: reference found a cycle", a.name);
      for (di = 0; di < T_NUM_DTYPES; di++) {
        gsp_dtype dt = t_dtypes[di];
        gsp_graph* g = t_graph(&a, dt, 1.0f);
        for (ai = 0; ai < K_NUM_ALGOS; ai++) {
          gsp_algorithm algo = k_algos[ai];
          char what[128];
          gsp_paths* p = NULL;
          int32_t subset[4];
          snprintf(what, sizeof what, "%s(n=%d)/%s/%s", a.name, a.n, t_dtype_name(dt), gsp_algorithm_name(algo));
          if (a.negative && algo == GSP_APSP_HEAP) {
            CHECK_STATUS(run(g, NULL, 0, algo, 2, 0, &p), GSP_ERR_NEGATIVE_WEIGHT);
            CHECK(p == NULL, "%s: result on failure", what);
            continue;
          }
          {
            /* The dense engines set predecessors either in the products or by
             * one pass over the finished matrix (GSP_DENSE_PRED): both. */
            static const char* const modes[] = {"track", "pass"};
            const int dense = algo == GSP_APSP_FLOYD_WARSHALL || algo == GSP_APSP_MINPLUS;
            int mi;
            for (mi = 0; mi < (dense ? 2 : 1); mi++) {
              char mwhat[160];
              if (dense) t_tuning("GSP_DENSE_PRED", modes[mi]);
              snprintf(mwhat, sizeof mwhat, "%s%s%s", what, dense ? " pred=" : "", dense ? modes[mi] : "");
              CHECK_OK(run(g, NULL, 0, algo, 1 + (si + di) % 4, 0, &p));
              if (p) check_result(p, &a, dt, NULL, 0, ref, mwhat);
              gsp_paths_destroy(p);
            }
            if (dense) t_tuning("GSP_DENSE_PRED", NULL);
          }
          /* A subset of sources, out of order. */
          subset[0] = a.n - 1;
          subset[1] = a.n / 2;
          subset[2] = 0;
          subset[3] = a.n / 3;
          {
            int32_t ns = a.n >= 4 ? 4 : 1;
            CHECK_OK(run(g, subset, ns, algo, 3, 0, &p));
            if (p) check_result(p, &a, dt, subset, ns, ref, what);
            gsp_paths_destroy(p);
          }
        }
        gsp_graph_destroy(g);
      }
      free(ref);
      t_arcs_free(&a);
    }
  }
}

static void expect_all(const t_arcs* a, gsp_dtype dt, gsp_status fw, gsp_status mp, gsp_status heap, gsp_status jo) {
  gsp_graph* g = t_graph(a, dt, 1.0f);
  gsp_status want[4];
  int ai;
  want[0] = fw;
  want[1] = mp;
  want[2] = heap;
  want[3] = jo;
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    gsp_paths* p = NULL;
    gsp_status s = run(g, NULL, 0, k_algos[ai], 2, 0, &p);
    CHECK(s == want[ai], "%s/%s/%s: %s, want %s (%s)", a->name, t_dtype_name(dt), gsp_algorithm_name(k_algos[ai]),
          gsp_status_name(s), gsp_status_name(want[ai]), gsp_last_error());
    CHECK(s == GSP_OK || p == NULL, "result on failure");
    gsp_paths_destroy(p);
  }
  gsp_graph_destroy(g);
}

static void test_negative_cycles(void) {
  t_arcs a;
  int di, n;
  for (di = 0; di < T_NUM_DTYPES; di++) {
    gsp_dtype dt = t_dtypes[di];
    /* A random graph plus a short negative cycle. */
    t_make_shape(&a, T_DAG_NEGATIVE, 90, 4);
    t_arc(&a, 60, 40, -30);
    expect_all(&a, dt, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_WEIGHT, GSP_ERR_NEGATIVE_CYCLE);
    t_arcs_free(&a);
    /* Hamiltonian negative rings of several lengths (min-plus needs its extra product). */
    for (n = 2; n <= 33; n += (n < 6 ? 1 : 9)) {
      int32_t i;
      t_arcs_init(&a, "neg-ring", n);
      for (i = 0; i < n; i++) t_arc(&a, i, (i + 1) % n, i == n - 1 ? -n : 1);
      expect_all(&a, dt, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_WEIGHT,
                 GSP_ERR_NEGATIVE_CYCLE);
      t_arcs_free(&a);
    }
    /* A zero-weight ring with negative arcs is fine. */
    t_arcs_init(&a, "zero-ring", 9);
    for (n = 0; n < 9; n++) t_arc(&a, n, (n + 1) % 9, n == 8 ? -8 : 1);
    expect_all(&a, dt, GSP_OK, GSP_OK, GSP_ERR_NEGATIVE_WEIGHT, GSP_OK);
    t_arcs_free(&a);
    /* A negative self-loop. */
    t_arcs_init(&a, "neg-loop", 5);
    t_arc(&a, 0, 1, 3);
    t_arc(&a, 3, 3, -1);
    expect_all(&a, dt, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_NEGATIVE_WEIGHT, GSP_ERR_NEGATIVE_CYCLE);
    t_arcs_free(&a);
  }
}

static void test_overflow(void) {
  t_arcs a;
  int32_t big = INT32_MAX / 2 + 10;
  t_arcs_init(&a, "overflow", 70);
  t_arc(&a, 0, 1, big);
  t_arc(&a, 1, 2, big);
  t_arc(&a, 2, 3, 1);
  t_arc(&a, 5, 6, 1);
  expect_all(&a, GSP_I32, GSP_ERR_OVERFLOW, GSP_ERR_OVERFLOW, GSP_ERR_OVERFLOW, GSP_ERR_OVERFLOW);
  expect_all(&a, GSP_F32, GSP_OK, GSP_OK, GSP_OK, GSP_OK);
  expect_all(&a, GSP_F64, GSP_OK, GSP_OK, GSP_OK, GSP_OK);
  t_arcs_free(&a);
  /* An overflowing sum towards a pair reached more cheaply another way is
   * harmless. */
  t_arcs_init(&a, "harmless", 4);
  t_arc(&a, 0, 1, big);
  t_arc(&a, 1, 2, big);
  t_arc(&a, 0, 2, 5);
  /* Floyd-Warshall meets 0 -> 1 -> 3 (too long) at k = 1, while 0 -> 3 is
   * still unreachable, and 0 -> 2 -> 3 only at k = 2. */
  t_arc(&a, 1, 3, big);
  t_arc(&a, 2, 3, 1);
  {
    int64_t ref[16];
    gsp_graph* g = t_graph(&a, GSP_I32, 1.0f);
    int ai;
    t_ref_floyd_warshall(&a, ref);
    for (ai = 0; ai < K_NUM_ALGOS; ai++) {
      gsp_paths* p = NULL;
      CHECK_OK(run(g, NULL, 0, k_algos[ai], 1, 0, &p));
      if (p) check_result(p, &a, GSP_I32, NULL, 0, ref, "harmless");
      gsp_paths_destroy(p);
    }
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
  /* INT32_MAX - 1 is the largest finite distance and is exact. */
  t_arcs_init(&a, "edge", 3);
  t_arc(&a, 0, 1, INT32_MAX / 2);
  t_arc(&a, 1, 2, INT32_MAX / 2);
  {
    int64_t ref[9];
    gsp_graph* g = t_graph(&a, GSP_I32, 1.0f);
    int ai;
    t_ref_floyd_warshall(&a, ref);
    for (ai = 0; ai < K_NUM_ALGOS; ai++) {
      gsp_paths* p = NULL;
      CHECK_OK(run(g, NULL, 0, k_algos[ai], 1, 0, &p));
      if (p) check_result(p, &a, GSP_I32, NULL, 0, ref, "edge");
      gsp_paths_destroy(p);
    }
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

static void test_threads_and_no_paths(void) {
  t_arcs a;
  int di, ai;
  t_make_shape(&a, T_RANDOM_SPARSE, 140, 8);
  for (di = 0; di < T_NUM_DTYPES; di++) {
    gsp_dtype dt = t_dtypes[di];
    gsp_graph* g = t_graph(&a, dt, 1.0f);
    size_t bytes = (size_t)a.n * t_dist_bytes(dt);
    void* r1 = malloc(bytes);
    void* r4 = malloc(bytes);
    void* rn = malloc(bytes);
    for (ai = 0; ai < K_NUM_ALGOS; ai++) {
      gsp_paths *p1 = NULL, *p4 = NULL, *pn = NULL;
      int32_t s, len = 0;
      int same = 1, same_n = 1;
      CHECK_OK(run(g, NULL, 0, k_algos[ai], 1, 0, &p1));
      CHECK_OK(run(g, NULL, 0, k_algos[ai], 4, 0, &p4));
      CHECK_OK(run(g, NULL, 0, k_algos[ai], 4, GSP_NO_PATHS, &pn));
      if (p1 && p4 && pn) {
        for (s = 0; s < a.n; s++) {
          gsp_paths_distances(p1, s, r1, a.n);
          gsp_paths_distances(p4, s, r4, a.n);
          gsp_paths_distances(pn, s, rn, a.n);
          same &= memcmp(r1, r4, bytes) == 0;
          same_n &= memcmp(r1, rn, bytes) == 0;
        }
        CHECK(same, "%s: 1 and 4 threads differ", gsp_algorithm_name(k_algos[ai]));
        CHECK(same_n, "%s: GSP_NO_PATHS distances differ", gsp_algorithm_name(k_algos[ai]));
        CHECK_STATUS(gsp_path_get(pn, 3, 4, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
      }
      if (p4) {
        gsp_run_info info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        CHECK_OK(gsp_paths_info(p4, &info));
        CHECK(info.backend == GSP_BACKEND_CPU && info.algorithm == k_algos[ai] && info.device == -1,
              "info: backend %d algorithm %d", info.backend, info.algorithm);
        CHECK(strcmp(info.device_name, "CPU (4 threads)") == 0, "device name '%s'", info.device_name);
      }
      gsp_paths_destroy(p1);
      gsp_paths_destroy(p4);
      gsp_paths_destroy(pn);
    }
    free(r1);
    free(r4);
    free(rn);
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

/* Streaming: rows arrive in order, in blocks, and match gsp_apsp_run. */
typedef struct {
  int32_t next;
  int32_t n;
  const int64_t* ref;
  const int32_t* srcs;
  int bad;
} t_stream;

static int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  t_stream* st = (t_stream*)user;
  int32_t r, v;
  if (first != st->next) st->bad++;
  for (r = 0; r < rows; r++) {
    const int32_t* d = (const int32_t*)dist + (size_t)r * (size_t)st->n;
    const int64_t* want = st->ref + (size_t)st->srcs[first + r] * (size_t)st->n;
    for (v = 0; v < st->n; v++)
      if (want[v] == T_INF_REF ? d[v] != GSP_I32_INF : d[v] != want[v]) st->bad++;
    if (pred && pred[(size_t)r * (size_t)st->n + (size_t)st->srcs[first + r]] != -1) st->bad++;
  }
  st->next = first + rows;
  return 0;
}

static void test_stream(void) {
  t_arcs a;
  gsp_graph* g;
  int64_t* ref;
  int32_t* srcs;
  int32_t i;
  int ai;
  t_make_shape(&a, T_GRID, 150, 2);
  ref = (int64_t*)malloc((size_t)a.n * (size_t)a.n * sizeof(int64_t));
  t_ref_floyd_warshall(&a, ref);
  srcs = (int32_t*)malloc((size_t)a.n * sizeof(int32_t));
  for (i = 0; i < a.n; i++) srcs[i] = (i * 37) % a.n; /* a permutation (gcd(37, n) = 1) */
  g = t_graph(&a, GSP_I32, 1.0f);
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    gsp_options o;
    t_stream st;
    opts(&o, k_algos[ai], 3, 0);
    st.next = 0;
    st.n = a.n;
    st.ref = ref;
    st.srcs = srcs;
    st.bad = 0;
    CHECK_OK(gsp_apsp_stream(g, srcs, a.n, &o, on_rows, &st));
    CHECK(st.bad == 0 && st.next == a.n, "%s: stream: %d bad, %d rows", gsp_algorithm_name(k_algos[ai]), st.bad,
          st.next);
  }
  gsp_graph_destroy(g);
  free(srcs);
  free(ref);
  t_arcs_free(&a);
}

/* Stops at the second call: the first comes from the dispatcher before the
 * engine starts, the second from inside the engine (threads running). */
static int cancel_cb(void* user, double f) {
  (void)f;
  return ++*(int*)user >= 2;
}

static void test_cancel(void) {
  t_arcs a;
  gsp_graph* g;
  int ai;
  t_make_shape(&a, T_RANDOM_SPARSE, 200, 3);
  g = t_graph(&a, GSP_F32, 1.0f);
  for (ai = 0; ai < K_NUM_ALGOS; ai++) {
    gsp_options o;
    gsp_paths* p = NULL;
    int calls = 0;
    opts(&o, k_algos[ai], 4, 0);
    o.progress = cancel_cb;
    o.progress_user = &calls;
    CHECK_STATUS(gsp_apsp_run(g, NULL, 0, &o, &p), GSP_ERR_CANCELLED);
    CHECK(p == NULL, "result on cancel");
    CHECK(calls == 2, "%s: progress called %d times", gsp_algorithm_name(k_algos[ai]), calls);
  }
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

static void test_unsupported(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_paths* p = NULL;
  t_make_shape(&a, T_RING, 10, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK_STATUS(run(g, NULL, 0, GSP_APSP_TASK_PARALLEL, 1, 0, &p), GSP_ERR_UNSUPPORTED);
  CHECK_STATUS(run(g, NULL, 0, GSP_APSP_SPMM, 1, 0, &p), GSP_ERR_UNSUPPORTED);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

int main(void) {
  test_shapes();
  test_negative_cycles();
  test_overflow();
  test_threads_and_no_paths();
  test_stream();
  test_cancel();
  test_unsupported();
  return t_finish("test_cpu_apsp");
}
