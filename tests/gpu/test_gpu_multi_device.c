/* One process, every GPU of the host (gsp_options.num_devices,
 * doc/multi-gpu.md): runs on G = min(4, gsp_device_count()) devices and on 2
 * against the same run on one device.
 * a. Floyd-Warshall (sources NULL: the matrix split by row panels) in i32
 *    and f64 (integer weights: exactly equal) and f32 (weights times 0.37:
 *    within the dense test's 1e-4 relative), n = 300 (fewer panels than
 *    devices), 2500 and 5000 (several panels a device, n no multiple of
 *    1024), paths on and off; sampled paths arc by arc and predecessors tight;
 *    run info (num_devices G from n = 2500 on, 1..G below; the device name
 *    "G x NAME (devices ...)"); negative arcs without a negative cycle; a
 *    negative cycle is GSP_ERR_NEGATIVE_CYCLE; gsp_apsp_run_into and
 *    gsp_apsp_stream (rows in order from 0, no gap, on the calling thread,
 *    never two calls at once) give the rows of gsp_apsp_run; so does
 *    gsp_apsp_stream with GSP_ROWS_ANY_ORDER (every row exactly once, in
 *    any order, on the calling thread, never two calls at once).
 * b. Many sources (the source list split in chunks): K = 3000 sources on a
 *    random graph (n = 20000, 8 arcs a vertex) with GSP_APSP_HEAP,
 *    GSP_APSP_TASK_PARALLEL, GSP_APSP_DELTA_STEPPING and GSP_APSP_SPMM, and
 *    on the NY road graph (when GSP_DATA_DIR has it) with delta-stepping and
 *    SpMM: exactly the one-device rows through gsp_apsp_run, through
 *    gsp_apsp_stream (order checked) and through gsp_apsp_stream with
 *    GSP_ROWS_ANY_ORDER (every row exactly once, any order, on the calling
 *    thread, one call at a time), run info num_devices G; predecessors
 *    and sampled paths of a run with paths; 2000 x 500 tables
 *    (gsp_table_run, with and without paths) equal to one device's. SSSP and
 *    min-plus use one device whatever num_devices asks.
 * c. Faults: GSP_TEST_FAIL_DEVICE (tests/tuning_hook.h) on the last device
 *    makes FW and delta-stepping GSP_ERR_DEVICE_OUT_OF_MEMORY naming it, and
 *    the same calls succeed once it is removed; a progress callback that
 *    stops at a fraction above 0.3 is GSP_ERR_CANCELLED (never two calls at
 *    once), a rows callback that stops too (in order and with
 *    GSP_ROWS_ANY_ORDER), and a device fault stops an any-order stream as
 *    it stops an in-order one; a 1 MiB device memory limit is
 *    GSP_ERR_DEVICE_OUT_OF_MEMORY; more devices than there are (from
 *    `device` on) is GSP_ERR_INVALID_ARGUMENT. Every call must return (the
 *    test's CTest TIMEOUT is 600 s, tests/CMakeLists.txt).
 * Fewer than 2 usable devices: a SKIP line and exit code 77 (T_SKIP, which
 * CTest's SKIP_RETURN_CODE shows as skipped, as the other GPU tests do
 * without a device, and which tests/gpu/run.sh's multitest step records as
 * SKIP).
 * GSP_TEST_SMALL=1: the smallest sizes only, for compute-sanitizer: FW
 * n = 300, n = 2000 for the many-source runs, no NY, and FW n = 1100 for
 * the fault and cancel cases (the injected fault then goes to the last
 * device the run really used); 3 (racecheck, which is very slow): one FW
 * case and one delta-stepping case, no tables, no faults. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "gpu/pred_check.h"
#include "tuning_hook.h"

static int g_small = 0;     /* GSP_TEST_SMALL: 0, 1 or (racecheck) 3 */
static int32_t g_G = 0;     /* devices of the "all" runs: min(4, gsp_device_count()) */
static int32_t g_counts[2]; /* device counts checked: G, and 2 when G > 2 */
static int g_num_counts = 0;
static const float k_f32_scale = 0.37f;

/* ------------------------------------------------------------- helpers */

static gsp_options cuda_opts(gsp_algorithm algo, int32_t num_devices, int paths) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = algo;
  o.num_devices = num_devices;
  o.flags = paths ? 0 : GSP_NO_PATHS;
  return o;
}

static float scale_of(gsp_dtype dt) { return dt == GSP_F32 ? k_f32_scale : 1.0f; }

/* Mismatches between two rows of n distances: i32 and f64 exactly (as
 * values), f32 within 1e-4 relative (test_gpu_apsp_dense.c's tolerance);
 * the first few reported. */
static int64_t row_diff(gsp_dtype dt, const void* got, const void* want, int32_t n, int64_t reported, const char* what,
                        int32_t row) {
  int64_t bad = 0;
  int32_t v;
  for (v = 0; v < n; v++) {
    const double x = t_dist_at(got, dt, v), y = t_dist_at(want, dt, v);
    int ok;
    if (isinf(y) || isinf(x))
      ok = x == y;
    else if (dt == GSP_F32)
      ok = fabs(x - y) <= 1e-4 * (fabs(y) + 1.0);
    else
      ok = x == y;
    if (!ok) {
      if (reported + bad < 3) fprintf(stderr, "%s: row %d, vertex %d: %.17g, want %.17g\n", what, row, v, x, y);
      bad++;
    }
  }
  return bad;
}

/* Every row of `got` against `want` (same sources in the same order):
 * rows and sources checked, then the distances. Returns the mismatches. */
static int64_t compare_results(const gsp_paths* got, const gsp_paths* want, gsp_dtype dt, const int32_t* sources,
                               int32_t rows, int32_t n, const char* what) {
  void* a = malloc((size_t)n * t_dist_bytes(dt));
  void* b = malloc((size_t)n * t_dist_bytes(dt));
  int64_t bad = 0;
  int32_t i;
  CHECK(gsp_paths_num_sources(got) == rows, "%s: %d rows, want %d", what, gsp_paths_num_sources(got), rows);
  for (i = 0; i < rows; i++) {
    const int32_t s = sources ? sources[i] : i;
    if (gsp_paths_source(got, i) != s) {
      if (bad < 3) fprintf(stderr, "%s: row %d is source %d, want %d\n", what, i, gsp_paths_source(got, i), s);
      bad++;
      continue;
    }
    if (gsp_paths_distances(got, s, a, n) != GSP_OK || gsp_paths_distances(want, s, b, n) != GSP_OK) {
      fprintf(stderr, "%s: distances of source %d: %s\n", what, s, gsp_last_error());
      bad++;
      continue;
    }
    bad += row_diff(dt, a, b, n, bad, what, i);
  }
  free(a);
  free(b);
  return bad;
}

/* The run info of a CUDA run on num_devices devices from 0: exactly that
 * many when `exact`, else 1..num_devices; the name tells several. */
static void check_info(const gsp_run_info* info, gsp_algorithm algo, int32_t num_devices, int exact, const char* what) {
  CHECK(info->backend == GSP_BACKEND_CUDA && info->algorithm == algo && info->device == 0,
        "%s: run info backend %d algorithm %d device %d", what, (int)info->backend, (int)info->algorithm, info->device);
  if (exact)
    CHECK(info->num_devices == num_devices, "%s: run info num_devices %d, want %d", what, info->num_devices,
          num_devices);
  else
    CHECK(info->num_devices >= 1 && info->num_devices <= num_devices, "%s: run info num_devices %d, want 1..%d", what,
          info->num_devices, num_devices);
  if (info->num_devices > 1) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%d x ", info->num_devices);
    CHECK(strncmp(info->device_name, prefix, strlen(prefix)) == 0 && strstr(info->device_name, "devices") != NULL,
          "%s: device name '%s' does not say %d devices", what, info->device_name, info->num_devices);
  }
}

