/* The distributed Floyd-Warshall (gsp_mpi.h) against the single-process one
 * (gsp_apsp_run, GSP_BACKEND_CPU, GSP_APSP_FLOYD_WARSHALL): element for
 * element on every graph shape, all three weight types, negative arcs, n not
 * divisible by the grid or the block size; paths checked arc by arc; every
 * rank's blocks checked in place; errors agreed on every rank; GSP_F64 with
 * weights float cannot hold (on CPU and on GPU ranks), and gsp_options::limit. Run under
 * mpirun with any number of ranks (tests/mpi.cmake: 1, 4 and 6).
 *
 * GSP_TEST_MPI_BACKEND=cuda: the same suite with the ranks' blocks on their
 * CUDA devices (block sizes that are not multiples of 128 become the
 * default), plus larger graphs spanning several 128-blocks; prints SKIP
 * and exits 77 on every rank where a rank has no usable device. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp/gsp_mpi.h"
#include "testing.h"
#include "run_info_check.h"
#include "tuning_hook.h"

static int g_rank = 0, g_size = 1, g_threads = 1;
static gsp_backend g_backend = GSP_BACKEND_CPU; /* of the distributed runs; references run on the CPU */
/* The grid the runs must have: set_grid's, else the library's default,
 * the grid of least panel volume a rank receives (include/gsp/gsp_mpi.h):
 * p x 1 up to 4 ranks and for a prime p, 3 x 2 for 6, 4 x 2 for 8. */
static int g_want_rows = 0, g_want_cols = 0;
/* Text the next case's run info must name (then cleared): prepare_first(). */
static const char* g_named_next = NULL;

static void default_grid(int p, int* rows, int* cols) {
  *rows = p;
  *cols = 1;
  if (p == 6) *rows = 3, *cols = 2;
  if (p == 8) *rows = 4, *cols = 2;
  if (p == 9) *rows = 3, *cols = 3;
}

/* Every rank must see the same status, and the expected one. */
static void check_agreed(gsp_status s, gsp_status want, const char* what) {
  int mine = (int)s, lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi, "%s: ranks disagree on the status (%s .. %s)", what, gsp_status_name((gsp_status)lo),
        gsp_status_name((gsp_status)hi));
  CHECK(s == want, "rank %d: %s: %s, want %s: %s", g_rank, what, gsp_status_name(s), gsp_status_name(want),
        gsp_last_error());
  if (s != GSP_OK) CHECK(gsp_last_error()[0] != '\0', "%s: no gsp_last_error text", what);
}

static void options(gsp_options* o, uint32_t flags) {
  gsp_options_init(o);
  o->backend = g_backend;
  o->algorithm = GSP_APSP_FLOYD_WARSHALL;
  o->num_threads = g_threads;
  o->flags = flags;
}

/* The block size of the runs that follow (NULL: the default), through the
 * test hook (tests/tuning_hook.h). */
static void set_block(const char* b) {
  if (b && g_backend == GSP_BACKEND_CUDA && atoi(b) % 128 != 0) b = NULL; /* device blocks: multiples of 128 */
  CHECK(gsp_test_tuning_set("GSP_MPI_BLOCK_SIZE", b) == 0, "GSP_MPI_BLOCK_SIZE=%s refused", b ? b : "(removed)");
}

/* GSP_MPI_GRID for the runs that follow, set on rank 0 only (only rank 0's
 * counts), or NULL for the default grid. */
static void set_grid(const char* grid) {
  if (g_rank == 0)
    CHECK(gsp_test_tuning_set("GSP_MPI_GRID", grid) == 0, "GSP_MPI_GRID=%s refused", grid ? grid : "(removed)");
  if (grid == NULL || sscanf(grid, "%dx%d", &g_want_rows, &g_want_cols) != 2)
    default_grid(g_size, &g_want_rows, &g_want_cols);
}

static const char* dt_name(gsp_dtype dt) { return dt == GSP_I32 ? "i32" : dt == GSP_F64 ? "f64" : "f32"; }
/* Bytes of one distance. */
static size_t wsize(gsp_dtype dt) { return dt == GSP_F64 ? sizeof(double) : 4; }
/* Entry j of a distance array of type dt, as a double (+INFINITY for unreachable). */
static double val(gsp_dtype dt, const void* d, int64_t j) {
  if (dt == GSP_I32) return ((const int32_t*)d)[j] == GSP_I32_INF ? INFINITY : (double)((const int32_t*)d)[j];
  if (dt == GSP_F64) return ((const double*)d)[j];
  return (double)((const float*)d)[j];
}

/* The graph of `a` with weight type dt: the integer weights, as they are
 * (frac == 0), or for GSP_F64 plus frac * (k % 7) for arc k (frac = 2^-30:
 * values float cannot hold, whose sums are still exact in double). */
