// core/row_merger.*: rows of parts run side by side (the multi-device runs
// of dispatch/multi_device.cpp and fw_multi_device.cu) reach one sink as
// from one engine, on the CPU, with no device: into a destination in
// place (announced in order), to a sink in source order or in any order
// (on the calling thread, one call at a time), to a sink that takes rows
// from any thread; and a failing part ends the run with its own status,
// nobody left waiting.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "core/row_merger.h"
#include "checks.h"

using gsp::detail::Error;
using gsp::detail::RowMerger;
using gsp::detail::RowSink;

namespace {

constexpr int32_t kRows = 1000, kN = 3;
// Parts of unequal sizes, one of them empty.
const std::vector<int32_t> kStarts = {0, 100, 100, 350, 700};

// The value a part writes for (row, column): checkable after the run.
int32_t value(int32_t row, int32_t col) { return row * 10 + col; }

// Records what reaches it; the order it declares decides the merger's path.
class TestSink final : public RowSink {
 public:
  TestSink(Order order, bool in_place) : order_(order), in_place_(in_place), cells_(kRows * kN, -1) {}
  void rows(int32_t first, int32_t num_rows, const void* dist, const int32_t*) override {
    if (order_ != Order::kAnyThread) {
      if (std::this_thread::get_id() != caller_) off_thread_++;
      if (busy_.exchange(true)) overlapping_++;
    }
    if (order_ == Order::kInOrder) {
      if (first != next_in_order_) out_of_order_++;
      next_in_order_ = first + num_rows;
    }
    std::memcpy(cells_.data() + static_cast<size_t>(first) * kN, dist, sizeof(int32_t) * num_rows * kN);
    received_ += num_rows;
    busy_ = false;
  }
  int32_t preferred_block_rows() const override { return 7; }
  bool has_destination() const override { return in_place_; }
  bool destination(Destination* out) override {
    if (!in_place_) return false;
    out->dist = cells_.data();
    return true;
  }
  void rows_written(int32_t first, int32_t num_rows) override {
    if (first != next_written_) out_of_order_++;
    next_written_ = first + num_rows;
    received_ += num_rows;
  }
  Order order() const override { return order_; }

  Order order_;
  bool in_place_;
  std::vector<int32_t> cells_;
  std::thread::id caller_ = std::this_thread::get_id();
  std::atomic<bool> busy_{false};
  std::atomic<int> off_thread_{0}, overlapping_{0}, received_{0};
  int out_of_order_ = 0;
  int32_t next_in_order_ = 0, next_written_ = 0;
};

// Part c's rows, in blocks of 7, staged (rows()) or written in place.
void deliver_part(RowMerger& m, int32_t c, unsigned seed) {
  std::mt19937 rng(seed);
  RowSink* part = m.part(c);
  RowSink::Destination d;
  const bool in_place = part->destination(&d);
  std::vector<int32_t> block;
  for (int32_t first = 0; first < m.part_rows(c); first += 7) {
    const int32_t rows = std::min(7, m.part_rows(c) - first);
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 200));
    block.assign(static_cast<size_t>(rows) * kN, 0);
    for (int32_t r = 0; r < rows; ++r)
      for (int32_t j = 0; j < kN; ++j) block[static_cast<size_t>(r * kN + j)] = value(m.part_begin(c) + first + r, j);
    if (in_place) {
      std::memcpy(static_cast<int32_t*>(d.dist) + static_cast<size_t>(first) * kN, block.data(),
                  block.size() * sizeof(int32_t));
      part->rows_written(first, rows);
    } else {
      part->rows(first, rows, block.data(), nullptr);
    }
  }
}

// Three workers take the parts in order, as the devices take chunks.
void run_case(RowSink::Order order, bool in_place, const char* what) {
  TestSink sink(order, in_place);
  RowMerger m(&sink, kRows, kN, GSP_I32, kStarts);
  std::atomic<int32_t> next{0};
  int ticks_off_thread = 0;
  const std::thread::id caller = std::this_thread::get_id();
  try {
    m.run_beside(
        3,
        [&](int worker) {
          for (int32_t c; (c = next.fetch_add(1)) < m.parts();) deliver_part(m, c, 17u * worker + c);
        },
        [&] {
          if (std::this_thread::get_id() != caller) ticks_off_thread++;
        },
        [] {});
  } catch (const Error& e) {
    CHECK(false, "%s: %s", what, e.message().c_str());
  }
  CHECK(sink.received_ == kRows && m.delivered() == kRows, "%s: %d rows received, %d passed on", what,
        sink.received_.load(), m.delivered());
  CHECK(sink.out_of_order_ == 0, "%s: %d blocks out of order", what, sink.out_of_order_);
  CHECK(sink.off_thread_ == 0, "%s: %d blocks off the calling thread", what, sink.off_thread_.load());
  CHECK(sink.overlapping_ == 0, "%s: %d blocks while another was being taken", what, sink.overlapping_.load());
  CHECK(ticks_off_thread == 0, "%s: tick off the calling thread", what);
  int bad = 0;
  for (int32_t i = 0; i < kRows; ++i)
    for (int32_t j = 0; j < kN; ++j) bad += sink.cells_[static_cast<size_t>(i * kN + j)] != value(i, j);
  CHECK(bad == 0, "%s: %d cells wrong", what, bad);
}

// A part fails half way: its status, not the others' "stopped", comes back,
// and every worker and the pump return.
void failing_case(RowSink::Order order, bool in_place, const char* what) {
  TestSink sink(order, in_place);
  RowMerger m(&sink, kRows, kN, GSP_I32, kStarts);
  std::atomic<bool> stopped{false};
  gsp_status got = GSP_OK;
  try {
    m.run_beside(
        4,
        [&](int worker) {
          if (worker == 2) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "device 2: out of device memory");
          }
          // The last part waits its turn behind part 2's rows, which never come.
          deliver_part(m, worker == 3 ? 4 : worker, 5u + worker);
        },
        [] {}, [&] { stopped = true; });
  } catch (const Error& e) {
    got = e.status();
  }
  CHECK(got == GSP_ERR_DEVICE_OUT_OF_MEMORY, "%s: status %d", what, static_cast<int>(got));
  CHECK(stopped, "%s: stop() not called", what);
}

}  // namespace

int main() {
  run_case(RowSink::Order::kInOrder, true, "in place");
  run_case(RowSink::Order::kInOrder, false, "stream in source order");
  run_case(RowSink::Order::kAnyOrder, false, "stream in any order");
  run_case(RowSink::Order::kAnyThread, false, "any thread");
  failing_case(RowSink::Order::kInOrder, false, "failure, stream in source order");
  failing_case(RowSink::Order::kAnyOrder, false, "failure, stream in any order");
  failing_case(RowSink::Order::kInOrder, true, "failure, in place");
  return t_finish("test_row_merger");
}
