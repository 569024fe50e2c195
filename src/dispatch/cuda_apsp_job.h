// A CUDA all-pairs or many-source job whose plan is made (run_apsp_planned,
// the table's CUDA path): GSP_APSP_JOHNSON runs as Johnson's reweighting in
// front of a CUDA engine for non-negative weights; every other algorithm
// runs on the devices plan_devices() gives it (dispatch/multi_device.h).
#pragma once

#include "core/engine.h"

namespace gsp::detail {

// rows_serialise: the rows must reach job.sink in source order, one call at
// a time (plan_devices()).
//
// Johnson on CUDA: the potentials come from the CPU's queue Bellman-Ford in
// int64 / double (an exact negative-cycle verdict, GSP_ERR_NEGATIVE_CYCLE),
// the reduced costs make a float64 graph (cpu::johnson_reduced_graph) on
// which the CUDA engine that AUTO's cost model picks for it runs, and every
// row is mapped back to the graph's weight type on its way to job.sink.
// int32 graphs whose reduced costs float64 could not sum exactly are
// refused with GSP_ERR_UNSUPPORTED (the CPU Johnson answers them).
void run_cuda_apsp_job(const ApspJob& job, bool rows_serialise);

}  // namespace gsp::detail
