/**
 * @file gsp_index.h
 * @brief libgsp: road indexes (contraction hierarchies): preprocess a graph
 *        once, then answer one-to-all rows, tables and point-to-point
 *        queries far faster than a search of the whole graph.
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 *
 * **What it is.** gsp_index_build() orders the vertices by importance and
 * contracts them one level at a time, adding shortcut arcs that keep every
 * distance (a contraction hierarchy). Queries then search upward from the
 * source and from the target only: on the DIMACS New York road graph a few
 * hundred vertices instead of 264,346. It pays on graphs with a hierarchy of
 * fast roads (road networks, grids with highways); on random or power-law
 * graphs the contraction adds too many shortcuts and is slow
 * (doc/road-index.md says when one pays; AUTO never builds one).
 *
 * **How queries run.** Set gsp_options::index to the index (its graph must
 * be the one passed to the call) and call the usual entry points:
 * gsp_sssp_run() and gsp_apsp_run(), gsp_apsp_run_into(), gsp_apsp_stream()
 * (one-to-all rows: an upward search and one sweep over the vertices in
 * order, PHAST), gsp_table_run() and gsp_table_run_into() (many-to-many:
 * one upward search per source and per target, met in buckets; a 1 x 1 table
 * is a point-to-point query, a bidirectional upward search). Results are
 * exact: int32 distances equal Dijkstra's bit for bit; float and double ones
 * differ from a search of the graph only by the rounding of their sums
 * (shortcut weights are sums of arc weights). Paths come out as vertices
 * of the graph (shortcuts unpacked). The run info names GSP_CH.
 * algorithm must be GSP_ALGO_AUTO or GSP_CH with an index (any other
 * algorithm runs without it); GSP_CH without one is
 * GSP_ERR_INVALID_ARGUMENT. The upward searches run on CPU threads
 * (gsp_options::num_threads); rows (and large tables, which then run as
 * rows) sweep on the CUDA device under GSP_BACKEND_CUDA, and under
 * GSP_BACKEND_AUTO once a device has started (gsp_device_start()) or when
 * the job outweighs starting one; point to point and small tables stay on
 * the CPU (doc/road-index.md). Both backends' rows are equal bit for bit.
 */
#ifndef GSP_GSP_INDEX_H
#define GSP_GSP_INDEX_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- road indexes */

/**
 * @brief Build a road index of @p graph.
 *
 * The graph needs weights >= 0 (GSP_ERR_NEGATIVE_WEIGHT otherwise); any
 * weight type. The index keeps no reference to the graph, but answers only
 * for it: a query with another graph is GSP_ERR_INVALID_ARGUMENT (graphs are
 * told apart by a fingerprint of their arcs, so an equal graph loaded again
 * is accepted). Read from @p options: num_threads (contraction rounds run on
 * that many threads), progress and progress_user (the fraction of vertices
 * contracted; non-zero stops the build: GSP_ERR_CANCELLED). The other fields
 * are ignored.
 * @param graph the graph.
 * @param options NULL for defaults.
 * @param index out: the new index, to be freed with gsp_index_destroy(); NULL on failure.
 * @param info out, or NULL: the build's time (seconds) and threads
 *        (set info->size first, as for gsp_paths_info()).
 * @return GSP_OK or a failure status.
 */
GSP_API gsp_status gsp_index_build(const gsp_graph* graph, const gsp_options* options, gsp_index** index,
                                   gsp_run_info* info);

/**
 * @brief Sizes of an index.
 * @param index the index.
 * @param num_vertices out, or NULL: n of its graph.
 * @param num_arcs out, or NULL: arcs of the hierarchy (the graph's, merged, and the shortcuts).
 * @param num_shortcuts out, or NULL: shortcut arcs added by the contraction.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT (NULL index).
 */
GSP_API gsp_status gsp_index_size(const gsp_index* index, int32_t* num_vertices, int64_t* num_arcs,
                                  int64_t* num_shortcuts);

/**
 * @brief Save an index to a file (a versioned binary format with a
 * checksum; doc/formats.md).
 * @param index the index.
 * @param path the file (created or replaced; no partial file is left on failure).
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT or GSP_ERR_IO (naming the file).
 */
GSP_API gsp_status gsp_index_save(const gsp_index* index, const char* path);

/**
 * @brief Load an index saved by gsp_index_save() for @p graph.
 *
 * The file is checked whole before it is used: a file that is not an
 * index, of another format version, cut short or corrupted is GSP_ERR_PARSE
 * naming the file and what is wrong; an index of another graph (its
 * fingerprint differs) is GSP_ERR_INVALID_ARGUMENT saying so.
 * @param graph the graph the index was built for.
 * @param path the file.
 * @param index out: the index; NULL on failure.
 * @return GSP_OK or a failure status (GSP_ERR_IO, GSP_ERR_PARSE, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_OUT_OF_MEMORY).
 */
GSP_API gsp_status gsp_index_load(const gsp_graph* graph, const char* path, gsp_index** index);

/**
 * @brief Destroy an index. NULL is a no-op.
 * @param index the index.
 */
GSP_API void gsp_index_destroy(gsp_index* index);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_INDEX_H */
