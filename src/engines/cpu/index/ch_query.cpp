// Queries on a road index (index_sssp, index_apsp, index_table:
// engines/cpu/cpu_backend.h).
#include "engines/cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "core/ch_top_table.h"
#include "core/error.h"
#include "core/pred_repair.h"
#include "engines/cpu/common/team.h"
#include "engines/cpu/index/ch_search.h"

namespace gsp::detail::cpu {

using ch::ArcPiece;
using ch::unpack_arc;
using ch::UpwardSearch;

namespace {

template <class W>
const ChHierarchy<W>& hierarchy(const ChBase& index) {
  return static_cast<const ChHierarchy<W>&>(index);
}

// A distance of the hierarchy as the graph's type: int32 ones that do not
// fit are GSP_ERR_OVERFLOW, naming both ends.
[[noreturn]] void throw_int32_overflow(int64_t d, int32_t source, int32_t vertex) {
  throw Error(GSP_ERR_OVERFLOW, "the distance from " + std::to_string(source) + " to " + std::to_string(vertex) + " (" +
                                    std::to_string(d) + ") does not fit int32");
}
template <class W>
inline W to_result(ChDist<W> d, int32_t source, int32_t vertex) {
  if (d >= ch_inf<W>()) return Dist<W>::inf();
  if constexpr (std::is_same_v<W, int32_t>) {
    if (d >= static_cast<int64_t>(GSP_I32_INF)) throw_int32_overflow(d, source, vertex);
  }
  return static_cast<W>(d);
}

// Whether rows need the predecessor check of core/pred_repair.h: ties
// through zero-weight arcs can close a cycle of predecessors, and float
// sums can make an arc tight both ways.
bool rows_need_check(const Graph& g) { return g.min_weight() <= 0 || is_float_dtype(g.dtype()); }

// What a thread keeps between queries (ChScratchPool): two upward searches
// and the n-sized labels of a row.
template <class W>
struct QueryScratch final : ChScratch {
  explicit QueryScratch(int32_t n) : forward(n), backward(n), d(static_cast<size_t>(n)), last(static_cast<size_t>(n)) {}
  UpwardSearch<W> forward, backward;
  std::vector<ChDist<W>> d;   // a row's labels by position
  std::vector<int32_t> last;  // a row's predecessors (graph vertices) by position
  std::vector<ChDist<W>> dk;  // kRowsTogether rows' labels, interleaved by position
  std::vector<int32_t> lastk;
  std::vector<ChDist<W>> best;  // a table row's cells
  std::vector<int32_t> meet;    // where they met
  std::vector<ArcPiece> stack;
  std::vector<int32_t> chain;
  // A row's (or a point-to-point query's two) entries into the top, and
  // a row's labels of the top.
  std::vector<ChTopEntry<W>> entries, entries_back;
  std::vector<ChDist<W>> top_best;
  std::vector<int32_t> top_winner;
  PredRepairScratch repair;
  // A table row's paths from its source up to the vertices its search
  // settled, each unpacked once into the row's tree (BucketTable::prefix;
  // prefix_of: by position, -1 none yet).
  std::vector<int64_t> prefix_at, prefix_len;
  std::vector<int32_t> prefix_of, prefix_set;
};

// A scratch taken from the index's pool for one query (made when the pool
// has none), given back at the end.
template <class W>
class Lease {
 public:
  explicit Lease(const ChHierarchy<W>& h) : h_(h) {
    std::unique_ptr<ChScratch> s = h.scratch.take();
    s_.reset(s != nullptr ? static_cast<QueryScratch<W>*>(s.release()) : new QueryScratch<W>(h.n));
  }
  ~Lease() { h_.scratch.give(std::unique_ptr<ChScratch>(s_.release())); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  QueryScratch<W>& operator*() const { return *s_; }

 private:
  const ChHierarchy<W>& h_;
  std::unique_ptr<QueryScratch<W>> s_;
};

// ------------------------------------------------------------- one-to-all

// Rows swept together by one thread (sweep_rows): each vertex's labels of
// those rows share a cache line (8 x 8 bytes), and every arc read serves
// them all.
constexpr int kRowsTogether = 8;

// The labels of an upward search from `source` into lane `lane` of the K
// interleaved rows (d, last: n x K by position; last may be null): below
// the top its own, in the top the best of its entries and the top table.
template <class W, int K>
void seed_lane(const ChHierarchy<W>& h, QueryScratch<W>& s, int32_t source, int lane, ChDist<W>* d, int32_t* last) {
  const int32_t top = h.top.size;
  s.entries.clear();
  ch::upward_labels(h, s.forward, source, [&](int32_t p, ChDist<W> label, int32_t via) {
    if (p < top) {
      s.entries.push_back(ChTopEntry<W>{p, via, label});
      return;
    }
    d[static_cast<size_t>(p) * K + lane] = label;
    if (last != nullptr && via >= 0) last[static_cast<size_t>(p) * K + lane] = via;
  });
  if (top == 0) return;
  s.top_best.resize(static_cast<size_t>(top));
  s.top_winner.resize(static_cast<size_t>(top));
  top_labels(h, s.entries.data(), static_cast<int32_t>(s.entries.size()), s.top_best.data(), s.top_winner.data());
  for (int32_t v = 0; v < top; ++v) {
    d[static_cast<size_t>(v) * K + lane] = s.top_best[static_cast<size_t>(v)];
    if (last != nullptr)
      last[static_cast<size_t>(v) * K + lane] =
          top_label_last(h, s.entries.data(), s.top_winner[static_cast<size_t>(v)], v);
  }
}

// PHAST for `count` <= K sources at once: their upward searches, then one
// sweep down the ranks (every vertex's arcs come from vertices swept
// before it), each vertex taking for each row the best of its arcs from
// above. Row j goes to dist + j * n (graph order) and, with pred, to
// pred + j * n.
template <class W, int K>
void sweep_rows(const ChHierarchy<W>& h, QueryScratch<W>& s, const int32_t* sources, int count, W* dist,
                int32_t* pred) {
  using D = ChDist<W>;
  const int32_t n = h.n;
  const size_t cells = static_cast<size_t>(n) * K;
  std::vector<D>& dv = K == 1 ? s.d : s.dk;
  std::vector<int32_t>& lv = K == 1 ? s.last : s.lastk;
  if (dv.size() != cells) dv.resize(cells);
  std::fill(dv.begin(), dv.end(), ch_inf<W>());
  if (pred != nullptr) {
    if (lv.size() != cells) lv.resize(cells);
    std::fill(lv.begin(), lv.end(), -1);
  }
  D* d = dv.data();
  int32_t* last = pred != nullptr ? lv.data() : nullptr;
  for (int j = 0; j < count; ++j) seed_lane<W, K>(h, s, sources[j], j, d, last);
  const ChArcs<W>& in = h.up_in;
  const int64_t* off = in.offsets.data();
  const int32_t* other = in.other.data();
  const D* weight = in.weight.data();
  const int32_t* arc_last = in.last.data();
  for (int32_t p = h.top.size; p < n; ++p) {
    D* mine = d + static_cast<size_t>(p) * K;
    for (int64_t e = off[p]; e < off[p + 1]; ++e) {
      const D* above = d + static_cast<size_t>(other[e]) * K;
      const D w = weight[e];
      if (last == nullptr) {
        for (int j = 0; j < K; ++j) mine[j] = std::min(mine[j], above[j] + w);  // "none" + w stays "none"
      } else {
        int32_t* mine_last = last + static_cast<size_t>(p) * K;
        for (int j = 0; j < K; ++j) {
          if (above[j] + w < mine[j]) {
            mine[j] = above[j] + w;
            mine_last[j] = arc_last[e];
          }
        }
      }
    }
  }
  // Into the rows in graph order, in one pass over the labels.
  const size_t stride = static_cast<size_t>(n);
  for (int32_t p = 0; p < n; ++p) {
    const size_t v = static_cast<size_t>(h.vertex_at[static_cast<size_t>(p)]);
    const D* mine = d + static_cast<size_t>(p) * K;
    for (int j = 0; j < count; ++j)
      dist[static_cast<size_t>(j) * stride + v] = to_result<W>(mine[j], sources[j], static_cast<int32_t>(v));
    if (pred != nullptr) {
      const int32_t* mine_last = last + static_cast<size_t>(p) * K;
      for (int j = 0; j < count; ++j) pred[static_cast<size_t>(j) * stride + v] = mine_last[j];
    }
  }
}

template <class W>
void sssp_typed(const ChBase& index, const SsspJob& job) {
  const ChHierarchy<W>& h = hierarchy<W>(index);
  Lease<W> s(h);
  W* dist = static_cast<W*>(job.dist);
  sweep_rows<W, 1>(h, *s, &job.source, 1, dist, job.pred);
  if (job.pred != nullptr && rows_need_check(*job.graph)) {
    repair_pred_block(job.graph->view<W>(), &job.source, 1, dist, job.pred, (*s).repair);
  }
}

// Rows in blocks: each block's rows side by side on the team's threads,
// into the sink's array when it has one, else into a block buffer handed
// to the sink; blocks in order.
template <class W>
void apsp_typed(const ChBase& index, const ApspJob& job) {
  const ChHierarchy<W>& h = hierarchy<W>(index);
  const Graph& g = *job.graph;
  const size_t n = static_cast<size_t>(g.n());
  const bool paths = job.options->want_paths;
  const int threads =
      std::max(1, std::min(job.options->num_threads, (job.num_sources + kRowsTogether - 1) / kRowsTogether));
  RowSink::Destination dest;
  const bool direct = job.sink->destination(&dest);
  const int32_t block = std::min(job.num_sources, std::max(threads * kRowsTogether, job.sink->preferred_block_rows()));
  std::vector<W> buf_dist(direct ? 0 : static_cast<size_t>(block) * n);
  std::vector<int32_t> buf_pred(direct || !paths ? 0 : static_cast<size_t>(block) * n);
  const bool check = paths && rows_need_check(g);
  for (int32_t first = 0; first < job.num_sources; first += block) {
    const int32_t count = std::min(block, job.num_sources - first);
    W* dist = direct ? static_cast<W*>(dest.dist) + static_cast<size_t>(first) * n : buf_dist.data();
    int32_t* pred = !paths ? nullptr : direct ? dest.pred + static_cast<size_t>(first) * n : buf_pred.data();
    std::atomic<int32_t> next{0};
    Team team(std::min(threads, (count + kRowsTogether - 1) / kRowsTogether));
    team.run([&](int) {
      Lease<W> s(h);
      for (int32_t r = next.fetch_add(kRowsTogether); r < count; r = next.fetch_add(kRowsTogether)) {
        const int rows = std::min(kRowsTogether, count - r);
        const int32_t* sources = job.sources + first + r;
        W* d = dist + static_cast<size_t>(r) * n;
        int32_t* p = pred != nullptr ? pred + static_cast<size_t>(r) * n : nullptr;
        sweep_rows<W, kRowsTogether>(h, *s, sources, rows, d, p);
        if (check) repair_pred_block(g.view<W>(), sources, rows, d, p, (*s).repair);
      }
    });
    if (direct) {
      job.sink->rows_written(first, count);
    } else {
      job.sink->rows(first, count, dist, pred);
    }
    job.options->report(static_cast<double>(first + count) / job.num_sources);
  }
}

// ----------------------------------------------------------------- paths

// The path of a search from its start to position p: the search tree's
// arcs, start first, unpacked (every vertex after the start).
template <class W>
void path_up(const ChHierarchy<W>& h, QueryScratch<W>& s, const UpwardSearch<W>& up, int32_t p,
             std::vector<int32_t>& path) {
  s.chain.clear();
  for (int32_t q = p; up.parent(q) >= 0; q = up.parent(q)) s.chain.push_back(q);
  for (auto it = s.chain.rbegin(); it != s.chain.rend(); ++it) {
    unpack_arc(h, true, up.arc(*it), up.parent(*it), *it, path, s.stack);
  }
}

// ------------------------------------------------------- point to point

// One cell: an upward search from each end, alternating, up to the top
// (whose entries are met through the top table) and until neither can beat
// the best meeting found.
template <class W>
void point_to_point(const ChHierarchy<W>& h, const TableJob& job) {
  using D = ChDist<W>;
  Lease<W> lease(h);
  QueryScratch<W>& s = *lease;
  const int32_t source = job.sources[0], target = job.targets[0];
  UpwardSearch<W>& fw = s.forward;
  UpwardSearch<W>& bw = s.backward;
  const bool tree = job.paths != nullptr;
  const int32_t top = h.top.size;
  fw.start(h.up_out, &h.up_in, h.position[static_cast<size_t>(source)], tree, top);
  bw.start(h.up_in, &h.up_out, h.position[static_cast<size_t>(target)], tree, top);
  s.entries.clear();
  s.entries_back.clear();
  D best = ch_inf<W>();
  int32_t meet = -1;
  for (;;) {
    const D kf = fw.next_key(), kb = bw.next_key();
    const bool go_fw = kf < best && (kf <= kb || !(kb < best));
    if (!go_fw && !(kb < best)) break;
    UpwardSearch<W>& side = go_fw ? fw : bw;
    const UpwardSearch<W>& other = go_fw ? bw : fw;
    const int32_t p = side.step();
    if (p < 0 || side.stalled()) continue;
    if (p < top) (go_fw ? s.entries : s.entries_back).push_back(ChTopEntry<W>{p, -1, side.dist(p)});
    if (other.seen(p) && side.dist(p) + other.dist(p) < best) {
      best = side.dist(p) + other.dist(p);
      meet = p;
    }
  }
  // Through the top: an entry of each side and the table between them (an
  // entry settled after the loop's end could not have beaten best).
  int32_t top_from = -1, top_to = -1;
  const size_t size = static_cast<size_t>(top);
  for (const ChTopEntry<W>& f : s.entries) {
    if (!(f.dist < best)) continue;
    const D* row = h.top.dist.data() + static_cast<size_t>(f.position) * size;
    for (const ChTopEntry<W>& b : s.entries_back) {
      const D x = f.dist + row[static_cast<size_t>(b.position)] + b.dist;
      if (x < best) {
        best = x;
        top_from = f.position;
        top_to = b.position;
      }
    }
  }
  static_cast<W*>(job.dist)[0] = to_result<W>(best, source, target);
  if (job.stats != nullptr) job.stats->iterations = static_cast<int64_t>(fw.settled().size() + bw.settled().size());
  if (job.paths == nullptr) return;
  RowPaths& row = job.paths->row(0);
  row = RowPaths{};
  if (top_from >= 0 || meet >= 0) {
    std::vector<int32_t>& path = row.vertices;
    path.push_back(source);
    const int32_t up_to = top_from >= 0 ? top_from : meet;
    path_up(h, s, fw, up_to, path);
    int32_t down_from = meet;
    if (top_from >= 0) {
      // The table's path from top_from to top_to, its arcs read backwards.
      std::vector<ChTopArc> arcs;
      for (int32_t v = top_to; v != top_from;) {
        const ChTopArc a = top_arc(h, h.top.arc[static_cast<size_t>(top_from) * size + static_cast<size_t>(v)]);
        arcs.push_back(a);
        v = a.tail;
      }
      for (auto it = arcs.rbegin(); it != arcs.rend(); ++it)
        unpack_arc(h, it->out, it->e, it->tail, it->head, path, s.stack);
      down_from = top_to;
    }
    for (int32_t p = down_from; bw.parent(p) >= 0; p = bw.parent(p)) {
      unpack_arc(h, false, bw.arc(p), p, bw.parent(p), path, s.stack);
    }
    const int32_t end = row.close_chain(0, -1);
    job.paths->set(0, end, static_cast<int32_t>(path.size()));
  }
}

// ----------------------------------------------------------------- tables

// A target's upward search, kept for the table's paths: its settled
// vertices sorted, each with its parent and the arc (in up_in at the
// parent) that reached it.
struct TargetTree {
  std::vector<int32_t> vertex, parent;
  std::vector<int64_t> arc;
  // The unpacked path from a tree vertex down to the target (the vertex
  // itself excluded, the target included), made when a cell first needs
  // it: suffix_at / suffix_len index `suffix` (-1: not yet). Under `mu`.
  std::mutex mu;
  std::vector<int64_t> suffix_at, suffix_len;
  std::vector<int32_t> suffix;
};

// K x T cells: the targets' upward searches leave (target, label) entries
// at the vertices they reach, sorted by vertex; each source's upward search
// reads the entries of the vertices it settles.
template <class W>
class BucketTable {
 public:
  using D = ChDist<W>;
  BucketTable(const ChHierarchy<W>& h, const TableJob& job)
      : h_(h), job_(job), k_(job.num_sources), t_(job.num_targets) {}

