// The C ABI of road indexes (gsp_index.h): argument checks and the
// exception firewall around dispatch/road_index_runs.h and the index files
// (io/index_file.h). Runs that answer from an index take it in their
// options (gsp_options::index) and need nothing here.
#include <memory>
#include <string>

#include "api/arg_checks.h"
#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_info.h"
#include "core/road_index.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"
#include "dispatch/road_index_runs.h"
#include "io/index_file.h"

using gsp::detail::guard;
using gsp::detail::need;

extern "C" {

GSP_API gsp_status gsp_index_build(const gsp_graph* graph, const gsp_options* options, gsp_index** index,
                                   gsp_run_info* info) {
  if (index != nullptr) *index = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(index, "index");
    const auto opts = gsp::detail::normalize_options(options);
    gsp::detail::RunStats stats;
    auto made = std::make_unique<gsp_index>();
    made->ch = gsp::detail::build_road_index(*graph->graph, opts, &stats);
    stats.device_name = "CPU (" + std::to_string(opts.num_threads) + " threads)";
    if (info != nullptr) {
      gsp::detail::write_run_info(stats, graph->graph->dtype(), graph->graph->n(), 0, false, info);
    }
    *index = made.release();
  });
}

GSP_API gsp_status gsp_index_size(const gsp_index* index, int32_t* num_vertices, int64_t* num_arcs,
                                  int64_t* num_shortcuts) {
  return guard([&] {
    need(index, "index");
    const gsp::detail::ChBase& ch = *index->ch;
    if (num_vertices != nullptr) *num_vertices = ch.n;
    if (num_arcs != nullptr) {
      *num_arcs = gsp::detail::with_weight_type(ch.dtype, [&](auto w) {
        const auto& h = static_cast<const gsp::detail::ChHierarchy<decltype(w)>&>(ch);
        return h.up_out.size() + h.up_in.size();
      });
    }
    if (num_shortcuts != nullptr) *num_shortcuts = ch.shortcuts;
  });
}

GSP_API gsp_status gsp_index_save(const gsp_index* index, const char* path) {
  return guard([&] {
    need(index, "index");
    need(path, "path");
    gsp::detail::io::save_index(*index->ch, path);
  });
}

GSP_API gsp_status gsp_index_load(const gsp_graph* graph, const char* path, gsp_index** index) {
  if (index != nullptr) *index = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(path, "path");
    need(index, "index");
    auto loaded = std::make_unique<gsp_index>();
    loaded->ch = gsp::detail::io::load_index(path);
    try {
      gsp::detail::require_index_of(*loaded->ch, *graph->graph);
    } catch (const gsp::detail::Error& e) {
      throw gsp::detail::Error(e.status(), std::string(path) + ": " + e.message());
    }
    *index = loaded.release();
  });
}

GSP_API void gsp_index_destroy(gsp_index* index) { delete index; }

}  // extern "C"
