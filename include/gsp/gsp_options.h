/**
 * @file gsp_options.h
 * @brief libgsp: the options of a run (::gsp_options) and how to fill them.
 *
 * Part of the C API of gsp.h, which includes it: users write
 * `#include <gsp/gsp.h>` and get this part with the rest. It includes gsp.h
 * itself (for the types it uses), so it also compiles alone, as C99 and as
 * C++; the conventions of gsp.h apply.
 */
#ifndef GSP_GSP_OPTIONS_H
#define GSP_GSP_OPTIONS_H

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- options */

/** @brief Run flags for gsp_options::flags. */
enum gsp_run_flags {
  GSP_NO_PATHS = 1u << 0,      /**< compute distances only; gsp_path_get() then answers GSP_ERR_UNSUPPORTED */
  GSP_ROWS_ANY_ORDER = 1u << 1 /**< gsp_apsp_stream() may hand row blocks to its callback in any order (each
                                    block's first index says where it goes; every row once, one call at a time,
                                    on the calling thread), so that several devices stream at once
                                    (doc/multi-gpu.md); without it blocks come in source order */
};

/**
 * @brief Progress callback: called with the fraction of work done, in [0, 1].
 * @return non-zero to stop the run, which then fails with GSP_ERR_CANCELLED.
 */
typedef int (*gsp_progress_fn)(void* user, double fraction_done);

/**
 * @brief Options for a run. Always fill with gsp_options_init() first.
 *
 * The struct grows at its end in later versions (`limit`,
 * `num_devices` and `index` came after 0.1): the library reads only the fields that @c size covers and uses
 * defaults for the rest, so a program built against an older header keeps
 * working with a newer library.
 */
struct gsp_options {
  uint32_t size;              /**< the struct's bytes as the caller knew it; set by gsp_options_init() */
  gsp_backend backend;        /**< default ::GSP_BACKEND_AUTO */
  gsp_algorithm algorithm;    /**< default GSP_ALGO_AUTO */
  int32_t device;             /**< CUDA device ordinal; default 0 */
  uint32_t flags;             /**< ::gsp_run_flags; default 0 */
  double delta;               /**< delta-stepping bucket width, >= 0; 0 chooses it from the graph */
  int32_t num_threads;        /**< CPU threads, >= 0; 0 uses all cores */
  size_t device_memory_limit; /**< bytes of device memory an engine may use; 0: what is free */
  void* cuda_stream;          /**< a cudaStream_t to run on; NULL: the library's own */
  gsp_progress_fn progress;   /**< optional progress callback; NULL: none */
  void* progress_user;        /**< passed to @c progress */
  double limit;               /**< distance limit (gsp_search.h); default +INFINITY: none */
  int32_t num_devices;        /**< CUDA devices a run may use, from @c device upward: 0 (default) lets
                                   AUTO choose (every device when that is estimated faster), 1 only
                                   @c device, k >= 2 exactly devices device .. device + k - 1
                                   (doc/multi-gpu.md) */
  const gsp_index* index;     /**< a road index of the run's graph (gsp_index.h): with algorithm AUTO or
                                   GSP_CH the run answers from it; default NULL: none */
};

/**
 * @brief Fill the first @p size bytes of @p options with defaults and set
 * its @c size to them.
 *
 * What gsp_options_init() calls with `sizeof(gsp_options)` of the header the
 * caller compiled against. Callers through a foreign-function interface
 * (Python, Rust, Go, Fortran) call it with the size of their own copy of the
 * struct, so that a newer library never writes past it.
 * @param options the struct to fill; NULL is a no-op.
 * @param size the bytes the caller's struct has; at most the library's own
 *        struct is written. A size below libgsp 0.1's struct writes nothing
 *        (the runs then refuse it).
 */
GSP_API void gsp_options_init_sized(gsp_options* options, size_t size);

/**
 * @brief Fill @p options with defaults and set its @c size.
 *
 * In C and C++ a macro that passes the size of the struct the caller
 * compiled against to gsp_options_init_sized(). The exported function of the
 * same name is libgsp 0.1's and fills 0.1's struct (up to @c progress_user)
 * only, for programs built against that version.
 * @param options the struct to fill; NULL is a no-op.
 */
GSP_API void gsp_options_init(gsp_options* options);
/** @cond GSP_INTERNAL */
#define gsp_options_init(options) gsp_options_init_sized((options), sizeof(gsp_options))
/** @endcond */

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_OPTIONS_H */
