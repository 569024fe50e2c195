/* gsp_options.num_devices and gsp_run_info.num_devices on the CPU side (no
 * GPU needed; the multi-device runs themselves are checked by
 * tests/gpu/test_gpu_multi_device.c):
 * - gsp_options_init leaves num_devices 0 (AUTO);
 * - a negative num_devices, and num_devices >= 2 together with a
 *   cuda_stream, are GSP_ERR_INVALID_ARGUMENT whose message names the
 *   field, from every entry point that takes options (gsp_sssp_run,
 *   gsp_apsp_run, gsp_apsp_run_into, gsp_apsp_stream, gsp_table_run,
 *   gsp_table_run_into, gsp_nearest_run, gsp_run_plan), with the backend
 *   left to AUTO and with the CPU backend;
 * - on the CPU backend any num_devices >= 0 is ignored: the runs give the
 *   same distances as num_devices 0 and their run info says 0 devices;
 * - a caller built before the field (options size offsetof(gsp_options,
 *   num_devices)) is served with the default (AUTO), and the bytes past its
 *   struct are neither written by gsp_options_init_sized nor read by a run;
 * - a gsp_run_info of the size before the field (offsetof(gsp_run_info,
 *   num_devices)) gets every field up to paths_seconds and not one byte more,
 *   from gsp_paths_info, gsp_apsp_run_into, gsp_table_run_into and
 *   gsp_table_info;
 * - where CUDA is not usable (CI), backend CUDA with num_devices 2 is
 *   GSP_ERR_NO_DEVICE and AUTO with num_devices 2 runs on the CPU; where it
 *   is, more devices than there are is GSP_ERR_INVALID_ARGUMENT;
 * - the run flag GSP_ROWS_ANY_ORDER is accepted by every entry point on the
 *   CPU backend (alone, with GSP_NO_PATHS, with num_devices 2): its
 *   gsp_apsp_stream hands over every row once, in source order there, the
 *   rows of gsp_apsp_run, predecessors unless GSP_NO_PATHS; an unknown flag
 *   bit (1u << 5, also next to GSP_ROWS_ANY_ORDER) is
 *   GSP_ERR_INVALID_ARGUMENT naming the flags, from every entry point. */
#include <stddef.h>

#include "testing.h"

static t_arcs g_arcs;
static gsp_graph* g_graph = NULL;
static const int32_t k_sources[3] = {0, 7, 3};
static const int32_t k_targets[4] = {5, 0, 9, 1};

enum { E_SSSP, E_APSP, E_APSP_INTO, E_APSP_STREAM, E_TABLE, E_TABLE_INTO, E_NEAREST, E_PLAN, E_COUNT };
static const char* const k_entry_names[E_COUNT] = {"gsp_sssp_run",    "gsp_apsp_run",  "gsp_apsp_run_into",
                                                   "gsp_apsp_stream", "gsp_table_run", "gsp_table_run_into",
                                                   "gsp_nearest_run", "gsp_run_plan"};

static int count_rows(void* user, int32_t first, int32_t rows, const void* d, const int32_t* p) {
  (void)first;
  (void)d;
  (void)p;
  *(int32_t*)user += rows;
  return 0;
}

