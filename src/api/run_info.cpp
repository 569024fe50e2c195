#include "api/run_info.h"

#include <cstring>
#include <string>

namespace gsp::detail {

void write_run_info(const RunStats& stats, gsp_dtype dtype, int32_t num_vertices, int32_t num_sources,
                    bool has_paths, gsp_run_info* info) {
  require(info != nullptr, GSP_ERR_INVALID_ARGUMENT, "info must not be NULL");
  // size 0: a caller that never set it (e.g. `gsp_run_info info = {0};`) gets
  // this version's struct.
  require(info->size == 0 || info->size >= sizeof(gsp_run_info), GSP_ERR_INVALID_ARGUMENT,
          "info->size = " + std::to_string(info->size) + " is smaller than gsp_run_info of libgsp 0.1 (" +
              std::to_string(sizeof(gsp_run_info)) + "); set it to sizeof(gsp_run_info)");
  gsp_run_info r{};  // value-initialised: every member zero, device_name all NULs
  r.size = sizeof r;
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
  std::memcpy(info, &r, sizeof r);
}

}  // namespace gsp::detail
