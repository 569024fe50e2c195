/* Benchmark of the sparse APSP engines (issue 6):
 *   g65536  Graph65536 (n = 65536, 6 random out-arcs per vertex), all pairs
 *           with paths on CUDA (task-parallel, heap), the CPU measured on a
 *           subset of sources with all cores and extrapolated by rows/s;
 *           heap layout interleaved vs contiguous on a subset.
 *   topo    Okuyama et al.'s four topologies at n = 4677 (random |E| = 16K,
 *           power-law (R-MAT) |E| = 16K, ring, complete): every APSP engine
 *           on CUDA and the CPU, all pairs with paths.
 *   layout  GSP_APSP_HEAP's heap layout, interleaved vs contiguous,
 *           alternated, on Graph65536 subsets (one batch each).
 *   ny      the NY road graph (DIMACS, $GSP_DATA_DIR or --data): rows/s
 *           streamed through gsp_apsp_stream for 10,000 sources.
 * Each measurement runs in a child process with a time limit (CUDA is
 * touched only in children), so one slow engine cannot stall the rest; a
 * run over its limit is reported as "timeout".
 *
 * usage: bench_apsp_sparse [--quick] [--parts g65536,topo,ny | PARTS] [--csv FILE]
 *                          [--data DIR] [--timeout S]
 * (GSP_BENCH_QUICK=1 is --quick; a bare argument, scripts/bench.sh's
 * filter, selects the parts.)
 * Prints one line per run and a CSV (--csv) for bench/RESULTS.md. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gsp/gsp.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------ graphs */
typedef struct {
  const char* name;
  int32_t n;
  int64_t m, cap;
  int32_t *src, *dst;
  float* w;
  const char* path; /* loaded from a file instead, when set */
} arcs;

static uint64_t rng_state = 12345;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int32_t below(int64_t k) { return (int32_t)(rnd() % (uint64_t)k); }

static void arc(arcs* a, int32_t u, int32_t v, float w) {
  if (a->m == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 1024;
    a->src = (int32_t*)realloc(a->src, (size_t)a->cap * 4);
    a->dst = (int32_t*)realloc(a->dst, (size_t)a->cap * 4);
    a->w = (float*)realloc(a->w, (size_t)a->cap * 4);
    if (!a->src || !a->dst || !a->w) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
  }
  a->src[a->m] = u;
  a->dst[a->m] = v;
  a->w[a->m] = w;
  a->m++;
}

static arcs make_random_degree(int32_t n, int deg) {
  arcs a;
  int32_t i;
  int j;
  memset(&a, 0, sizeof a);
  a.name = "graph-random-deg6";
  a.n = n;
  for (i = 0; i < n; i++)
    for (j = 0; j < deg; j++) arc(&a, i, below(n), (float)(1 + below(100)));
  return a;
}
static arcs make_random_m(int32_t n, int64_t m) {
  arcs a;
  int64_t k;
  memset(&a, 0, sizeof a);
  a.name = "random-16K";
  a.n = n;
  for (k = 0; k < m; k++) arc(&a, below(n), below(n), (float)(1 + below(100)));
  return a;
}
static arcs make_rmat(int32_t n, int64_t m) {
  arcs a;
  int64_t k;
  int32_t scale = 1;
  memset(&a, 0, sizeof a);
  a.name = "power-law-16K";
  a.n = n;
  while ((1 << scale) < n) scale++;
  for (k = 0; k < m; k++) {
    int32_t u = 0, v = 0, b;
    for (b = 0; b < scale; b++) {
      int32_t q = below(100);
      if (q < 57) {
      } else if (q < 76) {
        v |= 1 << b;
      } else if (q < 95) {
        u |= 1 << b;
      } else {
        u |= 1 << b;
        v |= 1 << b;
      }
    }
    arc(&a, u % n, v % n, (float)(1 + below(100)));
  }
  return a;
}
static arcs make_ring(int32_t n) {
  arcs a;
  int32_t i;
  memset(&a, 0, sizeof a);
  a.name = "ring";
  a.n = n;
  for (i = 0; i < n; i++) arc(&a, i, (i + 1) % n, (float)(1 + below(10)));
  return a;
}
static arcs make_complete(int32_t n) {
  arcs a;
  int32_t i, j;
  memset(&a, 0, sizeof a);
  a.name = "complete";
  a.n = n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if (i != j) arc(&a, i, j, (float)(1 + below(1000)));
  return a;
}

