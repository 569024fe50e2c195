// A table's paths as per-source trees of chains (table_paths.h).
#include "core/table_paths.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.h"

namespace gsp::detail {

int32_t RowPaths::close_chain(int32_t begin, int32_t parent) {
  require(vertices.size() <= static_cast<size_t>(std::numeric_limits<int32_t>::max()), GSP_ERR_UNSUPPORTED,
          "table paths: one source's paths hold " + std::to_string(vertices.size()) +
              " vertices, more than 2^31 - 1 (ask for fewer targets a table, or for GSP_NO_PATHS)");
  const int32_t size = static_cast<int32_t>(vertices.size());
  if (size <= begin) return -1;
  chain_begin.push_back(begin);
  chain_parent.push_back(parent);
  return size - 1;
}

void RowPaths::copy_path(int32_t end, int32_t length, int32_t* out) const {
  int32_t left = length;  // vertices still to write, out[0, left)
  for (int32_t p = end; p >= 0;) {
    const auto it = std::upper_bound(chain_begin.begin(), chain_begin.end(), p);
    require(it != chain_begin.begin() && p < static_cast<int32_t>(vertices.size()), GSP_ERR_INTERNAL,
            "table paths: position " + std::to_string(p) + " is in no chain");
    const size_t c = static_cast<size_t>(it - chain_begin.begin()) - 1;
    const int32_t b = chain_begin[c];
    const int32_t count = p - b + 1;
    require(count <= left, GSP_ERR_INTERNAL,
            "table paths: a path of " + std::to_string(length) + " vertices has more in its chains");
    left -= count;
    std::memcpy(out + left, vertices.data() + b, static_cast<size_t>(count) * sizeof(int32_t));
    p = chain_parent[c];
    require(p < b, GSP_ERR_INTERNAL, "table paths: a chain hangs below a later one");
  }
  require(left == 0, GSP_ERR_INTERNAL,
          "table paths: a path of " + std::to_string(length) + " vertices has " + std::to_string(length - left) +
              " in its chains");
}

void RowPaths::append_path(int32_t end, int32_t length, std::vector<int32_t>& out) const {
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(length));
  copy_path(end, length, out.data() + at);
}

void TablePaths::reset(int32_t num_sources, int32_t num_targets) {
  t_ = num_targets;
  rows_.assign(static_cast<size_t>(num_sources), RowPaths{});
  const size_t cells = static_cast<size_t>(num_sources) * static_cast<size_t>(num_targets);
  end_.assign(cells, -1);
  length_.assign(cells, 0);
}

void TablePaths::clear() {
  for (RowPaths& r : rows_) r = RowPaths{};
  std::fill(end_.begin(), end_.end(), -1);
  std::fill(length_.begin(), length_.end(), 0);
}

void TablePaths::copy(size_t cell, int32_t* out) const {
  const size_t i = t_ > 0 ? cell / static_cast<size_t>(t_) : 0;
  if (length_[cell] == 0) return;
  rows_[i].copy_path(end_[cell], length_[cell], out);
}

int64_t TablePaths::stored_vertices() const {
  int64_t total = 0;
  for (const RowPaths& r : rows_) total += static_cast<int64_t>(r.vertices.size());
  return total;
}

int64_t TablePaths::append_path(const int32_t* pred, int32_t s, int32_t t, int32_t n, std::vector<int32_t>& out) {
  const size_t at = out.size();
  for (int32_t v = t, steps = 0;; v = pred[v]) {
    if (v < 0 || ++steps > n) {
      throw Error(GSP_ERR_INTERNAL,
                  "table: the predecessor chain from " + std::to_string(t) + " does not reach " + std::to_string(s));
    }
    out.push_back(v);
    if (v == s) break;
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(at), out.end());
  return static_cast<int64_t>(out.size() - at);
}

int32_t PathTreeBuilder::add_node(int32_t vertex, int32_t parent) {
  const int32_t id = static_cast<int32_t>(vertex_.size());
  vertex_.push_back(vertex);
  parent_.push_back(parent);
  depth_.push_back(parent < 0 ? 0 : depth_[static_cast<size_t>(parent)] + 1);
  stamp_[static_cast<size_t>(vertex)] = stamp_now_;
  node_of_[static_cast<size_t>(vertex)] = id;
  return id;
}

