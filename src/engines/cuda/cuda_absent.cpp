// The CUDA backend where libgsp is built without CUDA (GSP_WITH_CUDA=OFF), compiled instead
// of every .cu file: its door (cuda_backend.h, beside it: no engine, a run throws
// GSP_ERR_NO_DEVICE), the runtime services of core/gpu_runtime.h (no device, nothing
// page-locked) and the MPI engine's device blocks (gpu::make_block_fw, core/block_fw.h).
#include "core/block_fw.h"
#include "core/gpu_runtime.h"
#include "engines/cuda/cuda_backend.h"

namespace gsp::detail::gpu {

namespace {
const char* const kWhy = "libgsp was built without CUDA (GSP_WITH_CUDA=OFF or no nvcc at build time)";
}

bool usable(std::string* why) {
  if (why != nullptr) *why = kWhy;
  return false;
}
int32_t device_count() { return 0; }
bool started() { return false; }
bool start_in_background(int32_t) { return false; }
bool supports(gsp_algorithm) { return false; }
void sssp(const SsspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void apsp(const ApspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void index_sssp(const ChBase&, const ChSeeder&, const SsspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void index_apsp(const ChBase&, const ChSeeder&, const ApspJob&) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void release_cached_memory() {}
void* result_buffer_take(size_t, size_t*, bool, size_t) { return nullptr; }
void result_buffer_lock(void*, size_t) {}
size_t lock_piece_of(const void*) { return 0; }
void result_buffer_give(void*, size_t) {}
bool result_buffer_worth_locking(size_t) { return false; }
bool page_locked(const void*) { return false; }
int32_t pointer_device(const void*) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void copy_memory(void*, const void*, size_t, int32_t, void*) { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void* default_stream() { return nullptr; }
bool device_groups_available(std::string* why) {
  if (why != nullptr) *why = kWhy;
  return false;
}
std::string device_group_id() { throw Error(GSP_ERR_NO_DEVICE, kWhy); }
void prepare_device_groups(int32_t, const std::vector<DeviceGroupJoin>&) {}
DeviceGroupState device_group_state(const std::string&) { return DeviceGroupState::kNone; }
bool device_group_ready(const std::string&) { return false; }
void device_group_forget(const std::string&) {}
template <class W>
std::unique_ptr<BlockFw<W>> make_block_fw(const BlockFwShape&, const RunOptions&) {
  throw Error(GSP_ERR_NO_DEVICE, kWhy);
}
template std::unique_ptr<BlockFw<float>> make_block_fw<float>(const BlockFwShape&, const RunOptions&);
template std::unique_ptr<BlockFw<int32_t>> make_block_fw<int32_t>(const BlockFwShape&, const RunOptions&);
template std::unique_ptr<BlockFw<double>> make_block_fw<double>(const BlockFwShape&, const RunOptions&);

}  // namespace gsp::detail::gpu
