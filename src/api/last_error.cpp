// The thread-local last-error text.
#include <string>

#include "api/firewall.h"

namespace gsp::detail {

namespace {
thread_local std::string t_last_error;
}

gsp_status set_last_error(gsp_status status, const std::string& message) {
  try {
    t_last_error = message;  // the status itself is the return value
  } catch (...) {
    t_last_error.clear();  // out of memory while reporting: keep the status
  }
  return status;
}

}  // namespace gsp::detail

extern "C" GSP_API const char* gsp_last_error(void) { return gsp::detail::t_last_error.c_str(); }