static gsp_graph* make_graph(const t_arcs* a, gsp_dtype dt, double frac) {
  gsp_graph* g = NULL;
  double* w;
  int64_t k;
  if (dt != GSP_F64) return t_graph(a, dt, 1.0f);
  w = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
  for (k = 0; k < a->m; k++) w[k] = (double)a->w[k] + frac * (double)(k % 7);
  CHECK_OK(gsp_graph_create(&g, a->n, a->m, a->src, a->dst, w, GSP_F64, 0));
  free(w);
  return g;
}

/* The distance matrix of a result as int64 (T_INF_REF for unreachable). */
static int64_t* matrix_of(const gsp_paths* p, gsp_dtype dt, int32_t n) {
  int64_t* m = (int64_t*)malloc((size_t)n * (size_t)n * sizeof(int64_t));
  void* row = malloc((size_t)n * wsize(dt));
  int32_t i, j;
  for (i = 0; i < n; i++) {
    gsp_paths_distances(p, i, row, n);
    for (j = 0; j < n; j++) {
      const double v = val(dt, row, j);
      m[(int64_t)i * n + j] = isinf(v) ? T_INF_REF : (int64_t)v;
    }
  }
  free(row);
  return m;
}

/* Lightest arc u -> v, T_INF_REF if none: n x n. */
static int64_t* arc_matrix(const t_arcs* a) {
  int64_t n = a->n, k;
  int64_t* w = (int64_t*)malloc((size_t)(n * n) * sizeof(int64_t));
  for (k = 0; k < n * n; k++) w[k] = T_INF_REF;
  for (k = 0; k < a->m; k++) {
    int64_t* x = &w[(int64_t)a->src[k] * n + a->dst[k]];
    if (a->w[k] < *x) *x = a->w[k];
  }
  return w;
}

