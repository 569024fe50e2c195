// One rank's share of a distributed blocked Floyd-Warshall (src/engines/mpi/fw_mpi.cpp):
// its blocks, and the three phases of a k-step on them. The MPI engine owns
// the communication and calls these in order; an implementation owns where
// the blocks live and how the tile products run:
//   - CPU threads: src/engines/cpu/apsp_dense/block_fw_cpu.h (blocks in the host store itself);
//   - a CUDA device: src/engines/cuda/apsp_dense/block_fw.cu (blocks resident on the device, the
//     host buffers below used only to stage what is broadcast).
// Plain C++: no MPI, no CUDA types.
//
// Host block format (the store and every buffer below): blocks of b x b,
// row-major and contiguous, padded with infinity past the matrix edge; a
// store holds nlr x nlc blocks in row-major block order (mpi::Layout).
// Distances in the API's representation (Dist<W>::inf() for unreachable),
// predecessors as global vertex ids or -1. Implementations running on
// different ranks therefore interoperate: a CPU rank and a GPU rank can
// exchange panels.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.h"

namespace gsp::detail {

struct BlockFwShape {
  int32_t n = 0;                                                 // vertices of the whole matrix
  int32_t b = 0;                                                 // block edge
  int32_t nlr = 0, nlc = 0;                                      // local blocks per column / row of the grid
  int32_t grid_rows = 1, grid_cols = 1, my_row = 0, my_col = 0;  // the rank grid
  bool paths = false;
  double max_abs_weight = 0;  // over the whole graph (picks the device's int32 form)
  int64_t m = 0;              // arcs of the graph
  // Every rank computes on a device and holds whole rows (one grid column):
  // a device implementation may then run the k-steps on distances alone
  // and find the predecessors from its finished rows (after_steps()).
  bool rows_whole_on_devices = false;
};

// The ranks as the device path of the k-steps sees them (BlockFw::connect,
// run_steps): set-up collectives over all ranks, the rank's grid row or its
// grid column, and failure notices while the devices run ahead of the
// hosts. The MPI engine implements it (src/engines/mpi/fw_mpi.cpp).
class RankGrid {
 public:
  enum Group { kAll = 0, kRow = 1, kCol = 2 };
  virtual ~RankGrid() = default;
  virtual int size(Group g) const = 0;
  virtual int rank(Group g) const = 0;
  // Collective over the group: `count` bytes from its member `root` to all.
  virtual void bcast(Group g, void* bytes, size_t count, int root) = 0;
  // Collective over the group: every member's `count` bytes, in group order.
  virtual void allgather(Group g, const void* mine, void* all, size_t count) = 0;
  // This process among all of the job's (e.g. its rank in MPI_COMM_WORLD).
  virtual int64_t process_id() const = 0;
  // Collective over all ranks: whether `mine` holds on every rank.
  virtual bool all(bool mine) = 0;
  // Tells every other rank, without waiting, that this one failed (once).
  virtual void notify_failure() = 0;
  // Whether another rank has told of a failure (never waits).
  virtual bool failure_notified() = 0;
  // After k-step `done` of `steps` ended on this rank (rank 0 reports the
  // caller's progress; throws GSP_ERR_CANCELLED when the caller cancels).
  virtual void step_done(int32_t done, int32_t steps) = 0;
};

// The name of device group g of `grid` as seen from this rank: its
// members' processes and devices (the CUDA ordinal, fixed within a
// process), in group order, and this rank's place. Collective over the
// group. Communicators kept under it (by a call, or made ahead by
// gsp_mpi_prepare) serve every later call among the same members.
std::string device_group_key(RankGrid& grid, RankGrid::Group g, int32_t device);  // block_fw.cpp

template <class W>
class BlockFw {
 public:
  virtual ~BlockFw() = default;

  // Builds the initial blocks from the graph (every rank has the whole
  // CSR): 0 on the diagonal, the lightest parallel arc elsewhere (its tail
  // as predecessor), infinity and -1 everywhere else. Each rank takes the
  // rows of its block rows and the arcs into its block columns. Throws
  // GSP_ERR_NEGATIVE_CYCLE on a negative self-loop.
  virtual void start(const CsrView<W>& g) = 0;
  // Before the first k-step driven phase by phase from the host (the
  // host-staged path): allocates what the phases stage panels through, so
  // that no buffer accessor below fails between collectives (may throw).
  virtual void prepare_host_steps() {}
  // A k-step on global block K begins (K's extent is the product depth).
  virtual void begin_step(int32_t K) = 0;
  // Whether the k-steps carry predecessors (in the panels too); false with
  // paths where after_steps() finds them instead. The same on every rank.
  virtual bool tracks_paths() const = 0;
  // After the last k-step, on every rank: predecessors from the finished
  // distances where the steps did not track them.
  virtual void after_steps(const CsrView<W>& g) { (void)g; }

