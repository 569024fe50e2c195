// The C ABI of device arrays (gsp_device.h): argument checks and the
// exception firewall around dispatch.cpp's device entries.
#include <memory>

#include "api/arg_checks.h"
#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_info.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"

using gsp::detail::guard;
using gsp::detail::need;

namespace {

// The device graph entries' shared part: the checks of gsp_graph_create*,
// then build(undirected, options) makes the graph. The weight type is taken
// by reference: a C caller may pass any int, and copying it as a gsp_dtype
// is already a load of the enum (undefined outside its range; UBSan's
// -fsanitize=enum), so nothing reads it as one before check_dtype.
template <class Build>
gsp_status create_device_graph(gsp_graph** graph, const gsp_dtype& weight_type, uint32_t flags,
                               const gsp_options* options, Build&& build) {
  if (graph != nullptr) *graph = nullptr;
  return guard([&] {
    need(graph, "graph");
    gsp::detail::check_graph_flags(flags);
    gsp::detail::check_dtype(weight_type);
    const auto opts = gsp::detail::normalize_options(options);
    auto g = std::make_unique<gsp_graph>();
    g->graph = build((flags & GSP_GRAPH_UNDIRECTED) != 0, opts);
    *graph = g.release();
  });
}

}  // namespace

extern "C" {

GSP_API gsp_status gsp_graph_create_csr_device(gsp_graph** graph, int32_t num_vertices, const int64_t* offsets,
                                               const int32_t* targets, const void* weights, gsp_dtype weight_type,
                                               uint32_t flags, const gsp_options* options) {
  return create_device_graph(graph, weight_type, flags, options, [&](bool undirected, const auto& opts) {
    return gsp::detail::build_graph_from_device(num_vertices, offsets, targets, weights, weight_type, undirected, opts);
  });
}

GSP_API gsp_status gsp_graph_create_device(gsp_graph** graph, int32_t num_vertices, int64_t num_edges,
                                           const int32_t* sources, const int32_t* targets, const void* weights,
                                           gsp_dtype weight_type, uint32_t flags, const gsp_options* options) {
  return create_device_graph(graph, weight_type, flags, options, [&](bool undirected, const auto& opts) {
    return gsp::detail::build_graph_coo_from_device(num_vertices, num_edges, sources, targets, weights, weight_type,
                                                    undirected, opts);
  });
}

GSP_API gsp_status gsp_sssp_run_device(const gsp_graph* graph, int32_t source, const gsp_options* options,
                                       void* distances, int32_t* predecessors, gsp_run_info* info) {
  return guard([&] {
    need(graph, "graph");
    const auto opts = gsp::detail::normalize_options(options);
    const gsp::detail::Graph& g = *graph->graph;
    gsp::detail::RunStats stats;
    // The caller's info is checked before the run, not after it.
    if (info != nullptr) gsp::detail::write_run_info(stats, g.dtype(), g.n(), 1, false, info);
    gsp::detail::run_sssp_device(graph->graph, source, opts, distances, predecessors, &stats);
    if (info != nullptr) {
      gsp::detail::write_run_info(stats, g.dtype(), g.n(), 1, predecessors != nullptr, info);
    }
  });
}

}  // extern "C"
