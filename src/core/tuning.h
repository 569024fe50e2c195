// The library's tuning knobs (doc/tuning.md): one typed field per GSP_*
// environment variable, and the one function that reads them. Nothing else in
// the library (src/) reads the environment.
//
// tuning() reads the environment again on every call and returns a snapshot:
// a call takes one when its options are made (RunOptions::tuning,
// core/engine.h) and its engines read that, so a variable set with setenv()
// between two runs is seen by the next run. In test builds (GSP_TEST_HOOKS)
// it asks the tests' overrides first (tuning_override.cpp): tests choose
// variants through gsp_test_tuning_set(), not setenv(). Reading
// is cheap (one getenv and, when set, one short parse per knob, a few
// microseconds), but it is not for inner loops. Knobs documented as "read
// once per process" are latched by their engine (a function-local static
// initialised from tuning()), since they shape state kept between runs.
//
// Every value is checked: a switch is 0 or 1, a number a whole decimal
// integer within the knob's range, a choice one of its words. A value that is
// empty, malformed or out of range is ignored and the default kept
// (GSP_MPI_BLOCK_SIZE and GSP_MPI_GRID are the exceptions: see
// mpi_block_size_rejected and mpi_grid).
// std::optional fields are unset unless the variable holds a valid value;
// unset means "the engine's own choice", which may depend on the graph.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gsp::detail {

// How the dense APSP engines set predecessors (core/pred_pass_policy.h).
enum class DensePred { kAuto, kPass, kTrack };
// Where the CUDA Heap_APSP engine keeps each batch's heaps.
enum class HeapLayout { kInterleaved, kContiguous };
// Where the CUDA frontier engine loads the target's label before an
// atomicMin to skip it when it cannot improve: both the global tiles and the
// block-local waves, the global tiles only, or nowhere.
enum class CudaFilter { kBoth, kGlobal, kNone };
// How the CUDA frontier engine separates light and heavy arcs.
enum class CudaSplit { kCopy, kFilter, kNone };
// How the MPI Floyd-Warshall's GPU ranks move panels (src/engines/mpi/fw_mpi.cpp).
enum class MpiTransport { kAuto, kDevice, kHost };

struct Tuning {
  // ---- CPU engines (src/engines/cpu)
  // GSP_CPU_POOL (switch): false starts and ends a team's threads on every
  // run instead of borrowing them from the process-wide pool. Read once per
  // process.
  bool cpu_pool = true;
  // GSP_CPU_POOL_SPIN_US [0, 10^7]: how long an idle pooled thread (and a
  // caller waiting for its team) spins before sleeping, µs. Once per process.
  int64_t cpu_pool_spin_us = 100;
  // GSP_CPU_BARRIER_SPIN_US [0, 10^7]: how long a delta-stepping thread
  // waiting at a round's barrier spins before yielding and sleeping, µs.
  int64_t cpu_barrier_spin_us = 200;
  // GSP_CPU_BARRIER_PAUSE (switch): false spins at that barrier without the
  // pause instruction.
  bool cpu_barrier_pause = true;
  // GSP_CPU_DS_FUSE [0, 2^30]: bucket fusion in CPU delta-stepping; a thread
  // keeps emptying its own bin for the current bucket while it holds fewer
  // entries than this (0: off).
  int64_t cpu_ds_fuse = 1000;

  // ---- dense APSP (CPU and CUDA Floyd-Warshall, min-plus)
  // GSP_DENSE_PRED (auto | pass | track): forces the predecessor pass or
  // tracking in the product (core/pred_pass_policy.h).
  DensePred dense_pred = DensePred::kAuto;
  // GSP_DENSE_FW_BLOCK [1, 8]: the CUDA in-core Floyd-Warshall k-block, in
  // 128-vertex tiles; unset: 8 from n = 16384 on, else 4.
  std::optional<int> dense_fw_block;
  // GSP_DENSE_FW_LOOKAHEAD (switch): false runs the CUDA in-core
  // Floyd-Warshall on one stream, phases strictly in order.
  bool dense_fw_lookahead = true;
  // GSP_DENSE_PINNED_CACHE (switch): false frees the out-of-core engine's
  // page-locked host matrix after each run instead of keeping it for the
  // next. Once per process.
  bool dense_pinned_cache = true;

