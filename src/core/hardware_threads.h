// The host's hardware threads, std::thread::hardware_concurrency() read
// once per process: glibc answers it by opening and reading
// /sys/devices/system/cpu/online, three system calls and several
// microseconds, which every API call paid while its options were resolved
// (a road-index point-to-point query takes about 25 µs in all).
#pragma once

#include <algorithm>
#include <thread>

namespace gsp::detail {

// At least 1.
inline int hardware_threads() {
  static const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return threads;
}

}  // namespace gsp::detail
