// AUTO and the cost of starting CUDA in a process (one-shot runs such as a
// `gsp sssp` command). Starting the device (driver, context) took 0.35 s on
// the H100 host (doc/algorithms.md, "Starting the device"), while the CPU
// answers a single-source query on the NY road graph in milliseconds: a
// process that runs one small job is faster without the GPU.
//
// The rule (ski rental): while no CUDA run has started a device in this
// process, AUTO runs a job on the CPU when the CPU's estimated time for it,
// added to the CPU time AUTO has already spent this way, stays within the
// start-up cost; once it would not, AUTO starts the device and uses it from
// then on. A process that runs one small job never pays the start-up; one
// that runs many pays at most the start-up cost in CPU time before it
// starts the device, so its total is at most about twice that of the better
// choice made in hindsight. Only backend AUTO is concerned; a caller's
// cuda_stream means a started device.
#pragma once

namespace gsp::detail {

// Seconds to start CUDA in a process, measured on the H100 host.
constexpr double kDeviceStartSeconds = 0.35;

// True when a job whose CPU run is estimated at `cpu_seconds` should run on
// the CPU rather than start the device (the account above). Thread-safe.
bool cold_start_prefers_cpu(double cpu_seconds);

// Adds the measured seconds of a CPU run chosen by cold_start_prefers_cpu to
// the account. Thread-safe.
void charge_cold_cpu_run(double seconds);

// The CPU seconds charged so far (for tests and the benchmark).
double cold_cpu_seconds_charged();

}  // namespace gsp::detail
