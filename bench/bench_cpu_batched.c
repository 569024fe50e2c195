/* The CPU many-source check of issue 19 item 4: "The CPU backend runs the
 * same calls on all threads (sources across threads): on 16 cores at least
 * 10x the one-thread loop." One concern: that ratio, nothing else.
 *
 * For K sources spread evenly over the vertex ids (bench_spread), backend
 * forced to CPU, paths on, every row kept in host memory until its timing
 * ends:
 *   loop     K gsp_sssp_run calls with options.num_threads = 1, by the
 *            single-source engine of the batched one (AUTO for AUTO,
 *            dijkstra for heap and johnson, delta-stepping for
 *            batched-delta-stepping), timed once; batched engines that
 *            resolve to the same single-source engine share one loop;
 *   batched  one gsp_apsp_run of the same K sources with num_threads = 0
 *            (all cores), the best of three calls where the first took
 *            under 2 s;
 * speed-up = loop / batched, against the bar of 10x, which the issue sets
 * for 16 cores: the table gives the threads the batched run used
 * (gsp_run_info.device_name) and the machine's online cores. Batched
 * engines: AUTO and the CPU sparse all-pairs engines (heap,
 * batched-delta-stepping, johnson); K = 64 and 1024.
 *
 * Deadline (GSP_BENCH_DEADLINE seconds, default 20): a loop still running
 * past it stops after its current call and is scaled to K ("~", the calls
 * made in the notes); a batched call past it is cancelled through the
 * progress callback ("> t"). Host CPU steal over a row's timed runs of 10 ms
 * or more (all CPUs together) is noted (bench_common.h).
 *
 * Check: rows first, middle and last of the loop's calls (of those made)
 * must equal the batched result's rows of the same sources, every distance
 * (int32 exactly, float within 2^-20 relative); a mismatch, a run on
 * another backend, without paths, or with a number of rows other than K
 * fails the program at once (exit 1). Any other failed call is a row marked
 * "error" and exit status 1 after the table.
 *
 * Graphs: the DIMACS NY road graph ($GSP_DATA_DIR, int32; skipped visibly
 * when absent) and Graph65536 (random, out-degree 6, float weights), as
 * bench_batched builds them. Argument: a graph name filter. Environment:
 * GSP_BENCH_CPU_KS="64,1024" (the default) sets the K; GSP_BENCH_RESULTS
 * (bench_common.h) receives the table, which also goes to stdout. */
#include "bench_common.h"

enum { kAlgos = 4, kMaxKs = 8, kChecks = 3, kMaxRows = 64 };

static const gsp_algorithm kBatchAlgo[kAlgos] = {GSP_ALGO_AUTO, GSP_APSP_HEAP, GSP_APSP_DELTA_STEPPING,
                                                 GSP_APSP_JOHNSON};
static const gsp_algorithm kLoopAlgo[kAlgos] = {GSP_ALGO_AUTO, GSP_SSSP_DIJKSTRA, GSP_SSSP_DELTA_STEPPING,
                                                GSP_SSSP_DIJKSTRA};
static const double kBar = 10.0;
static const double kStealFlagMs = 10.0;

static const char* g_filter = NULL;
static int g_errors = 0;
static int wanted(const char* name) { return g_filter == NULL || strstr(name, g_filter) != NULL; }

/* One loop of (graph, K, single-source engine). */
typedef struct {
  gsp_algorithm algo; /* the single-source engine that ran (AUTO resolved) */
  int32_t k, done;    /* calls asked, calls made */
  double seconds;     /* the calls made, scaled to k when done < k */
  double steal_ms;
  int threads;                /* threads the calls used (device_name) */
  int32_t check_src[kChecks]; /* sources of the rows kept for the check */
  void* check_dist[kChecks];  /* n distances each */
  gsp_status status;
  char error[160];
} loop_run;

/* One row of the table. */
typedef struct {
  char graph[24];
  int32_t k;
  gsp_algorithm asked, loop_algo;
  char ran[64];  /* what the batched call ran, e.g. "heap, rows by delta-stepping" */
  int threads;   /* threads of the batched call */
  double loop_s; /* scaled when loop_done < k */
  int32_t loop_done;
  double batched_s; /* < 0: cancelled at -batched_s */
  double steal_ms;  /* loop and batched together */
  gsp_status status;
  char note[200];
} result_row;

static void cpu_options(gsp_options* o, gsp_algorithm algo, int32_t threads) {
  gsp_options_init(o);
  o->backend = GSP_BACKEND_CPU;
  o->algorithm = algo;
  o->num_threads = threads;
}

