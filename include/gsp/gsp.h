/**
 * @file gsp.h
 * @brief libgsp: shortest paths on CPUs and NVIDIA GPUs behind a stable C ABI.
 *
 * The one header users include, `#include <gsp/gsp.h>`, for the whole C API;
 * its sections "algorithms", "options", "tables", "devices", "searches" and
 * "road indexes" live in gsp_algorithms.h, gsp_options.h, gsp_table.h,
 * gsp_device.h, gsp_search.h and gsp_index.h, which it includes at its end. It compiles as C99 and as C++, includes no
 * system header but <stddef.h> and <stdint.h>, and is, with those parts, its own manual.
 *
 * Conventions (see doc/conventions.md):
 * - Every function that can fail returns a ::gsp_status; outputs go through
 *   pointer arguments, the handle being created comes first.
 * - Handles (::gsp_graph, ::gsp_paths) are opaque and owned by the library;
 *   each has one destroy function, which accepts NULL.
 * - On failure the calling thread's gsp_last_error() describes the problem.
 * - The library copies every caller array it is given: callers may free them
 *   as soon as a call returns.
 * - No C++ exception, abort() or exit() ever leaves the library.
 *
 * Threads (see doc/threading.md): a ::gsp_graph is immutable after creation
 * and may be used by any number of threads at once; a ::gsp_paths or a
 * ::gsp_table may be read by many threads at once. A ::gsp_paths keeps what it
 * needs of its graph alive, and a ::gsp_table needs nothing of it, so handles
 * may be destroyed in any order.
 */
#ifndef GSP_GSP_H
#define GSP_GSP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Marks exported symbols. Everything else in libgsp is hidden. */
#if defined(_WIN32)
#define GSP_API
#elif defined(__GNUC__)
#define GSP_API __attribute__((visibility("default")))
#else
#define GSP_API
#endif

/** @brief Major version of this header. */
#define GSP_VERSION_MAJOR 0
/** @brief Minor version of this header. */
#define GSP_VERSION_MINOR 1
/** @brief Patch version of this header. */
#define GSP_VERSION_PATCH 0
/** @brief The version of this header as one number: (major << 16) | (minor << 8) | patch. */
#define GSP_VERSION ((GSP_VERSION_MAJOR << 16) | (GSP_VERSION_MINOR << 8) | GSP_VERSION_PATCH)

/**
 * @brief The version of the linked library, encoded as ::GSP_VERSION.
 *
 * Compare with ::GSP_VERSION to detect a header/library mismatch.
 * @return (major << 16) | (minor << 8) | patch.
 */
GSP_API uint32_t gsp_version(void);

/**
 * @brief The list of status codes: X(name, value, description).
 *
 * One list generates ::gsp_status, gsp_status_name() and the constants of
 * every language binding. Values are explicit and never reused.
 */
#define GSP_STATUS_LIST(X)                                                                    \
  X(GSP_OK, 0, "success")                                                                     \
  X(GSP_ERR_INVALID_ARGUMENT, 1, "NULL where a pointer is needed, bad id or option value")    \
  X(GSP_ERR_INVALID_GRAPH, 2, "vertex id out of range, NaN/inf weight, inconsistent CSR")     \
  X(GSP_ERR_NEGATIVE_WEIGHT, 3, "the chosen algorithm needs non-negative weights")            \
  X(GSP_ERR_NEGATIVE_CYCLE, 4, "a negative cycle is reachable")                               \
  X(GSP_ERR_OVERFLOW, 5, "a distance would not fit in its type")                              \
  X(GSP_ERR_NO_PATH, 6, "the target is not reachable from the source")                        \
  X(GSP_ERR_BUFFER_TOO_SMALL, 7, "the caller's buffer is too small")                          \
  X(GSP_ERR_OUT_OF_MEMORY, 8, "host memory exhausted")                                        \
  X(GSP_ERR_DEVICE_OUT_OF_MEMORY, 9, "device memory exhausted or over the set limit")         \
  X(GSP_ERR_NO_DEVICE, 10, "CUDA was requested but is not usable")                            \
  X(GSP_ERR_DEVICE, 11, "a CUDA call failed")                                                 \
  X(GSP_ERR_UNSUPPORTED, 12, "this algorithm/backend/weight type combination is not offered") \
  X(GSP_ERR_IO, 13, "a file could not be opened, read or written")                            \
  X(GSP_ERR_PARSE, 14, "a file's contents are malformed")                                     \
  X(GSP_ERR_CANCELLED, 15, "the progress callback asked to stop")                             \
  X(GSP_ERR_INTERNAL, 16, "a bug in libgsp")

