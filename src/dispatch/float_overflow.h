// Float distances that leave float's finite range: one rule for every
// engine on both backends. A GSP_F32 run whose distances do not fit (a path
// length beyond FLT_MAX, e.g. two arcs of 3e38) fails with GSP_ERR_OVERFLOW,
// naming the source, the arc and the vertex, as int32 runs do; it never
// reports such a target as unreachable. Engines add floats plainly (an
// overflowed sum is +inf and never improves a label, which is exactly the
// deferral the int32 engines make by hand); the decision is taken here, on
// the finished rows, where it costs one pass over the arcs per row, and only
// on graphs where (n - 1) max|w| can reach FLT_MAX at all.
#pragma once

#include <cstdint>

#include "core/engine.h"

namespace gsp::detail {

// False for GSP_I32 graphs (their engines check every sum) and for float
// graphs whose every simple path fits: (n - 1) max|w| < FLT_MAX / 2 (DBL_MAX
// / 2 for GSP_F64).
bool float_overflow_possible(const Graph& g);

// Throws Error(GSP_ERR_OVERFLOW) when dist (n distances of the graph's
// float type, GSP_F32 or GSP_F64, from source) holds
// an overflowed value: -inf or NaN anywhere, or an arc u -> v with dist[u]
// finite and dist[v] = +inf (a finished run has dist[v] <= dist[u] + w, so
// that sum overflowed and v is reachable at a length float cannot hold).
void check_float_row(const Graph& g, int32_t source, const void* dist);

// Checks every block of rows with check_float_row before passing it on, so
// a stream's callback never sees an overflowed row.
class FloatOverflowSink final : public RowSink {
 public:
  FloatOverflowSink(const Graph& g, const int32_t* sources, RowSink* next) : g_(g), sources_(sources), next_(next) {}
  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override;
  int32_t preferred_block_rows() const override { return next_->preferred_block_rows(); }
  // Rows written in place are checked there before they are passed on.
  bool destination(Destination* out) override;
  bool has_destination() const override { return next_->has_destination(); }
  void prepare_destination(size_t lock_piece) override { next_->prepare_destination(lock_piece); }
  Order order() const override { return next_->order(); }
  void rows_written(int32_t first_index, int32_t num_rows) override;

 private:
  void check_rows(int32_t first_index, int32_t num_rows, const void* dist) const;
  const Graph& g_;
  const int32_t* sources_;
  RowSink* next_;
  Destination dest_;
};

}  // namespace gsp::detail