  void run() {
    const int threads = std::max(1, job_.options->num_threads);
    fill_buckets(threads);
    job_.options->report(0.5);
    std::atomic<int32_t> next{0};
    Team team(std::min(threads, k_));
    team.run([&](int) {
      Lease<W> s(h_);
      int64_t settled = 0;
      for (int32_t i = next.fetch_add(1); i < k_; i = next.fetch_add(1)) {
        source_row(i, *s);
        settled += static_cast<int64_t>((*s).forward.settled().size());
      }
      settled_ += settled;
    });
    if (job_.stats != nullptr) job_.stats->iterations = settled_.load();
  }

 private:
  struct Entry {
    int32_t vertex;
    int32_t target;  // index into the targets
    D dist;
  };

  void fill_buckets(int threads) {
    std::vector<std::vector<Entry>> reached(static_cast<size_t>(t_));
    if (job_.paths != nullptr) trees_ = std::vector<TargetTree>(static_cast<size_t>(t_));
    std::atomic<int32_t> next{0};
    Team team(std::min(threads, t_));
    team.run([&](int) {
      Lease<W> lease(h_);
      UpwardSearch<W>& up = (*lease).backward;
      std::vector<Entry> found;  // this thread's (the lists' headers share cache lines)
      int64_t settled = 0;
      for (int32_t j = next.fetch_add(1); j < t_; j = next.fetch_add(1)) {
        up.start(h_.up_in, &h_.up_out, h_.position[static_cast<size_t>(job_.targets[j])], job_.paths != nullptr);
        found.clear();
        for (int32_t p = up.step(); p >= 0; p = up.step()) {
          if (!up.stalled()) found.push_back(Entry{p, j, up.dist(p)});
        }
        reached[static_cast<size_t>(j)].assign(found.begin(), found.end());
        if (job_.paths != nullptr) keep_tree(up, found, trees_[static_cast<size_t>(j)]);
        settled += static_cast<int64_t>(up.settled().size());
      }
      settled_ += settled;
    });
    sort_buckets(team, reached);
  }
  // The buckets by a counting sort on the vertex (a serial comparison sort
  // of the entries, 283,000 of them for 1000 New York targets, was a third
  // of a 1000 x 1000 table on 16 threads), on the team's threads, each for
  // one range of positions: bucket_begin_[p] counts up to the end of p's
  // bucket, then the lists, scattered from the last target back, count it
  // down to its start, so each bucket holds its targets in ascending order.
  void sort_buckets(Team& team, std::vector<std::vector<Entry>>& reached) {
    const int parts = team.size();
    const int64_t n = static_cast<int64_t>(h_.position.size());
    auto range = [&](int r) { return std::make_pair(n * r / parts, n * (r + 1) / parts); };
    bucket_begin_.assign(static_cast<size_t>(n) + 1, 0);
    std::vector<int64_t> before(static_cast<size_t>(parts) + 1, 0);  // entries of the ranges before
    team.run([&](int r) {
      const auto [lo, hi] = range(r);
      for (const auto& list : reached) {
        for (const Entry& e : list) {
          if (e.vertex >= lo && e.vertex < hi) ++bucket_begin_[static_cast<size_t>(e.vertex)];
        }
      }
      int64_t* count = bucket_begin_.data();
      for (int64_t p = lo + 1; p < hi; ++p) count[p] += count[p - 1];
      before[static_cast<size_t>(r) + 1] = hi > lo ? bucket_begin_[static_cast<size_t>(hi - 1)] : 0;
    });
    for (int r = 0; r < parts; ++r) before[static_cast<size_t>(r) + 1] += before[static_cast<size_t>(r)];
    const int64_t total = before[static_cast<size_t>(parts)];
    bucket_begin_[static_cast<size_t>(n)] = total;
    bucket_target_.resize(static_cast<size_t>(total));
    bucket_dist_.resize(static_cast<size_t>(total));
    team.run([&](int r) {
      const auto [lo, hi] = range(r);
      for (int64_t p = lo; p < hi; ++p) bucket_begin_[static_cast<size_t>(p)] += before[static_cast<size_t>(r)];
      for (auto list = reached.rbegin(); list != reached.rend(); ++list) {
        for (const Entry& e : *list) {
          if (e.vertex < lo || e.vertex >= hi) continue;
          const size_t k = static_cast<size_t>(--bucket_begin_[static_cast<size_t>(e.vertex)]);
          bucket_target_[k] = e.target;
          bucket_dist_[k] = e.dist;
        }
      }
    });
  }
  static void keep_tree(const UpwardSearch<W>& up, const std::vector<Entry>& list, TargetTree& tree) {
    std::vector<int32_t> order;
    order.reserve(list.size());
    for (const Entry& e : list) order.push_back(e.vertex);
    std::sort(order.begin(), order.end());
    for (int32_t p : order) {
      tree.vertex.push_back(p);
      tree.parent.push_back(up.parent(p));
      tree.arc.push_back(up.arc(p));
    }
    tree.suffix_at.assign(order.size(), -1);
    tree.suffix_len.assign(order.size(), 0);
  }