/* "CPU (16 threads), ..." -> 16; 0 when unreadable. */
static int threads_of(const char* device_name) {
  int t = 0;
  return sscanf(device_name, "CPU (%d", &t) == 1 ? t : 0;
}

static void fail(const char* graph, int32_t k, gsp_algorithm algo, const char* what) {
  fflush(stdout);
  fprintf(stderr, "bench_cpu_batched: FAILED: %s K=%d %s: %s\n", graph, k, gsp_algorithm_name(algo), what);
  exit(1);
}

/* The single-source engine the loop of `asked` runs on one thread. */
static gsp_algorithm loop_engine(const gsp_graph* g, gsp_algorithm asked) {
  gsp_options o;
  gsp_backend be;
  gsp_algorithm algo = asked;
  cpu_options(&o, asked, 1);
  return gsp_run_plan(g, 1, 1, &o, &be, &algo) == GSP_OK ? algo : asked;
}

/* K one-thread calls, results kept until the loop ends; then the check rows are copied out. */
static void run_loop(const gsp_graph* g, const char* name, const int32_t* src, int32_t k, gsp_algorithm algo,
                     loop_run* L) {
  const int32_t n = gsp_graph_num_vertices(g);
  const double deadline = bench_deadline_seconds();
  gsp_paths** kept = (gsp_paths**)calloc((size_t)k, sizeof *kept);
  gsp_options o;
  gsp_run_info info;
  double t0, t;
  int32_t i;
  int c;
  if (!kept) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  memset(L, 0, sizeof *L);
  L->k = k;
  L->algo = algo;
  cpu_options(&o, algo, 1);
  L->steal_ms = bench_steal_ms();
  t0 = bench_now();
  for (i = 0; i < k; i++) {
    L->status = gsp_sssp_run(g, src[i], &o, &kept[i]);
    if (L->status != GSP_OK) break;
    if (bench_now() - t0 > deadline) {
      i++;
      break;
    }
  }
  t = bench_now() - t0;
  L->steal_ms = bench_steal_ms() - L->steal_ms;
  L->done = i;
  if (L->status != GSP_OK) {
    snprintf(L->error, sizeof L->error, "loop call %d: %s: %s", i, gsp_status_name(L->status), gsp_last_error());
  } else {
    L->seconds = t * (double)k / (double)L->done;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    gsp_paths_info(kept[0], &info);
    L->threads = threads_of(info.device_name);
    if (info.backend != GSP_BACKEND_CPU || !info.has_paths)
      fail(name, k, algo, "the loop ran off the CPU or without paths");
    for (c = 0; c < kChecks; c++) {
      const int32_t row = c == 0 ? 0 : c == 1 ? L->done / 2 : L->done - 1;
      L->check_src[c] = src[row];
      L->check_dist[c] = malloc((size_t)n * 4);
      if (!L->check_dist[c]) {
        fprintf(stderr, "out of memory\n");
        exit(2);
      }
      if (gsp_paths_distances(kept[row], src[row], L->check_dist[c], n) != GSP_OK) {
        fail(name, k, algo, gsp_last_error());
      }
    }
  }
  for (i = 0; i < k; i++) gsp_paths_destroy(kept[i]);
  free(kept);
}

static void free_loop(loop_run* L) {
  int c;
  for (c = 0; c < kChecks; c++) free(L->check_dist[c]);
  memset(L, 0, sizeof *L);
}

/* The loop's check rows against the batched result p: every distance. */
static void check_rows(const gsp_graph* g, const char* name, int32_t k, gsp_algorithm algo, const gsp_paths* p,
                       const loop_run* L) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int is_i32 = gsp_graph_weight_type(g) == GSP_I32;
  void* row = malloc((size_t)n * 4);
  char what[256];
  int c;
  int32_t v;
  if (!row) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (c = 0; c < kChecks; c++) {
    if (gsp_paths_distances(p, L->check_src[c], row, n) != GSP_OK) fail(name, k, algo, gsp_last_error());
    for (v = 0; v < n; v++) {
      int same;
      double a, b;
      if (is_i32) {
        a = ((const int32_t*)L->check_dist[c])[v];
        b = ((const int32_t*)row)[v];
        same = a == b;
      } else {
        a = ((const float*)L->check_dist[c])[v];
        b = ((const float*)row)[v];
        same = a == b || fabs(a - b) <= ldexp(fabs(a), -20);
      }
      if (!same) {
        snprintf(what, sizeof what, "distance %d -> %d: loop (%s) %.9g, batched %.9g", L->check_src[c], v,
                 gsp_algorithm_name(L->algo), a, b);
        fail(name, k, algo, what);
      }
    }
  }
  free(row);
}

