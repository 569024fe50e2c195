// The caller's gsp_options checked and made into the RunOptions every layer
// below reads (core/engine.h): once per call, by each entry point of the C
// ABI (api/*.cpp), before anything else runs.
#pragma once

#include <cstddef>

#include "core/engine.h"

namespace gsp::detail {

// The size of gsp_options in libgsp 0.1, the first version (up to
// progress_user): no caller can legitimately pass less. Fields appended
// since are read only when the caller's size covers them.
constexpr size_t kOptionsV1Size = offsetof(gsp_options, limit);

// Normalise the caller's options (NULL: defaults). Throws INVALID_ARGUMENT
// for a size smaller than the first version's struct, unknown enum values,
// negative delta or threads.
RunOptions normalize_options(const gsp_options* options);

}  // namespace gsp::detail