/** @cond GSP_INTERNAL */
#define GSP_STATUS_ENUM_ITEM_(name, value, text) name = value,
/** @endcond */

/**
 * @brief Result of every fallible call. GSP_OK is 0; the rest are failures.
 *
 * - GSP_OK: success.
 * - GSP_ERR_INVALID_ARGUMENT: NULL where a pointer is needed, bad id or option value.
 * - GSP_ERR_INVALID_GRAPH: vertex id out of range, NaN/inf weight, inconsistent CSR.
 * - GSP_ERR_NEGATIVE_WEIGHT: the chosen algorithm needs non-negative weights.
 * - GSP_ERR_NEGATIVE_CYCLE: a negative cycle is reachable from a source.
 * - GSP_ERR_OVERFLOW: a distance would not fit in its type: beyond int32's range
 *   (::GSP_I32), or beyond FLT_MAX / DBL_MAX in magnitude (::GSP_F32: e.g. two
 *   arcs of 3e38; ::GSP_F64). Every engine of both backends answers it, naming the source and
 *   the vertex (and the arc where known); a reachable target is never
 *   reported as unreachable. Sums that overflow on the way but decide no
 *   distance (a shorter path exists) are harmless.
 * - GSP_ERR_NO_PATH: the target is unreachable.
 * - GSP_ERR_BUFFER_TOO_SMALL: the caller's buffer is too small.
 * - GSP_ERR_OUT_OF_MEMORY: host memory exhausted. Calls whose memory grows with
 *   n, m or n^2 (graph creation and loading, results, CPU engines) check
 *   their need first against what the process can have (available memory
 *   and swap, the cgroup limit, RLIMIT_AS): an impossible size is refused at
 *   once, touching nothing, with the bytes needed and available in the
 *   message.
 * - GSP_ERR_DEVICE_OUT_OF_MEMORY: device memory exhausted or over the limit.
 * - GSP_ERR_NO_DEVICE: CUDA requested but not usable; the message says why.
 * - GSP_ERR_DEVICE: any other CUDA failure; the message carries CUDA's text.
 * - GSP_ERR_UNSUPPORTED: algorithm/backend/weight type combination not offered.
 * - GSP_ERR_IO: a file could not be opened, read or written.
 * - GSP_ERR_PARSE: malformed file; the message names file, line and what was expected.
 * - GSP_ERR_CANCELLED: a progress callback asked to stop.
 * - GSP_ERR_INTERNAL: a bug in libgsp; please report it.
 */
typedef enum gsp_status { GSP_STATUS_LIST(GSP_STATUS_ENUM_ITEM_) GSP_STATUS_END_ } gsp_status;

/**
 * @brief The enum name of a status, e.g. "GSP_ERR_NO_PATH".
 * @param status any value; unknown values give "GSP_ERR_UNKNOWN".
 * @return a static string, never NULL.
 */
GSP_API const char* gsp_status_name(gsp_status status);

/**
 * @brief Detail of the calling thread's most recent failure.
 *
 * Thread-local: each thread sees only its own calls. A successful call does
 * not clear it.
 * @return a string valid until this thread's next libgsp call; "" if none; never NULL.
 */
GSP_API const char* gsp_last_error(void);

/* ------------------------------------------------------------------ graphs */

/**
 * @brief Weight (and distance) type of a graph.
 *
 * Float distances are sums in float, in whatever order an engine adds. The
 * distance d reported for a vertex and the exact sum of the reported path's
 * k arcs differ by at most k * 2^-22 * S, S the sum of |w| over the path,
 * and d is within twice that (k and S of the longer path) of the exact
 * shortest distance. GSP_ERR_NEGATIVE_CYCLE is answered only on evidence:
 * a negative diagonal entry (matrix engines) or a label improved along a
 * walk of n arcs (Bellman-Ford and SpMV), exact for int32; for float, a
 * verdict is confirmed by Bellman-Ford in float64, so that a cycle whose
 * weights sum to zero or a little above (1e-3 + 1e6 - 1e6, which float can
 * evaluate below zero) is not called negative. Graphs without negative
 * weights never are.
 */
