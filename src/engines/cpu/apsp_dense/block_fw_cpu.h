// BlockFw (core/block_fw.h) on CPU threads, for a rank of the distributed
// Floyd-Warshall (src/engines/mpi/fw_mpi.cpp); its CUDA twin is
// src/engines/cuda/apsp_dense/block_fw.cu. No MPI here: the MPI engine owns
// the communication. The rank's blocks stay in the host store and every
// phase is a list of b x b min-plus tile products (minplus_tile.h)
// spread over a persistent thread team. Zero copies except the column panel
// (gathered from nlr blocks) and the closed diagonal block. The initial
// blocks are built, and a 1 x 1 grid's result laid out in rows, by the same
// team (block rows / rows in parallel).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/block_fw.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/apsp_dense/minplus_tile.h"

namespace gsp::detail::cpu {

// Throws NEGATIVE_CYCLE when a diagonal entry of the store is negative
// (blocks of shape s laid out as in block_fw.h).
template <class W>
void check_store_diagonal(const BlockFwShape& s, const W* D) {
  const int64_t bb = static_cast<int64_t>(s.b) * s.b;
  for (int32_t li = 0; li < s.nlr; ++li) {
    const int32_t I = li * s.grid_rows + s.my_row;
    if (I % s.grid_cols != s.my_col) continue;
    const W* blk = D + (static_cast<int64_t>(li) * s.nlc + I / s.grid_cols) * bb;
    const int32_t rows = std::min<int32_t>(s.b, s.n - I * s.b);
    for (int32_t r = 0; r < rows; ++r) {
      if (blk[static_cast<int64_t>(r) * s.b + r] < W(0)) {
        throw Error(GSP_ERR_NEGATIVE_CYCLE, "the graph has a negative cycle through vertex " +
                                                std::to_string(static_cast<int64_t>(I) * s.b + r));
      }
    }
  }
}

template <class W>
class CpuBlockFw final : public BlockFw<W> {
 public:
  CpuBlockFw(const BlockFwShape& shape, int threads, W* store_d, int32_t* store_p)
      : s_(shape),
        bb_(static_cast<int64_t>(shape.b) * shape.b),
        D_(store_d),
        P_(shape.paths ? store_p : nullptr),
        paths_(shape.paths),
        team_(std::max(1, threads)) {
    cpu::alloc_vector(diag_d_, static_cast<size_t>(bb_), W(0));
    cpu::alloc_vector(row_d_, static_cast<size_t>(s_.nlc * bb_), W(0));
    cpu::alloc_vector(col_d_, static_cast<size_t>(s_.nlr * bb_), W(0));
    if (paths_) {
      cpu::alloc_vector(diag_p_, static_cast<size_t>(bb_), int32_t(-1));
      cpu::alloc_vector(row_p_, static_cast<size_t>(s_.nlc * bb_), int32_t(-1));
    }
    tasks_.reserve(static_cast<size_t>(s_.nlr) * static_cast<size_t>(s_.nlc) + 1);
  }

  void start(const CsrView<W>& g) override {
    for_each(s_.nlr, [&](int64_t li) { init_block_row(g, static_cast<int32_t>(li)); });
    check_store_diagonal(s_, D_);
  }
  void begin_step(int32_t K) override {
    K_ = K;
    sK_ = extent(K);
  }

  void close_diagonal(int32_t lkr, int32_t lkc) override {
    W* c = block_d(lkr, lkc);
    int32_t* pc = block_p(lkr, lkc);
    tasks_.assign(1, {c, pc, c, c, pc, sK_, sK_, sK_});
    run();
    std::copy(c, c + bb_, diag_d_.begin());
    if (pc != nullptr) std::copy(pc, pc + bb_, diag_p_.begin());
  }
  W* diag_d() override { return diag_d_.data(); }
  int32_t* diag_p() override { return paths_ ? diag_p_.data() : nullptr; }
  void diag_received(bool) override {}

