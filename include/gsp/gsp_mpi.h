/**
 * @file gsp_mpi.h
 * @brief libgsp over MPI: all-pairs shortest paths distributed over the ranks
 *        of a communicator (2-D block-cyclic Floyd-Warshall).
 *
 * Link libgsp_mpi.a (`pkg-config --libs gsp_mpi`) *instead of* libgsp.a: it
 * holds all of libgsp plus the functions below, with only gsp_* global.
 * Include this header after (or instead of) gsp.h; it needs <mpi.h>.
 *
 * Every function named gsp_apsp_run_mpi* is collective over @p comm: every
 * rank must call it, with the same communicator. Only the calling thread
 * makes MPI calls (the library's worker threads make none), so an MPI
 * initialised with MPI_THREAD_FUNNELED is enough when the main thread calls,
 * MPI_THREAD_SERIALIZED otherwise. MPI must be initialised and not finalised.
 *
 * Errors: a failure on any rank (bad input on rank 0, out of memory on
 * another, a negative cycle, an int32 overflow, a cancelling progress
 * callback on rank 0) ends the call on every rank with the same status, and
 * each rank's gsp_last_error() names the rank that failed first
 * ("rank 3: ..."). No rank is left waiting in a collective. MPI's own errors
 * follow the communicator's error handler (by default they abort the job).
 *
 * The query functions (gsp_mpi_blocks_*) are local: no communication.
 */
#ifndef GSP_GSP_MPI_H
#define GSP_GSP_MPI_H

#include <mpi.h>