static gsp_run_info info_of(const gsp_paths* p) {
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(gsp_paths_info(p, &info));
  return info;
}

/* ------------------------------------------------------------- streams */

/* A gsp_apsp_stream consumer: rows must come in order from 0 without gaps
 * (or, with any_order, for streams run with GSP_ROWS_ANY_ORDER, in blocks
 * of any order that cover every row exactly once), on the calling thread,
 * one call at a time. It records them (rec_d, rec_p: rows x n, each block
 * at its first_source_index) or compares them with `want` (the same
 * sources) on the fly; stop_after > 0 stops after that many calls. */
typedef struct {
  int32_t n, rows;
  gsp_dtype dt;
  const int32_t* sources;
  unsigned char* rec_d;
  int32_t* rec_p;
  const gsp_paths* want;
  void* want_row;
  const char* what;
  int32_t next, calls, stop_after;
  int64_t bad;
  int inside, overlap, other_thread, had_pred;
  pthread_t caller;
  int any_order;        /* blocks may come in any order */
  unsigned char* seen;  /* with any_order: one byte a row, set when it came */
  int32_t delivered;    /* with any_order: rows received, repeats included */
  int32_t out_of_order; /* with any_order: blocks that did not start where the one before ended */
} stream_ctx;

static void stream_init(stream_ctx* c, int32_t n, int32_t rows, gsp_dtype dt, const int32_t* sources,
                        const char* what) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->rows = rows;
  c->dt = dt;
  c->sources = sources;
  c->what = what;
  c->caller = pthread_self();
}

/* The same for a stream run with GSP_ROWS_ANY_ORDER (stream_free after). */
static void stream_init_any(stream_ctx* c, int32_t n, int32_t rows, gsp_dtype dt, const int32_t* sources,
                            const char* what) {
  stream_init(c, n, rows, dt, sources, what);
  c->any_order = 1;
  c->seen = (unsigned char*)calloc((size_t)rows, 1);
  if (c->seen == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
}

static void stream_free(stream_ctx* c) {
  free(c->seen);
  c->seen = NULL;
}

static int on_rows(void* user, int32_t first, int32_t num_rows, const void* dist, const int32_t* pred) {
  stream_ctx* c = (stream_ctx*)user;
  const size_t db = t_dist_bytes(c->dt);
  int32_t i;
  if (__atomic_fetch_add(&c->inside, 1, __ATOMIC_SEQ_CST) != 0) c->overlap = 1;
  if (!pthread_equal(pthread_self(), c->caller)) c->other_thread = 1;
  c->calls++;
  if (c->any_order && num_rows >= 1 && first >= 0 && first <= c->rows - num_rows) {
    int32_t repeats = 0;
    for (i = first; i < first + num_rows; i++) {
      if (c->seen[i]) repeats++;
      c->seen[i] = 1;
    }
    if (repeats > 0) {
      if (c->bad < 3)
        fprintf(stderr, "%s: a block of %d rows from %d repeats %d rows already delivered\n", c->what, num_rows, first,
                repeats);
      c->bad++;
    }
    if (first != c->next) c->out_of_order++;
    c->delivered += num_rows;
  }
  if (c->any_order ? (num_rows < 1 || first < 0 || first > c->rows - num_rows)
                   : (first != c->next || num_rows < 1 || first + num_rows > c->rows)) {
    if (c->bad < 3)
      fprintf(stderr, "%s: a block of %d rows from %d, want rows from %d (of %d)\n", c->what, num_rows, first,
              c->any_order ? 0 : c->next, c->rows);
    c->bad++;
  } else {
    if (pred != NULL) c->had_pred = 1;
    if (c->rec_d != NULL) {
      memcpy(c->rec_d + (size_t)first * (size_t)c->n * db, dist, (size_t)num_rows * (size_t)c->n * db);
      if (c->rec_p != NULL && pred != NULL)
        memcpy(c->rec_p + (size_t)first * (size_t)c->n, pred, (size_t)num_rows * (size_t)c->n * sizeof(int32_t));
    }
    if (c->want != NULL) {
      for (i = 0; i < num_rows; i++) {
        const int32_t s = c->sources ? c->sources[first + i] : first + i;
        if (gsp_paths_distances(c->want, s, c->want_row, c->n) != GSP_OK) {
          c->bad++;
          continue;
        }
        c->bad += row_diff(c->dt, (const unsigned char*)dist + (size_t)i * (size_t)c->n * db, c->want_row, c->n, c->bad,
                           c->what, first + i);
      }
    }
    c->next = first + num_rows;
  }
  __atomic_fetch_sub(&c->inside, 1, __ATOMIC_SEQ_CST);
  return c->stop_after > 0 && c->calls >= c->stop_after;
}

static void check_stream_done(const stream_ctx* c, gsp_status s, const char* what) {
  CHECK(s == GSP_OK, "%s: gsp_apsp_stream: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (c->any_order) {
    int32_t i, missing = 0;
    for (i = 0; i < c->rows; i++) missing += !c->seen[i];
    CHECK(c->delivered == c->rows && missing == 0 && c->bad == 0,
          "%s: any-order stream delivered %d rows for %d, %d never, %lld bad", what, c->delivered, c->rows, missing,
          (long long)c->bad);
  } else {
    CHECK(c->next == c->rows && c->bad == 0, "%s: stream delivered %d of %d rows, %lld bad", what, c->next, c->rows,
          (long long)c->bad);
  }
  CHECK(!c->overlap, "%s: two rows callbacks at once", what);
  CHECK(!c->other_thread, "%s: a rows callback off the calling thread (gsp.h: 'on the calling thread')", what);
}

/* ------------------------------------------------------------- progress */

typedef struct {
  double cancel_above; /* > 1: never cancel */
  int calls, inside, overlap, bad_fraction;
  double max_seen;
} progress_ctx;

static int on_progress(void* user, double f) {
  progress_ctx* c = (progress_ctx*)user;
  int stop;
  if (__atomic_fetch_add(&c->inside, 1, __ATOMIC_SEQ_CST) != 0) c->overlap = 1;
  c->calls++;
  if (!(f >= 0.0 && f <= 1.0)) c->bad_fraction = 1;
  if (f > c->max_seen) c->max_seen = f;
  stop = f > c->cancel_above;
  __atomic_fetch_sub(&c->inside, 1, __ATOMIC_SEQ_CST);
  return stop;
}

/* ------------------------------------------------------------- a. Floyd-Warshall */

/* Reference distances (int64, T_INF_REF unreachable) in units of the
 * integer weights: the plain O(n^3) FW for n <= 400, else one device's
 * GPU FW on the i32 graph (test_gpu_apsp_dense.c checks that engine against
 * the CPU). NULL when the graph has a negative cycle or the run failed. */
static int64_t* make_ref(const t_arcs* a) {
  const int64_t n = a->n;
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
  } else {
    gsp_graph* g = t_graph(a, GSP_I32, 1.0f);
    gsp_options o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, 1, 0);
    int32_t* row = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    gsp_paths* p = NULL;
    int64_t i, j;
    gsp_status s = gsp_apsp_run(g, NULL, 0, &o, &p);
    CHECK(s == GSP_OK, "reference (one device) %s n=%lld: %s %s", a->name, (long long)n, gsp_status_name(s),
          gsp_last_error());
    if (s != GSP_OK) {
      free(ref);
      ref = NULL;
    }
    for (i = 0; ref != NULL && i < n; i++) {
      gsp_paths_distances(p, (int32_t)i, row, n);
      for (j = 0; j < n; j++) ref[i * n + j] = row[j] == GSP_I32_INF ? T_INF_REF : row[j];
    }
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
    free(row);
  }
  return ref;
}

