/* Graph generators and DIMACS coordinate files for the gsp command, the tests,
 * the demo and the benchmarks. Not part of libgsp's ABI: a small static
 * library (gsp_tools) built on the public API only. C99.
 *
 * Every generator is deterministic: the same arguments and seed give the same
 * graph, on every platform. Weights are random integers in [1, max_weight]
 * (the DAG: in [-max_weight/2, max_weight]; the road graph: travel times,
 * see gsp_gen_road), stored as int32_t for GSP_I32 and
 * as the same integral values in float for GSP_F32 and in double for GSP_F64,
 * so the weight types of one seed describe the same graph (float holds
 * integers exactly up to 2^24). max_weight <= 0 means 100.
 *
 * Each returns GSP_OK with *graph set, or a status with *graph NULL
 * (GSP_ERR_INVALID_ARGUMENT for bad arguments, gsp_gen_error() saying
 * which; GSP_ERR_OUT_OF_MEMORY: from libgsp, gsp_last_error() says why;
 * from a generator's own arrays, gsp_gen_error() does).
 *
 * random and rmat run on several threads (GSP_GEN_THREADS, default every
 * online CPU, at most 64) and give the same graph on any number of them
 * (R-MAT draws every arc twice, one quadrant draw a level: 2^20 vertices
 * x 16 arcs took 0.2 us an arc on one core of a 2-core Xeon VM, so 2.4e9
 * arcs want many cores). They build CSR arrays and pass them to gsp_graph_create_csr (no
 * arc list): their peak is two CSRs, 2 (8 n + (4 + w) m) bytes (w: the
 * weight's bytes), plus R-MAT's tail counts (8 n per thread, at most 8 m),
 * freed before the copy. Their *_csr forms below give the arrays
 * themselves. */