#include "gsp/gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief All-pairs shortest paths over the ranks of @p comm, gathered to rank 0.
 *
 * Rank 0's graph is sent to every rank; the ranks form a pr x pc grid
 * (pr * pc = size of @p comm; the one on which a rank receives the least
 * panel data per step, fewer columns on a tie: p x 1 up to 4 ranks and for
 * a prime p, 3 x 2 for 6, 4 x 2 for 8; GSP_MPI_GRID=RxC, read on rank 0,
 * chooses another) and
 * each holds the blocks (I, J) of the distance and predecessor matrices with
 * I mod pr and J mod pc equal to its grid coordinates. Per block of k, the
 * owners of the k-th block row and block column broadcast them down the
 * grid's columns and across its rows, and every rank updates its blocks with
 * the min-plus tile product, on its CPU threads or on its CUDA device
 * (panels then move device to device by NCCL where every rank has a device
 * of its own; doc/mpi.md). Negative arcs are allowed.
 *
 * Options: rank 0's options choose the algorithm (GSP_ALGO_AUTO or
 * GSP_APSP_FLOYD_WARSHALL), the backend (::GSP_BACKEND_AUTO,
 * ::GSP_BACKEND_CPU or ::GSP_BACKEND_CUDA: a rank computes on device
 * (@c device + its index among its node's ranks) modulo the node's count),
 * ::GSP_NO_PATHS and the progress callback (called on rank 0 only). Each
 * rank's own options give its number of threads; 0 (the default) divides the
 * node's cores among the ranks that share the node. The environment variable
 * GSP_MPI_BLOCK_SIZE (read on rank 0) overrides the block size (default 64
 * on CPU ranks and 512 on GPU ranks, smaller for small n so that every rank
 * gets work).
 *
 * @param comm an intracommunicator; collective over it.
 * @param graph on rank 0: the graph; ignored (may be NULL) on other ranks.
 * @param options each rank's options, or NULL for defaults.
 * @param result on rank 0: out, the full n x n result (rows for every source
 *        in order), to be freed with gsp_paths_destroy(); gsp_path_get() works
 *        on it. Set to NULL on failure. Ignored (may be NULL) on other ranks,
 *        where it is set to NULL when given.
 * @return the same status on every rank: GSP_OK, GSP_ERR_INVALID_ARGUMENT,
 *         GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_OVERFLOW (::GSP_I32 only),
 *         GSP_ERR_OUT_OF_MEMORY, GSP_ERR_UNSUPPORTED, GSP_ERR_CANCELLED.
 */
GSP_API gsp_status gsp_apsp_run_mpi(MPI_Comm comm, const gsp_graph* graph, const gsp_options* options,
                                    gsp_paths** result);

/**
 * @brief Prepare the ranks' devices for the calls that follow.
 *
 * Collective over @p comm. Where the calls compute on CUDA devices, each
 * rank starts its device and joins the device groups that panels move
 * through (NCCL communicators over the ranks of each grid row and column,
 * with their first connection: about a second), on a library thread, so
 * that this work overlaps whatever the caller does next (reading the
 * graph, on rank 0) instead of lengthening the first call. A later
 * gsp_apsp_run_mpi() or gsp_apsp_run_mpi_blocks() on the same ranks, with
 * the same options and GSP_MPI_GRID, finds the groups ready (or waits for
 * the rest of their making). Where the calls would not use groups (CPU
 * ranks, one rank, ranks sharing a device, no NCCL), only the devices are
 * started, as by gsp_device_start(). Calling it is never needed for
 * correctness; a group whose making failed is made again by the call,
 * which then reports why.
 *
 * @param comm an intracommunicator; collective over it.
 * @param options each rank's options as it will pass them to the calls
 *        (rank 0's backend, each rank's device), or NULL for defaults.
 * @param wait 0: return once the ranks have exchanged what the groups need
 *        (milliseconds), the rest made in the background; nonzero: return
 *        when every rank's groups are ready.
 * @return the same status on every rank: GSP_OK, GSP_ERR_INVALID_ARGUMENT
 *         (MPI not initialised, a bad communicator or options),
 *         GSP_ERR_NO_DEVICE (GSP_BACKEND_CUDA on a rank without a device),
 *         GSP_ERR_DEVICE (@p wait: the groups could not be made on every rank).
 */
GSP_API gsp_status gsp_mpi_prepare(MPI_Comm comm, const gsp_options* options, int32_t wait);

/** @brief One rank's share of a distributed all-pairs result. Opaque; local to its rank. */
typedef struct gsp_mpi_blocks gsp_mpi_blocks;

/**
 * @brief All-pairs shortest paths over the ranks of @p comm, left distributed.
 *
 * The same computation as gsp_apsp_run_mpi(), without the gather: each rank
 * keeps its own blocks, for results too large for one node.
 * @param comm an intracommunicator; collective over it.
 * @param graph on rank 0: the graph; ignored (may be NULL) elsewhere.
 * @param options each rank's options, or NULL (see gsp_apsp_run_mpi()).
 * @param blocks out, on every rank: this rank's blocks, to be freed with
 *        gsp_mpi_blocks_destroy(); NULL on failure. Must not be NULL on any rank.
 * @return the same status on every rank (see gsp_apsp_run_mpi()).
 */
GSP_API gsp_status gsp_apsp_run_mpi_blocks(MPI_Comm comm, const gsp_graph* graph, const gsp_options* options,
                                           gsp_mpi_blocks** blocks);

/** @brief The layout of a distributed result, as seen from one rank. */
typedef struct gsp_mpi_layout {
  uint32_t size;         /**< sizeof(gsp_mpi_layout) as the caller knew it; set it before the call */
  int32_t num_vertices;  /**< n */
  int32_t block_size;    /**< b: block (I, J) covers rows [I*b, min(n,(I+1)*b)) and the same columns of J */
  int32_t grid_rows;     /**< pr */
  int32_t grid_cols;     /**< pc */
  int32_t grid_row;      /**< this rank's row in the grid (rank = grid_row * grid_cols + grid_col) */
  int32_t grid_col;      /**< this rank's column in the grid */
  int32_t num_blocks;    /**< blocks held by this rank (may be 0 when n is small) */
  gsp_dtype weight_type; /**< the distances' type */
  uint32_t has_paths;    /**< 1 if predecessors were computed */
} gsp_mpi_layout;

/**
 * @brief Describe the layout and this rank's share.
 * @param blocks this rank's blocks.
 * @param layout out; set layout->size = sizeof(gsp_mpi_layout) before the call.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_mpi_blocks_layout(const gsp_mpi_blocks* blocks, gsp_mpi_layout* layout);

/**
 * @brief The vertex ranges of one of this rank's blocks.
 *
 * The block holds d(i, j) for i in [row_begin, row_end), j in [col_begin, col_end).
 * Any output pointer may be NULL.
 * @param blocks this rank's blocks.
 * @param index block index in [0, num_blocks); blocks are ordered by row, then column.
 * @param row_begin out: first source vertex.
 * @param row_end out: one past the last source vertex.
 * @param col_begin out: first target vertex.
 * @param col_end out: one past the last target vertex.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_mpi_blocks_range(const gsp_mpi_blocks* blocks, int32_t index, int32_t* row_begin,
                                        int32_t* row_end, int32_t* col_begin, int32_t* col_end);

/**
 * @brief Copy one block's distances and/or predecessors out.
 *
 * Both are row-major, (row_end - row_begin) rows of (col_end - col_begin)
 * values. Predecessors are vertex ids (-1 for the source itself and for
 * unreachable vertices), as from gsp_paths_predecessors().
 * @param blocks this rank's blocks.
 * @param index block index in [0, num_blocks).
 * @param distances out: values of the weight type, or NULL to skip.
 * @param predecessors out: vertex ids, or NULL to skip.
 * @param capacity entries each non-NULL buffer holds.
 * @return GSP_OK, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_BUFFER_TOO_SMALL, or
 *         GSP_ERR_UNSUPPORTED when predecessors are asked of a ::GSP_NO_PATHS run.
 */
GSP_API gsp_status gsp_mpi_blocks_copy(const gsp_mpi_blocks* blocks, int32_t index, void* distances,
                                       int32_t* predecessors, int64_t capacity);

/**
 * @brief What the run did (as gsp_paths_info(); num_sources is n).
 * @param blocks this rank's blocks.
 * @param info out; set info->size = sizeof(gsp_run_info) before the call.
 * @return GSP_OK or GSP_ERR_INVALID_ARGUMENT.
 */
GSP_API gsp_status gsp_mpi_blocks_info(const gsp_mpi_blocks* blocks, gsp_run_info* info);

/**
 * @brief Destroy a rank's blocks. Local (not collective). NULL is a no-op.
 * @param blocks the blocks, or NULL.
 */
GSP_API void gsp_mpi_blocks_destroy(gsp_mpi_blocks* blocks);

#ifdef __cplusplus
}
#endif

#endif /* GSP_GSP_MPI_H */
