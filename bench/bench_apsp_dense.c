/* Dense APSP benchmark: CUDA blocked Floyd-Warshall (in-core, out-of-core,
 * with and without paths) and min-plus squaring, against the CPU blocked
 * Floyd-Warshall on all cores in the same run.
 *
 * Work: FW does n^3 relaxations (one add + one min each); min-plus does
 * n^3 per product. Rates are relaxations / engine seconds, against Hopper's
 * min-plus peak of 1.67e13 /s (64 DPX lanes x 132 SMs x 1.98 GHz).
 *
 * Timing: gsp_paths_info().seconds, median of GSP_BENCH_REPS (>= 5) runs
 * after a warm-up. "compute" rows ask for one source row (the engine still
 * closes the whole matrix; delivery is one row); "all rows" rows stream
 * every row to a no-op callback (gsp_apsp_stream), so they include moving
 * the n x n result (and predecessors) to the host. "in host memory" rows are
 * the call as a user makes it: the wall time of gsp_apsp_run for every row
 * (the result stays in host memory; destroying it is not timed), or of
 * gsp_apsp_run_into into the caller's own (ordinary, reused) arrays; their
 * "vs engine" column divides by the engine row with the same paths setting,
 * and their note gives the first call's time (result memory not yet
 * page-locked and cached).
 *
 * Arguments: [max_n [min_n]] (default 16384 and 1024; GSP_BENCH_QUICK=1: 2048).
 * Out-of-core rows use device_memory_limit = 0.75 and 0.5 x the matrix; the
 * first run of each pins the host matrix, later runs reuse it (PinnedCache).
 * GSP_BENCH_DENSE_NO_MINPLUS=1: no min-plus rows.
 * GSP_BENCH_DENSE_FW_ONLY=1: only the in-core FW rows (for tuning sweeps
 * over GSP_DENSE_FW_BLOCK). */
#include "bench_common.h"

#define PEAK 1.67e13

typedef struct {
  char what[64];
  int32_t n;
  char dtype[4];
  double ms;
  double rate;
  double cpu_ms; /* CPU FW at this n (measured, or extrapolated by n^3: cpu_est) */
  int cpu_est;
  gsp_status status;
  char note[120];
  int base; /* index of the engine row this full call compares with, or -1 */
} drow;

/* What time_run times: the engine for one row; every row streamed; every
 * row in a result (gsp_apsp_run); every row into the caller's arrays. */
enum { ENGINE_ONE_ROW, STREAM_ALL, RESULT_ALL, INTO_ALL };

static int noop_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)user;
  (void)first;
  (void)rows;
  (void)d;
  (void)p;
  return 0;
}

/* Median seconds over reps (after one warm-up, whose time goes to *first);
 * NAN on failure. */
static double time_run(const gsp_graph* g, gsp_backend be, gsp_algorithm algo, int paths, size_t limit, int mode,
                       int reps, gsp_status* st, char* note, size_t note_size, int64_t* iterations, double* first) {
  gsp_options o;
  double t[64];
  int i;
  int32_t src0 = 0;
  size_t cells = (size_t)gsp_graph_num_vertices(g) * (size_t)gsp_graph_num_vertices(g);
  int32_t* into_d = mode == INTO_ALL ? (int32_t*)malloc(cells * 4) : NULL;
  int32_t* into_p = mode == INTO_ALL && paths ? (int32_t*)malloc(cells * 4) : NULL;
  if (reps > 64) reps = 64;
  gsp_options_init(&o);
  o.backend = be;
  o.algorithm = algo;
  o.flags = paths ? 0 : GSP_NO_PATHS;
  o.device_memory_limit = limit;
  o.progress = bench_deadline_cb;
  for (i = -1; i < reps; i++) {
    gsp_paths* p = NULL;
    gsp_run_info info;
    double t0 = bench_now();
    bench_deadline_at = t0 + bench_deadline_seconds();
    if (mode == STREAM_ALL) {
      *st = gsp_apsp_stream(g, NULL, 0, &o, noop_rows, NULL);
      if (i >= 0) t[i] = bench_now() - t0;
    } else if (mode == RESULT_ALL) {
      double t1;
      *st = gsp_apsp_run(g, NULL, 0, &o, &p);
      t1 = bench_now() - t0;
      if (i >= 0)
        t[i] = t1;
      else
        *first = t1;
      gsp_paths_destroy(p);
    } else if (mode == INTO_ALL) {
      double t1;
      *st = into_d == NULL || (paths && into_p == NULL) ? GSP_ERR_OUT_OF_MEMORY
                                                        : gsp_apsp_run_into(g, NULL, 0, &o, into_d, into_p, NULL);
      t1 = bench_now() - t0;
      if (i >= 0)
        t[i] = t1;
      else
        *first = t1;
    } else {
      *st = gsp_apsp_run(g, &src0, 1, &o, &p);
      if (*st == GSP_OK) {
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        gsp_paths_info(p, &info);
        if (i >= 0) t[i] = info.seconds;
        *iterations = info.iterations;
      }
      gsp_paths_destroy(p);
    }
    if (*st != GSP_OK) {
      snprintf(note, note_size, "%s", gsp_last_error());
      free(into_d);
      free(into_p);
      return NAN;
    }
    if (be == GSP_BACKEND_CPU && i == -1 && bench_now() - t0 > 5.0) {
      reps = 1;
    } /* slow CPU runs: once */
  }
  free(into_d);
  free(into_p);
  return bench_median(t, reps);
}