  // ---- sparse APSP (CUDA)
  // GSP_APSP_HEAP_LAYOUT (interleaved | contiguous): Heap_APSP's heap layout.
  HeapLayout apsp_heap_layout = HeapLayout::kInterleaved;
  // GSP_APSP_TP_MAX_N [32, 65536]: cap on the task-parallel engine's
  // problems per launch (rounded down to a multiple of 32); unset: from the
  // memory budget.
  std::optional<int64_t> apsp_tp_max_n;

  // ---- CUDA single-source engines
  // GSP_CUDA_SSSP_POOL (switch): false allocates the workspace with plain
  // cudaMalloc per run instead of the per-device pool. Once per process.
  bool cuda_sssp_pool = true;
  // GSP_CUDA_PINNED_RESULTS (switch): false puts results in ordinary host
  // memory instead of cached page-locked buffers. Once per process.
  bool cuda_pinned_results = true;
  // The frontier engine (delta-stepping, Bellman-Ford; src/engines/cuda/sssp/sssp_delta_stepping.cu).
  // GSP_CUDA_DS_ONE_BUCKET (switch): true runs one bucket (delta = infinity)
  // on graphs of average out-degree > 4 when options.delta is 0, the
  // design before buckets there (fewer phases, more relaxations).
  bool cuda_ds_one_bucket = false;
  // GSP_CUDA_LOCAL_ROUNDS [0, 2^20]: block-local waves per grid barrier;
  // unset: the engine's choice (by average out-degree).
  std::optional<int> cuda_local_rounds;
  // GSP_CUDA_ELL (switch): false keeps the block-local waves on the CSR
  // instead of the ELL copy of the light arcs.
  bool cuda_ell = true;
  // GSP_CUDA_SPEC (switch): false turns the speculative pushes of the ELL
  // waves off.
  bool cuda_spec = true;
  // GSP_CUDA_PERSISTENT_BLOCKS_PER_SM [1, 4]: resident blocks per SM of the
  // persistent kernel; unset: the engine's choice.
  std::optional<int> cuda_persistent_blocks_per_sm;
  // GSP_CUDA_FILTER (both | global | none); unset: the engine's choice.
  std::optional<CudaFilter> cuda_filter;
  // GSP_CUDA_HUB_ARCS [0, 2^31 - 1]: arcs above which a frontier vertex's
  // arcs are spread over the whole grid in the next phase instead of one
  // block's tile (0: never); unset: the engine's choice.
  std::optional<int64_t> cuda_hub_arcs;
  // GSP_CUDA_DS_DELTA_SCALE [1, 2^20]: the frontier engine's default delta is
  // this many times mean_weight / average out-degree (and buckets are kept
  // where the engine would run one); unset: the engine's choice.
  std::optional<int64_t> cuda_ds_delta_scale;
  // GSP_CUDA_DS_SPLIT (copy | filter | none): how delta-stepping keeps heavy
  // arcs (weight > delta) out of its light rounds: a light-first copy of the
  // arcs, a weight test on the graph's own arcs, or not at all (Near-Far:
  // every arc in every round); unset: the engine's choice.
  std::optional<CudaSplit> cuda_ds_split;
  // GSP_CUDA_TRACE (switch): the frontier engine prints each phase of a
  // single-source run (kind, frontier size, microseconds) to stderr.
  bool cuda_trace = false;
  // GSP_CUDA_BATCH_SOURCES [1, 2^31 - 1]: cap on the sources per pass of
  // the CUDA delta-stepping APSP engine (src/engines/cuda/apsp_sparse/apsp_delta_stepping.cu);
  // unset: as many as the memory budget allows.
  std::optional<int64_t> cuda_batch_sources;
  // GSP_CUDA_SPMM_HUB_ARCS [1, 2^31 - 1]: in-degree above which the CUDA
  // SpMM APSP engine (src/engines/cuda/apsp_sparse/apsp_spmm.cu) splits a
  // vertex's in-arcs into chunks of at most this many, one warp each; unset:
  // 1024.
  std::optional<int64_t> cuda_spmm_hub_arcs;
  // GSP_CUDA_INDEX_SWEEP_PER_SM [0, 32]: blocks per multiprocessor of the
  // road index's cooperative sweep on CUDA (src/engines/cuda/index/ch_sweep.cu),
  // the top table and every level in one launch; 0: a kernel per level
  // below a one-block top. Unset: 4, as many as fit.
  std::optional<int64_t> cuda_index_sweep_per_sm;