/* One graph, one weight type: the reference on rank 0, then both MPI calls. */
static void run_case(const t_arcs* a, gsp_dtype dt, const char* block, uint32_t flags) {
  char what[160];
  const int32_t n = a->n;
  gsp_graph* g = NULL;
  gsp_paths* ref = NULL;
  gsp_paths* got = NULL;
  gsp_mpi_blocks* blocks = NULL;
  gsp_options o;
  int ref_status = GSP_OK;
  int64_t* refm = NULL;
  const int want_paths = (flags & GSP_NO_PATHS) == 0;
  gsp_status s;

  snprintf(what, sizeof what, "%s n=%d %s block=%s%s grid %dx%d", a->name, n, dt_name(dt), block ? block : "auto",
           want_paths ? "" : " no-paths", g_want_rows, g_want_cols);
  options(&o, flags);
  set_block(block);
  /* GSP_TEST_MPI_VERBOSE=1: each case's name before it runs (a hang names its case). */
  if (g_rank == 0 && getenv("GSP_TEST_MPI_VERBOSE") != NULL) fprintf(stderr, "case: %s\n", what);
  if (g_rank == 0) {
    gsp_options ro = o;
    ro.backend = GSP_BACKEND_CPU;
    g = make_graph(a, dt, 0);
    ref_status = gsp_apsp_run(g, NULL, 0, &ro, &ref);
  }
  MPI_Bcast(&ref_status, 1, MPI_INT, 0, MPI_COMM_WORLD);

  /* Gathered to rank 0. */
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, g_rank == 0 ? &got : NULL);
  check_agreed(s, (gsp_status)ref_status, what);
  if (g_rank == 0 && s == GSP_OK && ref_status == GSP_OK) {
    int32_t i, j, bad = 0;
    void* r1 = malloc((size_t)n * wsize(dt));
    void* r2 = malloc((size_t)n * wsize(dt));
    gsp_run_info info;
    refm = matrix_of(ref, dt, n);
    CHECK(gsp_paths_num_sources(got) == n, "%s: %d sources", what, gsp_paths_num_sources(got));
    for (i = 0; i < n; i++) {
      CHECK_OK(gsp_paths_distances(ref, i, r1, n));
      CHECK_OK(gsp_paths_distances(got, i, r2, n));
      for (j = 0; j < n; j++) {
        const int same = val(dt, r1, j) == val(dt, r2, j);
        if (!same && bad++ < 5)
          fprintf(stderr, "%s: d(%d,%d) = %.17g, want %.17g\n", what, i, j, val(dt, r2, j), val(dt, r1, j));
      }
    }
    CHECK(bad == 0, "%s: %d distances differ from the single-process Floyd-Warshall", what, bad);
    if (want_paths) {
      int pbad = 0;
      int32_t step = n <= 64 ? 1 : n / 16;
      for (i = 0; i < n; i += step)
        for (j = 0; j < n; j++) pbad += t_check_path(got, a, i, j, refm[(int64_t)i * n + j], what);
      CHECK(pbad == 0, "%s: %d bad paths", what, pbad);
    } else {
      int32_t len = 0;
      CHECK_STATUS(gsp_path_get(got, 0, 0, NULL, 0, &len), GSP_ERR_UNSUPPORTED);
    }
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(got, &info));
    CHECK(info.backend == g_backend, "%s: ran on backend %d, want %d", what, (int)info.backend, (int)g_backend);
    /* GSP_TEST_MPI_TRANSPORT_NAMED=text (tests/gpu/run.sh): how the panels
     * moved, as the run info names it ("NCCL panels" on GPUs of their own). */
    if (getenv("GSP_TEST_MPI_TRANSPORT_NAMED") != NULL)
      CHECK(strstr(info.device_name, getenv("GSP_TEST_MPI_TRANSPORT_NAMED")) != NULL, "%s: device_name '%s' lacks '%s'",
            what, info.device_name, getenv("GSP_TEST_MPI_TRANSPORT_NAMED"));
    if (g_named_next != NULL)
      CHECK(strstr(info.device_name, g_named_next) != NULL, "%s: device_name '%s' lacks '%s'", what, info.device_name,
            g_named_next);
    g_named_next = NULL;
    CHECK(info.algorithm == GSP_APSP_FLOYD_WARSHALL && info.num_vertices == n &&
              info.has_paths == (uint32_t)want_paths && info.weight_type == dt,
          "%s: info algorithm %d n %d has_paths %u", what, (int)info.algorithm, info.num_vertices, info.has_paths);
    {
      /* rank 0's stages (doc/run-info.md): the check may be skipped (int32, arcs > 0) */
      const int want[4] = {T_POSITIVE, T_POSITIVE, T_POSITIVE, want_paths ? T_ANY : T_ZERO};
      t_check_stages(&info, want, what);
    }
    free(r1);
    free(r2);
  }
  CHECK(g_rank != 0 || (s == GSP_OK) == (got != NULL), "%s: result handle vs status", what);
  gsp_paths_destroy(got);

  /* Left distributed: every rank checks its own blocks against the reference. */
  s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, g, &o, &blocks);
  check_agreed(s, (gsp_status)ref_status, what);
  CHECK((s == GSP_OK) == (blocks != NULL), "%s: blocks handle vs status", what);
  if (s == GSP_OK && ref_status == GSP_OK) {
    gsp_mpi_layout L;
    int64_t* arcs = arc_matrix(a);
    int32_t b, bad = 0, total = 0, all = 0;
    if (g_rank != 0) refm = (int64_t*)malloc((size_t)n * (size_t)n * sizeof(int64_t));
    MPI_Bcast(refm, (int)((int64_t)n * n), MPI_INT64_T, 0, MPI_COMM_WORLD);
    memset(&L, 0, sizeof L);
    L.size = sizeof L;
    CHECK_OK(gsp_mpi_blocks_layout(blocks, &L));
    CHECK(L.num_vertices == n && L.grid_rows == g_want_rows && L.grid_cols == g_want_cols &&
              L.grid_row * L.grid_cols + L.grid_col == g_rank && L.weight_type == dt,
          "%s: layout n %d grid %dx%d at (%d,%d), want grid %dx%d", what, L.num_vertices, L.grid_rows, L.grid_cols,
          L.grid_row, L.grid_col, g_want_rows, g_want_cols);
    for (b = 0; b < L.num_blocks; b++) {
      int32_t r0, r1, c0, c1, i, j;
      int32_t* pred;
      void* dist;
      CHECK_OK(gsp_mpi_blocks_range(blocks, b, &r0, &r1, &c0, &c1));
      dist = malloc((size_t)(r1 - r0) * (size_t)(c1 - c0) * wsize(dt) + 8);
      pred = (int32_t*)malloc((size_t)(r1 - r0) * (size_t)(c1 - c0) * 4 + 4);
      CHECK_STATUS(gsp_mpi_blocks_copy(blocks, b, dist, NULL, (int64_t)(r1 - r0) * (c1 - c0) - 1),
                   GSP_ERR_BUFFER_TOO_SMALL);
      CHECK_STATUS(gsp_mpi_blocks_copy(blocks, b, dist, want_paths ? pred : NULL, (int64_t)(r1 - r0) * (c1 - c0)),
                   GSP_OK);
      if (!want_paths)
        CHECK_STATUS(gsp_mpi_blocks_copy(blocks, b, NULL, pred, (int64_t)(r1 - r0) * (c1 - c0)), GSP_ERR_UNSUPPORTED);
      for (i = r0; i < r1; i++)
        for (j = c0; j < c1; j++) {
          int64_t at = (int64_t)(i - r0) * (c1 - c0) + (j - c0);
          int64_t want = refm[(int64_t)i * n + j], d;
          int ok;
          d = isinf(val(dt, dist, at)) ? T_INF_REF : (int64_t)val(dt, dist, at);
          ok = d == want;
          if (ok && want_paths) {
            int32_t p = pred[at];
            if (i == j || want == T_INF_REF)
              ok = p == -1;
            else
              ok = p >= 0 && p < n && refm[(int64_t)i * n + p] != T_INF_REF && arcs[(int64_t)p * n + j] != T_INF_REF &&
                   refm[(int64_t)i * n + p] + arcs[(int64_t)p * n + j] == want;
          }
          if (!ok && bad++ < 5)
            fprintf(stderr, "rank %d: %s: block entry (%d,%d) = %lld pred %d, want %lld\n", g_rank, what, i, j,
                    (long long)d, want_paths ? pred[at] : -1, (long long)want);
          total++;
        }
      free(dist);
      free(pred);
    }
    CHECK(bad == 0, "rank %d: %s: %d bad block entries", g_rank, what, bad);
    MPI_Allreduce(&total, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(all == n * n, "%s: the ranks' blocks cover %d entries, want %d", what, all, n * n);
    free(arcs);
  }
  gsp_mpi_blocks_destroy(blocks);
  free(refm);
  gsp_paths_destroy(ref);
  gsp_graph_destroy(g);
  set_block(NULL);
}

