// Small helpers shared by the distributed Floyd-Warshall's files
// (fw_mpi.cpp, fw_mpi_gather.cpp, fw_mpi_preds.h): result arrays, the
// rank's engine, the trace, and a parallel loop over a rank's threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/result_memory.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/common/team.h"
#include "engines/mpi/fw_mpi.h"

namespace gsp::detail::mpi {

template <class W>
HostArray<W>& store(BlockResult& r) {
  return by_weight_type<W>(r.d_f32, r.d_i32, r.d_f64);
}

template <class T>
void alloc(std::vector<T>& v, int64_t count, const T& value) {
  cpu::alloc_vector(v, static_cast<size_t>(count), value);
}

// count elements, contents unspecified (every user writes every cell);
// page-locked when `pinned` and the CUDA layer can give it (a device then
// copies into it at full speed), else ordinary memory. lock = false: faulted
// in now, page-locked later by gpu::result_buffer_lock (allocate_result).
template <class T>
void alloc_uninit(HostArray<T>& a, int64_t count, bool pinned, bool lock = true) {
  allocate_result(a, static_cast<size_t>(count), pinned, lock);
}

// Where a rank's blocks live and are computed: its device, or CPU threads.
struct LocalEngine {
  bool gpu = false;
  bool all_gpu = false;  // every rank computes on a device
  int threads = 1;
  RunOptions device_options;  // gpu: the run's options with this rank's device
};

// Which engine this rank runs for rank 0's `backend` (fw_mpi.cpp).
LocalEngine choose_engine(const Session& s, const RunOptions& ro, gsp_backend backend, int threads);

// GSP_MPI_TRACE=1: prints this rank's stages and the call's total against
// its k-steps (fw_mpi_gather.cpp).
void print_trace(const BlockResult& r, double call);

// f(i) for i in [0, count) over the team's threads.
template <class F>
void for_each(cpu::Team& team, int64_t count, const F& f) {
  if (count <= 0) return;
  std::atomic<int64_t> next{0};
  team.run([&](int) {
    for (int64_t i; (i = next.fetch_add(1)) < count;) f(i);
  });
}

}  // namespace gsp::detail::mpi
