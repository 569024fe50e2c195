// The distance limit (see distance_limit.h).
#include "dispatch/distance_limit.h"

#include <cstring>
#include <string>

namespace gsp::detail {

namespace {

template <class W>
void cut(const W* in, W* out, const int32_t* pred_in, int32_t* pred_out, size_t count, double limit) {
  const W inf = Dist<W>::inf();
  for (size_t i = 0; i < count; ++i) {
    const bool beyond = in[i] != inf && static_cast<double>(in[i]) > limit;
    out[i] = beyond ? inf : in[i];
    if (pred_out != nullptr) pred_out[i] = beyond ? -1 : pred_in[i];
  }
}

}  // namespace

void require_limit_allowed(const Graph& g, const RunOptions& o) {
  if (has_limit(o) && g.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                "options->limit needs non-negative weights; the graph's smallest is " + std::to_string(g.min_weight()));
  }
}

void cut_rows(const Graph& g, double limit, void* dist, int32_t* pred, size_t rows) {
  const size_t count = rows * static_cast<size_t>(g.n());
  with_weight_type(g.dtype(), [&](auto w) {
    using W = decltype(w);
    cut(static_cast<const W*>(dist), static_cast<W*>(dist), pred, pred, count, limit);
  });
}

void cut_table_dist(gsp_dtype dtype, double limit, void* dist, size_t cells) {
  with_weight_type(dtype, [&](auto w) {
    using W = decltype(w);
    cut(static_cast<const W*>(dist), static_cast<W*>(dist), nullptr, nullptr, cells, limit);
  });
}

void cut_table(Table& t, double limit) {
  const size_t cells = static_cast<size_t>(t.cells());
  cut_table_dist(t.dtype, limit, t.dist(), cells);
  if (!t.has_paths) return;
  // Cells now unreachable lose their paths (their rows keep the vertices).
  for (size_t c = 0; c < cells; ++c) {
    if (t.unreachable(c)) t.paths.drop(c);
  }
}

void LimitSink::rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) {
  // The engine's block is read-only: cut a copy.
  const size_t count = static_cast<size_t>(num_rows) * static_cast<size_t>(g_.n());
  dist_copy_.resize(count * weight_bytes(g_.dtype()));
  std::memcpy(dist_copy_.data(), dist, dist_copy_.size());
  int32_t* p = nullptr;
  if (pred != nullptr) {
    pred_copy_.assign(pred, pred + count);
    p = pred_copy_.data();
  }
  cut_rows(g_, limit_, dist_copy_.data(), p, static_cast<size_t>(num_rows));
  next_->rows(first_index, num_rows, dist_copy_.data(), p);
}

bool LimitSink::destination(Destination* out) {
  if (!next_->destination(&dest_)) return false;
  *out = dest_;
  return true;
}

void LimitSink::rows_written(int32_t first_index, int32_t num_rows) {
  const size_t at = static_cast<size_t>(first_index) * static_cast<size_t>(g_.n());
  cut_rows(g_, limit_, static_cast<char*>(dest_.dist) + at * weight_bytes(g_.dtype()),
           dest_.pred != nullptr ? dest_.pred + at : nullptr, static_cast<size_t>(num_rows));
  next_->rows_written(first_index, num_rows);
}

}  // namespace gsp::detail