/* gsp_apsp_run_into and gsp_apsp_stream on `count` devices: the distances
 * of `want` (one device), the predecessors of `same` (gsp_apsp_run with
 * these very options). */
static void fw_other_calls(const gsp_graph* g, const gsp_options* o, const gsp_paths* want, const gsp_paths* same,
                           int paths, int32_t count, const char* what) {
  const gsp_dtype dt = gsp_graph_weight_type(g);
  const int32_t n = gsp_graph_num_vertices(g);
  const size_t db = t_dist_bytes(dt), cells = (size_t)n * (size_t)n;
  unsigned char* d = (unsigned char*)malloc(cells * db);
  int32_t* pr = paths ? (int32_t*)malloc(cells * sizeof(int32_t)) : NULL;
  stream_ctx c;
  gsp_run_info info;
  int32_t* want_p = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  void* want_d = malloc((size_t)n * db);
  int64_t bad_into = 0, bad_stream = 0, bad_pred = 0;
  int32_t i;
  gsp_status s;
  if (d == NULL || want_p == NULL || want_d == NULL || (paths && pr == NULL)) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  s = gsp_apsp_run_into(g, NULL, 0, o, d, pr, &info);
  CHECK(s == GSP_OK, "%s: gsp_apsp_run_into: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) check_info(&info, GSP_APSP_FLOYD_WARSHALL, count, n >= 2500, what);
  stream_init(&c, n, n, dt, NULL, what);
  c.rec_d = (unsigned char*)malloc(cells * db);
  c.rec_p = paths ? (int32_t*)malloc(cells * sizeof(int32_t)) : NULL;
  if (c.rec_d == NULL || (paths && c.rec_p == NULL)) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  check_stream_done(&c, gsp_apsp_stream(g, NULL, 0, o, on_rows, &c), what);
  CHECK(c.had_pred == paths, "%s: stream predecessors %s", what, paths ? "missing" : "present with GSP_NO_PATHS");
  for (i = 0; i < n; i++) {
    const size_t at = (size_t)i * (size_t)n;
    gsp_paths_distances(want, i, want_d, n);
    if (s == GSP_OK) bad_into += row_diff(dt, d + at * db, want_d, n, bad_into, what, i) != 0;
    bad_stream += row_diff(dt, c.rec_d + at * db, want_d, n, bad_stream, what, i) != 0;
    if (paths) {
      gsp_paths_predecessors(same, i, want_p, n);
      if (s == GSP_OK) bad_pred += memcmp(pr + at, want_p, (size_t)n * sizeof(int32_t)) != 0;
      if (c.rec_p != NULL) bad_pred += memcmp(c.rec_p + at, want_p, (size_t)n * sizeof(int32_t)) != 0;
    }
  }
  CHECK(bad_into == 0, "%s: gsp_apsp_run_into differs from one device in %lld rows", what, (long long)bad_into);
  CHECK(bad_stream == 0, "%s: gsp_apsp_stream differs from one device in %lld rows", what, (long long)bad_stream);
  CHECK(bad_pred == 0, "%s: predecessors of run_into / stream differ from gsp_apsp_run's in %lld rows", what,
        (long long)bad_pred);
  /* GSP_ROWS_ANY_ORDER: every row once, in any order, each block where its
   * first index says; the same rows */
  {
    gsp_options oa = *o;
    char what_any[240];
    unsigned char* rec_d = c.rec_d;
    int32_t* rec_p = c.rec_p;
    oa.flags |= GSP_ROWS_ANY_ORDER;
    snprintf(what_any, sizeof what_any, "%s, stream GSP_ROWS_ANY_ORDER", what);
    t_trace(what_any);
    stream_init_any(&c, n, n, dt, NULL, what_any);
    c.rec_d = rec_d;
    c.rec_p = rec_p;
    memset(c.rec_d, 0xff, cells * db); /* a row never written shows */
    if (c.rec_p != NULL) memset(c.rec_p, 0xff, cells * sizeof(int32_t));
    check_stream_done(&c, gsp_apsp_stream(g, NULL, 0, &oa, on_rows, &c), what_any);
    CHECK(c.had_pred == paths, "%s: stream predecessors %s", what_any, paths ? "missing" : "present with GSP_NO_PATHS");
    bad_stream = bad_pred = 0;
    for (i = 0; i < n; i++) {
      const size_t at = (size_t)i * (size_t)n;
      gsp_paths_distances(want, i, want_d, n);
      bad_stream += row_diff(dt, c.rec_d + at * db, want_d, n, bad_stream, what_any, i) != 0;
      if (paths && c.rec_p != NULL) {
        gsp_paths_predecessors(same, i, want_p, n);
        bad_pred += memcmp(c.rec_p + at, want_p, (size_t)n * sizeof(int32_t)) != 0;
      }
    }
    CHECK(bad_stream == 0, "%s: differs from one device in %lld rows", what_any, (long long)bad_stream);
    CHECK(bad_pred == 0, "%s: predecessors differ from gsp_apsp_run's in %lld rows", what_any, (long long)bad_pred);
    if (c.out_of_order > 0) printf("note: %s: %d blocks out of source order\n", what_any, c.out_of_order);
    stream_free(&c);
  }
  free(d);
  free(pr);
  free(c.rec_d);
  free(c.rec_p);
  free(want_p);
  free(want_d);
}

/* One FW case: one device, then each count of devices, compared. */
static void fw_case(const t_arcs* a, const int64_t* ref, gsp_dtype dt, int paths, const char* tag) {
  const int32_t n = a->n;
  gsp_graph* g;
  gsp_options o;
  gsp_paths* one = NULL;
  gsp_status s;
  char what[200];
  int k;
  if (!t_in_shard()) return;
  g = t_graph(a, dt, scale_of(dt));
  snprintf(what, sizeof what, "FW %s %s n=%d %s%s one device", tag, a->name, n, t_dtype_name(dt),
           paths ? "" : " no-paths");
  t_trace(what);
  o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, 1, paths);
  s = gsp_apsp_run(g, NULL, 0, &o, &one);
  CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    const gsp_run_info info = info_of(one);
    int32_t i, bad = 0;
    check_info(&info, GSP_APSP_FLOYD_WARSHALL, 1, 1, what);
    if (n <= 400) /* the baseline itself against the plain FW */
      for (i = 0; i < n && bad < 3; i++)
        bad += t_compare_row(one, dt, i, ref + (int64_t)i * n, n, scale_of(dt), what) != 0;
    CHECK(bad == 0, "%s: %d rows differ from the reference", what, bad);
  }
  for (k = 0; k < g_num_counts && s == GSP_OK; k++) {
    const int32_t count = g_counts[k];
    gsp_paths* p = NULL;
    gsp_status st;
    snprintf(what, sizeof what, "FW %s %s n=%d %s%s on %d devices", tag, a->name, n, t_dtype_name(dt),
             paths ? "" : " no-paths", count);
    t_trace(what);
    o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, count, paths);
    st = gsp_apsp_run(g, NULL, 0, &o, &p);
    CHECK(st == GSP_OK, "%s: %s %s", what, gsp_status_name(st), gsp_last_error());
    if (st == GSP_OK) {
      const gsp_run_info info = info_of(p);
      const int64_t bad = compare_results(p, one, dt, NULL, n, n, what);
      check_info(&info, GSP_APSP_FLOYD_WARSHALL, count, n >= 2500, what);
      CHECK(info.has_paths == (uint32_t)paths, "%s: has_paths %u", what, info.has_paths);
      CHECK(bad == 0, "%s: %lld distances differ from one device", what, (long long)bad);
      if (paths) {
        t_rng r = {(uint64_t)n * 131u + (uint64_t)dt * 7u + (uint64_t)count};
        int j, pbad = 0, tbad = 0;
        for (j = 0; j < 40 && pbad < 3; j++) {
          const int32_t src = t_below(&r, n), dst = t_below(&r, n);
          pbad += t_check_path(p, a, src, dst, ref[(int64_t)src * n + dst], what) != 0;
        }
        for (j = 0; j < 6; j++) tbad += check_pred_csr(g, p, t_below(&r, n), dt, what) != 0;
        CHECK(pbad == 0, "%s: %d bad sampled paths", what, pbad);
        CHECK(tbad == 0, "%s: %d rows with predecessors that are no tight arcs", what, tbad);
      } else {
        int32_t len = 0;
        CHECK_STATUS(gsp_path_get(p, 0, n - 1, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
      }
      if (count == g_G) fw_other_calls(g, &o, one, p, paths, count, what);
    }
    gsp_paths_destroy(p);
  }
  gsp_paths_destroy(one);
  gsp_graph_destroy(g);
}

