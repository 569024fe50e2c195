/**
 * @file gsp_search.h
 * @brief libgsp: bounded searches (a distance limit) and nearest-source
 *        searches (the distance to, and the identity of, the closest of
 *        many sources).
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 *
 * **Distance limit.** gsp_options::limit (default +INFINITY, no limit)
 * bounds every run that takes options: gsp_sssp_run(), gsp_apsp_run(),
 * gsp_apsp_stream(), gsp_table_run(), gsp_table_run_into() and
 * gsp_nearest_run(). A vertex whose shortest distance is at most the limit
 * is reported as without it (distance and path exact); one farther away is
 * reported unreachable (+INFINITY or ::GSP_I32_INF, predecessor -1,
 * gsp_path_get() answers GSP_ERR_NO_PATH), as scipy's `dijkstra(limit=)`
 * does, and for isochrones. Engines that settle vertices in distance order
 * (the CPU's Dijkstra rows and tables) stop at the limit, so a small limit
 * makes a run cheap; the others finish and the result is cut. The limit is
 * compared in double with the distance of the graph's weight type. A limit
 * needs non-negative weights (GSP_ERR_NEGATIVE_WEIGHT otherwise: with
 * negative arcs a vertex within it may be reached only through one beyond
 * it); NaN or a negative limit is GSP_ERR_INVALID_ARGUMENT.
 */
#ifndef GSP_GSP_SEARCH_H
#define GSP_GSP_SEARCH_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- searches */

/**
 * @brief Nearest-source search: for every vertex, the distance to the
 * closest of @p num_sources sources, which source that is, and the path.
 *
 * One search from all the sources at once (each starts at distance 0), not
 * one per source: as cheap as gsp_sssp_run(), whatever the number of
 * sources. Nearest-facility queries, Voronoi cells of a graph, scipy's
 * `dijkstra(min_only=True)`. Where two sources are equally near, either may
 * be named; the distance is the same. Any weights the chosen algorithm
 * accepts (@c algorithm is GSP_ALGO_AUTO or a single-source algorithm; a
 * negative cycle reachable from a source is GSP_ERR_NEGATIVE_CYCLE).
 * gsp_options::limit applies.
 * @param graph the graph.
 * @param sources the sources, each in [0, n); repeats allowed.
 * @param num_sources >= 1.
 * @param options NULL for defaults.
 * @param distances out: n values of the graph's weight type, +INFINITY or
 *        ::GSP_I32_INF where no source reaches; 0 at every source.
 * @param nearest out, or NULL: n vertex ids, the source each vertex's
 *        distance is measured from (a source names itself), -1 where none reaches.
 * @param predecessors out, or NULL: n ids, the vertex before each on its path
 *        from its nearest source, -1 at sources and unreached vertices. With
 *        ::GSP_NO_PATHS it must be NULL.
 * @return GSP_OK or a failure status (GSP_ERR_INVALID_ARGUMENT for a NULL
 *         list, a count below 1, a vertex out of range or an all-pairs
 *         algorithm; GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_OVERFLOW, ...). On
 *         failure the output arrays' contents are unspecified.
 */
GSP_API gsp_status gsp_nearest_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                   const gsp_options* options, void* distances, int32_t* nearest,
                                   int32_t* predecessors);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_SEARCH_H */
