// core/table_paths.*: a table row's paths kept as one tree of chains.
// Random predecessor trees (shallow and bushy, deep and thin, a path) with
// random target lists (repeats, the source itself, unreachable targets):
// every cell's path read back equals the predecessor walk; each read
// crosses at most log2(U) + 1 chains (the heavy-path layout); the row
// stores each vertex once. Rows of whole paths (close_chain), a limit's
// dropped cells, a cleared table; a broken or cyclic chain, and corrupt
// chains, are GSP_ERR_INTERNAL, not a crash.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "core/error.h"
#include "core/table_paths.h"
#include "checks.h"

using gsp::detail::Error;
using gsp::detail::PathTreeBuilder;
using gsp::detail::RowPaths;
using gsp::detail::TablePaths;

namespace {

// Predecessors of a random tree over n vertices rooted at s: vertex order
// shuffled, each vertex's parent among the `reach` vertices placed before
// it (reach 1: one path; large: bushy). Vertices >= reached stay out of
// the tree (pred -1): unreachable.
std::vector<int32_t> random_tree(int32_t n, int32_t s, int32_t reached, int32_t reach, std::mt19937& rng) {
  std::vector<int32_t> order(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) order[static_cast<size_t>(v)] = v;
  std::swap(order[0], order[static_cast<size_t>(s)]);
  std::shuffle(order.begin() + 1, order.end(), rng);
  std::vector<int32_t> pred(static_cast<size_t>(n), -1);
  for (int32_t i = 1; i < reached; ++i) {
    const int32_t lo = std::max(0, i - reach);
    std::uniform_int_distribution<int32_t> pick(lo, i - 1);
    pred[static_cast<size_t>(order[static_cast<size_t>(i)])] = order[static_cast<size_t>(pick(rng))];
  }
  return pred;
}

bool in_tree(const std::vector<int32_t>& pred, int32_t s, int32_t v) {
  return v == s || pred[static_cast<size_t>(v)] >= 0;
}

// Chains a read of the path ending at `end` crosses.
int chains_crossed(const RowPaths& row, int32_t end) {
  int count = 0;
  for (int32_t p = end; p >= 0; ++count) {
    const auto it = std::upper_bound(row.chain_begin.begin(), row.chain_begin.end(), p);
    p = row.chain_parent[static_cast<size_t>(it - row.chain_begin.begin()) - 1];
  }
  return count;
}

void check_trees() {
  std::mt19937 rng(20261202);
  PathTreeBuilder builder;  // reused row after row, as a thread's is
  const int32_t sizes[] = {1, 2, 7, 100, 5000};
  const int32_t reaches[] = {1, 3, 1000000};
  int rows = 0;
  for (int32_t n : sizes) {
    for (int32_t reach : reaches) {
      for (int rep = 0; rep < 4; ++rep, ++rows) {
        std::uniform_int_distribution<int32_t> vertex(0, n - 1);
        const int32_t s = vertex(rng);
        const int32_t reached = rep == 3 ? std::max<int32_t>(1, n / 2) : n;
        const std::vector<int32_t> pred = random_tree(n, s, reached, reach, rng);
        const int32_t t_count = 1 + static_cast<int32_t>(rng() % 300);
        std::vector<int32_t> targets(static_cast<size_t>(t_count));
        std::vector<uint8_t> reachable(static_cast<size_t>(t_count));
        for (int32_t j = 0; j < t_count; ++j) {
          targets[static_cast<size_t>(j)] = j == 0 ? s : j % 5 == 1 ? targets[static_cast<size_t>(j) - 1] : vertex(rng);
          reachable[static_cast<size_t>(j)] = in_tree(pred, s, targets[static_cast<size_t>(j)]);
        }
        TablePaths table;
        table.reset(1, t_count);
        builder.build(pred.data(), n, s, targets.data(), t_count, reachable.data(), table.row(0), table.ends(0),
                      table.lengths(0));
        const RowPaths& row = table.row(0);
        std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
        bool once = true;
        for (int32_t v : row.vertices) {
          once = once && seen[static_cast<size_t>(v)] == 0;
          seen[static_cast<size_t>(v)] = 1;
        }
        CHECK(once, "n %d reach %d: a vertex is stored twice in the row", n, reach);
        const double bound = std::floor(std::log2(std::max<double>(1.0, static_cast<double>(row.vertices.size())))) + 1;
        int bad_paths = 0, deep_reads = 0;
        for (int32_t j = 0; j < t_count; ++j) {
          const int32_t t = targets[static_cast<size_t>(j)];
          const size_t cell = static_cast<size_t>(j);
          if (reachable[cell] == 0) {
            CHECK(table.length(cell) == 0, "n %d: unreachable target %d has a path of %d", n, t, table.length(cell));
            continue;
          }
          std::vector<int32_t> want;
          TablePaths::append_path(pred.data(), s, t, n, want);
          std::vector<int32_t> got(static_cast<size_t>(table.length(cell)));
          table.copy(cell, got.data());
          if (got != want) ++bad_paths;
          if (chains_crossed(row, table.ends(0)[j]) > bound) ++deep_reads;
        }
        CHECK(bad_paths == 0, "n %d reach %d rep %d: %d of %d paths differ from the predecessor walk", n, reach, rep,
              bad_paths, t_count);
        CHECK(deep_reads == 0, "n %d reach %d: %d reads crossed more than log2(U) + 1 = %.0f chains", n, reach,
              deep_reads, bound);
      }
    }
  }
  std::printf("  %d random rows checked\n", rows);
}

// A source whose targets are all unreachable (or absent) stores nothing.
void check_empty_rows() {
  PathTreeBuilder builder;
  const std::vector<int32_t> pred = {-1, -1, -1};
  const int32_t targets[] = {1, 2};
  const uint8_t reachable[] = {0, 0};
  TablePaths table;
  table.reset(1, 2);
  builder.build(pred.data(), 3, 0, targets, 2, reachable, table.row(0), table.ends(0), table.lengths(0));
  CHECK(table.row(0).vertices.empty() && table.length(0) == 0 && table.length(1) == 0,
        "unreachable targets: %zu vertices stored", table.row(0).vertices.size());
  builder.build(pred.data(), 3, 0, targets, 0, reachable, table.row(0), table.ends(0), table.lengths(0));
  CHECK(table.row(0).vertices.empty(), "no targets: %zu vertices stored", table.row(0).vertices.size());
}

// Whole paths as chains of their own, several rows, a dropped cell, clear().
void check_whole_paths() {
  TablePaths table;
  table.reset(2, 3);
  const std::vector<std::vector<int32_t>> paths = {{4, 1, 7}, {4}, {}, {9, 8}, {9, 3, 2, 5}, {9, 8, 6}};
  for (int32_t i = 0; i < 2; ++i) {
    RowPaths& row = table.row(i);
    for (int32_t j = 0; j < 3; ++j) {
      const std::vector<int32_t>& p = paths[static_cast<size_t>(i * 3 + j)];
      const int32_t begin = static_cast<int32_t>(row.vertices.size());
      row.vertices.insert(row.vertices.end(), p.begin(), p.end());
      const int32_t end = row.close_chain(begin, -1);
      table.set(static_cast<size_t>(i * 3 + j), end, end < 0 ? 0 : end - begin + 1);
    }
  }
  int bad = 0;
  for (size_t c = 0; c < paths.size(); ++c) {
    std::vector<int32_t> got(static_cast<size_t>(table.length(c)));
    table.copy(c, got.data());
    if (got != paths[c]) ++bad;
  }
  CHECK(bad == 0, "%d of 6 whole paths read back wrong", bad);
  CHECK(table.stored_vertices() == 13, "stored %lld vertices, want 13",
        static_cast<long long>(table.stored_vertices()));
  table.drop(4);
  CHECK(table.length(4) == 0 && table.length(5) == 3, "drop: lengths %d and %d", table.length(4), table.length(5));
  table.clear();
  CHECK(table.stored_vertices() == 0 && table.length(0) == 0, "clear left %lld vertices",
        static_cast<long long>(table.stored_vertices()));
}

// Predecessors that do not lead to the source, and chains that do not add
// up: an internal error with a message, never a crash or a loop.
void check_broken_input() {
  PathTreeBuilder builder;
  const int32_t targets[] = {3};
  const uint8_t reachable[] = {1};
  TablePaths table;
  table.reset(1, 1);
  const std::vector<std::vector<int32_t>> broken = {
      {-1, 0, -1, 2},  // 3 -> 2 -> (none): never reaches 0
      {-1, 2, 3, 1},   // 3 -> 1 -> 2 -> 3: a cycle
      {-1, 0, 0, 9},   // 3 -> 9: out of range
  };
  for (const std::vector<int32_t>& pred : broken) {
    gsp_status st = GSP_OK;
    try {
      builder.build(pred.data(), 4, 0, targets, 1, reachable, table.row(0), table.ends(0), table.lengths(0));
    } catch (const Error& e) {
      st = e.status();
    }
    CHECK(st == GSP_ERR_INTERNAL, "a broken chain gave status %d", static_cast<int>(st));
  }
  RowPaths row;
  row.vertices = {1, 2, 3};
  row.close_chain(0, -1);
  std::vector<int32_t> out(5);
  gsp_status st = GSP_OK;
  try {
    row.copy_path(2, 5, out.data());  // the chain holds 3, not 5
  } catch (const Error& e) {
    st = e.status();
  }
  CHECK(st == GSP_ERR_INTERNAL, "a short chain gave status %d", static_cast<int>(st));
  st = GSP_OK;
  try {
    row.copy_path(2, 2, out.data());  // more in the chain than the length
  } catch (const Error& e) {
    st = e.status();
  }
  CHECK(st == GSP_ERR_INTERNAL, "a long chain gave status %d", static_cast<int>(st));
}

}  // namespace

int main() {
  check_trees();
  check_empty_rows();
  check_whole_paths();
  check_broken_input();
  return t_finish("test_table_paths");
}