/* A graph with a negative cycle: GSP_ERR_NEGATIVE_CYCLE from every call on
 * every count of devices, and no result. */
static void fw_negative_cycle(int32_t n) {
  static const gsp_dtype dts[2] = {GSP_I32, GSP_F64};
  t_arcs a;
  int32_t i;
  int d, k;
  t_arcs_init(&a, "negative-cycle", n);
  for (i = 0; i < n; i++) t_arc(&a, i, (i + 1) % n, 1);
  t_arc(&a, n - n / 5, n / 25, -n); /* the cycle n/25 -> ... -> n - n/5 -> n/25 sums below 0 */
  for (d = 0; d < 2; d++) {
    gsp_graph* g = t_graph(&a, dts[d], 1.0f);
    for (k = 0; k < g_num_counts; k++) {
      gsp_options o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, g_counts[k], 1);
      gsp_paths* p = NULL;
      stream_ctx c;
      char what[128];
      gsp_status s;
      snprintf(what, sizeof what, "FW negative cycle n=%d %s on %d devices", n, t_dtype_name(dts[d]), g_counts[k]);
      t_trace(what);
      s = gsp_apsp_run(g, NULL, 0, &o, &p);
      CHECK(s == GSP_ERR_NEGATIVE_CYCLE && p == NULL, "%s: %s (want GSP_ERR_NEGATIVE_CYCLE) %s", what,
            gsp_status_name(s), gsp_last_error());
      gsp_paths_destroy(p);
      stream_init(&c, n, n, dts[d], NULL, what);
      s = gsp_apsp_stream(g, NULL, 0, &o, on_rows, &c);
      CHECK(s == GSP_ERR_NEGATIVE_CYCLE, "%s, stream: %s %s", what, gsp_status_name(s), gsp_last_error());
    }
    gsp_graph_destroy(g);
  }
  t_arcs_free(&a);
}

static void test_floyd_warshall(void) {
  static const int32_t sizes[3] = {300, 2500, 5000};
  const int nsizes = g_small ? 1 : 3;
  int si, d, paths;
  if (g_small >= 3) { /* racecheck: one case */
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, T_RANDOM_SPARSE, 300, 41u);
    ref = make_ref(&a);
    if (ref != NULL) fw_case(&a, ref, GSP_I32, 1, "random");
    free(ref);
    t_arcs_free(&a);
    return;
  }
  for (si = 0; si < nsizes; si++) {
    t_arcs a;
    int64_t* ref;
    t_make_shape(&a, T_RANDOM_SPARSE, sizes[si], 41u + (uint64_t)si);
    ref = make_ref(&a);
    if (ref != NULL) {
      for (d = 0; d < T_NUM_DTYPES; d++)
        for (paths = 1; paths >= 0; paths--) fw_case(&a, ref, t_dtypes[d], paths, "random");
    }
    free(ref);
    t_arcs_free(&a);
    /* negative arcs, no negative cycle */
    if (sizes[si] <= 2500) {
      t_make_shape(&a, T_DAG_NEGATIVE, sizes[si], 43u + (uint64_t)si);
      ref = make_ref(&a);
      CHECK(ref != NULL, "dag-negative n=%d: no reference", sizes[si]);
      if (ref != NULL) {
        fw_case(&a, ref, GSP_I32, 1, "negative");
        fw_case(&a, ref, GSP_F64, 1, "negative");
        fw_case(&a, ref, GSP_F32, 0, "negative");
      }
      free(ref);
      t_arcs_free(&a);
    }
  }
  fw_negative_cycle(300);
  if (!g_small) fw_negative_cycle(2500);
}

/* ------------------------------------------------------------- b. many sources */

typedef struct {
  const char* name;
  gsp_graph* g;
  const t_arcs* arcs; /* NULL for a file's graph: no arc-by-arc path check */
  int32_t n, K;
  int32_t* sources;
} many_graph;

static void many_sources_setup(many_graph* mg, const char* name, gsp_graph* g, const t_arcs* arcs, int32_t K,
                               uint64_t seed) {
  t_rng r = {seed};
  int32_t i;
  mg->name = name;
  mg->g = g;
  mg->arcs = arcs;
  mg->n = gsp_graph_num_vertices(g);
  mg->K = K;
  mg->sources = (int32_t*)malloc((size_t)K * sizeof(int32_t));
  for (i = 0; i < K; i++) mg->sources[i] = t_below(&r, mg->n);
  mg->sources[K - 1] = mg->sources[0]; /* a repeated source */
}

/* One engine on one graph: one device against each count of devices,
 * through gsp_apsp_run and gsp_apsp_stream; then a run with paths. */
/* The many-source run streamed with GSP_ROWS_ANY_ORDER on the options `o`:
 * every row exactly once, in any order, the rows of `one`; predecessors
 * with the rows when `paths`. */
static void stream_any_order(const many_graph* mg, const gsp_options* o, const gsp_paths* one, gsp_dtype dt,
                             const char* what, int paths) {
  gsp_options oa = *o;
  stream_ctx c;
  char what_any[240];
  snprintf(what_any, sizeof what_any, "%s, stream GSP_ROWS_ANY_ORDER", what);
  t_trace(what_any);
  oa.flags |= GSP_ROWS_ANY_ORDER;
  stream_init_any(&c, mg->n, mg->K, dt, mg->sources, what_any);
  c.want = one;
  c.want_row = malloc((size_t)mg->n * t_dist_bytes(dt));
  check_stream_done(&c, gsp_apsp_stream(mg->g, mg->sources, mg->K, &oa, on_rows, &c), what_any);
  if (paths) {
    CHECK(c.had_pred, "%s: stream without predecessors", what_any);
  } else {
    CHECK(!c.had_pred, "%s: stream predecessors with GSP_NO_PATHS", what_any);
    if (c.out_of_order > 0) printf("note: %s: %d blocks out of source order\n", what_any, c.out_of_order);
  }
  free(c.want_row);
  stream_free(&c);
}

