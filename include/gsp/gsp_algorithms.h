/**
 * @file gsp_algorithms.h
 * @brief libgsp: the algorithms by name, and what each is (its row of
 *        ::GSP_ALGORITHM_TABLE) asked at run time.
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 *
 * Bindings and tools list the algorithms of the library they load with
 * these calls rather than a list of their own: every value from 0 whose
 * gsp_algorithm_kind() is not GSP_KIND_UNKNOWN is one (values run 0, 1, 2,
 * ... without gaps).
 */
#ifndef GSP_GSP_ALGORITHMS_H
#define GSP_GSP_ALGORITHMS_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------------- algorithms */

/** @brief What an algorithm computes: the kind of its ::GSP_ALGORITHM_TABLE row. */
typedef enum gsp_kind {
  GSP_KIND_UNKNOWN = -1, /**< no such algorithm (gsp_algorithm_kind() of a bad value) */
  GSP_KIND_AUTO = 0,     /**< GSP_ALGO_AUTO: the call's kind, chosen per call */
  GSP_KIND_SSSP = 1,     /**< one source: gsp_sssp_run() */
  GSP_KIND_APSP = 2,     /**< many sources: gsp_apsp_run(), gsp_apsp_stream(), gsp_table_run() */
  GSP_KIND_INDEX = 3     /**< answers from a road index (gsp_index.h), for every entry point */
} gsp_kind;

/**
 * @brief Name of an algorithm, e.g. "dijkstra", "floyd-warshall" (the CLI's names).
 * @param algorithm the value.
 * @return a static string, never NULL ("unknown" for bad values).
 */
GSP_API const char* gsp_algorithm_name(gsp_algorithm algorithm);

/**
 * @brief Look an algorithm up by its name (as gsp_algorithm_name() gives it).
 * @param name the name.
 * @param out out: the algorithm.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_algorithm_from_name(const char* name, gsp_algorithm* out);

/**
 * @brief The C enumerator's name of an algorithm, e.g. "GSP_SSSP_DIJKSTRA"
 * (what bindings name their constants after).
 * @param algorithm the value.
 * @return a static string, never NULL ("unknown" for bad values).
 */
GSP_API const char* gsp_algorithm_identifier(gsp_algorithm algorithm);

/**
 * @brief The summary of an algorithm, e.g. "SSSP, w >= 0: binary-heap
 * Dijkstra (CPU)" (::GSP_ALGORITHM_LIST's).
 * @param algorithm the value.
 * @return a static string, never NULL ("unknown" for bad values).
 */
GSP_API const char* gsp_algorithm_summary(gsp_algorithm algorithm);

/**
 * @brief The kind of an algorithm: which entry points run it.
 * @param algorithm the value (any int: the stored integer is read).
 * @return its ::gsp_kind; GSP_KIND_UNKNOWN when it is no algorithm.
 */
GSP_API gsp_kind gsp_algorithm_kind(gsp_algorithm algorithm);

/**
 * @brief Whether an algorithm accepts arcs of negative weight (others
 * answer GSP_ERR_NEGATIVE_WEIGHT on a graph that has one).
 * @param algorithm the value.
 * @return 1 or 0 (0 for bad values; 1 for GSP_ALGO_AUTO, which chooses one
 *         that does).
 */
GSP_API int gsp_algorithm_accepts_negative_weights(gsp_algorithm algorithm);

/**
 * @brief Whether this build of libgsp has an engine for an algorithm on a
 * backend (a CUDA engine in a build without CUDA: no). Whether a device is
 * usable now is gsp_backend_available()'s answer.
 * @param algorithm the value; GSP_ALGO_AUTO: 1 where the backend has any engine.
 * @param backend GSP_BACKEND_CPU, GSP_BACKEND_CUDA, or GSP_BACKEND_AUTO (either).
 * @return 1 or 0 (0 for bad values).
 */
GSP_API int gsp_algorithm_has_engine(gsp_algorithm algorithm, gsp_backend backend);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_ALGORITHMS_H */
