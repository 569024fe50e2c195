// Shared by the CPU engines' waiting loops: a CPU pause for spin-waits.
// (Their tuning knobs, GSP_CPU_* in doc/tuning.md, are in core/tuning.h.)
#pragma once

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

}  // namespace gsp::detail::cpu