/* Whether every rank has a usable CUDA device. */
static int all_have_cuda(void) {
  int mine = gsp_backend_available(GSP_BACKEND_CUDA) ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

/* gsp_mpi_prepare (collective): GSP_OK on every rank whatever the ranks
 * can do, bad arguments agreed, and the calls after it as before. Made
 * before any call of the process on GPU ranks of their own (tests/gpu/run.sh
 * names NCCL in GSP_TEST_MPI_TRANSPORT_NAMED): the first call then finds
 * its groups ready, made by the preparation, not by itself. */
static void prepare_first(void) {
  gsp_options o;
  const char* named = getenv("GSP_TEST_MPI_TRANSPORT_NAMED");
  options(&o, 0);
  check_agreed(gsp_mpi_prepare(MPI_COMM_WORLD, &o, 0), GSP_OK, "prepare, no wait");
  if (named != NULL && strstr(named, "NCCL") != NULL && g_size > 1) g_named_next = "groups ready";
}

static void prepare_cases(void) {
  gsp_options o;
  gsp_status s;
  options(&o, 0);
  check_agreed(gsp_mpi_prepare(MPI_COMM_WORLD, &o, 1), GSP_OK, "prepare, wait");
  check_agreed(gsp_mpi_prepare(MPI_COMM_WORLD, NULL, 1), GSP_OK, "prepare, default options");
  check_agreed(gsp_mpi_prepare(MPI_COMM_WORLD, &o, 0), GSP_OK, "prepare again, no wait");
  check_agreed(gsp_mpi_prepare(MPI_COMM_NULL, &o, 0), GSP_ERR_INVALID_ARGUMENT, "prepare, MPI_COMM_NULL");
  /* Bad options on the last rank only: every rank fails. */
  if (g_rank == g_size - 1) o.size = 3;
  s = gsp_mpi_prepare(MPI_COMM_WORLD, &o, 0);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "prepare, bad options on the last rank");
  if (!all_have_cuda()) {
    options(&o, 0);
    o.backend = GSP_BACKEND_CUDA;
    check_agreed(gsp_mpi_prepare(MPI_COMM_WORLD, &o, 1), GSP_ERR_NO_DEVICE, "prepare, CUDA without devices");
  }
}

static int cancel_at_once(void* user, double f) {
  (void)user;
  (void)f;
  return 1;
}

/* GSP_F64 with weights float cannot hold (k + j * 2^-30), gathered and in
 * blocks, bit for bit against the single-process Floyd-Warshall; then
 * gsp_options::limit (set on rank 0 only: rank 0's options decide) cuts the
 * same cells as the single-process run, and a limit with negative arcs is
 * GSP_ERR_NEGATIVE_WEIGHT on every rank. */
