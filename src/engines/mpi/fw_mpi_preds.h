// The predecessor check of the distributed Floyd-Warshall: whether rows
// can hold predecessor cycles at all, and the check and rebuild of rows on
// one rank (in place) or over a grid row of ranks (gathered block rows).
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "core/pred_repair.h"
#include "engines/mpi/fw_mpi_util.h"

namespace gsp::detail::mpi {

// Predecessor cycles (src/core/pred_repair.h; whether rows can hold them at
// all is its preds_need_check, the single-device engines' rule too) can
// only be seen in whole rows. One rank holding the whole matrix in rows
// checks them in place, rows spread over its threads.
template <class W>
void repair_pred_rows(const CsrView<W>& g, const W* D, int32_t* P, cpu::Team& team) {
  const int64_t n = g.n;
  std::vector<PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  std::atomic<int64_t> next{0};
  team.run([&](int tid) {
    PredRepairScratch& sc = scratch[static_cast<size_t>(tid)];
    for (int64_t i; (i = next.fetch_add(1)) < n;) {
      (void)repair_pred_row(g, static_cast<int32_t>(i), D + i * n, P + i * n, sc);
    }
  });
}

// The rows a device's check found bad, rebuilt on the host (each on one thread).
template <class W>
void rebuild_rows(const CsrView<W>& g, const W* D, int32_t* P, const std::vector<int32_t>& bad, cpu::Team& team) {
  const int64_t n = g.n;
  std::vector<PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  std::atomic<size_t> next{0};
  team.run([&](int tid) {
    for (size_t k; (k = next.fetch_add(1)) < bad.size();) {
      const int64_t i = bad[k];
      rebuild_pred_row(g, static_cast<int32_t>(i), D + i * n, P + i * n, scratch[static_cast<size_t>(tid)]);
    }
  });
}

// Over several ranks, the ranks of each grid row gather each of their block
// rows in full, check every row (rows spread over the rank's threads), and
// rebuild the bad ones; each rank keeps its own columns.
// `only` (n entries; a grid of one column whose devices checked the rows): the rows
// to rebuild; the others are known good.
template <class W>
void repair_preds(const Session& s, const Layout& L, const CsrView<W>& g, const W* D, int32_t* P, cpu::Team& team,
                  const std::vector<char>* only) {
  const int64_t bb = L.bb();
  const int64_t n = L.n;
  std::vector<int> counts(static_cast<size_t>(L.pc)), displs(static_cast<size_t>(L.pc));
  HostArray<W> rows_d, full_d;
  HostArray<int32_t> rows_p, full_p;
  std::vector<PredRepairScratch> scratch(static_cast<size_t>(team.size()));
  s.agree(capture([&] {
    int64_t total = 0;
    for (int c = 0; c < L.pc; ++c) {
      const int64_t cnt = Layout::owned(L.nb, L.pc, c) * bb;
      require(total + cnt <= INT_MAX, GSP_ERR_UNSUPPORTED,
              "a block row of " + std::to_string(n) + " x " + std::to_string(L.b) +
                  " entries is too large for one MPI message; use a smaller GSP_MPI_BLOCK_SIZE");
      counts[static_cast<size_t>(c)] = static_cast<int>(cnt);
      displs[static_cast<size_t>(c)] = static_cast<int>(total);
      total += cnt;
    }
    alloc_uninit(rows_d, total, false);
    alloc_uninit(rows_p, total, false);
    alloc_uninit(full_d, L.b * n, false);
    alloc_uninit(full_p, L.b * n, false);
  }));
  Outcome outcome;
  for (int32_t li = 0; li < L.nlr; ++li) {
    if (only != nullptr) {  // one grid column: no one to gather with, and block rows without bad rows are skipped
      const int32_t first = L.grow(li) * L.b;
      const auto* m = only->data();
      if (std::find(m + first, m + first + L.extent(L.grow(li)), char(1)) == m + first + L.extent(L.grow(li))) continue;
    }
    const int mine = static_cast<int>(L.nlc * bb);
    mpi_check(MPI_Allgatherv(D + L.offset(li, 0), mine, mpi_type<W>(), rows_d.data(), counts.data(), displs.data(),
                             mpi_type<W>(), s.row_comm()),
              "MPI_Allgatherv");
    mpi_check(MPI_Allgatherv(P + L.offset(li, 0), mine, MPI_INT32_T, rows_p.data(), counts.data(), displs.data(),
                             MPI_INT32_T, s.row_comm()),
              "MPI_Allgatherv");
    outcome.merge(capture([&] {
      const int32_t I = L.grow(li);
      const int32_t rows = L.extent(I);
      std::atomic<int32_t> next{0};
      team.run([&](int tid) {
        PredRepairScratch& sc = scratch[static_cast<size_t>(tid)];
        for (int32_t r; (r = next.fetch_add(1)) < rows;) {
          if (only != nullptr && (*only)[static_cast<size_t>(I) * L.b + r] == 0) continue;
          W* drow = full_d.data() + r * n;
          int32_t* prow = full_p.data() + r * n;
          for (int32_t J = 0; J < L.nb; ++J) {
            const int64_t from = displs[static_cast<size_t>(J % L.pc)] + static_cast<int64_t>(J / L.pc) * bb +
                                 static_cast<int64_t>(r) * L.b;
            const int64_t to = static_cast<int64_t>(J) * L.b;
            const size_t cols = static_cast<size_t>(L.extent(J));
            std::memcpy(drow + to, rows_d.data() + from, cols * sizeof(W));
            std::memcpy(prow + to, rows_p.data() + from, cols * sizeof(int32_t));
          }
          if (!repair_pred_row(g, I * L.b + r, drow, prow, sc)) continue;
          for (int32_t lj = 0; lj < L.nlc; ++lj) {
            const int32_t J = L.gcol(lj);
            std::memcpy(P + L.offset(li, lj) + static_cast<int64_t>(r) * L.b, prow + static_cast<int64_t>(J) * L.b,
                        static_cast<size_t>(L.extent(J)) * sizeof(int32_t));
          }
        }
      });
    }));
  }
  s.agree(outcome);
}

}  // namespace gsp::detail::mpi
