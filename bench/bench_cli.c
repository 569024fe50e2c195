/* The `gsp` command as a whole process (issues 20 and 35): wall time from
 * exec to exit, and the peak resident memory, of the commands a user runs
 * once per process on the DIMACS challenge's NY road graph ($GSP_DATA_DIR;
 * skipped visibly without it):
 *   gsp sssp NY --source 0 --to 200000                      (5 runs)
 *   gsp table NY --sources @IDS --targets @IDS --csv -q     (3 runs)
 *   gsp table NY --sources @IDS --targets @IDS --paths --csv -q  (1 run)
 *   gsp apsp NY --sources 0-1023 -q                         (3 runs)
 * IDS: 1000 pseudo-random vertex ids (fixed seed), written to a temporary
 * file. Each command for the default backend (auto), cpu and, where CUDA is
 * usable, cuda, the backends alternating run by run; output to /dev/null, so
 * what is timed is loading the file, starting (or not) the device, the run
 * and formatting the output. Peak resident memory: the child's ru_maxrss.
 * The gsp binary is found beside this program's folder (BUILD/gsp).
 * GSP_BENCH_CLI_ONLY=sssp (or table, table-paths, apsp) runs one command. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_common.h"

extern char** environ;

/* One run of argv (its output to /dev/null): wall seconds, or -1 on
 * failure; *rss_mb its peak resident memory. */
static double run_once(char* const argv[], double* rss_mb) {
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int st = 0;
  struct rusage ru;
  double t0 = bench_now(), t;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  memset(&ru, 0, sizeof ru);
  if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
  t = bench_now() - t0;
  *rss_mb = (double)ru.ru_maxrss / 1024.0;
  return t;
}

#define MAX_RUNS 5
#define MAX_ARGS 16

struct command {
  const char* name;  /* GSP_BENCH_CLI_ONLY's word */
  const char* shown; /* the command line as the table shows it */
  int runs;
  const char* args[MAX_ARGS]; /* after "gsp"; "FILE" and "IDS" are replaced */
};

static const struct command kCommands[] = {
    {"sssp", "gsp sssp NY --source 0 --to 200000", 5, {"sssp", "FILE", "--source", "0", "--to", "200000", NULL}},
    {"table",
     "gsp table NY --sources @IDS --targets @IDS --csv -q",
     3,
     {"table", "FILE", "--sources", "IDS", "--targets", "IDS", "--csv", "-q", NULL}},
    {"table-paths",
     "gsp table NY --sources @IDS --targets @IDS --paths --csv -q",
     1,
     {"table", "FILE", "--sources", "IDS", "--targets", "IDS", "--paths", "--csv", "-q", NULL}},
    {"apsp", "gsp apsp NY --sources 0-1023 -q", 3, {"apsp", "FILE", "--sources", "0-1023", "-q", NULL}},
};
#define NUM_COMMANDS (int)(sizeof kCommands / sizeof kCommands[0])

struct row {
  double t[MAX_RUNS], rss, median, best;
  int ok;
};

/* 1000 pseudo-random ids of [0, n) into a new temporary file; its name in path. */
static int write_ids(char* path, size_t size, int32_t n) {
  uint64_t s = 12345;
  int i, fd;
  FILE* f;
  snprintf(path, size, "/tmp/gsp_bench_cli_XXXXXX");
  fd = mkstemp(path);
  if (fd < 0) return -1;
  f = fdopen(fd, "w");
  if (f == NULL) return -1;
  for (i = 0; i < 1000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    fprintf(f, "%s%d", i ? "\n" : "", (int)((s >> 33) % (uint64_t)n));
  }
  fprintf(f, "\n");
  return fclose(f);
}

