// gsp_mpi_prepare: the devices and device groups of the distributed
// Floyd-Warshall's device path, made ahead of the first call that needs
// them. Joining a group (an NCCL communicator over the ranks of a grid row
// or column, and its first connection) takes about a second; made here on
// a library thread per rank, it overlaps whatever the caller does next
// (reading the graph), and the call finds the groups ready in the cache its
// earlier calls keep them in (BlockFw::connect, core/block_fw.h).
//
// The groups are those the call makes: the same grid (Session, with the
// same GSP_MPI_GRID), each rank's device as the call picks it
// (choose_engine), keys by device_group_key. Where the call would not take
// the device path (a rank without a device of its own, NCCL missing on a
// rank, GSP_MPI_TRANSPORT=host), only the devices are started.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/block_fw.h"
#include "core/gpu_runtime.h"
#include "core/tuning.h"
#include "engines/mpi/fw_mpi.h"
#include "engines/mpi/fw_mpi_util.h"
#include "engines/mpi/rank_grid.h"

namespace gsp::detail::mpi {
namespace {

// Whether every member of the group under `key` has it ready (collective).
// A making that never joined on some member is abandoned everywhere.
bool group_ready_everywhere(RankGrid& grid, const std::string& key) {
  if (grid.all(gpu::device_group_state(key) == gpu::DeviceGroupState::kJoined) &&
      grid.all(gpu::device_group_ready(key))) {
    return true;
  }
  gpu::device_group_forget(key);
  return false;
}

}  // namespace

void await_prepared_groups(const Session& s, int32_t device) {
  MpiRankGrid grid(s, [](int32_t, int32_t) {});
  for (const RankGrid::Group g : {RankGrid::kRow, RankGrid::kCol}) {
    if (grid.size(g) > 1) group_ready_everywhere(grid, device_group_key(grid, g, device));
  }
}

void prepare_device_path(const Session& s, const Outcome& first, RunOptions ro, bool wait) {
  const Tuning& knobs = ro.tuning;  // the call's one snapshot
  s.agree(first);
  int64_t backend = ro.backend;
  bcast(&backend, 1, 0, s.comm());  // rank 0's backend decides, as for a call
  bool on_gpu = false;
  int32_t device = 0;
  s.agree(capture([&] {
    const LocalEngine engine = choose_engine(s, ro, static_cast<gsp_backend>(backend), 1);
    on_gpu = engine.gpu;
    device = engine.device_options.device;
  }));
  if (on_gpu) gpu::start_in_background(device);

  // The call's device path: every rank on a device of its own (the ranks
  // of a node on distinct ones), NCCL on every rank.
  std::string why;
  const bool can = on_gpu && s.ranks_on_node() <= gpu::device_count() && knobs.mpi_transport != MpiTransport::kHost &&
                   gpu::device_groups_available(&why);
  MpiRankGrid grid(s, [](int32_t, int32_t) {});
  if (!grid.all(can)) return;

  std::vector<gpu::DeviceGroupJoin> joins;
  std::vector<std::string> keys;
  for (const RankGrid::Group g : {RankGrid::kRow, RankGrid::kCol}) {
    if (grid.size(g) <= 1) continue;
    gpu::DeviceGroupJoin j;
    j.key = device_group_key(grid, g, device);
    j.size = grid.size(g);
    j.rank = grid.rank(g);
    keys.push_back(j.key);
    // Kept from an earlier call or preparation on every member: as it is.
    if (grid.all(gpu::device_group_state(j.key) == gpu::DeviceGroupState::kJoined)) continue;
    gpu::device_group_forget(j.key);
    struct {
      char id[128];
      char ok;
    } head{};
    if (grid.rank(g) == 0) {
      try {
        const std::string id = gpu::device_group_id();
        std::memcpy(head.id, id.data(), std::min(id.size(), sizeof head.id));
        head.ok = 1;
      } catch (const Error& e) {
        why = e.message();
      }
    }
    grid.bcast(g, &head, sizeof head, 0);
    if (!grid.all(head.ok != 0)) break;  // no id: the call makes this group and says why not
    j.id.assign(head.id, sizeof head.id);
    joins.push_back(std::move(j));
  }
  gpu::prepare_device_groups(device, joins);
  if (!wait) return;
  bool ready = true;
  for (const std::string& key : keys) ready = group_ready_everywhere(grid, key) && ready;
  require(ready, GSP_ERR_DEVICE,
          "gsp_mpi_prepare: the device groups (NCCL) could not be made on every rank; a call makes them "
          "again and says why");
}

}  // namespace gsp::detail::mpi
