// Host memory for result arrays (all-pairs rows, a distributed engine's
// blocks): page-locked by the CUDA layer's cache where it can give it (a
// device then copies into it at full speed, and a repeated run reuses it),
// else ordinary memory.
#pragma once

#include <cstddef>

#include "core/gpu_runtime.h"
#include "core/host_array.h"

namespace gsp::detail {

// count elements of a result array: page-locked (gpu::result_buffer_take(),
// reused across runs) when `pinned` and the CUDA layer can give it, else
// ordinary memory. lock = false: faulted in, to be locked later by
// gpu::result_buffer_lock(array.data()) (RowSink::prepare_destination).
// piece: the array may be page-locked in pieces of that many bytes
// (gpu::result_buffer_take).
template <class T>
void allocate_result(HostArray<T>& array, size_t count, bool pinned, bool lock = true, size_t piece = 0) {
  size_t got = 0;
  void* p = pinned ? gpu::result_buffer_take(count * sizeof(T), &got, lock, piece) : nullptr;
  if (p != nullptr) {
    array.adopt(static_cast<T*>(p), count, got, gpu::result_buffer_give);
  } else {
    array.resize_uninitialized(count);
  }
}

}  // namespace gsp::detail