/* One entry point with options o on g_graph; whatever it returns. */
static gsp_status run_entry(int entry, const gsp_options* o) {
  const int32_t n = g_arcs.n;
  float dist[3 * 64];
  int32_t near[64], rows = 0;
  gsp_paths* p = NULL;
  gsp_table* t = NULL;
  gsp_backend b;
  gsp_algorithm a;
  gsp_status s = GSP_ERR_INTERNAL;
  if (n > 64) return GSP_ERR_INTERNAL;
  switch (entry) {
    case E_SSSP: s = gsp_sssp_run(g_graph, 0, o, &p); break;
    case E_APSP: s = gsp_apsp_run(g_graph, k_sources, 3, o, &p); break;
    case E_APSP_INTO: s = gsp_apsp_run_into(g_graph, k_sources, 3, o, dist, NULL, NULL); break;
    case E_APSP_STREAM: s = gsp_apsp_stream(g_graph, k_sources, 3, o, count_rows, &rows); break;
    case E_TABLE: s = gsp_table_run(g_graph, k_sources, 3, k_targets, 4, o, &t); break;
    case E_TABLE_INTO: s = gsp_table_run_into(g_graph, k_sources, 3, k_targets, 4, o, dist, NULL); break;
    case E_NEAREST: s = gsp_nearest_run(g_graph, k_sources, 3, o, dist, near, NULL); break;
    default: s = gsp_run_plan(g_graph, 0, 3, o, &b, &a); break;
  }
  if (s != GSP_OK && (p != NULL || t != NULL)) {
    CHECK(0, "%s failed (%s) but returned a result", k_entry_names[entry], gsp_status_name(s));
  }
  if (s == GSP_OK && entry == E_APSP_STREAM) CHECK(rows == 3, "gsp_apsp_stream: %d rows", rows);
  gsp_paths_destroy(p);
  gsp_table_destroy(t);
  return s;
}

/* Every entry point answers GSP_ERR_INVALID_ARGUMENT naming `field`. */
static void expect_refused_naming(const gsp_options* o, const char* field, const char* what) {
  int e;
  for (e = 0; e < E_COUNT; e++) {
    const gsp_status s = run_entry(e, o);
    CHECK(s == GSP_ERR_INVALID_ARGUMENT, "%s, %s: %s (want GSP_ERR_INVALID_ARGUMENT): %s", what, k_entry_names[e],
          gsp_status_name(s), gsp_last_error());
    if (s == GSP_ERR_INVALID_ARGUMENT)
      CHECK(strstr(gsp_last_error(), field) != NULL, "%s, %s: the message does not name %s: %s", what, k_entry_names[e],
            field, gsp_last_error());
  }
}

static void expect_refused(const gsp_options* o, const char* what) { expect_refused_naming(o, "num_devices", what); }

static void test_defaults(void) {
  gsp_options o;
  memset(&o, 0x5a, sizeof o);
  gsp_options_init(&o);
  CHECK(o.num_devices == 0, "gsp_options_init: num_devices %d, want 0 (AUTO)", o.num_devices);
  CHECK(o.size == sizeof o, "gsp_options_init: size %u", o.size);
  CHECK(o.device == 0 && o.cuda_stream == NULL, "gsp_options_init: device %d stream %p", o.device, o.cuda_stream);
  memset(&o, 0x5a, sizeof o);
  gsp_options_init_sized(&o, sizeof o);
  CHECK(o.num_devices == 0, "gsp_options_init_sized: num_devices %d", o.num_devices);
}

static void test_refusals(void) {
  static const gsp_backend backends[2] = {GSP_BACKEND_AUTO, GSP_BACKEND_CPU};
  static const int32_t negative[3] = {-1, -2, INT32_MIN};
  char what[96];
  int b, k;
  for (b = 0; b < 2; b++) {
    const char* bn = backends[b] == GSP_BACKEND_CPU ? "cpu" : "auto";
    gsp_options o;
    for (k = 0; k < 3; k++) {
      gsp_options_init(&o);
      o.backend = backends[b];
      o.num_devices = negative[k];
      snprintf(what, sizeof what, "backend %s, num_devices %d", bn, negative[k]);
      expect_refused(&o, what);
    }
    for (k = 2; k <= 3; k++) {
      gsp_options_init(&o);
      o.backend = backends[b];
      o.num_devices = k;
      o.cuda_stream = (void*)1; /* never used: refused before any device is touched */
      snprintf(what, sizeof what, "backend %s, num_devices %d with a cuda_stream", bn, k);
      expect_refused(&o, what);
    }
  }
}

