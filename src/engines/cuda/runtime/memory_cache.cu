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

#include <sys/mman.h>
#include <thread>
#include <unistd.h>

#include "core/gpu_runtime.h"
#include "core/parallel_copy.h"
#include "core/tuning.h"
#include "runtime/device.cuh"
#include "runtime/nccl_library.cuh"
#include "runtime/stage_clock.cuh"

namespace gsp::detail::gpu {

namespace {

constexpr unsigned long long kPoolKeep = 128ull << 20;
constexpr size_t kPinnedSlots = 2;
// Result buffers (SSSP results, all-pairs rows) are page-locked, so that
// devices copy into them at full speed (55 GB/s on the H100 host against
// 14 GB/s into ordinary memory already touched, 3.7 GB/s into fresh
// memory). They are made as fast as the host allows (fresh_result_buffer):
// an anonymous mapping with transparent huge pages asked for, faulted in by
// up to kTouchThreads threads, then registered with the driver. On the H100
// host 2 GiB took 0.042 s to fault in (16 threads) and 0.055 s to register,
// where cudaHostAlloc, which faults 4 KiB pages on one thread inside the
// driver, took 0.985 s. Up to kResultSlots free buffers are kept for the next
// run, at most result_keep() bytes in all (two n = 16384 all-pairs results
// with predecessors, 4 GiB, on a host of 16 GiB or more), so that a repeated
// run neither faults nor registers its result again. A buffer over half the
// host's memory is not locked (ordinary memory, faulted in the same way).
constexpr size_t kResultSlots = 8;
constexpr size_t kResultKeepMost = 8ull << 30;
constexpr size_t kResultAlign = 2ull << 20;  // a huge page
// Below this, a buffer comes from cudaHostAlloc (4 KiB pages): a mapping of
// whole huge pages would waste more than it saves.
constexpr size_t kResultMapFrom = 4ull << 20;
constexpr size_t kPageAlign = 4096;
constexpr int kTouchThreads = 32;
constexpr size_t kTouchPerThread = 64ull << 20;

size_t physical_memory() {
  static const size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)0;
  }();
  return bytes;
}
size_t result_keep() { return std::min(kResultKeepMost, physical_memory() / 4); }

// Writes one byte of every page of [p, p + bytes) (fresh anonymous memory:
// zeros), on up to kTouchThreads threads, so that the kernel maps every page
// before the driver locks them. Falls back to this thread alone when no
// thread can be started.
void fault_in(char* p, size_t bytes) {
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const size_t page = page_size > 0 ? (size_t)page_size : 4096;
  // One byte a page written. MADV_POPULATE_WRITE (Linux 5.14) maps a range
  // in one call, but it ran at 8-9.5 GB/s for 8 GiB on 16-64 threads where
  // writing ran at 56 GB/s on 32 (2 x H200 host, 32 cores), and it held the
  // process's address space while it ran (cudaMalloc waited up to 74 ms a
  // call; never while writing).
  const int32_t threads =
      static_cast<int32_t>(std::min<unsigned>(kTouchThreads, std::max(1u, std::thread::hardware_concurrency())));
  for_each_part(bytes, threads, kTouchPerThread, page, [p, page](size_t at, size_t len) {
    for (size_t x = 0; x < len; x += page) reinterpret_cast<volatile char*>(p + at)[x] = 0;
  });
}

struct Caches {
  std::mutex mu;
  std::map<int, cudaMemPool_t> pools;             // device -> pool (nullptr: none)
  std::vector<std::pair<void*, size_t>> pinned;   // free pinned buffers
  std::vector<std::pair<void*, size_t>> results;  // free result buffers
  struct Mapping {
    size_t size = 0;
    bool locked = false;
    size_t piece = 0;  // locked in pieces of this many bytes (0: whole)
  };
  std::map<void*, Mapping> mapped;  // mapped result buffers, out or kept
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
// and at most `most` bytes (its size in *got) that `fits` accepts, or
// nullptr. Caller holds the lock.
template <class Fits>
void* take_fitting(std::vector<std::pair<void*, size_t>>& v, size_t bytes, size_t most, size_t* got, Fits&& fits) {
  auto best = v.end();
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it->second >= bytes && it->second <= most && (best == v.end() || it->second < best->second) &&
        fits(it->first)) {
      best = it;
    }
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
  return take_fitting(c.pinned, bytes, SIZE_MAX, got, [](void*) { return true; });
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
    auto smallest =
        std::min_element(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    cudaFreeHost(smallest->first);
    v.erase(smallest);
  }
}

