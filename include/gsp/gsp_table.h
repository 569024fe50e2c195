/**
 * @file gsp_table.h
 * @brief libgsp: many-to-many tables, the distances (and paths) from K sources
 *        to T targets.
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 */
#ifndef GSP_GSP_TABLE_H
#define GSP_GSP_TABLE_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ tables */

/**
 * @brief Distances (and paths) from a list of sources to a list of targets:
 * a K x T table, as road-routing "table" or "matrix" services answer. Opaque.
 */
typedef struct gsp_table gsp_table;

/**
 * @brief Many-to-many shortest paths: every source to every target.
 *
 * Only the K x T distances (and, unless ::GSP_NO_PATHS, the K x T paths)
 * are kept, never n-wide rows; a source's search may stop as soon as all
 * the targets are settled, so one source and one nearby target (K = T = 1)
 * is a point-to-point query that touches only the graph around them.
 * Sources and targets may repeat and may overlap. Cells are addressed by
 * index into the two lists (not by vertex id). With paths on, the table
 * holds every cell's path: memory grows with the sum of their lengths, so
 * pass ::GSP_NO_PATHS for large tables of distances.
 * @param graph the graph.
 * @param sources the K source vertices, each in [0, n); NULL only when @p num_sources is 0.
 * @param num_sources K >= 0.
 * @param targets the T target vertices, each in [0, n); NULL only when @p num_targets is 0.
 * @param num_targets T >= 0.
 * @param options NULL for defaults; @c algorithm is GSP_ALGO_AUTO or an all-pairs algorithm
 *        (as for gsp_apsp_run()). On the CPU any of them runs the early-exit table engine
 *        (Johnson's reweighting on negative arcs); on CUDA the chosen all-pairs engine runs and
 *        only the target columns of its rows are kept (doc/tables.md).
 * @param result out: the table, to be freed with gsp_table_destroy(); NULL on failure.
 * @return GSP_OK or a failure status (GSP_ERR_INVALID_ARGUMENT for a vertex out of range,
 *         a negative count or a NULL list with a positive count; GSP_ERR_NEGATIVE_CYCLE, ...).
 */
GSP_API gsp_status gsp_table_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                 const int32_t* targets, int32_t num_targets, const gsp_options* options,
                                 gsp_table** result);

/**
 * @brief Many-to-many distances straight into the caller's array, no table object.
 *
 * As gsp_table_run() with ::GSP_NO_PATHS.
 * @param graph the graph.
 * @param sources the K source vertices.
 * @param num_sources K >= 0.
 * @param targets the T target vertices.
 * @param num_targets T >= 0.
 * @param options NULL for defaults.
 * @param distances out: K x T values of the graph's weight type, row-major (row i: from
 *        sources[i]); +INFINITY or ::GSP_I32_INF where a target is unreachable. On failure
 *        the contents are unspecified. May be NULL only when K x T is 0.
 * @param info out, or NULL: what ran (set info->size first, as for gsp_paths_info()).
 * @return GSP_OK or a failure status.
 */
GSP_API gsp_status gsp_table_run_into(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                      const int32_t* targets, int32_t num_targets, const gsp_options* options,
                                      void* distances, gsp_run_info* info);

/**
 * @brief The table's size.
 * @param table the table.
 * @param num_sources out, or NULL: K.
 * @param num_targets out, or NULL: T.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT (NULL table).
 */
GSP_API gsp_status gsp_table_size(const gsp_table* table, int32_t* num_sources, int32_t* num_targets);

/**
 * @brief Copy all K x T distances, row-major (row i: from the i-th source).
 * @param table the table.
 * @param out K x T values of the graph's weight type (+INFINITY or ::GSP_I32_INF if unreachable).
 * @param capacity values @p out holds; must be >= K x T (@p out may be NULL when K x T is 0).
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT or GSP_ERR_BUFFER_TOO_SMALL.
 */
GSP_API gsp_status gsp_table_distances(const gsp_table* table, void* out, int64_t capacity);

/**
 * @brief One distance.
 * @param table the table.
 * @param source_index index into the sources list, in [0, K).
 * @param target_index index into the targets list, in [0, T).
 * @param out one value of the graph's weight type (+INFINITY or ::GSP_I32_INF if unreachable).
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_table_distance(const gsp_table* table, int32_t source_index, int32_t target_index, void* out);

/**
 * @brief One shortest path of the table, source to target inclusive.
 *
 * Call with @p vertices NULL to learn the length.
 * @param table the table.
 * @param source_index index into the sources list.
 * @param target_index index into the targets list.
 * @param vertices out: the path's vertices, or NULL.
 * @param capacity entries @p vertices holds.
 * @param length out: vertices on the path (also set with GSP_ERR_BUFFER_TOO_SMALL).
 * @return GSP_OK, GSP_ERR_NO_PATH (unreachable), GSP_ERR_BUFFER_TOO_SMALL,
 *         GSP_ERR_INVALID_ARGUMENT, GSP_ERR_UNSUPPORTED (run with ::GSP_NO_PATHS).
 */
GSP_API gsp_status gsp_table_path(const gsp_table* table, int32_t source_index, int32_t target_index, int32_t* vertices,
                                  int32_t capacity, int32_t* length);

/**
 * @brief Describe what the table's run did (num_sources is K; num_vertices is n).
 * @param table the table.
 * @param info out; set info->size = sizeof(gsp_run_info) (or 0) before the call.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_table_info(const gsp_table* table, gsp_run_info* info);

/**
 * @brief Destroy a table. NULL is a no-op.
 * @param table the table, or NULL.
 */
GSP_API void gsp_table_destroy(gsp_table* table);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_TABLE_H */
