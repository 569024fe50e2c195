// gsp_options::limit (gsp_search.h): vertices farther than the limit are
// reported unreachable. One rule for every engine of both backends, applied
// here on finished rows (and table cells); engines that settle vertices in
// distance order stop at the limit on their own (the CPU's Dijkstra rows),
// which is what makes a small limit cheap, and leave the cut to this file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/engine.h"
#include "core/table.h"

namespace gsp::detail {

// Whether the run has a limit at all.
inline bool has_limit(const RunOptions& o) { return o.limit < std::numeric_limits<double>::infinity(); }

// A finite limit needs w >= 0 (with negative arcs a vertex within the limit
// may be reached only through one beyond it): GSP_ERR_NEGATIVE_WEIGHT.
void require_limit_allowed(const Graph& g, const RunOptions& o);

// Rows of n distances of the graph's type (and predecessors, or null):
// every distance beyond the limit becomes unreachable (inf, pred -1). The
// kept vertices' predecessor chains stay whole: with w >= 0 every vertex on
// a shortest path to v is at most as far as v.
void cut_rows(const Graph& g, double limit, void* dist, int32_t* pred, size_t rows);

// The same for a table's cells and their paths.
void cut_table(Table& t, double limit);
void cut_table_dist(gsp_dtype dtype, double limit, void* dist, size_t cells);

// Cuts every block of rows before passing it on (APSP results and streams).
class LimitSink final : public RowSink {
 public:
  LimitSink(const Graph& g, double limit, RowSink* next) : g_(g), limit_(limit), next_(next) {}
  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override;
  int32_t preferred_block_rows() const override { return next_->preferred_block_rows(); }
  bool destination(Destination* out) override;
  bool has_destination() const override { return next_->has_destination(); }
  void prepare_destination(size_t lock_piece) override { next_->prepare_destination(lock_piece); }
  // One copy buffer: one call at a time.
  Order order() const override { return next_->order() == Order::kInOrder ? Order::kInOrder : Order::kAnyOrder; }
  void rows_written(int32_t first_index, int32_t num_rows) override;

 private:
  const Graph& g_;
  double limit_;
  RowSink* next_;
  Destination dest_;
  std::vector<char> dist_copy_;
  std::vector<int32_t> pred_copy_;
};

}  // namespace gsp::detail