static void many_case(const many_graph* mg, gsp_algorithm algo) {
  const gsp_dtype dt = gsp_graph_weight_type(mg->g);
  gsp_options o;
  gsp_paths* one = NULL;
  char what[200];
  gsp_status s;
  int k;
  if (!t_in_shard()) return;
  snprintf(what, sizeof what, "%s %s K=%d one device", mg->name, gsp_algorithm_name(algo), mg->K);
  t_trace(what);
  o = cuda_opts(algo, 1, 0);
  s = gsp_apsp_run(mg->g, mg->sources, mg->K, &o, &one);
  CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s != GSP_OK) return;
  {
    const gsp_run_info info = info_of(one);
    check_info(&info, algo, 1, 1, what);
  }
  for (k = 0; k < g_num_counts; k++) {
    const int32_t count = g_counts[k];
    gsp_paths* p = NULL;
    stream_ctx c;
    snprintf(what, sizeof what, "%s %s K=%d on %d devices", mg->name, gsp_algorithm_name(algo), mg->K, count);
    t_trace(what);
    o = cuda_opts(algo, count, 0);
    s = gsp_apsp_run(mg->g, mg->sources, mg->K, &o, &p);
    CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
    if (s == GSP_OK) {
      const gsp_run_info info = info_of(p);
      const int64_t bad = compare_results(p, one, dt, mg->sources, mg->K, mg->n, what);
      check_info(&info, algo, count, 1, what);
      CHECK(info.num_sources == mg->K, "%s: run info num_sources %d", what, info.num_sources);
      CHECK(bad == 0, "%s: %lld distances differ from one device", what, (long long)bad);
    }
    gsp_paths_destroy(p);
    /* the stream, compared with one device's rows as they come */
    stream_init(&c, mg->n, mg->K, dt, mg->sources, what);
    c.want = one;
    c.want_row = malloc((size_t)mg->n * t_dist_bytes(dt));
    check_stream_done(&c, gsp_apsp_stream(mg->g, mg->sources, mg->K, &o, on_rows, &c), what);
    CHECK(!c.had_pred, "%s: stream predecessors with GSP_NO_PATHS", what);
    free(c.want_row);
    /* the stream with GSP_ROWS_ANY_ORDER: every row exactly once, any
     * order, the same rows (a block's rows are sources[first ...]) */
    stream_any_order(mg, &o, one, dt, what, 0);
  }
  /* with paths, on all the devices: tight predecessors, sampled paths */
  {
    gsp_paths* p = NULL;
    snprintf(what, sizeof what, "%s %s K=%d paths on %d devices", mg->name, gsp_algorithm_name(algo), mg->K, g_G);
    t_trace(what);
    o = cuda_opts(algo, g_G, 1);
    s = gsp_apsp_run(mg->g, mg->sources, mg->K, &o, &p);
    CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
    if (s == GSP_OK) {
      t_rng r = {(uint64_t)algo * 977u + (uint64_t)mg->K};
      void* row = malloc((size_t)mg->n * t_dist_bytes(dt));
      int j, bad = 0;
      const gsp_run_info info = info_of(p);
      check_info(&info, algo, g_G, 1, what);
      CHECK(info.has_paths == 1, "%s: has_paths %u", what, info.has_paths);
      bad = (int)compare_results(p, one, dt, mg->sources, mg->K, mg->n, what);
      CHECK(bad == 0, "%s: %d distances differ from one device", what, bad);
      /* streamed with GSP_ROWS_ANY_ORDER and paths: predecessors come too */
      stream_any_order(mg, &o, one, dt, what, 1);
      bad = 0;
      for (j = 0; j < 8; j++) bad += check_pred_csr(mg->g, p, mg->sources[t_below(&r, mg->K)], dt, what) != 0;
      CHECK(bad == 0, "%s: %d rows with predecessors that are no tight arcs", what, bad);
      if (mg->arcs != NULL) {
        bad = 0;
        for (j = 0; j < 30 && bad < 3; j++) {
          const int32_t src = mg->sources[t_below(&r, mg->K)], dst = t_below(&r, mg->n);
          double x;
          gsp_paths_distances(one, src, row, mg->n);
          x = t_dist_at(row, dt, dst);
          bad += t_check_path(p, mg->arcs, src, dst, isinf(x) ? T_INF_REF : (int64_t)x, what) != 0;
        }
        CHECK(bad == 0, "%s: %d bad sampled paths", what, bad);
      }
      free(row);
    }
    gsp_paths_destroy(p);
  }
  gsp_paths_destroy(one);
}

/* The path of table cell (i, j), arc by arc: it exists and sums to want. */
static int check_table_path(const gsp_table* t, const t_arcs* a, int32_t i, int32_t j, int32_t src, int32_t dst,
                            int64_t want, const char* what) {
  int32_t len = 0, h;
  int32_t* verts;
  int64_t total = 0;
  gsp_status s = gsp_table_path(t, i, j, NULL, 0, &len);
  if (want == T_INF_REF) return s == GSP_ERR_NO_PATH ? 0 : 1;
  if ((s != GSP_OK && s != GSP_ERR_BUFFER_TOO_SMALL) || len < 1) {
    fprintf(stderr, "%s: cell (%d, %d) path: %s, length %d\n", what, i, j, gsp_status_name(s), len);
    return 1;
  }
  verts = (int32_t*)malloc((size_t)len * sizeof(int32_t));
  s = gsp_table_path(t, i, j, verts, len, &len);
  if (s != GSP_OK || verts[0] != src || verts[len - 1] != dst) {
    fprintf(stderr, "%s: cell (%d, %d): %s, ends %d..%d, want %d..%d\n", what, i, j, gsp_status_name(s), verts[0],
            verts[len - 1], src, dst);
    free(verts);
    return 1;
  }
  for (h = 0; h + 1 < len; h++) {
    int64_t best = T_INF_REF, e;
    for (e = 0; e < a->m; e++)
      if (a->src[e] == verts[h] && a->dst[e] == verts[h + 1] && a->w[e] < best) best = a->w[e];
    if (best == T_INF_REF) {
      fprintf(stderr, "%s: cell (%d, %d) path uses %d -> %d, no arc\n", what, i, j, verts[h], verts[h + 1]);
      free(verts);
      return 1;
    }
    total += best;
  }
  free(verts);
  if (total != want) {
    fprintf(stderr, "%s: cell (%d, %d) path sums to %lld, want %lld\n", what, i, j, (long long)total, (long long)want);
    return 1;
  }
  return 0;
}