static void f64_and_limit_cases(void) {
  const double frac = 1.0 / 1073741824.0;
  double limit = 0; /* rank 0: the largest distance of row 0, halved (cuts some cells, keeps others) */
  const int32_t n = 37;
  t_arcs a;
  gsp_graph* g = NULL;
  gsp_paths *ref = NULL, *ref_cut = NULL, *got = NULL;
  gsp_options o, ro;
  gsp_status s;
  int pass;
  t_make_shape(&a, T_RANDOM_SPARSE, n, 21);
  if (g_rank == 0) {
    g = make_graph(&a, GSP_F64, frac);
    options(&ro, 0);
    ro.backend = GSP_BACKEND_CPU;
    CHECK_OK(gsp_apsp_run(g, NULL, 0, &ro, &ref));
    {
      double r[37];
      int32_t j;
      CHECK_OK(gsp_paths_distances(ref, 0, r, n));
      for (j = 0; j < n; j++)
        if (!isinf(r[j]) && r[j] > limit) limit = r[j];
      limit /= 2;
    }
    ro.limit = limit;
    CHECK_OK(gsp_apsp_run(g, NULL, 0, &ro, &ref_cut));
  }
  set_block("8");
  for (pass = 0; pass < 2; pass++) { /* 0: no limit, 1: the limit */
    const char* what = pass ? "f64 fractional, with a limit" : "f64 fractional";
    options(&o, 0);
    if (pass && g_rank == 0) o.limit = limit;
    s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, g_rank == 0 ? &got : NULL);
    check_agreed(s, GSP_OK, what);
    if (g_rank == 0 && s == GSP_OK) {
      const gsp_paths* want = pass ? ref_cut : ref;
      double r1[37], r2[37];
      int32_t i, j, bad = 0, cut = 0, fractional = 0, nopath = 0, unreached = 0;
      for (i = 0; i < n; i++) {
        CHECK_OK(gsp_paths_distances(want, i, r1, n));
        CHECK_OK(gsp_paths_distances(got, i, r2, n));
        for (j = 0; j < n; j++) {
          if (r1[j] != r2[j] && bad++ < 5)
            fprintf(stderr, "%s: d(%d,%d) = %.17g, want %.17g\n", what, i, j, r2[j], r1[j]);
          if (pass) {
            int32_t len = 0;
            const gsp_status ps = gsp_path_get(got, i, j, NULL, 0, &len);
            CHECK(r2[j] <= limit || isinf(r2[j]), "%s: d(%d,%d) = %.17g beyond the limit", what, i, j, r2[j]);
            if (isinf(r2[j])) {
              unreached++;
              nopath += ps == GSP_ERR_NO_PATH;
            } else
              CHECK(ps == GSP_OK || ps == GSP_ERR_BUFFER_TOO_SMALL, "%s: path %d->%d: %s", what, i, j,
                    gsp_status_name(ps));
          }
          if (!isinf(r2[j]) && r2[j] != (double)(float)r2[j]) fractional++;
        }
        if (pass) {
          CHECK_OK(gsp_paths_distances(ref, i, r1, n));
          for (j = 0; j < n; j++) cut += !isinf(r1[j]) && isinf(r2[j]);
        }
      }
      CHECK(bad == 0, "%s: %d distances differ from the single-process run", what, bad);
      CHECK(fractional > 0, "%s: no distance that float cannot hold; the test is void", what);
      if (pass) {
        CHECK(cut > 0, "%s: the limit cut nothing; the test is void", what);
        CHECK(nopath == unreached, "%s: %d of %d unreachable cells answer GSP_ERR_NO_PATH", what, nopath, unreached);
      }
    }
    gsp_paths_destroy(got);
    got = NULL;
  }
  gsp_paths_destroy(got);
  got = NULL;
  gsp_graph_destroy(g);
  g = NULL;
  t_arcs_free(&a);
  /* a limit needs non-negative weights */
  t_make_shape(&a, T_DAG_NEGATIVE, n, 22);
  if (g_rank == 0) g = make_graph(&a, GSP_F64, 0);
  options(&o, 0);
  if (g_rank == 0) o.limit = 10;
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, g_rank == 0 ? &got : NULL);
  check_agreed(s, GSP_ERR_NEGATIVE_WEIGHT, "limit with negative arcs");
  gsp_paths_destroy(got);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  gsp_paths_destroy(ref);
  gsp_paths_destroy(ref_cut);
  set_block(NULL);
}

/* The last rank fails after k-step 2 while the others compute (test hooks
 * GSP_MPI_TEST_FAIL_RANK and _STEP): every rank returns its status and
 * message within the test's time limit, on the device path (the failure told
 * by message while the devices run ahead) as on the host path; then a good
 * run. */
