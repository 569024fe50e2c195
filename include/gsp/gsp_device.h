/**
 * @file gsp_device.h
 * @brief libgsp: backends and CUDA devices, the memory kept between runs, and
 *        the names of backends and algorithms.
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 */
#ifndef GSP_GSP_DEVICE_H
#define GSP_GSP_DEVICE_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- devices */

/**
 * @brief Whether a backend can run now.
 * @param backend ::GSP_BACKEND_CPU (always 1), ::GSP_BACKEND_CUDA or ::GSP_BACKEND_AUTO (always 1).
 * @return 1 if usable, 0 otherwise (gsp_last_error() then says why, for CUDA).
 */
GSP_API int gsp_backend_available(gsp_backend backend);

/**
 * @brief Number of usable CUDA devices (0 when built without CUDA or none is usable).
 * @return the count.
 */
GSP_API int32_t gsp_device_count(void);

/**
 * @brief Give back memory libgsp keeps between runs for speed.
 *
 * CUDA engines keep a per-device workspace pool (up to 128 MiB), the
 * out-of-core Floyd-Warshall keeps up to two page-locked host buffers, and
 * the results of CUDA runs (gsp_sssp_run(), gsp_apsp_run()) live in
 * page-locked buffers of which those of destroyed results are kept (the 8
 * given back last, at most 8 GiB or a quarter of the host's memory), so
 * that repeated runs skip slow allocations (pinning 1 GiB takes about
 * 0.5 s). This frees what is kept; later runs re-create what they need.
 * Results still alive and graphs' device copies are not affected (they go
 * with their handles). Safe to call at any time from any thread; a no-op
 * without CUDA.
 */
GSP_API void gsp_release_cached_memory(void);

/**
 * @brief Name of a backend ("auto", "cpu", "cuda").
 * @param backend the value.
 * @return a static string, never NULL ("unknown" for bad values).
 */
GSP_API const char* gsp_backend_name(gsp_backend backend);

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

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_DEVICE_H */
