// The account of CPU time AUTO spent instead of starting CUDA (device_startup.h).
#include "dispatch/device_startup.h"

#include <mutex>

namespace gsp::detail {

namespace {
std::mutex g_mu;
double g_charged = 0;  // seconds of CPU runs chosen instead of starting the device
}  // namespace

bool cold_start_prefers_cpu(double cpu_seconds) {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_charged + cpu_seconds <= kDeviceStartSeconds;
}

void charge_cold_cpu_run(double seconds) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_charged += seconds > 0 ? seconds : 0;
}

double cold_cpu_seconds_charged() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_charged;
}

}  // namespace gsp::detail
