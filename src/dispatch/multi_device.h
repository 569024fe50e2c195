// Several CUDA devices in one process (gsp_options::num_devices,
// doc/multi-gpu.md): how many devices a CUDA all-pairs or many-source job
// uses, and running it on them.
//
// - Floyd-Warshall over all sources is one engine on every device
//   (engines/cuda/apsp_dense/fw_multi_device.cu): the matrix is split by row
//   panels, and each step's panel goes device to device.
// - The many-source engines (heap, task-parallel, delta-stepping, SpMM)
//   compute each row alone, so their sources are cut into chunks, and each
//   device runs the one-device engine on the next chunk not yet taken; the
//   rows reach the job's sink as from one engine (core/row_merger.h).
// Everything else (min-plus squaring, Floyd-Warshall for some sources,
// single-source runs) uses options.device alone.
#pragma once

#include <cstdint>

#include "core/engine.h"

namespace gsp::detail {

// The devices a CUDA APSP job with a resolved algorithm runs on, from
// options.device upward. options.num_devices >= 1 is checked against the
// usable devices (GSP_ERR_INVALID_ARGUMENT past them) and taken as is where
// the job can be split (else 1); 0 (AUTO) takes every usable device from
// options.device on where the job can be split and one device is estimated
// to take long enough for the others to pay off (dispatch/cuda_cost_model.h),
// and, for the engines split by sources, where the rows do not have to wait
// for one another (`rows_serialise`: a stream in source order,
// core/row_merger.h).
int32_t plan_devices(const Graph& graph, const RunOptions& options, gsp_algorithm algorithm, int32_t num_sources,
                     bool all_sources, bool rows_serialise);

// Runs a CUDA APSP job on `devices` devices (plan_devices()); one device is
// gpu::apsp(job) itself. job.stats gets the whole run: the first device,
// the number used, the sum of the parts' counts.
void run_cuda_apsp(const ApspJob& job, int32_t devices);

}  // namespace gsp::detail
