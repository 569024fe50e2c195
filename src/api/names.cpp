// Names of statuses, backends and algorithms (the CLI's and bindings' words).
#include <cstring>
#include <string>

#include "api/arg_checks.h"
#include "api/firewall.h"
#include "core/algorithms.h"

#include "gsp/gsp.h"

namespace {

using gsp::detail::algorithm_facts;
using gsp::detail::AlgorithmFacts;
using gsp::detail::algorithms_table::kRows;

#if defined(GSP_WITH_CUDA)
constexpr bool kCudaBuilt = true;
#else
constexpr bool kCudaBuilt = false;
#endif

// The row of an algorithm value from C (any int), or nullptr.
const AlgorithmFacts* row_of(gsp_algorithm algorithm) { return algorithm_facts(gsp::detail::enum_value(algorithm)); }

}  // namespace

extern "C" {

GSP_API const char* gsp_status_name(gsp_status status) {
  switch (gsp::detail::enum_value(status)) {
#define GSP_STATUS_NAME_CASE_(name, value, text) \
  case name: return #name;
    GSP_STATUS_LIST(GSP_STATUS_NAME_CASE_)
#undef GSP_STATUS_NAME_CASE_
    default: return "GSP_ERR_UNKNOWN";
  }
}

GSP_API const char* gsp_backend_name(gsp_backend backend) {
  switch (gsp::detail::enum_value(backend)) {
    case GSP_BACKEND_AUTO: return "auto";
    case GSP_BACKEND_CPU: return "cpu";
    case GSP_BACKEND_CUDA: return "cuda";
    default: return "unknown";
  }
}

GSP_API const char* gsp_algorithm_name(gsp_algorithm algorithm) {
  const AlgorithmFacts* f = row_of(algorithm);
  return f != nullptr ? f->name : "unknown";
}

GSP_API const char* gsp_algorithm_identifier(gsp_algorithm algorithm) {
  const AlgorithmFacts* f = row_of(algorithm);
  return f != nullptr ? f->identifier : "unknown";
}

GSP_API const char* gsp_algorithm_summary(gsp_algorithm algorithm) {
  const AlgorithmFacts* f = row_of(algorithm);
  return f != nullptr ? f->summary : "unknown";
}

GSP_API gsp_kind gsp_algorithm_kind(gsp_algorithm algorithm) {
  const AlgorithmFacts* f = row_of(algorithm);
  return f != nullptr ? f->kind : GSP_KIND_UNKNOWN;
}

GSP_API int gsp_algorithm_accepts_negative_weights(gsp_algorithm algorithm) {
  const AlgorithmFacts* f = row_of(algorithm);
  return f != nullptr && f->negative_weights ? 1 : 0;
}

GSP_API int gsp_algorithm_has_engine(gsp_algorithm algorithm, gsp_backend backend) {
  const int b = gsp::detail::enum_value(backend);
  if (b != GSP_BACKEND_AUTO && b != GSP_BACKEND_CPU && b != GSP_BACKEND_CUDA) return 0;
  const AlgorithmFacts* f = row_of(algorithm);
  if (f == nullptr) return 0;
  const bool cpu = b != GSP_BACKEND_CUDA;
  const bool cuda = b != GSP_BACKEND_CPU && kCudaBuilt;
  if (f->kind == GSP_KIND_AUTO) {  // any engine of the backend
    for (const auto& r : kRows) {
      if ((cpu && r.cpu) || (cuda && r.cuda)) return 1;
    }
    return 0;
  }
  return (cpu && f->cpu) || (cuda && f->cuda) ? 1 : 0;
}

GSP_API gsp_status gsp_algorithm_from_name(const char* name, gsp_algorithm* out) {
  if (name == nullptr || out == nullptr) {
    return gsp::detail::set_last_error(GSP_ERR_INVALID_ARGUMENT, "name and out must not be NULL");
  }
  for (const auto& a : kRows) {
    if (std::strcmp(a.name, name) == 0) {
      *out = a.id;
      return GSP_OK;
    }
  }
  std::string known;
  for (const auto& a : kRows) known += std::string(known.empty() ? "" : ", ") + a.name;
  return gsp::detail::set_last_error(GSP_ERR_INVALID_ARGUMENT,
                                     std::string("unknown algorithm '") + name + "' (known: " + known + ")");
}

}  // extern "C"
