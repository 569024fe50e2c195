// for_each_part and parallel_copy (parallel_copy.h).
#include "core/parallel_copy.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace gsp::detail {

void for_each_part(size_t bytes, int32_t threads, size_t min_part, size_t align,
                   const std::function<void(size_t at, size_t len)>& f) {
  if (bytes == 0) return;
  align = std::max<size_t>(align, 1);
  const size_t parts = std::max<size_t>(
      1, std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), bytes / std::max<size_t>(min_part, 1)));
  const size_t step = (bytes / parts + align - 1) / align * align;
  std::vector<std::thread> pool;
  size_t covered = bytes;  // from the first part on, what the threads took
  try {
    for (size_t i = 1; i < parts && i * step < bytes; ++i) {
      const size_t at = i * step, len = std::min(step, bytes - at);
      pool.emplace_back([&f, at, len] { f(at, len); });
    }
  } catch (...) {  // no more threads: this one does the rest
    covered = step + pool.size() * step;
  }
  f(0, std::min(step, bytes));
  if (covered < bytes) f(covered, bytes - covered);
  for (auto& t : pool) t.join();
}

void parallel_copy(void* dst, const void* src, size_t bytes, int32_t threads) {
  for_each_part(bytes, threads, size_t(16) << 20, 1, [dst, src](size_t at, size_t len) {
    std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, len);
  });
}

}  // namespace gsp::detail
