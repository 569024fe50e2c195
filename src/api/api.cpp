// The C ABI: argument checks and the exception firewall around the core.
// Nothing else lives here.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "api/arg_checks.h"
#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_info.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"
#include "core/gpu_runtime.h"
#include "core/graph_build.h"
#include "io/io.h"

using gsp::detail::Error;
using gsp::detail::guard;
using gsp::detail::need;
using gsp::detail::require;

namespace {

const gsp::detail::Paths& paths_of(const gsp_paths* p) {
  need(p, "paths");
  return *p->paths;
}

void check_vertex(const gsp::detail::Paths& p, int32_t v, const char* name) {
  gsp::detail::require_index(v, p.n, name);
}

void check_format(const gsp_format& f) {
  const int v = gsp::detail::enum_value(f);
  require(v >= GSP_FORMAT_AUTO && v <= GSP_FORMAT_EDGE_LIST, GSP_ERR_INVALID_ARGUMENT,
          "format = " + std::to_string(v) + " is not a gsp_format");
}

bool unreachable(const gsp::detail::Paths& p, int32_t row, int32_t v) {
  if (p.dtype == GSP_F32) return std::isinf(static_cast<const float*>(p.dist_row(row))[v]);
  if (p.dtype == GSP_F64) return std::isinf(static_cast<const double*>(p.dist_row(row))[v]);
  return static_cast<const int32_t*>(p.dist_row(row))[v] == GSP_I32_INF;
}

}  // namespace

extern "C" {

GSP_API uint32_t gsp_version(void) { return GSP_VERSION; }

GSP_API gsp_status gsp_graph_create(gsp_graph** graph, int32_t num_vertices, int64_t num_edges, const int32_t* sources,
                                    const int32_t* targets, const void* weights, gsp_dtype weight_type,
                                    uint32_t flags) {
  if (graph != nullptr) *graph = nullptr;
  return guard([&] {
    need(graph, "graph");
    gsp::detail::check_graph_flags(flags);
    gsp::detail::check_dtype(weight_type);
    auto g = std::make_unique<gsp_graph>();
    g->graph = gsp::detail::build_graph_coo(num_vertices, num_edges, sources, targets, weights, weight_type,
                                            (flags & GSP_GRAPH_UNDIRECTED) != 0);
    *graph = g.release();
  });
}

GSP_API gsp_status gsp_graph_create_csr(gsp_graph** graph, int32_t num_vertices, const int64_t* offsets,
                                        const int32_t* targets, const void* weights, gsp_dtype weight_type,
                                        uint32_t flags) {
  if (graph != nullptr) *graph = nullptr;
  return guard([&] {
    need(graph, "graph");
    gsp::detail::check_graph_flags(flags);
    gsp::detail::check_dtype(weight_type);
    auto g = std::make_unique<gsp_graph>();
    g->graph = gsp::detail::build_graph_csr(num_vertices, offsets, targets, weights, weight_type,
                                            (flags & GSP_GRAPH_UNDIRECTED) != 0);
    *graph = g.release();
  });
}

GSP_API gsp_status gsp_graph_load(gsp_graph** graph, const char* path, gsp_format format, gsp_dtype weight_type,
                                  uint32_t flags) {
  if (graph != nullptr) *graph = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(path, "path");
    gsp::detail::check_graph_flags(flags);
    check_format(format);
    gsp::detail::check_dtype(weight_type);
    auto g = std::make_unique<gsp_graph>();
    g->graph = gsp::detail::io::load_graph(path, format, weight_type, (flags & GSP_GRAPH_UNDIRECTED) != 0);
    *graph = g.release();
  });
}

GSP_API gsp_status gsp_graph_save(const gsp_graph* graph, const char* path, gsp_format format) {
  return guard([&] {
    need(graph, "graph");
    need(path, "path");
    check_format(format);
    gsp::detail::io::save_graph(*graph->graph, path, format);
  });
}

GSP_API void gsp_graph_destroy(gsp_graph* graph) { delete graph; }

GSP_API int32_t gsp_graph_num_vertices(const gsp_graph* graph) { return graph ? graph->graph->n() : -1; }

GSP_API int64_t gsp_graph_num_edges(const gsp_graph* graph) { return graph ? graph->graph->m() : -1; }

GSP_API gsp_dtype gsp_graph_weight_type(const gsp_graph* graph) {
  return graph ? graph->graph->dtype() : static_cast<gsp_dtype>(0);
}

GSP_API gsp_status gsp_graph_csr(const gsp_graph* graph, int64_t* offsets, int32_t* targets, void* weights) {
  return guard([&] {
    need(graph, "graph");
    const auto& c = graph->graph->forward();
    // With no arcs the vectors are empty and data() may be NULL, which
    // memcpy must not get even for 0 bytes.
    if (offsets) std::memcpy(offsets, c.offsets.data(), c.offsets.size() * sizeof(int64_t));
    if (targets && !c.targets.empty()) std::memcpy(targets, c.targets.data(), c.targets.size() * sizeof(int32_t));
    if (weights) {
      gsp::detail::with_weight_type(graph->graph->dtype(), [&](auto w) {
        const auto& ws = gsp::detail::weights_of<decltype(w)>(c);
        if (!ws.empty()) std::memcpy(weights, ws.data(), ws.size() * sizeof(w));
      });
    }
  });
}