  // Phase 1, on the owner of diagonal block (K, K) = local (lkr, lkc):
  // closes it in place and leaves a copy in diag_d() / diag_p().
  virtual void close_diagonal(int32_t lkr, int32_t lkc) = 0;
  // b x b host buffers: the closed diagonal block, sent by its owner and
  // received into by the ranks of its grid row and column.
  virtual W* diag_d() = 0;
  virtual int32_t* diag_p() = 0;  // null without paths
  // After a broadcast filled diag_d() (and diag_p() when with_preds).
  virtual void diag_received(bool with_preds) = 0;

  // Phase 2: block row lkr (when >= 0; all its blocks but column lkc) and
  // block column lkc (when >= 0; all its blocks but row lkr) relaxed
  // through the closed diagonal block.
  virtual void update_panels(int32_t lkr, int32_t lkc) = 0;

  // Block row K, nlc blocks. lkr >= 0: this rank's local block row lkr,
  // ready to send (valid until the next call); lkr < 0: the buffer to
  // receive into, then row_received().
  virtual W* row_d(int32_t lkr) = 0;
  virtual int32_t* row_p(int32_t lkr) = 0;  // null without paths
  virtual void row_received() = 0;
  // Block column K, nlr blocks (distances only: phase 3 takes predecessors
  // from the row panel). Same convention.
  virtual W* col_d(int32_t lkc) = 0;
  virtual void col_received() = 0;

  // Phase 3: every local block outside block row lkr and block column lkc
  // (either < 0: none skipped) relaxed through the column and row panels
  // (this rank's own when lkr / lkc >= 0, else the received ones).
  virtual void update_rest(int32_t lkr, int32_t lkc) = 0;

  // End of a k-step: throws GSP_ERR_NEGATIVE_CYCLE (a diagonal entry < 0)
  // or GSP_ERR_OVERFLOW (int32) when found.
  virtual void end_step() = 0;
  // The result into the host store (nlr x nlc blocks; store_p null without
  // paths). A CPU implementation computes in the store it was made with,
  // which these are: nothing to do.
  virtual void finish(W* store_d, int32_t* store_p) = 0;
  // On a 1 x 1 grid only (the rank holds every block): the result as n x n
  // row-major arrays (pred null without paths), every cell written, API
  // values. A device writes straight into them (page-locked or not).
  virtual void finish_rows(W* dist, int32_t* pred) = 0;
  // On a grid of one column (every rank holds whole rows) with paths, after
  // the last step and before finish*(): checks every row of this rank's
  // predecessors where the blocks are (each reachable
  // vertex must lead to the row's source, src/core/pred_repair.h) and
  // appends the rows that fail to *bad. Returns false where the
  // implementation leaves the check to the caller (CPU: the rows are on the
  // host anyway).
  virtual bool check_rows(std::vector<int32_t>* bad) = 0;
  // For gsp_run_info::device_name, e.g. "8 CPU threads", "NVIDIA H100 (device 0)".
  virtual std::string describe() const = 0;

  // The device path: every k-step where the blocks are, panels moved from
  // device to device, the next step's panels computed while this step's
  // bulk runs. Instead of the calls above from begin_step() to end_step().
  //
  // The device's identity (16 bytes; empty on a CPU): two ranks on one
  // device cannot join a device group.
  virtual std::string device_identity() const { return std::string(); }
  // Collective over every rank (the MPI engine calls it only when every
  // rank computes on a device of its own): joins the device groups of the
  // grid row and column. Returns the same on every rank; false (with *why)
  // leaves the host-staged path to the caller.
  virtual bool connect(RankGrid& grid, std::string* why) {
    (void)grid;
    *why = "not a device";
    return false;
  }
  // After connect() returned true: all k-steps. Throws this rank's failure
  // (after notifying the others); returns false when another rank notified
  // one (its status comes from the agreement that follows), true at the
  // end. A failure ends the device groups; no rank is left waiting.
  virtual bool run_steps(RankGrid& grid) {
    (void)grid;
    return false;
  }
  // How the panels moved, for gsp_run_info::device_name ("" before connect).
  virtual std::string transport() const { return std::string(); }
  // After run_steps(): where the steps' time went on this rank, for
  // GSP_MPI_TRACE ("" where not measured).
  virtual std::string step_profile() const { return std::string(); }
};

namespace gpu {

// A device-resident BlockFw (W: float, int32_t or double). start() builds
// the blocks on the device; the host store is written only by finish(),
// which the caller may allocate while the steps run. Throws
// GSP_ERR_NO_DEVICE where CUDA is not built or usable,
// GSP_ERR_DEVICE_OUT_OF_MEMORY when the blocks do not fit
// options.device_memory_limit or the device. shape.b must be a multiple of 128.
template <class W>
std::unique_ptr<BlockFw<W>> make_block_fw(const BlockFwShape& shape, const RunOptions& options);
// The block edge a device BlockFw needs its block size to be a multiple of.
constexpr int32_t kBlockFwGranule = 128;

}  // namespace gpu
}  // namespace gsp::detail
