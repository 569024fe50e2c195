// The process-wide pool behind Team (team.h).
//
// Each pooled thread owns a PoolThread: a job slot guarded by its mutex and
// a generation counter that moves on with every job. Posting a job writes
// the slot and bumps the counter under the mutex and notifies under it too,
// so a thread that has seen the new generation and then takes the mutex
// finds the poster gone; that is what lets a thread told to quit delete its
// own PoolThread safely.
#include "engines/cpu/common/team.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <thread>

#include "core/tuning.h"
#include "engines/cpu/common/spin.h"

namespace gsp::detail::cpu {

struct PoolThread {
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<uint64_t> gen{0};
  // Written under mu before gen moves on.
  const std::function<void(int)>* job = nullptr;
  Team* team = nullptr;
  int tid = 0;
  bool quit = false;
};

namespace {

// GSP_CPU_POOL, GSP_CPU_POOL_SPIN_US (core/tuning.h), read once per process.
struct PoolSettings {
  bool enabled;
  int64_t spin_ns;
};

const PoolSettings& settings() {
  static const PoolSettings s = [] {
    const Tuning t = tuning();
    return PoolSettings{t.cpu_pool, t.cpu_pool_spin_us * 1000};
  }();
  return s;
}

// Spins while `busy()` holds, for at most spin_ns.
template <class F>
void spin_while(F&& busy, int64_t spin_ns) {
  if (!busy() || spin_ns <= 0) return;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint32_t i = 1; busy(); ++i) {
    cpu_relax();
    if ((i & 63) == 0 &&
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count() > spin_ns) {
      return;
    }
  }
}

void post(PoolThread* p, const std::function<void(int)>* job, Team* team, int tid, bool quit) {
  std::lock_guard<std::mutex> lk(p->mu);
  p->job = job;
  p->team = team;
  p->tid = tid;
  p->quit = quit;
  p->gen.fetch_add(1, std::memory_order_release);
  p->cv.notify_one();
}

void thread_main(PoolThread* p) {
  uint64_t seen = 0;
  for (;;) {
    spin_while([&] { return p->gen.load(std::memory_order_acquire) == seen; }, settings().spin_ns);
    const std::function<void(int)>* job;
    Team* team;
    int tid;
    bool quit;
    {
      std::unique_lock<std::mutex> lk(p->mu);
      p->cv.wait(lk, [&] { return p->gen.load(std::memory_order_relaxed) != seen; });
      seen = p->gen.load(std::memory_order_relaxed);
      job = p->job;
      team = p->team;
      tid = p->tid;
      quit = p->quit;
    }
    if (quit) {
      delete p;
      return;
    }
    std::exception_ptr err;
    try {
      (*job)(tid);
    } catch (...) {
      err = std::current_exception();
    }
    team->member_done(err);
  }
}

PoolThread* start_thread() {
  auto* p = new PoolThread;
  try {
    std::thread(thread_main, p).detach();
  } catch (...) {
    delete p;
    throw;
  }
  return p;
}

class Pool {
 public:
  Pool() { idle_.reserve(idle_cap()); }

  // k threads: idle ones first, then new ones. Throws what starting a
  // thread throws, having handed back what it took.
  std::vector<PoolThread*> take(size_t k) {
    std::vector<PoolThread*> out;
    out.reserve(k);
    {
      std::lock_guard<std::mutex> lk(mu_);
      while (out.size() < k && !idle_.empty()) {
        out.push_back(idle_.back());
        idle_.pop_back();
      }
    }
    try {
      while (out.size() < k) out.push_back(start_thread());
    } catch (...) {
      give_back(out);
      throw;
    }
    return out;
  }

  // Keeps up to a few threads per core idle (idle_ has room for them all);
  // tells the rest to quit.
  void give_back(std::vector<PoolThread*>& ts) {
    std::lock_guard<std::mutex> lk(mu_);
    for (PoolThread* p : ts) {
      if (idle_.size() < idle_.capacity()) {
        idle_.push_back(p);
      } else {
        post(p, nullptr, nullptr, 0, true);
      }
    }
    ts.clear();
  }

  // In a child after fork(): the idle threads do not exist there, and the
  // mutex may have been held by one that was taking or giving back. Their
  // PoolThreads stay reachable (orphans_), so leak checkers stay quiet.
  void reset_in_child() {
    new (&mu_) std::mutex;
    try {
      orphans_.insert(orphans_.end(), idle_.begin(), idle_.end());
    } catch (...) {
      // Out of memory in a fresh child: forget them (a small leak, not a fault).
    }
    idle_.clear();
  }

 private:
  static size_t idle_cap() {
    const unsigned hc = std::thread::hardware_concurrency();
    return std::max<size_t>(64, 4 * static_cast<size_t>(hc));
  }

  std::mutex mu_;
  std::vector<PoolThread*> idle_, orphans_;
};

Pool* g_pool = nullptr;
std::once_flag g_pool_once;

void reset_pool_in_child() { g_pool->reset_in_child(); }

Pool& pool() {
  std::call_once(g_pool_once, [] {
    g_pool = new Pool;  // never deleted: idle threads may outlive static destructors
    pthread_atfork(nullptr, nullptr, reset_pool_in_child);
  });
  return *g_pool;
}

}  // namespace

Team::Team(int threads) : pooled_(settings().enabled) {
  if (threads <= 1) return;
  const size_t k = static_cast<size_t>(threads - 1);
  if (pooled_) {
    members_ = pool().take(k);
    return;
  }
  members_.reserve(k);
  try {
    while (members_.size() < k) members_.push_back(start_thread());
  } catch (...) {
    for (PoolThread* p : members_) post(p, nullptr, nullptr, 0, true);
    throw;
  }
}

Team::~Team() {
  if (members_.empty()) return;
  if (pooled_) {
    pool().give_back(members_);
  } else {
    for (PoolThread* p : members_) post(p, nullptr, nullptr, 0, true);
  }
}

void Team::member_done(const std::exception_ptr& err) {
  // Under the mutex: run() takes it before returning, so the team outlives
  // this call.
  std::lock_guard<std::mutex> lk(mu_);
  if (err && !error_) error_ = err;
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_cv_.notify_one();
}

void Team::run(const std::function<void(int)>& f) {
  if (members_.empty()) {
    f(0);
    return;
  }
  error_ = nullptr;
  pending_.store(static_cast<int>(members_.size()), std::memory_order_relaxed);
  for (size_t i = 0; i < members_.size(); ++i) post(members_[i], &f, this, static_cast<int>(i) + 1, false);
  std::exception_ptr mine;
  try {
    f(0);
  } catch (...) {
    mine = std::current_exception();
  }
  spin_while([&] { return pending_.load(std::memory_order_acquire) != 0; }, settings().spin_ns);
  std::exception_ptr theirs;
  {
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    theirs = error_;
    error_ = nullptr;
  }
  if (mine) std::rethrow_exception(mine);
  if (theirs) std::rethrow_exception(theirs);
}

}  // namespace gsp::detail::cpu
