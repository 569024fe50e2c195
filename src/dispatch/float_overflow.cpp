// The float overflow rule (see float_overflow.h).
#include "dispatch/float_overflow.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

namespace gsp::detail {

namespace {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", x);
  return buf;
}

}  // namespace

bool float_overflow_possible(const Graph& g) {
  if (g.dtype() != GSP_F32 || g.m() == 0) return false;
  const double max_abs = std::max(std::fabs(g.min_weight()), std::fabs(g.max_weight()));
  return static_cast<double>(g.n() - 1) * max_abs >= static_cast<double>(FLT_MAX) / 2;
}

void check_float_row(const Graph& graph, int32_t source, const float* dist) {
  const CsrView<float> g = graph.view<float>();
  for (int32_t v = 0; v < g.n; ++v) {
    if (std::isnan(dist[v]) || dist[v] == -INFINITY) {
      throw Error(GSP_ERR_OVERFLOW, "the float distance from " + std::to_string(source) + " to " + std::to_string(v) +
                                        " is " + (std::isnan(dist[v]) ? "NaN" : "-inf") +
                                        ": a path length left float's range (|d| > FLT_MAX = 3.4e38); "
                                        "use smaller weights");
    }
  }
  for (int32_t u = 0; u < g.n; ++u) {
    if (!std::isfinite(dist[u])) continue;
    for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const int32_t v = g.targets[e];
      if (dist[v] == INFINITY) {
        throw Error(GSP_ERR_OVERFLOW,
                    "the float distance from " + std::to_string(source) + " to " + std::to_string(v) +
                        " overflows: vertex " + std::to_string(u) + " is at " + num(dist[u]) + " and arc " +
                        std::to_string(u) + " -> " + std::to_string(v) + " weighs " + num(g.weights[e]) +
                        ", beyond FLT_MAX = 3.4e38 (the target is reachable); use smaller weights");
      }
    }
  }
}

void FloatOverflowSink::check_rows(int32_t first_index, int32_t num_rows, const float* dist) const {
  for (int32_t r = 0; r < num_rows; ++r) {
    check_float_row(g_, sources_[first_index + r], dist + static_cast<size_t>(r) * static_cast<size_t>(g_.n()));
  }
}

void FloatOverflowSink::rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) {
  check_rows(first_index, num_rows, static_cast<const float*>(dist));
  next_->rows(first_index, num_rows, dist, pred);
}

bool FloatOverflowSink::destination(Destination* out) {
  if (!next_->destination(&dest_)) return false;
  *out = dest_;
  return true;
}

void FloatOverflowSink::rows_written(int32_t first_index, int32_t num_rows) {
  const size_t at = static_cast<size_t>(first_index) * static_cast<size_t>(g_.n());
  check_rows(first_index, num_rows, static_cast<const float*>(dest_.dist) + at);
  next_->rows_written(first_index, num_rows);
}

}  // namespace gsp::detail
