// Argument checks shared by the C ABI's files (api.cpp, api_table.cpp).
#pragma once

#include <string>

#include "core/error.h"

namespace gsp::detail {

// Throws GSP_ERR_INVALID_ARGUMENT ("NAME must not be NULL") for a null pointer.
inline void need(const void* p, const char* name) {
  if (p == nullptr) throw Error(GSP_ERR_INVALID_ARGUMENT, std::string(name) + " must not be NULL");
}

}  // namespace gsp::detail
