// The host memory probe and the up-front check (see host_memory.h), plus the
// test hook that lets tests make any checked allocation site fail in turn.
#include "core/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

#if defined(GSP_TEST_HOOKS)
// Test builds only (CMake defines GSP_TEST_HOOKS when the tests are built):
// a test program may define this function; when it returns non-zero, the
// check at `what` refuses `bytes` as if they did not fit. A weak reference:
// in programs that do not define it, it is null and costs one comparison.
// Not part of the API; tests/test_faults.cpp uses it.
extern "C" __attribute__((weak, visibility("default"))) int gsp_testhook_host_reserve(const char* what, uint64_t bytes);
#endif

namespace gsp::detail {

namespace {

// First number in a small file ("max" and unreadable files: UINT64_MAX).
uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return UINT64_MAX;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(word.c_str(), &end, 10);
  return end != nullptr && *end == '\0' ? static_cast<uint64_t>(v) : UINT64_MAX;
}

// Value of "key value" in a file of such lines (memory.stat); 0 when absent.
uint64_t read_key(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string k;
  unsigned long long v = 0;
  while (in >> k >> v) {
    if (k == key) return static_cast<uint64_t>(v);
  }
  return 0;
}

void tighten(HostMemoryLimit* lim, uint64_t bytes, const std::string& source) {
  if (bytes < lim->bytes) {
    lim->bytes = bytes;
    lim->source = source;
  }
}

// /proc/meminfo: MemAvailable + SwapFree (what can be had without the
// out-of-memory killer); sysconf's physical pages where it is missing.
void probe_physical(HostMemoryLimit* lim) {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  unsigned long long kb = 0;
  uint64_t avail = UINT64_MAX, swap = 0;
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "MemAvailable:") avail = kb * 1024ull;
    if (key == "SwapFree:") swap = kb * 1024ull;
  }
  if (avail == UINT64_MAX) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) avail = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  }
  if (avail != UINT64_MAX) tighten(lim, bytes_add(avail, swap), "available physical memory + free swap");
}

// Headroom of one cgroup directory: limit - (usage - reclaimable page cache).
void probe_cgroup_dir(HostMemoryLimit* lim, const std::string& dir, bool v2) {
  const uint64_t limit = read_number(dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes"));
  if (limit == UINT64_MAX || limit >= (uint64_t(1) << 62)) return;  // no limit ("max" or v1's huge value)
  uint64_t used = read_number(dir + (v2 ? "/memory.current" : "/memory.usage_in_bytes"));
  if (used == UINT64_MAX) used = 0;
  const uint64_t cache = read_key(dir + "/memory.stat", v2 ? "file" : "total_cache");
  used = used > cache ? used - cache : 0;
  tighten(lim, limit > used ? limit - used : 0,
          v2 ? "cgroup v2 memory.max of " + dir : "cgroup v1 memory.limit_in_bytes of " + dir);
}

// The process's cgroups (/proc/self/cgroup), each from its own directory up
// to the mount point (a parent's limit bounds its children too).
void probe_cgroups(HostMemoryLimit* lim) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // "0::/path" (v2) or "N:memory:/path" (v1; controllers may be comma-joined)
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string ctrls = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    const bool v2 = ctrls.empty();
    bool memory = v2;
    std::stringstream ss(ctrls);
    for (std::string c; std::getline(ss, c, ',');) memory = memory || c == "memory";
    if (!memory) continue;
    const std::string mount = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    for (;;) {
      probe_cgroup_dir(lim, mount + (path == "/" ? "" : path), v2);
      if (path.empty() || path == "/") break;
      const size_t slash = path.find_last_of('/');
      path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
  }
}

// RLIMIT_AS minus the address space already mapped (/proc/self/statm).
void probe_rlimit(HostMemoryLimit* lim) {
  struct rlimit rl {};
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
  uint64_t mapped = 0;
  std::ifstream in("/proc/self/statm");
  unsigned long long pages = 0;
  if (in >> pages) mapped = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t cap = static_cast<uint64_t>(rl.rlim_cur);
  tighten(lim, cap > mapped ? cap - mapped : 0, "RLIMIT_AS");
}

std::string human(uint64_t bytes) {
  char buf[64];
  if (bytes == UINT64_MAX) return "more than 2^64 bytes";
  std::snprintf(buf, sizeof buf, "%llu bytes (%.1f GiB)", static_cast<unsigned long long>(bytes),
                static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace

HostMemoryLimit host_memory_limit() {
  HostMemoryLimit lim;
  probe_physical(&lim);
  probe_cgroups(&lim);
  probe_rlimit(&lim);
  return lim;
}

bool host_memory_hooked() {
#if defined(GSP_TEST_HOOKS)
  return gsp_testhook_host_reserve != nullptr;
#else
  return false;
#endif
}

void require_host_memory(uint64_t bytes, const std::string& what) {
#if defined(GSP_TEST_HOOKS)
  if (gsp_testhook_host_reserve != nullptr && gsp_testhook_host_reserve(what.c_str(), bytes) != 0) {
    throw Error(GSP_ERR_OUT_OF_MEMORY, what + " needs " + human(bytes) +
                                           ", but this process can have at most 0 bytes, limited by the test hook");
  }
#endif
  if (bytes < kHostCheckThreshold) return;
  const HostMemoryLimit lim = host_memory_limit();
  if (bytes <= lim.bytes) return;
  throw Error(GSP_ERR_OUT_OF_MEMORY, what + " needs " + human(bytes) + ", but this process can have at most " +
                                         human(lim.bytes) + ", limited by " + lim.source);
}

}  // namespace gsp::detail