/* The batched call: best of three where the first took under 2 s; the first is checked. */
static void run_batched(const gsp_graph* g, const char* name, const int32_t* src, int32_t k, gsp_algorithm algo,
                        const loop_run* L, result_row* r) {
  const double deadline = bench_deadline_seconds();
  gsp_options o;
  gsp_run_info info;
  double best = -1, steal = bench_steal_ms();
  int c;
  cpu_options(&o, algo, 0);
  o.progress = bench_deadline_cb;
  for (c = 0; c < 3; c++) {
    gsp_paths* p = NULL;
    double t0, t;
    gsp_status s;
    bench_deadline_at = bench_now() + deadline;
    t0 = bench_now();
    s = gsp_apsp_run(g, src, k, &o, &p);
    t = bench_now() - t0;
    if (s == GSP_ERR_CANCELLED) {
      if (best < 0) best = -deadline;
      break;
    }
    if (s != GSP_OK) {
      r->status = s;
      snprintf(r->note, sizeof r->note, "batched: %s: %s", gsp_status_name(s), gsp_last_error());
      break;
    }
    if (c == 0) {
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      gsp_paths_info(p, &info);
      if (info.backend != GSP_BACKEND_CPU) fail(name, k, algo, "the batched call ran off the CPU");
      if (!info.has_paths) fail(name, k, algo, "the batched call computed no paths");
      if (gsp_paths_num_sources(p) != k || info.num_sources != k) fail(name, k, algo, "rows != K");
      r->threads = threads_of(info.device_name);
      snprintf(r->ran, sizeof r->ran, "%s%s", gsp_algorithm_name(info.algorithm),
               info.algorithm == GSP_APSP_HEAP && strstr(info.device_name, "delta-stepping")
                   ? ", rows by delta-stepping"
                   : "");
      check_rows(g, name, k, algo, p, L);
    }
    gsp_paths_destroy(p);
    if (best < 0 || t < best) best = t;
    if (c == 0 && t >= 2.0) break;
  }
  r->batched_s = best;
  r->steal_ms += bench_steal_ms() - steal;
}

/* Warm-up: the thread pool's threads and the first-touch of each path. */
static void warm_up(const gsp_graph* g, int cores) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int32_t k = 2 * cores < n ? 2 * cores : n;
  int32_t* src = bench_spread(n, k, 1);
  gsp_options o;
  gsp_paths* p = NULL;
  cpu_options(&o, GSP_ALGO_AUTO, 0);
  if (gsp_apsp_run(g, src, k, &o, &p) == GSP_OK) gsp_paths_destroy(p);
  p = NULL;
  cpu_options(&o, GSP_ALGO_AUTO, 1);
  if (gsp_sssp_run(g, src[0], &o, &p) == GSP_OK) gsp_paths_destroy(p);
  free(src);
}

static void print_progress(const result_row* r) {
  printf("%-10s K=%5d %-22s ran %-30s threads %3d  loop (%s, 1 thread) %s%9.3f s  batched %s%8.3f s", r->graph, r->k,
         gsp_algorithm_name(r->asked), r->ran, r->threads, gsp_algorithm_name(r->loop_algo),
         r->loop_done < r->k ? "~" : " ", r->loop_s, r->batched_s < 0 ? ">" : " ",
         r->batched_s < 0 ? -r->batched_s : r->batched_s);
  if (r->status == GSP_OK && r->batched_s > 0) printf("  speed-up %.2fx", r->loop_s / r->batched_s);
  if (r->note[0]) printf("  [%s]", r->note);
  printf("\n");
  fflush(stdout);
}