  // Row i: the source's upward search meets the buckets.
  void source_row(int32_t i, QueryScratch<W>& s) {
    const int32_t source = job_.sources[i];
    s.best.assign(static_cast<size_t>(t_), ch_inf<W>());
    s.meet.assign(static_cast<size_t>(t_), -1);
    UpwardSearch<W>& up = s.forward;
    up.start(h_.up_out, &h_.up_in, h_.position[static_cast<size_t>(source)], job_.paths != nullptr);
    if (job_.paths != nullptr) forget_prefixes(s);
    for (int32_t p = up.step(); p >= 0; p = up.step()) {
      if (up.stalled()) continue;
      const int64_t first = bucket_begin_[static_cast<size_t>(p)], end = bucket_begin_[static_cast<size_t>(p) + 1];
      if (first == end) continue;
      scan_bucket(first, end, up.dist(p), p, s.best.data(), job_.paths != nullptr ? s.meet.data() : nullptr);
    }
    W* row = static_cast<W*>(job_.dist) + static_cast<size_t>(i) * static_cast<size_t>(t_);
    for (int32_t j = 0; j < t_; ++j) row[j] = to_result<W>(s.best[static_cast<size_t>(j)], source, job_.targets[j]);
    if (job_.paths == nullptr) return;
    // The row's paths as one tree (TablePaths): the source, the unpacked
    // arcs of its search tree as chains (each made once, when a cell first
    // meets below it), and each cell's path down to its target as a chain
    // hanging from its meeting vertex.
    RowPaths& paths = job_.paths->row(i);
    paths = RowPaths{};
    paths.vertices.push_back(source);
    paths.close_chain(0, -1);
    for (int32_t j = 0; j < t_; ++j) {
      const size_t cell = static_cast<size_t>(i) * static_cast<size_t>(t_) + static_cast<size_t>(j);
      if (s.meet[static_cast<size_t>(j)] < 0) continue;
      int32_t end = -1, length = 0;
      path(s, paths, j, s.meet[static_cast<size_t>(j)], &end, &length);
      job_.paths->set(cell, end, length);
    }
  }

