// A team of threads for one engine run, drawn from a process-wide pool.
//
// Team(k) borrows k - 1 pooled threads (starting new ones only when too few
// are idle) and the calling thread is member 0; run(f) calls f(tid) for tid
// in [0, size()) and returns when all are done, rethrowing the first
// exception any of them threw; the destructor hands the threads back.
// Reusing threads saves every run the start of its team (on 16 cores a
// delta-stepping run on a road graph takes a few milliseconds, and starting
// 15 threads a sizeable part of that; doc/cpu-engines.md).
//
// A pooled thread waits for its next job spinning for a short while
// (GSP_CPU_POOL_SPIN_US, default 100 µs: back-to-back runs find it awake),
// then asleep on a condition variable. After fork() the child starts with
// an empty pool (the parent's threads do not exist there). GSP_CPU_POOL=0
// starts and joins fresh threads on every run instead (for comparison).
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

namespace gsp::detail::cpu {

struct PoolThread;  // team.cpp

class Team {
 public:
  explicit Team(int threads);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int size() const { return static_cast<int>(members_.size()) + 1; }
  void run(const std::function<void(int)>& f);

  // Called by a member thread when its part of a job is over (team.cpp).
  void member_done(const std::exception_ptr& err);

 private:
  std::vector<PoolThread*> members_;
  bool pooled_ = true;
  std::atomic<int> pending_{0};
  std::mutex mu_;
  std::condition_variable done_cv_;
  std::exception_ptr error_;
};

}  // namespace gsp::detail::cpu
