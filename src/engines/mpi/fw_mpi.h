// The distributed blocked Floyd-Warshall (2-D block decomposition): layout, the
// per-rank result, and the two collective entry points the C API calls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/host_array.h"
#include "core/paths.h"
#include "engines/mpi/comm.h"

namespace gsp::detail::mpi {

// 2-D block-cyclic layout: the matrix is cut into nb x nb blocks of b x b
// (the last row and column of blocks may be smaller); block (I, J) lives on
// grid position (I mod pr, J mod pc), as local block (I / pr, J / pc). A
// rank stores its nlr x nlc local blocks contiguously, each padded to b x b,
// in row-major block order, so a local block row is one contiguous run.
struct Layout {
  int32_t n = 0, b = 1, nb = 0;
  int pr = 1, pc = 1, myrow = 0, mycol = 0;
  int32_t nlr = 0, nlc = 0;

  Layout() = default;
  Layout(int32_t n_, int32_t b_, int pr_, int pc_, int myrow_, int mycol_)
      : n(n_), b(b_), nb((n_ + b_ - 1) / b_), pr(pr_), pc(pc_), myrow(myrow_), mycol(mycol_) {
    nlr = owned(nb, pr, myrow);
    nlc = owned(nb, pc, mycol);
  }
  // Blocks of [0, nb) congruent to me modulo p.
  static int32_t owned(int32_t nb, int p, int me) { return me < nb ? (nb - 1 - me) / p + 1 : 0; }
  int32_t grow(int32_t li) const { return li * pr + myrow; }
  int32_t gcol(int32_t lj) const { return lj * pc + mycol; }
  int32_t extent(int32_t blk) const { return std::min<int32_t>(b, n - blk * b); }
  int64_t bb() const { return static_cast<int64_t>(b) * b; }
  int64_t offset(int32_t li, int32_t lj) const { return (static_cast<int64_t>(li) * nlc + lj) * bb(); }
  // Elements of the local store; throws bad_alloc when it cannot be addressed.
  size_t local_elems() const {
    constexpr int64_t kMaxElems = std::numeric_limits<int64_t>::max() / 8;  // 8-byte cells stay addressable
    const double e = static_cast<double>(nlr) * nlc * static_cast<double>(bb());
    if (e > static_cast<double>(kMaxElems)) throw std::bad_alloc();
    return static_cast<size_t>(static_cast<int64_t>(nlr) * nlc * bb());
  }
};

// Default block size: 64 (the single-process engine's tile), halved down to
// 8 while there are fewer than two blocks per grid row/column.
inline int32_t default_block_size(int32_t n, int pr, int pc) {
  int32_t b = 64;
  const int need = 2 * std::max(pr, pc);
  while (b > 8 && (n + b - 1) / b < need) b /= 2;
  return b;
}

// Default block size where a rank computes on a GPU: 512 (K = 512 per
// min-plus product amortises each output tile's load and store, as in the
// single-device engine), halved down to 128 (the device tile) while there are
// fewer than two blocks per grid row/column.
inline int32_t default_gpu_block_size(int32_t n, int pr, int pc) {
  int32_t b = 512;
  const int need = 2 * std::max(pr, pc);
  while (b > 128 && (n + b - 1) / b < need) b /= 2;
  return b;
}

// Seconds of a call's stages on one rank (GSP_MPI_TRACE=1 prints them; the
// run info's stages are made of them, distributed_fw()).
struct StageTimes {
  double graph = 0;   // graph broadcast
  double setup = 0;   // allocation, engine choice, initial blocks (uploaded on a GPU rank)
  double ksteps = 0;  // the block steps: local work + broadcasts and agreement
  double local = 0, comm = 0;
  double deliver = 0;  // the result out of the engine (device to host on a GPU rank)
  double check = 0;    // predecessor check (and repair)
  double gather = 0;   // gsp_apsp_run_mpi's gather to rank 0
  const char* check_note = "";
};

// One rank's share of the result: its local store in the host block format,
// or, when `rows` (gsp_apsp_run_mpi on one rank), the whole n x n matrix in
// row-major order, ready to become the result without a copy.
struct BlockResult {
  Layout layout;
  int rank = 0, size = 1;
  gsp_dtype dtype = GSP_F32;
  bool has_paths = false;
  bool rows = false;
  int threads = 1;           // this rank's CPU threads (for the gather)
  HostArray<float> d_f32;    // GSP_F32
  HostArray<int32_t> d_i32;  // GSP_I32
  HostArray<double> d_f64;   // GSP_F64
  HostArray<int32_t> pred;   // empty without paths
  RunStats stats;
  StageTimes times;
  double t0 = 0;             // MPI_Wtime() at the call's start
  bool trace = false;        // GSP_MPI_TRACE in the call's snapshot of the knobs (the gather prints too)
  std::string where;         // "rank r of p (pr x pc grid, b = .., nb steps), <engine>, <transport>"
  std::string transport;     // how the panels moved: "NCCL panels", "host-staged panels", "one rank"
  std::string step_profile;  // the device path's own account of its steps (GSP_MPI_TRACE)
  const void* dist() const {
    if (dtype == GSP_F32) return d_f32.data();
    if (dtype == GSP_F64) return d_f64.data();
    return d_i32.data();
  }
};

// Collective over session. `first` is this rank's verdict on the caller's
// arguments (agreed before anything else), which the API layer
// (src/api/api_mpi.cpp) checked and normalised into `options` on every
// rank: rank 0's backend, algorithm (Floyd-Warshall), paths, limit and
// progress callback apply to the run; each rank's own device and device
// memory limit to its GPU. `asked_threads`: this rank's
// gsp_options::num_threads as the caller set it (0: the node's cores
// shared among the ranks on the node). graph matters on rank 0 only
// (checked there: not null). `gather`: the caller goes on to
// gather_to_root (on one rank the result is then delivered in rows,
// straight into the arrays the result keeps).
std::unique_ptr<BlockResult> distributed_fw(const Session& session, const Outcome& first, const Graph* graph,
                                            RunOptions options, int32_t asked_threads, bool gather);

// Collective over session (gsp_mpi_prepare; fw_mpi_prepare.cpp): starts
// each rank's device and makes the device groups that a call with these
// options joins (rank 0's backend, each rank's device), on a library thread
// per rank. With `wait`, returns once they are ready on every rank (else
// GSP_ERR_DEVICE on every rank). `first`: this rank's verdict on the
// caller's arguments, agreed first.
void prepare_device_path(const Session& session, const Outcome& first, RunOptions options, bool wait);

// Collective over session, every rank on a device (`device`: this rank's):
// waits for the device groups that gsp_mpi_prepare is still making, before
// a call's own device work (made beside it, both took longer: doc/mpi.md).
// A group not made on every rank is dropped (the call makes it anew).
void await_prepared_groups(const Session& session, int32_t device);

// Collective: sends every rank's blocks to rank 0 and builds the full result
// there (nullptr elsewhere). `before_agree` runs on rank 0 after the result
// is allocated and before the ranks agree to transfer (the API allocates its
// handle there, so that a failure is still agreed).
std::unique_ptr<Paths> gather_to_root(const Session& session, BlockResult& blocks, const GraphPtr& graph,
                                      const std::function<void()>& before_agree);

}  // namespace gsp::detail::mpi