  // The cells that entries [first, end) of the buckets improve, reached
  // through settled position p at label dp; with `meet`, where they met
  // (the first p of the best label). Without it the minimum has no branch
  // to mispredict.
  void scan_bucket(int64_t first, int64_t end, D dp, int32_t p, D* best, int32_t* meet) const {
    const int32_t* target = bucket_target_.data();
    const D* dist = bucket_dist_.data();
    if (meet == nullptr) {
      for (int64_t k = first; k < end; ++k) {
        D& b = best[static_cast<size_t>(target[k])];
        b = std::min(b, dp + dist[k]);
      }
      return;
    }
    for (int64_t k = first; k < end; ++k) {
      const size_t j = static_cast<size_t>(target[k]);
      const D c = dp + dist[k];
      if (c < best[j]) {
        best[j] = c;
        meet[j] = p;
      }
    }
  }

  // The cell's path: the source, its search tree's path up to the meeting
  // vertex (a chain per tree arc, shared by every cell that meets below
  // it), then the target's tree's path down to the target (unpacked once
  // per target and meeting vertex, copied into the row as one chain);
  // *end and *length locate it in `paths`.
  void path(QueryScratch<W>& s, RowPaths& paths, int32_t j, int32_t meet, int32_t* end, int32_t* length) {
    const size_t pre = static_cast<size_t>(prefix(s, paths, meet));
    const int32_t up_end = static_cast<int32_t>(s.prefix_at[pre]);
    const int32_t begin = static_cast<int32_t>(paths.vertices.size());
    TargetTree& tree = trees_[static_cast<size_t>(j)];
    std::lock_guard<std::mutex> lock(tree.mu);
    const size_t k = suffix(s, tree, meet);
    const auto down = tree.suffix.begin() + tree.suffix_at[k];
    paths.vertices.insert(paths.vertices.end(), down, down + tree.suffix_len[k]);
    const int32_t down_end = paths.close_chain(begin, up_end);
    *end = down_end >= 0 ? down_end : up_end;
    *length = static_cast<int32_t>(s.prefix_len[pre] + tree.suffix_len[k]);
  }

