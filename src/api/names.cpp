// Names of statuses, backends and algorithms (the CLI's and bindings' words).
#include <cstring>
#include <string>

#include "api/arg_checks.h"
#include "api/firewall.h"

#include "gsp/gsp.h"

namespace {

struct AlgorithmName {
  gsp_algorithm id;
  const char* name;
};

// gsp_algorithm_name and gsp_algorithm_from_name both read this table, made
// from GSP_ALGORITHM_LIST.
#define GSP_ALGORITHM_NAME_(name, value, cli_name, summary) {name, cli_name},
constexpr AlgorithmName kAlgorithms[] = {GSP_ALGORITHM_LIST(GSP_ALGORITHM_NAME_)};
#undef GSP_ALGORITHM_NAME_

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
  const int v = gsp::detail::enum_value(algorithm);
  for (const auto& a : kAlgorithms) {
    if (a.id == v) return a.name;
  }
  return "unknown";
}

GSP_API gsp_status gsp_algorithm_from_name(const char* name, gsp_algorithm* out) {
  if (name == nullptr || out == nullptr) {
    return gsp::detail::set_last_error(GSP_ERR_INVALID_ARGUMENT, "name and out must not be NULL");
  }
  for (const auto& a : kAlgorithms) {
    if (std::strcmp(a.name, name) == 0) {
      *out = a.id;
      return GSP_OK;
    }
  }
  std::string known;
  for (const auto& a : kAlgorithms) known += std::string(known.empty() ? "" : ", ") + a.name;
  return gsp::detail::set_last_error(GSP_ERR_INVALID_ARGUMENT,
                                     std::string("unknown algorithm '") + name + "' (known: " + known + ")");
}

}  // extern "C"