/* Every (K, engine) row of one graph; returns the rows added. */
static int run_graph(gsp_graph* g, const char* name, const int32_t* ks, int nk, int cores, result_row* rows, int room) {
  const int32_t n = gsp_graph_num_vertices(g);
  int count = 0, i, a, j;
  if (g == NULL) return 0;
  warm_up(g, cores);
  for (i = 0; i < nk; i++) {
    loop_run loops[kAlgos];
    int nl = 0;
    const int32_t k = ks[i];
    int32_t* src;
    if (k > n) {
      printf("%s: K=%d skipped (n = %d)\n", name, k, n);
      continue;
    }
    src = bench_spread(n, k, 0);
    for (a = 0; a < kAlgos && count < room; a++) {
      result_row* r = &rows[count++];
      const gsp_algorithm la = loop_engine(g, kLoopAlgo[a]);
      loop_run* L = NULL;
      memset(r, 0, sizeof *r);
      snprintf(r->graph, sizeof r->graph, "%s", name);
      r->k = k;
      r->asked = kBatchAlgo[a];
      r->loop_algo = la;
      snprintf(r->ran, sizeof r->ran, "-");
      for (j = 0; j < nl; j++) {
        if (loops[j].algo == la) L = &loops[j];
      }
      if (L == NULL) {
        L = &loops[nl++];
        run_loop(g, name, src, k, la, L);
        r->steal_ms = L->steal_ms; /* counted on the row that ran it */
      }
      r->loop_s = L->seconds;
      r->loop_done = L->done;
      if (L->status != GSP_OK) {
        r->status = L->status;
        snprintf(r->note, sizeof r->note, "%s", L->error);
      } else {
        if (L->threads != 1) fail(name, k, la, "the loop did not run on one thread");
        run_batched(g, name, src, k, kBatchAlgo[a], L, r);
        if (r->status == GSP_OK) {
          size_t at = 0;
          if (L->done < k) {
            at += (size_t)snprintf(r->note, sizeof r->note, "loop cut after %d of %d calls, scaled", L->done, k);
          }
          if (r->batched_s < 0) {
            at +=
                (size_t)snprintf(r->note + at, sizeof r->note - at, "%sbatched cancelled, not checked", at ? "; " : "");
          }
          if (r->steal_ms >= kStealFlagMs) {
            snprintf(r->note + at, sizeof r->note - at, "%shost CPU steal %.0f ms", at ? "; " : "", r->steal_ms);
          }
        }
      }
      if (r->status != GSP_OK) g_errors++;
      print_progress(r);
    }
    for (j = 0; j < nl; j++) free_loop(&loops[j]);
    free(src);
  }
  gsp_graph_destroy(g);
  return count;
}

/* The speed-up cell and the bar cell of a row. */
static void verdict(const result_row* r, char* speed, size_t ss, char* bar, size_t bs) {
  if (r->status != GSP_OK) {
    snprintf(speed, ss, "error");
    snprintf(bar, bs, "error: %s", gsp_status_name(r->status));
  } else if (r->batched_s < 0) {
    const double bound = r->loop_s / -r->batched_s;
    snprintf(speed, ss, "< %.2f", bound);
    snprintf(bar, bs, "%s", bound < kBar ? "not met" : "unknown (cancelled)");
  } else {
    const double x = r->loop_s / r->batched_s;
    snprintf(speed, ss, "%s%.2f", r->loop_done < r->k ? "~" : "", x);
    snprintf(bar, bs, "%s", x >= kBar ? "met" : "not met");
  }
}

/* The 1-minute load average from /proc/loadavg; -1 where absent. */
static double load_average(void) {
  FILE* f = fopen("/proc/loadavg", "r");
  double l = -1;
  if (f == NULL) return -1;
  if (fscanf(f, "%lf", &l) != 1) l = -1;
  fclose(f);
  return l;
}

static void write_table(FILE* f, const result_row* rows, int count, const char* graphs, int cores, const char* cpu,
                        double load) {
  char date[40], speed[32], bar[64];
  int i, met = 0, done = 0, threads = 0;
  bench_today(date, sizeof date);
  fprintf(f, "\n## CPU: many sources on all threads against the one-thread loop (bench_cpu_batched), %s\n\n", date);
  fprintf(f,
          "Issue 19 item 4: on 16 cores `gsp_apsp_run` of K sources at least %.0fx the loop of K one-thread "
          "`gsp_sssp_run` calls. Host: %s, %d cores online, load average %.2f at the start (other work on "
          "the cores lowers the speed-up). Backend CPU, paths on, every row kept in host "
          "memory; K sources spread evenly over the vertex ids. Loop: the K calls with `num_threads` = 1 by the "
          "single-source engine named, timed once. Batched: one call with `num_threads` = 0 (all cores), best "
          "of 3 where the first took under 2 s. Speed-up = loop s / batched s. \"~\": loop cut at the deadline "
          "(GSP_BENCH_DEADLINE, %.0f s) and scaled to K; \"> t\": batched call cancelled. Rows first, middle "
          "and last of each loop were checked equal to the batched rows (not where the first batched call was "
          "cancelled).\n\n",
          kBar, cpu, cores, load, bench_deadline_seconds());
  fprintf(f, "%s\n", graphs);
  fprintf(f,
          "| graph | K | algorithm | batched ran | loop engine | threads | loop s | batched s | speed-up | "
          "bar %.0fx | notes |\n| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n",
          kBar);
  for (i = 0; i < count; i++) {
    const result_row* r = &rows[i];
    verdict(r, speed, sizeof speed, bar, sizeof bar);
    fprintf(f, "| %s | %d | %s | %s | %s | %d | %s%.3f | %s%.3f | %s | %s | %s |\n", r->graph, r->k,
            gsp_algorithm_name(r->asked), r->ran, gsp_algorithm_name(r->loop_algo), r->threads,
            r->loop_done < r->k ? "~" : "", r->loop_s, r->batched_s < 0 ? "> " : "",
            r->batched_s < 0 ? -r->batched_s : r->batched_s, speed, bar, r->note);
    if (r->status == GSP_OK) {
      done++;
      met += strcmp(bar, "met") == 0;
    }
    if (r->threads > threads) threads = r->threads;
  }
  fprintf(f, "\nBar %.0fx met on %d of %d rows; batched calls on ", kBar, met, done);
  if (threads > 0)
    fprintf(f, "%d threads", threads);
  else
    fprintf(f, "an unknown number of threads");
  fprintf(f, " of %d cores%s.\n", cores,
          cores < 16 ? " (the bar is set for 16 cores: fewer cannot be expected to reach it)" : "");
}