  void forget_prefixes(QueryScratch<W>& s) {
    if (s.prefix_of.empty()) s.prefix_of.assign(static_cast<size_t>(h_.n), -1);
    for (int32_t p : s.prefix_set) s.prefix_of[static_cast<size_t>(p)] = -1;
    s.prefix_set.clear();
    s.prefix_at.clear();
    s.prefix_len.clear();
  }
  // The prefix of settled position p (its index in s.prefix_at), made from
  // its nearest ancestor that has one.
  int32_t prefix(QueryScratch<W>& s, RowPaths& paths, int32_t p) {
    const UpwardSearch<W>& up = s.forward;
    s.chain.clear();
    int32_t q = p;
    while (s.prefix_of[static_cast<size_t>(q)] < 0 && up.parent(q) >= 0) {
      s.chain.push_back(q);
      q = up.parent(q);
    }
    if (s.prefix_of[static_cast<size_t>(q)] < 0) remember_prefix(s, paths, q, -1, -1);  // the source
    for (auto it = s.chain.rbegin(); it != s.chain.rend(); ++it) {
      remember_prefix(s, paths, *it, s.prefix_of[static_cast<size_t>(up.parent(*it))], up.arc(*it));
    }
    return s.prefix_of[static_cast<size_t>(p)];
  }
  // p's prefix: its parent's (index `from`; -1: p is the source, the row's
  // first vertex) and the arc to p, unpacked into a chain hanging from the
  // parent's end. prefix_at: the row position of its last vertex;
  // prefix_len: its vertices, the source included.
  void remember_prefix(QueryScratch<W>& s, RowPaths& paths, int32_t p, int32_t from, int64_t arc) {
    int64_t at = 0, len = 1;
    if (from >= 0) {
      const int32_t begin = static_cast<int32_t>(paths.vertices.size());
      unpack_arc(h_, true, arc, s.forward.parent(p), p, paths.vertices, s.stack);
      const int32_t parent_end = static_cast<int32_t>(s.prefix_at[static_cast<size_t>(from)]);
      const int32_t end = paths.close_chain(begin, parent_end);
      at = end >= 0 ? end : parent_end;
      len = s.prefix_len[static_cast<size_t>(from)] + (end >= 0 ? end - begin + 1 : 0);
    }
    s.prefix_of[static_cast<size_t>(p)] = static_cast<int32_t>(s.prefix_at.size());
    s.prefix_set.push_back(p);
    s.prefix_at.push_back(at);
    s.prefix_len.push_back(len);
  }

