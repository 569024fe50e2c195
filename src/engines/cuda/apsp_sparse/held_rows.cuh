// The rows of the passes that end before a result's array is ready
// (pass_pipeline.cuh, run_passes): written into device memory held for
// them instead of the pass's output rows, then sent on in order once the
// array is ready, straight into it or through the engine's staging.
#pragma once

#include <algorithm>
#include <vector>

#include "apsp_sparse/apsp_sparse_common.cuh"

namespace gsp::detail::gpu::sparse {

template <class W>
class HeldRows {
 public:
  HeldRows(RunContext& ctx, int32_t n, bool paths, int32_t num_sources)
      : ctx_(ctx), n_(n), paths_(paths), num_sources_(num_sources) {}

  // Whether `count` more rows fit, the pass starting at source `first`.
  // The first call allocates room for every row still to come, within half
  // of what the run's budget has left; where that is less than a pass,
  // never (the caller waits for the array instead).
  bool room_for(int32_t first, int32_t count) {
    if (no_room_) return false;
    if (dist_.get() == nullptr) {
      const size_t row_bytes = static_cast<size_t>(n_) * (sizeof(W) + (paths_ ? sizeof(int32_t) : 0));
      const size_t rows =
          std::min<size_t>(static_cast<size_t>(num_sources_ - first), ctx_.budget_left() / 2 / row_bytes);
      try {
        if (rows < static_cast<size_t>(count)) throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "no room");
        dist_.allocate(ctx_, rows * n_, "sparse APSP rows held for the result");
        if (paths_) pred_.allocate(ctx_, rows * n_, "sparse APSP predecessor rows held for the result");
      } catch (const Error&) {
        dist_.reset();
        pred_.reset();
        no_room_ = true;
        return false;
      }
    }
    return used_ + static_cast<size_t>(count) * n_ <= dist_.size();
  }
  // Where the next pass held writes its rows (after room_for), and taking
  // that room: the pass's place, for add().
  W* next_dist() const { return dist_.get() + used_; }
  int32_t* next_pred() const { return paths_ ? pred_.get() + used_ : nullptr; }
  size_t take(int32_t count) {
    const size_t at = used_;
    used_ += static_cast<size_t>(count) * n_;
    return at;
  }
  // A held pass handed over: its rows wait. `check`: its predecessor rows
  // need the host check.
  void add(int32_t first, int32_t count, size_t at, bool check) { waiting_.push_back(Held{first, count, at, check}); }
  bool waiting() const { return !waiting_.empty(); }

  // The waiting rows into the page-locked array `dest`: copies queued on
  // `stream`, handed on by finish().
  void send(const RowSink::Destination& dest, cudaStream_t stream) {
    for (const Held& h : waiting_) {
      const size_t out_at = static_cast<size_t>(h.first) * n_, labels = static_cast<size_t>(h.count) * n_;
      copy_to_host(static_cast<W*>(dest.dist) + out_at, dist_.get() + h.at, labels * sizeof(W), dest.lock_piece,
                   stream);
      if (paths_ && dest.pred != nullptr) {
        copy_to_host(dest.pred + out_at, pred_.get() + h.at, labels * sizeof(int32_t), dest.lock_piece, stream);
      }
    }
    GSP_CUDA(cudaEventRecord(sent_.get(), stream));
    crossing_.insert(crossing_.end(), waiting_.begin(), waiting_.end());
    waiting_.clear();
  }
  // Once the copies of send() ended: done(first, count, check) for each
  // pass, in order. Nothing when none is crossing.
  template <class Done>
  void finish(Done&& done) {
    if (crossing_.empty()) return;
    GSP_CUDA(cudaEventSynchronize(sent_.get()));
    for (const Held& h : crossing_) done(h.first, h.count, h.check);
    crossing_.clear();
  }
  // The waiting rows through the engine's staging instead (a sink whose
  // array is not page-locked): deliver(first, count, dist, pred, check)
  // with device rows, in order, each returning when its rows are read.
  template <class Deliver>
  void send_staged(Deliver&& deliver) {
    for (const Held& h : waiting_) {
      deliver(h.first, h.count, dist_.get() + h.at, paths_ ? pred_.get() + h.at : nullptr, h.check);
    }
    waiting_.clear();
  }

 private:
  struct Held {
    int32_t first, count;
    size_t at;  // labels into dist_ / pred_
    bool check;
  };
  RunContext& ctx_;
  const int32_t n_;
  const bool paths_;
  const int32_t num_sources_;
  // Kept until the run ends: freeing them earlier would wait for the device.
  DeviceBuffer<W> dist_;
  DeviceBuffer<int32_t> pred_;
  size_t used_ = 0;
  bool no_room_ = false;
  std::vector<Held> waiting_;   // handed over, still on the device
  std::vector<Held> crossing_;  // their copies queued (event sent_)
  Event sent_;
};

}  // namespace gsp::detail::gpu::sparse
