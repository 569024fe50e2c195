// Small pieces shared by the CPU engines' waiting loops: a CPU pause for
// spin-waits, and tuning knobs read from the environment (doc/tuning.md).
#pragma once

#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace gsp::detail::cpu {

// One pause in a spin-wait (cheaper for the sibling hyperthread and the
// memory system than a bare load loop).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// A non-negative decimal from the environment; `fallback` when unset or not
// a number.
inline long env_count(const char* name, long fallback) {
  const char* e = std::getenv(name);
  if (e == nullptr) return fallback;
  char* end = nullptr;
  const long v = std::strtol(e, &end, 10);
  return end != e && v >= 0 ? v : fallback;
}

}  // namespace gsp::detail::cpu
