// A piece of host work on a thread of its own beside the caller's: a
// result's memory prepared while a device computes
// (RowSink::prepare_destination). join() waits and rethrows its failure;
// the destructor waits and drops it (the caller is failing already). Where
// no thread can be started, the work runs at once on the caller's.
// done() says, without waiting, whether the work has ended.
#pragma once

#include <atomic>
#include <functional>
#include <thread>
#include <utility>

#include "core/first_error.h"

namespace gsp::detail {

class HostTask {
 public:
  explicit HostTask(std::function<void()> work) : work_(std::move(work)) {
    try {
      thread_ = std::thread([this] {
        first_.guard(work_, [] {});
        done_.store(true, std::memory_order_release);
      });
    } catch (...) {
      first_.guard(work_, [] {});
      done_.store(true, std::memory_order_release);
    }
  }
  ~HostTask() {
    if (thread_.joinable()) thread_.join();
  }
  HostTask(const HostTask&) = delete;
  HostTask& operator=(const HostTask&) = delete;
  bool done() const { return done_.load(std::memory_order_acquire); }
  void join() {
    if (thread_.joinable()) thread_.join();
    if (first_.failed()) first_.rethrow();
  }

 private:
  std::function<void()> work_;
  FirstError first_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace gsp::detail