typedef enum gsp_dtype {
  GSP_F32 = 1, /**< float weights; unreachable distance is +INFINITY */
  GSP_I32 = 2, /**< int32_t weights; unreachable distance is ::GSP_I32_INF */
  GSP_F64 = 3  /**< double weights (float's rules with 2^-51 for 2^-22); unreachable is +INFINITY */
} gsp_dtype;

/** @brief The distance of an unreachable vertex in a ::GSP_I32 graph. */
#define GSP_I32_INF INT32_MAX

/** @brief Graph creation flags. */
enum gsp_graph_flags {
  GSP_GRAPH_UNDIRECTED = 1u << 0 /**< also add (v,u) for every arc (u,v) given */
};

/** @brief File formats for gsp_graph_load() and gsp_graph_save(). */
typedef enum gsp_format {
  GSP_FORMAT_AUTO = 0,          /**< by extension: .gr/.gr.gz, .mtx/.mtx.gz, anything else edge list */
  GSP_FORMAT_DIMACS = 1,        /**< DIMACS shortest-path (.gr): "p sp n m", "a u v w", 1-based */
  GSP_FORMAT_MATRIX_MARKET = 2, /**< Matrix Market coordinate (.mtx), 1-based */
  GSP_FORMAT_EDGE_LIST = 3      /**< "u v [w]" lines, 0-based, '#' comments */
} gsp_format;

/** @brief An immutable weighted directed graph in CSR form. Opaque. */
typedef struct gsp_graph gsp_graph;

/**
 * @brief Create a graph from an arc list (COO).
 *
 * Arcs keep their order within each source vertex. Self-loops and parallel
 * arcs are allowed.
 * @param graph out: the new graph; set to NULL on failure.
 * @param num_vertices n >= 1.
 * @param num_edges m >= 0 arcs given (doubled internally with ::GSP_GRAPH_UNDIRECTED).
 * @param sources m tail ids in [0, n); may be NULL when m == 0.
 * @param targets m head ids in [0, n); may be NULL when m == 0.
 * @param weights m values of @p weight_type, finite; NULL means every weight is 1.
 * @param weight_type ::GSP_F32, ::GSP_I32 or ::GSP_F64.
 * @param flags 0 or ::GSP_GRAPH_UNDIRECTED.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_INVALID_GRAPH or GSP_ERR_OUT_OF_MEMORY.
 */
GSP_API gsp_status gsp_graph_create(gsp_graph** graph, int32_t num_vertices, int64_t num_edges, const int32_t* sources,
                                    const int32_t* targets, const void* weights, gsp_dtype weight_type, uint32_t flags);

/**
 * @brief Create a graph from CSR arrays.
 * @param graph out: the new graph; set to NULL on failure.
 * @param num_vertices n >= 1.
 * @param offsets n+1 non-decreasing offsets, offsets[0] == 0; offsets[n] is the arc count.
 * @param targets offsets[n] head ids in [0, n); may be NULL when offsets[n] == 0.
 * @param weights offsets[n] values of @p weight_type; NULL means every weight is 1.
 * @param weight_type ::GSP_F32, ::GSP_I32 or ::GSP_F64.
 * @param flags 0 or ::GSP_GRAPH_UNDIRECTED.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_INVALID_GRAPH or GSP_ERR_OUT_OF_MEMORY.
 */
GSP_API gsp_status gsp_graph_create_csr(gsp_graph** graph, int32_t num_vertices, const int64_t* offsets,
                                        const int32_t* targets, const void* weights, gsp_dtype weight_type,
                                        uint32_t flags);

/**
 * @brief Load a graph from a file.
 *
 * DIMACS and Matrix Market ids are 1-based in the file and 0-based in the
 * graph. Files ending in ".gz" are decompressed on the fly.
 * @param graph out: the new graph; NULL on failure (a failed load leaves nothing behind).
 * @param path file name.
 * @param format a ::gsp_format; ::GSP_FORMAT_AUTO chooses by extension.
 * @param weight_type ::GSP_F32, ::GSP_I32 or ::GSP_F64; weights not representable fail to parse.
 * @param flags 0 or ::GSP_GRAPH_UNDIRECTED.
 * @return GSP_OK, GSP_ERR_IO (with the OS's reason), GSP_ERR_PARSE (file:line: what was
 *         expected), GSP_ERR_INVALID_ARGUMENT, GSP_ERR_OUT_OF_MEMORY.
 */
