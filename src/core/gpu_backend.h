// The boundary between host code and the CUDA engines (cuda/). Plain C++: no
// CUDA types. Implemented by cuda/dispatch.cu when libgsp is built with CUDA,
// and by src/core/gpu_absent.cpp otherwise.
#pragma once

#include <string>

#include "core/engine.h"

namespace gsp::detail::gpu {

// Whether CUDA can run now. Probes once (thread-safe) and caches; when it
// cannot, *why (if non-null) says why: not built with CUDA, no device,
// driver older than the runtime, ...
bool usable(std::string* why);
// Usable devices (0 when !usable).
int32_t device_count();
// True if a CUDA engine exists for this algorithm.
bool supports(gsp_algorithm algorithm);
void sssp(const SsspJob& job);
void apsp(const ApspJob& job);
// Returns memory kept between runs for speed (device workspace pools, pinned
// host buffers). Safe at any time; later runs re-create what they need.
void release_cached_memory();

}  // namespace gsp::detail::gpu
