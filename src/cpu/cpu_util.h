// Shared plumbing of the CPU engines: a small persistent thread team, stats,
// matrix allocation with size checks, and engine entry points by weight type.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"

namespace gsp::detail::cpu {

// A fixed team of threads: run(f) calls f(tid) for tid in [0, size()) (tid 0
// on the caller) and returns when all are done, rethrowing the first
// exception any of them threw. The destructor joins every worker, so an
// exception leaving an engine never meets a joinable std::thread.
class Team {
 public:
  explicit Team(int threads) {
    if (threads < 1) threads = 1;
    try {
      for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { loop(t); });
    } catch (...) {
      shutdown();
      throw;
    }
  }
  ~Team() { shutdown(); }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void run(const std::function<void(int)>& f) {
    if (workers_.empty()) {
      f(0);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(mu_);
      job_ = &f;
      error_ = nullptr;
      pending_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    cv_.notify_all();
    std::exception_ptr mine;
    try {
      f(0);
    } catch (...) {
      mine = std::current_exception();
    }
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
  }

 private:
  void loop(int tid) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
      }
      std::exception_ptr err;
      try {
        (*job)(tid);
      } catch (...) {
        err = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lk(mu_);
        if (err && !error_) error_ = err;
        if (--pending_ == 0) done_cv_.notify_one();
      }
    }
  }
  void shutdown() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) {
      if (w.joinable()) w.join();
    }
    workers_.clear();
  }

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int)>* job_ = nullptr;
  std::exception_ptr error_;
  int pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

inline int resolved_threads(const RunOptions* o) {
  int t = o != nullptr ? o->num_threads : 1;
  if (t < 1) {
    unsigned hc = std::thread::hardware_concurrency();
    t = hc == 0 ? 1 : static_cast<int>(hc);
  }
  return t;
}

inline void fill_stats(RunStats* s, gsp_algorithm algo, int threads, int64_t iterations,
                       int64_t relaxations) {
  if (s == nullptr) return;
  s->backend = GSP_BACKEND_CPU;
  s->algorithm = algo;
  s->device = -1;
  s->device_name = "CPU (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  s->iterations = iterations;
  s->relaxations = relaxations;
}

// Elements of an n x n matrix; throws std::bad_alloc when the byte count
// does not fit size_t (the API maps it to GSP_ERR_OUT_OF_MEMORY).
inline size_t matrix_elems(int32_t n, size_t elem_size) {
  size_t un = static_cast<size_t>(n);
  if (un != 0 && un > std::numeric_limits<size_t>::max() / un) throw std::bad_alloc();
  size_t e = un * un;
  if (e != 0 && e > std::numeric_limits<size_t>::max() / elem_size) throw std::bad_alloc();
  return e;
}

template <class T>
void alloc_vector(std::vector<T>& v, size_t count, const T& value) {
  try {
    v.assign(count, value);
  } catch (const std::length_error&) {
    throw std::bad_alloc();
  }
}

inline void require_non_negative(const Graph& g, const char* algo) {
  if (g.has_negative_weight()) {
    throw Error(GSP_ERR_NEGATIVE_WEIGHT,
                std::string(algo) + " needs non-negative weights; the graph has a negative arc "
                                    "(smallest weight " + std::to_string(g.min_weight()) +
                    "); use Bellman-Ford, Floyd-Warshall, min-plus or Johnson");
  }
}

// Engines, one per algorithm, per weight type (explicitly instantiated for
// float and int32_t in their .cpp files).
template <class W> void dijkstra_sssp(const SsspJob& job);
template <class W> void bellman_ford_sssp(const SsspJob& job);
template <class W> void delta_stepping_sssp(const SsspJob& job);
template <class W> void floyd_warshall_apsp(const ApspJob& job);
template <class W> void minplus_apsp(const ApspJob& job);
template <class W> void dijkstra_apsp(const ApspJob& job);  // GSP_APSP_HEAP
template <class W> void johnson_apsp(const ApspJob& job);

// Delta chosen from the graph when options->delta is 0 (delta_stepping.cpp).
double choose_delta(const Graph& g);

}  // namespace gsp::detail::cpu
