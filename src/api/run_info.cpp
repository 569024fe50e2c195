#include "api/run_info.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

namespace gsp::detail {

namespace {

// The sizes gsp_run_info has had, smallest first: libgsp 0.1's (up to
// has_paths), then each field appended since. A caller's size is rounded
// down to one of them, so that no field is written in part.
constexpr size_t kRunInfoSizes[] = {
    offsetof(gsp_run_info, setup_seconds),  // libgsp 0.1
    offsetof(gsp_run_info, compute_seconds),
    offsetof(gsp_run_info, copy_seconds),
    offsetof(gsp_run_info, paths_seconds),
    offsetof(gsp_run_info, num_devices),
    sizeof(gsp_run_info),
};

}  // namespace

void write_run_info(const RunStats& stats, gsp_dtype dtype, int32_t num_vertices, int32_t num_sources, bool has_paths,
                    gsp_run_info* info) {
  require(info != nullptr, GSP_ERR_INVALID_ARGUMENT, "info must not be NULL");
  // size 0: a caller that never set it (e.g. `gsp_run_info info = {0};`) gets
  // this version's struct. An older caller's smaller struct gets the fields
  // it has and nothing past them.
  const size_t asked = info->size == 0 ? sizeof(gsp_run_info) : info->size;
  require(asked >= kRunInfoSizes[0], GSP_ERR_INVALID_ARGUMENT,
          "info->size = " + std::to_string(info->size) + " is smaller than gsp_run_info of libgsp 0.1 (" +
              std::to_string(kRunInfoSizes[0]) + "); set it to sizeof(gsp_run_info)");
  size_t bytes = kRunInfoSizes[0];
  for (size_t s : kRunInfoSizes) {
    if (s <= asked) bytes = s;
  }
  gsp_run_info r{};  // value-initialised: every member zero, device_name all NULs
  r.size = static_cast<uint32_t>(bytes);
  r.backend = stats.backend;
  r.algorithm = stats.algorithm;
  r.weight_type = dtype;
  r.num_vertices = num_vertices;
  r.num_sources = num_sources;
  r.device = stats.device;
  std::string name = stats.device_name;
  if (name.empty() && stats.backend == GSP_BACKEND_CPU) name = "CPU";
  std::strncpy(r.device_name, name.c_str(), sizeof r.device_name - 1);
  r.seconds = stats.seconds;
  r.upload_seconds = stats.upload_seconds;
  r.iterations = stats.iterations;
  r.relaxations = stats.relaxations;
  r.has_paths = has_paths ? 1u : 0u;
  r.setup_seconds = stats.stage(Stage::kSetup);
  r.compute_seconds = stats.stage(Stage::kCompute);
  r.copy_seconds = stats.stage(Stage::kCopy);
  r.paths_seconds = stats.stage(Stage::kPaths);
  r.num_devices = stats.backend == GSP_BACKEND_CUDA ? std::max(1, stats.num_devices) : 0;
  std::memcpy(info, &r, bytes);
}

}  // namespace gsp::detail