  // The suffix of tree vertex p (its index in the tree), made from its
  // nearest descendant toward the target that has one. Caller holds tree.mu.
  size_t suffix(QueryScratch<W>& s, TargetTree& tree, int32_t p) {
    auto index_of = [&](int32_t q) {
      const auto it = std::lower_bound(tree.vertex.begin(), tree.vertex.end(), q);
      require(it != tree.vertex.end() && *it == q, GSP_ERR_INTERNAL, "road index: a table path left its target's tree");
      return static_cast<size_t>(it - tree.vertex.begin());
    };
    s.chain.clear();
    size_t k = index_of(p);
    while (tree.suffix_at[k] < 0 && tree.parent[k] >= 0) {
      s.chain.push_back(static_cast<int32_t>(k));
      k = index_of(tree.parent[k]);
    }
    if (tree.suffix_at[k] < 0) {  // the target: empty
      tree.suffix_at[k] = static_cast<int64_t>(tree.suffix.size());
      tree.suffix_len[k] = 0;
    }
    std::vector<int32_t> piece;
    for (auto it = s.chain.rbegin(); it != s.chain.rend(); ++it) {
      const size_t c = static_cast<size_t>(*it);
      const size_t below = index_of(tree.parent[c]);
      piece.clear();
      unpack_arc(h_, false, tree.arc[c], tree.vertex[c], tree.parent[c], piece, s.stack);
      tree.suffix_at[c] = static_cast<int64_t>(tree.suffix.size());
      tree.suffix.insert(tree.suffix.end(), piece.begin(), piece.end());
      const int64_t b = tree.suffix_at[below], len = tree.suffix_len[below];
      for (int64_t i = 0; i < len; ++i) tree.suffix.push_back(tree.suffix[static_cast<size_t>(b + i)]);
      tree.suffix_len[c] = static_cast<int64_t>(tree.suffix.size()) - tree.suffix_at[c];
    }
    return index_of(p);
  }

