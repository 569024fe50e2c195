/* Faults on the GPU, over every CUDA engine (issue 9):
 *
 * 1. options.device_memory_limit swept from 1 KiB to 256 MiB ("engines batch
 *    or stream or refuse with GSP_ERR_DEVICE_OUT_OF_MEMORY; never a crash,
 *    never a wrong answer").
 * 2. Cancellation by the progress callback at every point it is called (up
 *    to 24 points per engine, spread over the run; 8 with GSP_TEST_SMALL): GSP_ERR_CANCELLED, no
 *    result, and the next run is right; under compute-sanitizer memcheck
 *    with leak checking (tests/gpu/run.sh) nothing is left allocated.
 *
 * For each engine, weight type (i32, f32, f64; the graphs with negative
 * arcs in i32 and f32 only) and limit, one run must either
 *   - succeed with exactly the CPU reference's distances and real shortest
 *     paths (sampled, arc by arc), or
 *   - fail with GSP_ERR_DEVICE_OUT_OF_MEMORY, a message, and no result;
 * nothing else. Across the sweep: 1 KiB fails (nothing fits), the largest
 * limit succeeds, and success is monotone (once a limit is enough, every
 * larger one is). After every refusal the same engine runs unlimited and
 * must still be right (no state left behind), and gsp_release_cached_memory
 * is called between engines. APSP also goes through gsp_apsp_stream at each
 * limit that succeeds, for Floyd-Warshall (the engine that streams a matrix
 * larger than the limit).
 *
 * Skips (exit 77) with a visible SKIP line where no CUDA device is usable.
 * GSP_TEST_SMALL=1: smaller graphs and doubling limits only (compute-sanitizer);
 * 3: four limits (1 KiB, 64 KiB, 4 MiB, 256 MiB) and all-pairs graphs of 96
 * vertices (still over 64 KiB with predecessors, so out-of-core), for
 * racecheck, under which one Floyd-Warshall run of 160 vertices took up to
 * 250 s among 16 sanitizer processes. */
#include "testing.h"

static int g_small = 0, g_level = 0;

/* ------------------------------------------------------------- the sweep */

typedef struct {
  int runs, ok, refused;
  size_t first_ok;  /* smallest limit that succeeded (0: none) */
  size_t last_fail; /* largest limit refused (0: none) */
} t_sweep;

static void sweep_note(t_sweep* sw, size_t limit, gsp_status s) {
  sw->runs++;
  if (s == GSP_OK) {
    sw->ok++;
    if (sw->first_ok == 0 || limit < sw->first_ok) sw->first_ok = limit;
  } else if (s == GSP_ERR_DEVICE_OUT_OF_MEMORY) {
    sw->refused++;
    if (limit > sw->last_fail) sw->last_fail = limit;
  }
}

/* The checks that close a sweep (limits ascending, smallest 1 KiB, largest generous). */
static void sweep_finish(const t_sweep* sw, const char* what) {
  CHECK(sw->refused > 0, "%s: even 1 KiB was enough (the limit is not honoured)", what);
  CHECK(sw->ok > 0, "%s: no limit up to 256 MiB was enough", what);
  CHECK(sw->first_ok == 0 || sw->last_fail < sw->first_ok,
        "%s: not monotone: %zu bytes succeeded but %zu bytes were refused", what, sw->first_ok, sw->last_fail);
  printf("  %-40s %2d runs: %2d ok, %2d refused; smallest sufficient limit %zu bytes\n", what, sw->runs, sw->ok,
         sw->refused, sw->first_ok);
}

/* Limits: 1 KiB .. 256 MiB, doubling, each also at 1.5x (odd sizes hit the
 * engines' rounding). Small mode: doubling only. Returns the count. */
static int make_limits(size_t* out, int cap) {
  int k = 0;
  size_t l;
  if (g_level >= 3) {
    for (l = 1024; l <= ((size_t)256 << 20) && k < cap; l *= 64) out[k++] = l;
    return k;
  }
  for (l = 1024; l <= ((size_t)256 << 20) && k + 2 <= cap; l *= 2) {
    out[k++] = l;
    if (!g_small && l < ((size_t)256 << 20)) out[k++] = l + l / 2 + 7;
  }
  return k;
}

static int refusal_ok(gsp_status s, const gsp_paths* p, const char* what, size_t limit) {
  const char* msg = gsp_last_error();
  CHECK(p == NULL, "%s at %zu bytes: refused but left a result behind", what, limit);
  CHECK(msg != NULL && msg[0] != '\0', "%s at %zu bytes: refused with an empty message", what, limit);
  return s == GSP_ERR_DEVICE_OUT_OF_MEMORY;
}

