/* One process, every GPU of the host (gsp_options.num_devices,
 * doc/multi-gpu.md): the same calls on 1, 2 and G devices, G =
 * gsp_device_count() (2 only once when G == 2). Prints one line
 * "SKIP bench_multi_gpu: ..." and exits 0 where CUDA is not usable or
 * G < 2.
 *
 * Sections (each run checks its status, prints gsp_last_error() on failure
 * and the program goes on; the exit status is 1 when a run failed other
 * than by the deadline):
 *
 * 1. Dense Floyd-Warshall: gsp_apsp_run(sources NULL), backend CUDA,
 *    algorithm FW, int32 weights, on the random graph of bench_apsp_dense's
 *    dense rows (16 out-arcs per vertex, weights 1..100, seed 42 + n). The
 *    wall time of the whole call with every row in host memory (the result
 *    is destroyed after the timing), median of GSP_BENCH_REPS (default 3)
 *    runs after one warm-up (its time: "first call"); from n = 65536 on, one
 *    run without warm-up. Stages (setup, compute, copy) from gsp_run_info,
 *    medians over the timed runs; relaxations/s = n^3 / compute seconds;
 *    efficiency = t1 / (k tk) of the call and of the compute stage. A
 *    device count whose share of the matrix does not fit (n^2 x 4 bytes, 8
 *    with paths, / devices + 2 GiB >= GSP_BENCH_MG_DEVICE_GIB, default 75)
 *    is skipped; where the result would take more than 80% of
 *    /proc/meminfo's MemAvailable, rows from n = 65536 on are streamed to a
 *    callback that only counts them (gsp_apsp_stream: no run info, so no
 *    stages; the rate then comes from the wall time), smaller ones skipped.
 *    Where the 1-device run of a size is missing, efficiencies are against
 *    the 1-device compute rate at the largest size that ran on one device
 *    (marked "~").
 * 2. Many sources streamed: the DIMACS NY road graph ($GSP_DATA_DIR, as
 *    bench_batched finds it; skipped visibly when absent), every source
 *    (sources NULL) through gsp_apsp_stream with GSP_ROWS_ANY_ORDER (blocks
 *    in any order, so that every device streams at once) to a callback that
 *    counts the rows and marks each one seen (every row exactly once, in
 *    whatever order), AUTO algorithm (named by gsp_run_plan, since a stream
 *    returns no run info), paths on, backend CUDA; one run per device count.
 *    Then, per device count, a shorter run without the flag (rows in source
 *    order, checked), sources 0 .. 32767 as an explicit list ("in order,
 *    32768 sources"; fewer when the graph or GSP_BENCH_MG_NY_SOURCES has
 *    fewer): what ordering the rows costs.
 * 3. Table: NY, 10,000 x 10,000 (gsp_table_run; sources and targets
 *    pseudo-random vertex ids, fixed seed), backend CUDA, AUTO, distances
 *    only (then with paths when GSP_BENCH_MG_TABLE_PATHS=1); median wall of
 *    3 after a warm-up.
 *
 * Every device is started beforehand by a small run on it, and each device
 * count by a small Floyd-Warshall run on that many devices, so that no row
 * pays for creating a CUDA context.
 *
 * Output: progress on stderr; on stdout one "csv,..." line per row as it
 * finishes (a "csv,section,..." header first; sections fw, ny_stream (with
 * GSP_ROWS_ANY_ORDER), ny_stream_in_order, ny_table), then the markdown section
 * for bench/RESULTS.md, also appended to $GSP_BENCH_RESULTS when that is set
 * (and not "-"), as scripts/bench.sh sets it (one fragment a program).
 *
 * Deadline: the whole program ends within GSP_BENCH_TIMEOUT seconds
 * (default 560, under the lent machines' 600 s per command): every run is
 * cancelled through its progress callback (bench_deadline_cb, and the rows
 * callback of a stream) at its section's deadline, and a configuration whose
 * time, estimated from the rows before it, would not fit is not started.
 * The dense rows may use GSP_BENCH_MG_FW_SHARE (default 0.6) of the time
 * when NY rows follow; the streamed NY rows leave 15% for the tables.
 *
 * Arguments: FW sizes "N[:paths|:nopaths] ..." (also one argument holding
 * several); any other argument is a filter on the section names "fw dense",
 * "ny stream", "ny table" (as scripts/bench.sh passes a graph filter).
 * Environment:
 *   GSP_BENCH_MG_FW        FW sizes when no argument gives them (default
 *                          "16384:paths 32768:paths"; "" for none), e.g.
 *                          "16384:paths 32768:paths 65536:nopaths 131072:paths"
 *   GSP_BENCH_REPS         timed FW runs per configuration (default 3)
 *   GSP_BENCH_MG_DEVICES   device counts instead of "1 2 G", e.g. "1 4 8"
 *   GSP_BENCH_MG_DEVICE_GIB  device memory a count may need (default 75)
 *   GSP_BENCH_MG_HOST_GIB  host memory to assume instead of MemAvailable
 *                          (hosts whose memory grows as it is used)
 *   GSP_BENCH_MG_NY_SOURCES  NY sources (default every vertex); K < n runs
 *                          sources 0 .. K-1 as an explicit list
 *   GSP_BENCH_MG_TABLE     table sources = targets (default 10000)
 *   GSP_BENCH_MG_TABLE_PATHS=1  also the table with paths
 *   GSP_BENCH_TIMEOUT      seconds for the whole program (default 560)
 *   GSP_BENCH_MG_FW_SHARE  fraction of them for the FW rows (default 0.6)
 *   GSP_COMMIT             commit named in the section's title
 *   GSP_DATA_DIR           folder holding USA-road-d.NY.gr.gz */
#include "bench_common.h"

#include <ctype.h>

enum { kMaxCounts = 8, kMaxSizes = 16, kMaxReps = 16 };

static double g_end = 0;   /* the whole program's deadline */
static double g_total = 0; /* its length in seconds */
static int g_failures = 0; /* runs that failed other than by the deadline */
static const char* g_filter = NULL;

static int g_counts[kMaxCounts];
static int g_ncounts = 0;

/* ------------------------------------------------------------------ helpers */
static double env_double(const char* name, double dflt) {
  const char* e = getenv(name);
  return e != NULL && *e ? atof(e) : dflt;
}

static int contains_nocase(const char* hay, const char* needle) {
  size_t i, j, nl = strlen(needle);
  for (i = 0; hay[i]; i++) {
    for (j = 0; j < nl && hay[i + j] && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]); j++) {
    }
    if (j == nl) return 1;
  }
  return nl == 0;
}

static int wanted(const char* section) { return g_filter == NULL || contains_nocase(section, g_filter); }

/* A number, or "-" for NAN; up to 24 in flight (one printf's arguments). */
static const char* num(const char* fmt, double v) {
  static char ring[24][320];
  static int at = 0;
  char* b = ring[at++ % 24];
  if (isnan(v)) return "-";
  snprintf(b, sizeof ring[0], fmt, v);
  return b;
}

