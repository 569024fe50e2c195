// Memory libgsp keeps between runs for speed, one of each per process:
// per-device workspace pools (CUDA SSSP family), page-locked host buffers
// (out-of-core Floyd-Warshall) and page-locked result buffers (results of
// CUDA runs). release_cached_memory() gives all of it back.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/gpu_backend.h"
#include "core/tuning.h"
#include "runtime/device.cuh"
#include "runtime/nccl_library.cuh"
#include "runtime/stage_clock.cuh"

namespace gsp::detail::gpu {

namespace {

constexpr unsigned long long kPoolKeep = 128ull << 20;
constexpr size_t kPinnedSlots = 2;
// Result buffers (SSSP results, all-pairs rows): an array is pinned when it
// can be kept for the next run, at most result_keep() bytes; up to
// kResultSlots free buffers are kept, at most result_keep() bytes in all
// (two n = 16384 all-pairs results with predecessors, 4 GiB, on a host of
// 16 GiB or more), so that a repeated run neither pins nor first-touches its
// result again. A larger array is ordinary memory: it would be pinned anew
// by every run (about 2 GB/s on the H100 hosts: 16 GB in 7.9 s, 137 GB in
// 77 s), where the devices' copies into ordinary memory ran at 3.8 GB/s
// (137 GB from 2 H200s in 35.7 s).
constexpr size_t kResultSlots = 8;
constexpr size_t kResultKeepMost = 8ull << 30;
constexpr size_t kResultAlign = 4096;

size_t physical_memory() {
  static const size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)0;
  }();
  return bytes;
}
size_t result_keep() { return std::min(kResultKeepMost, physical_memory() / 4); }

struct Caches {
  std::mutex mu;
  std::map<int, cudaMemPool_t> pools;                // device -> pool (nullptr: none)
  std::vector<std::pair<void*, size_t>> pinned;     // free pinned buffers
  std::vector<std::pair<void*, size_t>> results;    // free result buffers
};

// The switches of doc/tuning.md (GSP_CUDA_SSSP_POOL, GSP_DENSE_PINNED_CACHE,
// GSP_CUDA_PINNED_RESULTS) are read once per process, at first use: they
// decide what the caches hold between runs.
bool pinned_cache_on() {
  static const bool on = tuning().dense_pinned_cache;
  return on;
}

// Never destroyed: freeing CUDA memory after the runtime shut down at exit
// would fail; the OS takes it back. Callers that want it back earlier (and
// leak checkers) call release_cached_memory().
Caches& caches() {
  static Caches* c = new Caches();
  return *c;
}

// Removes and returns the smallest buffer of v holding at least `bytes`
// and at most `most` bytes (its size in *got), or nullptr. Caller holds
// the lock.
void* take_fitting(std::vector<std::pair<void*, size_t>>& v, size_t bytes, size_t most, size_t* got) {
  auto best = v.end();
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it->second >= bytes && it->second <= most && (best == v.end() || it->second < best->second)) best = it;
  }
  if (best == v.end()) return nullptr;
  void* p = best->first;
  *got = best->second;
  v.erase(best);
  return p;
}

}  // namespace

cudaMemPool_t workspace_pool(int device) {
  static const bool on = tuning().cuda_sssp_pool;
  if (!on) return nullptr;
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.pools.find(device);
  if (it != c.pools.end()) return it->second;
  cudaMemPool_t pool = nullptr;
  int supported = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && supported) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    if (cudaMemPoolCreate(&pool, &props) == cudaSuccess) {
      unsigned long long keep = kPoolKeep;
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    } else {
      pool = nullptr;
    }
  }
  (void)cudaGetLastError();
  c.pools[device] = pool;
  return pool;
}

void* pinned_cache_take(size_t bytes, size_t* got) {
  if (!pinned_cache_on()) return nullptr;
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  return take_fitting(c.pinned, bytes, SIZE_MAX, got);
}

void pinned_cache_give(void* p, size_t bytes) {
  if (!pinned_cache_on()) {
    cudaFreeHost(p);
    return;
  }
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  auto& v = c.pinned;
  v.emplace_back(p, bytes);
  if (v.size() > kPinnedSlots) {
    auto smallest = std::min_element(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    cudaFreeHost(smallest->first);
    v.erase(smallest);
  }
}

void* result_buffer_take(size_t bytes, size_t* got) {
  static const bool on = tuning().cuda_pinned_results;
  if (!on || bytes == 0 || bytes > result_keep()) return nullptr;
  {
    // The smallest free buffer that fits, unless it is more than twice the
    // request (a small result must not hold a large buffer).
    Caches& c = caches();
    std::lock_guard<std::mutex> lock(c.mu);
    if (void* p = take_fitting(c.results, bytes, 2 * bytes, got)) return p;
  }
  const size_t size = (bytes + kResultAlign - 1) / kResultAlign * kResultAlign;
  void* p = nullptr;
  if (cudaHostAlloc(&p, size, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  *got = size;
  return p;
}

void result_buffer_give(void* p, size_t bytes) {
  if (p == nullptr) return;
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  auto& v = c.results;
  v.emplace_back(p, bytes);
  // Over the bound: free the buffers given back longest ago first (v is in
  // the order of give()), so that the buffers of the run just finished,
  // which a repeated run needs again, stay.
  size_t total = 0;
  for (const auto& b : v) total += b.second;
  while (!v.empty() && (v.size() > kResultSlots || total > result_keep())) {
    total -= v.front().second;
    cudaFreeHost(v.front().first);
    v.erase(v.begin());
  }
  (void)cudaGetLastError();
}

void release_cached_memory() {
  release_nccl_cache();
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto& b : c.pinned) cudaFreeHost(b.first);
  c.pinned.clear();
  for (auto& b : c.results) cudaFreeHost(b.first);
  c.results.clear();
  for (auto& [device, pool] : c.pools) {
    if (pool != nullptr) {
      cudaDeviceSynchronize();  // frees queued with cudaFreeAsync land in the pool first
      cudaMemPoolTrimTo(pool, 0);
    }
    (void)device;
  }
  (void)cudaGetLastError();
  release_stage_events();  // the run-info stage clocks' pooled events
}

}  // namespace gsp::detail::gpu