  void update_panels(int32_t lkr, int32_t lkc) override {
    tasks_.clear();
    if (lkr >= 0) {  // block row K: C = min(C, Dkk (x) C), C in place
      for (int32_t lj = 0; lj < s_.nlc; ++lj) {
        const int32_t J = lj * s_.grid_cols + s_.my_col;
        if (J == K_) continue;
        W* c = block_d(lkr, lj);
        int32_t* pc = block_p(lkr, lj);
        tasks_.push_back({c, pc, diag_d_.data(), c, pc, sK_, extent(J), sK_});
      }
    }
    if (lkc >= 0) {  // block column K: C = min(C, C (x) Dkk)
      for (int32_t li = 0; li < s_.nlr; ++li) {
        const int32_t I = li * s_.grid_rows + s_.my_row;
        if (I == K_) continue;
        W* c = block_d(li, lkc);
        int32_t* pc = block_p(li, lkc);
        tasks_.push_back({c, pc, c, diag_d_.data(), diag_p(), extent(I), sK_, sK_});
      }
    }
    run();
  }

  W* row_d(int32_t lkr) override { return lkr >= 0 ? block_d(lkr, 0) : row_d_.data(); }
  int32_t* row_p(int32_t lkr) override {
    if (!paths_) return nullptr;
    return lkr >= 0 ? block_p(lkr, 0) : row_p_.data();
  }
  void row_received() override {}
  W* col_d(int32_t lkc) override {
    if (lkc >= 0) {
      for (int32_t li = 0; li < s_.nlr; ++li) {
        const W* src = block_d(li, lkc);
        std::copy(src, src + bb_, col_d_.begin() + li * bb_);
      }
    }
    return col_d_.data();
  }
  void col_received() override {}

  void update_rest(int32_t lkr, int32_t lkc) override {
    const W* rd = row_d(lkr);
    const int32_t* rp = row_p(lkr);
    tasks_.clear();
    for (int32_t li = 0; li < s_.nlr; ++li) {
      const int32_t I = li * s_.grid_rows + s_.my_row;
      if (I == K_) continue;
      for (int32_t lj = 0; lj < s_.nlc; ++lj) {
        const int32_t J = lj * s_.grid_cols + s_.my_col;
        if (J == K_) continue;
        tasks_.push_back({block_d(li, lj), block_p(li, lj), col_d_.data() + li * bb_, rd + lj * bb_,
                          rp != nullptr ? rp + lj * bb_ : nullptr, extent(I), extent(J), sK_});
      }
    }
    (void)lkc;  // the column panel is always col_d_ (col_d() gathered this rank's own)
    run();
  }

  void end_step() override {
    check_store_diagonal(s_, D_);
    if (flags_.overflow) {
      throw Error(GSP_ERR_OVERFLOW,
                  "an int32 distance would overflow in the all-pairs matrix; use GSP_F64 weights or smaller weights");
    }
  }
  void finish(W*, int32_t*) override {}
  bool tracks_paths() const override { return paths_; }
  bool check_rows(std::vector<int32_t>*) override { return false; }
  void finish_rows(W* dist, int32_t* pred) override {
    const int64_t n = s_.n;
    for_each(n, [&](int64_t i) {
      const int32_t I = static_cast<int32_t>(i / s_.b), r = static_cast<int32_t>(i % s_.b);
      for (int32_t J = 0; J < s_.nlc; ++J) {
        const int64_t from = offset(I, J) + static_cast<int64_t>(r) * s_.b, to = i * n + static_cast<int64_t>(J) * s_.b;
        const size_t cols = static_cast<size_t>(extent(J));
        std::memcpy(dist + to, D_ + from, cols * sizeof(W));
        if (pred != nullptr) std::memcpy(pred + to, P_ + from, cols * sizeof(int32_t));
      }
    });
  }
  std::string describe() const override {
    return std::to_string(team_.size()) + (team_.size() == 1 ? " CPU thread" : " CPU threads");
  }

