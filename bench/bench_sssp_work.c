/* Work-efficiency benchmark of the CUDA single-source engine (issue 32,
 * item 1): time and relaxations per arc of delta-stepping on CUDA under
 * several designs (its tuning knobs: bucket width, hub lists, block-local
 * waves), on the graphs of the bars: the NY road graph (when
 * GSP_DATA_DIR holds it), uniform random 2^22 x 8 and R-MAT 2^22 x 16
 * (bench_growth's graphs: int32 weights in 1..255, same seeds), and a
 * road-like grid of 2^22 vertices.
 *
 * Each design is a set of GSP_* variables (setenv before its runs, unset
 * after). Per graph and design: one warm-up, then GSP_BENCH_REPS (default
 * 5) calls of gsp_sssp_run from vertex 0 with paths, algorithm
 * GSP_SSSP_DELTA_STEPPING, backend CUDA; the median engine time
 * (gsp_run_info.seconds), the median whole call, relaxations per arc
 * (gsp_run_info.relaxations / m) and phases (gsp_run_info.iterations).
 * Every design's distances are compared with the first design's (int32:
 * equal bit for bit) and its predecessors checked to be tight arcs; a
 * mismatch is printed and makes the exit status 1.
 *
 * Environment (and bench_common.h's GSP_BENCH_REPS, _RESULTS):
 *   GSP_BENCH_WORK_LOG2     log2 of the generated graphs' n (default 22; 16
 *                           with GSP_BENCH_QUICK=1)
 *   GSP_BENCH_WORK_DESIGNS  designs to run instead of the built-in list:
 *                           "name=VAR=v,VAR=v;name2=...;" ("name=" alone: the defaults)
 * argv[1], when given, keeps the graphs whose name contains it. Without a
 * usable CUDA device it prints a line saying so and exits 0. */
#define _GNU_SOURCE 1

#include "bench_common.h"
#include "gsp_generators.h"

#define MAX_DESIGNS 32

static char g_device[128] = ""; /* gsp_run_info.device_name of the runs */
#define MAX_VARS 8

typedef struct {
  char name[48];
  char var[MAX_VARS][48];
  char val[MAX_VARS][24];
  int nvars;
} design;

typedef struct {
  double engine_ms, call_ms, relax_per_arc;
  int64_t phases;
  gsp_status status;
  int ok; /* distances and predecessors checked */
} work_row;

/* Built-in designs: the library's defaults, the engine before hub lists,
 * and the bucket widths (delta = scale * max_weight / average out-degree). */
static const char* const kDesigns =
    "default=;"
    "no-hubs=GSP_CUDA_HUB_ARCS=0;"
    "one-bucket-hubs1k=GSP_CUDA_HUB_ARCS=1024;"
    "scale1=GSP_CUDA_DS_DELTA_SCALE=1;"
    "scale2=GSP_CUDA_DS_DELTA_SCALE=2;"
    "scale4=GSP_CUDA_DS_DELTA_SCALE=4;"
    "scale8=GSP_CUDA_DS_DELTA_SCALE=8;"
    "scale16=GSP_CUDA_DS_DELTA_SCALE=16;"
    "scale2-no-hubs=GSP_CUDA_DS_DELTA_SCALE=2,GSP_CUDA_HUB_ARCS=0;"
    "scale4-no-hubs=GSP_CUDA_DS_DELTA_SCALE=4,GSP_CUDA_HUB_ARCS=0;";

static int parse_designs(const char* text, design* d) {
  int k = 0;
  const char* p = text;
  while (*p && k < MAX_DESIGNS) {
    const char* end = strchr(p, ';');
    const char* eq = strchr(p, '=');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[512];
    char* save = NULL;
    char* tok;
    if (len == 0) {
      p += 1;
      continue;
    }
    if (len >= sizeof item) len = sizeof item - 1;
    memcpy(item, p, len);
    item[len] = 0;
    memset(&d[k], 0, sizeof d[k]);
    eq = strchr(item, '=');
    if (eq == NULL) {
      snprintf(d[k].name, sizeof d[k].name, "%.47s", item);
    } else {
      snprintf(d[k].name, sizeof d[k].name, "%.*s", (int)(eq - item) < 47 ? (int)(eq - item) : 47, item);
      for (tok = strtok_r((char*)eq + 1, ",", &save); tok != NULL && d[k].nvars < MAX_VARS;
           tok = strtok_r(NULL, ",", &save)) {
        char* e2 = strchr(tok, '=');
        if (e2 == NULL) continue;
        snprintf(d[k].var[d[k].nvars], sizeof d[k].var[0], "%.*s", (int)(e2 - tok), tok);
        snprintf(d[k].val[d[k].nvars], sizeof d[k].val[0], "%.23s", e2 + 1);
        d[k].nvars++;
      }
    }
    k++;
    p += len + (end ? 1 : 0);
  }
  return k;
}