/* The CPU ignores num_devices >= 0: same distances, run info 0 devices. */
static void test_cpu_ignores(void) {
  static const int32_t counts[4] = {1, 2, 4, INT32_MAX};
  const int32_t n = g_arcs.n;
  gsp_options base, o;
  gsp_paths *want = NULL, *p = NULL;
  float want_table[12], got_table[12];
  float* want_rows = (float*)malloc((size_t)n * 3 * sizeof(float));
  float* got_rows = (float*)malloc((size_t)n * 3 * sizeof(float));
  gsp_run_info info;
  int k, e;
  gsp_options_init(&base);
  base.backend = GSP_BACKEND_CPU;
  base.num_threads = 2;
  CHECK_OK(gsp_apsp_run(g_graph, k_sources, 3, &base, &want));
  CHECK_OK(gsp_table_run_into(g_graph, k_sources, 3, k_targets, 4, &base, want_table, NULL));
  if (want != NULL) {
    for (k = 0; k < 3; k++) CHECK_OK(gsp_paths_distances(want, k_sources[k], want_rows + (size_t)k * n, n));
  }
  for (k = 0; k < 4; k++) {
    o = base;
    o.num_devices = counts[k];
    for (e = 0; e < E_COUNT; e++) {
      const gsp_status s = run_entry(e, &o);
      CHECK(s == GSP_OK, "backend cpu, num_devices %d, %s: %s %s", counts[k], k_entry_names[e], gsp_status_name(s),
            gsp_last_error());
    }
    p = NULL;
    CHECK_OK(gsp_apsp_run(g_graph, k_sources, 3, &o, &p));
    if (p != NULL && want != NULL) {
      int r, diff = 0;
      for (r = 0; r < 3; r++) {
        CHECK_OK(gsp_paths_distances(p, k_sources[r], got_rows + (size_t)r * n, n));
      }
      diff = memcmp(got_rows, want_rows, (size_t)n * 3 * sizeof(float)) != 0;
      CHECK(!diff, "backend cpu, num_devices %d: rows differ from num_devices 0", counts[k]);
      memset(&info, 0x5a, sizeof info);
      info.size = sizeof info;
      CHECK_OK(gsp_paths_info(p, &info));
      CHECK(info.num_devices == 0 && info.backend == GSP_BACKEND_CPU && info.device == -1,
            "backend cpu, num_devices %d: run info num_devices %d backend %d device %d", counts[k], info.num_devices,
            (int)info.backend, info.device);
    }
    gsp_paths_destroy(p);
    memset(&info, 0x5a, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_table_run_into(g_graph, k_sources, 3, k_targets, 4, &o, got_table, &info));
    CHECK(memcmp(got_table, want_table, sizeof got_table) == 0, "table, num_devices %d: cells differ", counts[k]);
    CHECK(info.num_devices == 0, "table_run_into, num_devices %d: run info num_devices %d", counts[k],
          info.num_devices);
    memset(&info, 0x5a, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_apsp_run_into(g_graph, k_sources, 3, &o, got_rows, NULL, &info));
    CHECK(info.num_devices == 0, "apsp_run_into, num_devices %d: run info num_devices %d", counts[k], info.num_devices);
    CHECK(memcmp(got_rows, want_rows, (size_t)n * 3 * sizeof(float)) == 0, "apsp_run_into, num_devices %d: rows differ",
          counts[k]);
  }
  /* sssp too (one device at most, whatever num_devices says) */
  o = base;
  o.num_devices = 3;
  p = NULL;
  CHECK_OK(gsp_sssp_run(g_graph, 0, &o, &p));
  if (p != NULL) {
    memset(&info, 0x5a, sizeof info);
    info.size = 0; /* 0: this version's struct */
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.num_devices == 0 && info.size == sizeof info, "sssp on the cpu: num_devices %d size %u",
          info.num_devices, info.size);
  }
  gsp_paths_destroy(p);
  gsp_paths_destroy(want);
  free(want_rows);
  free(got_rows);
}

