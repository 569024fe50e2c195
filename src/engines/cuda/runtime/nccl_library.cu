// NCCL loaded with dlopen (nccl_library.cuh).
#include "runtime/nccl_library.cuh"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "core/error.h"

namespace gsp::detail::gpu {
namespace {

// NCCL's C API as nccl.h declares it (results and data types are ints).
using nccl_comm_t = void*;
using GetUniqueId = int (*)(NcclId*);
using CommInitRank = int (*)(nccl_comm_t*, int, NcclId, int);
using CommDestroy = int (*)(nccl_comm_t);
using CommAbort = int (*)(nccl_comm_t);
using Broadcast = int (*)(const void*, void*, size_t, int, int, nccl_comm_t, cudaStream_t);
using GetErrorString = const char* (*)(int);
constexpr int kNcclSuccess = 0;
constexpr int kNcclInt8 = 0;

struct Library {
  bool loaded = false;
  std::string why;
  GetUniqueId get_unique_id = nullptr;
  CommInitRank comm_init_rank = nullptr;
  CommDestroy comm_destroy = nullptr;
  CommAbort comm_abort = nullptr;
  Broadcast broadcast = nullptr;
  GetErrorString error_string = nullptr;
};

template <class F>
bool bind(void* handle, const char* name, F* f, std::string* why) {
  *f = reinterpret_cast<F>(dlsym(handle, name));
  if (*f == nullptr) *why = std::string("NCCL library without ") + name;
  return *f != nullptr;
}

const Library& library() {
  static Library lib;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* path = std::getenv("GSP_NCCL_LIBRARY");
    if (path == nullptr || *path == '\0') path = "libnccl.so.2";
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* e = dlerror();
      lib.why = std::string("NCCL not found (") + (e != nullptr ? e : path) + ")";
      return;
    }
    if (!bind(h, "ncclGetUniqueId", &lib.get_unique_id, &lib.why) ||
        !bind(h, "ncclCommInitRank", &lib.comm_init_rank, &lib.why) ||
        !bind(h, "ncclCommDestroy", &lib.comm_destroy, &lib.why) ||
        !bind(h, "ncclCommAbort", &lib.comm_abort, &lib.why) || !bind(h, "ncclBroadcast", &lib.broadcast, &lib.why) ||
        !bind(h, "ncclGetErrorString", &lib.error_string, &lib.why)) {
      return;  // the handle stays open: harmless, and other users may share it
    }
    lib.loaded = true;
  });
  return lib;
}

void check(int rc, const char* what) {
  if (rc == kNcclSuccess) return;
  const Library& lib = library();
  throw Error(GSP_ERR_DEVICE, std::string("NCCL ") + what + " failed: " +
                                  (lib.error_string != nullptr ? lib.error_string(rc) : "unknown error") +
                                  " (code " + std::to_string(rc) + ")");
}

}  // namespace

bool nccl_available(std::string* why) {
  const Library& lib = library();
  if (!lib.loaded && why != nullptr) *why = lib.why;
  return lib.loaded;
}

NcclId NcclComm::make_id() {
  require(nccl_available(nullptr), GSP_ERR_DEVICE, library().why);
  NcclId id{};
  check(library().get_unique_id(&id), "ncclGetUniqueId");
  return id;
}

NcclComm::NcclComm(const NcclId& id, int size, int rank) : size_(size), rank_(rank) {
  require(nccl_available(nullptr), GSP_ERR_DEVICE, library().why);
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  nccl_comm_t c = nullptr;
  check(library().comm_init_rank(&c, size, id, rank), "ncclCommInitRank");
  comm_ = c;
}

NcclComm::~NcclComm() {
  if (comm_ != nullptr) library().comm_destroy(comm_);
}

void NcclComm::bcast(void* buf, size_t bytes, int root, cudaStream_t stream) {
  if (bytes == 0 || size_ <= 1) return;
  check(library().broadcast(buf, buf, bytes, kNcclInt8, root, comm_, stream), "ncclBroadcast");
}

namespace {
struct Cache {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<NcclComm>> comms;
};
Cache& cache() {
  static Cache* c = new Cache;  // never destroyed (nccl_library.cuh)
  return *c;
}
}  // namespace

std::shared_ptr<NcclComm> nccl_cache_find(const std::string& key) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  const auto it = c.comms.find(key);
  return it == c.comms.end() ? nullptr : it->second;
}

void nccl_cache_keep(const std::string& key, std::shared_ptr<NcclComm> comm) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.comms[key] = std::move(comm);
}

void nccl_cache_forget(const std::string& key) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.comms.erase(key);
}

void release_nccl_cache() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.comms.clear();
}

void NcclComm::abort() {
  if (comm_ != nullptr) library().comm_abort(comm_);
  comm_ = nullptr;
}

}  // namespace gsp::detail::gpu