int main(int argc, char** argv) {
  int32_t max_n = argc > 1 ? atoi(argv[1]) : (bench_quick() ? 2048 : 16384);
  int32_t min_n = argc > 2 ? atoi(argv[2]) : 0;
  int fw_only = getenv("GSP_BENCH_DENSE_FW_ONLY") != NULL && atoi(getenv("GSP_BENCH_DENSE_FW_ONLY")) != 0;
  int32_t sizes[] = {1024, 2048, 4096, 8192, 16384, 32768};
  const int nsizes = 6;
  drow rows[256];
  int nr = 0, si, di, reps = bench_reps();
  double cpu_rate[3] = {NAN, NAN, NAN}; /* relax/s of the CPU FW at the largest n measured, per dtype */
  static const gsp_dtype dtypes[3] = {GSP_I32, GSP_F32, GSP_F64};
  char dev[128] = "", cpu[128], date[40];
  const char* rpath;
  int have_cuda = gsp_backend_available(GSP_BACKEND_CUDA);
  int32_t cpu_max_n = getenv("GSP_BENCH_CPU_MAX_N") ? atoi(getenv("GSP_BENCH_CPU_MAX_N")) : 2048;
  bench_cpu_name(cpu, sizeof cpu);
  if (!have_cuda) printf("bench_apsp_dense: no CUDA device (%s): CPU rows only\n", gsp_last_error());

  for (si = 0; si < nsizes && sizes[si] <= max_n; si++) {
    int32_t n = sizes[si];
    if (n < min_n) continue;
    for (di = 0; di < 3; di++) {
      gsp_dtype dt = dtypes[di];
      gsp_graph* g = bench_random_graph(n, 16, 100, 42u + (uint64_t)n, dt);
      double n3 = (double)n * n * n, cpu_ms = NAN;
      int cpu_est = 0, v;
      if (g == NULL) return 1;
      /* CPU blocked FW, all cores, distances only, up to n = GSP_BENCH_CPU_MAX_N (default 2048) */
      if (n <= cpu_max_n && !fw_only) {
        drow* r = &rows[nr++];
        int64_t it = 0;
        memset(r, 0, sizeof *r);
        snprintf(r->what, sizeof r->what, "CPU FW (all cores), no paths");
        r->n = n;
        snprintf(r->dtype, sizeof r->dtype, "%s", bench_dtype_name(dt));
        double first = 0;
        r->base = -1;
        r->ms = 1e3 * time_run(g, GSP_BACKEND_CPU, GSP_APSP_FLOYD_WARSHALL, 0, 0, ENGINE_ONE_ROW, reps, &r->status,
                               r->note, sizeof r->note, &it, &first);
        r->rate = n3 / (r->ms * 1e-3);
        if (r->status == GSP_OK) {
          cpu_rate[di] = r->rate;
          cpu_ms = r->ms;
        }
        r->cpu_ms = cpu_ms;
        printf("%-40s n=%6d %s %10.2f ms %.3e relax/s\n", r->what, n, r->dtype, r->ms, r->rate);
        fflush(stdout);
      }
      if (isnan(cpu_ms) && !isnan(cpu_rate[di])) {
        cpu_ms = 1e3 * n3 / cpu_rate[di];
        cpu_est = 1;
      }
      if (!have_cuda) {
        gsp_graph_destroy(g);
        continue;
      }
      int engine_row[2] = {-1, -1};                                          /* the FW engine rows, no paths / paths */
      static int f32_row[11] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}; /* float's row per variant, this n */
      for (v = 0; v < 11; v++) {
        const char* names[11] = {"CUDA FW, no paths",
                                 "CUDA FW, paths",
                                 "CUDA FW, no paths, all rows",
                                 "CUDA FW out-of-core 0.75, no paths",
                                 "CUDA min-plus, no paths",
                                 "CUDA min-plus, paths",
                                 "CUDA FW out-of-core 0.5, no paths",
                                 "CUDA FW, no paths, in host memory",
                                 "CUDA FW, paths, in host memory",
                                 "CUDA FW, no paths, into caller arrays",
                                 "CUDA FW, paths, into caller arrays"};
        gsp_algorithm algo = (v == 4 || v == 5) ? GSP_APSP_MINPLUS : GSP_APSP_FLOYD_WARSHALL;
        int paths = v == 1 || v == 5 || v == 8 || v == 10;
        int mode = v == 2 ? STREAM_ALL : v == 7 || v == 8 ? RESULT_ALL : v >= 9 ? INTO_ALL : ENGINE_ONE_ROW;
        size_t limit = 0;
        int64_t it = 0;
        double first = 0;
        drow* r;
        if (fw_only && v > 0) continue;
        if (dt == GSP_F64 && v > 1) continue; /* double: the engine itself, against float's (f64_vs_f32) */
        if ((v == 4 || v == 5) && getenv("GSP_BENCH_DENSE_NO_MINPLUS") != NULL) continue;
        if (v == 3 || v == 6) {
          /* 0.75 or 0.5 x the matrix: forces streaming */
          if (n < 4096) continue;
          limit = (size_t)((double)n * n * 4 * (v == 3 ? 0.75 : 0.5));
        }
        if (v >= 4 && n > 16384) continue;
        if (v == 5 && n > 4096) continue;
        if (n > 16384 && (v != 0 || di != 0)) continue;
        if (v >= 7 && n > 16384) continue;
        if (v <= 1) engine_row[v] = nr;
        r = &rows[nr++];
        memset(r, 0, sizeof *r);
        snprintf(r->what, sizeof r->what, "%s", names[v]);
        r->n = n;
        r->base = v >= 7 ? engine_row[paths] : -1;
        snprintf(r->dtype, sizeof r->dtype, "%s", bench_dtype_name(dt));
        r->ms = 1e3 * time_run(g, GSP_BACKEND_CUDA, algo, paths, limit, mode, n >= 16384 ? 5 : reps, &r->status,
                               r->note, sizeof r->note, &it, &first);
        r->rate = (algo == GSP_APSP_MINPLUS ? (double)it : 1.0) * n3 / (r->ms * 1e-3);
        if (algo == GSP_APSP_MINPLUS) {
          snprintf(r->note, sizeof r->note, "%lld products", (long long)it);
        } else if (mode == RESULT_ALL || mode == INTO_ALL) {
          snprintf(r->note, sizeof r->note, "first call %.1f ms", 1e3 * first);
        }
        r->cpu_ms = cpu_ms;
        r->cpu_est = cpu_est;
        if (dev[0] == 0 && r->status == GSP_OK) {
          gsp_options o;
          gsp_paths* p = NULL;
          int32_t s0 = 0;
          gsp_run_info info;
          gsp_options_init(&o);
          o.backend = GSP_BACKEND_CUDA;
          o.algorithm = GSP_APSP_FLOYD_WARSHALL;
          if (gsp_apsp_run(g, &s0, 1, &o, &p) == GSP_OK) {
            memset(&info, 0, sizeof info);
            info.size = sizeof info;
            gsp_paths_info(p, &info);
            snprintf(dev, sizeof dev, "%s", info.device_name);
          }
          gsp_paths_destroy(p);
        }
        printf("%-40s n=%6d %s %10.2f ms %.3e relax/s (%.0f%% of peak) %s %s", r->what, n, r->dtype, r->ms, r->rate,
               100.0 * r->rate / PEAK, r->status == GSP_OK ? "" : gsp_status_name(r->status), r->note);
        if (r->base >= 0) printf(" (%.2fx the engine)", r->ms / rows[r->base].ms);
        if (dt == GSP_F64 && f32_row[v] >= 0 && rows[f32_row[v]].n == n && r->status == GSP_OK) {
          snprintf(r->note, sizeof r->note, "%.2fx f32's relax/s", r->rate / rows[f32_row[v]].rate);
          printf(" (%s)", r->note);
        }
        if (dt == GSP_F32) f32_row[v] = nr - 1;
        printf("\n");
        fflush(stdout);
      }
      gsp_graph_destroy(g);
    }
  }

  /* CSV via the common helper */
  {
    bench_row br[256];
    int i;
    for (i = 0; i < nr; i++) {
      memset(&br[i], 0, sizeof br[i]);
      snprintf(br[i].graph, sizeof br[i].graph, "random-deg16");
      snprintf(br[i].dtype, sizeof br[i].dtype, "%s", rows[i].dtype);
      snprintf(br[i].engine, sizeof br[i].engine, "%.39s", rows[i].what);
      snprintf(br[i].backend, sizeof br[i].backend, "%s", strncmp(rows[i].what, "CPU", 3) ? "cuda" : "cpu");
      snprintf(br[i].device, sizeof br[i].device, "%s", strncmp(rows[i].what, "CPU", 3) ? dev : cpu);
      br[i].n = rows[i].n;
      br[i].m = (int64_t)rows[i].n * 16;
      br[i].median_ms = rows[i].ms;
      br[i].min_ms = rows[i].ms;
      br[i].reps = reps;
      br[i].status = rows[i].status;
    }
    bench_csv_append("apsp_dense", br, nr);
  }

  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    int i;
    bench_today(date, sizeof date);
    if (f != NULL) {
      fprintf(f, "\n## Dense APSP (bench_apsp_dense), %s\n\n", date);
      fprintf(f, "GPU: %s. CPU: %s (all cores). Graph: random, 16 out-arcs per vertex, weights 1..100.\n",
              dev[0] ? dev : "none", cpu);
      fprintf(
          f,
          "Time: median engine seconds (gsp_run_info) over >= 5 runs after a warm-up; \"all rows\" is wall time of "
          "gsp_apsp_stream with every row delivered. Relaxations: n^3 (FW), products x n^3 (min-plus). Peak: "
          "1.67e13/s. "
          "CPU ratio: CPU FW time / this time (\"~\": CPU time extrapolated by n^3 from the largest n measured).\n\n");
      fprintf(f,
              "| engine | n | dtype | ms | relax/s | of peak | vs CPU FW | vs engine | note |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
      for (i = 0; i < nr; i++) {
        const drow* r = &rows[i];
        if (r->status != GSP_OK) {
          fprintf(f, "| %s | %d | %s | - | - | - | - | - | %s: %s |\n", r->what, r->n, r->dtype,
                  gsp_status_name(r->status), r->note);
          continue;
        }
        fprintf(f, "| %s | %d | %s | %.2f | %.3e | %.1f%% | ", r->what, r->n, r->dtype, r->ms, r->rate,
                100.0 * r->rate / PEAK);
        if (isnan(r->cpu_ms))
          fprintf(f, "- |");
        else
          fprintf(f, "%s%.1fx |", r->cpu_est ? "~" : "", r->cpu_ms / r->ms);
        if (r->base >= 0 && rows[r->base].status == GSP_OK)
          fprintf(f, " %.2fx |", r->ms / rows[r->base].ms);
        else
          fprintf(f, " - |");
        fprintf(f, " %s |\n", r->note);
      }
      fclose(f);
    }
  }
  return 0;
}
