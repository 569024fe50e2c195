/* The `gsp` command as a whole process (issue 20): wall time of
 *   gsp sssp USA-road-d.NY.gr.gz --source 0 --to 200000 [--backend B]
 * from exec to exit, for the default backend (auto), cpu and cuda, each
 * run 5 times alternating (median and min), so that a user's one-shot run
 * is measured as the user sees it: loading the file, starting (or not)
 * the device, the run, the output. The road graph comes from
 * $GSP_DATA_DIR (DIMACS challenge's NY file); skipped visibly without it.
 * The gsp binary is found beside this program's folder (BUILD/gsp). */
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include "bench_common.h"

extern char** environ;

/* Wall seconds of one run of argv (its output to /dev/null); -1 on failure. */
static double run_once(char* const argv[]) {
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int st = 0;
  double t0 = bench_now();
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
  return bench_now() - t0;
}

int main(int argc, char** argv) {
  const char* backends[3] = {"auto", "cpu", "cuda"};
  char gsp[1024], file[1024], rpath_buf[512], date[40];
  const char* dir = getenv("GSP_DATA_DIR");
  const char* rpath;
  double t[3][5], med[3], best[3];
  int ok[3] = {1, 1, 1};
  int b, r, nb = gsp_backend_available(GSP_BACKEND_CUDA) ? 3 : 2;
  char* slash;
  (void)argc;
  snprintf(gsp, sizeof gsp, "%s", argv[0]);
  slash = strrchr(gsp, '/');
  if (slash == NULL) snprintf(gsp, sizeof gsp, "../gsp");
  else snprintf(slash, sizeof gsp - (size_t)(slash - gsp), "/../gsp");
  snprintf(file, sizeof file, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
  if (access(file, R_OK) != 0) {
    printf("bench_cli: SKIP: %s not found (the DIMACS challenge's NY road graph; set GSP_DATA_DIR)\n", file);
    return 0;
  }
  if (access(gsp, X_OK) != 0) {
    printf("bench_cli: SKIP: no gsp binary at %s\n", gsp);
    return 0;
  }
  for (r = 0; r < 5; r++) {
    for (b = 0; b < nb; b++) {
      char* args[] = {gsp, "sssp", file, "--source", "0", "--to", "200000", "--backend", (char*)backends[b], NULL};
      t[b][r] = run_once(args);
      if (t[b][r] < 0) ok[b] = 0;
    }
  }
  for (b = 0; b < nb; b++) {
    best[b] = t[b][0];
    for (r = 1; r < 5; r++) if (t[b][r] < best[b]) best[b] = t[b][r];
    med[b] = bench_median(t[b], 5);
    printf("gsp sssp NY --backend %-4s: median %.3f s, min %.3f s%s\n", backends[b], med[b], best[b],
           ok[b] ? "" : " (a run failed)");
  }
  rpath = bench_results_path(rpath_buf, sizeof rpath_buf);
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    if (f != NULL) {
      bench_today(date, sizeof date);
      fprintf(f, "\n## The gsp command, whole process (bench_cli), %s\n\n", date);
      fprintf(f, "`gsp sssp USA-road-d.NY.gr.gz --source 0 --to 200000 --backend B`, wall time from exec to exit "
                 "(load, run, output), 5 runs each, alternating.\n\n");
      fprintf(f, "| backend | median s | min s | vs cpu |\n|---|---|---|---|\n");
      for (b = 0; b < nb; b++) {
        if (!ok[b]) { fprintf(f, "| %s | failed | - | - |\n", backends[b]); continue; }
        fprintf(f, "| %s%s | %.3f | %.3f | %.2fx |\n", backends[b], b == 0 ? " (default)" : "", med[b], best[b],
                med[b] / med[1]);
      }
      fclose(f);
    }
  }
  return 0;
}