static void failure_mid_steps(void) {
  t_arcs a;
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  gsp_options o;
  gsp_status s;
  char rank_text[16];
  int round;

  t_make_shape(&a, T_RANDOM_SPARSE, 700, 12);
  if (g_rank == 0) g = t_graph(&a, GSP_I32, 1.0f);
  set_block("128"); /* 6 k-steps */
  snprintf(rank_text, sizeof rank_text, "%d", g_size - 1);
  for (round = 0; round < 2; round++) {
    options(&o, round == 0 ? 0 : GSP_NO_PATHS);
    CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_RANK", rank_text) == 0, "GSP_MPI_TEST_FAIL_RANK refused");
    CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_STEP", "2") == 0, "GSP_MPI_TEST_FAIL_STEP refused");
    s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
    check_agreed(s, GSP_ERR_DEVICE, "the last rank fails after k-step 2");
    CHECK(strstr(gsp_last_error(), "fails after k-step 2") != NULL, "rank %d: the message names the failure: %s",
          g_rank, gsp_last_error());
    CHECK(p == NULL, "rank %d: a result after the failure", g_rank);
    CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_STEP", NULL) == 0, "GSP_MPI_TEST_FAIL_STEP: removal refused");
    CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_RANK", NULL) == 0, "GSP_MPI_TEST_FAIL_RANK: removal refused");
    s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
    check_agreed(s, GSP_OK, "a run after the failure mid-steps");
    CHECK(g_rank != 0 || p != NULL, "no result after the failure mid-steps");
    gsp_paths_destroy(p);
    p = NULL;
  }
  set_block(NULL);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

static void error_cases(void) {
  t_arcs a;
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  gsp_mpi_blocks* b = NULL;
  gsp_options o;
  gsp_status s;
  char rank_text[16];

  t_make_shape(&a, T_RANDOM_SPARSE, 40, 5);
  if (g_rank == 0) g = t_graph(&a, GSP_I32, 1.0f);

  /* Bad input on rank 0 only. */
  options(&o, 0);
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, NULL, &o, &p);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "NULL graph on rank 0");
  CHECK(p == NULL, "result set on failure");
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, NULL);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "NULL result on rank 0");
  s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, NULL, &o, &b);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "blocks: NULL graph on rank 0");
  /* Bad input on the last rank only. */
  s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, g, &o, g_rank == g_size - 1 ? NULL : &b);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "blocks: NULL out on the last rank");
  gsp_mpi_blocks_destroy(b);
  b = NULL;
  if (g_rank == g_size - 1) o.num_threads = -1;
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "bad options on the last rank");
  if (g_size > 1 && g_rank == 0) {
    char want[32];
    snprintf(want, sizeof want, "rank %d:", g_size - 1);
    CHECK(strstr(gsp_last_error(), want) != NULL, "message names the failing rank: %s", gsp_last_error());
  }
  options(&o, 0);
  if (g_rank == 0) o.backend = GSP_BACKEND_CUDA;
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, all_have_cuda() ? GSP_OK : GSP_ERR_NO_DEVICE, "CUDA backend");
  gsp_paths_destroy(p);
  p = NULL;
  if (all_have_cuda()) {
    /* device blocks need a multiple of 128 */
    if (g_rank == 0) CHECK(gsp_test_tuning_set("GSP_MPI_BLOCK_SIZE", "100") == 0, "GSP_MPI_BLOCK_SIZE=100 refused");
    s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
    check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "CUDA backend, GSP_MPI_BLOCK_SIZE=100");
    set_block(NULL);
    /* too little device memory on the last rank: agreed everywhere, nothing left behind */
    if (g_rank == g_size - 1) o.device_memory_limit = 4096;
    s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
    check_agreed(s, GSP_ERR_DEVICE_OUT_OF_MEMORY, "device memory limit on the last rank");
    o.device_memory_limit = 0;
  }
  options(&o, 0);
  if (g_rank == 0) o.algorithm = GSP_APSP_MINPLUS;
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_ERR_UNSUPPORTED, "min-plus algorithm");
  /* A bad block size in a user's environment (doc/tuning.md: an error, not
   * the default), on rank 0 only. The environment path itself, so the
   * variable is set, not the hook (which refuses the value); no setting of
   * the hook hides it. */
  options(&o, 0);
  set_block(NULL);
  if (g_rank == 0) setenv("GSP_MPI_BLOCK_SIZE", "0", 1);
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_ERR_INVALID_ARGUMENT, "GSP_MPI_BLOCK_SIZE=0");
  if (g_rank == 0) unsetenv("GSP_MPI_BLOCK_SIZE");

  /* Out of memory on the last rank (the testing hook of doc/mpi.md). */
  snprintf(rank_text, sizeof rank_text, "%d", g_size - 1);
  CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_RANK", rank_text) == 0, "GSP_MPI_TEST_FAIL_RANK refused");
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_ERR_OUT_OF_MEMORY, "out of memory on the last rank");
  s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, g, &o, &b);
  check_agreed(s, GSP_ERR_OUT_OF_MEMORY, "blocks: out of memory on the last rank");
  CHECK(gsp_test_tuning_set("GSP_MPI_TEST_FAIL_RANK", NULL) == 0, "GSP_MPI_TEST_FAIL_RANK: removal refused");

  /* A matrix no rank's host memory holds (n = 2,000,000: 32 TB of cells
   * over the ranks): every rank checks before allocating, all answer the
   * same out-of-memory naming the engine and the rank, nothing is touched. */
  {
    gsp_graph* big = NULL;
    const int32_t one_src = 0, one_dst = 1;
    const int32_t w = 1;
    gsp_status cs = GSP_OK;
    if (g_rank == 0) cs = gsp_graph_create(&big, 2000000, 1, &one_src, &one_dst, &w, GSP_I32, 0);
    CHECK(cs == GSP_OK, "rank 0: a graph of 2,000,000 vertices: %s %s", gsp_status_name(cs), gsp_last_error());
    s = gsp_apsp_run_mpi_blocks(MPI_COMM_WORLD, big, &o, &b);
    check_agreed(s, GSP_ERR_OUT_OF_MEMORY, "blocks of n = 2,000,000: host memory checked on every rank");
    CHECK(strstr(gsp_last_error(), "MPI Floyd-Warshall") != NULL, "rank %d: the message names the engine: %s", g_rank,
          gsp_last_error());
    CHECK(b == NULL, "rank %d: blocks left after the refusal", g_rank);
    gsp_graph_destroy(big);
  }

  /* Cancelled by rank 0's progress callback. */
  if (g_rank == 0) o.progress = cancel_at_once;
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_ERR_CANCELLED, "cancelled on rank 0");
  options(&o, 0);

  /* And a good run afterwards: nothing left behind. */
  s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, &p);
  check_agreed(s, GSP_OK, "a run after the failures");
  CHECK(g_rank != 0 || p != NULL, "no result after the failures");
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