/* A caller built before num_devices: its struct ends at the field. */
static void test_old_options(void) {
  const size_t v = offsetof(gsp_options, num_devices);
  union {
    gsp_options o;
    unsigned char bytes[sizeof(gsp_options) + 16];
  } u;
  gsp_options* o = &u.o;
  size_t i;
  int untouched = 1, e;
  gsp_paths* p = NULL;
  gsp_run_info info;
  gsp_backend plan_backend;
  gsp_algorithm plan_algorithm;
  CHECK(v == offsetof(gsp_options, limit) + sizeof(double), "num_devices is not right after limit (offset %zu)", v);
  /* 0xff past the struct: a library that read it would see num_devices -1 and refuse */
  memset(u.bytes, 0xff, sizeof u.bytes);
  gsp_options_init_sized(o, v);
  CHECK(o->size == v, "gsp_options_init_sized(%zu): size %u", v, o->size);
  for (i = v; i < sizeof u.bytes; i++) untouched &= u.bytes[i] == 0xff;
  CHECK(untouched, "gsp_options_init_sized(%zu) wrote past the caller's struct", v);
  CHECK(o->backend == GSP_BACKEND_AUTO && o->limit == HUGE_VAL, "old struct: backend %d limit %g", (int)o->backend,
        o->limit);
  o->backend = GSP_BACKEND_CPU;
  o->num_threads = 2;
  for (e = 0; e < E_COUNT; e++) {
    const gsp_status s = run_entry(e, o);
    CHECK(s == GSP_OK, "old options struct (size %zu), %s: %s %s", v, k_entry_names[e], gsp_status_name(s),
          gsp_last_error());
  }
  CHECK_OK(gsp_apsp_run(g_graph, NULL, 0, o, &p));
  if (p != NULL) {
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.num_devices == 0 && info.backend == GSP_BACKEND_CPU, "old options, cpu: num_devices %d backend %d",
          info.num_devices, (int)info.backend);
  }
  gsp_paths_destroy(p);
  /* The default backend (AUTO): num_devices AUTO as well; whatever runs,
   * the run info is consistent (0 devices on the CPU, 1 or more on CUDA). */
  memset(u.bytes, 0xff, sizeof u.bytes);
  gsp_options_init_sized(o, v);
  p = NULL;
  CHECK_OK(gsp_apsp_run(g_graph, k_sources, 3, o, &p));
  if (p != NULL) {
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_OK(gsp_paths_info(p, &info));
    CHECK(info.backend == GSP_BACKEND_CPU ? info.num_devices == 0 : info.num_devices >= 1,
          "old options, auto: backend %d num_devices %d", (int)info.backend, info.num_devices);
  }
  gsp_paths_destroy(p);
  CHECK_OK(gsp_run_plan(g_graph, 1, 1, o, &plan_backend, &plan_algorithm));
}

/* One run-info call for a caller whose struct ends before num_devices:
 * every field up to paths_seconds written, nothing from num_devices on. */
typedef gsp_status (*info_fn)(gsp_run_info* info, void* ctx);

