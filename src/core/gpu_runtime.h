// The CUDA runtime's services to host code, beside running an engine (that is the CUDA
// backend's door, src/engines/cuda/cuda_backend.h): whether CUDA can run and on how many
// devices, starting them, page-locked result memory (core/result_memory.h), device arrays,
// the MPI engine's device groups. Plain C++: no CUDA types. A seam of core/, not part of
// the door, because core/ itself, api/ and the MPI engine read it too, and they may not
// include an engine's door. Implemented by src/engines/cuda/runtime/ (device.cu,
// memory_cache.cu, device_arrays.cu, nccl_library.cu) when libgsp is built with CUDA, and
// by src/engines/cuda/cuda_absent.cpp otherwise.
#pragma once

#include <string>
#include <vector>

#include "core/engine.h"

namespace gsp::detail::gpu {

// Whether CUDA can run now. Probes once (thread-safe) and caches; when it
// cannot, *why (if non-null) says why: not built with CUDA, no device,
// driver older than the runtime, ...
bool usable(std::string* why);
// Usable devices (0 when !usable).
int32_t device_count();
// Whether a CUDA run has started a device in this process (its driver and
// context, the start-up cost that AUTO weighs: dispatch/device_startup.h), or
// start_in_background() was asked to. Makes no CUDA call.
bool started();
// Starts device `device` (every usable one for -1) on a thread of its own and
// returns at once (gsp_device_start). Returns false when there is no CUDA
// backend to start (a build without CUDA). Thread-safe.
bool start_in_background(int32_t device);
// Returns memory kept between runs for speed (device workspace pools, pinned
// host buffers). Safe at any time; later runs re-create what they need.
void release_cached_memory();
// Page-locked host memory for a CUDA run's result arrays (SSSP distances and
// predecessors), so that the device-to-host copy runs at full speed instead
// of through the driver's staging buffer (NY: 2.1 MB, ~0.3 ms pageable).
// take(): a buffer of at least `bytes` (its size in *got), from the cache
// when one fits, else newly pinned; nullptr when the result is too large for
// this cache or pinning fails (use ordinary memory then). give(): hand it
// back (kept for the next run, within a small bound, or freed). Thread-safe.
// With lock = false, a new buffer is faulted in but not page-locked yet
// (no CUDA call from 4 MiB on, where the time goes: a thread may make it
// while a device computes; smaller ones come locked from cudaHostAlloc);
// result_buffer_lock() then locks it, and is a no-op for a buffer already
// locked or memory that is not one of these buffers.
//
// piece (a power of two, or 0): the caller copies into the buffer in parts
// that never cross a multiple of `piece` bytes of the address space
// (copy_to_host in the CUDA layer), so it may be page-locked in pieces of
// that size. A buffer locked while a device computes (a first call's result
// array, made ready beside the first passes) is, kLockPieceBytes at a time,
// because one registration of 2 GiB held the driver's lock for 50-100 ms
// and every CUDA call of the run waited meanwhile (H200 host: a pass's
// launches stalled 80 ms; with 64 MiB pieces another thread's calls waited
// at most 1.7 ms). The driver refuses a copy across two pieces
// (cudaErrorInvalidValue). With piece = 0, take() passes over cached buffers
// locked in pieces, and lock() locks whole.
constexpr size_t kLockPieceBytes = size_t(64) << 20;
void* result_buffer_take(size_t bytes, size_t* got, bool lock = true, size_t piece = 0);
void result_buffer_lock(void* p, size_t piece = 0);
// The piece size of the result buffer p lies in, where it is page-locked in
// pieces; else 0.
size_t lock_piece_of(const void* p);
void result_buffer_give(void* p, size_t bytes);
// Whether page-locking a result array of `bytes` pays: one the cache keeps
// for the next run. A larger one is used once, and registering it costs
// more than the copies gain (16 GiB on a 4 x H200 host: 1.8 s to register,
// 0.4 s to unregister, against 0.15 s of copies from 4 devices into it;
// staged copies into ordinary memory take about 0.5 s). Results leave such
// arrays unlocked (ArraySink::destination).
bool result_buffer_worth_locking(size_t bytes);
// Whether CUDA knows p as page-locked host memory (cudaHostAlloc'd or
// registered). False where CUDA is not usable.
bool page_locked(const void* p);

// Device arrays (gsp_device.h; src/engines/cuda/runtime/device_arrays.cu).
// The device whose memory p points into, or -1 for host memory (pageable or
// page-locked) and pointers CUDA does not know; throws GSP_ERR_NO_DEVICE
// where CUDA is not usable.
int32_t pointer_device(const void* p);
// Copies `bytes` between host and device memory, either way or device to
// device (the runtime tells which from the pointers), on `stream` (a
// cudaStream_t; null: the library's stream for `device`), and waits for it.
void copy_memory(void* dst, const void* src, size_t bytes, int32_t device, void* stream);
// CUDA's legacy default stream (cudaStreamLegacy), the one CuPy and PyTorch
// use by default: device-array calls without options.cuda_stream run on it,
// ordered after the caller's work.
void* default_stream();

// The MPI engine's device groups (the communicators its device path moves
// panels through: NCCL, src/engines/cuda/runtime/nccl_library.cuh), made
// ahead of the first call that needs them by gsp_mpi_prepare
// (src/engines/mpi/fw_mpi_prepare.cpp). A group is kept under its key
// (device_group_key, core/block_fw.h).
//
// Whether groups can be made on this rank (NCCL loads); *why says why not.
bool device_groups_available(std::string* why);
// A new group's id (128 bytes), made by its root; throws GSP_ERR_DEVICE.
std::string device_group_id();
// One group to join: its key, the root's id, its size, this rank's place.
struct DeviceGroupJoin {
  std::string key;
  std::string id;
  int size = 0;
  int rank = 0;
};
// Starts `device`, then joins the groups in order, on a thread of its own;
// returns at once. Failures there are not reported: the group is dropped,
// and the call that needs it makes it (and says why not).
void prepare_device_groups(int32_t device, const std::vector<DeviceGroupJoin>& joins);
// Where this rank stands with a group: none kept; joined (its making is
// inside the join, or the group is ready); or failed. Waits while its
// making has not reached the join (a device starting: never waits for
// another rank). Every member must be kJoined before any waits for the
// group to be ready (device_group_ready).
enum class DeviceGroupState { kNone, kJoined, kFailed };
DeviceGroupState device_group_state(const std::string& key);
// Waits for a joined group: whether it is ready.
bool device_group_ready(const std::string& key);
// Drops a group (a making left waiting is abandoned).
void device_group_forget(const std::string& key);

}  // namespace gsp::detail::gpu
