/* The first call of a process beside the steady call (issue 35): each job
 * runs in a fresh process of this program (argv[1] = "--child"), which
 * builds its graph, makes the call once (the first call: device start,
 * result memory, modules, graph upload) and then GSP_BENCH_REPS more times
 * (default 3, the median is the steady call), and reports the first call's
 * stages from gsp_run_info. Jobs:
 *   sssp     NY road graph, source 0, paths on (gsp_sssp_run)
 *   sources  NY, 1024 sources spread over the vertex ids, paths on (gsp_apsp_run)
 *   table    NY, 1000 x 1000 pseudo-random ids, distances (gsp_table_run)
 *   fw       random graph n = 16384, 16 out-arcs, weights 1..100, int32, every
 *            source, paths on (gsp_apsp_run, GSP_APSP_FLOYD_WARSHALL)
 * each for the default backend (AUTO), AUTO with gsp_device_start() called
 * before the graph is built ("auto+start"), CUDA (where usable) and the
 * CPU (not fw: minutes). Columns: whole process (exec to exit, as the parent
 * sees it), graph (load or generation), first call, steady call (median),
 * first / steady, then the first call's stages: setup, upload, compute,
 * copy, paths, and "outside" (the call's wall time less the engine's
 * seconds and upload: device start, dispatch, result allocation outside
 * the engine's clock). GSP_BENCH_FIRST_ONLY=JOB runs one job;
 * GSP_BENCH_FIRST_CALLS=1 prints every call's time. The NY graph
 * comes from $GSP_DATA_DIR (the DIMACS challenge's USA-road-d.NY.gr.gz);
 * without it the NY jobs are skipped visibly. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_common.h"
#include "gsp/gsp_table.h"

extern char** environ;

enum { kSssp, kSources, kTable, kFw, kJobs };
static const char* const kJobNames[kJobs] = {"sssp", "sources", "table", "fw"};
static const char* const kJobShown[kJobs] = {"NY SSSP, paths", "NY 1024 sources, paths", "NY table 1000 x 1000",
                                             "FW n = 16384 i32, paths"};
#define NUM_BACKENDS 4

struct measured {
  double graph, first, steady, setup, upload, compute, copy, paths, outside;
  char algorithm[40], backend[16];
};

/* ------------------------------------------------------------------ child */

static gsp_graph* child_graph(int job) {
  if (job == kFw) return bench_random_graph(16384, 16, 100, 7, GSP_I32);
  return bench_load_ny();
}

static int32_t* table_ids(int32_t n) {
  int32_t* ids = (int32_t*)malloc(1000 * sizeof(int32_t));
  bench_rng r = {12345};
  int i;
  if (ids == NULL) return NULL;
  for (i = 0; i < 1000; i++) ids[i] = bench_below(&r, n);
  return ids;
}

/* One call of the job: wall seconds, or -1; info filled. */
static double child_call(int job, const gsp_graph* g, const gsp_options* o, const int32_t* ids, gsp_run_info* info) {
  gsp_paths* p = NULL;
  gsp_table* t = NULL;
  gsp_status s;
  double t0 = bench_now(), wall;
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  if (job == kSssp)
    s = gsp_sssp_run(g, 0, o, &p);
  else if (job == kSources)
    s = gsp_apsp_run(g, ids, 1024, o, &p);
  else if (job == kTable)
    s = gsp_table_run(g, ids, 1000, ids, 1000, o, &t);
  else
    s = gsp_apsp_run(g, NULL, 0, o, &p);
  wall = bench_now() - t0;
  if (s != GSP_OK) {
    fprintf(stderr, "%s: %s: %s\n", kJobNames[job], gsp_status_name(s), gsp_last_error());
    return -1;
  }
  if (p != NULL) gsp_paths_info(p, info);
  if (t != NULL) gsp_table_info(t, info);
  gsp_paths_destroy(p);
  gsp_table_destroy(t);
  return wall;
}

