// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void sssp_atomic_lock(RunContext&, const SsspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine sssp_atomic_lock is not built yet");
}

void sssp_atomic64(RunContext&, const SsspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine sssp_atomic64 is not built yet");
}

}  // namespace gsp::detail::gpu
