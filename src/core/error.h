// Internal error type. Engines and core code throw gsp::detail::Error; the API
// layer (src/api/) catches it and turns it into a status + thread-local message.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
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
// The same with the message made by make_message() only when cond is false:
// for the checks of every call (the options' texts, built each time, were a
// fifth of a call on a tiny graph).
template <class MakeMessage, std::enable_if_t<std::is_invocable_r_v<std::string, MakeMessage&>, int> = 0>
inline void require(bool cond, gsp_status status, MakeMessage&& make_message) {
  if (!cond) throw Error(status, make_message());
}

// Throws Error(status, "NAME = V is out of range [0, N)") unless 0 <= v < n:
// the one wording of an index check (a vertex, a source, a table cell).
inline void require_index(int64_t v, int64_t n, const std::string& name, gsp_status status = GSP_ERR_INVALID_ARGUMENT) {
  if (v < 0 || v >= n) {
    throw Error(status, name + " = " + std::to_string(v) + " is out of range [0, " + std::to_string(n) + ")");
  }
}
// name[i], as require_index words a list's entry ("sources[3]").
inline std::string entry_name(const std::string& list, int64_t i) { return list + "[" + std::to_string(i) + "]"; }
// require_index for entry i of a list, its name made only when it fails
// (the checks run once per arc or source: a string each cost a graph load
// a fifth of its time).
inline void require_entry_index(int64_t v, int64_t n, const char* list, int64_t i,
                                gsp_status status = GSP_ERR_INVALID_ARGUMENT) {
  if (v < 0 || v >= n) require_index(v, n, entry_name(list, i), status);
}

// Throws GSP_ERR_INTERNAL unless an engine delivered every row of its job.
inline void require_rows_delivered(int64_t delivered, int64_t rows) {
  if (delivered != rows) {
    throw Error(GSP_ERR_INTERNAL,
                "engine delivered " + std::to_string(delivered) + " of " + std::to_string(rows) + " rows");
  }
}

}  // namespace gsp::detail