GSP_API gsp_status gsp_graph_load(gsp_graph** graph, const char* path, gsp_format format, gsp_dtype weight_type,
                                  uint32_t flags);

/**
 * @brief Write a graph to a file (uncompressed).
 * @param graph the graph.
 * @param path file name.
 * @param format a ::gsp_format; ::GSP_FORMAT_AUTO chooses by extension.
 * @return GSP_OK, GSP_ERR_IO or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_graph_save(const gsp_graph* graph, const char* path, gsp_format format);

/**
 * @brief Destroy a graph. NULL is a no-op.
 *
 * Results computed on the graph stay valid.
 * @param graph the graph, or NULL.
 */
GSP_API void gsp_graph_destroy(gsp_graph* graph);

/**
 * @brief Number of vertices.
 * @param graph the graph.
 * @return n, or -1 if @p graph is NULL.
 */
GSP_API int32_t gsp_graph_num_vertices(const gsp_graph* graph);

/**
 * @brief Number of arcs (after ::GSP_GRAPH_UNDIRECTED doubling).
 * @param graph the graph.
 * @return m, or -1 if @p graph is NULL.
 */
GSP_API int64_t gsp_graph_num_edges(const gsp_graph* graph);

/**
 * @brief Weight type of the graph.
 * @param graph the graph.
 * @return ::GSP_F32, ::GSP_I32 or ::GSP_F64; 0 if @p graph is NULL.
 */
GSP_API gsp_dtype gsp_graph_weight_type(const gsp_graph* graph);

/**
 * @brief Copy the graph's CSR arrays out.
 *
 * Any output pointer may be NULL to skip it.
 * @param graph the graph.
 * @param offsets out: n+1 offsets.
 * @param targets out: m heads.
 * @param weights out: m weights of the graph's weight type.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_graph_csr(const gsp_graph* graph, int64_t* offsets, int32_t* targets, void* weights);

/* ----------------------------------------------------------------- running */

/** @brief Where an engine runs. */
typedef enum gsp_backend {
  GSP_BACKEND_AUTO = 0, /**< CUDA when a device is usable and the algorithm has a CUDA engine, else CPU;
                             until a CUDA run has started the device in this process, a job the CPU is
                             expected to finish within CUDA's start-up (0.35 s), counting the CPU
                             time earlier such jobs took, runs on the CPU */
  GSP_BACKEND_CPU = 1,  /**< the CPU engines */
  GSP_BACKEND_CUDA = 2  /**< the CUDA engines; GSP_ERR_NO_DEVICE when none is usable */
} gsp_backend;

/**
 * @brief The table of algorithms, one row each:
 * X(name, value, cli_name, kind, any_w, cpu, cuda, text).
 *
 * The one place libgsp states what an algorithm is. @p name is the
 * ::gsp_algorithm enumerator, @p value its value (explicit, never reused; a
 * new algorithm is appended), @p cli_name the name of gsp_algorithm_name(),
 * gsp_algorithm_from_name() and the CLI; @p kind a ::gsp_kind enumerator
 * (GSP_KIND_SSSP: gsp_sssp_run(); GSP_KIND_APSP: gsp_apsp_run(),
 * gsp_apsp_stream(), gsp_table_run(); GSP_KIND_INDEX: runs that answer from
 * a road index); @p any_w 1 when it accepts negative weights (0: "w >= 0",
 * others answer GSP_ERR_NEGATIVE_WEIGHT); @p cpu and @p cuda 1 when that
 * backend has an engine for it (CUDA: in builds with CUDA); @p text what it
 * does. The enum, the names, the library's dispatch checks and the
 * bindings' constants and kind lists are all made from it, and
 * gsp_algorithm_kind(), gsp_algorithm_accepts_negative_weights() and
 * gsp_algorithm_has_engine() (gsp_algorithms.h) answer from it at run time.
 * See doc/algorithms.md for which to choose.
 */
#define GSP_ALGORITHM_TABLE(X) GSP_ALGORITHM_ROWS_(GSP_ALGORITHM_TABLE_ROW_, X)

