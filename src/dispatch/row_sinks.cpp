// APSP row sinks: result arrays, caller arrays, callbacks (row_sinks.h).
#include "dispatch/row_sinks.h"

#include <algorithm>
#include <string>

namespace gsp::detail {

void check_row_order(int32_t first_index, int32_t num_rows, int32_t* next) {
  if (first_index != *next) {
    throw Error(GSP_ERR_INTERNAL, "rows delivered out of order: got " + std::to_string(first_index) + ", expected " +
                                      std::to_string(*next));
  }
  *next += num_rows;
}

ArraySink::ArraySink(Paths* paths, int32_t rows, bool pinned, int32_t threads)
    : paths_(paths),
      rows_(rows),
      pinned_(pinned),
      n_(paths->n),
      dtype_(paths->dtype),
      threads_(threads),
      want_pred_(paths->has_paths) {}

ArraySink::ArraySink(void* dist, int32_t* pred, int32_t n, gsp_dtype dtype, int32_t threads)
    : n_(n), dtype_(dtype), threads_(threads), dist_(dist), pred_(pred), want_pred_(pred != nullptr) {}

void ArraySink::allocate(bool lock) {
  if (paths_ == nullptr || dist_ != nullptr) return;
  const size_t cells = static_cast<size_t>(rows_) * static_cast<size_t>(n_);
  lock = lock && lock_worth(cells);
  with_weight_type(paths_->dtype, [&](auto w) {
    auto& a = paths_->dist_array<decltype(w)>();
    allocate_result(a, cells, pinned_, lock, lock_piece_);
    dist_ = a.data();
  });
  if (want_pred_) {
    allocate_result(paths_->pred, cells, pinned_, lock, lock_piece_);
    pred_ = paths_->pred.data();
  }
}

void ArraySink::rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) {
  allocate(true);
  const size_t at = static_cast<size_t>(first_index) * static_cast<size_t>(n_);
  const size_t len = static_cast<size_t>(num_rows) * static_cast<size_t>(n_);
  advance(first_index, num_rows);
  const size_t wb = weight_bytes(dtype_);
  parallel_copy(static_cast<char*>(dist_) + at * wb, dist, len * wb, threads_);
  if (want_pred_ && pred != nullptr) parallel_copy(pred_ + at, pred, len * sizeof(int32_t), threads_);
}

bool ArraySink::destination(Destination* out) {
  allocate(true);
  // A caller's arrays, and a CPU run's, are written as they are; a CUDA
  // run's result is page-locked where that pays (else the engine stages).
  out->page_locked = true;
  if (paths_ != nullptr && pinned_) {
    const size_t cells = static_cast<size_t>(rows_) * static_cast<size_t>(n_);
    if (lock_worth(cells)) {  // arrays of prepare_destination(): locked now
      gpu::result_buffer_lock(dist_, lock_piece_);
      if (want_pred_) gpu::result_buffer_lock(pred_, lock_piece_);
    }
    out->page_locked = gpu::page_locked(dist_) && (!want_pred_ || gpu::page_locked(pred_));
    // Powers of two: a copy cut at the smaller piece crosses neither.
    const size_t d = gpu::lock_piece_of(dist_), p = want_pred_ ? gpu::lock_piece_of(pred_) : 0;
    out->lock_piece = d == 0 ? p : p == 0 ? d : std::min(d, p);
  }
  out->dist = dist_;
  out->pred = want_pred_ ? pred_ : nullptr;
  return true;
}

bool ArraySink::lock_worth(size_t cells) const {
  return gpu::result_buffer_worth_locking(cells * (weight_bytes(dtype_) + (want_pred_ ? sizeof(int32_t) : 0)));
}

void ArraySink::rows_written(int32_t first_index, int32_t num_rows) { advance(first_index, num_rows); }

void ArraySink::advance(int32_t first_index, int32_t num_rows) {
  check_row_order(first_index, num_rows, &next_);
  if (paths_ != nullptr && next_ > rows_) {
    throw Error(GSP_ERR_INTERNAL, "engine delivered " + std::to_string(next_) + " rows of " + std::to_string(rows_));
  }
}

void StreamSink::rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) {
  if (any_order_) {
    require(first_index >= 0 && num_rows >= 0 && first_index <= rows_ - num_rows, GSP_ERR_INTERNAL,
            "engine delivered rows [" + std::to_string(first_index) + ", +" + std::to_string(num_rows) +
                ") past the run's " + std::to_string(rows_));
    next_ += num_rows;
  } else {
    check_row_order(first_index, num_rows, &next_);
  }
  if (fn_(user_, first_index, num_rows, dist, pred) != 0) {
    throw Error(GSP_ERR_CANCELLED, "cancelled by the rows callback at row " + std::to_string(first_index));
  }
}

int32_t StreamSink::preferred_block_rows() const {
  const int64_t per_row = static_cast<int64_t>(n_) * 8;
  return static_cast<int32_t>(std::clamp<int64_t>((64ll << 20) / std::max<int64_t>(per_row, 1), 1, 1024));
}

}  // namespace gsp::detail
