// Names of statuses, backends and algorithms (the CLI's and bindings' words).
#include <cstring>
#include <string>

#include "api/firewall.h"

#include "gsp/gsp.h"

namespace {

struct AlgorithmName {
  gsp_algorithm id;
  const char* name;
};

// One table: gsp_algorithm_name and gsp_algorithm_from_name both read it.
constexpr AlgorithmName kAlgorithms[] = {
    {GSP_ALGO_AUTO, "auto"},
    {GSP_SSSP_DIJKSTRA, "dijkstra"},
    {GSP_SSSP_BELLMAN_FORD, "bellman-ford"},
    {GSP_SSSP_DELTA_STEPPING, "delta-stepping"},
    {GSP_SSSP_ATOMIC_LOCK, "atomic-lock"},
    {GSP_SSSP_HARISH, "harish"},
    {GSP_SSSP_SPMV_CSR, "spmv-csr"},
    {GSP_SSSP_SPMV_ELL, "spmv-ell"},
    {GSP_SSSP_GPU_DIJKSTRA, "gpu-dijkstra"},
    {GSP_APSP_FLOYD_WARSHALL, "floyd-warshall"},
    {GSP_APSP_MINPLUS, "minplus"},
    {GSP_APSP_HEAP, "heap"},
    {GSP_APSP_TASK_PARALLEL, "task-parallel"},
    {GSP_APSP_JOHNSON, "johnson"},
    {GSP_SSSP_ATOMIC_64, "atomic64"},
};

// The int stored in an enum argument (any int may come from C; loading an
// out-of-range C++ enum is undefined, see enum_value in api.cpp).
template <class E>
int enum_value(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "enum size");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

}  // namespace

extern "C" {

GSP_API const char* gsp_status_name(gsp_status status) {
  switch (enum_value(status)) {
#define GSP_STATUS_NAME_CASE_(name, value, text) \
  case name:                                     \
    return #name;
    GSP_STATUS_LIST(GSP_STATUS_NAME_CASE_)
#undef GSP_STATUS_NAME_CASE_
    default:
      return "GSP_ERR_UNKNOWN";
  }
}

GSP_API const char* gsp_backend_name(gsp_backend backend) {
  switch (enum_value(backend)) {
    case GSP_BACKEND_AUTO: return "auto";
    case GSP_BACKEND_CPU: return "cpu";
    case GSP_BACKEND_CUDA: return "cuda";
    default: return "unknown";
  }
}

GSP_API const char* gsp_algorithm_name(gsp_algorithm algorithm) {
  const int v = enum_value(algorithm);
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