static void apply(const design* d, int on) {
  int i;
  for (i = 0; i < d->nvars; i++) {
    if (on)
      setenv(d->var[i], d->val[i], 1);
    else
      unsetenv(d->var[i]);
  }
}

static void run_design(const gsp_graph* g, int32_t n, int64_t m, const design* d, int32_t* ref, int have_ref,
                       int32_t* dist, work_row* r) {
  gsp_options o;
  gsp_run_info info;
  gsp_paths* p = NULL;
  double eng[64], wall[64], rel[64];
  int reps = bench_reps(), i;
  if (reps > 64) reps = 64;
  memset(r, 0, sizeof *r);
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CUDA;
  o.algorithm = GSP_SSSP_DELTA_STEPPING;
  apply(d, 1);
  r->status = gsp_sssp_run(g, 0, &o, &p);
  if (r->status != GSP_OK) {
    printf("  %s: %s\n", d->name, gsp_last_error());
    apply(d, 0);
    return;
  }
  gsp_paths_distances(p, 0, dist, n);
  r->ok = 1;
  if (have_ref) {
    int64_t bad = 0, first = -1;
    for (i = 0; i < n; i++)
      if (dist[i] != ref[i]) {
        if (first < 0) first = i;
        bad++;
      }
    if (bad) {
      printf("  MISMATCH %s: %lld distances differ from the first design's (first at vertex %lld: %d vs %d)\n", d->name,
             (long long)bad, (long long)first, dist[first], ref[first]);
      r->ok = 0;
    }
  } else {
    memcpy(ref, dist, (size_t)n * sizeof(int32_t));
  }
  gsp_paths_destroy(p);
  for (i = 0; i < reps; i++) {
    r->status = bench_sssp_once(g, 0, &o, &p, &wall[i], &info);
    if (r->status != GSP_OK) break;
    eng[i] = info.seconds * 1e3;
    rel[i] = m > 0 ? (double)info.relaxations / (double)m : 0;
    r->phases = info.iterations;
    snprintf(g_device, sizeof g_device, "%s", info.device_name);
    gsp_paths_destroy(p);
  }
  apply(d, 0);
  if (r->status != GSP_OK) {
    printf("  %s: %s\n", d->name, gsp_last_error());
    return;
  }
  r->engine_ms = bench_median(eng, reps);
  r->call_ms = bench_median(wall, reps);
  r->relax_per_arc = bench_median(rel, reps);
}

/* The table, appended to bench_results_path() (GSP_BENCH_RESULTS: make
 * bench's fragment for bench/RESULTS.md; unset: none). */
static void write_markdown(const char* const* graphs, const int* have, const int32_t* ns, const int64_t* ms,
                           const design* designs, int nd, work_row (*rows)[MAX_DESIGNS]) {
  char date[40], cpu[160];
  const char* path = bench_results_path();
  FILE* f;
  int gi, di, vi;
  if (path == NULL || (f = fopen(path, "a")) == NULL) return;
  bench_today(date, sizeof date);
  bench_cpu_name(cpu, sizeof cpu);
  fprintf(f,
          "\n## bench_sssp_work, %s\n\nDevice: %s. Host: %s. Delta-stepping on CUDA from vertex 0, paths on, "
          "int32 weights (generated graphs: 1..255); median of %d calls after a warm-up; every design's distances "
          "equal the first design's.\n\n| graph | n | m | design | knobs | engine ms | call ms | relax/arc | phases |\n"
          "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |\n",
          date, g_device, cpu, bench_reps());
  for (gi = 0; gi < 4; gi++) {
    if (!have[gi]) continue;
    for (di = 0; di < nd; di++) {
      const work_row* r = &rows[gi][di];
      char knobs[400] = "";
      size_t used = 0;
      for (vi = 0; vi < designs[di].nvars && used < sizeof knobs; vi++)
        used += (size_t)snprintf(knobs + used, sizeof knobs - used, "%s%s=%s", vi ? ", " : "", designs[di].var[vi],
                                 designs[di].val[vi]);
      if (r->status != GSP_OK) {
        fprintf(f, "| %s | %d | %lld | %s | %s | %s | | | |\n", graphs[gi], ns[gi], (long long)ms[gi], designs[di].name,
                knobs, gsp_status_name(r->status));
        continue;
      }
      fprintf(f, "| %s | %d | %lld | %s | %s | %.3f | %.3f | %.2f | %lld |\n", graphs[gi], ns[gi], (long long)ms[gi],
              designs[di].name, knobs, r->engine_ms, r->call_ms, r->relax_per_arc, (long long)r->phases);
    }
  }
  fclose(f);
}

