// Placeholder until this engine lands: answers GSP_ERR_UNSUPPORTED.
#include "engines.cuh"

namespace gsp::detail::gpu {

void apsp_task_parallel(RunContext&, const ApspJob& job) {
  (void)job;
  throw Error(GSP_ERR_UNSUPPORTED, "the CUDA engine apsp_task_parallel is not built yet");
}

}  // namespace gsp::detail::gpu