/* ------------------------------------------------------------- SSSP */

static const gsp_algorithm kSssp[] = {GSP_SSSP_ATOMIC_LOCK,    GSP_SSSP_ATOMIC_64,    GSP_SSSP_HARISH,
                                      GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,
                                      GSP_SSSP_SPMV_ELL,       GSP_SSSP_GPU_DIJKSTRA};

static int takes_negative(gsp_algorithm a) {
  return a == GSP_SSSP_BELLMAN_FORD || a == GSP_SSSP_SPMV_CSR || a == GSP_SSSP_SPMV_ELL;
}

static gsp_status sssp(const gsp_graph* g, int32_t src, gsp_algorithm a, size_t limit, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = a;
  o.device_memory_limit = limit;
  *out = NULL;
  return gsp_sssp_run(g, src, &o, out);
}

/* A successful SSSP result against the reference: every distance, and the
 * paths to a few vertices (the farthest reachable included). */
static void check_sssp(const gsp_paths* p, const t_arcs* a, gsp_dtype dt, int32_t src, const int64_t* ref,
                       const char* what) {
  int32_t far = src, v, k;
  t_rng r = {99u + (uint64_t)a->n};
  CHECK(t_compare_row(p, dt, src, ref, a->n, 1.0f, what) == 0, "%s: distances differ from the reference", what);
  for (v = 0; v < a->n; v++)
    if (ref[v] != T_INF_REF && (ref[far] == T_INF_REF || ref[v] > ref[far])) far = v;
  CHECK(t_check_path(p, a, src, far, ref[far], what) == 0, "%s: path to the farthest vertex %d", what, far);
  for (k = 0; k < 4; k++) {
    v = t_below(&r, a->n);
    CHECK(t_check_path(p, a, src, v, ref[v], what) == 0, "%s: path to %d", what, v);
  }
}

static void sweep_sssp(const t_arcs* a, gsp_dtype dt, gsp_algorithm al, const int64_t* ref, const size_t* limits,
                       int nlimits) {
  char what[160];
  t_sweep sw;
  gsp_graph* g;
  int i;
  if (!t_in_shard()) return;
  g = t_graph(a, dt, 1.0f);
  memset(&sw, 0, sizeof sw);
  for (i = 0; i < nlimits; i++) {
    gsp_paths* p = NULL;
    gsp_status s;
    snprintf(what, sizeof what, "sssp %s %s %s limit=%zu", gsp_algorithm_name(al), a->name, t_dtype_name(dt),
             limits[i]);
    t_trace(what);
    s = sssp(g, 0, al, limits[i], &p);
    sweep_note(&sw, limits[i], s);
    if (s == GSP_OK) {
      check_sssp(p, a, dt, 0, ref, what);
    } else {
      CHECK(refusal_ok(s, p, what, limits[i]), "%s: %s (want GSP_OK or GSP_ERR_DEVICE_OUT_OF_MEMORY): %s", what,
            gsp_status_name(s), gsp_last_error());
      /* the refusal left nothing behind: the next unlimited run is right */
      gsp_paths_destroy(p);
      p = NULL;
      s = sssp(g, 0, al, 0, &p);
      CHECK(s == GSP_OK, "%s, then unlimited: %s: %s", what, gsp_status_name(s), gsp_last_error());
      if (s == GSP_OK) check_sssp(p, a, dt, 0, ref, what);
    }
    gsp_paths_destroy(p);
  }
  snprintf(what, sizeof what, "sssp %s %s %s", gsp_algorithm_name(al), a->name, t_dtype_name(dt));
  sweep_finish(&sw, what);
  gsp_graph_destroy(g);
  gsp_release_cached_memory();
}

