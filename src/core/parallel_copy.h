// Large host-memory work split over threads: one thread copies at 8-10
// GB/s, and touching fresh memory also pays its first-touch page faults.
// Rows staged from a device into a result (row_sinks.cpp, row_merger.cpp)
// and a result buffer's pages faulted in before it is page-locked
// (engines/cuda/runtime/memory_cache.cu) go at the host's memory speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace gsp::detail {

// f(at, len) over [0, bytes), cut into at most `threads` parts of at least
// `min_part` bytes, each starting at a multiple of `align`; the first part
// runs on the caller's thread, the others on threads of their own. Where
// no thread can be started, the caller does the rest itself.
void for_each_part(size_t bytes, int32_t threads, size_t min_part, size_t align,
                   const std::function<void(size_t at, size_t len)>& f);

// memcpy over for_each_part (parts of at least 16 MiB).
void parallel_copy(void* dst, const void* src, size_t bytes, int32_t threads);

}  // namespace gsp::detail
