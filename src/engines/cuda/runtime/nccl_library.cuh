// NCCL, found at run time: libgsp needs no NCCL to build or link. The MPI
// engine's device path (src/engines/cuda/apsp_dense/block_fw_steps.cuh)
// uses it to broadcast panels from GPU to GPU; where the library cannot be
// loaded, that engine keeps its host-staged path (doc/mpi.md).
//
// Only what that path needs: a communicator over a group of ranks (one
// device each), byte broadcasts on a stream, and abort. The declarations
// are NCCL's public C API (nccl.h, unchanged since NCCL 2.0); the library
// is "libnccl.so.2", or the path in GSP_NCCL_LIBRARY. Implemented in
// nccl_library.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/gpu_runtime.h"

namespace gsp::detail::gpu {

// NCCL's unique id: 128 bytes that the group's root makes and every member
// receives (over MPI) before it joins.
struct NcclId {
  char bytes[128];
};

// Whether NCCL could be loaded (once per process); *why says why not.
bool nccl_available(std::string* why);

// One communicator: this rank's member of a group of `size` ranks.
class NcclComm {
 public:
  // A fresh id, made by the group's root (throws Error: GSP_ERR_DEVICE).
  static NcclId make_id();
  // Collective over the group, on the calling thread's current device;
  // throws Error (GSP_ERR_DEVICE) naming NCCL's reason. The environment's
  // NCCL_NVLS_ENABLE is set to 0 first where unset: the engine only
  // broadcasts, which NVLink multicast does not speed up.
  NcclComm(const NcclId& id, int size, int rank);
  // Destroys the communicator (its operations have ended), unless aborted.
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  int size() const { return size_; }
  int rank() const { return rank_; }
  // `bytes` bytes from the root's buf to every member's buf, queued on
  // `stream` (in place on the root).
  void bcast(void* buf, size_t bytes, int root, cudaStream_t stream);
  // Aborts the communicator and its operations in flight, without waiting
  // (a peer failed: they may never end).
  void abort();

 private:
  void* comm_ = nullptr;
  int size_ = 0, rank_ = 0;
};

// Communicators kept for the next call among the same group: NCCL connects
// a new communicator's devices at its first collective (about a second on
// two H200s), which repeated calls should pay once. The key names the group
// (its members and their devices, in order, and this rank's place:
// device_group_key in core/block_fw.h). Kept until release_nccl_cache()
// (gsp_release_cached_memory) and never destroyed at exit, when MPI and
// CUDA may be gone already.
//
// find() returns the kept communicator; one still being made ahead
// (nccl_prepare_groups) is waited for; nullptr where none is kept or the
// making failed.
std::shared_ptr<NcclComm> nccl_cache_find(const std::string& key);
void nccl_cache_keep(const std::string& key, std::shared_ptr<NcclComm> comm);
// Forgets a communicator (an aborted one must not be used again). One still
// being made is abandoned: its thread may stay in NCCL's join for good
// where a member never came (the members agree on that first: below).
void nccl_cache_forget(const std::string& key);
void release_nccl_cache();

// Groups made ahead of the call that uses them: gpu::prepare_device_groups
// and gpu::device_group_state (core/gpu_runtime.h) are implemented with
// this cache (nccl_library.cu); an entry being made is waited for by
// nccl_cache_find().
}  // namespace gsp::detail::gpu
