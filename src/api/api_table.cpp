// The C ABI of many-to-many tables (gsp_table_*): argument checks and the
// exception firewall around dispatch_table.cpp; the table's accessors.
#include <cstring>
#include <memory>
#include <string>

#include "api/arg_checks.h"
#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_info.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"

using gsp::detail::Error;
using gsp::detail::guard;
using gsp::detail::need;
using gsp::detail::require;

namespace {

const gsp::detail::Table& table_of(const gsp_table* t) {
  need(t, "table");
  return *t->table;
}

}  // namespace

extern "C" {

GSP_API gsp_status gsp_table_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                 const int32_t* targets, int32_t num_targets, const gsp_options* options,
                                 gsp_table** result) {
  if (result != nullptr) *result = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(result, "result");
    auto opts = gsp::detail::normalize_options(options);
    auto r = std::make_unique<gsp_table>();
    r->table = gsp::detail::run_table(graph->graph, sources, num_sources, targets, num_targets, opts);
    *result = r.release();
  });
}

GSP_API gsp_status gsp_table_run_into(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                      const int32_t* targets, int32_t num_targets, const gsp_options* options,
                                      void* distances, gsp_run_info* info) {
  return guard([&] {
    need(graph, "graph");
    auto opts = gsp::detail::normalize_options(options);
    const gsp::detail::Graph& g = *graph->graph;
    gsp::detail::RunStats stats;
    // The caller's info is checked before the run, not after it.
    if (info != nullptr) gsp::detail::write_run_info(stats, g.dtype(), g.n(), num_sources, false, info);
    gsp::detail::run_table_into(graph->graph, sources, num_sources, targets, num_targets, opts, distances, &stats);
    if (info != nullptr) gsp::detail::write_run_info(stats, g.dtype(), g.n(), num_sources, false, info);
  });
}

GSP_API gsp_status gsp_table_size(const gsp_table* table, int32_t* num_sources, int32_t* num_targets) {
  return guard([&] {
    const auto& t = table_of(table);
    if (num_sources != nullptr) *num_sources = t.num_sources;
    if (num_targets != nullptr) *num_targets = t.num_targets;
  });
}

GSP_API gsp_status gsp_table_distances(const gsp_table* table, void* out, int64_t capacity) {
  return guard([&] {
    const auto& t = table_of(table);
    const uint64_t cells = t.cells();
    if (cells == 0) return;
    need(out, "out");
    require(capacity >= 0 && static_cast<uint64_t>(capacity) >= cells, GSP_ERR_BUFFER_TOO_SMALL,
            "capacity " + std::to_string(capacity) + " < " + std::to_string(t.num_sources) + " x " +
                std::to_string(t.num_targets) + " = " + std::to_string(cells) + " values");
    std::memcpy(out, t.dist(), static_cast<size_t>(cells) * gsp::detail::weight_bytes(t.dtype));
  });
}

GSP_API gsp_status gsp_table_distance(const gsp_table* table, int32_t source_index, int32_t target_index, void* out) {
  return guard([&] {
    const auto& t = table_of(table);
    need(out, "out");
    const size_t c = t.cell(source_index, target_index);
    const size_t wb = gsp::detail::weight_bytes(t.dtype);
    std::memcpy(out, static_cast<const char*>(t.dist()) + c * wb, wb);
  });
}

GSP_API gsp_status gsp_table_path(const gsp_table* table, int32_t source_index, int32_t target_index, int32_t* vertices,
                                  int32_t capacity, int32_t* length) {
  return guard([&] {
    const auto& t = table_of(table);
    need(length, "length");
    *length = 0;
    const size_t c = t.cell(source_index, target_index);
    require(t.has_paths, GSP_ERR_UNSUPPORTED, "the table was run with GSP_NO_PATHS: paths were not recorded");
    if (t.unreachable(c)) {
      throw Error(GSP_ERR_NO_PATH, "targets[" + std::to_string(target_index) + "] = vertex " +
                                       std::to_string(t.targets[static_cast<size_t>(target_index)]) +
                                       " is not reachable from sources[" + std::to_string(source_index) +
                                       "] = vertex " + std::to_string(t.sources[static_cast<size_t>(source_index)]));
    }
    const int32_t len = t.paths.length(c);
    *length = len;
    if (vertices == nullptr) return;
    require(capacity >= len, GSP_ERR_BUFFER_TOO_SMALL,
            "the path has " + std::to_string(len) + " vertices; capacity is " + std::to_string(capacity));
    t.paths.copy(c, vertices);
  });
}

GSP_API gsp_status gsp_table_info(const gsp_table* table, gsp_run_info* info) {
  return guard([&] {
    const auto& t = table_of(table);
    gsp::detail::write_run_info(t.stats, t.dtype, t.n, t.num_sources, t.has_paths, info);
  });
}

GSP_API void gsp_table_destroy(gsp_table* table) { delete table; }

}  // extern "C"
