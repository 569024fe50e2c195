/* Deterministic graph generators on the public API (see gsp_generators.h).
 *
 * gsp_gen_random and gsp_gen_rmat build CSR arrays themselves, on several
 * threads, and hand them to gsp_graph_create_csr (which copies them: the
 * peak is two CSRs, 2 x (8 n + (4 + w) m) bytes, and no arc list). Their
 * random numbers come in independent streams per fixed chunk of vertices
 * (random) or of arcs (R-MAT), chunk 0 being the generator's own stream, so
 * a graph depends on (n, degree, seed, max_weight) only, not on the thread
 * count, and a graph of one chunk is the one the sequential generators
 * drew. R-MAT draws its arcs twice, from the same streams: once to count
 * each tail's arcs (each thread in an array of its own, no atomics), once
 * to place them, in the order drawn. */
#include "gsp_generators.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  uint64_t s;
} gen_rng;

static uint64_t gen_next(gen_rng* r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int64_t gen_below(gen_rng* r, int64_t k) { return (int64_t)(gen_next(r) % (uint64_t)k); }

/* The stream of chunk c of a generator whose stream is `base`: chunk 0 is
 * the base stream itself (so a graph of one chunk is the one the
 * sequential generators made), chunk c > 0 starts at a hashed point of the
 * 2^64 cycle. */
static gen_rng gen_stream(uint64_t base, int64_t chunk) {
  gen_rng r;
  uint64_t z;
  if (chunk == 0) {
    r.s = base;
    return r;
  }
  z = base ^ (0xD1B54A32D192ED03ull * (uint64_t)chunk);
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
  r.s = z ^ (z >> 33);
  return r;
}

/* ------------------------------------------------------------ threads */

static char gen_error_text[512];

const char* gsp_gen_error(void) { return gen_error_text; }

#if defined(__GNUC__)
static void gen_error(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
static void gen_error(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(gen_error_text, sizeof gen_error_text, fmt, ap);
  va_end(ap);
}

/* Threads for the large generators: GSP_GEN_THREADS when set (> 0), else
 * the online CPUs, at most 64. */
static int gen_threads(void) {
  const char* e = getenv("GSP_GEN_THREADS");
  long t = e != NULL ? atol(e) : 0;
  if (t <= 0) t = sysconf(_SC_NPROCESSORS_ONLN);
  if (t < 1) t = 1;
  return t > 64 ? 64 : (int)t;
}

typedef struct {
  void (*task)(void* ctx, int64_t item);
  void* ctx;
  int64_t items;
  int64_t next; /* the next item to take (atomic) */
} gen_pool;

static void* gen_worker(void* arg) {
  gen_pool* p = (gen_pool*)arg;
  for (;;) {
    const int64_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
    if (i >= p->items) break;
    p->task(p->ctx, i);
  }
  return NULL;
}

/* task(ctx, i) for every i in [0, items), items taken in turn by up to
 * `threads` threads (the caller's among them; where no thread can be
 * started, the caller does them all). */
static void gen_run(int64_t items, int threads, void (*task)(void*, int64_t), void* ctx) {
  gen_pool p;
  pthread_t tid[64];
  int started = 0, t;
  p.task = task;
  p.ctx = ctx;
  p.items = items;
  p.next = 0;
  if (threads > items) threads = (int)items;
  for (t = 1; t < threads && t < 64; t++) {
    if (pthread_create(&tid[started], NULL, gen_worker, &p) != 0) break;
    started++;
  }
  gen_worker(&p);
  for (t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

/* MemAvailable + SwapFree from /proc/meminfo in bytes, or UINT64_MAX when
 * unknown: the generators refuse arrays that cannot fit (the library then
 * checks its own copy, with the process's other limits). */
static uint64_t gen_available(void) {
  FILE* f = fopen("/proc/meminfo", "r");
  char line[256];
  unsigned long long kb, avail = 0, swap = 0;
  int have = 0;
  if (f == NULL) return UINT64_MAX;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
      avail = kb;
      have = 1;
    } else if (sscanf(line, "SwapFree: %llu kB", &kb) == 1) {
      swap = kb;
    }
  }
  fclose(f);
  return have ? (uint64_t)(avail + swap) * 1024u : UINT64_MAX;
}

static int gen_fits(const char* what, int32_t n, int64_t m, uint64_t bytes) {
  const uint64_t have = gen_available();
  if (bytes <= have) return 1;
  gen_error(
      "%s: %d vertices and %lld arcs need %llu bytes (%.1f GiB) before the graph is built, but only "
      "%llu bytes (%.1f GiB) are available (MemAvailable + SwapFree)",
      what, n, (long long)m, (unsigned long long)bytes, (double)bytes / 1073741824.0, (unsigned long long)have,
      (double)have / 1073741824.0);
  return 0;
}

/* ------------------------------------------------------------ CSR output */

static size_t dtype_bytes(gsp_dtype d) { return d == GSP_F64 ? 8 : 4; }

static void put_weight(void* w, gsp_dtype dt, int64_t at, int32_t x) {
  if (dt == GSP_F32) {
    ((float*)w)[at] = (float)x;
  } else if (dt == GSP_F64) {
    ((double*)w)[at] = (double)x;
  } else {
    ((int32_t*)w)[at] = x;
  }
}

void gsp_gen_csr_free(gsp_gen_csr* c) {
  if (c == NULL) return;
  free(c->offsets);
  free(c->targets);
  free(c->weights);
  memset(c, 0, sizeof *c);
}

static gsp_status csr_alloc(gsp_gen_csr* c, int32_t n, int64_t m, gsp_dtype dtype) {
  c->n = n;
  c->m = m;
  c->dtype = dtype;
  c->offsets = (int64_t*)malloc(((size_t)n + 1) * sizeof(int64_t));
  c->targets = (int32_t*)malloc((size_t)(m > 0 ? m : 1) * sizeof(int32_t));
  c->weights = malloc((size_t)(m > 0 ? m : 1) * dtype_bytes(dtype));
  if (c->offsets == NULL || c->targets == NULL || c->weights == NULL) {
    gsp_gen_csr_free(c);
    return GSP_ERR_OUT_OF_MEMORY;
  }
  return GSP_OK;
}

gsp_status gsp_gen_csr_graph(gsp_graph** graph, const gsp_gen_csr* c) {
  if (graph) *graph = NULL;
  if (graph == NULL || c == NULL || c->offsets == NULL) return GSP_ERR_INVALID_ARGUMENT;
  return gsp_graph_create_csr(graph, c->n, c->offsets, c->targets, c->weights, c->dtype, 0);
}

/* A generator's CSR as a graph; the arrays are freed either way. */
static gsp_status csr_finish(gsp_status s, gsp_gen_csr* c, gsp_graph** graph) {
  if (s == GSP_OK) s = gsp_gen_csr_graph(graph, c);
  gsp_gen_csr_free(c);
  return s;
}

/* An arc list under construction. */
typedef struct {
  int64_t m, cap;
  int32_t* src;
  int32_t* dst;
  int32_t* w;
  int failed;
} gen_arcs;

static void arcs_reserve(gen_arcs* a, int64_t cap) {
  if (a->failed || cap <= a->cap) return;
  {
    int32_t* s = (int32_t*)realloc(a->src, (size_t)cap * sizeof(int32_t));
    if (s) a->src = s;
    int32_t* d = (int32_t*)realloc(a->dst, (size_t)cap * sizeof(int32_t));
    if (d) a->dst = d;
    int32_t* w = (int32_t*)realloc(a->w, (size_t)cap * sizeof(int32_t));
    if (w) a->w = w;
    if (!s || !d || !w) {
      a->failed = 1;
      return;
    }
  }
  a->cap = cap;
}

static void push_arc(gen_arcs* a, int32_t u, int32_t v, int32_t w) {
  if (a->m == a->cap) arcs_reserve(a, a->cap ? a->cap * 2 : 1024);
  if (a->failed) return;
  a->src[a->m] = u;
  a->dst[a->m] = v;
  a->w[a->m] = w;
  a->m++;
}

static gsp_status finish(gen_arcs* a, gsp_graph** graph, int32_t n, gsp_dtype dtype) {
  gsp_status s = GSP_ERR_OUT_OF_MEMORY;
  if (!a->failed) {
    if (dtype == GSP_F32) {
      float* wf = (float*)malloc((size_t)(a->m ? a->m : 1) * sizeof(float));
      if (wf) {
        int64_t k;
        for (k = 0; k < a->m; k++) wf[k] = (float)a->w[k];
        s = gsp_graph_create(graph, n, a->m, a->src, a->dst, wf, GSP_F32, 0);
        free(wf);
      }
    } else if (dtype == GSP_F64) {
      double* wd = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
      if (wd) {
        int64_t k;
        for (k = 0; k < a->m; k++) wd[k] = (double)a->w[k];
        s = gsp_graph_create(graph, n, a->m, a->src, a->dst, wd, GSP_F64, 0);
        free(wd);
      }
    } else {
      s = gsp_graph_create(graph, n, a->m, a->src, a->dst, a->w, dtype, 0);
    }
  }
  free(a->src);
  free(a->dst);
  free(a->w);
  memset(a, 0, sizeof *a);
  return s;
}

/* The vertex count and weight type every generator takes; a refusal says
 * why (gsp_gen_error). */
static gsp_status check_size(int32_t n, gsp_dtype dtype) {
  if (n < 1) {
    gen_error("%d vertices: expected at least 1", n);
    return GSP_ERR_INVALID_ARGUMENT;
  }
  if (dtype != GSP_F32 && dtype != GSP_I32 && dtype != GSP_F64) {
    gen_error("dtype %d: expected GSP_I32, GSP_F32 or GSP_F64", (int)dtype);
    return GSP_ERR_INVALID_ARGUMENT;
  }
  return GSP_OK;
}

/* A generator's arguments, its message cleared first. */
static gsp_status check(gsp_graph** graph, int32_t n, gsp_dtype dtype) {
  gen_error_text[0] = 0;
  if (graph == NULL) {
    gen_error("graph is NULL");
    return GSP_ERR_INVALID_ARGUMENT;
  }
  *graph = NULL;
  return check_size(n, dtype);
}

/* A rows x cols lattice's (gsp_gen_grid, gsp_gen_road). */
static gsp_status check_lattice(gsp_graph** graph, int32_t rows, int32_t cols, gsp_dtype dtype) {
  if (rows < 1 || cols < 1 || (int64_t)rows * cols > INT32_MAX) {
    gen_error_text[0] = 0;
    if (graph) *graph = NULL;
    gen_error("%d x %d: rows and cols must be >= 1 and rows * cols <= %d", rows, cols, INT32_MAX);
    return GSP_ERR_INVALID_ARGUMENT;
  }
  return check(graph, rows * cols, dtype);
}

static gsp_status check_csr(gsp_gen_csr* out, int32_t n, int32_t degree, gsp_dtype dtype) {
  gen_error_text[0] = 0;
  if (out == NULL) {
    gen_error("out is NULL");
    return GSP_ERR_INVALID_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  if (degree < 0) {
    gen_error("degree %d: expected >= 0", degree);
    return GSP_ERR_INVALID_ARGUMENT;
  }
  return check_size(n, dtype);
}

static int32_t random_weight(gen_rng* r, int32_t max_weight) { return (int32_t)(1 + gen_below(r, max_weight)); }

#define MAXW(w) ((w) <= 0 ? 100 : (w))

/* ------------------------------------------------------------ random */

/* Vertices per stream of gsp_gen_random: 0 .. 65535 draw from the
 * generator's own stream, as the sequential generator did. */
#define RANDOM_CHUNK 65536

typedef struct {
  gsp_gen_csr* c;
  int32_t degree, max_weight;
  uint64_t base;
} random_job;

static void random_chunk(void* ctx, int64_t chunk) {
  const random_job* j = (const random_job*)ctx;
  const int32_t n = j->c->n;
  const int64_t lo = chunk * RANDOM_CHUNK, hi = lo + RANDOM_CHUNK < n ? lo + RANDOM_CHUNK : n;
  gen_rng r = gen_stream(j->base, chunk);
  int64_t u, at = lo * j->degree;
  int32_t k;
  for (u = lo; u < hi; u++) {
    j->c->offsets[u] = at;
    for (k = 0; k < j->degree; k++, at++) {
      int32_t v = (int32_t)gen_below(&r, n > 1 ? n - 1 : 1);
      if (n > 1 && v >= u) v++; /* no self-loops */
      j->c->targets[at] = v;
      put_weight(j->c->weights, j->c->dtype, at, random_weight(&r, j->max_weight));
    }
  }
  if (hi == n) j->c->offsets[n] = at;
}

gsp_status gsp_gen_random_csr(gsp_gen_csr* out, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                              int32_t max_weight) {
  random_job j;
  int64_t m;
  gsp_status s = check_csr(out, n, degree, dtype);
  if (s != GSP_OK) return s;
  m = (int64_t)n * degree;
  if (!gen_fits("gsp_gen_random", n, m, ((uint64_t)n + 1) * 8 + (uint64_t)m * (4 + dtype_bytes(dtype))))
    return GSP_ERR_OUT_OF_MEMORY;
  s = csr_alloc(out, n, m, dtype);
  if (s != GSP_OK) return s;
  j.c = out;
  j.degree = degree;
  j.max_weight = MAXW(max_weight);
  j.base = seed ^ 0x52414E444F4D0001ull;
  gen_run((n + RANDOM_CHUNK - 1) / RANDOM_CHUNK, gen_threads(), random_chunk, &j);
  return GSP_OK;
}

gsp_status gsp_gen_random(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                          int32_t max_weight) {
  gsp_gen_csr c;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  s = gsp_gen_random_csr(&c, n, degree, seed, dtype, max_weight);
  return csr_finish(s, &c, graph);
}

/* ------------------------------------------------------------ R-MAT */

/* Arcs per stream of gsp_gen_rmat: the first 2^20 arcs draw from the
 * generator's own stream, as the sequential generator did. */
#define RMAT_CHUNK ((int64_t)1 << 20)

typedef struct {
  gsp_gen_csr* c;
  int32_t scale, max_weight;
  uint64_t base;
  int64_t chunks;
  int parts;
  int64_t** cursor; /* per part: n counts (pass 1), then insert positions (pass 2) */
  int place;        /* 0: count the tails, 1: place the arcs */
} rmat_job;

/* One R-MAT arc of chunk stream r: endpoints drawn over 2^scale, drawn
 * again while one is >= n; then the weight (pass 1 skips its value, not
 * its draw). */
static void rmat_arc(gen_rng* r, int32_t scale, int32_t n, int32_t* u_out, int32_t* v_out) {
  int64_t u, v;
  int32_t b;
  do {
    u = 0;
    v = 0;
    for (b = 0; b < scale; b++) {
      const int64_t q = gen_below(r, 100); /* quadrant a, b, c, d = 0.57, 0.19, 0.19, 0.05 */
      u |= (int64_t)(q >= 76) << b;
      v |= (int64_t)((q >= 57 && q < 76) || q >= 95) << b;
    }
  } while (u >= n || v >= n);
  *u_out = (int32_t)u;
  *v_out = (int32_t)v;
}

/* Part p: chunks [chunks * p / parts, chunks * (p + 1) / parts), in order. */
static void rmat_part(void* ctx, int64_t p) {
  const rmat_job* j = (const rmat_job*)ctx;
  gsp_gen_csr* c = j->c;
  int64_t* const cur = j->cursor[p];
  const int64_t c0 = j->chunks * p / j->parts, c1 = j->chunks * (p + 1) / j->parts;
  int64_t ch, k;
  for (ch = c0; ch < c1; ch++) {
    gen_rng r = gen_stream(j->base, ch);
    const int64_t hi = (ch + 1) * RMAT_CHUNK < c->m ? (ch + 1) * RMAT_CHUNK : c->m;
    for (k = ch * RMAT_CHUNK; k < hi; k++) {
      int32_t u, v;
      rmat_arc(&r, j->scale, c->n, &u, &v);
      if (j->place) {
        const int64_t at = cur[u]++;
        c->targets[at] = v;
        put_weight(c->weights, c->dtype, at, random_weight(&r, j->max_weight));
      } else {
        (void)gen_next(&r);
        cur[u]++;
      }
    }
  }
}

/* Vertices [lo, hi) of the offsets pass: degrees summed over the parts,
 * and each part's counts turned into its first insert position. */
typedef struct {
  rmat_job* j;
  int64_t step;
} rmat_prefix;

static void rmat_degrees(void* ctx, int64_t block) {
  const rmat_prefix* x = (const rmat_prefix*)ctx;
  const rmat_job* j = x->j;
  const int64_t lo = block * x->step, hi = lo + x->step < j->c->n ? lo + x->step : j->c->n;
  int64_t u;
  int p;
  for (u = lo; u < hi; u++) {
    int64_t d = 0;
    for (p = 0; p < j->parts; p++) d += j->cursor[p][u];
    j->c->offsets[u + 1] = d;
  }
}

static void rmat_positions(void* ctx, int64_t block) {
  const rmat_prefix* x = (const rmat_prefix*)ctx;
  const rmat_job* j = x->j;
  const int64_t lo = block * x->step, hi = lo + x->step < j->c->n ? lo + x->step : j->c->n;
  int64_t u;
  int p;
  for (u = lo; u < hi; u++) {
    int64_t at = j->c->offsets[u];
    for (p = 0; p < j->parts; p++) {
      const int64_t k = j->cursor[p][u];
      j->cursor[p][u] = at;
      at += k;
    }
  }
}

gsp_status gsp_gen_rmat_csr(gsp_gen_csr* out, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                            int32_t max_weight) {
  rmat_job j;
  rmat_prefix x;
  int threads = gen_threads(), p;
  int64_t m, u;
  gsp_status s = check_csr(out, n, degree, dtype);
  if (s != GSP_OK) return s;
  m = (int64_t)n * degree;
  j.scale = 0;
  while (((int64_t)1 << j.scale) < n) j.scale++;
  j.c = out;
  j.max_weight = MAXW(max_weight);
  j.base = seed ^ 0x524D415400000002ull;
  j.chunks = (m + RMAT_CHUNK - 1) / RMAT_CHUNK;
  /* One count array of n per part: at most as many parts as threads and as
   * arcs per vertex, so that the counts (8 n a part) stay within the 8 m
   * of the CSR. */
  j.parts = threads < degree ? threads : degree;
  if (j.parts > j.chunks) j.parts = (int)j.chunks;
  if (j.parts < 1) j.parts = 1;
  if (!gen_fits("gsp_gen_rmat", n, m,
                ((uint64_t)n + 1) * 8 + (uint64_t)m * (4 + dtype_bytes(dtype)) + (uint64_t)j.parts * n * 8))
    return GSP_ERR_OUT_OF_MEMORY;
  j.cursor = (int64_t**)calloc((size_t)j.parts, sizeof(int64_t*));
  s = j.cursor != NULL ? GSP_OK : GSP_ERR_OUT_OF_MEMORY;
  for (p = 0; s == GSP_OK && p < j.parts; p++) {
    j.cursor[p] = (int64_t*)calloc((size_t)n, sizeof(int64_t));
    if (j.cursor[p] == NULL) s = GSP_ERR_OUT_OF_MEMORY;
  }
  if (s == GSP_OK) s = csr_alloc(out, n, m, dtype);
  if (s == GSP_OK) {
    /* Pass 1: every part counts its arcs' tails. */
    j.place = 0;
    gen_run(j.parts, threads, rmat_part, &j);
    /* Offsets, and every part's first position per tail: after the arcs of
     * that tail in earlier chunks, so that each tail's arcs keep the order
     * in which they were drawn, whatever the number of parts. */
    x.j = &j;
    x.step = 1 << 16;
    out->offsets[0] = 0;
    gen_run((n + x.step - 1) / x.step, threads, rmat_degrees, &x);
    for (u = 0; u < n; u++) out->offsets[u + 1] += out->offsets[u];
    gen_run((n + x.step - 1) / x.step, threads, rmat_positions, &x);
    /* Pass 2: the same arcs again, placed. */
    j.place = 1;
    gen_run(j.parts, threads, rmat_part, &j);
  }
  if (j.cursor != NULL) {
    for (p = 0; p < j.parts; p++) free(j.cursor[p]);
    free(j.cursor);
  }
  if (s != GSP_OK) gsp_gen_csr_free(out);
  return s;
}

gsp_status gsp_gen_rmat(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight) {
  gsp_gen_csr c;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  s = gsp_gen_rmat_csr(&c, n, degree, seed, dtype, max_weight);
  return csr_finish(s, &c, graph);
}

void gsp_gen_grid_shape(int32_t n, int32_t* rows, int32_t* cols) {
  int32_t r = 1;
  if (n < 1) n = 1;
  while ((int64_t)r * r < n) r++;
  *rows = r;
  *cols = (int32_t)((n + r - 1) / r);
}

gsp_status gsp_gen_grid(gsp_graph** graph, int32_t rows, int32_t cols, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x4752494400000003ull};
  int32_t i, j;
  gsp_status s;
  s = check_lattice(graph, rows, cols, dtype);
  if (s != GSP_OK) return s;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)rows * cols * 4 + 1);
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      int32_t v = i * cols + j;
      if (j + 1 < cols) {
        int32_t w = random_weight(&r, max_weight);
        push_arc(&a, v, v + 1, w);
        push_arc(&a, v + 1, v, w);
      }
      if (i + 1 < rows) {
        int32_t w = random_weight(&r, max_weight);
        push_arc(&a, v, v + cols, w);
        push_arc(&a, v + cols, v, w);
      }
    }
  }
  return finish(&a, graph, rows * cols, dtype);
}