/** @cond GSP_INTERNAL */
/* The rows, each R(X, row...): GSP_ALGORITHM_TABLE and GSP_ALGORITHM_LIST
 * read them with their own R. clang-format off: one row a line. */
/* clang-format off */
#define GSP_ALGORITHM_ROWS_(R, X) \
  R(X, GSP_ALGO_AUTO,           0, "auto",           GSP_KIND_AUTO,  1, 0, 0, "chosen from the graph, the backend and the call") \
  R(X, GSP_SSSP_DIJKSTRA,       1, "dijkstra",       GSP_KIND_SSSP,  0, 1, 0, "binary-heap Dijkstra") \
  R(X, GSP_SSSP_BELLMAN_FORD,   2, "bellman-ford",   GSP_KIND_SSSP,  1, 1, 1, "queue Bellman-Ford, negative-cycle check") \
  R(X, GSP_SSSP_DELTA_STEPPING, 3, "delta-stepping", GSP_KIND_SSSP,  0, 1, 1, "delta-stepping") \
  R(X, GSP_SSSP_ATOMIC_LOCK,    4, "atomic-lock",    GSP_KIND_SSSP,  0, 0, 1, "per-vertex lock relax/update") \
  R(X, GSP_SSSP_HARISH,         5, "harish",         GSP_KIND_SSSP,  0, 0, 1, "scatter/check then parent pass") \
  R(X, GSP_SSSP_SPMV_CSR,       6, "spmv-csr",       GSP_KIND_SSSP,  1, 0, 1, "min-plus SpMV Bellman-Ford, CSR") \
  R(X, GSP_SSSP_SPMV_ELL,       7, "spmv-ell",       GSP_KIND_SSSP,  1, 0, 1, "min-plus SpMV Bellman-Ford, ELL") \
  R(X, GSP_SSSP_GPU_DIJKSTRA,   8, "gpu-dijkstra",   GSP_KIND_SSSP,  0, 0, 1, "Dijkstra with parallel-reduction ExtractMin") \
  R(X, GSP_APSP_FLOYD_WARSHALL, 9, "floyd-warshall", GSP_KIND_APSP,  1, 1, 1, "blocked Floyd-Warshall, out-of-core on CUDA") \
  R(X, GSP_APSP_MINPLUS,       10, "minplus",        GSP_KIND_APSP,  1, 1, 1, "repeated min-plus squaring") \
  R(X, GSP_APSP_HEAP,          11, "heap",           GSP_KIND_APSP,  0, 1, 1, "one binary-heap Dijkstra per source") \
  R(X, GSP_APSP_TASK_PARALLEL, 12, "task-parallel",  GSP_KIND_APSP,  0, 0, 1, "N sources per launch") \
  R(X, GSP_APSP_JOHNSON,       13, "johnson",        GSP_KIND_APSP,  1, 1, 1, "Bellman-Ford reweighting then Dijkstra") \
  R(X, GSP_SSSP_ATOMIC_64,     14, "atomic64",       GSP_KIND_SSSP,  0, 0, 1, "lock-free (distance, parent) 64-bit atomic") \
  R(X, GSP_APSP_DELTA_STEPPING, 15, "batched-delta-stepping", GSP_KIND_APSP, 0, 1, 1, \
    "one delta-stepping search per source, many sources at once") \
  R(X, GSP_APSP_SPMM,          16, "spmm",           GSP_KIND_APSP,  0, 0, 1, "min-plus SpMM Bellman-Ford, a tile of sources per vertex") \
  R(X, GSP_CH,                 17, "ch",             GSP_KIND_INDEX, 0, 1, 1, "queries on a road index, gsp_options::index (gsp_index.h)")
/* clang-format on */
#define GSP_ALGORITHM_TABLE_ROW_(X, name, value, cli_name, kind, any_w, cpu, cuda, text) \
  X(name, value, cli_name, kind, any_w, cpu, cuda, text)
#define GSP_ALGORITHM_LIST_ROW_(X, name, value, cli_name, kind, any_w, cpu, cuda, text) \
  X(name, value, cli_name, GSP_ALGORITHM_SUMMARY_(kind, any_w, cpu, cuda, text))