  // ---- distributed Floyd-Warshall (src/engines/mpi/)
  // GSP_MPI_BLOCK_SIZE [1, 2048]: block size of the block-cyclic layout;
  // unset: from n, the grid and the ranks' engines.
  std::optional<int32_t> mpi_block_size;
  // The text of a GSP_MPI_BLOCK_SIZE that is set but not in [1, 2048]; empty
  // otherwise. The MPI engine refuses the call with it (doc/mpi.md): every
  // rank must use the same layout, and a typo must not silently pick another.
  std::string mpi_block_size_rejected;
  // GSP_MPI_GRID RxC (for example 2x2): the rank grid, read on rank 0 only;
  // R x C must be the number of ranks, else the call fails (every rank the
  // same status and message). Kept as text: the check needs the ranks.
  // Unset (empty): the grid of least panel volume (src/engines/mpi/comm.h).
  std::string mpi_grid;
  // GSP_MPI_TRACE (switch): every rank prints its stages to stderr.
  bool mpi_trace = false;
  // GSP_MPI_TRANSPORT auto|device|host: the device path (panels device to
  // device by NCCL, steps overlapped) where every rank has a device of its
  // own, else panels through host memory; "device" fails the call where the
  // device path cannot run; unset: auto.
  MpiTransport mpi_transport = MpiTransport::kAuto;
  // GSP_MPI_TEST_FAIL_RANK [0, 2^31 - 1]: test hook, that rank fails to
  // allocate its blocks as if out of memory. Read only in test builds
  // (GSP_TEST_HOOKS); always unset otherwise.
  std::optional<int> mpi_test_fail_rank;
  // GSP_MPI_TEST_FAIL_STEP [1, 2^31 - 1]: with GSP_MPI_TEST_FAIL_RANK, that
  // rank fails (GSP_ERR_DEVICE) after that many k-steps instead, while the
  // others compute. Test builds only, as above.
  std::optional<int> mpi_test_fail_step;
  // ---- several CUDA devices in one process (dispatch/multi_device.h)
  // GSP_TEST_FAIL_DEVICE [0, 2^31 - 1]: test hook, the part of a
  // multi-device run on that device ordinal fails as if out of device
  // memory. Read only in test builds (GSP_TEST_HOOKS); always unset otherwise.
  std::optional<int> test_fail_device;
  // GSP_TEST_RESULT_READY_DELAY_MS [1, 60000]: test hook, a pass-based
  // sparse APSP engine's result array is made ready that much later, and
  // beside the passes whatever its size (src/engines/cuda/apsp_sparse/
  // pass_pipeline.cuh: the rows held on the device meanwhile). Test builds
  // only, as above.
  std::optional<int> test_result_ready_delay_ms;
  // GSP_TEST_LOCK_PIECE_KB [4, 65536], a power of two: test hook, the
  // pieces in which a pass-based engine page-locks a result array made ready
  // beside its passes (core/gpu_runtime.h, kLockPieceBytes: 64 MiB), so that
  // small results' copies cross pieces too. Test builds only, as above.
  std::optional<int> test_lock_piece_kb;
};

// The knobs as the environment holds them now (see the top of this file).
Tuning tuning();

#if defined(GSP_TEST_HOOKS)
// Test builds only: the value a test set for `name` with gsp_test_tuning_set()
// (tests/tuning_hook.h), or nullptr; tuning() takes it before the
// environment's. The text stays valid for the life of the process.
const char* tuning_override(const char* name);
#endif

// The same parse over any source of values: `lookup(name)` answers a
// variable's text or nullptr. Every variable that is set but ignored is
// appended to `*ignored` (when given) as "NAME=value". tuning() is
// read_tuning(std::getenv, nullptr) (overrides first in test builds); tests
// call this directly.
Tuning read_tuning(const char* (*lookup)(const char* name), std::vector<std::string>* ignored = nullptr);

// The names of every variable read_tuning() reads (doc/tuning.md lists them).
std::vector<std::string> tuning_variables();

}  // namespace gsp::detail
