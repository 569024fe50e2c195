/* Small calls make no system calls of their own: every API call resolved
 * options->num_threads = 0 through std::thread::hardware_concurrency(),
 * which glibc answers by opening and reading /sys/devices/system/cpu/online
 * (three system calls, several microseconds: a third of a road-index point
 * to point query on a virtual machine). Counted with the process's read
 * calls (syscr of /proc/self/io, Linux): repeated calls of each entry point
 * must not add one read per call. Skips where /proc/self/io is missing. */
#include <stdlib.h>
#include <string.h>

#include "testing.h"

static long long read_calls(void) {
  FILE* f = fopen("/proc/self/io", "r");
  char line[128];
  long long v = -1;
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "syscr:", 6) == 0) v = atoll(line + 6);
  }
  fclose(f);
  return v;
}

enum { kCalls = 200 };
static long long g_probe_reads; /* the read calls of one read_calls() */

/* Runs `what` kCalls times (after one warm-up call) and checks the read
 * calls it added: fewer than one call in ten. */
#define CHECK_NO_READS(name, what)                                                                            \
  do {                                                                                                        \
    int i_;                                                                                                   \
    long long before_, after_;                                                                                \
    what;                                                                                                     \
    before_ = read_calls();                                                                                   \
    for (i_ = 0; i_ < kCalls; i_++) {                                                                         \
      what;                                                                                                   \
    }                                                                                                         \
    after_ = read_calls() - g_probe_reads;                                                                    \
    printf("%-44s %lld read calls in %d calls\n", name, after_ - before_, kCalls);                            \
    CHECK(after_ - before_ < kCalls / 10, "%s: %lld read calls in %d calls", name, after_ - before_, kCalls); \
  } while (0)

int main(void) {
  t_arcs a;
  gsp_graph* g;
  gsp_index* ix = NULL;
  gsp_options cpu, autox, indexed;
  int32_t s = 0, t, d[1];
  if (read_calls() < 0) {
    printf("test_call_syscalls: SKIP (no /proc/self/io)\n");
    return T_SKIP;
  }
  g_probe_reads = -read_calls();
  g_probe_reads += read_calls();
  t_make_shape(&a, T_GRID, 400, 1);
  g = t_graph(&a, GSP_I32, 1.0f);
  CHECK(g != NULL, "graph");
  if (g == NULL) return t_finish("test_call_syscalls");
  t = gsp_graph_num_vertices(g) - 1;
  gsp_options_init(&cpu);
  cpu.backend = GSP_BACKEND_CPU;
  cpu.flags = GSP_NO_PATHS;
  gsp_options_init(&autox);
  autox.flags = GSP_NO_PATHS;
  CHECK_OK(gsp_index_build(g, &cpu, &ix, NULL));
  indexed = cpu;
  indexed.index = ix;

  CHECK_NO_READS("gsp_graph_create", {
    gsp_graph* h = t_graph(&a, GSP_I32, 1.0f);
    gsp_graph_destroy(h);
  });
  CHECK_NO_READS("gsp_sssp_run (CPU)", {
    gsp_paths* p = NULL;
    CHECK_OK(gsp_sssp_run(g, s, &cpu, &p));
    gsp_paths_destroy(p);
  });
  CHECK_NO_READS("gsp_table_run_into 1 x 1 (CPU)", CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &cpu, d, NULL)));
  CHECK_NO_READS("gsp_table_run_into 1 x 1 (road index)",
                 CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &indexed, d, NULL)));
  CHECK_NO_READS("gsp_table_run_into 1 x 1 (AUTO)", CHECK_OK(gsp_table_run_into(g, &s, 1, &t, 1, &autox, d, NULL)));

  gsp_index_destroy(ix);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
  return t_finish("test_call_syscalls");
}