/* The other grids of this many ranks (GSP_MPI_GRID): the same answers on
 * every shape (on 4 GPU ranks, 2 x 2 is the device path's only 2-D grid:
 * predecessors tracked in the products); a grid that is not one of the
 * ranks fails the call on every rank with rank 0's message. */
static void grid_cases(void) {
  char grid[32];
  int r, def_rows, def_cols;
  t_arcs a;
  default_grid(g_size, &def_rows, &def_cols);
  for (r = 1; r <= g_size; r++) {
    if (g_size % r != 0 || r == def_rows) continue; /* the default ran above */
    snprintf(grid, sizeof grid, "%dx%d", r, g_size / r);
    set_grid(grid);
    t_make_shape(&a, T_RANDOM_SPARSE, g_backend == GSP_BACKEND_CUDA ? 700 : 61, 12);
    run_case(&a, GSP_I32, g_backend == GSP_BACKEND_CUDA ? "128" : "7", 0);
    run_case(&a, GSP_F64, g_backend == GSP_BACKEND_CUDA ? "128" : "7", GSP_NO_PATHS);
    t_arcs_free(&a);
    t_make_shape(&a, T_DAG_NEGATIVE, g_backend == GSP_BACKEND_CUDA ? 520 : 45, 13);
    run_case(&a, GSP_F32, g_backend == GSP_BACKEND_CUDA ? "256" : "4", 0);
    t_arcs_free(&a);
  }
  {
    const char* bad[3] = {"3x5", "0x1", "2by2"};
    gsp_graph* g = NULL;
    gsp_paths* p = NULL;
    gsp_options o;
    int i;
    t_make_shape(&a, T_RANDOM_SPARSE, 20, 14);
    if (g_rank == 0) g = t_graph(&a, GSP_I32, 1.0f);
    options(&o, 0);
    for (i = 0; i < 3; i++) {
      gsp_status s;
      if (g_rank == 0) CHECK(gsp_test_tuning_set("GSP_MPI_GRID", bad[i]) == 0, "GSP_MPI_GRID=%s refused", bad[i]);
      s = gsp_apsp_run_mpi(MPI_COMM_WORLD, g, &o, g_rank == 0 ? &p : NULL);
      check_agreed(s, GSP_ERR_INVALID_ARGUMENT, bad[i]);
      CHECK(strstr(gsp_last_error(), "GSP_MPI_GRID") != NULL && strstr(gsp_last_error(), bad[i]) != NULL,
            "rank %d: GSP_MPI_GRID=%s: message '%s'", g_rank, bad[i], gsp_last_error());
      CHECK(p == NULL, "GSP_MPI_GRID=%s: a result on failure", bad[i]);
    }
    gsp_graph_destroy(g);
    t_arcs_free(&a);
  }
  set_grid(NULL);
}

