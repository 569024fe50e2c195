// gsp_options -> RunOptions (run_options.h).
#include "api/run_options.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "core/algorithms.h"
#include "core/error.h"
#include "core/hardware_threads.h"
#include "core/road_index.h"

namespace gsp::detail {

namespace {
constexpr uint32_t kKnownRunFlags = GSP_NO_PATHS | GSP_ROWS_ANY_ORDER;
}  // namespace

RunOptions normalize_options(const gsp_options* options) {
  RunOptions r;
  r.num_threads = 0;
  if (options != nullptr) {
    if (options->size < kOptionsV1Size) {
      throw Error(GSP_ERR_INVALID_ARGUMENT, "options->size is " + std::to_string(options->size) +
                                                ", smaller than gsp_options of libgsp 0.1 (" +
                                                std::to_string(kOptionsV1Size) + "); call gsp_options_init first");
    }
    // Fields beyond what this library knows are ignored (kOptionsV1Size,
    // dispatch.h); the caller's size
    // covers at least every field of version 0.1, and later fields it does
    // not cover keep their defaults.
    gsp_options o;
    gsp_options_init(&o);
    std::memcpy(&o, options, std::min<size_t>(options->size, sizeof o));
    // A C caller may store any int in the enum fields; loading such a value
    // as a C++ enum is undefined (UBSan: -fsanitize=enum), so check the
    // stored integers before reading the fields as enums.
    int backend_raw = 0, algorithm_raw = 0;
    static_assert(sizeof(o.backend) == sizeof(int) && sizeof(o.algorithm) == sizeof(int), "enum size");
    std::memcpy(&backend_raw, reinterpret_cast<const char*>(&o) + offsetof(gsp_options, backend), sizeof(int));
    std::memcpy(&algorithm_raw, reinterpret_cast<const char*>(&o) + offsetof(gsp_options, algorithm), sizeof(int));
    if (backend_raw != GSP_BACKEND_AUTO && backend_raw != GSP_BACKEND_CPU && backend_raw != GSP_BACKEND_CUDA) {
      throw Error(GSP_ERR_INVALID_ARGUMENT,
                  "options->backend = " + std::to_string(backend_raw) + " is not a gsp_backend");
    }
    if (algorithm_raw < 0 || algorithm_raw > kMaxAlgorithm) {
      throw Error(GSP_ERR_INVALID_ARGUMENT,
                  "options->algorithm = " + std::to_string(algorithm_raw) + " is not a gsp_algorithm");
    }
    // The messages are made only for a failing check (a lambda each).
    require(o.device >= 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->device = " + std::to_string(o.device) + " is negative"; });
    require((o.flags & ~kKnownRunFlags) == 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->flags has unknown bits: " + std::to_string(o.flags & ~kKnownRunFlags); });
    require(std::isfinite(o.delta) && o.delta >= 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->delta = " + std::to_string(o.delta) + " must be finite and >= 0"; });
    require(o.num_threads >= 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->num_threads = " + std::to_string(o.num_threads) + " is negative"; });
    require(!std::isnan(o.limit) && o.limit >= 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->limit = " + std::to_string(o.limit) + " must be >= 0 (+INFINITY: no limit)"; });
    require(o.num_devices >= 0, GSP_ERR_INVALID_ARGUMENT,
            [&] { return "options->num_devices = " + std::to_string(o.num_devices) + " is negative (0: AUTO)"; });
    require(o.num_devices <= 1 || o.cuda_stream == nullptr, GSP_ERR_INVALID_ARGUMENT, [&] {
      return "options->num_devices = " + std::to_string(o.num_devices) +
             " with options->cuda_stream set: a stream belongs to one device; leave num_devices at 0 or 1";
    });
    r.backend = o.backend;
    r.algorithm = o.algorithm;
    r.device = o.device;
    r.want_paths = (o.flags & GSP_NO_PATHS) == 0;
    r.rows_any_order = (o.flags & GSP_ROWS_ANY_ORDER) != 0;
    r.delta = o.delta;
    r.num_threads = o.num_threads;
    r.device_memory_limit = o.device_memory_limit;
    r.cuda_stream = o.cuda_stream;
    r.progress = o.progress;
    r.progress_user = o.progress_user;
    r.limit = o.limit;
    r.num_devices = o.num_devices;
    r.index = o.index != nullptr ? o.index->ch.get() : nullptr;
  }
  if (r.num_threads == 0) r.num_threads = static_cast<int32_t>(hardware_threads());
#if defined(GSP_TEST_HOOKS)
  if (const std::optional<int> d = r.tuning.test_fail_device) r.test_fail_device = *d;
  if (const std::optional<int> d = r.tuning.test_result_ready_delay_ms) r.test_result_ready_delay_ms = *d;
  if (const std::optional<int> kb = r.tuning.test_lock_piece_kb)
    r.test_lock_piece_bytes = static_cast<size_t>(*kb) << 10;
#endif
  return r;
}

}  // namespace gsp::detail
