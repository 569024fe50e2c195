// Rows of parts run in parallel, to one sink in order (see row_merger.h).
#include "core/row_merger.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/first_error.h"
#include "core/parallel_copy.h"
#include "core/weight_type.h"

namespace gsp::detail {

namespace {
// Threads that copy a staged block into its part's place (each part's
// thread, one a device, runs beside the others): a single thread's copy
// bounded a 4-device delivery of 17 GB at 19 GB/s.
constexpr int32_t kCopyThreads = 4;
}  // namespace

class RowMerger::Part final : public RowSink {
 public:
  Part(RowMerger* m, int32_t index) : m_(m), index_(index) {}
  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override {
    m_->rows(index_, first_index, num_rows, dist, pred);
  }
  int32_t preferred_block_rows() const override { return m_->sink_->preferred_block_rows(); }
  bool destination(Destination* out) override { return m_->destination(index_, out); }
  void prepare_destination(size_t lock_piece) override {
    (void)lock_piece;  // the parts' engines lock whole (Floyd-Warshall)
    m_->prepare();
  }
  void rows_written(int32_t first_index, int32_t num_rows) override { m_->written(index_, first_index, num_rows); }
  // Narrow rows go straight to a sink that takes rows from any thread.
  const std::vector<int32_t>* columns() const override {
    return m_->sink_->order() == Order::kAnyThread ? m_->sink_->columns() : nullptr;
  }
  void narrow_rows(int32_t first_index, int32_t num_rows, const void* dist) override {
    m_->narrow(index_, first_index, num_rows, dist);
  }

 private:
  RowMerger* m_;
  int32_t index_;
};

RowMerger::RowMerger(RowSink* sink, int32_t total, int32_t n, gsp_dtype dtype, std::vector<int32_t> part_begin)
    : sink_(sink), total_(total), n_(n), value_bytes_(weight_bytes(dtype)), begin_(std::move(part_begin)) {
  require(!begin_.empty() && begin_[0] == 0 && std::is_sorted(begin_.begin(), begin_.end()) && begin_.back() <= total,
          GSP_ERR_INTERNAL, "RowMerger: parts must start at row 0, in order, within the job's rows");
  done_.assign(begin_.size(), 0);
  blocks_.assign(begin_.size(), Block{});
  for (size_t i = 0; i < begin_.size(); ++i)
    part_sinks_.push_back(std::make_unique<Part>(this, static_cast<int32_t>(i)));
}

RowMerger::~RowMerger() = default;

int32_t RowMerger::part_rows(int32_t i) const {
  const size_t k = static_cast<size_t>(i);
  return (k + 1 < begin_.size() ? begin_[k + 1] : total_) - begin_[k];
}

RowSink* RowMerger::part(int32_t i) { return part_sinks_[static_cast<size_t>(i)].get(); }

void RowMerger::abort() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    aborted_ = true;
  }
  turn_.notify_all();
}

int32_t RowMerger::delivered() const {
  std::lock_guard<std::mutex> lock(mu_);
  return passed_;
}

namespace {
[[noreturn]] void stopped() { throw Error(GSP_ERR_CANCELLED, "stopped: another device's part of the run failed"); }
}  // namespace

void RowMerger::prepare() {
  std::lock_guard<std::mutex> lock(mu_);
  if (prepared_ || asked_) return;
  prepared_ = true;
  sink_->prepare_destination(0);
}

bool RowMerger::destination(int32_t part, RowSink::Destination* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (aborted_) stopped();
  if (!asked_) {
    asked_ = true;
    in_place_ = sink_->destination(&dest_);
  }
  if (!in_place_) return false;
  const size_t at = static_cast<size_t>(begin_[static_cast<size_t>(part)]) * static_cast<size_t>(n_);
  out->dist = static_cast<char*>(dest_.dist) + at * value_bytes_;
  out->pred = dest_.pred != nullptr ? dest_.pred + at : nullptr;
  out->page_locked = dest_.page_locked;
  out->lock_piece = dest_.lock_piece;
  return true;
}

void RowMerger::written(int32_t part, int32_t first, int32_t rows) {
  std::lock_guard<std::mutex> lock(mu_);
  if (aborted_) stopped();
  int32_t& done = done_[static_cast<size_t>(part)];
  require(in_place_ && first == done && rows >= 0 && done + rows <= part_rows(part), GSP_ERR_INTERNAL,
          "RowMerger: part " + std::to_string(part) + " announced rows out of order (" + std::to_string(first) +
              " after " + std::to_string(done) + ")");
  done += rows;
  pass_on_locked();
}