static void check_old_info(info_fn fn, void* ctx, const char* what) {
  const size_t v = offsetof(gsp_run_info, num_devices);
  union {
    gsp_run_info info;
    unsigned char bytes[sizeof(gsp_run_info) + 8];
  } u;
  unsigned char pattern[sizeof(double)];
  size_t i, asked;
  int untouched;
  CHECK(v == offsetof(gsp_run_info, paths_seconds) + sizeof(double), "num_devices is not right after paths_seconds");
  memset(pattern, 0xa5, sizeof pattern);
  for (asked = v; asked <= v + 2; asked += 2) { /* v + 2: part of the field, rounded down to v */
    memset(u.bytes, 0xa5, sizeof u.bytes);
    u.info.size = (uint32_t)asked;
    CHECK_OK(fn(&u.info, ctx));
    CHECK(u.info.size == v, "%s, size %zu: size %u written, want %zu", what, asked, u.info.size, v);
    CHECK(u.info.backend == GSP_BACKEND_CPU && u.info.device == -1 && u.info.num_vertices == g_arcs.n &&
              strncmp(u.info.device_name, "CPU", 3) == 0,
          "%s, size %zu: backend %d device %d n %d name '%.20s'", what, asked, (int)u.info.backend, u.info.device,
          u.info.num_vertices, u.info.device_name);
    /* the stages, paths_seconds the last of them, are written (0 or a time) */
    CHECK(memcmp(&u.info.paths_seconds, pattern, sizeof pattern) != 0 && u.info.paths_seconds >= 0 &&
              u.info.setup_seconds >= 0 && u.info.compute_seconds >= 0 && u.info.copy_seconds >= 0,
          "%s, size %zu: stages not written (paths_seconds %g)", what, asked, u.info.paths_seconds);
    for (i = v, untouched = 1; i < sizeof u.bytes; i++) untouched &= u.bytes[i] == 0xa5;
    CHECK(untouched, "%s, size %zu: wrote num_devices or past it", what, asked);
  }
  /* the whole struct: num_devices 0 on the CPU */
  memset(u.bytes, 0xa5, sizeof u.bytes);
  u.info.size = sizeof u.info;
  CHECK_OK(fn(&u.info, ctx));
  CHECK(u.info.size == sizeof u.info && u.info.num_devices == 0, "%s, whole struct: size %u num_devices %d", what,
        u.info.size, u.info.num_devices);
  for (i = sizeof u.info, untouched = 1; i < sizeof u.bytes; i++) untouched &= u.bytes[i] == 0xa5;
  CHECK(untouched, "%s, whole struct: wrote past it", what);
}

static gsp_status info_of_paths(gsp_run_info* info, void* ctx) { return gsp_paths_info((const gsp_paths*)ctx, info); }
static gsp_status info_of_table(gsp_run_info* info, void* ctx) { return gsp_table_info((const gsp_table*)ctx, info); }
static gsp_status info_of_apsp_into(gsp_run_info* info, void* ctx) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_devices = 2;
  return gsp_apsp_run_into(g_graph, k_sources, 3, &o, ctx, NULL, info);
}
static gsp_status info_of_table_into(gsp_run_info* info, void* ctx) {
  gsp_options o;
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_devices = 2;
  return gsp_table_run_into(g_graph, k_sources, 3, k_targets, 4, &o, ctx, info);
}

static void test_old_run_info(void) {
  gsp_options o;
  gsp_paths* p = NULL;
  gsp_table* t = NULL;
  float* buf = (float*)malloc((size_t)g_arcs.n * 3 * sizeof(float));
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_devices = 4;
  CHECK_OK(gsp_apsp_run(g_graph, k_sources, 3, &o, &p));
  if (p != NULL) check_old_info(info_of_paths, p, "gsp_paths_info (apsp)");
  gsp_paths_destroy(p);
  p = NULL;
  CHECK_OK(gsp_sssp_run(g_graph, 0, &o, &p));
  if (p != NULL) check_old_info(info_of_paths, p, "gsp_paths_info (sssp)");
  gsp_paths_destroy(p);
  CHECK_OK(gsp_table_run(g_graph, k_sources, 3, k_targets, 4, &o, &t));
  if (t != NULL) check_old_info(info_of_table, t, "gsp_table_info");
  gsp_table_destroy(t);
  check_old_info(info_of_apsp_into, buf, "gsp_apsp_run_into");
  check_old_info(info_of_table_into, buf, "gsp_table_run_into");
  free(buf);
}

