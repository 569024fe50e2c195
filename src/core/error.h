// Internal error type. Engines and core code throw gsp::detail::Error; the API
// layer (src/api/) catches it and turns it into a status + thread-local message.
#pragma once

#include <string>
#include <utility>

#include "gsp/gsp.h"

namespace gsp::detail {

class Error {
 public:
  Error(gsp_status status, std::string message) : status_(status), message_(std::move(message)) {}
  gsp_status status() const { return status_; }
  const std::string& message() const { return message_; }

 private:
  gsp_status status_;
  std::string message_;
};

// Throws Error(status, message) when cond is false.
inline void require(bool cond, gsp_status status, const std::string& message) {
  if (!cond) throw Error(status, message);
}

}  // namespace gsp::detail