/* A note for a markdown cell or a quoted CSV field: no '|', '"', newline. */
static void clean(char* s) {
  for (; *s; s++) {
    if (*s == '|')
      *s = '/';
    else if (*s == '"')
      *s = '\'';
    else if (*s == '\n' || *s == '\r')
      *s = ' ';
  }
}

/* Appends "; text" (or text to an empty note), cut to fit. */
static void add_note(char* note, size_t size, const char* text) {
  size_t l = strlen(note);
  if (l > 0 && l + 2 < size) {
    note[l++] = ';';
    note[l++] = ' ';
  }
  for (; *text && l + 1 < size; text++) note[l++] = *text;
  note[l < size ? l : size - 1] = 0;
  clean(note);
}

/* /proc/meminfo's MemAvailable in bytes (GSP_BENCH_MG_HOST_GIB instead
 * where set: hosts whose memory grows as it is used read too little); NAN
 * where unknown. */
static double mem_available(void) {
  FILE* f;
  char line[256];
  double v = NAN;
  if (env_double("GSP_BENCH_MG_HOST_GIB", 0) > 0) return env_double("GSP_BENCH_MG_HOST_GIB", 0) * 1073741824.0;
  f = fopen("/proc/meminfo", "r");
  if (f == NULL) return NAN;
  while (fgets(line, sizeof line, f)) {
    long long kb;
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) {
      v = (double)kb * 1024.0;
      break;
    }
  }
  fclose(f);
  return v;
}

/* The deadline of a run: its section's, never past the program's. */
static void arm_deadline(double section_end) { bench_deadline_at = section_end < g_end ? section_end : g_end; }

/* Records a failed run's status in note (and on stderr); a cancellation
 * past the deadline is not a failure. The error text is copied at once. */
static void failed(const char* what, gsp_status s, char* note, size_t size) {
  char msg[400];
  snprintf(msg, sizeof msg, "%s", gsp_last_error());
  if (s == GSP_ERR_CANCELLED && bench_now() >= bench_deadline_at) {
    add_note(note, size, "cancelled at the deadline");
    fprintf(stderr, "  %s: cancelled at the deadline\n", what);
    return;
  }
  g_failures++;
  {
    char t[480];
    snprintf(t, sizeof t, "%s: %s", gsp_status_name(s), msg);
    add_note(note, size, t);
  }
  fprintf(stderr, "  %s: FAILED %s: %s\n", what, gsp_status_name(s), msg);
}

typedef struct {
  int64_t rows;
  int32_t next;
  int out_of_order;    /* a block did not start where the one before ended */
  unsigned char* seen; /* NULL, or one byte a row (num_rows of them): times it came */
  int32_t num_rows;    /* the rows the stream owes (with seen) */
  int64_t repeated;    /* rows that came more than once (with seen) */
  int64_t outside;     /* blocks outside 0 .. num_rows - 1 (with seen) */
} row_counter;

/* The rows callback of every stream: counts rows, notes whether they came
 * in order, marks each row seen (where c->seen is set: streams with
 * GSP_ROWS_ANY_ORDER, whose blocks may come in any order), stops at the
 * deadline. */
static int count_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  row_counter* c = (row_counter*)user;
  (void)d;
  (void)p;
  if (first != c->next) c->out_of_order = 1;
  c->next = first + rows;
  c->rows += rows;
  if (c->seen != NULL) {
    if (first < 0 || rows < 0 || (int64_t)first + rows > c->num_rows) {
      c->outside++;
    } else {
      int32_t i;
      for (i = first; i < first + rows; i++) {
        if (c->seen[i])
          c->repeated++;
        else
          c->seen[i] = 1;
      }
    }
  }
  return bench_now() > bench_deadline_at ? 1 : 0;
}

/* Whether a finished stream delivered its `want` rows as it must: with
 * c->seen every row exactly once (in any order), else in source order.
 * Writes what went wrong into m when not. */
static int rows_complete(const row_counter* c, int32_t want, char* m, size_t size) {
  if (c->seen != NULL) {
    int32_t i, missing = 0;
    for (i = 0; i < c->num_rows; i++) missing += !c->seen[i];
    if (c->rows == want && missing == 0 && c->repeated == 0 && c->outside == 0) return 1;
    snprintf(m, size, "stream delivered %lld rows for %d: %d never, %lld more than once, %lld blocks out of range",
             (long long)c->rows, want, missing, (long long)c->repeated, (long long)c->outside);
    return 0;
  }
  if (c->rows == want && !c->out_of_order) return 1;
  snprintf(m, size, "stream delivered %lld of %d rows%s", (long long)c->rows, want,
           c->out_of_order ? ", out of order" : "");
  return 0;
}

/* One CSV line: csv,section,graph,n,m,sources,targets,paths,devices,devices_used,algorithm,reps,call_s,first_s,
 * setup_s,compute_s,copy_s,relax_per_s,relax_per_s_per_gpu,vs_1_device,efficiency,compute_efficiency,status,note */
static void csv_line(const char* section, const char* graph, int32_t n, int64_t m, int64_t sources, int64_t targets,
                     int paths, int devices, int used, const char* algo, int reps, double call, double first,
                     double setup, double compute, double copy, double rate, double per_gpu, double vs1, double eff,
                     double ceff, const char* status, const char* note) {
  printf("csv,%s,%s,%d,%lld,%lld,%lld,%d,%d,%d,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\"\n", section, graph, n,
         (long long)m, (long long)sources, (long long)targets, paths, devices, used, algo, reps, num("%.6f", call),
         num("%.6f", first), num("%.6f", setup), num("%.6f", compute), num("%.6f", copy), num("%.4e", rate),
         num("%.4e", per_gpu), num("%.4f", vs1), num("%.4f", eff), num("%.4f", ceff), status, note);
  fflush(stdout);
}

/* The CSV status of a row: OK (measured), NOT_RUN (no time left for it),
 * SKIPPED (does not fit), else the failure's status name. */
static const char* status_word(int measured, gsp_status s, const char* note) {
  if (measured) return "OK";
  if (strstr(note, "not run:") != NULL) return "NOT_RUN";
  return s == GSP_OK ? "SKIPPED" : gsp_status_name(s);
}

/* ------------------------------------------------------------------ dense FW */
typedef struct {
  int32_t n;
  int paths;
  int k, used;                              /* devices asked for, devices the run info reports (0: unknown) */
  int stream;                               /* rows streamed to a callback, no run info */
  int ran;                                  /* timed runs done */
  double call, first, setup, compute, copy; /* seconds; NAN where unknown */
  double rate, per_gpu, vs1, eff, ceff;
  int est; /* efficiencies against another size's 1-device rate */
  gsp_status status;
  char algo[40];
  char note[320];
} fw_row;

static int cmp_size(const void* a, const void* b) {
  const fw_row* x = (const fw_row*)a;
  const fw_row* y = (const fw_row*)b;
  return x->n != y->n ? (x->n < y->n ? -1 : 1) : x->paths - y->paths;
}