GSP_API void gsp_options_init_sized(gsp_options* options, size_t size) {
  if (options == nullptr || size < gsp::detail::kOptionsV1Size) return;
  gsp_options d;
  std::memset(&d, 0, sizeof d);
  d.backend = GSP_BACKEND_AUTO;
  d.algorithm = GSP_ALGO_AUTO;
  d.limit = HUGE_VAL;
  const size_t n = std::min(size, sizeof d);
  d.size = static_cast<uint32_t>(n);
  std::memcpy(options, &d, n);
}

// libgsp 0.1's entry (the header's gsp_options_init is a macro now): fills
// 0.1's struct only, for programs built against it.
GSP_API void(gsp_options_init)(gsp_options* options) { gsp_options_init_sized(options, gsp::detail::kOptionsV1Size); }

GSP_API gsp_status gsp_sssp_run(const gsp_graph* graph, int32_t source, const gsp_options* options,
                                gsp_paths** result) {
  if (result != nullptr) *result = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(result, "result");
    auto opts = gsp::detail::normalize_options(options);
    auto r = std::make_unique<gsp_paths>();
    r->paths = gsp::detail::run_sssp(graph->graph, source, opts);
    *result = r.release();
  });
}

GSP_API gsp_status gsp_apsp_run(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                const gsp_options* options, gsp_paths** result) {
  if (result != nullptr) *result = nullptr;
  return guard([&] {
    need(graph, "graph");
    need(result, "result");
    auto opts = gsp::detail::normalize_options(options);
    auto r = std::make_unique<gsp_paths>();
    r->paths = gsp::detail::run_apsp(graph->graph, sources, num_sources, opts);
    *result = r.release();
  });
}

GSP_API gsp_status gsp_apsp_stream(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                   const gsp_options* options, gsp_rows_fn on_rows, void* user) {
  return guard([&] {
    need(graph, "graph");
    need(reinterpret_cast<const void*>(on_rows), "on_rows");
    auto opts = gsp::detail::normalize_options(options);
    gsp::detail::run_apsp_stream(graph->graph, sources, num_sources, opts, on_rows, user);
  });
}

GSP_API gsp_status gsp_apsp_run_into(const gsp_graph* graph, const int32_t* sources, int32_t num_sources,
                                     const gsp_options* options, void* distances, int32_t* predecessors,
                                     gsp_run_info* info) {
  return guard([&] {
    need(graph, "graph");
    auto opts = gsp::detail::normalize_options(options);
    const gsp::detail::Graph& g = *graph->graph;
    const int32_t rows = sources == nullptr ? g.n() : num_sources;
    gsp::detail::RunStats stats;
    // The caller's info is checked before the run, not after it.
    if (info != nullptr) gsp::detail::write_run_info(stats, g.dtype(), g.n(), rows, predecessors != nullptr, info);
    gsp::detail::run_apsp_into_arrays(graph->graph, sources, num_sources, opts, distances, predecessors, &stats);
    if (info != nullptr) gsp::detail::write_run_info(stats, g.dtype(), g.n(), rows, predecessors != nullptr, info);
  });
}

GSP_API gsp_status gsp_run_plan(const gsp_graph* graph, int sssp, int32_t num_sources, const gsp_options* options,
                                gsp_backend* backend, gsp_algorithm* algorithm) {
  return guard([&] {
    need(graph, "graph");
    need(backend, "backend");
    need(algorithm, "algorithm");
    auto opts = gsp::detail::normalize_options(options);
    gsp::detail::plan_for(*graph->graph, sssp != 0, num_sources, opts, backend, algorithm);
  });
}

GSP_API int32_t gsp_paths_num_sources(const gsp_paths* paths) {
  return paths ? static_cast<int32_t>(paths->paths->sources.size()) : -1;
}

GSP_API int32_t gsp_paths_source(const gsp_paths* paths, int32_t index) {
  if (paths == nullptr || index < 0 || index >= static_cast<int32_t>(paths->paths->sources.size())) return -1;
  return paths->paths->sources[index];
}

GSP_API gsp_status gsp_paths_distances(const gsp_paths* paths, int32_t source, void* out, int64_t capacity) {
  return guard([&] {
    const auto& p = paths_of(paths);
    need(out, "out");
    const int32_t row = p.row(source);
    require(capacity >= p.n, GSP_ERR_BUFFER_TOO_SMALL,
            "capacity " + std::to_string(capacity) + " < " + std::to_string(p.n) + " vertices");
    std::memcpy(out, p.dist_row(row), static_cast<size_t>(p.n) * gsp::detail::weight_bytes(p.dtype));
  });
}

