// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void apsp_floyd_warshall(RunContext&, const ApspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine apsp_floyd_warshall is not built yet");
}

}  // namespace gsp::detail::gpu