int main(int argc, char** argv) {
  const char* backends[3] = {"auto", "cpu", "cuda"};
  char gsp[1024], file[1024], ids[64], ids_arg[80], date[40];
  const char* dir = getenv("GSP_DATA_DIR");
  const char* only = getenv("GSP_BENCH_CLI_ONLY");
  const char* rpath;
  struct row rows[NUM_COMMANDS][3];
  int b, c, r, nb = gsp_backend_available(GSP_BACKEND_CUDA) ? 3 : 2;
  char* slash;
  (void)argc;
  memset(rows, 0, sizeof rows);
  snprintf(gsp, sizeof gsp, "%s", argv[0]);
  slash = strrchr(gsp, '/');
  if (slash == NULL)
    snprintf(gsp, sizeof gsp, "../gsp");
  else
    snprintf(slash, sizeof gsp - (size_t)(slash - gsp), "/../gsp");
  snprintf(file, sizeof file, "%s/USA-road-d.NY.gr.gz", dir ? dir : "../shared/data");
  if (access(file, R_OK) != 0) {
    printf("bench_cli: SKIP: %s not found (the DIMACS challenge's NY road graph; set GSP_DATA_DIR)\n", file);
    return 0;
  }
  if (access(gsp, X_OK) != 0) {
    printf("bench_cli: SKIP: no gsp binary at %s\n", gsp);
    return 0;
  }
  if (write_ids(ids, sizeof ids, 264346) != 0) {
    printf("bench_cli: cannot write the id file\n");
    return 1;
  }
  snprintf(ids_arg, sizeof ids_arg, "@%s", ids); /* gsp reads the list from the file */
  for (c = 0; c < NUM_COMMANDS; c++) {
    const struct command* k = &kCommands[c];
    if (only != NULL && strcmp(only, k->name) != 0) continue;
    for (b = 0; b < nb; b++) rows[c][b].ok = 1;
    for (r = 0; r < k->runs; r++) {
      for (b = 0; b < nb; b++) {
        char* args[MAX_ARGS + 4];
        int a = 0, i;
        double rss = 0;
        args[a++] = gsp;
        for (i = 0; k->args[i] != NULL; i++) {
          if (strcmp(k->args[i], "FILE") == 0)
            args[a++] = file;
          else if (strcmp(k->args[i], "IDS") == 0)
            args[a++] = ids_arg;
          else
            args[a++] = (char*)k->args[i];
        }
        args[a++] = "--backend";
        args[a++] = (char*)backends[b];
        args[a] = NULL;
        rows[c][b].t[r] = run_once(args, &rss);
        if (rows[c][b].t[r] < 0) rows[c][b].ok = 0;
        if (rss > rows[c][b].rss) rows[c][b].rss = rss;
      }
    }
    for (b = 0; b < nb; b++) {
      struct row* w = &rows[c][b];
      w->median = bench_median(w->t, k->runs); /* sorts: t[0] is then the fastest */
      w->best = w->t[0];
      printf("%-62s --backend %-4s: median %.3f s, min %.3f s, peak %.0f MB (%d run%s)%s\n", k->shown, backends[b],
             w->median, w->best, w->rss, k->runs, k->runs == 1 ? "" : "s", w->ok ? "" : " (a run failed)");
      fflush(stdout);
    }
  }
  unlink(ids);
  rpath = bench_results_path();
  if (rpath != NULL) {
    FILE* f = fopen(rpath, "a");
    if (f != NULL) {
      bench_today(date, sizeof date);
      fprintf(f, "\n## The gsp command, whole process (bench_cli), %s\n\n", date);
      fprintf(f,
              "Wall time from exec to exit (load, device start, run, output to /dev/null) and peak resident "
              "memory; IDS: 1000 pseudo-random NY vertex ids (fixed seed); backends alternating run by run.\n\n");
      fprintf(f, "| command | backend | runs | median s | min s | vs cpu | peak MB |\n|---|---|---|---|---|---|---|\n");
      for (c = 0; c < NUM_COMMANDS; c++) {
        const struct command* k = &kCommands[c];
        if (only != NULL && strcmp(only, k->name) != 0) continue;
        for (b = 0; b < nb; b++) {
          const struct row* w = &rows[c][b];
          if (!w->ok) {
            fprintf(f, "| `%s` | %s | %d | failed | - | - | - |\n", k->shown, backends[b], k->runs);
            continue;
          }
          fprintf(f, "| `%s` | %s%s | %d | %.3f | %.3f | %.2fx | %.0f |\n", k->shown, backends[b],
                  b == 0 ? " (default)" : "", k->runs, w->median, w->best, w->median / rows[c][1].median, w->rss);
        }
      }
      fclose(f);
    }
  }
  return 0;
}