/* ------------------------------------------------------------ road */

/* Every 8th row and column an arterial, every 64th a highway. */
#define ROAD_ARTERIAL 8
#define ROAD_HIGHWAY 64

/* The travel time of a segment of `length` on road `line` (a row or a
 * column): the length, a third of it or a tenth of it, rounded, >= 1. */
static int32_t road_time(int32_t line, int32_t length) {
  int64_t t = length;
  if (line % ROAD_HIGHWAY == 0) {
    t = ((int64_t)length + 5) / 10;
  } else if (line % ROAD_ARTERIAL == 0) {
    t = ((int64_t)length + 1) / 3;
  }
  return t < 1 ? 1 : (int32_t)t;
}

static int32_t road_find(int32_t* parent, int32_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]]; /* path halving */
    v = parent[v];
  }
  return v;
}

/* Joins the sets of u and v; 0 when they were one already. */
static int road_union(int32_t* parent, int32_t u, int32_t v) {
  u = road_find(parent, u);
  v = road_find(parent, v);
  if (u == v) return 0;
  if (u < v) {
    parent[v] = u;
  } else {
    parent[u] = v;
  }
  return 1;
}

gsp_status gsp_gen_road(gsp_graph** graph, int32_t rows, int32_t cols, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x524F414400000007ull};
  int32_t i, j, n, lo;
  int32_t* seg;    /* 2 per vertex: its segment right, then down; > 0 kept, < 0 dropped, 0 none */
  int32_t* parent; /* union-find over the kept segments */
  gsp_status s;
  s = check_lattice(graph, rows, cols, dtype);
  if (s != GSP_OK) return s;
  n = rows * cols;
  max_weight = MAXW(max_weight);
  lo = max_weight / 2 < 1 ? 1 : max_weight / 2;
  seg = (int32_t*)calloc((size_t)n * 2, sizeof(int32_t));
  parent = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  if (seg == NULL || parent == NULL) {
    gen_error("gsp_gen_road: %d vertices: no memory for the segments (%llu bytes)", n, (unsigned long long)n * 12u);
    free(seg);
    free(parent);
    return GSP_ERR_OUT_OF_MEMORY;
  }
  /* The segments, row-major, right then down: a length each, then, on a
   * local street, whether it is dropped (1 in 10). */
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      const int32_t v = i * cols + j;
      if (j + 1 < cols) {
        const int32_t t = road_time(i, (int32_t)(lo + gen_below(&r, (int64_t)max_weight - lo + 1)));
        seg[2 * (int64_t)v] = i % ROAD_ARTERIAL != 0 && gen_below(&r, 10) == 0 ? -t : t;
      }
      if (i + 1 < rows) {
        const int32_t t = road_time(j, (int32_t)(lo + gen_below(&r, (int64_t)max_weight - lo + 1)));
        seg[2 * (int64_t)v + 1] = j % ROAD_ARTERIAL != 0 && gen_below(&r, 10) == 0 ? -t : t;
      }
    }
  }
  /* Connected: the kept segments' components, then every dropped segment
   * between two of them put back (Kruskal's rule: the full lattice is
   * connected, so the kept and put-back segments are too). */
  for (i = 0; i < n; i++) parent[i] = i;
  for (i = 0; i < n; i++) {
    if (seg[2 * (int64_t)i] > 0) road_union(parent, i, i + 1);
    if (seg[2 * (int64_t)i + 1] > 0) road_union(parent, i, i + cols);
  }
  for (i = 0; i < n; i++) {
    if (seg[2 * (int64_t)i] < 0 && road_union(parent, i, i + 1)) seg[2 * (int64_t)i] = -seg[2 * (int64_t)i];
    if (seg[2 * (int64_t)i + 1] < 0 && road_union(parent, i, i + cols))
      seg[2 * (int64_t)i + 1] = -seg[2 * (int64_t)i + 1];
  }
  free(parent);
  arcs_reserve(&a, (int64_t)n * 4 + 1);
  for (i = 0; i < n; i++) {
    const int32_t w_right = seg[2 * (int64_t)i], w_down = seg[2 * (int64_t)i + 1];
    if (w_right > 0) {
      push_arc(&a, i, i + 1, w_right);
      push_arc(&a, i + 1, i, w_right);
    }
    if (w_down > 0) {
      push_arc(&a, i, i + cols, w_down);
      push_arc(&a, i + cols, i, w_down);
    }
  }
  free(seg);
  if (a.failed) gen_error("gsp_gen_road: %d vertices: no memory for the arc list", n);
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_ring(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x52494E4700000004ull};
  int32_t u;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)n + 1);
  for (u = 0; u < n; u++) push_arc(&a, u, (int32_t)((u + 1) % n), random_weight(&r, max_weight));
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_complete(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype, int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x434F4D5000000005ull};
  int32_t u, v;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (n > 46341) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  arcs_reserve(&a, (int64_t)n * (n - 1) + 1);
  for (u = 0; u < n; u++)
    for (v = 0; v < n; v++)
      if (u != v) push_arc(&a, u, v, random_weight(&r, max_weight));
  return finish(&a, graph, n, dtype);
}