namespace {

// The pieces of [p, p + size) cut at the multiples of `piece` bytes of the
// address space: f(start, length) for each, in order, while f says go on.
template <class F>
void for_each_piece(void* p, size_t size, size_t piece, F&& f) {
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + size;
  for (uintptr_t at = reinterpret_cast<uintptr_t>(p); at < end;) {
    const uintptr_t next = std::min<uintptr_t>(end, (at / piece + 1) * piece);
    if (!f(reinterpret_cast<void*>(at), static_cast<size_t>(next - at))) return;
    at = next;
  }
}

void unregister_buffer(void* p, size_t size, size_t piece) {
  if (piece == 0) {
    cudaHostUnregister(p);
  } else {
    for_each_piece(p, size, piece, [](void* at, size_t) {
      (void)cudaHostUnregister(at);
      return true;
    });
  }
  (void)cudaGetLastError();
}

// Page-locks a mapped buffer of `size` bytes, whole or in pieces (the top of
// core/gpu_runtime.h says why), unless it is over half the host's memory;
// true when locked (a failure part way unlocks what was locked). Makes CUDA
// calls.
bool register_buffer(void* p, size_t size, size_t piece) {
  if (size > physical_memory() / 2) return false;
  bool locked = true;
  if (piece == 0) {
    locked = cudaHostRegister(p, size, cudaHostRegisterPortable) == cudaSuccess;
  } else {
    size_t done = 0;
    for_each_piece(p, size, piece, [&](void* at, size_t len) {
      locked = cudaHostRegister(at, len, cudaHostRegisterPortable) == cudaSuccess;
      if (locked) done += len;
      return locked;
    });
    (void)cudaGetLastError();
    if (!locked && done > 0) unregister_buffer(p, done, piece);
  }
  (void)cudaGetLastError();
  return locked;
}

// A new result buffer of `size` bytes (a multiple of kResultAlign), faulted
// in and, with `lock`, registered (see the top of the file), or nullptr when
// the host cannot map it. Caller does not hold the lock. Without `lock` it
// makes no CUDA call.
void* fresh_result_buffer(size_t size, bool lock, size_t piece) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  (void)madvise(p, size, MADV_HUGEPAGE);  // where the kernel offers it
  fault_in(static_cast<char*>(p), size);
  const bool locked = lock && register_buffer(p, size, piece);
  Caches& c = caches();
  std::lock_guard<std::mutex> guard(c.mu);
  c.mapped[p] = {size, locked, locked ? piece : 0};
  return p;
}

// Frees a result buffer: unlocks and unmaps one of fresh_result_buffer,
// else cudaFreeHost. Caller holds the lock.
void free_result_buffer(Caches& c, void* p, size_t size) {
  auto it = c.mapped.find(p);
  if (it == c.mapped.end()) {
    cudaFreeHost(p);
    (void)cudaGetLastError();
    return;
  }
  if (it->second.locked) unregister_buffer(p, it->second.size, it->second.piece);
  munmap(p, size);
  c.mapped.erase(it);
}

}  // namespace

void* result_buffer_take(size_t bytes, size_t* got, bool lock, size_t piece) {
  static const bool on = tuning().cuda_pinned_results;
  if (!on || bytes == 0) return nullptr;
  void* p = nullptr;
  if (bytes <= result_keep()) {
    // The smallest free buffer that fits, unless it is more than twice the
    // request (a small result must not hold a large buffer); one locked in
    // pieces only for a caller that copies in pieces.
    Caches& c = caches();
    std::lock_guard<std::mutex> guard(c.mu);
    p = take_fitting(c.results, bytes, 2 * bytes, got, [&](void* q) {
      const auto it = c.mapped.find(q);
      return piece != 0 || it == c.mapped.end() || it->second.piece == 0;
    });
  }
  if (p != nullptr) {
    if (lock) result_buffer_lock(p, piece);  // one prepared, never locked, then given back
    return p;
  }
  if (bytes < kResultMapFrom) {
    const size_t size = (bytes + kPageAlign - 1) / kPageAlign * kPageAlign;
    if (cudaHostAlloc(&p, size, cudaHostAllocPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    *got = size;
    return p;
  }
  const size_t size = (bytes + kResultAlign - 1) / kResultAlign * kResultAlign;
  p = fresh_result_buffer(size, lock, piece);
  if (p != nullptr) *got = size;
  return p;
}

bool result_buffer_worth_locking(size_t bytes) { return bytes <= result_keep(); }

bool page_locked(const void* p) {
  cudaPointerAttributes a{};
  if (p == nullptr || cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

void result_buffer_lock(void* p, size_t piece) {
  size_t size = 0;
  {
    Caches& c = caches();
    std::lock_guard<std::mutex> guard(c.mu);
    auto it = c.mapped.find(p);
    if (it == c.mapped.end() || it->second.locked) return;
    size = it->second.size;
  }
  // Registered outside the lock (it takes a while); the buffer is the
  // caller's alone until it is given back.
  const bool locked = register_buffer(p, size, piece);
  Caches& c = caches();
  std::lock_guard<std::mutex> guard(c.mu);
  c.mapped[p].locked = locked;
  c.mapped[p].piece = locked ? piece : 0;
}

size_t lock_piece_of(const void* p) {
  if (p == nullptr) return 0;
  Caches& c = caches();
  std::lock_guard<std::mutex> guard(c.mu);
  auto it = c.mapped.upper_bound(const_cast<void*>(p));
  if (it == c.mapped.begin()) return 0;
  --it;
  const char* base = static_cast<const char*>(it->first);
  const bool inside = static_cast<const char*>(p) < base + it->second.size;
  return inside && it->second.locked ? it->second.piece : 0;
}

void result_buffer_give(void* p, size_t bytes) {
  if (p == nullptr) return;
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  if (bytes > result_keep()) {  // never kept: a repeated run of this size would hold it twice
    free_result_buffer(c, p, bytes);
    return;
  }
  auto& v = c.results;
  v.emplace_back(p, bytes);
  // Over the bound: free the buffers given back longest ago first (v is in
  // the order of give()), so that the buffers of the run just finished,
  // which a repeated run needs again, stay.
  size_t total = 0;
  for (const auto& b : v) total += b.second;
  while (!v.empty() && (v.size() > kResultSlots || total > result_keep())) {
    total -= v.front().second;
    free_result_buffer(c, v.front().first, v.front().second);
    v.erase(v.begin());
  }
}

void release_cached_memory() {
  release_nccl_cache();
  Caches& c = caches();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto& b : c.pinned) cudaFreeHost(b.first);
  c.pinned.clear();
  for (auto& b : c.results) free_result_buffer(c, b.first, b.second);
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