static void test_cuda_side(void) {
  gsp_options o;
  gsp_paths* p = NULL;
  float cells[12];
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    /* CI: no device. Backend CUDA is GSP_ERR_NO_DEVICE whatever num_devices
     * asks; AUTO runs on the CPU and ignores it. */
    const int32_t counts[3] = {2, 1, 0};
    int k, e;
    CHECK(gsp_device_count() == 0, "CUDA unusable but gsp_device_count() = %d", gsp_device_count());
    for (k = 0; k < 3; k++) {
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CUDA;
      o.num_devices = counts[k];
      for (e = 0; e < E_COUNT; e++) {
        const gsp_status s = run_entry(e, &o);
        CHECK(s == GSP_ERR_NO_DEVICE,
              "backend cuda without a device, num_devices %d, %s: %s (want GSP_ERR_NO_DEVICE): %s", counts[k],
              k_entry_names[e], gsp_status_name(s), gsp_last_error());
      }
    }
    gsp_options_init(&o);
    o.num_devices = 2;
    CHECK_OK(gsp_apsp_run(g_graph, k_sources, 3, &o, &p));
    if (p != NULL) {
      gsp_run_info info;
      memset(&info, 0, sizeof info);
      info.size = sizeof info;
      CHECK_OK(gsp_paths_info(p, &info));
      CHECK(info.backend == GSP_BACKEND_CPU && info.num_devices == 0, "auto without a device: backend %d devices %d",
            (int)info.backend, info.num_devices);
    }
    gsp_paths_destroy(p);
    CHECK_OK(gsp_table_run_into(g_graph, k_sources, 3, k_targets, 4, &o, cells, NULL));
    printf("CUDA not usable here: the no-device answers checked\n");
  } else {
    /* A device is usable: asking for more than there are is refused. */
    const int32_t count = gsp_device_count();
    gsp_status s;
    gsp_options_init(&o);
    o.backend = GSP_BACKEND_CUDA;
    o.num_devices = count + 1;
    s = gsp_apsp_run(g_graph, k_sources, 3, &o, &p);
    CHECK(s == GSP_ERR_INVALID_ARGUMENT && strstr(gsp_last_error(), "num_devices") != NULL,
          "backend cuda, num_devices %d of %d devices: %s %s", count + 1, count, gsp_status_name(s), gsp_last_error());
    gsp_paths_destroy(p);
    printf("CUDA usable (%d devices): num_devices beyond them checked\n", count);
  }
}

/* A gsp_apsp_stream consumer for the CPU: every row once, in source order
 * (the CPU keeps it with GSP_ROWS_ANY_ORDER too), the distances of `want`
 * (rows x n, row i from the i-th source). */
typedef struct {
  int32_t n, rows, next, calls, bad, with_pred, without_pred;
  const float* want;
} order_ctx;

static int on_ordered_rows(void* user, int32_t first, int32_t num_rows, const void* d, const int32_t* p) {
  order_ctx* c = (order_ctx*)user;
  c->calls++;
  if (first != c->next || num_rows < 1 || first + num_rows > c->rows) {
    if (c->bad++ < 3)
      fprintf(stderr, "a block of %d rows from %d, want rows from %d (of %d)\n", num_rows, first, c->next, c->rows);
    return 0;
  }
  if (memcmp(d, c->want + (size_t)first * (size_t)c->n, (size_t)num_rows * (size_t)c->n * sizeof(float)) != 0) {
    if (c->bad++ < 3) fprintf(stderr, "rows %d .. %d differ from gsp_apsp_run's\n", first, first + num_rows - 1);
  }
  if (p != NULL)
    c->with_pred++;
  else
    c->without_pred++;
  c->next = first + num_rows;
  return 0;
}