static gsp_graph* build(const arcs* a) {
  gsp_graph* g = NULL;
  gsp_status s;
  if (a->path != NULL) {
    s = gsp_graph_load(&g, a->path, GSP_FORMAT_AUTO, GSP_F32, 0);
  } else {
    s = gsp_graph_create(&g, a->n, a->m, a->src, a->dst, a->w, GSP_F32, 0);
  }
  if (s != GSP_OK) {
    fprintf(stderr, "graph %s: %s: %s\n", a->name, gsp_status_name(s), gsp_last_error());
    return NULL;
  }
  return g;
}

/* ------------------------------------------------------------ one run */
typedef struct {
  const char* part;
  gsp_backend backend;
  gsp_algorithm algo;
  int32_t num_sources; /* 0: all */
  int stream;          /* gsp_apsp_stream with a no-op callback instead of gsp_apsp_run */
  int paths;
  const char* heap_layout; /* GSP_APSP_HEAP_LAYOUT for the child, or NULL */
  const char* note;
} run_spec;

static int on_rows_noop(void* user, int32_t first, int32_t num_rows, const void* d, const int32_t* p) {
  volatile int64_t* rows = (volatile int64_t*)user;
  (void)first;
  (void)d;
  (void)p;
  *rows += num_rows;
  return 0;
}

/* Child: builds the graph, runs, writes one result line to fd. */
static void child_run(const arcs* a, const run_spec* r, int fd) {
  char line[1024];
  gsp_graph* g;
  gsp_options o;
  gsp_status st;
  double t0, wall, eng = -1;
  int32_t* srcs = NULL;
  int32_t ns = r->num_sources, i, n;
  char dev[128] = "";
  if (r->heap_layout) setenv("GSP_APSP_HEAP_LAYOUT", r->heap_layout, 1);
  g = build(a);
  if (g == NULL) {
    snprintf(line, sizeof line, "ERR graph\n");
    if (write(fd, line, strlen(line)) < 0) {
    }
    _exit(1);
  }
  n = gsp_graph_num_vertices(g);
  if (ns > 0 && ns < n) {
    srcs = (int32_t*)malloc((size_t)ns * 4);
    for (i = 0; i < ns; i++) srcs[i] = (int32_t)(((int64_t)i * n) / ns);
  } else {
    ns = n;
  }
  gsp_options_init(&o);
  o.backend = r->backend;
  o.algorithm = r->algo;
  if (!r->paths) o.flags = GSP_NO_PATHS;
  /* Warm-up: CUDA context and graph upload stay out of the numbers. */
  if (r->backend != GSP_BACKEND_CPU) {
    int32_t one = 0;
    gsp_paths* w = NULL;
    gsp_options ow = o;
    ow.algorithm = GSP_APSP_HEAP;
    if (gsp_apsp_run(g, &one, 1, &ow, &w) == GSP_OK) {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      if (gsp_paths_info(w, &info) == GSP_OK) snprintf(dev, sizeof dev, "%s", info.device_name);
    }
    gsp_paths_destroy(w);
  }
  if (r->stream) {
    volatile int64_t rows = 0;
    t0 = now_s();
    st = gsp_apsp_stream(g, srcs, srcs ? ns : 0, &o, on_rows_noop, (void*)&rows);
    wall = now_s() - t0;
  } else {
    gsp_paths* p = NULL;
    t0 = now_s();
    st = gsp_apsp_run(g, srcs, srcs ? ns : 0, &o, &p);
    wall = now_s() - t0;
    if (st == GSP_OK) {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      if (gsp_paths_info(p, &info) == GSP_OK) {
        eng = info.seconds;
        snprintf(dev, sizeof dev, "%s", info.device_name);
      }
    }
    gsp_paths_destroy(p);
  }
  snprintf(line, sizeof line, "%s %d %.6f %.6f %s|%s\n", st == GSP_OK ? "OK" : gsp_status_name(st), ns, wall, eng, dev,
           st == GSP_OK ? "" : gsp_last_error());
  if (write(fd, line, strlen(line)) < 0) {
  }
  free(srcs);
  gsp_graph_destroy(g);
  _exit(0);
}