/* Parses "N[:paths|:nopaths] ..." into rows (n, paths); returns the count. */
static int parse_sizes(const char* text, fw_row* sizes, int have) {
  char buf[1024], *tok, *save = NULL;
  snprintf(buf, sizeof buf, "%s", text);
  for (tok = strtok_r(buf, " ,\t", &save); tok != NULL && have < kMaxSizes; tok = strtok_r(NULL, " ,\t", &save)) {
    char* colon = strchr(tok, ':');
    long n = strtol(tok, NULL, 10);
    if (n < 2 || n > 1L << 30) {
      fprintf(stderr, "bench_multi_gpu: size '%s' ignored\n", tok);
      continue;
    }
    memset(&sizes[have], 0, sizeof sizes[have]);
    sizes[have].n = (int32_t)n;
    sizes[have].paths = colon == NULL || strcmp(colon + 1, "nopaths") != 0;
    if (colon != NULL && strcmp(colon + 1, "paths") != 0 && strcmp(colon + 1, "nopaths") != 0)
      fprintf(stderr, "bench_multi_gpu: '%s': expected :paths or :nopaths; taken as paths\n", tok);
    have++;
  }
  return have;
}

/* Runs one (n, paths, k) configuration: `warm` warm-up runs (0 or 1), then
 * `reps` timed ones, stopping at the first failure. */
static void fw_measure(const gsp_graph* g, fw_row* r, int warm, int reps, double section_end) {
  gsp_options o;
  double t[kMaxReps], su[kMaxReps], co[kMaxReps], cp[kMaxReps];
  int i, done = 0;
  const int32_t n = r->n;
  char what[96];
  snprintf(what, sizeof what, "FW n=%d %s k=%d", n, r->paths ? "paths" : "nopaths", r->k);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  o.flags = r->paths ? 0 : GSP_NO_PATHS;
  o.device = 0;
  o.num_devices = r->k;
  o.progress = bench_deadline_cb;
  if (reps > kMaxReps) reps = kMaxReps;
  r->status = GSP_OK;
  for (i = warm ? -1 : 0; i < reps; i++) {
    gsp_paths* p = NULL;
    row_counter c;
    double t0, dt;
    gsp_status s;
    memset(&c, 0, sizeof c);
    arm_deadline(section_end);
    t0 = bench_now();
    s = r->stream ? gsp_apsp_stream(g, NULL, 0, &o, count_rows, &c) : gsp_apsp_run(g, NULL, 0, &o, &p);
    dt = bench_now() - t0;
    if (s != GSP_OK) {
      r->status = s;
      failed(what, s, r->note, sizeof r->note);
      gsp_paths_destroy(p);
      break;
    }
    if (r->stream) {
      char m[160];
      if (!rows_complete(&c, n, m, sizeof m)) {
        add_note(r->note, sizeof r->note, m);
        fprintf(stderr, "  %s: FAILED: %s\n", what, m);
        r->status = GSP_ERR_INTERNAL;
        g_failures++;
        break;
      }
    } else {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      if (gsp_paths_info(p, &info) == GSP_OK) {
        r->used = info.num_devices;
        snprintf(r->algo, sizeof r->algo, "%s", gsp_algorithm_name(info.algorithm));
        if (i >= 0) {
          su[done] = info.setup_seconds;
          co[done] = info.compute_seconds;
          cp[done] = info.copy_seconds;
        }
      }
    }
    gsp_paths_destroy(p); /* not timed */
    fprintf(stderr, "  %s %s: %.3f s\n", what, i < 0 ? "warm-up" : "run", dt);
    if (i < 0) {
      r->first = dt;
    } else {
      t[done++] = dt;
    }
  }
  r->ran = done;
  if (done > 0) {
    r->call = bench_median(t, done);
    if (!r->stream) {
      r->setup = bench_median(su, done);
      r->compute = bench_median(co, done);
      r->copy = bench_median(cp, done);
    }
    if (done < reps) {
      char m[64];
      snprintf(m, sizeof m, "%d of %d timed runs", done, reps);
      add_note(r->note, sizeof r->note, m);
    }
  }
}

/* Call seconds estimated for (n, k) from the rows done so far: the same k
 * at the largest smaller n, scaled by n^3; else the 1-device call at this n
 * over k. NAN when nothing is known. */
static double fw_estimate(const fw_row* rows, int nr, int32_t n, int k) {
  int i, best = -1;
  for (i = 0; i < nr; i++) {
    if (rows[i].k == k && rows[i].ran > 0 && rows[i].n <= n && (best < 0 || rows[i].n > rows[best].n)) best = i;
  }
  if (best >= 0) {
    const double f = (double)n / rows[best].n;
    return rows[best].call * f * f * f;
  }
  for (i = 0; i < nr; i++) {
    if (rows[i].k == 1 && rows[i].ran > 0 && rows[i].n == n) return rows[i].call / k;
  }
  return NAN;
}

