// The first failure among parts of a run that go on side by side (threads,
// devices): the one the call reports. What the other parts throw after it
// (stopped, cancelled) is its consequence and is dropped.
#pragma once

#include <exception>
#include <mutex>
#include <new>
#include <string>

#include "core/error.h"

namespace gsp::detail {

class FirstError {
 public:
  // Records the failure unless one came first; true when it is the first.
  bool record(gsp_status status, const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (failed_) return false;
    failed_ = true;
    status_ = status;
    message_ = message;
    return true;
  }
  bool failed() const {
    std::lock_guard<std::mutex> lock(mu_);
    return failed_;
  }
  // Throws the recorded failure (call only when failed()).
  [[noreturn]] void rethrow() const { throw Error(status_, message_); }

  // Runs f(); a failure is recorded (the first one wins) and then
  // on_failure() runs (to stop the other parts). Never throws.
  template <class F, class G>
  void guard(F&& f, G&& on_failure) noexcept {
    try {
      f();
      return;
    } catch (const Error& e) {
      record(e.status(), e.message());
    } catch (const std::bad_alloc&) {
      record(GSP_ERR_OUT_OF_MEMORY, "host memory exhausted");
    } catch (const std::exception& e) {
      record(GSP_ERR_INTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
      record(GSP_ERR_INTERNAL, "internal error");
    }
    try {
      on_failure();
    } catch (...) {
    }
  }

 private:
  mutable std::mutex mu_;
  bool failed_ = false;
  gsp_status status_ = GSP_OK;
  std::string message_;
};

}  // namespace gsp::detail
