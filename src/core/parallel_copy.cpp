// parallel_copy (parallel_copy.h).
#include "core/parallel_copy.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace gsp::detail {

void parallel_copy(void* dst, const void* src, size_t bytes, int32_t threads) {
  constexpr size_t kChunk = size_t(16) << 20;
  const size_t parts = std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), bytes / kChunk);
  if (parts <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const size_t step = (bytes + parts - 1) / parts;
  std::vector<std::thread> pool;
  try {
    for (size_t i = 1; i < parts; i++) {
      const size_t at = i * step, len = std::min(step, bytes - at);
      pool.emplace_back([=] { std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, len); });
    }
  } catch (...) {
    for (auto& t : pool) t.join();
    throw;
  }
  std::memcpy(dst, src, std::min(step, bytes));
  for (auto& t : pool) t.join();
}

}  // namespace gsp::detail