  const ChHierarchy<W>& h_;
  const TableJob& job_;
  const int32_t k_, t_;
  // Every target's labels by vertex, then target, as two arrays (the scan
  // reads no vertex): position p's are [bucket_begin_[p], bucket_begin_[p + 1]).
  std::vector<int32_t> bucket_target_;  // index into the targets
  std::vector<D> bucket_dist_;
  std::vector<int64_t> bucket_begin_;
  std::vector<TargetTree> trees_;
  std::atomic<int64_t> settled_{0};  // by every upward search (the run info's iterations)
};

}  // namespace

void index_sssp(const ChBase& index, const SsspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { sssp_typed<decltype(w)>(index, job); });
}

void index_apsp(const ChBase& index, const ApspJob& job) {
  with_weight_type(job.graph->dtype(), [&](auto w) { apsp_typed<decltype(w)>(index, job); });
}

void index_table(const ChBase& index, const TableJob& job) {
  if (job.num_sources == 0 || job.num_targets == 0) return;
  with_weight_type(job.graph->dtype(), [&](auto w) {
    using W = decltype(w);
    if (job.num_sources == 1 && job.num_targets == 1) {
      point_to_point(hierarchy<W>(index), job);
    } else {
      BucketTable<W>(hierarchy<W>(index), job).run();
    }
  });
}

}  // namespace gsp::detail::cpu