 private:
  // C[i][j] = min(C[i][j], A[i][k] + B[k][j]) for i < rows, j < cols, k <
  // depth, k outermost; PC[i][j] = PB[k][j] where it improves. C may alias
  // A or B (phases 1 and 2 update a block in place), which is why k must
  // stay the outer loop.
  struct Task {
    W* c;
    int32_t* pc;
    const W* a;
    const W* b;
    const int32_t* pb;
    int32_t rows, cols, depth;
  };

  int32_t extent(int32_t blk) const { return std::min<int32_t>(s_.b, s_.n - blk * s_.b); }
  int64_t offset(int32_t li, int32_t lj) const { return (static_cast<int64_t>(li) * s_.nlc + lj) * bb_; }
  W* block_d(int32_t li, int32_t lj) const { return D_ + offset(li, lj); }
  int32_t* block_p(int32_t li, int32_t lj) const { return P_ != nullptr ? P_ + offset(li, lj) : nullptr; }

  // f(i) for i in [0, count), spread over the team.
  template <class F>
  void for_each(int64_t count, const F& f) {
    if (count <= 0) return;
    std::atomic<int64_t> next{0};
    team_.run([&](int) {
      for (int64_t i; (i = next.fetch_add(1)) < count;) f(i);
    });
  }

  // Local block row li of the initial matrix: infinity (predecessor -1),
  // 0 on the diagonal, the lightest parallel arc (predecessor: its tail).
  void init_block_row(const CsrView<W>& g, int32_t li) {
    W* d = block_d(li, 0);
    std::fill(d, d + s_.nlc * bb_, Dist<W>::inf());
    if (P_ != nullptr) std::fill(block_p(li, 0), block_p(li, 0) + s_.nlc * bb_, int32_t(-1));
    const int32_t I = li * s_.grid_rows + s_.my_row;
    const int32_t rows = extent(I);
    if (I % s_.grid_cols == s_.my_col) {
      W* blk = block_d(li, I / s_.grid_cols);
      for (int32_t r = 0; r < rows; ++r) blk[static_cast<int64_t>(r) * s_.b + r] = W(0);
    }
    for (int32_t r = 0; r < rows; ++r) {
      const int32_t u = I * s_.b + r;
      for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const int32_t v = g.targets[e];
        const int32_t J = v / s_.b;
        if (J % s_.grid_cols != s_.my_col) continue;
        const int64_t at = offset(li, J / s_.grid_cols) + static_cast<int64_t>(r) * s_.b + (v - J * s_.b);
        if (g.weights[e] < D_[at]) {
          D_[at] = g.weights[e];
          if (P_ != nullptr) P_[at] = u;
        }
      }
    }
  }

  cpu::TileResult one(const Task& t) const {
    return cpu::minplus_tile<W>(t.c, t.pc, t.a, t.b, t.pb, s_.b, 0, t.rows, 0, t.cols, 0, t.depth);
  }

  // Runs tasks_ (independent of one another: no two write the same block,
  // none reads a block another writes), merging their flags into flags_.
  void run() {
    const size_t count = tasks_.size();
    if (count == 0) return;
    if (count == 1 || team_.size() == 1) {
      for (const Task& t : tasks_) flags_.merge(one(t));
      return;
    }
    std::atomic<size_t> next{0};
    std::vector<cpu::TileResult> res(static_cast<size_t>(team_.size()));
    team_.run([&](int tid) {
      cpu::TileResult mine;
      for (size_t t; (t = next.fetch_add(1)) < count;) mine.merge(one(tasks_[t]));
      res[static_cast<size_t>(tid)] = mine;
    });
    for (const auto& r : res) flags_.merge(r);
  }

  BlockFwShape s_;
  int64_t bb_;
  W* D_;
  int32_t* P_;  // null without paths (and where this rank holds no blocks)
  bool paths_;
  cpu::Team team_;
  std::vector<W> diag_d_, row_d_, col_d_;
  std::vector<int32_t> diag_p_, row_p_;
  std::vector<Task> tasks_;
  cpu::TileResult flags_;
  int32_t K_ = 0, sK_ = 0;
};

}  // namespace gsp::detail::cpu
