// The local part of the distributed Floyd-Warshall: min-plus products of
// b x b blocks held by one rank. The engine (fw_mpi.cpp) only builds lists of
// tile tasks and hands them to a LocalUpdate, so a GPU implementation (keep
// the rank's blocks on its device, run cuda/minplus_tile.cuh) can replace the
// CPU one without touching the communication.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_util.h"
#include "cpu/minplus_tile.h"

namespace gsp::detail::mpi {

using cpu::TileResult;

// C[i][j] = min(C[i][j], A[i][k] + B[k][j]) for i < rows, j < cols, k < depth,
// k outermost; PC[i][j] = PB[k][j] where it improves (both may be null when
// paths are not kept). Every block is b x b, row-major, leading dimension b.
// C may alias A or B (the first two phases of blocked Floyd-Warshall update a
// block in place), which is why k must stay the outer loop.
template <class W>
struct TileTask {
  W* c = nullptr;
  int32_t* pc = nullptr;
  const W* a = nullptr;
  const W* b = nullptr;
  const int32_t* pb = nullptr;
  int32_t rows = 0, cols = 0, depth = 0;
};

template <class W>
class LocalUpdate {
 public:
  virtual ~LocalUpdate() = default;
  // Runs tasks that are independent of one another (no two write the same
  // block, none reads a block another writes); returns the merged flags.
  virtual TileResult run(const TileTask<W>* tasks, size_t count) = 0;
  // For gsp_run_info::device_name, e.g. "8 CPU threads".
  virtual std::string describe() const = 0;
};

// CPU threads: a persistent team, tasks scheduled dynamically.
template <class W>
class CpuLocalUpdate final : public LocalUpdate<W> {
 public:
  CpuLocalUpdate(int threads, int32_t ld) : team_(std::max(1, threads)), ld_(ld) {}

  TileResult run(const TileTask<W>* tasks, size_t count) override {
    if (count == 0) return {};
    if (count == 1 || team_.size() == 1) {
      TileResult all;
      for (size_t t = 0; t < count; ++t) all.merge(one(tasks[t]));
      return all;
    }
    std::atomic<size_t> next{0};
    std::vector<TileResult> res(static_cast<size_t>(team_.size()));
    team_.run([&](int tid) {
      TileResult mine;
      for (size_t t; (t = next.fetch_add(1)) < count;) mine.merge(one(tasks[t]));
      res[static_cast<size_t>(tid)] = mine;
    });
    TileResult all;
    for (const auto& r : res) all.merge(r);
    return all;
  }

  std::string describe() const override {
    return std::to_string(team_.size()) + (team_.size() == 1 ? " CPU thread" : " CPU threads");
  }

 private:
  TileResult one(const TileTask<W>& t) const {
    return cpu::minplus_tile<W>(t.c, t.pc, t.a, t.b, t.pb, ld_, 0, t.rows, 0, t.cols, 0, t.depth);
  }

  cpu::Team team_;
  int64_t ld_;
};

}  // namespace gsp::detail::mpi