static int fw_section(const fw_row* sizes, int nsizes, double section_end, fw_row* rows, char* notes,
                      size_t notes_size) {
  int nr = 0, si, ci;
  const double device_gib = env_double("GSP_BENCH_MG_DEVICE_GIB", 75.0);
  const char* re = getenv("GSP_BENCH_REPS");
  int reps_default = re != NULL && *re ? atoi(re) : 3;
  double ref_rate[2] = {NAN, NAN}; /* 1-device compute relax/s at the largest n run, per paths */
  int32_t ref_n[2] = {0, 0};
  int ref_noted = 0;
  if (reps_default < 1) reps_default = 1;
  if (reps_default > kMaxReps) reps_default = kMaxReps;
  for (si = 0; si < nsizes; si++) {
    const int32_t n = sizes[si].n;
    const int paths = sizes[si].paths;
    const double n3 = (double)n * n * n;
    const double cell = paths ? 8.0 : 4.0; /* int32 distance (+ int32 predecessor) */
    const double result_bytes = (double)n * n * cell;
    const int big = n >= 65536;
    int first_row = nr, k1 = -1, i;
    gsp_graph* g = NULL;
    double avail;
    if (bench_now() >= section_end) {
      fw_row* r = &rows[nr++];
      memset(r, 0, sizeof *r);
      r->n = n;
      r->paths = paths;
      r->k = 0;
      r->call = r->first = r->setup = r->compute = r->copy = r->rate = r->per_gpu = r->vs1 = r->eff = r->ceff = NAN;
      snprintf(r->note, sizeof r->note, "not run: the FW rows' time (%.1f s) was used up",
               section_end - (g_end - g_total));
      r->status = GSP_ERR_CANCELLED;
      csv_line("fw", "random-deg16", n, (int64_t)n * 16, n, n, paths, 0, 0, "", 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
               NAN, NAN, NAN, status_word(0, r->status, r->note), r->note);
      continue;
    }
    fprintf(stderr, "FW n=%d %s: generating the graph\n", n, paths ? "paths" : "nopaths");
    g = bench_random_graph(n, 16, 100, 42u + (uint64_t)n, GSP_I32);
    if (g == NULL) {
      fprintf(stderr, "  FW n=%d: graph creation FAILED: %s\n", n, gsp_last_error());
      g_failures++;
      continue;
    }
    for (ci = 0; ci < g_ncounts; ci++) {
      const int k = g_counts[ci];
      fw_row* r = &rows[nr++];
      const double need_gib = result_bytes / k / 1073741824.0 + 2.0;
      double est, left;
      int warm = big ? 0 : 1, reps = big ? 1 : reps_default;
      memset(r, 0, sizeof *r);
      r->n = n;
      r->paths = paths;
      r->k = k;
      r->call = r->first = r->setup = r->compute = r->copy = r->rate = r->per_gpu = r->vs1 = r->eff = r->ceff = NAN;
      r->status = GSP_OK;
      if (need_gib >= device_gib) {
        char m[160];
        snprintf(m, sizeof m, "skipped: %.1f GiB per device (n^2 x %.0f B / %d + 2 GiB) >= %.0f GiB", need_gib, cell, k,
                 device_gib);
        add_note(r->note, sizeof r->note, m);
        fprintf(stderr, "  FW n=%d k=%d: %s\n", n, k, m);
        continue;
      }
      avail = mem_available();
      if (!isnan(avail) && result_bytes > 0.8 * avail) {
        char m[160];
        snprintf(m, sizeof m, "result %.1f GiB > 80%% of the %.1f GiB host memory available",
                 result_bytes / 1073741824.0, avail / 1073741824.0);
        char full[240];
        snprintf(full, sizeof full, "%s: %s", big ? "streamed to a no-op callback" : "skipped", m);
        add_note(r->note, sizeof r->note, full);
        if (!big) {
          fprintf(stderr, "  FW n=%d k=%d: %s\n", n, k, full);
          continue;
        }
        r->stream = 1;
      }
      left = section_end - bench_now();
      est = fw_estimate(rows, nr - 1, n, k);
      if (!isnan(est) && est > 0) {
        const double runs = left / est;
        const int fit = runs > 1000 ? 1000 : (int)runs;
        if (fit < 1) {
          char m[120];
          snprintf(m, sizeof m, "not run: estimated %.1f s, %.1f s left", est, left > 0 ? left : 0.0);
          add_note(r->note, sizeof r->note, m);
          r->status = GSP_ERR_CANCELLED;
          fprintf(stderr, "  FW n=%d k=%d: %s\n", n, k, m);
          continue;
        }
        if (fit < warm + reps) {
          char m[96];
          if (fit == 1) {
            warm = 0;
            reps = 1;
          } else
            reps = fit - warm;
          snprintf(m, sizeof m, "%s%d timed run%s to fit the time left (%.1f s, estimated %.1f s a run)",
                   warm ? "" : "no warm-up, ", reps, reps == 1 ? "" : "s", left, est);
          add_note(r->note, sizeof r->note, m);
        }
      }
      if (big) add_note(r->note, sizeof r->note, "one run, no warm-up");
      fw_measure(g, r, warm, reps, section_end);
      if (r->ran > 0) {
        if (!r->stream && r->compute > 0) {
          r->rate = n3 / r->compute;
        } else {
          r->rate = n3 / r->call; /* from the wall time */
          add_note(r->note, sizeof r->note, "relax/s from the call's wall time");
        }
        r->per_gpu = r->rate / k;
        if (r->used > 0 && r->used != k) {
          char m[64];
          snprintf(m, sizeof m, "the run used %d device%s", r->used, r->used == 1 ? "" : "s");
          add_note(r->note, sizeof r->note, m);
        }
        if (k == 1) {
          k1 = nr - 1;
          if (!r->stream && r->compute > 0 && n >= ref_n[paths]) {
            ref_rate[paths] = r->rate;
            ref_n[paths] = n;
          }
        }
      }
    }
    gsp_graph_destroy(g);
    /* efficiencies against this size's 1-device run, else the 1-device rate at the largest n */
    for (i = first_row; i < nr; i++) {
      fw_row* r = &rows[i];
      if (r->ran == 0) continue;
      if (k1 >= 0) {
        const fw_row* one = &rows[k1];
        r->vs1 = r->call / one->call;
        r->eff = one->call / (r->k * r->call);
        if (!isnan(one->compute) && !isnan(r->compute) && r->compute > 0) r->ceff = one->compute / (r->k * r->compute);
      } else {
        const int pp = !isnan(ref_rate[paths]) ? paths : 1 - paths;
        if (!isnan(ref_rate[pp])) {
          const double t1 = n3 / ref_rate[pp];
          char m[160];
          r->vs1 = r->call / t1;
          r->eff = t1 / (r->k * r->call);
          if (!isnan(r->compute) && r->compute > 0) r->ceff = t1 / (r->k * r->compute);
          r->est = 1;
          snprintf(m, sizeof m, "~: against the 1-device compute rate at n = %d%s (%.3e relax/s)", ref_n[pp],
                   pp == paths ? "" : (pp ? ", paths" : ", no paths"), ref_rate[pp]);
          add_note(r->note, sizeof r->note, m);
          if (!ref_noted) {
            size_t l = strlen(notes);
            snprintf(notes + l, notes_size - l,
                     "- Where the 1-device run of a size is missing (too big for one device, or not run), efficiencies "
                     "(marked ~) divide n^3 / (the 1-device compute rate at the largest size that ran on one device) "
                     "by k x this time; for the call that leaves out the 1-device run's setup and copies.\n");
            ref_noted = 1;
          }
        }
      }
    }
    for (i = first_row; i < nr; i++) {
      const fw_row* r = &rows[i];
      const char* st = status_word(r->ran > 0, r->status, r->note);
      csv_line("fw", "random-deg16", n, (int64_t)n * 16, n, n, paths, r->k, r->used, r->ran ? "floyd-warshall" : "",
               r->ran, r->call, r->first, r->setup, r->compute, r->copy, r->rate, r->per_gpu, r->vs1, r->eff, r->ceff,
               st, r->note);
    }
  }
  return nr;
}

/* ------------------------------------------------------------------ NY rows */
typedef struct {
  int k, used;
  double seconds, first; /* first: the warm-up (tables) */
  int reps;
  int32_t sources; /* streams: the sources of the run */
  int in_order;    /* streams: run without GSP_ROWS_ANY_ORDER */
  char algo[40];
  gsp_status status;
  char note[320];
} dev_row;

static void dev_row_init(dev_row* r, int k) {
  memset(r, 0, sizeof *r);
  r->k = k;
  r->seconds = r->first = NAN;
  r->status = GSP_OK;
  snprintf(r->algo, sizeof r->algo, "-");
}

/* Seconds one k-device row is estimated to take from the 1-device one; NAN if unknown. */
static double from_one(const dev_row* rows, int nr, int k) {
  int i;
  for (i = 0; i < nr; i++) {
    if (rows[i].k == 1 && !isnan(rows[i].seconds)) return rows[i].seconds / k;
  }
  return NAN;
}

