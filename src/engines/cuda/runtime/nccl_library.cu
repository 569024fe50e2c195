// NCCL loaded with dlopen (nccl_library.cuh).
#include "runtime/nccl_library.cuh"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "core/error.h"
#include "runtime/device.cuh"

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
  throw Error(GSP_ERR_DEVICE, std::string("NCCL ") + what +
                                  " failed: " + (lib.error_string != nullptr ? lib.error_string(rc) : "unknown error") +
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

namespace {
// NVLink multicast off where the environment leaves it unset: the engine
// only broadcasts, which it does not speed up. Once, on a caller's thread.
void set_nccl_defaults() {
  static std::once_flag once;
  std::call_once(once, [] { setenv("NCCL_NVLS_ENABLE", "0", 0); });
}
}  // namespace

NcclComm::NcclComm(const NcclId& id, int size, int rank) : size_(size), rank_(rank) {
  require(nccl_available(nullptr), GSP_ERR_DEVICE, library().why);
  set_nccl_defaults();
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

// A kept group: ready, or being made on a preparation thread.
struct Entry {
  enum State { kStarting, kJoining, kReady, kFailed };
  std::mutex mu;
  std::condition_variable cv;
  State state = kStarting;
  std::shared_ptr<NcclComm> comm;

  void set(State s, std::shared_ptr<NcclComm> c = nullptr) {
    {
      std::lock_guard<std::mutex> lock(mu);
      state = s;
      comm = std::move(c);
    }
    cv.notify_all();
  }
  // Waits while the state is below `until`.
  State wait_past(State until) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return state >= until; });
    return state;
  }
};

struct Cache {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<Entry>> entries;
  // Preparation threads still running; exit waits for them a while
  // (prepare_at_exit), so that none is inside NCCL or CUDA while the
  // process tears them down.
  std::mutex threads_mu;
  std::condition_variable threads_cv;
  int threads = 0;
};
Cache& cache() {
  static Cache* c = new Cache;  // never destroyed (nccl_library.cuh)
  return *c;
}

std::shared_ptr<Entry> entry(const std::string& key) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  const auto it = c.entries.find(key);
  return it == c.entries.end() ? nullptr : it->second;
}

// At exit: waits up to 30 s for preparation threads (one whose group never
// completes, because a member failed before joining, is left to the exit).
void prepare_at_exit() {
  Cache& c = cache();
  std::unique_lock<std::mutex> lock(c.threads_mu);
  c.threads_cv.wait_for(lock, std::chrono::seconds(30), [&] { return c.threads == 0; });
}

// The first broadcasts of a new communicator: NCCL connects its devices
// then (NCCL_RUNTIME_CONNECT), so a small one and a panel-sized one.
void connect_group(NcclComm& comm) {
  constexpr size_t kBytes = size_t(8) << 20;
  void* buf = nullptr;
  cudaStream_t st = nullptr;
  cudaError_t e = cudaMalloc(&buf, kBytes);
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  if (e == cudaSuccess) {
    try {
      comm.bcast(buf, 1, 0, st);
      comm.bcast(buf, kBytes, 0, st);
    } catch (...) {  // NCCL refused: nothing of ours left behind
      cudaStreamDestroy(st);
      cudaFree(buf);
      throw;
    }
    e = cudaStreamSynchronize(st);
  }
  if (st != nullptr) cudaStreamDestroy(st);
  if (buf != nullptr) cudaFree(buf);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(GSP_ERR_DEVICE, std::string("connecting an NCCL group: ") + cudaGetErrorString(e));
  }
}

NcclId id_of(const std::string& bytes) {
  NcclId id{};
  std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), sizeof id.bytes)),
            id.bytes);
  return id;
}

void prepare_on_thread(int device, const std::vector<DeviceGroupJoin>& joins,
                       const std::vector<std::shared_ptr<Entry>>& entries) {
  size_t i = 0;
  try {
    GSP_CUDA(cudaSetDevice(device));
    GSP_CUDA(cudaFree(nullptr));  // the context
    for (; i < joins.size(); ++i) {
      entries[i]->set(Entry::kJoining);
      auto comm = std::make_shared<NcclComm>(id_of(joins[i].id), joins[i].size, joins[i].rank);
      connect_group(*comm);
      entries[i]->set(Entry::kReady, std::move(comm));
    }
  } catch (...) {
    // This group and the ones after it: failed (those not joined yet say
    // so before their members wait: nccl_cache_joined).
    for (; i < joins.size(); ++i) entries[i]->set(Entry::kFailed);
  }
}

}  // namespace

std::shared_ptr<NcclComm> nccl_cache_find(const std::string& key) {
  const std::shared_ptr<Entry> e = entry(key);
  if (e == nullptr) return nullptr;
  if (e->wait_past(Entry::kReady) != Entry::kReady) return nullptr;
  std::lock_guard<std::mutex> lock(e->mu);
  return e->comm;
}

void nccl_cache_keep(const std::string& key, std::shared_ptr<NcclComm> comm) {
  auto e = std::make_shared<Entry>();
  e->set(Entry::kReady, std::move(comm));
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.entries[key] = std::move(e);
}

void nccl_cache_forget(const std::string& key) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.entries.erase(key);
}

void release_nccl_cache() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.entries.clear();
}

DeviceGroupState device_group_state(const std::string& key) {
  const std::shared_ptr<Entry> e = entry(key);
  if (e == nullptr) return DeviceGroupState::kNone;
  return e->wait_past(Entry::kJoining) == Entry::kFailed ? DeviceGroupState::kFailed : DeviceGroupState::kJoined;
}

void prepare_device_groups(int32_t device, const std::vector<DeviceGroupJoin>& joins) {
  if (joins.empty()) return;
  set_nccl_defaults();  // here, not on the thread: setenv beside other threads' getenv is a race
  std::vector<std::shared_ptr<Entry>> entries;
  entries.reserve(joins.size());
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    for (const DeviceGroupJoin& j : joins) {
      entries.push_back(std::make_shared<Entry>());
      c.entries[j.key] = entries.back();
    }
  }
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(prepare_at_exit); });
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.threads_mu);
    ++c.threads;
  }
  try {
    std::thread([device, joins, entries] {
      prepare_on_thread(device, joins, entries);
      Cache& k = cache();
      {
        std::lock_guard<std::mutex> lock(k.threads_mu);
        --k.threads;
      }
      k.threads_cv.notify_all();
    }).detach();
  } catch (...) {  // no thread: nothing prepared, the call makes its groups
    for (const auto& e : entries) e->set(Entry::kFailed);
    std::lock_guard<std::mutex> lock(c.threads_mu);
    --c.threads;
  }
}

bool device_groups_available(std::string* why) { return nccl_available(why); }

std::string device_group_id() {
  const NcclId id = NcclComm::make_id();
  return std::string(id.bytes, sizeof id.bytes);
}

bool device_group_ready(const std::string& key) { return nccl_cache_find(key) != nullptr; }

void device_group_forget(const std::string& key) { nccl_cache_forget(key); }

void NcclComm::abort() {
  if (comm_ != nullptr) library().comm_abort(comm_);
  comm_ = nullptr;
}

}  // namespace gsp::detail::gpu
