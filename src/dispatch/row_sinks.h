// Where APSP rows go: into one host array per kind (a result's, allocated
// when first needed, or a caller's buffers), or to a caller's callback.
// Engines see only the RowSink contract (core/engine.h).
#pragma once

#include <climits>
#include <cstdint>

#include "core/engine.h"
#include "core/parallel_copy.h"
#include "core/paths.h"
#include "core/result_memory.h"

namespace gsp::detail {

// Rows into arrays of rows x n values: a result's, or the caller's. Rows
// must arrive in order (rows() or, written in place, rows_written()).
class ArraySink final : public RowSink {
 public:
  // Into paths' arrays, allocated when the first row arrives or an engine
  // asks for the destination (so a CUDA engine's allocation overlaps its
  // computation); page-locked when `pinned` (device copies at full speed,
  // buffers reused across runs: gpu::result_buffer_take).
  ArraySink(Paths* paths, int32_t rows, bool pinned, int32_t threads);
  // Into the caller's arrays: dist rows x n values of the weight type, pred
  // rows x n or null.
  ArraySink(void* dist, int32_t* pred, int32_t n, gsp_dtype dtype, int32_t threads);

  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override;
  int32_t preferred_block_rows() const override { return 256; }
  bool destination(Destination* out) override;
  void prepare_destination(size_t lock_piece) override {
    lock_piece_ = lock_piece;
    allocate(false);
  }
  bool has_destination() const override { return true; }
  void rows_written(int32_t first_index, int32_t num_rows) override;
  int32_t delivered() const { return next_; }

 private:
  // The result's arrays, if not yet there; page-locked now or (lock =
  // false) by destination(), where that pays (lock_worth).
  void allocate(bool lock);
  // Whether a result of `cells` cells is worth page-locking (all its
  // arrays together: gpu::result_buffer_worth_locking).
  bool lock_worth(size_t cells) const;
  void advance(int32_t first_index, int32_t num_rows);
  Paths* paths_ = nullptr;
  int32_t rows_ = 0;
  bool pinned_ = false;
  int32_t n_ = 0;
  gsp_dtype dtype_ = GSP_F32;
  int32_t threads_ = 1;
  void* dist_ = nullptr;
  int32_t* pred_ = nullptr;
  bool want_pred_ = false;
  size_t lock_piece_ = 0;  // prepare_destination(piece): locked in pieces
  int32_t next_ = 0;
};

// Hands rows to the caller's callback; checks order, or with any_order
// (GSP_ROWS_ANY_ORDER) only that no block reaches past the rows.
class StreamSink final : public RowSink {
 public:
  StreamSink(gsp_rows_fn fn, void* user, int32_t n, int32_t rows = INT32_MAX, bool any_order = false)
      : fn_(fn), user_(user), n_(n), rows_(rows), any_order_(any_order) {}
  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override;
  // Bounded host memory: about 64 MiB of distances + predecessors per block.
  int32_t preferred_block_rows() const override;
  Order order() const override { return any_order_ ? Order::kAnyOrder : Order::kInOrder; }
  int32_t delivered() const { return next_; }

 private:
  gsp_rows_fn fn_;
  void* user_;
  int32_t n_;
  int32_t rows_;
  bool any_order_;
  int32_t next_ = 0;  // rows delivered (in order: the next row expected)
};

// Throws GSP_ERR_INTERNAL unless first_index == *next; then advances it.
void check_row_order(int32_t first_index, int32_t num_rows, int32_t* next);

}  // namespace gsp::detail