/* Sources of the in-order stream rows: the first 32768 (fewer when the
 * any-order rows have fewer). */
enum { kOrderedSources = 32768 };

/* The "run" cell of a stream row. */
static void stream_label(char* buf, size_t size, const dev_row* r) {
  snprintf(buf, size, "%s, %d sources", r->in_order ? "in order" : "any order", r->sources);
}

/* One stream row: gsp_apsp_stream of `count` sources (src, or NULL for
 * every vertex) on r->k devices, with GSP_ROWS_ANY_ORDER unless
 * r->in_order; the rows checked (any order: each exactly once, marked in
 * `seen`, which has room for count; in order: source order). `est`: the
 * seconds it is estimated to take (NAN: unknown). */
static void stream_row(const gsp_graph* g, dev_row* r, const int32_t* src, int32_t count, unsigned char* seen,
                       double est, double section_end) {
  gsp_options o;
  gsp_backend be;
  gsp_algorithm algo = GSP_ALGO_AUTO;
  row_counter c;
  double t0, left = section_end - bench_now();
  char what[96], m[200];
  gsp_status s;
  r->sources = count;
  snprintf(what, sizeof what, "NY stream K=%d %s k=%d", count, r->in_order ? "in order" : "any order", r->k);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = GSP_ALGO_AUTO;
  o.device = 0;
  o.num_devices = r->k;
  o.progress = bench_deadline_cb;
  if (!r->in_order) o.flags |= GSP_ROWS_ANY_ORDER;
  if (left <= 0 || (!isnan(est) && est > left)) {
    if (left <= 0)
      snprintf(r->note, sizeof r->note, "not run: the deadline had passed");
    else
      snprintf(r->note, sizeof r->note, "not run: estimated %.1f s, %.1f s left", est, left);
    r->status = GSP_ERR_CANCELLED;
    fprintf(stderr, "  %s: %s\n", what, r->note);
    return;
  }
  if (gsp_run_plan(g, 0, count, &o, &be, &algo) == GSP_OK)
    snprintf(r->algo, sizeof r->algo, "%s", gsp_algorithm_name(algo));
  memset(&c, 0, sizeof c);
  if (!r->in_order) {
    memset(seen, 0, (size_t)count);
    c.seen = seen;
    c.num_rows = count;
  }
  arm_deadline(section_end);
  t0 = bench_now();
  s = gsp_apsp_stream(g, src, count, &o, count_rows, &c);
  r->seconds = bench_now() - t0;
  if (s != GSP_OK) {
    r->status = s;
    r->seconds = NAN;
    failed(what, s, r->note, sizeof r->note);
    return;
  }
  if (!rows_complete(&c, count, m, sizeof m)) {
    add_note(r->note, sizeof r->note, m);
    fprintf(stderr, "  %s: FAILED: %s\n", what, m);
    r->status = GSP_ERR_INTERNAL;
    r->seconds = NAN;
    g_failures++;
    return;
  }
  if (!r->in_order && r->k > 1)
    add_note(r->note, sizeof r->note,
             c.out_of_order ? "blocks came out of source order" : "blocks came in source order");
  r->reps = 1;
  fprintf(stderr, "  %s: %.3f s (%s)\n", what, r->seconds, r->algo);
}

/* Per device count, the any-order stream of every source (or
 * GSP_BENCH_MG_NY_SOURCES), then the in-order one of the first 32768: rows
 * 0 .. g_ncounts - 1 any order, g_ncounts .. 2 g_ncounts - 1 in order.
 * Returns the rows (2 g_ncounts). */
