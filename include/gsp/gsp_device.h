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

/** @brief gsp_device_start()'s device for every usable CUDA device. */
#define GSP_ALL_DEVICES (-1)

/**
 * @brief Start a CUDA device in the background, so that the first CUDA run
 * of the process does not wait for it.
 *
 * Starting a device (the driver, its context) takes about 0.1-0.35 s, which
 * a process otherwise pays inside its first CUDA run. Call this before
 * reading or building the graph: it returns at once, and a thread of the
 * library starts @p device (or every usable device with ::GSP_ALL_DEVICES)
 * while the caller goes on; a run that needs the device meanwhile waits
 * only for what is left. Once it was called, ::GSP_BACKEND_AUTO no longer
 * keeps small jobs on the CPU to save the start-up (doc/algorithms.md,
 * "Starting the device"). A device that cannot start is reported by the
 * run that needs it, not here. Calling it again is harmless.
 * @param device a CUDA device ordinal (>= 0), or ::GSP_ALL_DEVICES.
 * @return GSP_OK (the start was begun, or the device runs already);
 *         GSP_ERR_NO_DEVICE when libgsp was built without CUDA;
 *         GSP_ERR_INVALID_ARGUMENT for a device below ::GSP_ALL_DEVICES.
 */
GSP_API gsp_status gsp_device_start(int32_t device);

/**
 * @brief Give back memory libgsp keeps between runs for speed.
 *
 * CUDA engines keep a per-device workspace pool (up to 128 MiB), the
 * out-of-core Floyd-Warshall keeps up to two page-locked host buffers, and
 * the results of CUDA runs (gsp_sssp_run(), gsp_apsp_run()) live in
 * page-locked buffers of which those of destroyed results are kept (the 8
 * given back last, at most 8 GiB or a quarter of the host's memory), so
 * that repeated runs skip their allocation (a new page-locked GiB takes
 * about 0.05 s). This frees what is kept; later runs re-create what they need.
 * Results still alive and graphs' device copies are not affected (they go
 * with their handles). Safe to call at any time from any thread; a no-op
 * without CUDA.
 */
GSP_API void gsp_release_cached_memory(void);

/* ----------------------------------------------------------- device arrays */

/**
 * @brief Create a graph from CSR arrays in CUDA device memory (a CuPy,
 * PyTorch or RAPIDS graph, say), with no host copy on the caller's side.
 *
 * As gsp_graph_create_csr(), whose checks and messages apply, but
 * @p offsets, @p targets and @p weights are device pointers on
 * options->device, read in order on options->cuda_stream (NULL: CUDA's
 * legacy default stream, the one CuPy and PyTorch use by default): work
 * that fills them on another stream must be finished or ordered before
 * (a non-blocking stream is not ordered after the legacy one, and a
 * cudaMemcpy() from pageable host memory may return before its data
 * lands). The library keeps its own copy (the graph may be used by
 * any backend and outlives the arrays): the arrays are copied once to the
 * host, checked and built there, and uploaded again by the first CUDA run
 * that needs them (doc/device-arrays.md says what that costs).
 * @param graph out: the new graph; set to NULL on failure.
 * @param num_vertices n >= 1.
 * @param offsets n+1 device int64 offsets.
 * @param targets offsets[n] device int32 heads (NULL only with no arcs).
 * @param weights offsets[n] device values of @p weight_type; NULL: every weight 1.
 * @param weight_type ::GSP_F32, ::GSP_I32 or ::GSP_F64.
 * @param flags 0 or ::GSP_GRAPH_UNDIRECTED.
 * @param options NULL for defaults; only @c device and @c cuda_stream are read.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT (NULL, or a pointer that is not
 *         device memory of that device), GSP_ERR_INVALID_GRAPH,
 *         GSP_ERR_OUT_OF_MEMORY, GSP_ERR_NO_DEVICE, GSP_ERR_DEVICE.
 */
GSP_API gsp_status gsp_graph_create_csr_device(gsp_graph** graph, int32_t num_vertices, const int64_t* offsets,
                                               const int32_t* targets, const void* weights, gsp_dtype weight_type,
                                               uint32_t flags, const gsp_options* options);

/**
 * @brief Create a graph from an arc list (COO) in CUDA device memory.
 *
 * As gsp_graph_create() (same checks and messages), with @p sources,
 * @p targets and @p weights device pointers on options->device, read in
 * order on options->cuda_stream, as gsp_graph_create_csr_device() does.
 * @param graph out: the new graph; set to NULL on failure.
 * @param num_vertices n >= 1.
 * @param num_edges m >= 0 arcs.
 * @param sources m device int32 tail ids (NULL only when m == 0).
 * @param targets m device int32 head ids (NULL only when m == 0).
 * @param weights m device values of @p weight_type; NULL: every weight 1.
 * @param weight_type ::GSP_F32, ::GSP_I32 or ::GSP_F64.
 * @param flags 0 or ::GSP_GRAPH_UNDIRECTED.
 * @param options NULL for defaults; only @c device and @c cuda_stream are read.
 * @return as gsp_graph_create_csr_device().
 */
GSP_API gsp_status gsp_graph_create_device(gsp_graph** graph, int32_t num_vertices, int64_t num_edges,
                                           const int32_t* sources, const int32_t* targets, const void* weights,
                                           gsp_dtype weight_type, uint32_t flags, const gsp_options* options);

/**
 * @brief Single-source shortest paths into CUDA device arrays.
 *
 * As gsp_sssp_run(), but the n distances (and predecessors) are written to
 * the caller's device memory on options->device, ordered on
 * options->cuda_stream (NULL: CUDA's legacy default stream, as for
 * gsp_graph_create_csr_device()); with backend AUTO the run stays on the
 * device wherever the algorithm has a CUDA engine. A CUDA engine
 * copies its result device to device, never through the host. With
 * options->index (a road index of this graph, gsp_index.h) the CUDA sweep
 * writes the row straight into the arrays (AUTO runs it on CUDA). On the
 * CPU backend (asked for, or AUTO's choice) the result is computed on the
 * host and copied in. The call returns when the arrays hold the result.
 * @param graph the graph.
 * @param source source vertex in [0, n).
 * @param options NULL for defaults (gsp_options::limit applies).
 * @param distances out: n device values of the graph's weight type.
 * @param predecessors out: n device ids, or NULL for none (must be NULL with ::GSP_NO_PATHS).
 * @param info out, or NULL: what ran (set info->size first, as for gsp_paths_info()).
 * @return GSP_OK or a failure status as gsp_sssp_run(); GSP_ERR_INVALID_ARGUMENT when
 *         an array is not device memory of options->device; GSP_ERR_NO_DEVICE without CUDA.
 */
GSP_API gsp_status gsp_sssp_run_device(const gsp_graph* graph, int32_t source, const gsp_options* options,
                                       void* distances, int32_t* predecessors, gsp_run_info* info);

/**
 * @brief Name of a backend ("auto", "cpu", "cuda").
 * @param backend the value.
 * @return a static string, never NULL ("unknown" for bad values).
 */
GSP_API const char* gsp_backend_name(gsp_backend backend);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_DEVICE_H */