int main(int argc, char** argv) {
  int provided = 0, shape;
  gsp_dtype dts[3] = {GSP_I32, GSP_F32, GSP_F64};
  int d;
  t_arcs a;
  (void)argc;
  (void)argv;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_threads = g_size == 1 ? 2 : 1;
  set_grid(NULL);
  if (getenv("GSP_TEST_MPI_BACKEND") != NULL && strcmp(getenv("GSP_TEST_MPI_BACKEND"), "cuda") == 0) {
    if (!all_have_cuda()) {
      if (g_rank == 0) printf("SKIP: a rank has no usable CUDA device: %s\n", gsp_last_error());
      MPI_Finalize();
      return T_SKIP;
    }
    g_backend = GSP_BACKEND_CUDA;
    prepare_first();
    /* Several 128-blocks per grid row: every phase, owners and receivers. */
    for (d = 0; d < 2; d++) {
      t_make_shape(&a, T_RANDOM_SPARSE, 700, 8);
      run_case(&a, dts[d], "128", 0);
      run_case(&a, dts[d], NULL, GSP_NO_PATHS);
      t_arcs_free(&a);
      t_make_shape(&a, T_DAG_NEGATIVE, 520, 9);
      run_case(&a, dts[d], "256", 0);
      t_arcs_free(&a);
      t_make_shape(&a, T_ZERO_WEIGHTS, 300, 10);
      run_case(&a, dts[d], "128", 0);
      t_arcs_free(&a);
    }
    /* A negative cycle through every block (6 k-steps of 128): on the device
     * path the flags are read two steps late; every rank still fails. */
    {
      int32_t i;
      t_arcs_init(&a, "negative-cycle-700", 700);
      for (i = 0; i < 700; i++) t_arc(&a, i, (i + 1) % 700, i == 650 ? -700 : 1);
      run_case(&a, GSP_I32, "128", 0);
      run_case(&a, GSP_F64, "128", GSP_NO_PATHS);
      t_arcs_free(&a);
    }
  }

  /* Every shape, n = 37 (prime: divisible by no grid and no block size), blocks of 5. */
  for (shape = 0; shape < T_NUM_SHAPES; shape++)
    for (d = 0; d < 3; d++) {
      t_make_shape(&a, shape, 37, 11);
      run_case(&a, dts[d], "5", 0);
      t_arcs_free(&a);
    }
  /* Larger, default block size, negative arcs; distances only. */
  for (d = 0; d < 3; d++) {
    t_make_shape(&a, T_DAG_NEGATIVE, 150, 3);
    run_case(&a, dts[d], NULL, 0);
    t_arcs_free(&a);
    t_make_shape(&a, T_RANDOM_SPARSE, 101, 4);
    run_case(&a, dts[d], "16", d == 0 ? GSP_NO_PATHS : 0);
    t_arcs_free(&a);
  }
  /* int32, every arc > 0, with paths over many blocks: the predecessor check
   * is skipped (no cycle can form); the paths are still checked arc by arc.
   * Zero weights (every shape above, and T_ZERO_WEIGHTS here) keep it. */
  t_make_shape(&a, T_RANDOM_SPARSE, 180, 5);
  run_case(&a, GSP_I32, "32", 0);
  t_arcs_free(&a);
  t_make_shape(&a, T_ZERO_WEIGHTS, 180, 6);
  run_case(&a, GSP_I32, "32", 0);
  run_case(&a, GSP_F32, "32", 0);
  t_arcs_free(&a);
  /* One block bigger than the matrix; fewer blocks than ranks. */
  t_make_shape(&a, T_GRID, 9, 2);
  run_case(&a, GSP_I32, "64", 0);
  run_case(&a, GSP_F32, "4", 0);
  t_arcs_free(&a);

  /* A negative cycle (ring 0..29 with total weight -1), every type. */
  for (d = 0; d < 3; d++) {
    int32_t i;
    t_arcs_init(&a, "negative-cycle", 30);
    for (i = 0; i < 30; i++) t_arc(&a, i, (i + 1) % 30, i == 17 ? -30 : 1);
    t_arc(&a, 3, 20, 2);
    run_case(&a, dts[d], "4", 0);
    t_arcs_free(&a);
  }
  /* A negative self-loop is a negative cycle too. */
  t_arcs_init(&a, "negative-loop", 12);
  t_arc(&a, 0, 1, 2);
  t_arc(&a, 11, 11, -1);
  run_case(&a, GSP_I32, "3", 0);
  t_arcs_free(&a);
  /* int32 overflow: 0 -> 1 -> 2 -> ... each 1.5e9; never wraps. */
  {
    int32_t i;
    t_arcs_init(&a, "i32-overflow", 20);
    for (i = 0; i + 1 < 20; i++) t_arc(&a, i, i + 1, 1500000000);
    run_case(&a, GSP_I32, "4", 0);
    t_arcs_free(&a);
  }

  prepare_cases();
  grid_cases();
  f64_and_limit_cases();
  error_cases();
  failure_mid_steps();

  if (g_rank == 0) {
    char name[64];
    snprintf(name, sizeof name, "test_mpi_apsp (np=%d)", g_size);
    d = t_finish(name);
  } else {
    d = t_failures == 0 ? 0 : 1;
  }
  {
    int worst = 0;
    MPI_Allreduce(&d, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    d = worst;
  }
  MPI_Finalize();
  return d;
}