/* 2000 x 500 tables on every count of devices against one device. */
static void table_cases(const many_graph* mg) {
  static const gsp_algorithm algos[2] = {GSP_ALGO_AUTO, GSP_APSP_DELTA_STEPPING};
  const int32_t K = 2000, T = 500;
  const size_t cells = (size_t)K * (size_t)T;
  int32_t *tgt = (int32_t*)malloc((size_t)T * sizeof(int32_t)), i;
  int32_t* want = (int32_t*)malloc(cells * sizeof(int32_t));
  int32_t* got = (int32_t*)malloc(cells * sizeof(int32_t));
  t_rng r = {2024};
  int ai, paths, k;
  for (i = 0; i < T; i++) tgt[i] = t_below(&r, mg->n);
  for (ai = 0; ai < 2; ai++) {
    for (paths = 0; paths <= 1; paths++) {
      gsp_options o = cuda_opts(algos[ai], 1, paths);
      gsp_table* one = NULL;
      char what[160];
      gsp_status s;
      if (!t_in_shard()) continue;
      snprintf(what, sizeof what, "%s table %dx%d %s%s one device", mg->name, K, T, gsp_algorithm_name(algos[ai]),
               paths ? " paths" : "");
      t_trace(what);
      s = gsp_table_run(mg->g, mg->sources, K, tgt, T, &o, &one);
      CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
      if (s != GSP_OK) continue;
      CHECK_OK(gsp_table_distances(one, want, (int64_t)cells));
      for (k = 0; k < g_num_counts; k++) {
        gsp_table* t = NULL;
        gsp_run_info info;
        snprintf(what, sizeof what, "%s table %dx%d %s%s on %d devices", mg->name, K, T, gsp_algorithm_name(algos[ai]),
                 paths ? " paths" : "", g_counts[k]);
        t_trace(what);
        o = cuda_opts(algos[ai], g_counts[k], paths);
        s = gsp_table_run(mg->g, mg->sources, K, tgt, T, &o, &t);
        CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
        if (s == GSP_OK) {
          size_t c, bad = 0;
          CHECK_OK(gsp_table_distances(t, got, (int64_t)cells));
          for (c = 0; c < cells; c++) bad += got[c] != want[c];
          CHECK(bad == 0, "%s: %zu of %zu cells differ from one device", what, bad, cells);
          memset(&info, 0, sizeof info);
          info.size = sizeof info;
          CHECK_OK(gsp_table_info(t, &info));
          if (algos[ai] == GSP_ALGO_AUTO)
            CHECK(info.backend == GSP_BACKEND_CUDA && info.num_devices >= 1 && info.num_devices <= g_counts[k],
                  "%s: run info backend %d num_devices %d", what, (int)info.backend, info.num_devices);
          else
            check_info(&info, algos[ai], g_counts[k], 1, what);
          if (paths && mg->arcs != NULL) {
            int j, pbad = 0;
            for (j = 0; j < 30 && pbad < 3; j++) {
              const int32_t ci = t_below(&r, K), cj = t_below(&r, T);
              const int32_t x = want[(size_t)ci * (size_t)T + (size_t)cj];
              pbad += check_table_path(t, mg->arcs, ci, cj, mg->sources[ci], tgt[cj],
                                       x == GSP_I32_INF ? T_INF_REF : (int64_t)x, what);
            }
            CHECK(pbad == 0, "%s: %d bad sampled paths", what, pbad);
          }
        }
        gsp_table_destroy(t);
        /* without paths, also straight into the caller's array */
        if (!paths) {
          memset(&info, 0, sizeof info);
          info.size = sizeof info;
          s = gsp_table_run_into(mg->g, mg->sources, K, tgt, T, &o, got, &info);
          CHECK(s == GSP_OK && memcmp(got, want, cells * sizeof(int32_t)) == 0, "%s, run_into: %s %s", what,
                gsp_status_name(s), gsp_last_error());
        }
      }
      gsp_table_destroy(one);
    }
  }
  free(tgt);
  free(want);
  free(got);
}

/* Single-source runs and min-plus use one device whatever num_devices asks. */
static void one_device_calls(const many_graph* mg) {
  gsp_options o = cuda_opts(GSP_SSSP_DELTA_STEPPING, g_G, 1);
  gsp_paths* p = NULL;
  gsp_status s = gsp_sssp_run(mg->g, mg->sources[0], &o, &p);
  CHECK(s == GSP_OK, "sssp, num_devices %d: %s %s", g_G, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    const gsp_run_info info = info_of(p);
    CHECK(info.backend == GSP_BACKEND_CUDA && info.num_devices == 1, "sssp, num_devices %d: ran on %d devices", g_G,
          info.num_devices);
  }
  gsp_paths_destroy(p);
  {
    t_arcs a;
    gsp_graph* g;
    t_make_shape(&a, T_RANDOM_SPARSE, 300, 5);
    g = t_graph(&a, GSP_I32, 1.0f);
    o = cuda_opts(GSP_APSP_MINPLUS, g_G, 0);
    p = NULL;
    s = gsp_apsp_run(g, NULL, 0, &o, &p);
    CHECK(s == GSP_OK, "min-plus, num_devices %d: %s %s", g_G, gsp_status_name(s), gsp_last_error());
    if (s == GSP_OK) {
      const gsp_run_info info = info_of(p);
      CHECK(info.num_devices == 1, "min-plus, num_devices %d: ran on %d devices", g_G, info.num_devices);
    }
    gsp_paths_destroy(p);
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
}

/* The random graph of the many-source runs: n vertices, 8 arcs each. */
static void make_many_arcs(t_arcs* a, int32_t n, uint64_t seed) {
  t_rng r = {seed};
  int32_t i, j;
  t_arcs_init(a, "random-8", n);
  for (i = 0; i < n; i++)
    for (j = 0; j < 8; j++) t_arc(a, i, t_below(&r, n), 1 + t_below(&r, 100));
}

static void test_many_sources(const many_graph* mg) {
  static const gsp_algorithm engines[4] = {GSP_APSP_HEAP, GSP_APSP_TASK_PARALLEL, GSP_APSP_DELTA_STEPPING,
                                           GSP_APSP_SPMM};
  int e;
  if (g_small >= 3) { /* racecheck: one engine */
    many_case(mg, GSP_APSP_DELTA_STEPPING);
    return;
  }
  for (e = 0; e < 4; e++) many_case(mg, engines[e]);
  table_cases(mg);
  one_device_calls(mg);
}

static void test_ny(void) {
  const char* dir = getenv("GSP_DATA_DIR");
  char path[1024];
  gsp_graph* g = NULL;
  gsp_status s;
  many_graph mg;
  if (g_small) {
    printf("SKIP (small mode): NY road graph\n");
    return;
  }
  snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
  s = gsp_graph_load(&g, path, GSP_FORMAT_AUTO, GSP_I32, 0);
  if (s == GSP_ERR_UNSUPPORTED || s == GSP_ERR_IO) {
    printf("SKIP: NY road graph (%s): %s: %s\n", path, gsp_status_name(s), gsp_last_error());
    return;
  }
  CHECK(s == GSP_OK, "load %s: %s: %s", path, gsp_status_name(s), gsp_last_error());
  if (s != GSP_OK) return;
  many_sources_setup(&mg, "NY", g, NULL, 3000, 99);
  many_case(&mg, GSP_APSP_DELTA_STEPPING);
  many_case(&mg, GSP_APSP_SPMM);
  free(mg.sources);
  gsp_graph_destroy(g);
}

/* ------------------------------------------------------------- c. faults */

/* A call that must fail with `want` (and leave no result). */
static void expect_apsp(const gsp_graph* g, const int32_t* sources, int32_t K, const gsp_options* o, gsp_status want,
                        const char* needle, const char* what) {
  gsp_paths* p = NULL;
  const gsp_status s = gsp_apsp_run(g, sources, K, o, &p);
  CHECK(s == want && p == NULL, "%s: %s (want %s): %s", what, gsp_status_name(s), gsp_status_name(want),
        gsp_last_error());
  if (s == want && needle != NULL)
    CHECK(strstr(gsp_last_error(), needle) != NULL, "%s: the message does not name '%s': %s", what, needle,
          gsp_last_error());
  gsp_paths_destroy(p);
}

/* gsp_apsp_run on one device, for the calls that must work again. */
static gsp_paths* baseline(const gsp_graph* g, const int32_t* sources, int32_t K, gsp_algorithm algo) {
  gsp_options o = cuda_opts(algo, 1, 0);
  gsp_paths* p = NULL;
  CHECK_OK(gsp_apsp_run(g, sources, K, &o, &p));
  return p;
}

/* The call as it is: it works and equals one device's rows. Returns the
 * devices it used (run info), 0 when it failed. */
static int32_t works(const gsp_graph* g, const int32_t* sources, int32_t K, gsp_options o, const gsp_paths* want,
                     const char* what) {
  gsp_paths* p = NULL;
  int32_t used = 0;
  const gsp_status s = gsp_apsp_run(g, sources, K, &o, &p);
  CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    const int32_t n = gsp_graph_num_vertices(g), rows = sources ? K : n;
    const gsp_run_info info = info_of(p);
    used = info.num_devices;
    if (want != NULL) {
      const int64_t bad = compare_results(p, want, gsp_graph_weight_type(g), sources, rows, n, what);
      CHECK(bad == 0, "%s: %lld distances differ from one device", what, (long long)bad);
    }
  }
  gsp_paths_destroy(p);
  return used;
}