static void test_sssp(const size_t* limits, int nlimits) {
  t_arcs pos, neg;
  int64_t *ref_pos, *ref_neg;
  int ai, di;
  t_make_shape(&pos, T_RANDOM_SPARSE, g_small ? 500 : 4000, 21);
  t_make_shape(&neg, T_DAG_NEGATIVE, g_small ? 500 : 4000, 22);
  ref_pos = (int64_t*)malloc((size_t)pos.n * sizeof(int64_t));
  ref_neg = (int64_t*)malloc((size_t)neg.n * sizeof(int64_t));
  if (ref_pos == NULL || ref_neg == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  CHECK(t_ref_bellman_ford(&pos, 0, ref_pos) == 0, "reference on %s", pos.name);
  CHECK(t_ref_bellman_ford(&neg, 0, ref_neg) == 0, "reference on %s", neg.name);
  for (ai = 0; ai < (int)(sizeof kSssp / sizeof kSssp[0]); ai++) {
    for (di = 0; di < T_NUM_DTYPES; di++) {
      sweep_sssp(&pos, t_dtypes[di], kSssp[ai], ref_pos, limits, nlimits);
      if (takes_negative(kSssp[ai]) && t_dtypes[di] != GSP_F64)
        sweep_sssp(&neg, t_dtypes[di], kSssp[ai], ref_neg, limits, nlimits);
    }
  }
  free(ref_pos);
  free(ref_neg);
  t_arcs_free(&pos);
  t_arcs_free(&neg);
}

/* ------------------------------------------------------------- APSP */

static const gsp_algorithm kApsp[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_TASK_PARALLEL,
                                      GSP_APSP_SPMM};

static int apsp_takes_negative(gsp_algorithm a) { return a == GSP_APSP_FLOYD_WARSHALL || a == GSP_APSP_MINPLUS; }

/* Rows arriving through gsp_apsp_stream, compared as they come. */
typedef struct {
  const int64_t* ref;
  int32_t n, rows, bad, next;
  gsp_dtype dt;
} t_stream_check;

static int on_rows(void* user, int32_t first, int32_t num_rows, const void* dist, const int32_t* pred) {
  t_stream_check* c = (t_stream_check*)user;
  int32_t k, v;
  (void)pred;
  if (first != c->next) c->bad++;
  c->next = first + num_rows;
  for (k = 0; k < num_rows; k++) {
    const int32_t source = first + k; /* sources NULL: index = vertex */
    for (v = 0; v < c->n; v++) {
      const int64_t want = c->ref[(int64_t)source * c->n + v];
      const int64_t at = (int64_t)k * c->n + v;
      int ok;
      if (c->dt == GSP_I32) {
        const int32_t got = ((const int32_t*)dist)[at];
        ok = want == T_INF_REF ? got == GSP_I32_INF : (int64_t)got == want;
      } else {
        /* f32 within rounding, f64 exactly (integer weights) */
        const double got = t_dist_at(dist, c->dt, at);
        const double tol = c->dt == GSP_F64 ? 0.0 : 1e-4 * (fabs((double)want) + 1.0);
        ok = want == T_INF_REF ? (isinf(got) && got > 0) : fabs(got - (double)want) <= tol;
      }
      if (!ok) c->bad++;
    }
  }
  c->rows += num_rows;
  return 0;
}

static gsp_status apsp(const gsp_graph* g, gsp_algorithm a, size_t limit, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = a;
  o.device_memory_limit = limit;
  *out = NULL;
  return gsp_apsp_run(g, NULL, 0, &o, out);
}

static void check_apsp(const gsp_paths* p, const t_arcs* a, gsp_dtype dt, const int64_t* ref, const char* what) {
  const int32_t n = a->n;
  int32_t i, bad = 0;
  t_rng r = {7u + (uint64_t)n};
  for (i = 0; i < n; i++) bad += t_compare_row(p, dt, i, ref + (int64_t)i * n, n, 1.0f, what) != 0;
  CHECK(bad == 0, "%s: %d rows differ from the reference", what, bad);
  for (i = 0; i < 6; i++) {
    const int32_t s = t_below(&r, n), v = t_below(&r, n);
    CHECK(t_check_path(p, a, s, v, ref[(int64_t)s * n + v], what) == 0, "%s: path %d->%d", what, s, v);
  }
}

static void sweep_apsp(const t_arcs* a, gsp_dtype dt, gsp_algorithm al, const int64_t* ref, const size_t* limits,
                       int nlimits) {
  char what[160];
  t_sweep sw;
  gsp_graph* g;
  int i;
  if (!t_in_shard()) return;
  g = t_graph(a, dt, 1.0f);
  memset(&sw, 0, sizeof sw);
  for (i = 0; i < nlimits; i++) {
    gsp_paths* p = NULL;
    gsp_status s;
    snprintf(what, sizeof what, "apsp %s %s %s limit=%zu", gsp_algorithm_name(al), a->name, t_dtype_name(dt),
             limits[i]);
    t_trace(what);
    s = apsp(g, al, limits[i], &p);
    sweep_note(&sw, limits[i], s);
    if (s == GSP_OK) {
      check_apsp(p, a, dt, ref, what);
      if (al == GSP_APSP_FLOYD_WARSHALL) {
        /* the same limit through the row stream */
        gsp_options o;
        t_stream_check c;
        gsp_status ss;
        memset(&c, 0, sizeof c);
        c.ref = ref;
        c.n = a->n;
        c.dt = dt;
        gsp_options_init(&o);
        o.backend = GSP_BACKEND_CUDA;
        o.algorithm = al;
        o.device_memory_limit = limits[i];
        o.flags = GSP_NO_PATHS;
        ss = gsp_apsp_stream(g, NULL, 0, &o, on_rows, &c);
        CHECK(ss == GSP_OK || ss == GSP_ERR_DEVICE_OUT_OF_MEMORY, "%s stream: %s: %s", what, gsp_status_name(ss),
              gsp_last_error());
        if (ss == GSP_OK) {
          CHECK(c.rows == a->n && c.bad == 0, "%s stream: %d rows of %d, %d wrong values or order", what, c.rows, a->n,
                c.bad);
        }
      }
    } else {
      CHECK(refusal_ok(s, p, what, limits[i]), "%s: %s (want GSP_OK or GSP_ERR_DEVICE_OUT_OF_MEMORY): %s", what,
            gsp_status_name(s), gsp_last_error());
    }
    gsp_paths_destroy(p);
  }
  {
    /* after the whole sweep, unlimited, still right */
    gsp_paths* p = NULL;
    gsp_status s = apsp(g, al, 0, &p);
    snprintf(what, sizeof what, "apsp %s %s %s after the sweep", gsp_algorithm_name(al), a->name, t_dtype_name(dt));
    CHECK(s == GSP_OK, "%s: %s: %s", what, gsp_status_name(s), gsp_last_error());
    if (s == GSP_OK) check_apsp(p, a, dt, ref, what);
    gsp_paths_destroy(p);
  }
  snprintf(what, sizeof what, "apsp %s %s %s", gsp_algorithm_name(al), a->name, t_dtype_name(dt));
  sweep_finish(&sw, what);
  gsp_graph_destroy(g);
  gsp_release_cached_memory();
}

static void test_apsp(const size_t* limits, int nlimits) {
  /* n = 700: the dense matrix with predecessors (padded) is about 4 MB, so
   * the sweep crosses refusal, out-of-core streaming and in-core. */
  t_arcs pos, neg;
  int64_t *ref_pos, *ref_neg;
  int ai, di;
  const int32_t n = g_level >= 3 ? 96 : g_small ? 160 : 700;
  t_make_shape(&pos, T_RANDOM_SPARSE, n, 31);
  t_make_shape(&neg, T_DAG_NEGATIVE, n, 32);
  ref_pos = (int64_t*)malloc((size_t)pos.n * (size_t)pos.n * sizeof(int64_t));
  ref_neg = (int64_t*)malloc((size_t)neg.n * (size_t)neg.n * sizeof(int64_t));
  if (ref_pos == NULL || ref_neg == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  CHECK(t_ref_floyd_warshall(&pos, ref_pos) == 0, "reference on %s", pos.name);
  CHECK(t_ref_floyd_warshall(&neg, ref_neg) == 0, "reference on %s", neg.name);
  for (ai = 0; ai < (int)(sizeof kApsp / sizeof kApsp[0]); ai++) {
    for (di = 0; di < T_NUM_DTYPES; di++) {
      sweep_apsp(&pos, t_dtypes[di], kApsp[ai], ref_pos, limits, nlimits);
      if (apsp_takes_negative(kApsp[ai]) && t_dtypes[di] != GSP_F64)
        sweep_apsp(&neg, t_dtypes[di], kApsp[ai], ref_neg, limits, nlimits);
    }
  }
  free(ref_pos);
  free(ref_neg);
  t_arcs_free(&pos);
  t_arcs_free(&neg);
}

/* ------------------------------------------------------------- cancellation */

typedef struct {
  int calls, cancel_at; /* cancel_at: 1-based call that returns non-zero; 0: never */
} t_cancel;

static int on_progress(void* user, double fraction) {
  t_cancel* c = (t_cancel*)user;
  (void)fraction;
  c->calls++;
  return c->cancel_at > 0 && c->calls == c->cancel_at;
}

/* Runs one engine (SSSP from 0 when sssp, else APSP over all sources). */
static gsp_status run_with(const gsp_graph* g, int sssp_run, gsp_algorithm al, t_cancel* c, gsp_paths** out) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = al;
  o.progress = on_progress;
  o.progress_user = c;
  *out = NULL;
  return sssp_run ? gsp_sssp_run(g, 0, &o, out) : gsp_apsp_run(g, NULL, 0, &o, out);
}

static void cancel_sweep(const t_arcs* a, gsp_dtype dt, int sssp_run, gsp_algorithm al, const int64_t* ref) {
  char what[160];
  gsp_graph* g;
  gsp_paths* p = NULL;
  t_cancel c = {0, 0};
  gsp_status s;
  int points, k, step, cap;
  if (!t_in_shard()) return;
  g = t_graph(a, dt, 1.0f);
  snprintf(what, sizeof what, "cancel %s %s %s", gsp_algorithm_name(al), a->name, t_dtype_name(dt));
  t_trace(what);
  s = run_with(g, sssp_run, al, &c, &p);
  CHECK(s == GSP_OK, "%s: uncancelled run: %s: %s", what, gsp_status_name(s), gsp_last_error());
  gsp_paths_destroy(p);
  points = c.calls;
  CHECK(points >= 2, "%s: the progress callback was called %d times (at least before and after)", what, points);
  /* up to 24 points; 8 in small mode (sanitizers), 3 under racecheck */
  cap = g_level >= 3 ? 3 : g_small ? 8 : 24;
  step = points > cap ? points / cap : 1;
  for (k = 1; k <= points; k += step) {
    c.calls = 0;
    c.cancel_at = k;
    s = run_with(g, sssp_run, al, &c, &p);
    CHECK(s == GSP_ERR_CANCELLED, "%s at progress call %d of %d: %s (want GSP_ERR_CANCELLED): %s", what, k, points,
          gsp_status_name(s), gsp_last_error());
    CHECK(p == NULL, "%s at call %d: a result was left behind", what, k);
    gsp_paths_destroy(p);
    p = NULL;
  }
  /* afterwards, a full run is still right */
  c.calls = 0;
  c.cancel_at = 0;
  s = run_with(g, sssp_run, al, &c, &p);
  CHECK(s == GSP_OK, "%s: run after the cancellations: %s: %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    if (sssp_run)
      check_sssp(p, a, dt, 0, ref, what);
    else
      check_apsp(p, a, dt, ref, what);
  }
  gsp_paths_destroy(p);
  printf("  %-40s cancelled at %d of %d progress calls\n", what, (points + step - 1) / step, points);
  gsp_graph_destroy(g);
}

static void test_cancel(void) {
  t_arcs sp, ap;
  int64_t *ref_sp, *ref_ap;
  int ai, di;
  t_make_shape(&sp, T_RANDOM_SPARSE, g_small ? 500 : 4000, 41);
  t_make_shape(&ap, T_RANDOM_SPARSE, g_level >= 3 ? 96 : g_small ? 160 : 700, 42);
  ref_sp = (int64_t*)malloc((size_t)sp.n * sizeof(int64_t));
  ref_ap = (int64_t*)malloc((size_t)ap.n * (size_t)ap.n * sizeof(int64_t));
  if (ref_sp == NULL || ref_ap == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  CHECK(t_ref_bellman_ford(&sp, 0, ref_sp) == 0, "reference on %s", sp.name);
  CHECK(t_ref_floyd_warshall(&ap, ref_ap) == 0, "reference on %s", ap.name);
  for (di = 0; di < T_NUM_DTYPES; di++) {
    for (ai = 0; ai < (int)(sizeof kSssp / sizeof kSssp[0]); ai++)
      cancel_sweep(&sp, t_dtypes[di], 1, kSssp[ai], ref_sp);
    for (ai = 0; ai < (int)(sizeof kApsp / sizeof kApsp[0]); ai++)
      cancel_sweep(&ap, t_dtypes[di], 0, kApsp[ai], ref_ap);
  }
  free(ref_sp);
  free(ref_ap);
  t_arcs_free(&sp);
  t_arcs_free(&ap);
  gsp_release_cached_memory();
}

int main(void) {
  size_t limits[64];
  int nlimits;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP: no CUDA device: %s\n", gsp_last_error());
    return T_SKIP;
  }
  g_level = getenv("GSP_TEST_SMALL") != NULL ? atoi(getenv("GSP_TEST_SMALL")) : 0;
  g_small = g_level != 0;
  nlimits = make_limits(limits, (int)(sizeof limits / sizeof limits[0]));
  test_sssp(limits, nlimits);
  test_apsp(limits, nlimits);
  test_cancel();
  gsp_release_cached_memory();
  return t_finish("test_gpu_faults");
}
