// The C ABI of gsp_mpi.h: argument checks, the options' normalisation and
// the exception firewall around the distributed engine
// (src/engines/mpi/fw_mpi.cpp). Nothing else lives here. Built into
// libgsp_mpi.a only (cmake/mpi.cmake), not libgsp.a: it needs MPI.
#include <cstring>
#include <memory>
#include <string>

#include "api/firewall.h"
#include "api/handles.h"
#include "api/run_info.h"
#include "api/run_options.h"
#include "dispatch/dispatch.h"
#include "dispatch/distance_limit.h"
#include "core/tuning.h"
#include "engines/mpi/fw_mpi.h"
#include "gsp/gsp_mpi.h"

// The handles of gsp.h, defined exactly as in src/api/api.cpp (one
// definition, shared by both translation units of libgsp_mpi.a).

struct gsp_mpi_blocks {
  std::unique_ptr<gsp::detail::mpi::BlockResult> blocks;
};

using gsp::detail::Error;
using gsp::detail::guard;
using gsp::detail::require;
namespace gm = gsp::detail::mpi;

namespace {

// Local checks that need no communication and give the same answer on
// every rank of a valid job (they cannot be agreed: there is no usable
// communicator to agree over).
void check_comm(MPI_Comm comm) {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  require(up != 0 && down == 0, GSP_ERR_INVALID_ARGUMENT, "MPI is not initialised (or already finalised)");
  require(comm != MPI_COMM_NULL, GSP_ERR_INVALID_ARGUMENT, "comm is MPI_COMM_NULL");
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  require(inter == 0, GSP_ERR_INVALID_ARGUMENT, "comm is an intercommunicator; pass an intracommunicator");
}

// The run's options, on every rank (its own num_threads, device and
// device_memory_limit apply to it), and on rank 0 what only rank 0 can
// check: the algorithm (Floyd-Warshall only) and the limit (non-negative
// weights). Runs under the caller's capture(), after its own checks, so
// that its failures too are agreed before the engine starts.
struct RunArgs {
  gsp::detail::RunOptions options;
  int32_t asked_threads = 0;  // gsp_options::num_threads as set (0: the node's cores shared)
};

void check_run(bool root, const gsp_graph* graph, const gsp_options* options, RunArgs* args) {
  args->options = gsp::detail::normalize_options(options);
  args->asked_threads = options != nullptr ? options->num_threads : 0;
  if (!root) return;
  const gsp::detail::RunOptions& ro = args->options;
  require(ro.algorithm == GSP_ALGO_AUTO || ro.algorithm == GSP_APSP_FLOYD_WARSHALL, GSP_ERR_UNSUPPORTED,
          std::string("the MPI engine runs Floyd-Warshall only, not ") + gsp_algorithm_name(ro.algorithm));
  gsp::detail::require_limit_allowed(*graph->graph, ro);
}

const gm::BlockResult& blocks_of(const gsp_mpi_blocks* b) {
  if (b == nullptr) throw Error(GSP_ERR_INVALID_ARGUMENT, "blocks must not be NULL");
  return *b->blocks;
}

void check_index(const gm::BlockResult& r, int32_t index) {
  const int64_t count = static_cast<int64_t>(r.layout.nlr) * r.layout.nlc;
  if (index < 0 || index >= count) {
    throw Error(GSP_ERR_INVALID_ARGUMENT,
                "block index " + std::to_string(index) + " is out of range [0, " + std::to_string(count) + ")");
  }
}

}  // namespace