/* A progress callback's calls: at least one, one at a time, in [0, 1]
 * (above 0.3 when it stopped the run there). */
static void check_progress(const progress_ctx* pc, int stopped, const char* what) {
  CHECK(pc->calls >= 1 && !pc->overlap && !pc->bad_fraction && (!stopped || pc->max_seen > 0.3),
        "%s: %d progress calls, largest %g, two at once %d, outside [0, 1] %d", what, pc->calls, pc->max_seen,
        pc->overlap, pc->bad_fraction);
}

static void test_faults(const many_graph* mg) {
  const int32_t fw_n = g_small ? 1100 : 2500, cancel_n = g_small ? 1100 : 5000;
  t_arcs a, c;
  gsp_graph *fw = NULL, *fw_cancel = NULL;
  gsp_paths *fw_one, *fw_cancel_one, *ds_one;
  int k;
  memset(&c, 0, sizeof c);
  t_make_shape(&a, T_RANDOM_SPARSE, fw_n, 71);
  fw = t_graph(&a, GSP_I32, 1.0f);
  if (cancel_n != fw_n) {
    t_make_shape(&c, T_RANDOM_SPARSE, cancel_n, 73);
    fw_cancel = t_graph(&c, GSP_I32, 1.0f);
  } else {
    fw_cancel = fw;
  }
  fw_one = baseline(fw, NULL, 0, GSP_APSP_FLOYD_WARSHALL);
  fw_cancel_one = fw_cancel == fw ? fw_one : baseline(fw_cancel, NULL, 0, GSP_APSP_FLOYD_WARSHALL);
  ds_one = baseline(mg->g, mg->sources, mg->K, GSP_APSP_DELTA_STEPPING);
  for (k = 0; k < g_num_counts; k++) {
    const int32_t count = g_counts[k];
    gsp_options o_fw = cuda_opts(GSP_APSP_FLOYD_WARSHALL, count, 0);
    gsp_options o_ds = cuda_opts(GSP_APSP_DELTA_STEPPING, count, 0);
    char what[160], ordinal[32], needle[32];
    progress_ctx pc;
    stream_ctx sc;
    gsp_status s;
    int32_t fw_used, ds_used;

    /* The runs as they are, and the devices they use: the fault goes to
     * the last of them (count - 1, checked, except for FW in small mode,
     * where n = 1100 may give fewer devices a panel). */
    snprintf(what, sizeof what, "FW n=%d on %d devices", fw_n, count);
    t_trace(what);
    fw_used = works(fw, NULL, 0, o_fw, fw_one, what);
    if (!g_small) CHECK(fw_used == count, "%s: used %d devices", what, fw_used);
    snprintf(what, sizeof what, "delta-stepping K=%d on %d devices", mg->K, count);
    ds_used = works(mg->g, mg->sources, mg->K, o_ds, ds_one, what);
    CHECK(ds_used == count, "%s: used %d devices", what, ds_used);

    /* the last device's part fails as if out of memory */
    if (fw_used >= 2) {
      snprintf(ordinal, sizeof ordinal, "%d", fw_used - 1);
      snprintf(needle, sizeof needle, "device %d", fw_used - 1);
      t_tuning("GSP_TEST_FAIL_DEVICE", ordinal);
      snprintf(what, sizeof what, "GSP_TEST_FAIL_DEVICE=%d, FW n=%d on %d devices", fw_used - 1, fw_n, count);
      t_trace(what);
      expect_apsp(fw, NULL, 0, &o_fw, GSP_ERR_DEVICE_OUT_OF_MEMORY, needle, what);
      t_tuning("GSP_TEST_FAIL_DEVICE", NULL);
      snprintf(what, sizeof what, "after GSP_TEST_FAIL_DEVICE, FW n=%d on %d devices", fw_n, count);
      works(fw, NULL, 0, o_fw, fw_one, what);
    } else {
      printf("note: FW n=%d on %d devices used %d: no device fault injected\n", fw_n, count, fw_used);
    }
    if (ds_used >= 2) {
      snprintf(ordinal, sizeof ordinal, "%d", ds_used - 1);
      snprintf(needle, sizeof needle, "device %d", ds_used - 1);
      t_tuning("GSP_TEST_FAIL_DEVICE", ordinal);
      snprintf(what, sizeof what, "GSP_TEST_FAIL_DEVICE=%d, delta-stepping K=%d on %d devices", ds_used - 1, mg->K,
               count);
      t_trace(what);
      expect_apsp(mg->g, mg->sources, mg->K, &o_ds, GSP_ERR_DEVICE_OUT_OF_MEMORY, needle, what);
      stream_init(&sc, mg->n, mg->K, GSP_I32, mg->sources, what);
      s = gsp_apsp_stream(mg->g, mg->sources, mg->K, &o_ds, on_rows, &sc);
      CHECK(s == GSP_ERR_DEVICE_OUT_OF_MEMORY && !sc.overlap && sc.bad == 0, "%s, stream: %s %s", what,
            gsp_status_name(s), gsp_last_error());
      {
        gsp_options oa = o_ds;
        oa.flags |= GSP_ROWS_ANY_ORDER;
        stream_init_any(&sc, mg->n, mg->K, GSP_I32, mg->sources, what);
        s = gsp_apsp_stream(mg->g, mg->sources, mg->K, &oa, on_rows, &sc);
        CHECK(s == GSP_ERR_DEVICE_OUT_OF_MEMORY && !sc.overlap && !sc.other_thread && sc.bad == 0,
              "%s, stream GSP_ROWS_ANY_ORDER: %s %s", what, gsp_status_name(s), gsp_last_error());
        stream_free(&sc);
      }
      t_tuning("GSP_TEST_FAIL_DEVICE", NULL);
      snprintf(what, sizeof what, "after GSP_TEST_FAIL_DEVICE, delta-stepping K=%d on %d devices", mg->K, count);
      works(mg->g, mg->sources, mg->K, o_ds, ds_one, what);
    }

    /* a progress callback that stops the run at a fraction above 0.3 */
    memset(&pc, 0, sizeof pc);
    pc.cancel_above = 0.3;
    o_fw.progress = on_progress;
    o_fw.progress_user = &pc;
    snprintf(what, sizeof what, "cancel at > 0.3, FW n=%d on %d devices", cancel_n, count);
    t_trace(what);
    expect_apsp(fw_cancel, NULL, 0, &o_fw, GSP_ERR_CANCELLED, NULL, what);
    check_progress(&pc, 1, what);
    o_fw.progress = NULL;
    snprintf(what, sizeof what, "after a cancel, FW n=%d on %d devices", cancel_n, count);
    works(fw_cancel, NULL, 0, o_fw, fw_cancel_one, what);
    memset(&pc, 0, sizeof pc);
    pc.cancel_above = 0.3;
    o_ds.progress = on_progress;
    o_ds.progress_user = &pc;
    snprintf(what, sizeof what, "cancel at > 0.3, delta-stepping K=%d on %d devices", mg->K, count);
    t_trace(what);
    expect_apsp(mg->g, mg->sources, mg->K, &o_ds, GSP_ERR_CANCELLED, NULL, what);
    check_progress(&pc, 1, what);
    /* progress that never stops: calls one at a time, the rows unchanged */
    memset(&pc, 0, sizeof pc);
    pc.cancel_above = 2.0;
    snprintf(what, sizeof what, "progress, delta-stepping K=%d on %d devices", mg->K, count);
    works(mg->g, mg->sources, mg->K, o_ds, ds_one, what);
    check_progress(&pc, 0, what);
    o_ds.progress = NULL;
    /* a rows callback that stops the stream after its first block */
    snprintf(what, sizeof what, "rows callback stops, delta-stepping K=%d on %d devices", mg->K, count);
    t_trace(what);
    stream_init(&sc, mg->n, mg->K, GSP_I32, mg->sources, what);
    sc.stop_after = 1;
    s = gsp_apsp_stream(mg->g, mg->sources, mg->K, &o_ds, on_rows, &sc);
    CHECK(s == GSP_ERR_CANCELLED && sc.calls == 1 && sc.bad == 0 && !sc.overlap, "%s: %s after %d calls (%lld bad) %s",
          what, gsp_status_name(s), sc.calls, (long long)sc.bad, gsp_last_error());
    snprintf(what, sizeof what, "after a stopped stream, delta-stepping K=%d on %d devices", mg->K, count);
    works(mg->g, mg->sources, mg->K, o_ds, ds_one, what);
    /* the same with GSP_ROWS_ANY_ORDER: no call after the one that stopped */
    {
      gsp_options oa = o_ds;
      oa.flags |= GSP_ROWS_ANY_ORDER;
      snprintf(what, sizeof what, "rows callback stops, GSP_ROWS_ANY_ORDER, delta-stepping K=%d on %d devices", mg->K,
               count);
      t_trace(what);
      stream_init_any(&sc, mg->n, mg->K, GSP_I32, mg->sources, what);
      sc.stop_after = 1;
      s = gsp_apsp_stream(mg->g, mg->sources, mg->K, &oa, on_rows, &sc);
      CHECK(s == GSP_ERR_CANCELLED && sc.calls == 1 && sc.bad == 0 && !sc.overlap && !sc.other_thread,
            "%s: %s after %d calls (%lld bad) %s", what, gsp_status_name(s), sc.calls, (long long)sc.bad,
            gsp_last_error());
      stream_free(&sc);
      snprintf(what, sizeof what, "after a stopped any-order stream, delta-stepping K=%d on %d devices", mg->K, count);
      works(mg->g, mg->sources, mg->K, o_ds, ds_one, what);
    }

    /* 1 MiB of device memory: too little */
    o_fw.device_memory_limit = (size_t)1 << 20;
    snprintf(what, sizeof what, "1 MiB limit, FW n=%d on %d devices", fw_n, count);
    t_trace(what);
    expect_apsp(fw, NULL, 0, &o_fw, GSP_ERR_DEVICE_OUT_OF_MEMORY, NULL, what);
  }
  {
    /* 1 MiB for the labels of 200000 vertices (about 56 bytes each) */
    t_arcs big;
    gsp_graph* gb;
    gsp_options o = cuda_opts(GSP_APSP_DELTA_STEPPING, g_G, 0);
    t_make_shape(&big, T_RANDOM_SPARSE, 200000, 75);
    gb = t_graph(&big, GSP_I32, 1.0f);
    o.device_memory_limit = (size_t)1 << 20;
    t_trace("1 MiB limit, delta-stepping n=200000");
    expect_apsp(gb, mg->sources, mg->K, &o, GSP_ERR_DEVICE_OUT_OF_MEMORY, NULL,
                "1 MiB limit, delta-stepping n=200000 on all devices");
    gsp_graph_destroy(gb);
    t_arcs_free(&big);
  }
  {
    /* more devices than there are, from `device` on */
    const int32_t count = gsp_device_count();
    gsp_options o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, count + 1, 0);
    expect_apsp(fw, NULL, 0, &o, GSP_ERR_INVALID_ARGUMENT, "num_devices", "FW, num_devices = gsp_device_count() + 1");
    o = cuda_opts(GSP_APSP_DELTA_STEPPING, count + 1, 0);
    expect_apsp(mg->g, mg->sources, mg->K, &o, GSP_ERR_INVALID_ARGUMENT, "num_devices",
                "delta-stepping, num_devices = gsp_device_count() + 1");
    o = cuda_opts(GSP_APSP_FLOYD_WARSHALL, 2, 0);
    o.device = count - 1;
    expect_apsp(fw, NULL, 0, &o, GSP_ERR_INVALID_ARGUMENT, "num_devices", "FW, device = the last, num_devices = 2");
    if (count >= 3) {
      /* devices 1 and 2: the first device is `device` */
      gsp_paths* p = NULL;
      o.device = 1;
      {
        const gsp_status s = gsp_apsp_run(fw, NULL, 0, &o, &p);
        CHECK(s == GSP_OK, "FW on devices 1-2: %s %s", gsp_status_name(s), gsp_last_error());
        if (s == GSP_OK) {
          const gsp_run_info info = info_of(p);
          CHECK(info.device == 1 && info.num_devices == 2, "FW on devices 1-2: run info device %d num_devices %d",
                info.device, info.num_devices);
          if (fw_one != NULL)
            CHECK(compare_results(p, fw_one, GSP_I32, NULL, fw_n, fw_n, "FW on devices 1-2") == 0,
                  "FW on devices 1-2: distances differ from device 0 alone");
        }
      }
      gsp_paths_destroy(p);
    }
  }
  gsp_paths_destroy(ds_one);
  if (fw_cancel_one != fw_one) gsp_paths_destroy(fw_cancel_one);
  gsp_paths_destroy(fw_one);
  if (fw_cancel != fw) {
    gsp_graph_destroy(fw_cancel);
    t_arcs_free(&c);
  }
  gsp_graph_destroy(fw);
  t_arcs_free(&a);
}