static FILE* csv = NULL;
static double timeout_s = 120;

/* Runs r on a in a child with a time limit; prints and records the result.
 * Returns the wall seconds (or -1). */
static double measure(const arcs* a, const run_spec* r) {
  int fds[2];
  pid_t pid;
  char buf[1024];
  size_t got = 0;
  double t0 = now_s(), wall = -1, eng = -1;
  int status = 0, ns = 0, done = 0;
  char state[64] = "timeout", dev[200] = "", err[600] = "";
  fflush(stdout);
  if (pipe(fds) != 0) return -1;
  pid = fork();
  if (pid == 0) {
    close(fds[0]);
    child_run(a, r, fds[1]);
  }
  close(fds[1]);
  while (now_s() - t0 < timeout_s) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      done = 1;
      break;
    }
    {
      struct timespec ts = {0, 20000000};
      nanosleep(&ts, NULL);
    }
  }
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  {
    ssize_t k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0) got += (size_t)k;
  }
  close(fds[0]);
  buf[got] = 0;
  if (done) {
    char* bar = strchr(buf, '|');
    if (got == 0) snprintf(state, sizeof state, "crashed(%d)", status);
    if (bar) {
      *bar = 0;
      snprintf(err, sizeof err, "%.599s", bar + 1);
      err[strcspn(err, "\n")] = 0;
      if (sscanf(buf, "%63s %d %lf %lf", state, &ns, &wall, &eng) >= 1) {
        const char* d = buf;
        int f;
        for (f = 0; f < 4 && d; f++) {
          d = strchr(d, ' ');
          if (d) d++;
        }
        if (d) snprintf(dev, sizeof dev, "%.199s", d);
      }
    }
  }
  {
    double rows_per_s = (strcmp(state, "OK") == 0 && wall > 0 && ns > 0) ? ns / wall : 0;
    printf("%-7s %-18s n=%-7d %-5s %-15s src=%-6d %-6s %-9s wall=%9.3fs eng=%9.3fs rows/s=%10.1f %s %s %s\n", r->part,
           a->name, a->n, gsp_backend_name(r->backend), gsp_algorithm_name(r->algo), ns, r->stream ? "stream" : "run",
           r->paths ? "paths" : "dist", wall, eng, rows_per_s, state, r->note ? r->note : "", err);
    if (csv) {
      fprintf(csv, "%s,%s,%d,%lld,%s,%s,%d,%s,%d,%.6f,%.6f,%.1f,%s,\"%s\",\"%s\"\n", r->part, a->name, a->n,
              (long long)a->m, gsp_backend_name(r->backend), gsp_algorithm_name(r->algo), ns,
              r->stream ? "stream" : "run", r->paths, wall, eng, rows_per_s, state, dev, r->note ? r->note : "");
      fflush(csv);
    }
  }
  fflush(stdout);
  return strcmp(state, "OK") == 0 ? wall : -1;
}

