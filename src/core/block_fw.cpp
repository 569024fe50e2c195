// device_group_key (block_fw.h): a device group's name, from its members.
#include "core/block_fw.h"

#include <string>

namespace gsp::detail {

std::string device_group_key(RankGrid& grid, RankGrid::Group g, int32_t device) {
  struct Member {
    int64_t process;
    int64_t device;
  } me{grid.process_id(), device};
  std::string members(static_cast<size_t>(grid.size(g)) * sizeof(Member), '\0');
  grid.allgather(g, &me, &members[0], sizeof(Member));
  return members + "@" + std::to_string(grid.rank(g));
}

}  // namespace gsp::detail
