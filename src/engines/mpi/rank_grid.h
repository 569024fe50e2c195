// RankGrid (src/core/block_fw.h) over a Session's communicators: the set-up
// collectives of the device path, its failure notices, and progress.
//
// Failure notices are point-to-point messages on the session's private
// communicator (tag kFailureTag): a rank that fails while the devices run
// ahead sends one to every other rank without waiting; the others see it
// with MPI_Iprobe while they poll their devices, so no rank waits for a
// device that waits for a failed peer. drain() (collective, after the
// agreement that ends the steps) receives every notice, so none is left
// pending when the communicator is freed.
#pragma once

#include <functional>
#include <vector>

#include "core/block_fw.h"
#include "engines/mpi/comm.h"

namespace gsp::detail::mpi {

class MpiRankGrid final : public RankGrid {
 public:
  // on_step(done, steps): after each k-step on this rank (progress, test hooks).
  MpiRankGrid(const Session& s, std::function<void(int32_t, int32_t)> on_step) : s_(s), on_step_(std::move(on_step)) {}
  ~MpiRankGrid() override {
    // Normally drained; never leave a send request behind.
    if (!sends_.empty()) MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
  }
  MpiRankGrid(const MpiRankGrid&) = delete;
  MpiRankGrid& operator=(const MpiRankGrid&) = delete;

  int size(Group g) const override { return g == kAll ? s_.size() : g == kRow ? s_.pc() : s_.pr(); }
  int rank(Group g) const override { return g == kAll ? s_.rank() : g == kRow ? s_.mycol() : s_.myrow(); }
  void bcast(Group g, void* bytes, size_t count, int root) override {
    mpi::bcast(static_cast<char*>(bytes), static_cast<int64_t>(count), root, comm(g));
  }
  void allgather(Group g, const void* mine, void* all, size_t count) override {
    mpi_check(MPI_Allgather(mine, static_cast<int>(count), MPI_CHAR, all, static_cast<int>(count), MPI_CHAR, comm(g)),
              "MPI_Allgather");
  }
  int64_t process_id() const override {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  bool all(bool mine) override {
    int in = mine ? 1 : 0, out = 0;
    mpi_check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, s_.comm()), "MPI_Allreduce");
    return out != 0;
  }
  void notify_failure() override {
    if (notified_) return;
    notified_ = true;
    sends_.reserve(static_cast<size_t>(s_.size()));
    for (int r = 0; r < s_.size(); ++r) {
      if (r == s_.rank()) continue;
      sends_.emplace_back();
      MPI_Isend(&kNotice, 1, MPI_INT, r, kFailureTag, s_.comm(), &sends_.back());
    }
  }
  bool failure_notified() override {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kFailureTag, s_.comm(), &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  }
  void step_done(int32_t done, int32_t steps) override { on_step_(done, steps); }

  // Collective: receives the notices sent to this rank, completes its own.
  void drain() {
    const int p = s_.size();
    std::vector<int> sent(static_cast<size_t>(p), notified_ ? 1 : 0), coming(static_cast<size_t>(p), 0);
    sent[static_cast<size_t>(s_.rank())] = 0;
    mpi_check(MPI_Alltoall(sent.data(), 1, MPI_INT, coming.data(), 1, MPI_INT, s_.comm()), "MPI_Alltoall");
    for (int r = 0; r < p; ++r) {
      if (coming[static_cast<size_t>(r)] == 0) continue;
      int notice = 0;
      mpi_check(MPI_Recv(&notice, 1, MPI_INT, r, kFailureTag, s_.comm(), MPI_STATUS_IGNORE), "MPI_Recv");
    }
    if (!sends_.empty()) MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
    sends_.clear();
  }

 private:
  static constexpr int kFailureTag = 7001;
  static constexpr int kNotice = 1;
  MPI_Comm comm(Group g) const { return g == kAll ? s_.comm() : g == kRow ? s_.row_comm() : s_.col_comm(); }

  const Session& s_;
  std::function<void(int32_t, int32_t)> on_step_;
  bool notified_ = false;
  std::vector<MPI_Request> sends_;
};

}  // namespace gsp::detail::mpi
