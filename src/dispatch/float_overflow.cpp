// The float overflow rule (see float_overflow.h).
#include "dispatch/float_overflow.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

namespace gsp::detail {

namespace {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", x);
  return buf;
}

// The largest finite value of a float weight type, and its name in messages.
template <class W>
constexpr double type_max() {
  return std::is_same_v<W, float> ? static_cast<double>(FLT_MAX) : DBL_MAX;
}
template <class W>
const char* type_max_text() {
  return std::is_same_v<W, float> ? "FLT_MAX = 3.4e38" : "DBL_MAX = 1.8e308";
}

template <class W>
void check_row(const Graph& graph, int32_t source, const W* dist) {
  const CsrView<W> g = graph.view<W>();
  for (int32_t v = 0; v < g.n; ++v) {
    if (std::isnan(dist[v]) || dist[v] == -INFINITY) {
      throw Error(GSP_ERR_OVERFLOW, "the float distance from " + std::to_string(source) + " to " + std::to_string(v) +
                                        " is " + (std::isnan(dist[v]) ? "NaN" : "-inf") +
                                        ": a path length left the weight type's range (|d| > " + type_max_text<W>() +
                                        "); use smaller weights");
    }
  }
  for (int32_t u = 0; u < g.n; ++u) {
    if (!std::isfinite(dist[u])) continue;
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const int32_t v = g.targets[e];
      if (dist[v] == INFINITY) {
        throw Error(GSP_ERR_OVERFLOW, "the float distance from " + std::to_string(source) + " to " + std::to_string(v) +
                                          " overflows: vertex " + std::to_string(u) + " is at " + num(dist[u]) +
                                          " and arc " + std::to_string(u) + " -> " + std::to_string(v) + " weighs " +
                                          num(g.weights[e]) + ", beyond " + type_max_text<W>() +
                                          " (the target is reachable); use smaller weights");
      }
    }
  }
}

}  // namespace

bool float_overflow_possible(const Graph& g) {
  if (!is_float_dtype(g.dtype()) || g.m() == 0) return false;
  const double max_abs = std::max(std::fabs(g.min_weight()), std::fabs(g.max_weight()));
  const double limit = g.dtype() == GSP_F32 ? type_max<float>() : type_max<double>();
  // (n - 1) max|w| >= max / 2, without overflowing double itself.
  return static_cast<double>(g.n() - 1) >= limit / 2 / max_abs;
}

void check_float_row(const Graph& graph, int32_t source, const void* dist) {
  if (graph.dtype() == GSP_F64) {
    check_row(graph, source, static_cast<const double*>(dist));
  } else {
    check_row(graph, source, static_cast<const float*>(dist));
  }
}

void FloatOverflowSink::check_rows(int32_t first_index, int32_t num_rows, const void* dist) const {
  const size_t row_bytes = static_cast<size_t>(g_.n()) * weight_bytes(g_.dtype());
  for (int32_t r = 0; r < num_rows; ++r) {
    check_float_row(g_, sources_[first_index + r], static_cast<const char*>(dist) + static_cast<size_t>(r) * row_bytes);
  }
}

void FloatOverflowSink::rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) {
  check_rows(first_index, num_rows, dist);
  next_->rows(first_index, num_rows, dist, pred);
}

bool FloatOverflowSink::destination(Destination* out) {
  if (!next_->destination(&dest_)) return false;
  *out = dest_;
  return true;
}

void FloatOverflowSink::rows_written(int32_t first_index, int32_t num_rows) {
  const size_t at = static_cast<size_t>(first_index) * static_cast<size_t>(g_.n()) * weight_bytes(g_.dtype());
  check_rows(first_index, num_rows, static_cast<const char*>(dest_.dist) + at);
  next_->rows_written(first_index, num_rows);
}

}  // namespace gsp::detail