/* A row's summary: "SSSP, w >= 0: binary-heap Dijkstra (CPU)". */
#define GSP_ALGORITHM_SUMMARY_(kind, any_w, cpu, cuda, text) \
  GSP_ALGO_SUMMARY_##kind##_(GSP_ALGO_WEIGHTS_##any_w##_, GSP_ALGO_BACKENDS_##cpu##cuda##_, text)
#define GSP_ALGO_SUMMARY_GSP_KIND_AUTO_(weights, backends, text) text
#define GSP_ALGO_SUMMARY_GSP_KIND_SSSP_(weights, backends, text) "SSSP, " weights ": " text " " backends
#define GSP_ALGO_SUMMARY_GSP_KIND_APSP_(weights, backends, text) "APSP, " weights ": " text " " backends
#define GSP_ALGO_SUMMARY_GSP_KIND_INDEX_(weights, backends, text) "Index, " weights ": " text " " backends
#define GSP_ALGO_WEIGHTS_0_ "w >= 0"
#define GSP_ALGO_WEIGHTS_1_ "any w"
#define GSP_ALGO_BACKENDS_00_ "(no engine)"
#define GSP_ALGO_BACKENDS_10_ "(CPU)"
#define GSP_ALGO_BACKENDS_01_ "(CUDA)"
#define GSP_ALGO_BACKENDS_11_ "(CPU, CUDA)"
/** @endcond */

/**
 * @brief The algorithms as X(name, value, cli_name, summary), from ::GSP_ALGORITHM_TABLE:
 * the summary is made from the row, e.g. "SSSP, w >= 0: binary-heap Dijkstra (CPU)".
 */
#define GSP_ALGORITHM_LIST(X) GSP_ALGORITHM_ROWS_(GSP_ALGORITHM_LIST_ROW_, X)

/** @cond GSP_INTERNAL */
#define GSP_ALGORITHM_ENUM_ITEM_(name, value, cli_name, summary) name = value,
/** @endcond */

/** @brief Shortest-path algorithms: one enumerator per row of ::GSP_ALGORITHM_TABLE. */
typedef enum gsp_algorithm { GSP_ALGORITHM_LIST(GSP_ALGORITHM_ENUM_ITEM_) GSP_ALGORITHM_END_ } gsp_algorithm;

/** @brief Options for a run (gsp_options.h): fill with gsp_options_init() first. */
typedef struct gsp_options gsp_options;

/** @brief A road index of a graph (gsp_index.h). Opaque. */
typedef struct gsp_index gsp_index;

/** @brief Distances and predecessors for one or many sources. Opaque. */
typedef struct gsp_paths gsp_paths;

/**
 * @brief Single-source shortest paths.
 * @param graph the graph.
 * @param source source vertex in [0, n).
 * @param options NULL for defaults.
 * @param result out: the result, to be freed with gsp_paths_destroy(); NULL on failure.
 * @return GSP_OK or a failure status (GSP_ERR_NEGATIVE_WEIGHT, GSP_ERR_NEGATIVE_CYCLE,
 *         GSP_ERR_OVERFLOW, GSP_ERR_NO_DEVICE, GSP_ERR_UNSUPPORTED, ...).
 */
GSP_API gsp_status gsp_sssp_run(const gsp_graph* graph, int32_t source, const gsp_options* options, gsp_paths** result);

/**
 * @brief All-pairs (or many-sources) shortest paths.
 * @param graph the graph.
 * @param sources the source vertices, or NULL for all vertices in order.
 * @param num_sources number of entries in @p sources (ignored when it is NULL); >= 1.
 * @param options NULL for defaults.
 * @param result out: one row per source, in the given order; NULL on failure.
 * @return GSP_OK or a failure status.
 */
GSP_API gsp_status gsp_apsp_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                const gsp_options* options, gsp_paths** result);

/**
 * @brief Rows callback for gsp_apsp_stream().
 * @param user the pointer given to gsp_apsp_stream().
 * @param first_source_index index (into the sources list) of the first row.
 * @param num_rows rows in this block.
 * @param distances num_rows x n values of the graph's weight type, row-major.
 * @param predecessors num_rows x n predecessors, or NULL with ::GSP_NO_PATHS.
 * @return non-zero to stop, which fails the run with GSP_ERR_CANCELLED.
 */
typedef int (*gsp_rows_fn)(void* user, int32_t first_source_index, int32_t num_rows, const void* distances,
                           const int32_t* predecessors);