int main(int argc, char** argv) {
  int quick = 0, i;
  const char* parts = "g65536,topo,ny";
  const char* data = getenv("GSP_DATA_DIR");
  const char* q = getenv("GSP_BENCH_QUICK");
  if (q != NULL && atoi(q) != 0) quick = 1;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--parts") && i + 1 < argc)
      parts = argv[++i];
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--data") && i + 1 < argc)
      data = argv[++i];
    else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
      timeout_s = atof(argv[++i]);
    else if (argv[i][0] != '-')
      parts = argv[i]; /* scripts/bench.sh's filter */
    else {
      fprintf(stderr, "usage: %s [--quick] [--parts g65536,topo,ny] [--csv FILE] [--data DIR] [--timeout S]\n",
              argv[0]);
      return 2;
    }
  }
  if (csv) {
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    fprintf(csv, "# bench_apsp_sparse %s%s\n", date, quick ? " (quick)" : "");
    fprintf(csv, "part,graph,n,m,backend,algorithm,sources,mode,paths,wall_s,engine_s,rows_per_s,status,device,note\n");
  }

  if (strstr(parts, "g65536")) {
    int32_t n = quick ? 8192 : 65536;
    arcs a = make_random_degree(n, 6);
    int32_t sub = quick ? 1024 : 8192;
    double cpu, best = -1, w;
    a.name = quick ? "graph8192" : "graph65536";
    /* Layout comparison on a subset (one batch). */
    measure(&a, &(run_spec){"g65536", GSP_BACKEND_CUDA, GSP_APSP_HEAP, sub, 1, 1, "interleaved",
                            "heap layout interleaved"});
    measure(&a,
            &(run_spec){"g65536", GSP_BACKEND_CUDA, GSP_APSP_HEAP, sub, 1, 1, "contiguous", "heap layout contiguous"});
    /* All pairs with paths. */
    w = measure(&a, &(run_spec){"g65536", GSP_BACKEND_CUDA, GSP_APSP_TASK_PARALLEL, 0, 0, 1, NULL, "all pairs"});
    if (w > 0) best = w;
    w = measure(&a, &(run_spec){"g65536", GSP_BACKEND_CUDA, GSP_APSP_TASK_PARALLEL, 0, 1, 1, NULL,
                                "all pairs, streamed (no host matrix)"});
    w = measure(&a, &(run_spec){"g65536", GSP_BACKEND_CUDA, GSP_APSP_HEAP, 0, 0, 1, NULL, "all pairs"});
    if (w > 0 && (best < 0 || w < best)) best = w;
    /* CPU on all cores, subset, extrapolated. */
    cpu = measure(&a, &(run_spec){"g65536", GSP_BACKEND_CPU, GSP_APSP_HEAP, quick ? 512 : 2048, 1, 1, NULL,
                                  "CPU subset, all cores"});
    if (cpu > 0) {
      double full = cpu * (double)n / (quick ? 512 : 2048);
      printf("g65536: CPU all pairs extrapolated %.1f s; best GPU %.3f s; speedup %.1fx\n", full, best,
             best > 0 ? full / best : 0.0);
      if (csv)
        fprintf(csv, "g65536,%s,%d,%lld,cpu,heap,%d,extrapolated,1,%.6f,-1,0,OK,,\"speedup of best GPU %.1fx\"\n",
                a.name, n, (long long)a.m, n, full, best > 0 ? full / best : 0.0);
    }
  }

  if (strstr(parts, "layout")) {
    /* Heap layout, interleaved vs contiguous, alternated, one batch each. */
    int32_t n = quick ? 8192 : 65536, sizes[2], k, rep;
    arcs a = make_random_degree(n, 6);
    a.name = quick ? "graph8192" : "graph65536";
    sizes[0] = quick ? 1024 : 8192;
    sizes[1] = quick ? 4096 : 32768;
    for (k = 0; k < 2; k++)
      for (rep = 0; rep < 2; rep++) {
        measure(&a, &(run_spec){"layout", GSP_BACKEND_CUDA, GSP_APSP_HEAP, sizes[k], 1, 1, "interleaved",
                                "heap layout interleaved"});
        measure(&a, &(run_spec){"layout", GSP_BACKEND_CUDA, GSP_APSP_HEAP, sizes[k], 1, 1, "contiguous",
                                "heap layout contiguous"});
      }
    /* Repeats of the best engine, all pairs with paths, streamed. */
    for (rep = 0; rep < 2; rep++)
      measure(&a, &(run_spec){"layout", GSP_BACKEND_CUDA, GSP_APSP_TASK_PARALLEL, 0, 1, 1, NULL,
                              "all pairs, streamed (repeat)"});
  }

  if (strstr(parts, "topo")) {
    int32_t n = quick ? 1024 : 4677;
    arcs g[4];
    int k, e;
    static const struct {
      gsp_backend b;
      gsp_algorithm a;
    } eng[] = {{GSP_BACKEND_CUDA, GSP_APSP_FLOYD_WARSHALL},
               {GSP_BACKEND_CUDA, GSP_APSP_MINPLUS},
               {GSP_BACKEND_CUDA, GSP_APSP_HEAP},
               {GSP_BACKEND_CUDA, GSP_APSP_TASK_PARALLEL},
               {GSP_BACKEND_CUDA, GSP_ALGO_AUTO},
               {GSP_BACKEND_CPU, GSP_APSP_HEAP},
               {GSP_BACKEND_CPU, GSP_APSP_FLOYD_WARSHALL},
               {GSP_BACKEND_CPU, GSP_ALGO_AUTO},
               {GSP_BACKEND_AUTO, GSP_ALGO_AUTO}};
    g[0] = make_random_m(n, 16000);
    g[1] = make_rmat(n, 16000);
    g[2] = make_ring(n);
    g[3] = make_complete(n);
    for (k = 0; k < 4; k++) {
      for (e = 0; e < (int)(sizeof eng / sizeof eng[0]); e++) {
        measure(&g[k], &(run_spec){"topo", eng[e].b, eng[e].a, 0, 0, 1, NULL, "all pairs"});
      }
    }
  }

  if (strstr(parts, "ny")) {
    static char path[4096];
    arcs a;
    memset(&a, 0, sizeof a);
    snprintf(path, sizeof path, "%s/USA-road-d.NY.gr.gz", data ? data : "../shared/data");
    if (access(path, R_OK) != 0) {
      printf("ny: %s not found; skipped\n", path);
    } else {
      int32_t ns = quick ? 1000 : 10000;
      a.name = "NY-road";
      a.n = 264346;
      a.m = 733846;
      a.path = path;
      if (strstr(parts, "nylayout")) {
        measure(&a, &(run_spec){"ny", GSP_BACKEND_CUDA, GSP_APSP_HEAP, ns, 1, 1, "interleaved",
                                "streamed, heap layout interleaved"});
        measure(&a, &(run_spec){"ny", GSP_BACKEND_CUDA, GSP_APSP_HEAP, ns, 1, 1, "contiguous",
                                "streamed, heap layout contiguous"});
      } else {
        measure(&a, &(run_spec){"ny", GSP_BACKEND_CUDA, GSP_APSP_TASK_PARALLEL, ns, 1, 1, NULL, "streamed"});
        measure(&a, &(run_spec){"ny", GSP_BACKEND_CUDA, GSP_APSP_HEAP, ns, 1, 1, NULL, "streamed"});
        measure(&a, &(run_spec){"ny", GSP_BACKEND_AUTO, GSP_ALGO_AUTO, ns, 1, 1, NULL, "streamed"});
        measure(&a, &(run_spec){"ny", GSP_BACKEND_CPU, GSP_APSP_HEAP, quick ? 200 : 1000, 1, 1, NULL,
                                "streamed, all cores"});
      }
    }
  }
  if (csv) fclose(csv);
  return 0;
}
