// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void sssp_spmv(RunContext&, const SsspJob& job, bool) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine sssp_spmv is not built yet");
}

}  // namespace gsp::detail::gpu