/**
 * @brief All-pairs shortest paths delivered in row blocks, in source order
 * (in any order with ::GSP_ROWS_ANY_ORDER in the options' flags).
 *
 * The whole matrix is never held (except by engines that need it, such as
 * Floyd-Warshall); the buffers passed to @p on_rows are valid only during the call.
 * @param graph the graph.
 * @param sources the sources, or NULL for all vertices.
 * @param num_sources entries in @p sources (ignored when NULL).
 * @param options NULL for defaults.
 * @param on_rows called for each block of rows, on the calling thread.
 * @param user passed to @p on_rows.
 * @return GSP_OK or a failure status.
 */
GSP_API gsp_status gsp_apsp_stream(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                   const gsp_options* options, gsp_rows_fn on_rows, void* user);

/**
 * @brief The backend and algorithm a run would use, without running it.
 *
 * Resolves GSP_ALGO_AUTO and ::GSP_BACKEND_AUTO as gsp_sssp_run() (@p sssp
 * non-zero) or gsp_apsp_run() / gsp_apsp_stream() with @p num_sources sources
 * would, with the same checks and failures (negative weights for an
 * algorithm that needs w >= 0, no engine on the backend, no device), so that
 * a streamed run, which returns no ::gsp_run_info, can still be reported.
 * One exception: a float run whose engine reports a negative cycle that
 * Bellman-Ford in float64 does not confirm is answered by the CPU engines
 * (see ::gsp_dtype), which only gsp_paths_info() of that run shows.
 * @param graph the graph.
 * @param sssp non-zero for a single-source run, 0 for all-pairs.
 * @param num_sources rows of the all-pairs run; 0 or less: every vertex.
 * @param options NULL for defaults.
 * @param backend out: ::GSP_BACKEND_CPU or ::GSP_BACKEND_CUDA.
 * @param algorithm out: the algorithm, never GSP_ALGO_AUTO.
 * @return GSP_OK or the failure the run would answer before it starts.
 */
GSP_API gsp_status gsp_run_plan(const gsp_graph* graph, int sssp, int32_t num_sources, const gsp_options* options,
                                gsp_backend* backend, gsp_algorithm* algorithm);

/* ----------------------------------------------------------------- results */

/**
 * @brief Number of sources (rows) in a result.
 * @param paths the result.
 * @return the count, or -1 if @p paths is NULL.
 */
GSP_API int32_t gsp_paths_num_sources(const gsp_paths* paths);

/**
 * @brief The source vertex of row @p index.
 * @param paths the result.
 * @param index row index in [0, gsp_paths_num_sources()).
 * @return the vertex id, or -1 if the arguments are out of range.
 */
GSP_API int32_t gsp_paths_source(const gsp_paths* paths, int32_t index);

/**
 * @brief Copy the distances from @p source to every vertex.
 * @param paths the result.
 * @param source a source vertex of the result (a vertex id, not a row index).
 * @param out n values of the graph's weight type.
 * @param capacity number of values @p out holds; must be >= n.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT (not a source of this result),
 *         GSP_ERR_BUFFER_TOO_SMALL.
 */
GSP_API gsp_status gsp_paths_distances(const gsp_paths* paths, int32_t source, void* out, int64_t capacity);

/**
 * @brief One distance.
 * @param paths the result.
 * @param source a source vertex of the result.
 * @param target any vertex.
 * @param out one value of the graph's weight type (+INFINITY or ::GSP_I32_INF if unreachable).
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_paths_distance(const gsp_paths* paths, int32_t source, int32_t target, void* out);

/**
 * @brief Copy the predecessors from @p source (-1 for the source and unreachable vertices).
 * @param paths the result.
 * @param source a source vertex of the result.
 * @param out n ids.
 * @param capacity ids @p out holds; must be >= n.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_BUFFER_TOO_SMALL, or
 *         GSP_ERR_UNSUPPORTED when the run had ::GSP_NO_PATHS.
 */
GSP_API gsp_status gsp_paths_predecessors(const gsp_paths* paths, int32_t source, int32_t* out, int64_t capacity);