/* GSP_ROWS_ANY_ORDER on the CPU, and an unknown flag bit. */
static void test_run_flags(void) {
  static const uint32_t flag_sets[2] = {GSP_ROWS_ANY_ORDER, GSP_ROWS_ANY_ORDER | GSP_NO_PATHS};
  static const gsp_backend backends[2] = {GSP_BACKEND_AUTO, GSP_BACKEND_CPU};
  const int32_t n = g_arcs.n;
  float* want = (float*)malloc((size_t)n * (size_t)n * sizeof(float));
  gsp_options o;
  gsp_paths* p = NULL;
  char what[128];
  int f, e, list, b;
  CHECK(GSP_ROWS_ANY_ORDER == 2u && (GSP_ROWS_ANY_ORDER & GSP_NO_PATHS) == 0, "GSP_ROWS_ANY_ORDER = %u",
        (unsigned)GSP_ROWS_ANY_ORDER);
  /* the rows of every source, from one plain run */
  gsp_options_init(&o);
  o.backend = GSP_BACKEND_CPU;
  o.num_threads = 2;
  CHECK_OK(gsp_apsp_run(g_graph, NULL, 0, &o, &p));
  if (p != NULL) {
    int32_t v;
    for (v = 0; v < n; v++) CHECK_OK(gsp_paths_distances(p, v, want + (size_t)v * (size_t)n, n));
  }
  gsp_paths_destroy(p);
  for (f = 0; f < 2; f++) {
    int32_t devices;
    for (devices = 0; devices <= 2; devices += 2) {
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CPU;
      o.num_threads = 2;
      o.flags = flag_sets[f];
      o.num_devices = devices;
      /* every entry point takes it (the others ignore it) */
      for (e = 0; e < E_COUNT; e++) {
        const gsp_status s = run_entry(e, &o);
        CHECK(s == GSP_OK, "backend cpu, flags %u, num_devices %d, %s: %s %s", (unsigned)o.flags, devices,
              k_entry_names[e], gsp_status_name(s), gsp_last_error());
      }
      /* the stream: sources NULL (every vertex) and an explicit list */
      for (list = 0; list <= 1; list++) {
        float* want_rows = want;
        float listed[3 * 64];
        order_ctx c;
        gsp_status s;
        int32_t i;
        if (list) {
          for (i = 0; i < 3; i++)
            memcpy(listed + (size_t)i * (size_t)n, want + (size_t)k_sources[i] * (size_t)n, (size_t)n * sizeof(float));
          want_rows = listed;
        }
        memset(&c, 0, sizeof c);
        c.n = n;
        c.rows = list ? 3 : n;
        c.want = want_rows;
        snprintf(what, sizeof what, "gsp_apsp_stream, backend cpu, flags %u, num_devices %d, %s", (unsigned)o.flags,
                 devices, list ? "3 sources" : "sources NULL");
        s = gsp_apsp_stream(g_graph, list ? k_sources : NULL, list ? 3 : 0, &o, on_ordered_rows, &c);
        CHECK(s == GSP_OK, "%s: %s %s", what, gsp_status_name(s), gsp_last_error());
        CHECK(c.next == c.rows && c.bad == 0 && c.calls >= 1, "%s: %d of %d rows in order, %d bad, %d calls", what,
              c.next, c.rows, c.bad, c.calls);
        if ((o.flags & GSP_NO_PATHS) != 0)
          CHECK(c.with_pred == 0, "%s: predecessors with GSP_NO_PATHS", what);
        else
          CHECK(c.without_pred == 0, "%s: a block without predecessors", what);
      }
    }
  }
  /* an unknown bit: refused by every entry point, whatever else is set */
  for (b = 0; b < 2; b++) {
    for (f = 0; f < 2; f++) {
      gsp_options_init(&o);
      o.backend = backends[b];
      o.flags = f ? (GSP_ROWS_ANY_ORDER | (1u << 5)) : (1u << 5);
      snprintf(what, sizeof what, "backend %s, flags 0x%x", backends[b] == GSP_BACKEND_CPU ? "cpu" : "auto",
               (unsigned)o.flags);
      expect_refused_naming(&o, "flags", what);
    }
  }
  free(want);
}

int main(void) {
  t_make_shape(&g_arcs, T_RANDOM_SPARSE, 40, 17);
  g_graph = t_graph(&g_arcs, GSP_F32, 1.0f);
  test_defaults();
  test_refusals();
  test_cpu_ignores();
  test_old_options();
  test_old_run_info();
  test_cuda_side();
  test_run_flags();
  gsp_graph_destroy(g_graph);
  t_arcs_free(&g_arcs);
  return t_finish("test_multi_device_options");
}