void PathTreeBuilder::build(const int32_t* pred, int32_t n, int32_t s, const int32_t* targets, int32_t num_targets,
                            const uint8_t* reachable, RowPaths& row, int32_t* end, int32_t* length) {
  row = RowPaths{};
  if (stamp_.size() < static_cast<size_t>(n)) {
    stamp_.assign(static_cast<size_t>(n), 0);
    node_of_.assign(static_cast<size_t>(n), 0);
    stamp_now_ = 0;
  }
  if (++stamp_now_ == 0) {  // wrapped: no stale stamp may equal the new one
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    stamp_now_ = 1;
  }
  vertex_.clear();
  parent_.clear();
  depth_.clear();
  bool any = false;
  for (int32_t j = 0; j < num_targets; ++j) any = any || reachable[j] != 0;
  if (!any) {
    std::fill(end, end + num_targets, -1);
    std::fill(length, length + num_targets, 0);
    return;
  }
  add_node(s, -1);
  // Climb from each target to the first vertex already in the row; the
  // climbed vertices join it top-down, so every node's parent comes first.
  for (int32_t j = 0; j < num_targets; ++j) {
    if (reachable[j] == 0) continue;
    const int32_t t = targets[j];
    climb_.clear();
    for (int32_t v = t; stamp_[static_cast<size_t>(v)] != stamp_now_; v = pred[v]) {
      climb_.push_back(v);
      if (pred[v] < 0 || pred[v] >= n || climb_.size() > static_cast<size_t>(n)) {
        throw Error(GSP_ERR_INTERNAL,
                    "table: the predecessor chain from " + std::to_string(t) + " does not reach " + std::to_string(s));
      }
    }
    int32_t parent = climb_.empty() ? -1 : node_of_[static_cast<size_t>(pred[climb_.back()])];
    for (auto it = climb_.rbegin(); it != climb_.rend(); ++it) parent = add_node(*it, parent);
  }
  // Subtree sizes (children after parents: one pass backwards), then each
  // node's heavy child: the first of its largest.
  const size_t u = vertex_.size();
  size_.assign(u, 1);
  heavy_.assign(u, -1);
  for (size_t i = u; i-- > 1;) size_[static_cast<size_t>(parent_[i])] += size_[i];
  for (size_t i = 1; i < u; ++i) {
    int32_t& h = heavy_[static_cast<size_t>(parent_[i])];
    if (h < 0 || size_[i] > size_[static_cast<size_t>(h)]) h = static_cast<int32_t>(i);
  }
  // Chains in node order: a node that is not its parent's heavy child heads
  // one, which runs down the heavy children. Its parent's chain began at a
  // smaller node, so it is laid out already.
  pos_.assign(u, -1);
  row.vertices.resize(u);
  int32_t at = 0;
  for (size_t i = 0; i < u; ++i) {
    const int32_t p = parent_[i];
    if (p >= 0 && heavy_[static_cast<size_t>(p)] == static_cast<int32_t>(i)) continue;
    row.chain_begin.push_back(at);
    row.chain_parent.push_back(p < 0 ? -1 : pos_[static_cast<size_t>(p)]);
    for (int32_t x = static_cast<int32_t>(i); x >= 0; x = heavy_[static_cast<size_t>(x)]) {
      pos_[static_cast<size_t>(x)] = at;
      row.vertices[static_cast<size_t>(at++)] = vertex_[static_cast<size_t>(x)];
    }
  }
  for (int32_t j = 0; j < num_targets; ++j) {
    if (reachable[j] == 0) {
      end[j] = -1;
      length[j] = 0;
      continue;
    }
    const size_t node = static_cast<size_t>(node_of_[static_cast<size_t>(targets[j])]);
    end[j] = pos_[node];
    length[j] = depth_[node] + 1;
  }
}

}  // namespace gsp::detail
