// Template body of guard(); see firewall.h.
#pragma once

#include <exception>
#include <new>

#include "core/error.h"

namespace gsp::detail {

template <class Body>
gsp_status guard(Body&& body) noexcept {
  try {
    body();
    return GSP_OK;
  } catch (const Error& e) {
    return set_last_error(e.status(), e.message());
  } catch (const std::bad_alloc&) {
    return set_last_error(GSP_ERR_OUT_OF_MEMORY, "host memory exhausted");
  } catch (const std::exception& e) {
    try {
      return set_last_error(GSP_ERR_INTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
      return GSP_ERR_INTERNAL;
    }
  } catch (...) {
    return set_last_error(GSP_ERR_INTERNAL, "internal error: unknown exception");
  }
}

}  // namespace gsp::detail
