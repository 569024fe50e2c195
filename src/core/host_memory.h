// What this process can still have of host memory, and the up-front check
// made before every allocation that grows with n, m or n^2 (graphs, file
// readers, results, CPU engine workspaces, the CUDA backend's host buffers):
// a request that cannot fit answers GSP_ERR_OUT_OF_MEMORY at once, naming
// the bytes needed and available, instead of touching gigabytes first or
// getting the process killed by the kernel's out-of-memory killer.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace gsp::detail {

// The tightest of the limits this process runs under, in bytes, and which
// one it is ("available physical memory + free swap", "cgroup v2
// memory.max", "cgroup v1 memory.limit_in_bytes", "RLIMIT_AS").
struct HostMemoryLimit {
  uint64_t bytes = UINT64_MAX;
  std::string source = "no limit found";
};

// Reads /proc/meminfo, the process's cgroup (v2 and v1, up to the root) and
// RLIMIT_AS (minus the address space already mapped). A few reads of small
// files: call it once per large allocation, not per element.
HostMemoryLimit host_memory_limit();

// Requests below this are never refused up front (the probe is skipped);
// they fail, if ever, as ordinary allocations (std::bad_alloc).
constexpr uint64_t kHostCheckThreshold = uint64_t(64) << 20;

// Throws Error(GSP_ERR_OUT_OF_MEMORY, "<what> needs B bytes (x GiB), but this
// process can have at most A bytes (y GiB), limited by <source>") when
// bytes exceeds host_memory_limit(). `what` names the caller and the sizes,
// e.g. "gsp_graph_create: a CSR of 2147483647 vertices and 0 arcs".
void require_host_memory(uint64_t bytes, const std::string& what);

// Test builds: whether a test installed the reservation hook, which is
// shown every request's `what` (false in other builds).
bool host_memory_hooked();

// The same with `what` made by make_what() only where it is read: a
// request at or above kHostCheckThreshold, or a test's hook (the checks of
// every call).
template <class MakeWhat, std::enable_if_t<std::is_invocable_r_v<std::string, MakeWhat&>, int> = 0>
void require_host_memory(uint64_t bytes, MakeWhat&& make_what) {
  if (bytes < kHostCheckThreshold && !host_memory_hooked()) return;
  require_host_memory(bytes, std::string(make_what()));
}

// Byte arithmetic that saturates at UINT64_MAX instead of wrapping (a
// saturated need is always refused).
constexpr uint64_t bytes_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
constexpr uint64_t bytes_mul(uint64_t a, uint64_t b) { return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

}  // namespace gsp::detail
