// The paths of a many-to-many table (table.h), kept per source as a tree
// rather than one vertex list per cell. A source's paths to T targets share
// most of their vertices (New York, 1000 random targets: 31 thousand
// distinct vertices a row against 399 thousand in the T paths), so each row
// holds the union of its paths once, as chains: runs of vertices, each
// listed from the top down and hanging from a position of an earlier
// chain (or from nothing: its head is the source). A cell is the position
// of its target and its path's length; its path is read by climbing from
// that position, one copy per chain crossed.
//
// Rows made from a predecessor array (PathTreeBuilder) are laid out by
// heavy paths: each vertex's chain continues into the child whose subtree
// is largest, so a climb crosses at most log2(U) + 1 chains (U: the row's
// vertices). Rows made from whole paths (RowPaths::close_chain with no
// parent: the road index's unpacked paths, point to point) hold one chain
// per path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace gsp::detail {

// One source's paths: vertices in chains, chain c being
// vertices[chain_begin[c], chain_begin[c + 1]) (the last one ends at
// vertices.size()), its head hanging below position chain_parent[c] (-1:
// the head is the path's first vertex). Every parent position is below
// its chain's begin, so a climb ends.
struct RowPaths {
  std::vector<int32_t> vertices;
  std::vector<int32_t> chain_begin;
  std::vector<int32_t> chain_parent;

  // Makes vertices[begin, vertices.size()) a chain hanging below `parent`
  // (-1: none); returns the position of its last vertex (-1 when empty,
  // when nothing is added).
  int32_t close_chain(int32_t begin, int32_t parent);
  // The path that ends at `end`, `length` vertices, written to out (its
  // first vertex first); GSP_ERR_INTERNAL when the chains do not add up
  // to `length`.
  void copy_path(int32_t end, int32_t length, int32_t* out) const;
  // Appends to out the path that ends at position `end`.
  void append_path(int32_t end, int32_t length, std::vector<int32_t>& out) const;
};

// Every cell's path of a K x T table, cell i * T + j from the i-th source
// to the j-th target: rows[i] holds row i's paths, end and length the
// cell's position there and its vertex count (-1 and 0: no path).
class TablePaths {
 public:
  // Empty rows and pathless cells for a K x T table (offsets-free: 8 bytes
  // a cell).
  void reset(int32_t num_sources, int32_t num_targets);
  // Forgets every path, keeping the shape (a run that gave up).
  void clear();
  RowPaths& row(int32_t i) { return rows_[static_cast<size_t>(i)]; }
  const RowPaths& row(int32_t i) const { return rows_[static_cast<size_t>(i)]; }
  int32_t* ends(int32_t i) { return end_.data() + static_cast<size_t>(i) * static_cast<size_t>(t_); }
  int32_t* lengths(int32_t i) { return length_.data() + static_cast<size_t>(i) * static_cast<size_t>(t_); }
  void set(size_t cell, int32_t end, int32_t length) {
    end_[cell] = end;
    length_[cell] = length;
  }
  // The cell loses its path (a distance limit cut it).
  void drop(size_t cell) { set(cell, -1, 0); }
  int32_t length(size_t cell) const { return length_[cell]; }
  // The cell's path (length(cell) vertices) into out.
  void copy(size_t cell, int32_t* out) const;
  // Vertices held by every row (for tests and memory accounting).
  int64_t stored_vertices() const;

  // Appends the path s..t read from predecessors (pred[s] = -1; t
  // reachable) to out; returns its vertex count. GSP_ERR_INTERNAL when the
  // chain does not reach s within n steps.
  static int64_t append_path(const int32_t* pred, int32_t s, int32_t t, int32_t n, std::vector<int32_t>& out);

 private:
  int32_t t_ = 0;
  std::vector<RowPaths> rows_;
  std::vector<int32_t> end_, length_;
};

// Builds a row's paths from one search's predecessors: the union of the
// paths to the targets, found by climbing from each target until a vertex
// already in the row (so each vertex is read once a row, not once a path),
// laid out by heavy paths. Holds n-wide scratch (8 bytes a vertex) and the
// row's own (24 bytes a row vertex); one per thread, reused row after row.
class PathTreeBuilder {
 public:
  // Row of source s: the paths to targets[0, T) where reachable[j] != 0,
  // read from pred (n entries, pred[s] = -1); writes `row` (cleared first)
  // and, per target, its position and path length into end[j] and
  // length[j] (-1 and 0 where not reachable). GSP_ERR_INTERNAL when a
  // target's chain leaves the graph or does not reach s within n steps.
  void build(const int32_t* pred, int32_t n, int32_t s, const int32_t* targets, int32_t num_targets,
             const uint8_t* reachable, RowPaths& row, int32_t* end, int32_t* length);

 private:
  int32_t add_node(int32_t vertex, int32_t parent);

  uint32_t stamp_now_ = 0;
  std::vector<uint32_t> stamp_;   // n: stamp_now_ where the vertex is in the row
  std::vector<int32_t> node_of_;  // n: its node, valid under the stamp
  // Per node, in discovery order (a parent before its children).
  std::vector<int32_t> vertex_, parent_, depth_, size_, heavy_, pos_;
  std::vector<int32_t> climb_;
};

// Builders lent to whichever threads build rows (a sink's rows arrive on
// pooled threads): take() one (a new one when none is free), give() it
// back; each keeps its scratch for the next row.
class BuilderPool {
 public:
  std::unique_ptr<PathTreeBuilder> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return std::make_unique<PathTreeBuilder>();
    std::unique_ptr<PathTreeBuilder> b = std::move(free_.back());
    free_.pop_back();
    return b;
  }
  void give(std::unique_ptr<PathTreeBuilder> b) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(b));
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<PathTreeBuilder>> free_;
};

}  // namespace gsp::detail
