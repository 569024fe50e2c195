// Rows of one job computed in parts on several threads (one CUDA device
// each: dispatch/multi_device.h) and handed to the job's one sink as if a
// single engine had delivered them: rows() in order from row 0 without
// gaps, or, when the sink keeps every row in one host array, written in
// place by each part and announced (rows_written) in order.
//
// A part is a contiguous range of the job's rows; part(i) is the RowSink its
// engine call delivers to, with row indices relative to the part. Parts run
// concurrently; each part's rows arrive in order. How they reach the sink:
// - the sink keeps every row in one host array (a destination): each part
//   writes its rows there, no part waits for another, and the longest
//   finished prefix is announced (rows_written) in order;
// - the sink takes rows in any order from any thread (RowSink::Order::
//   kAnyThread: a table's columns): each part calls it directly;
// - otherwise the blocks go to pump(), which the caller's thread runs while
//   the parts run on theirs, so that a caller's callback runs on the thread
//   that made the call (gsp.h promises it that). A sink in source order
//   (kInOrder) gets a part's block only once every row before it is passed
//   on, so a part waits for the parts before it; one in any order
//   (kAnyOrder: GSP_ROWS_ANY_ORDER) gets blocks as they come.
//
// abort() wakes every waiting part, which then throws, and ends pump(): a
// part that failed (or a cancellation) must never leave the others, or the
// caller, waiting for its rows.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/engine.h"

namespace gsp::detail {

class RowMerger {
 public:
  // Rows [0, total) of `sink`, n values a row of weight type dtype, split at
  // part_begin (ascending, part_begin[0] == 0; part i is [part_begin[i],
  // part_begin[i + 1]) and the last ends at total).
  RowMerger(RowSink* sink, int32_t total, int32_t n, gsp_dtype dtype, std::vector<int32_t> part_begin);
  ~RowMerger();
  RowMerger(const RowMerger&) = delete;
  RowMerger& operator=(const RowMerger&) = delete;

  int32_t parts() const { return static_cast<int32_t>(begin_.size()); }
  int32_t part_begin(int32_t i) const { return begin_[static_cast<size_t>(i)]; }
  int32_t part_rows(int32_t i) const;
  // The sink part i's engine call delivers to (rows relative to the part).
  RowSink* part(int32_t i);

  // Run by the caller's thread until finish() or abort(): passes the parts'
  // streamed blocks to the sink, and calls tick() every few milliseconds
  // (progress, on the caller's thread). What the sink or tick() throws
  // propagates (abort() first, so no part waits on).
  void pump(const std::function<void()>& tick);
  // Every part is done: pump() returns.
  void finish();

  // Every waiting part wakes and throws; later calls throw at once; pump() returns.
  void abort();

  // The whole pattern: work(i) for i in [0, threads) on threads of their
  // own while the calling thread runs pump(tick). The first failure
  // (core/first_error.h) calls stop() and abort(), so the others end, and
  // is rethrown once every thread has returned; then every row must have
  // been passed on (GSP_ERR_INTERNAL otherwise).
  void run_beside(int threads, const std::function<void(int)>& work, const std::function<void()>& tick,
                  const std::function<void()>& stop);
  // Rows passed on to the sink so far.
  int32_t delivered() const;
  // Whether the parts' rows wait for one another (a stream in source order
  // without a destination): then a run split across devices gains little.
  static bool serialises(const RowSink& sink) {
    return !sink.has_destination() && sink.order() == RowSink::Order::kInOrder;
  }

 private:
  class Part;
  friend class Part;
  bool destination(int32_t part, RowSink::Destination* out);
  void prepare();  // the sink's prepare_destination(), once, before any destination()
  void written(int32_t part, int32_t first, int32_t rows);  // part's rows [first, first + rows) are in place
  void rows(int32_t part, int32_t first, int32_t rows, const void* dist, const int32_t* pred);
  void narrow(int32_t part, int32_t first, int32_t rows, const void* dist);  // kAnyThread sinks only
  void pass_on_locked();                                                     // announces the finished prefix (mu_ held)

  RowSink* sink_;
  int32_t total_, n_;
  size_t value_bytes_;
  std::vector<int32_t> begin_;
  std::vector<int32_t> done_;  // per part: rows finished (in place) or passed on (streamed)
  std::vector<std::unique_ptr<Part>> part_sinks_;
  mutable std::mutex mu_;
  std::condition_variable turn_;
  int32_t cursor_ = 0;  // in order: rows passed on (a prefix)
  int32_t passed_ = 0;  // rows passed on
  bool asked_ = false, in_place_ = false, aborted_ = false, finished_ = false, prepared_ = false;
  // Blocks handed to pump(), at most one a part (the part waits until it is
  // passed on: the arrays are its engine's).
  struct Block {
    bool posted = false;
    int32_t first = 0, rows = 0;  // job rows
    const void* dist = nullptr;
    const int32_t* pred = nullptr;
  };
  std::vector<Block> blocks_;
  int32_t posted_ = 0;  // blocks waiting for pump()
  RowSink::Destination dest_;
};

}  // namespace gsp::detail
