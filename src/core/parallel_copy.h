// memcpy split over up to `threads` threads for large blocks: one thread
// copies at 8-10 GB/s, and copies into fresh memory also pay its first-touch
// page faults; rows staged from a device into a result (row_sinks.cpp,
// row_merger.cpp) go at the host's memory speed instead.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsp::detail {

void parallel_copy(void* dst, const void* src, size_t bytes, int32_t threads);

}  // namespace gsp::detail