GSP_API gsp_status gsp_paths_distance(const gsp_paths* paths, int32_t source, int32_t target, void* out) {
  return guard([&] {
    const auto& p = paths_of(paths);
    need(out, "out");
    const int32_t row = p.row(source);
    check_vertex(p, target, "target");
    const size_t wb = gsp::detail::weight_bytes(p.dtype);
    std::memcpy(out, static_cast<const char*>(p.dist_row(row)) + static_cast<size_t>(target) * wb, wb);
  });
}

GSP_API gsp_status gsp_paths_predecessors(const gsp_paths* paths, int32_t source, int32_t* out, int64_t capacity) {
  return guard([&] {
    const auto& p = paths_of(paths);
    need(out, "out");
    const int32_t row = p.row(source);
    require(p.has_paths, GSP_ERR_UNSUPPORTED, "the run had GSP_NO_PATHS: no predecessors were computed");
    require(capacity >= p.n, GSP_ERR_BUFFER_TOO_SMALL,
            "capacity " + std::to_string(capacity) + " < " + std::to_string(p.n) + " vertices");
    std::memcpy(out, p.pred_row(row), static_cast<size_t>(p.n) * sizeof(int32_t));
  });
}

GSP_API gsp_status gsp_path_get(const gsp_paths* paths, int32_t source, int32_t target, int32_t* vertices,
                                int32_t capacity, int32_t* length) {
  return guard([&] {
    const auto& p = paths_of(paths);
    need(length, "length");
    *length = 0;
    const int32_t row = p.row(source);
    check_vertex(p, target, "target");
    require(p.has_paths, GSP_ERR_UNSUPPORTED, "the run had GSP_NO_PATHS: paths were not recorded");
    if (unreachable(p, row, target)) {
      throw Error(GSP_ERR_NO_PATH,
                  "vertex " + std::to_string(target) + " is not reachable from " + std::to_string(source));
    }
    const int32_t* pred = p.pred_row(row);
    int32_t len = 1;
    for (int32_t v = target; v != source; v = pred[v]) {
      if (pred[v] < 0 || len > p.n) {
        throw Error(GSP_ERR_INTERNAL,
                    "predecessor chain from " + std::to_string(target) + " does not reach " + std::to_string(source));
      }
      len++;
    }
    *length = len;
    if (vertices == nullptr) return;
    require(capacity >= len, GSP_ERR_BUFFER_TOO_SMALL,
            "the path has " + std::to_string(len) + " vertices; capacity is " + std::to_string(capacity));
    int32_t at = len - 1;
    for (int32_t v = target;; v = pred[v]) {
      vertices[at--] = v;
      if (v == source) break;
    }
  });
}

GSP_API gsp_status gsp_paths_info(const gsp_paths* paths, gsp_run_info* info) {
  return guard([&] {
    const auto& p = paths_of(paths);
    gsp::detail::write_run_info(p.stats, p.dtype, p.n, static_cast<int32_t>(p.sources.size()), p.has_paths, info);
  });
}

GSP_API void gsp_paths_destroy(gsp_paths* paths) { delete paths; }

GSP_API int gsp_backend_available(gsp_backend backend) {
  switch (gsp::detail::enum_value(backend)) {
    case GSP_BACKEND_AUTO:
    case GSP_BACKEND_CPU: return 1;
    case GSP_BACKEND_CUDA: {
      int ok = 0;
      gsp_status s = guard([&] {
        std::string why;
        ok = gsp::detail::gpu::usable(&why) ? 1 : 0;
        if (!ok) gsp::detail::set_last_error(GSP_ERR_NO_DEVICE, why);
      });
      return s == GSP_OK ? ok : 0;
    }
    default:
      guard([&] {
        throw Error(GSP_ERR_INVALID_ARGUMENT,
                    "backend = " + std::to_string(gsp::detail::enum_value(backend)) + " is not a gsp_backend");
      });
      return 0;
  }
}

GSP_API void gsp_release_cached_memory(void) {
  guard([] { gsp::detail::gpu::release_cached_memory(); });
}

GSP_API gsp_status gsp_device_start(int32_t device) {
  return guard([&] {
    if (device < GSP_ALL_DEVICES) {
      throw gsp::detail::Error(
          GSP_ERR_INVALID_ARGUMENT,
          "device = " + std::to_string(device) + " is neither a CUDA device ordinal (>= 0) nor GSP_ALL_DEVICES (-1)");
    }
    if (!gsp::detail::gpu::start_in_background(device)) {
      std::string why;
      (void)gsp::detail::gpu::usable(&why);
      throw gsp::detail::Error(GSP_ERR_NO_DEVICE, "gsp_device_start: " + why);
    }
  });
}

GSP_API int32_t gsp_device_count(void) {
  int32_t count = 0;
  guard([&] { count = gsp::detail::gpu::device_count(); });
  return count;
}

}  // extern "C"
