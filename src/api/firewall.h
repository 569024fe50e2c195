// The exception firewall of the C ABI: every exported function runs its body
// through guard(), which turns any exception into a status and the calling
// thread's last-error text. Nothing else throws across the ABI.
#pragma once

#include <string>

#include "gsp/gsp.h"

namespace gsp::detail {

// Sets this thread's last-error text and returns status.
gsp_status set_last_error(gsp_status status, const std::string& message);

// Runs body(); maps Error, std::bad_alloc, other exceptions and anything
// else to a status (GSP_OK when body returns normally).
template <class Body>
gsp_status guard(Body&& body) noexcept;

}  // namespace gsp::detail

#include "api/firewall_impl.h"
