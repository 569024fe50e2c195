// The C ABI of nearest-source searches (gsp_search.h): argument checks and
// the exception firewall around dispatch_nearest.cpp.
#include "api/arg_checks.h"
#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"

using gsp::detail::guard;
using gsp::detail::need;

extern "C" {

GSP_API gsp_status gsp_nearest_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                   const gsp_options* options, void* distances, int32_t* nearest,
                                   int32_t* predecessors) {
  return guard([&] {
    need(graph, "graph");
    const auto opts = gsp::detail::normalize_options(options);
    gsp::detail::run_nearest(graph->graph, sources, num_sources, opts, distances, nearest, predecessors, nullptr);
  });
}

}  // extern "C"