void RowMerger::pass_on_locked() {
  while (cursor_ < total_) {
    const auto it = std::upper_bound(begin_.begin(), begin_.end(), cursor_);
    const size_t p = static_cast<size_t>(it - begin_.begin()) - 1;
    const int32_t ready = begin_[p] + done_[p] - cursor_;
    if (ready <= 0) return;
    sink_->rows_written(cursor_, ready);
    cursor_ += ready;
    passed_ += ready;
  }
}

void RowMerger::rows(int32_t part, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  RowSink::Destination d;
  if (destination(part, &d)) {
    // An engine that stages its rows: copy them into the part's place.
    const size_t at = static_cast<size_t>(first) * static_cast<size_t>(n_);
    const size_t cells = static_cast<size_t>(rows) * static_cast<size_t>(n_);
    parallel_copy(static_cast<char*>(d.dist) + at * value_bytes_, dist, cells * value_bytes_, kCopyThreads);
    if (d.pred != nullptr && pred != nullptr) parallel_copy(d.pred + at, pred, cells * sizeof(int32_t), kCopyThreads);
    written(part, first, rows);
    return;
  }
  const int32_t at = begin_[static_cast<size_t>(part)] + first;
  const RowSink::Order order = sink_->order();
  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_) stopped();
  int32_t& done = done_[static_cast<size_t>(part)];
  require(first == done && rows >= 0 && first + rows <= part_rows(part), GSP_ERR_INTERNAL,
          "RowMerger: part " + std::to_string(part) + " delivered rows out of order");
  if (order == RowSink::Order::kAnyThread) {
    lock.unlock();
    sink_->rows(at, rows, dist, pred);
    lock.lock();
    done += rows;
    passed_ += rows;
    return;
  }
  if (order == RowSink::Order::kInOrder) {
    turn_.wait(lock, [&] { return aborted_ || cursor_ == at; });
    if (aborted_) stopped();
  }
  blocks_[static_cast<size_t>(part)] = Block{true, at, rows, dist, pred};
  ++posted_;
  turn_.notify_all();
  // The block's arrays are the engine's: they must stay until pump() has
  // passed them on.
  turn_.wait(lock, [&] { return aborted_ || !blocks_[static_cast<size_t>(part)].posted; });
  if (blocks_[static_cast<size_t>(part)].posted) stopped();
}

void RowMerger::narrow(int32_t part, int32_t first, int32_t rows, const void* dist) {
  const int32_t at = begin_[static_cast<size_t>(part)] + first;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_) stopped();
    require(first == done_[static_cast<size_t>(part)] && rows >= 0 && first + rows <= part_rows(part), GSP_ERR_INTERNAL,
            "RowMerger: part " + std::to_string(part) + " delivered rows out of order");
  }
  sink_->narrow_rows(at, rows, dist);
  std::lock_guard<std::mutex> lock(mu_);
  done_[static_cast<size_t>(part)] += rows;
  passed_ += rows;
}

void RowMerger::run_beside(int threads, const std::function<void(int)>& work, const std::function<void()>& tick,
                           const std::function<void()>& stop) {
  FirstError first;
  std::atomic<int> live{threads};
  auto fail = [&] {
    stop();
    abort();
  };
  std::vector<std::thread> pool;
  first.guard(
      [&] {
        for (int i = 0; i < threads; ++i) {
          pool.emplace_back([&, i] {
            first.guard([&] { work(i); }, fail);
            if (live.fetch_sub(1) == 1) finish();
          });
        }
      },
      fail);
  first.guard([&] { pump(tick); }, fail);
  for (std::thread& t : pool) t.join();
  if (first.failed()) first.rethrow();
  require_rows_delivered(delivered(), total_);
}

void RowMerger::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
  }
  turn_.notify_all();
}

void RowMerger::pump(const std::function<void()>& tick) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kTick = std::chrono::milliseconds(20);
  auto next_tick = Clock::now() + kTick;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    turn_.wait_until(lock, next_tick, [&] { return aborted_ || finished_ || posted_ > 0; });
    if (aborted_) return;
    if (posted_ > 0) {
      size_t p = 0;
      while (!blocks_[p].posted) ++p;
      const Block b = blocks_[p];
      lock.unlock();
      try {
        sink_->rows(b.first, b.rows, b.dist, b.pred);
      } catch (...) {
        abort();
        throw;
      }
      lock.lock();
      done_[p] += b.rows;
      if (cursor_ == b.first) cursor_ += b.rows;
      passed_ += b.rows;
      blocks_[p].posted = false;
      --posted_;
      turn_.notify_all();
    } else if (finished_) {
      return;
    }
    if (Clock::now() >= next_tick) {
      lock.unlock();
      try {
        tick();
      } catch (...) {
        abort();
        throw;
      }
      next_tick = Clock::now() + kTick;
      lock.lock();
    }
  }
}

}  // namespace gsp::detail