static int ny_stream_section(const gsp_graph* g, double section_end, dev_row* rows, int32_t* k_out) {
  const int32_t n = gsp_graph_num_vertices(g);
  int32_t k_src = (int32_t)env_double("GSP_BENCH_MG_NY_SOURCES", 0), k_ord, i;
  int32_t *src = NULL, *ord;
  unsigned char* seen;
  int ci;
  const int nc = g_ncounts;
  if (k_src > 0 && k_src < n) {
    src = (int32_t*)malloc((size_t)k_src * sizeof(int32_t));
    if (src == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    for (i = 0; i < k_src; i++) src[i] = i;
  } else {
    k_src = n;
  }
  *k_out = k_src;
  k_ord = k_src < kOrderedSources ? k_src : kOrderedSources;
  ord = (int32_t*)malloc((size_t)k_ord * sizeof(int32_t));
  seen = (unsigned char*)malloc((size_t)k_src);
  if (ord == NULL || seen == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (i = 0; i < k_ord; i++) ord[i] = i;
  for (ci = 0; ci < nc; ci++) {
    dev_row_init(&rows[ci], g_counts[ci]);
    rows[ci].sources = k_src;
    dev_row_init(&rows[nc + ci], g_counts[ci]);
    rows[nc + ci].in_order = 1;
    rows[nc + ci].sources = k_ord;
  }
  for (ci = 0; ci < nc; ci++) {
    /* any order: the 1-device time over k; in order: the 1-device in-order
     * time (source order gains nothing from more devices), else the
     * 1-device any-order time for this many sources */
    double est_ord = from_one(rows + nc, nc, 1);
    if (isnan(est_ord)) est_ord = from_one(rows, nc, 1) * k_ord / k_src;
    stream_row(g, &rows[ci], src, k_src, seen, from_one(rows, nc, rows[ci].k), section_end);
    stream_row(g, &rows[nc + ci], ord, k_ord, seen, est_ord, section_end);
  }
  free(src);
  free(ord);
  free(seen);
  return 2 * nc;
}

static int ny_table_section(const gsp_graph* g, double section_end, dev_row* rows, int* paths_of, int32_t* t_out) {
  const int32_t n = gsp_graph_num_vertices(g);
  int32_t t = (int32_t)env_double("GSP_BENCH_MG_TABLE", 10000), i;
  const int with_paths = env_double("GSP_BENCH_MG_TABLE_PATHS", 0) == 1;
  int32_t *src, *tgt;
  bench_rng rng = {20261128u};
  int nr = 0, paths, ci;
  if (t < 1) t = 1;
  if (t > n) t = n;
  *t_out = t;
  src = (int32_t*)malloc((size_t)t * sizeof(int32_t));
  tgt = (int32_t*)malloc((size_t)t * sizeof(int32_t));
  if (src == NULL || tgt == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (i = 0; i < t; i++) src[i] = bench_below(&rng, n);
  for (i = 0; i < t; i++) tgt[i] = bench_below(&rng, n);
  for (paths = 0; paths <= with_paths; paths++) {
    const int base = nr;
    for (ci = 0; ci < g_ncounts; ci++) {
      dev_row* r = &rows[nr++];
      gsp_options o;
      double ts[3], est, left = section_end - bench_now();
      int rep, done = 0;
      char what[80];
      dev_row_init(r, g_counts[ci]);
      paths_of[nr - 1] = paths;
      snprintf(what, sizeof what, "NY table %dx%d%s k=%d", t, t, paths ? " paths" : "", r->k);
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CUDA;
      o.algorithm = GSP_ALGO_AUTO;
      o.flags = paths ? 0 : GSP_NO_PATHS;
      o.device = 0;
      o.num_devices = r->k;
      o.progress = bench_deadline_cb;
      est = from_one(rows + base, nr - 1 - base, r->k);
      if (left <= 0 || (!isnan(est) && 2 * est > left)) {
        if (left <= 0)
          snprintf(r->note, sizeof r->note, "not run: the deadline had passed");
        else
          snprintf(r->note, sizeof r->note, "not run: estimated %.1f s a call, %.1f s left", est, left);
        r->status = GSP_ERR_CANCELLED;
        fprintf(stderr, "  %s: %s\n", what, r->note);
        continue;
      }
      for (rep = -1; rep < 3; rep++) {
        gsp_table* tab = NULL;
        gsp_status s;
        double t0, dt;
        /* a timed run that would not fit: stop with the ones done */
        if (rep >= 0 && bench_now() + r->first > section_end) {
          char m[80];
          snprintf(m, sizeof m, "%d of 3 timed runs: the deadline", done);
          add_note(r->note, sizeof r->note, m);
          if (done == 0) r->status = GSP_ERR_CANCELLED;
          break;
        }
        arm_deadline(section_end);
        t0 = bench_now();
        s = gsp_table_run(g, src, t, tgt, t, &o, &tab);
        dt = bench_now() - t0;
        if (s != GSP_OK) {
          r->status = s;
          failed(what, s, r->note, sizeof r->note);
          gsp_table_destroy(tab);
          break;
        }
        {
          gsp_run_info info;
          memset(&info, 0, sizeof info);
          info.size = sizeof info;
          if (gsp_table_info(tab, &info) == GSP_OK) {
            r->used = info.num_devices;
            snprintf(r->algo, sizeof r->algo, "%s", gsp_algorithm_name(info.algorithm));
          }
        }
        gsp_table_destroy(tab); /* not timed */
        fprintf(stderr, "  %s %s: %.3f s\n", what, rep < 0 ? "warm-up" : "run", dt);
        if (rep < 0)
          r->first = dt;
        else
          ts[done++] = dt;
      }
      r->reps = done;
      if (done > 0) {
        r->seconds = bench_median(ts, done);
        if (r->status != GSP_OK) r->status = GSP_OK; /* a later run was cancelled: the ones done stand */
      }
      if (r->used > 0 && r->used != r->k) {
        char m[64];
        snprintf(m, sizeof m, "the run used %d device%s", r->used, r->used == 1 ? "" : "s");
        add_note(r->note, sizeof r->note, m);
      }
    }
  }
  free(src);
  free(tgt);
  return nr;
}

/* vs 1 device (tk / t1) and efficiency t1 / (k tk) of rows[i] within rows[from .. to). */
static void vs_one(const dev_row* rows, int from, int to, int i, double* vs1, double* eff) {
  int j;
  *vs1 = *eff = NAN;
  for (j = from; j < to; j++) {
    if (rows[j].k == 1 && !isnan(rows[j].seconds) && !isnan(rows[i].seconds)) {
      *vs1 = rows[i].seconds / rows[j].seconds;
      *eff = rows[j].seconds / (rows[i].k * rows[i].seconds);
    }
  }
}

static const char* row_status(const dev_row* r) { return status_word(!isnan(r->seconds), r->status, r->note); }

static void devices_cell(char* buf, size_t size, int k, int used) {
  if (used > 0 && used != k)
    snprintf(buf, size, "%d (used %d)", k, used);
  else
    snprintf(buf, size, "%d", k);
}

/* ------------------------------------------------------------------ markdown */
typedef struct {
  char date[40], device[160], cpu[128], commit[64];
  int G;
  double used_s;
  const fw_row* fw;
  int nfw;
  int fw_wanted;
  const char* fw_notes;
  const dev_row* st;
  int nst;
  int32_t st_sources, st_ordered;
  const dev_row* tb;
  int ntb;
  const int* tb_paths;
  int32_t tb_size;
  int ny_state; /* 0 not wanted, 1 loaded, 2 absent */
  int32_t ny_n;
  int64_t ny_m;
  char ny_why[400];
} report;

static void write_markdown(FILE* f, const report* rp) {
  int i;
  char counts[128] = "";
  for (i = 0; i < g_ncounts; i++) {
    size_t l = strlen(counts);
    snprintf(counts + l, sizeof counts - l, "%s%d", i ? ", " : "", g_counts[i]);
  }
  fprintf(f, "\n## Multi-GPU, one process (bench_multi_gpu): %d x %s, %s%s%s\n\n", rp->G, rp->device, rp->date,
          rp->commit[0] ? ", commit " : "", rp->commit);
  fprintf(f,
          "G = %d GPUs (gsp_device_count()); device counts measured: %s (gsp_options.num_devices, from device 0; "
          "every device started beforehand by a small run). Host: %s, %ld cores. %.0f s of the %.0f s allowed "
          "(GSP_BENCH_TIMEOUT) used.\n\n",
          rp->G, counts, rp->cpu, sysconf(_SC_NPROCESSORS_ONLN), rp->used_s, g_total);
  if (rp->fw_wanted) {
    fprintf(f, "### Dense Floyd-Warshall, all sources (CUDA, int32)\n\n");
    fprintf(f,
            "Graph: random, 16 out-arcs per vertex, weights 1..100 (bench_apsp_dense's). Call: wall time of "
            "gsp_apsp_run(sources NULL) with every row in host memory (destroyed untimed), median of the timed "
            "runs after one warm-up (\"first call\"); from n = 65536 one run, no warm-up. Stages: gsp_run_info "
            "medians. relax/s = n^3 / compute s; per GPU = relax/s / devices; efficiency = t1 / (k tk), of the "
            "call and of the compute stage.\n\n");
    fprintf(f,
            "| n | paths | devices | call s | first call s | setup s | compute s | copy s | relax/s | per GPU | "
            "efficiency | compute eff. | note |\n"
            "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (i = 0; i < rp->nfw; i++) {
      const fw_row* r = &rp->fw[i];
      char dev[32];
      const char* tilde = r->est ? "~" : "";
      devices_cell(dev, sizeof dev, r->k, r->used);
      if (r->k == 0) snprintf(dev, sizeof dev, "-");
      fprintf(f, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s%s | %s |\n", r->n,
              r->paths ? "yes" : "no", dev, num("%.3f", r->call), num("%.3f", r->first), num("%.3f", r->setup),
              num("%.3f", r->compute), num("%.3f", r->copy), num("%.3e", r->rate), num("%.3e", r->per_gpu),
              isnan(r->eff) ? "" : tilde, num("%.2f", r->eff), isnan(r->ceff) ? "" : tilde, num("%.2f", r->ceff),
              r->note);
    }
    if (rp->nfw == 0) fprintf(f, "| - | - | - | - | - | - | - | - | - | - | - | - | no sizes given |\n");
    fprintf(f, "\n%s", rp->fw_notes);
  }
  if (rp->ny_state == 2) {
    fprintf(f, "\n### NY road graph: skipped\n\n%s\n", rp->ny_why);
  } else if (rp->ny_state == 1) {
    if (rp->nst > 0) {
      const int half = rp->nst / 2; /* rows 0 .. half - 1 any order, half .. nst - 1 in order */
      fprintf(f, "\n### Many sources streamed: NY road (n = %d, m = %lld), %d sources\n\n", rp->ny_n,
              (long long)rp->ny_m, rp->st_sources);
      fprintf(f,
              "Wall time of one gsp_apsp_stream(%s) per device count with GSP_ROWS_ANY_ORDER (row blocks in any "
              "order, so every device streams at once), backend CUDA, AUTO (the engine named by gsp_run_plan), "
              "paths on, to a callback that counts the rows and checks that each came exactly once. \"in order\": "
              "the same without the flag (blocks in source order, checked) for sources 0 .. %d (an explicit list), "
              "the cost of ordering. rows/s: sources / wall s. vs 1 device: tk / t1 and efficiency: t1 / (k tk), "
              "each within its kind of run.\n\n",
              rp->st_sources == rp->ny_n ? "sources NULL" : "sources 0 .. K-1", rp->st_ordered - 1);
      fprintf(f,
              "| run | devices | wall s | rows/s | algorithm | vs 1 device | efficiency | note |\n"
              "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |\n");
      for (i = 0; i < rp->nst; i++) {
        const dev_row* r = &rp->st[i];
        const int from = i < half ? 0 : half, to = i < half ? half : rp->nst;
        double vs1, eff;
        char label[64];
        vs_one(rp->st, from, to, i, &vs1, &eff);
        stream_label(label, sizeof label, r);
        fprintf(f, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", label, r->k, num("%.3f", r->seconds),
                num("%.4g", r->sources / r->seconds), r->algo, num("%.3f", vs1), num("%.2f", eff), r->note);
      }
    }
    if (rp->ntb > 0) {
      fprintf(f, "\n### Table: NY road, %d x %d (gsp_table_run)\n\n", rp->tb_size, rp->tb_size);
      fprintf(f,
              "Sources and targets: pseudo-random vertex ids (fixed seed). Backend CUDA, AUTO; median wall time of "
              "3 calls after a warm-up (\"first call\"), the table destroyed untimed. vs 1 device: tk / t1; "
              "efficiency: t1 / (k tk).\n\n");
      fprintf(f,
              "| paths | devices | median s | first call s | algorithm | vs 1 device | efficiency | note |\n"
              "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |\n");
      for (i = 0; i < rp->ntb; i++) {
        const dev_row* r = &rp->tb[i];
        double vs1, eff;
        int from = i, to = i;
        char dev[32];
        while (from > 0 && rp->tb_paths[from - 1] == rp->tb_paths[i]) from--;
        while (to < rp->ntb && rp->tb_paths[to] == rp->tb_paths[i]) to++;
        vs_one(rp->tb, from, to, i, &vs1, &eff);
        devices_cell(dev, sizeof dev, r->k, r->used);
        fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", rp->tb_paths[i] ? "yes" : "no", dev,
                num("%.3f", r->seconds), num("%.3f", r->first), r->algo, num("%.3f", vs1), num("%.2f", eff), r->note);
      }
    }
  }
  fprintf(f, "\n");
}

/* ------------------------------------------------------------------ main */
/* A small run on one device (its name) or on k devices (the count used); 0 on failure. */
static int probe(int device, int k, int32_t n, char* name, size_t name_size, int* used) {
  gsp_graph* g = bench_random_graph(n, 16, 100, 7u, GSP_I32);
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_run_info info;
  gsp_status s;
  if (g == NULL) return 0;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  o.flags = GSP_NO_PATHS;
  o.device = device;
  o.num_devices = k;
  o.progress = bench_deadline_cb;
  arm_deadline(g_end);
  s = gsp_apsp_run(g, NULL, 0, &o, &p);
  gsp_graph_destroy(g);
  if (s != GSP_OK) return 0;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  gsp_paths_info(p, &info);
  if (name != NULL) snprintf(name, name_size, "%s", info.device_name);
  if (used != NULL) *used = info.num_devices;
  gsp_paths_destroy(p);
  return 1;
}

int main(int argc, char** argv) {
  const double start = bench_now();
  fw_row sizes[kMaxSizes];
  static fw_row fw_rows[kMaxSizes * kMaxCounts];
  static dev_row st_rows[2 * kMaxCounts], tb_rows[2 * kMaxCounts];
  int tb_paths[2 * kMaxCounts];
  char fw_notes[1024] = "";
  int nsizes = 0, sizes_from_args = 0, i, G;
  report rp;
  char dev0[128] = "", first_err[400] = "";
  gsp_graph* ny = NULL;
  const char* e;
  const char* rpath;

  g_total = env_double("GSP_BENCH_TIMEOUT", 560);
  if (!(g_total > 0)) g_total = 560;
  g_end = start + g_total;
  bench_deadline_at = g_end;
  memset(&rp, 0, sizeof rp);

  for (i = 1; i < argc; i++) {
    if (isdigit((unsigned char)argv[i][0])) {
      nsizes = parse_sizes(argv[i], sizes, nsizes);
      sizes_from_args = 1;
    } else {
      g_filter = argv[i];
    }
  }
  if (!sizes_from_args) {
    e = getenv("GSP_BENCH_MG_FW");
    nsizes = parse_sizes(e != NULL ? e : "16384:paths 32768:paths", sizes, 0);
  }
  qsort(sizes, (size_t)nsizes, sizeof sizes[0], cmp_size);
  if (!(wanted("fw dense") && nsizes > 0) && !wanted("ny stream") && !wanted("ny table")) {
    printf("bench_multi_gpu: nothing to run (filter '%s', %d FW sizes)\n", g_filter ? g_filter : "", nsizes);
    return 0;
  }

  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("SKIP bench_multi_gpu: CUDA is not usable (%s)\n", gsp_last_error());
    return 0;
  }
  G = gsp_device_count();
  if (G < 2) {
    printf("SKIP bench_multi_gpu: needs at least 2 CUDA devices, found %d\n", G);
    return 0;
  }

  /* device counts: 1, 2, G, or GSP_BENCH_MG_DEVICES */
  e = getenv("GSP_BENCH_MG_DEVICES");
  if (e != NULL && *e) {
    char buf[256], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", e);
    for (tok = strtok_r(buf, " ,\t", &save); tok != NULL && g_ncounts < kMaxCounts;
         tok = strtok_r(NULL, " ,\t", &save)) {
      const int k = atoi(tok);
      int dup = 0, j;
      for (j = 0; j < g_ncounts; j++) dup |= g_counts[j] == k;
      if (k < 1 || k > G || dup) {
        fprintf(stderr, "bench_multi_gpu: device count '%s' ignored (1..%d)\n", tok, G);
        continue;
      }
      g_counts[g_ncounts++] = k;
    }
  }
  if (g_ncounts == 0) {
    g_counts[g_ncounts++] = 1;
    g_counts[g_ncounts++] = 2;
    if (G > 2) g_counts[g_ncounts++] = G;
  }
  for (i = 1; i < g_ncounts; i++) { /* ascending: the 1-device row first */
    int j = i, k = g_counts[i];
    for (; j > 0 && g_counts[j - 1] > k; j--) g_counts[j] = g_counts[j - 1];
    g_counts[j] = k;
  }

  /* start every device (and learn its name), then every device count */
  fprintf(stderr, "bench_multi_gpu: %d CUDA devices; starting them\n", G);
  for (i = 0; i < G; i++) {
    char name[128] = "";
    if (!probe(i, 1, 512, name, sizeof name, NULL)) {
      if (i == 0) {
        printf("SKIP bench_multi_gpu: CUDA is not usable: a 1-device run on device 0 failed: %s\n", gsp_last_error());
        return 0;
      }
      fprintf(stderr, "  device %d: FAILED: %s\n", i, gsp_last_error());
      g_failures++;
      continue;
    }
    if (i == 0) {
      snprintf(dev0, sizeof dev0, "%s", name);
      snprintf(rp.device, sizeof rp.device, "%s", name);
    } else if (strcmp(name, dev0) != 0) {
      size_t l = strlen(rp.device);
      snprintf(rp.device + l, sizeof rp.device - l, " (device %d: %s)", i, name);
    }
    fprintf(stderr, "  device %d: %s\n", i, name);
  }
  for (i = 0; i < g_ncounts; i++) {
    int used = 0;
    if (g_counts[i] < 2) continue;
    if (!probe(0, g_counts[i], 2048, NULL, 0, &used)) {
      snprintf(first_err, sizeof first_err, "%s", gsp_last_error());
      fprintf(stderr, "  %d devices: FAILED: %s\n", g_counts[i], first_err);
      g_failures++;
    } else {
      fprintf(stderr, "  %d devices: FW n=2048 ran on %d\n", g_counts[i], used);
    }
  }

  printf(
      "csv,section,graph,n,m,sources,targets,paths,devices,devices_used,algorithm,reps,call_s,first_s,setup_s,"
      "compute_s,copy_s,relax_per_s,relax_per_s_per_gpu,vs_1_device,efficiency,compute_efficiency,status,note\n");

  {
    const int want_fw = wanted("fw dense") && nsizes > 0;
    const int want_st = wanted("ny stream");
    const int want_tb = wanted("ny table");
    const double share = env_double("GSP_BENCH_MG_FW_SHARE", 0.6);
    double fw_end = g_end, st_end = g_end;
    if (want_st || want_tb) {
      ny = bench_load_ny(); /* prints why when absent */
      if (ny == NULL) {
        rp.ny_state = 2;
        snprintf(rp.ny_why, sizeof rp.ny_why, "USA-road-d.NY.gr.gz not loaded from %s: %s",
                 getenv("GSP_DATA_DIR") ? getenv("GSP_DATA_DIR") : "../shared/data", gsp_last_error());
        clean(rp.ny_why);
      } else {
        rp.ny_state = 1;
        rp.ny_n = gsp_graph_num_vertices(ny);
        rp.ny_m = gsp_graph_num_edges(ny);
      }
    }
    if (ny != NULL && share > 0 && share < 1) fw_end = start + share * g_total;
    if (ny != NULL && want_tb && want_st) st_end = g_end - 0.15 * g_total;
    rp.fw_wanted = want_fw;
    if (want_fw) rp.nfw = fw_section(sizes, nsizes, fw_end, fw_rows, fw_notes, sizeof fw_notes);
    rp.fw = fw_rows;
    rp.fw_notes = fw_notes;
    if (ny != NULL && want_st) {
      rp.nst = ny_stream_section(ny, st_end, st_rows, &rp.st_sources);
      rp.st_ordered = rp.nst > 0 ? st_rows[rp.nst - 1].sources : 0;
      for (i = 0; i < rp.nst; i++) {
        const int half = rp.nst / 2;
        const int from = i < half ? 0 : half, to = i < half ? half : rp.nst;
        double vs1, eff;
        vs_one(st_rows, from, to, i, &vs1, &eff);
        csv_line(st_rows[i].in_order ? "ny_stream_in_order" : "ny_stream", "NY-road", rp.ny_n, rp.ny_m,
                 st_rows[i].sources, rp.ny_n, 1, st_rows[i].k, st_rows[i].used, st_rows[i].algo, st_rows[i].reps,
                 st_rows[i].seconds, NAN, NAN, NAN, NAN, NAN, NAN, vs1, eff, NAN, row_status(&st_rows[i]),
                 st_rows[i].note);
      }
    }
    rp.st = st_rows;
    if (ny != NULL && want_tb) {
      rp.ntb = ny_table_section(ny, g_end, tb_rows, tb_paths, &rp.tb_size);
      for (i = 0; i < rp.ntb; i++) {
        double vs1, eff;
        int from = i, to = i;
        while (from > 0 && tb_paths[from - 1] == tb_paths[i]) from--;
        while (to < rp.ntb && tb_paths[to] == tb_paths[i]) to++;
        vs_one(tb_rows, from, to, i, &vs1, &eff);
        csv_line("ny_table", "NY-road", rp.ny_n, rp.ny_m, rp.tb_size, rp.tb_size, tb_paths[i], tb_rows[i].k,
                 tb_rows[i].used, tb_rows[i].algo, tb_rows[i].reps, tb_rows[i].seconds, tb_rows[i].first, NAN, NAN, NAN,
                 NAN, NAN, vs1, eff, NAN, row_status(&tb_rows[i]), tb_rows[i].note);
      }
    }
    rp.tb = tb_rows;
    rp.tb_paths = tb_paths;
    gsp_graph_destroy(ny);
  }

  bench_today(rp.date, sizeof rp.date);
  bench_cpu_name(rp.cpu, sizeof rp.cpu);
  e = getenv("GSP_COMMIT");
  if (e != NULL && *e) snprintf(rp.commit, sizeof rp.commit, "%s", e);
  rp.G = G;
  rp.used_s = bench_now() - start;
  write_markdown(stdout, &rp);
  fflush(stdout);
  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    if (f != NULL) {
      write_markdown(f, &rp);
      fclose(f);
    } else {
      fprintf(stderr, "bench_multi_gpu: cannot append to %s\n", rpath);
    }
  }
  if (first_err[0]) fprintf(stderr, "bench_multi_gpu: a multi-device start-up run failed: %s\n", first_err);
  fprintf(stderr, "bench_multi_gpu: %.1f s, %d failed run(s)\n", bench_now() - start, g_failures);
  return g_failures ? 1 : 0;
}
