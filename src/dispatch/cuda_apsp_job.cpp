// run_cuda_apsp_job (cuda_apsp_job.h): Johnson's reweighting in front of a
// CUDA engine, and every other CUDA all-pairs job on its devices.
#include "dispatch/cuda_apsp_job.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/row_merger.h"
#include "dispatch/cuda_cost_model.h"
#include "dispatch/multi_device.h"
#include "engines/cpu/cpu_backend.h"

namespace gsp::detail {

namespace {

// Rows of distances on the reduced graph (float64) on their way to the
// job's sink, mapped back to the graph's weight type; predecessors pass
// as they are (reweighting keeps every shortest path). Whole rows go
// through a block-sized buffer, the blocks' rows side by side on the run's
// threads; narrow rows (a table's columns) map only their cells.
class UnreducingSink final : public RowSink {
 public:
  UnreducingSink(const cpu::ReducedGraph& reduced, const int32_t* sources, RowSink* out, int32_t threads)
      : reduced_(reduced), sources_(sources), out_(out), threads_(std::max(1, threads)) {}

  void rows(int32_t first_index, int32_t num_rows, const void* dist, const int32_t* pred) override {
    const int32_t n = static_cast<int32_t>(reduced_.potentials.size());
    map_rows(first_index, num_rows, static_cast<const double*>(dist), n, nullptr);
    out_->rows(first_index, num_rows, buffer_.data(), pred);
  }
  int32_t preferred_block_rows() const override { return out_->preferred_block_rows(); }
  Order order() const override { return out_->order() == Order::kAnyThread ? Order::kAnyOrder : out_->order(); }
  const std::vector<int32_t>* columns() const override { return out_->columns(); }
  void narrow_rows(int32_t first_index, int32_t num_rows, const void* dist) override {
    const std::vector<int32_t>& cols = *out_->columns();
    map_rows(first_index, num_rows, static_cast<const double*>(dist), static_cast<int32_t>(cols.size()), cols.data());
    out_->narrow_rows(first_index, num_rows, buffer_.data());
  }

 private:
  // width values a row (to columns[j], or to vertex j without columns)
  // from the reduced rows into buffer_; the first failure (a distance the
  // weight type cannot hold) is rethrown.
  void map_rows(int32_t first_index, int32_t num_rows, const double* d, int32_t width, const int32_t* columns) {
    const size_t wb = weight_bytes(reduced_.dtype), w = static_cast<size_t>(width);
    buffer_.resize(static_cast<size_t>(num_rows) * w * wb);
    auto one_row = [&](int32_t r) {
      reduced_.unreduce(sources_[first_index + r], d + static_cast<size_t>(r) * w, columns, width,
                        buffer_.data() + static_cast<size_t>(r) * w * wb);
    };
    cpu::for_each_index(threads_, num_rows, one_row);
  }

  const cpu::ReducedGraph& reduced_;
  const int32_t* sources_;
  RowSink* out_;
  int32_t threads_;
  std::vector<char> buffer_;  // one block's mapped rows (one call at a time: order() is never kAnyThread)
};

void run_johnson(const ApspJob& job, bool rows_serialise) {
  const RunOptions& o = *job.options;
  RunStats reweighting;
  StageLaps laps(&reweighting);
  const cpu::ReducedGraph reduced = cpu::johnson_reduced_graph(*job.graph, &o);
  require(reduced.exact, GSP_ERR_UNSUPPORTED,
          "Johnson on CUDA: this int32 graph's reduced costs are too large for float64 sums to be exact "
          "(a cost times n reaches 2^53); use GSP_BACKEND_CPU");
  laps.lap(Stage::kSetup);
  UnreducingSink sink(reduced, job.sources, job.sink, o.num_threads);
  ApspJob on_reduced = job;
  on_reduced.graph = reduced.graph.get();
  on_reduced.sink = &sink;
  on_reduced.algorithm =
      cuda_apsp_choice(*reduced.graph, job.num_sources, o.want_paths, static_cast<double>(o.device_memory_limit));
  run_cuda_apsp(on_reduced, plan_devices(*reduced.graph, o, on_reduced.algorithm, job.num_sources, job.all_sources,
                                         rows_serialise || RowMerger::serialises(sink)));
  // The run is Johnson's (dispatch names it): the engine's counts and
  // stages, plus Bellman-Ford's relaxations and the reweighting as set-up.
  if (job.stats != nullptr) {
    job.stats->relaxations += reduced.relaxations;
    job.stats->add(Stage::kSetup, reweighting.stage(Stage::kSetup));
  }
}

}  // namespace

void run_cuda_apsp_job(const ApspJob& job, bool rows_serialise) {
  if (job.algorithm == GSP_APSP_JOHNSON) {
    run_johnson(job, rows_serialise);
    return;
  }
  run_cuda_apsp(
      job, plan_devices(*job.graph, *job.options, job.algorithm, job.num_sources, job.all_sources, rows_serialise));
}

}  // namespace gsp::detail
