// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void sssp_harish(RunContext&, const SsspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine sssp_harish is not built yet");
}

}  // namespace gsp::detail::gpu
