// The CUDA boundary when libgsp is built without CUDA (GSP_WITH_CUDA=OFF).
#include "core/gpu_backend.h"

namespace gsp::detail::gpu {

namespace {
const char* const kWhy = "libgsp was built without CUDA (GSP_WITH_CUDA=OFF or no nvcc at build time)";
}

bool usable(std::string* why) {
  if (why != nullptr) *why = kWhy;
  return false;
}
int32_t device_count() { return 0; }
bool supports(gsp_algorithm) { return false; }
void sssp(const SsspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void apsp(const ApspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void release_cached_memory() {}

}  // namespace gsp::detail::gpu