static int child(int job, const char* backend) {
  gsp_options o;
  gsp_run_info info;
  struct measured m;
  double t0 = bench_now(), steady[16];
  int reps = getenv("GSP_BENCH_REPS") != NULL ? bench_reps() : 3, i;
  int32_t* ids = NULL;
  gsp_graph* g;
  if (reps > 16) reps = 16;
  memset(&m, 0, sizeof m);
  if (strcmp(backend, "auto+start") == 0) gsp_device_start(0);
  g = child_graph(job);
  if (g == NULL) return 3;
  m.graph = bench_now() - t0;
  gsp_options_init(&o);
  o.backend = strcmp(backend, "cuda") == 0  ? GSP_BACKEND_CUDA
              : strcmp(backend, "cpu") == 0 ? GSP_BACKEND_CPU
                                            : GSP_BACKEND_AUTO;
  if (job == kSources) ids = bench_spread(gsp_graph_num_vertices(g), 1024, 0);
  if (job == kTable) {
    ids = table_ids(gsp_graph_num_vertices(g));
    o.flags = GSP_NO_PATHS;
  }
  if (job == kFw) o.algorithm = GSP_APSP_FLOYD_WARSHALL;
  m.first = child_call(job, g, &o, ids, &info);
  if (m.first < 0) return 1;
  m.setup = info.setup_seconds;
  m.upload = info.upload_seconds;
  m.compute = info.compute_seconds;
  m.copy = info.copy_seconds;
  m.paths = info.paths_seconds;
  m.outside = m.first - info.seconds - info.upload_seconds;
  snprintf(m.algorithm, sizeof m.algorithm, "%s", gsp_algorithm_name(info.algorithm));
  snprintf(m.backend, sizeof m.backend, "%s", gsp_backend_name(info.backend));
  for (i = 0; i < reps; i++) {
    steady[i] = child_call(job, g, &o, ids, &info);
    if (steady[i] < 0) return 1;
  }
  m.steady = bench_median(steady, reps);
  if (getenv("GSP_BENCH_FIRST_CALLS") != NULL) { /* every call, for a closer look */
    fprintf(stderr, "%s %s calls: first %.4f s, then", kJobNames[job], backend, m.first);
    for (i = 0; i < reps; i++) fprintf(stderr, " %.4f", steady[i]);
    fprintf(stderr, "\n");
  }
  printf("RESULT %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f %s %s\n", m.graph, m.first, m.steady, m.setup, m.upload,
         m.compute, m.copy, m.paths, m.outside, m.algorithm, m.backend);
  free(ids);
  gsp_graph_destroy(g);
  return 0;
}

/* ----------------------------------------------------------------- parent */

/* Runs this program as a child for (job, backend): fills m, returns the
 * whole process's wall seconds, or -1 (-2: skipped for want of the graph). */
static double run_child(const char* self, int job, const char* backend, struct measured* m) {
  char* args[5];
  char line[512];
  int fds[2], st = 0, got = 0;
  pid_t pid;
  posix_spawn_file_actions_t fa;
  FILE* f;
  double t0, wall;
  args[0] = (char*)self;
  args[1] = "--child";
  args[2] = (char*)kJobNames[job];
  args[3] = (char*)backend;
  args[4] = NULL;
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  t0 = bench_now();
  if (posix_spawn(&pid, self, &fa, NULL, args, environ) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  f = fdopen(fds[0], "r");
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "RESULT ", 7) == 0 &&
        sscanf(line + 7, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %39s %15s", &m->graph, &m->first, &m->steady, &m->setup,
               &m->upload, &m->compute, &m->copy, &m->paths, &m->outside, m->algorithm, m->backend) == 11) {
      got = 1;
    } else {
      fputs(line, stdout); /* the child's own lines (e.g. a skip) */
    }
  }
  if (f != NULL) fclose(f);
  if (waitpid(pid, &st, 0) != pid) return -1;
  wall = bench_now() - t0;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 3) return -2;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !got) return -1;
  return wall;
}