gsp_status gsp_gen_dag(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                       int32_t max_weight) {
  gen_arcs a = {0, 0, NULL, NULL, NULL, 0};
  gen_rng r = {seed ^ 0x4441470000000006ull};
  int32_t u, j;
  int64_t lo, span;
  gsp_status s = check(graph, n, dtype);
  if (s != GSP_OK) return s;
  if (degree < 0) return GSP_ERR_INVALID_ARGUMENT;
  max_weight = MAXW(max_weight);
  lo = -(int64_t)(max_weight / 2);
  span = (int64_t)max_weight - lo + 1;
  arcs_reserve(&a, (int64_t)n * degree + 1);
  for (u = 0; u < n; u++) {
    for (j = 0; j < degree; j++) {
      int64_t v = (int64_t)u + 1 + gen_below(&r, 2 * (int64_t)degree);
      int32_t w = (int32_t)(lo + gen_below(&r, span));
      if (v < n) push_arc(&a, u, (int32_t)v, w);
    }
  }
  return finish(&a, graph, n, dtype);
}

const char* gsp_gen_kinds(void) { return "random rmat grid road ring complete dag"; }

gsp_status gsp_gen_by_name(gsp_graph** graph, const char* kind, int32_t n, int32_t degree, uint64_t seed,
                           gsp_dtype dtype, int32_t max_weight) {
  if (graph) *graph = NULL;
  if (kind == NULL || graph == NULL) return GSP_ERR_INVALID_ARGUMENT;
  if (strcmp(kind, "random") == 0) return gsp_gen_random(graph, n, degree > 0 ? degree : 6, seed, dtype, max_weight);
  if (strcmp(kind, "rmat") == 0) return gsp_gen_rmat(graph, n, degree > 0 ? degree : 6, seed, dtype, max_weight);
  if (strcmp(kind, "grid") == 0) {
    int32_t rows, cols;
    if (n < 1) return GSP_ERR_INVALID_ARGUMENT;
    gsp_gen_grid_shape(n, &rows, &cols);
    return gsp_gen_grid(graph, rows, cols, seed, dtype, max_weight);
  }
  if (strcmp(kind, "road") == 0) {
    int32_t rows, cols;
    if (n < 1) return GSP_ERR_INVALID_ARGUMENT;
    gsp_gen_grid_shape(n, &rows, &cols);
    return gsp_gen_road(graph, rows, cols, seed, dtype, max_weight);
  }
  if (strcmp(kind, "ring") == 0) return gsp_gen_ring(graph, n, seed, dtype, max_weight);
  if (strcmp(kind, "complete") == 0) return gsp_gen_complete(graph, n, seed, dtype, max_weight);
  if (strcmp(kind, "dag") == 0) return gsp_gen_dag(graph, n, degree > 0 ? degree : 3, seed, dtype, max_weight);
  return GSP_ERR_INVALID_ARGUMENT;
}