extern "C" {

GSP_API gsp_status gsp_apsp_run_mpi(MPI_Comm comm, const gsp_graph* graph, const gsp_options* options,
                                    gsp_paths** result) {
  if (result != nullptr) *result = nullptr;
  return guard([&] {
    check_comm(comm);
    gm::Session session(comm, gsp::detail::tuning().mpi_grid);
    const bool root = session.rank() == 0;
    RunArgs args;
    const gm::Outcome first = gm::capture([&] {
      if (root) {
        require(graph != nullptr, GSP_ERR_INVALID_ARGUMENT, "graph must not be NULL on rank 0");
        require(result != nullptr, GSP_ERR_INVALID_ARGUMENT, "result must not be NULL on rank 0");
      }
      check_run(root, graph, options, &args);
    });
    auto blocks = gm::distributed_fw(session, first, (root && graph != nullptr) ? graph->graph.get() : nullptr,
                                     args.options, args.asked_threads, true);
    std::unique_ptr<gsp_paths> handle;
    auto paths = gm::gather_to_root(session, *blocks, root ? graph->graph : gsp::detail::GraphPtr(),
                                    [&] { handle = std::make_unique<gsp_paths>(); });
    if (root) {
      handle->paths = std::move(paths);
      *result = handle.release();
    }
  });
}

GSP_API gsp_status gsp_apsp_run_mpi_blocks(MPI_Comm comm, const gsp_graph* graph, const gsp_options* options,
                                           gsp_mpi_blocks** blocks) {
  if (blocks != nullptr) *blocks = nullptr;
  return guard([&] {
    check_comm(comm);
    gm::Session session(comm, gsp::detail::tuning().mpi_grid);
    const bool root = session.rank() == 0;
    std::unique_ptr<gsp_mpi_blocks> handle;
    RunArgs args;
    const gm::Outcome first = gm::capture([&] {
      require(blocks != nullptr, GSP_ERR_INVALID_ARGUMENT, "blocks must not be NULL");
      if (root) require(graph != nullptr, GSP_ERR_INVALID_ARGUMENT, "graph must not be NULL on rank 0");
      handle = std::make_unique<gsp_mpi_blocks>();
      check_run(root, graph, options, &args);
    });
    auto r = gm::distributed_fw(session, first, (root && graph != nullptr) ? graph->graph.get() : nullptr, args.options,
                                args.asked_threads, false);
    handle->blocks = std::move(r);
    *blocks = handle.release();
  });
}

GSP_API gsp_status gsp_mpi_prepare(MPI_Comm comm, const gsp_options* options, int32_t wait) {
  return guard([&] {
    check_comm(comm);
    gm::Session session(comm, gsp::detail::tuning().mpi_grid);
    gsp::detail::RunOptions ro;
    const gm::Outcome first = gm::capture([&] { ro = gsp::detail::normalize_options(options); });
    gm::prepare_device_path(session, first, ro, wait != 0);
  });
}

GSP_API gsp_status gsp_mpi_blocks_layout(const gsp_mpi_blocks* blocks, gsp_mpi_layout* layout) {
  return guard([&] {
    const auto& r = blocks_of(blocks);
    require(layout != nullptr, GSP_ERR_INVALID_ARGUMENT, "layout must not be NULL");
    require(layout->size >= sizeof(gsp_mpi_layout), GSP_ERR_INVALID_ARGUMENT,
            "layout->size = " + std::to_string(layout->size) + " is smaller than gsp_mpi_layout (" +
                std::to_string(sizeof(gsp_mpi_layout)) + "); set it to sizeof(gsp_mpi_layout)");
    gsp_mpi_layout o;
    std::memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.num_vertices = r.layout.n;
    o.block_size = r.layout.b;
    o.grid_rows = r.layout.pr;
    o.grid_cols = r.layout.pc;
    o.grid_row = r.layout.myrow;
    o.grid_col = r.layout.mycol;
    o.num_blocks = r.layout.nlr * r.layout.nlc;
    o.weight_type = r.dtype;
    o.has_paths = r.has_paths ? 1u : 0u;
    std::memcpy(layout, &o, sizeof o);
  });
}

GSP_API gsp_status gsp_mpi_blocks_range(const gsp_mpi_blocks* blocks, int32_t index, int32_t* row_begin,
                                        int32_t* row_end, int32_t* col_begin, int32_t* col_end) {
  return guard([&] {
    const auto& r = blocks_of(blocks);
    check_index(r, index);
    const auto& L = r.layout;
    const int32_t I = L.grow(index / L.nlc), J = L.gcol(index % L.nlc);
    if (row_begin) *row_begin = I * L.b;
    if (row_end) *row_end = I * L.b + L.extent(I);
    if (col_begin) *col_begin = J * L.b;
    if (col_end) *col_end = J * L.b + L.extent(J);
  });
}

GSP_API gsp_status gsp_mpi_blocks_copy(const gsp_mpi_blocks* blocks, int32_t index, void* distances,
                                       int32_t* predecessors, int64_t capacity) {
  return guard([&] {
    const auto& r = blocks_of(blocks);
    check_index(r, index);
    const auto& L = r.layout;
    const int32_t li = index / L.nlc, lj = index % L.nlc;
    const int32_t rows = L.extent(L.grow(li)), cols = L.extent(L.gcol(lj));
    const int64_t need = static_cast<int64_t>(rows) * cols;
    if (predecessors != nullptr) {
      require(r.has_paths, GSP_ERR_UNSUPPORTED, "the run had GSP_NO_PATHS: no predecessors were computed");
    }
    if (distances != nullptr || predecessors != nullptr) {
      require(capacity >= need, GSP_ERR_BUFFER_TOO_SMALL,
              "capacity " + std::to_string(capacity) + " < " + std::to_string(need) + " entries of the block");
    }
    const int64_t base = L.offset(li, lj);
    const size_t wb = gsp::detail::weight_bytes(r.dtype);
    for (int32_t i = 0; i < rows; ++i) {
      const int64_t from = base + static_cast<int64_t>(i) * L.b;
      const size_t to = static_cast<size_t>(i) * static_cast<size_t>(cols);
      if (distances != nullptr) {
        std::memcpy(static_cast<char*>(distances) + to * wb,
                    static_cast<const char*>(r.dist()) + static_cast<size_t>(from) * wb,
                    static_cast<size_t>(cols) * wb);
      }
      if (predecessors != nullptr) {
        std::memcpy(predecessors + to, r.pred.data() + from, static_cast<size_t>(cols) * sizeof(int32_t));
      }
    }
  });
}

GSP_API gsp_status gsp_mpi_blocks_info(const gsp_mpi_blocks* blocks, gsp_run_info* info) {
  return guard([&] {
    const auto& r = blocks_of(blocks);
    gsp::detail::write_run_info(r.stats, r.dtype, r.layout.n, r.layout.n, r.has_paths, info);
  });
}

GSP_API void gsp_mpi_blocks_destroy(gsp_mpi_blocks* blocks) { delete blocks; }

}  // extern "C"
