// The CUDA backend's door: the entry points of the CUDA engines (src/engines/cuda/), the one
// header of them that dispatch/ includes, with the shape of its twin, the CPU backend's door
// (engines/cpu/cpu_backend.h). Plain C++: no CUDA types. The dispatcher calls sssp() /
// apsp() with a resolved algorithm; each routes to its engine (cuda_backend.cu) inside a
// RunContext. Where libgsp is built without CUDA, cuda_absent.cpp beside it stands in:
// supports() is false and a run throws GSP_ERR_NO_DEVICE. What host code needs of the CUDA
// runtime beside running an engine (probing, devices, page-locked memory) is the core seam
// core/gpu_runtime.h.
#pragma once

#include "core/engine.h"

namespace gsp::detail {
struct ChBase;
class ChSeeder;
}  // namespace gsp::detail

namespace gsp::detail::gpu {

// True if the CUDA backend has an engine for this algorithm (core/algorithms.h).
bool supports(gsp_algorithm algorithm);
// A run of a resolved algorithm that supports() names, on device job.options->device
// (GSP_ERR_UNSUPPORTED for one it does not). APSP over all sources with
// GSP_APSP_FLOYD_WARSHALL also runs as one job on job.num_devices > 1 devices;
// GSP_APSP_JOHNSON on CUDA is dispatch/cuda_apsp_job.cpp (the CPU's reweighting,
// cpu::johnson_reduced_graph, in front of one of these engines).
void sssp(const SsspJob& job);
void apsp(const ApspJob& job);
// Runs that answer from a road index of job.graph (core/road_index.h; the
// dispatcher has checked that it is the graph's), the twins of the CPU
// backend's index_sssp / index_apsp: each source's upward search from
// `seeder`, then the sweep down the hierarchy on the device
// (index/ch_sweep.cu). Exactly the CPU's rows; an int32 overflow is
// GSP_ERR_OVERFLOW (the dispatcher lets the CPU name it).
void index_sssp(const ChBase& index, const ChSeeder& seeder, const SsspJob& job);
void index_apsp(const ChBase& index, const ChSeeder& seeder, const ApspJob& job);

}  // namespace gsp::detail::gpu