int main(int argc, char** argv) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  const char* env_designs = getenv("GSP_BENCH_WORK_DESIGNS");
  const char* lg = getenv("GSP_BENCH_WORK_LOG2");
  const int log2 = lg && *lg ? atoi(lg) : (bench_quick() ? 16 : 22);
  static const char* const kGraphs[4] = {"ny", "uniform", "rmat", "grid"};
  design designs[MAX_DESIGNS];
  const int nd = parse_designs(env_designs && *env_designs ? env_designs : kDesigns, designs);
  work_row rows[4][MAX_DESIGNS];
  int have[4] = {0, 0, 0, 0};
  int32_t ns[4] = {0, 0, 0, 0};
  int64_t ms[4] = {0, 0, 0, 0};
  int gi, di, failed = 0;
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    printf("bench_sssp_work: no usable CUDA device, nothing to measure\n");
    return 0;
  }
  gsp_device_start(0);
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (gi = 0; gi < 4; gi++) {
    gsp_graph* g = NULL;
    int32_t n;
    int64_t m;
    int32_t *ref, *dist;
    if (filter != NULL && strstr(kGraphs[gi], filter) == NULL) continue;
    if (gi == 0) {
      g = bench_load_ny();
    } else {
      const int32_t nn = (int32_t)1 << log2;
      gsp_status st;
      if (gi == 1)
        st = gsp_gen_random(&g, nn, 8, 3200 + (uint64_t)log2, GSP_I32, 255);
      else if (gi == 2)
        st = gsp_gen_rmat(&g, nn, 16, 3200 + (uint64_t)log2, GSP_I32, 255);
      else {
        int32_t rows_, cols_;
        gsp_gen_grid_shape(nn, &rows_, &cols_);
        st = gsp_gen_grid(&g, rows_, cols_, 3200 + (uint64_t)log2, GSP_I32, 255);
      }
      if (st != GSP_OK) {
        printf("%s: %s\n", kGraphs[gi], gsp_last_error());
        continue;
      }
    }
    if (g == NULL) continue;
    n = gsp_graph_num_vertices(g);
    m = gsp_graph_num_edges(g);
    ns[gi] = n;
    ms[gi] = m;
    ref = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    dist = (int32_t*)malloc((size_t)n * sizeof(int32_t));
    printf("%s: n %d, m %lld\n", kGraphs[gi], n, (long long)m);
    for (di = 0; di < nd; di++) {
      work_row* r = &rows[gi][di];
      run_design(g, n, m, &designs[di], ref, di > 0, dist, r);
      if (r->status == GSP_OK) {
        printf("  %-22s engine %9.3f ms  call %9.3f ms  %6.2f relax/arc  %6lld phases%s\n", designs[di].name,
               r->engine_ms, r->call_ms, r->relax_per_arc, (long long)r->phases, r->ok ? "" : "  WRONG");
        printf("csv,%s,%d,%lld,%s,%.4f,%.4f,%.4f,%lld,%d\n", kGraphs[gi], n, (long long)m, designs[di].name,
               r->engine_ms, r->call_ms, r->relax_per_arc, (long long)r->phases, r->ok);
      }
      if (r->status != GSP_OK || !r->ok) failed = 1;
    }
    have[gi] = 1;
    free(ref);
    free(dist);
    gsp_graph_destroy(g);
  }
  write_markdown(kGraphs, have, ns, ms, designs, nd, rows);
  return failed;
}