/**
 * @brief One shortest path, source to target inclusive.
 *
 * Call with @p vertices NULL to learn the length.
 * @param paths the result.
 * @param source a source vertex of the result.
 * @param target any vertex.
 * @param vertices out: the path's vertices, or NULL.
 * @param capacity entries @p vertices holds.
 * @param length out: the number of vertices on the path (also set with GSP_ERR_BUFFER_TOO_SMALL).
 * @return GSP_OK, GSP_ERR_NO_PATH (unreachable), GSP_ERR_BUFFER_TOO_SMALL,
 *         GSP_ERR_INVALID_ARGUMENT, GSP_ERR_UNSUPPORTED (run with ::GSP_NO_PATHS).
 */
GSP_API gsp_status gsp_path_get(const gsp_paths* paths, int32_t source, int32_t target, int32_t* vertices,
                                int32_t capacity, int32_t* length);

/** @brief What a run did. */
typedef struct gsp_run_info {
  uint32_t size;       /**< in: sizeof(gsp_run_info) as the caller knew it (0: this version's); out: bytes written */
  gsp_backend backend; /**< the backend that ran */
  gsp_algorithm algorithm; /**< the algorithm that ran */
  gsp_dtype weight_type;   /**< the distances' type */
  int32_t num_vertices;    /**< n */
  int32_t num_sources;     /**< rows */
  int32_t device;          /**< CUDA ordinal, or -1 on the CPU */
  char device_name[128];   /**< e.g. "NVIDIA H100 80GB HBM3" or "CPU (16 threads)" */
  double seconds;          /**< wall time of the engine, graph upload excluded */
  double upload_seconds;   /**< graph upload to the device (0 when cached or on the CPU) */
  int64_t iterations;      /**< engine-specific: rounds, phases or buckets */
  int64_t relaxations;     /**< arcs relaxed (engine count; 0 if not counted) */
  uint32_t has_paths;      /**< 1 if predecessors were computed */
  double setup_seconds;    /**< stage (0: not measured; stages are parts of seconds, doc/run-info.md): allocation,
                              initialisation */
  double compute_seconds;  /**< stage: the search or the matrix steps, with any copies they overlap */
  double copy_seconds;     /**< stage: results into host memory (device to host; CPU dense: matrix to rows) */
  double paths_seconds;    /**< stage: a separate predecessor pass or repair (0 when the search records them) */
  int32_t num_devices;     /**< CUDA devices the run used, @c device and the next ones (0 on the CPU) */
} gsp_run_info;

/**
 * @brief Describe what a run did.
 * @param paths the result.
 * @param info out; set info->size = sizeof(gsp_run_info) (or 0) before the call.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_paths_info(const gsp_paths* paths, gsp_run_info* info);

/**
 * @brief Destroy a result. NULL is a no-op.
 * @param paths the result, or NULL.
 */
GSP_API void gsp_paths_destroy(gsp_paths* paths);

/**
 * @brief All-pairs (or many-sources) shortest paths into the caller's arrays.
 *
 * The rows of gsp_apsp_run(), written straight into @p distances and
 * @p predecessors: no result object, and on CUDA the device copies rows
 * straight into them (page-locked memory, e.g. from cudaHostAlloc, is
 * written at full bus speed; ordinary memory works too). Row i holds the
 * distances from sources[i] (or from vertex i when @p sources is NULL).
 * On failure the arrays' contents are unspecified.
 * @param graph the graph.
 * @param sources the source vertices, or NULL for all vertices in order.
 * @param num_sources entries in @p sources (ignored when it is NULL); >= 1.
 * @param options NULL for defaults; ::GSP_NO_PATHS with non-NULL
 *        @p predecessors is GSP_ERR_INVALID_ARGUMENT.
 * @param distances out: rows x n values of the graph's weight type, row-major.
 * @param predecessors out: rows x n predecessors, or NULL to compute none.
 * @param info out, or NULL: what ran (set info->size first, as for gsp_paths_info()).
 * @return GSP_OK or a failure status.
 */
GSP_API gsp_status gsp_apsp_run_into(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                     const gsp_options* options, void* distances, int32_t* predecessors,
                                     gsp_run_info* info);

#ifdef __cplusplus
}
#endif

/* The sections "options", "tables", "devices" and "searches", each in its
 * own header and documented there; they need the declarations above. */
#include "gsp_algorithms.h"
#include "gsp_options.h"
#include "gsp_table.h"
#include "gsp_device.h"
#include "gsp_search.h"
#include "gsp_index.h"

#endif /* GSP_GSP_H */