#ifndef GSP_TOOLS_GENERATORS_H
#define GSP_TOOLS_GENERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "gsp/gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n vertices, each with `degree` out-arcs to uniformly random other vertices
 * (the seed papers' Graph4096 / Graph65536 use degree 6). One random stream
 * per 65536 vertices: graphs of up to 65536 vertices are those of the
 * earlier sequential generator. */
gsp_status gsp_gen_random(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                          int32_t max_weight);

/* R-MAT power-law graph (a, b, c, d = 0.57, 0.19, 0.19, 0.05): n * degree arcs
 * whose endpoints are drawn over the next power of two >= n, redrawn when >= n;
 * each tail's arcs in the order drawn. One random stream per 2^20 arcs:
 * graphs of up to 2^20 arcs are those of the earlier sequential generator. */
gsp_status gsp_gen_rmat(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight);

/* A generated graph as CSR arrays (what gsp_gen_random and gsp_gen_rmat
 * hand to gsp_graph_create_csr): offsets n + 1 values, targets and weights
 * m each, weights of dtype. Free with gsp_gen_csr_free(). */
typedef struct gsp_gen_csr {
  int32_t n;
  int64_t m;
  int64_t* offsets;
  int32_t* targets;
  void* weights;
  gsp_dtype dtype;
} gsp_gen_csr;

/* The arrays of gsp_gen_random / gsp_gen_rmat with the same arguments, in
 * *out (zeroed on failure). */
gsp_status gsp_gen_random_csr(gsp_gen_csr* out, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                              int32_t max_weight);
gsp_status gsp_gen_rmat_csr(gsp_gen_csr* out, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                            int32_t max_weight);

/* gsp_graph_create_csr on the arrays (which stay the caller's). */
gsp_status gsp_gen_csr_graph(gsp_graph** graph, const gsp_gen_csr* csr);

/* Frees the arrays and zeroes *csr; NULL is a no-op. */
void gsp_gen_csr_free(gsp_gen_csr* csr);

/* Why the last generator call refused its arguments or ran out of memory
 * before libgsp saw the graph ("" otherwise); not thread-safe. */
const char* gsp_gen_error(void);

/* rows x cols 4-neighbour grid, road-like: every street is two arcs with the
 * same random weight. Vertex (r, c) is r * cols + c. */
gsp_status gsp_gen_grid(gsp_graph** graph, int32_t rows, int32_t cols, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight);

/* The grid shape gsp_gen_by_name("grid", n) and ("road", n) use:
 * rows = ceil(sqrt(n)), cols = ceil(n / rows), so rows * cols >= n. */
void gsp_gen_grid_shape(int32_t n, int32_t* rows, int32_t* cols);

/* A road-like graph with a hierarchy of fast roads, for the road index's
 * benchmarks (issue 34): real road networks owe their contraction
 * hierarchies' speed to shortest paths that climb onto faster roads, which
 * a uniform grid (gsp_gen_grid) lacks. A rows x cols lattice of
 * intersections, vertex (r, c) being r * cols + c, joined to its
 * 4-neighbours by two-way segments (two arcs of the same weight). A
 * segment's class is its road's: row r for a segment along a row, column c
 * along a column. Every 8th row and column (0, 8, 16, ...) is an arterial,
 * every 64th (0, 64, ...) a highway; the rest are local streets. Each
 * segment has a random length in [max(1, max_weight / 2), max_weight], and
 * its weight is its travel time: the length on a local street, a third of
 * it on an arterial, a tenth on a highway (rounded, at least 1). About one
 * local street segment in 10 is dropped (dead ends, irregular blocks), but
 * the graph stays connected: arterials and highways are never dropped, and
 * a dropped segment is put back when its two ends would otherwise be
 * apart (union-find, in row-major order). Deterministic per seed;
 * GSP_ERR_INVALID_ARGUMENT for rows or cols < 1, rows * cols > INT32_MAX or
 * another dtype, as gsp_gen_grid. */
gsp_status gsp_gen_road(gsp_graph** graph, int32_t rows, int32_t cols, uint64_t seed, gsp_dtype dtype,
                        int32_t max_weight);

/* Directed ring 0 -> 1 -> ... -> n-1 -> 0. */
gsp_status gsp_gen_ring(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype, int32_t max_weight);

/* Every arc (u, v), u != v: n * (n - 1) arcs; n <= 46341. */
gsp_status gsp_gen_complete(gsp_graph** graph, int32_t n, uint64_t seed, gsp_dtype dtype, int32_t max_weight);

/* DAG with negative arcs: each u gets `degree` arcs to u+1 .. u+2*degree
 * (when < n), weights in [-max_weight/2, max_weight]; no negative cycle. */
gsp_status gsp_gen_dag(gsp_graph** graph, int32_t n, int32_t degree, uint64_t seed, gsp_dtype dtype,
                       int32_t max_weight);

/* By name: "random", "rmat", "grid", "road", "ring", "complete", "dag" (grid
 * and road of gsp_gen_grid_shape(n)). degree <= 0 means 6 (random, rmat) or
 * 3 (dag); ignored by the others. An unknown name gives
 * GSP_ERR_INVALID_ARGUMENT. */
gsp_status gsp_gen_by_name(gsp_graph** graph, const char* kind, int32_t n, int32_t degree, uint64_t seed,
                           gsp_dtype dtype, int32_t max_weight);

/* The names gsp_gen_by_name() knows, space-separated. */
const char* gsp_gen_kinds(void);

/* ------------------------------------------------------------ coordinates */

/* Reads a DIMACS coordinate file (.co, or .co.gz): "c" comments, a
 * "p aux sp co N" line, then "v ID X Y" lines with 1-based ids. Fills
 * *xy with 2 * num_vertices doubles (x, y per vertex; NaN where a vertex has
 * no line), to be freed with free(). Returns 0, or -1 with a message
 * ("FILE:LINE: expected ..., got ...") in err. */
int gsp_coords_read(const char* path, int32_t num_vertices, double** xy, char* err, size_t err_size);

/* Writes a DIMACS coordinate file for num_vertices (x, y) pairs. Returns 0,
 * or -1 with a message in err. */
int gsp_coords_write(const char* path, int32_t num_vertices, const double* xy, char* err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