int main(void) {
  const char* e = getenv("GSP_TEST_SMALL");
  const int32_t usable = gsp_device_count();
  t_arcs many_arcs;
  many_graph mg;
  g_small = e != NULL ? atoi(e) : 0;
  if (usable < 2) {
    if (!gsp_backend_available(GSP_BACKEND_CUDA))
      printf("SKIP: test_gpu_multi_device needs 2 usable CUDA devices; no CUDA device: %s\n", gsp_last_error());
    else
      printf("SKIP: test_gpu_multi_device needs 2 usable CUDA devices; this host has %d\n", usable);
    return T_SKIP;
  }
  g_G = usable < 4 ? usable : 4;
  g_counts[g_num_counts++] = g_G;
  if (g_G > 2) g_counts[g_num_counts++] = 2;
  printf("test_gpu_multi_device: %d usable devices; runs on %d%s against one\n", usable, g_G,
         g_G > 2 ? " and on 2" : "");
  make_many_arcs(&many_arcs, g_small ? 2000 : 20000, 31);
  many_sources_setup(&mg, "random-8", t_graph(&many_arcs, GSP_I32, 1.0f), &many_arcs, 3000, 37);
  test_floyd_warshall();
  test_many_sources(&mg);
  test_ny();
  if (g_small < 3) test_faults(&mg);
  free(mg.sources);
  gsp_graph_destroy(mg.g);
  t_arcs_free(&many_arcs);
  gsp_release_cached_memory(); /* nothing kept for a leak checker to see */
  return t_finish("test_gpu_multi_device");
}