/* GSP_BENCH_CPU_KS="64,1024" -> ks; returns the count. */
static int read_ks(int32_t* ks) {
  const char* e = getenv("GSP_BENCH_CPU_KS");
  const char* p = e && *e ? e : "64,1024";
  int nk = 0;
  while (*p && nk < kMaxKs) {
    char* end;
    const long v = strtol(p, &end, 10);
    if (end == p) break;
    if (v >= 1 && v <= INT32_MAX) ks[nk++] = (int32_t)v;
    p = *end == ',' ? end + 1 : end;
  }
  return nk;
}

int main(int argc, char** argv) {
  result_row rows[kMaxRows];
  int32_t ks[kMaxKs];
  const int nk = read_ks(ks);
  const int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  const double load = load_average();
  char cpu[128], graphs[1024] = "";
  const char* path = bench_results_path();
  size_t at = 0;
  int count = 0;
  g_filter = argc > 1 ? argv[1] : NULL;
  bench_cpu_name(cpu, sizeof cpu);
  printf("bench_cpu_batched: %s, %d cores, load average %.2f; K:", cpu, cores, load);
  for (count = 0; count < nk; count++) printf(" %d", ks[count]);
  printf("; deadline %.0f s\n", bench_deadline_seconds());
  count = 0;
  if (nk == 0) {
    fprintf(stderr, "bench_cpu_batched: GSP_BENCH_CPU_KS gives no K\n");
    return 1;
  }
  if (wanted("NY")) {
    gsp_graph* ny = bench_load_ny();
    if (ny == NULL) {
      at += (size_t)snprintf(graphs + at, sizeof graphs - at, "- NY road graph skipped: %s\n", gsp_last_error());
    } else {
      at += (size_t)snprintf(graphs + at, sizeof graphs - at, "- NY-road: DIMACS NY, n = %d, m = %lld, int32\n",
                             gsp_graph_num_vertices(ny), (long long)gsp_graph_num_edges(ny));
      count += run_graph(ny, "NY-road", ks, nk, cores, rows + count, kMaxRows - count);
    }
  }
  if (wanted("Graph65536")) {
    gsp_graph* r = bench_random_graph(65536, 6, 1000, 65536, GSP_F32);
    if (r == NULL) {
      printf("Graph65536: could not be built\n");
      g_errors++;
    } else {
      at += (size_t)snprintf(graphs + at, sizeof graphs - at,
                             "- Graph65536: random, out-degree 6, weights 1..1000, n = %d, m = %lld, float\n",
                             gsp_graph_num_vertices(r), (long long)gsp_graph_num_edges(r));
      count += run_graph(r, "Graph65536", ks, nk, cores, rows + count, kMaxRows - count);
    }
  }
  write_table(stdout, rows, count, graphs, cores, cpu, load);
  if (path != NULL) {
    FILE* f = fopen(path, "a");
    if (f == NULL) {
      fprintf(stderr, "bench_cpu_batched: cannot append to %s\n", path);
      return 1;
    }
    write_table(f, rows, count, graphs, cores, cpu, load);
    fclose(f);
  }
  if (g_errors) fprintf(stderr, "bench_cpu_batched: %d row(s) failed\n", g_errors);
  return g_errors ? 1 : 0;
}