int main(int argc, char** argv) {
  const char* backends[NUM_BACKENDS] = {"auto", "auto+start", "cuda", "cpu"};
  const char* only = getenv("GSP_BENCH_FIRST_ONLY");
  struct measured m[kJobs][NUM_BACKENDS];
  double whole[kJobs][NUM_BACKENDS];
  int j, b, cuda = gsp_backend_available(GSP_BACKEND_CUDA), nb = NUM_BACKENDS;
  char date[40];
  const char* rpath;
  if (argc == 4 && strcmp(argv[1], "--child") == 0) {
    for (j = 0; j < kJobs; j++) {
      if (strcmp(argv[2], kJobNames[j]) == 0) return child(j, argv[3]);
    }
    return 2;
  }
  memset(m, 0, sizeof m);
  for (j = 0; j < kJobs; j++) {
    for (b = 0; b < NUM_BACKENDS; b++) whole[j][b] = -3; /* not run */
    if (only != NULL && strcmp(only, kJobNames[j]) != 0) continue;
    for (b = 0; b < nb; b++) {
      if (!cuda && (strcmp(backends[b], "cuda") == 0 || strcmp(backends[b], "auto+start") == 0)) continue;
      if (j == kFw && strcmp(backends[b], "cpu") == 0) continue; /* minutes on the CPU */
      if (j == kFw && !cuda) continue;                           /* no device: the FW job is the CPU's minutes too */
      whole[j][b] = run_child(argv[0], j, backends[b], &m[j][b]);
      if (whole[j][b] == -2) break;
      if (whole[j][b] < 0) {
        printf("%-24s %-10s: failed\n", kJobShown[j], backends[b]);
        continue;
      }
      printf(
          "%-24s %-10s: process %.3f s, graph %.3f s, first call %.4f s, steady %.4f s (%.2fx), "
          "first: setup %.4f upload %.4f compute %.4f copy %.4f paths %.4f outside %.4f (%s, %s)\n",
          kJobShown[j], backends[b], whole[j][b], m[j][b].graph, m[j][b].first, m[j][b].steady,
          m[j][b].first / m[j][b].steady, m[j][b].setup, m[j][b].upload, m[j][b].compute, m[j][b].copy, m[j][b].paths,
          m[j][b].outside, m[j][b].backend, m[j][b].algorithm);
      fflush(stdout);
    }
  }
  rpath = bench_results_path();
  if (rpath == NULL) return 0;
  {
    FILE* f = fopen(rpath, "a");
    if (f == NULL) return 0;
    bench_today(date, sizeof date);
    fprintf(f, "\n## First call of a process beside the steady call (bench_first_call), %s\n\n", date);
    fprintf(f,
            "Each row is a fresh process: graph built, the call made once (first) and %d more times "
            "(steady: median). Stages of the first call from gsp_run_info; outside: the call less the "
            "engine's seconds and the upload (device start, dispatch, result memory outside the engine). "
            "auto+start: gsp_device_start() before the graph is built. Bar (issue 35): first / steady at "
            "most 1.5.\n\n",
            getenv("GSP_BENCH_REPS") != NULL ? bench_reps() : 3);
    fprintf(f,
            "| job | backend | ran | process s | graph s | first s | steady s | first / steady | setup | upload "
            "| compute | copy | paths | outside |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (j = 0; j < kJobs; j++) {
      for (b = 0; b < nb; b++) {
        const struct measured* x = &m[j][b];
        if (whole[j][b] == -3 || whole[j][b] == -2) continue;
        if (whole[j][b] < 0) {
          fprintf(f, "| %s | %s | failed | | | | | | | | | | | |\n", kJobShown[j], backends[b]);
          continue;
        }
        fprintf(f, "| %s | %s | %s %s | %.3f | %.3f | %.4f | %.4f | %.2f | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |\n",
                kJobShown[j], backends[b], x->backend, x->algorithm, whole[j][b], x->graph, x->first, x->steady,
                x->first / x->steady, x->setup, x->upload, x->compute, x->copy, x->paths, x->outside);
      }
    }
    fclose(f);
  }
  return 0;
}
