// Multithreaded delta-stepping (Meyer & Sanders 2003), in the style
// of the GAP benchmark suite's CPU code (Beamer et al.) with bucket fusion
// (Zhang et al., CGO 2020). Notes and measurements: doc/cpu-engines.md.
//
// Distances are kept as keys: the bit patterns of the weight type as
// unsigned integers of its width (32 bits for float and int32, 64 for
// double). Non-negative float, double and int32 values order like their bit
// patterns, so keys compare like distances. With 32-bit keys, each vertex's
// (distance, predecessor) pair is one 64-bit word (key high, predecessor
// low) lowered by compare-and-swap, so a predecessor always belongs to the
// distance it produced. A 64-bit key leaves no room for the predecessor in
// a word that can be swapped lock-free without libatomic, so threaded
// double runs with paths lower distance-only labels and then take each
// vertex's predecessor from a tight in-arc (preds_from_tight_arcs).
//
// A round processes the shared frontier (the current bucket's entries) with
// a dynamically chunked loop. Every out-arc of a valid entry is relaxed (no
// light/heavy split); an improved vertex goes, with its new distance, into
// the relaxing thread's own bin for its new bucket. Entries carry the
// distance they were pushed with: one whose vertex has improved since is
// stale and skipped, so a vertex is scanned at most once per distance it
// takes. Bucket fusion: while a thread's own bin for the current bucket
// stays small it empties it on the spot instead of waiting for the next
// round. Then the threads agree on the smallest non-empty bucket (an atomic
// minimum over their own minima) and each publishes its bin for it; the
// published bins, taken together, are the next frontier.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/pred_repair.h"
#include "core/tuning.h"
#include "engines/cpu/common/cpu_util.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/common/spin.h"
#include "engines/cpu/sssp/sssp_core.h"

namespace gsp::detail::cpu {

double choose_delta(const Graph& graph) {
  const int64_t m = graph.m();
  const int32_t n = graph.n();
  if (m == 0) return 1.0;
  const double avg_w = graph.mean_weight();
  const double avg_deg = std::max(1.0, static_cast<double>(m) / static_cast<double>(n));
  // 8 average weights per average out-degree, measured on the NY road graph,
  // a random and a grid graph (doc/cpu-engines.md); 4 times wider on
  // low-degree graphs (roads, meshes), whose long paths otherwise cost a
  // round each: NY on 16 cores 12.0 -> 7.0 ms, on one thread no slower.
  const double scale = avg_deg <= 4.0 ? 32.0 : 8.0;
  double delta = scale * avg_w / avg_deg;
  if (!(delta > 0) || !std::isfinite(delta)) delta = graph.max_weight() > 0 ? graph.max_weight() : 1.0;
  return delta;
}

namespace {

// The key of a distance of weight type W: its bits, as unsigned of its width.
template <class W>
using Key = std::conditional_t<sizeof(W) == 8, uint64_t, uint32_t>;
static_assert(sizeof(Key<float>) == 4 && sizeof(Key<int32_t>) == 4 && sizeof(Key<double>) == 8, "key widths");

template <class W>
inline Key<W> key_bits(W w) {
  Key<W> b;
  std::memcpy(&b, &w, sizeof b);
  return b;
}
template <class W>
inline W from_bits(Key<W> b) {
  W w;
  std::memcpy(&w, &b, sizeof w);
  return w;
}

template <class T>
inline void prefetch(const T* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// A barrier for a fixed team. The last thread to arrive runs `last()` while
// the others wait, then releases them; so what `last()` writes is seen by
// every thread after the barrier, and stays unchanged until the next
// barrier's `last()`. Waiters spin for at most spin_ns (rounds are short),
// then yield, then sleep on a condition variable: when the machine has fewer
// free cores than the team has threads, a spinning waiter would hold the
// core that the thread it waits for needs. `pause` puts a pause instruction
// in the spin (GSP_CPU_BARRIER_PAUSE; see BarrierTuning).
class Barrier {
 public:
  Barrier(int n, int64_t spin_ns, bool pause) : n_(n), spin_ns_(spin_ns), pause_(pause) {}
  template <class F>
  void wait(F&& last) {
    const uint32_t g = gen_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) == n_ - 1) {
      count_.store(0, std::memory_order_relaxed);
      last();
      {
        // Under the mutex: a waiter checks gen_ and goes to sleep atomically.
        std::lock_guard<std::mutex> lk(mu_);
        gen_.store(g + 1, std::memory_order_release);
      }
      if (sleepers_.load(std::memory_order_relaxed) > 0) cv_.notify_all();
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t i = 1;; ++i) {
      if (gen_.load(std::memory_order_acquire) != g) return;
      if (pause_) cpu_relax();
      if ((i & 255) == 0 &&
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count() >
              spin_ns_) {
        break;
      }
    }
    for (int i = 0; i < kYields; ++i) {
      if (gen_.load(std::memory_order_acquire) != g) return;
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lk(mu_);
    sleepers_.fetch_add(1, std::memory_order_relaxed);
    cv_.wait(lk, [&] { return gen_.load(std::memory_order_acquire) != g; });
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  static constexpr int kYields = 16;
  const int n_;
  const int64_t spin_ns_;
  const bool pause_;
  std::atomic<int> count_{0};
  std::atomic<uint32_t> gen_{0};
  std::atomic<int> sleepers_{0};
  std::mutex mu_;
  std::condition_variable cv_;
};

// Tuning of the parallel rounds, from the run's snapshot (GSP_CPU_* in doc/tuning.md,
// for benchmarks; not part of the API; defaults in core/tuning.h): how long
// a barrier waiter spins, whether it pauses while spinning, and the
// bucket-fusion limit.
struct DsTuning {
  int64_t spin_ns;
  bool pause;
  size_t fuse;
  static DsTuning of(const Tuning& knobs) {
    return {knobs.cpu_barrier_spin_us * 1000, knobs.cpu_barrier_pause, static_cast<size_t>(knobs.cpu_ds_fuse)};
  }
};

constexpr int64_t kNoBucket = INT64_MAX;
// Buckets curr .. curr + kRing - 1 live in a ring of bins; entries further
// ahead wait in one "far" pile (only tiny deltas put anything there).
constexpr int64_t kRing = 1024;
constexpr size_t kChunk = 64;

// A vertex and the key (distance bits, K) it was queued with.
template <class K>
struct Entry {
  int32_t v;
  K d;
};

// Labels: the keys (and maybe predecessor) of every vertex; each layout
// names its key type K.
// One thread: plain keys (for 32-bit keys half the cache footprint of a
// packed word) and the predecessors written straight into the caller's array.
template <class K>
struct SeqLabels {
  using Key = K;
  K* d;
  int32_t* p;  // null: no predecessors
  K get(int32_t v) const { return d[v]; }
  void prefetch(int32_t v) const { cpu::prefetch(d + v); }
  bool lower(int32_t v, K nk, int32_t u) {
    if (nk >= d[v]) return false;
    d[v] = nk;
    if (p != nullptr) p[v] = u;
    return true;
  }
};
// Threads, with predecessors: (distance bits << 32 | predecessor) lowered by
// compare-and-swap, so a predecessor always belongs to its distance.
// The two threaded layouts also set themselves up (init: every vertex
// unreached, the source at distance bits `zero`) and write themselves out
// (finish: distances, and predecessors where kept), each thread on its own
// slice [lo, hi) of the vertices.
struct PackedLabels {
  using Key = uint32_t;
  using Word = uint64_t;
  std::atomic<uint64_t>* s;
  void init(size_t lo, size_t hi, size_t src, uint32_t inf, uint32_t zero) const {
    for (size_t v = lo; v < hi; ++v) {
      s[v].store((static_cast<uint64_t>(v == src ? zero : inf) << 32) | 0xffffffffu, std::memory_order_relaxed);
    }
  }
  template <class W>
  void finish(size_t lo, size_t hi, W* dist, int32_t* pred) const {
    for (size_t v = lo; v < hi; ++v) {
      const uint64_t w = s[v].load(std::memory_order_relaxed);
      dist[v] = from_bits<W>(static_cast<uint32_t>(w >> 32));
      pred[v] = static_cast<int32_t>(static_cast<uint32_t>(w));
    }
  }
  uint32_t get(int32_t v) const { return static_cast<uint32_t>(s[v].load(std::memory_order_relaxed) >> 32); }
  void prefetch(int32_t v) const { cpu::prefetch(s + v); }
  bool lower(int32_t v, uint32_t nk, int32_t u) {
    std::atomic<uint64_t>& a = s[v];
    uint64_t old = a.load(std::memory_order_relaxed);
    const uint64_t packed = (static_cast<uint64_t>(nk) << 32) | static_cast<uint32_t>(u);
    while (nk < static_cast<uint32_t>(old >> 32)) {
      if (a.compare_exchange_weak(old, packed, std::memory_order_relaxed)) return true;
    }
    return false;
  }
};
// Threads, no predecessors (or, for 64-bit keys, predecessors found after
// the search): keys lowered by compare-and-swap.
template <class K>
struct DistLabels {
  using Key = K;
  using Word = K;
  std::atomic<K>* s;
  void init(size_t lo, size_t hi, size_t src, K inf, K zero) const {
    for (size_t v = lo; v < hi; ++v) s[v].store(v == src ? zero : inf, std::memory_order_relaxed);
  }
  // pred: the caller's array when it gave one without asking for paths
  // (filled with -1), else null.
  template <class W>
  void finish(size_t lo, size_t hi, W* dist, int32_t* pred) const {
    for (size_t v = lo; v < hi; ++v) dist[v] = from_bits<W>(s[v].load(std::memory_order_relaxed));
    if (pred != nullptr) std::fill(pred + lo, pred + hi, -1);
  }
  K get(int32_t v) const { return s[v].load(std::memory_order_relaxed); }
  void prefetch(int32_t v) const { cpu::prefetch(s + v); }
  bool lower(int32_t v, K nk, int32_t /*u*/) {
    std::atomic<K>& a = s[v];
    K old = a.load(std::memory_order_relaxed);
    while (nk < old) {
      if (a.compare_exchange_weak(old, nk, std::memory_order_relaxed)) return true;
    }
    return false;
  }
};

// One thread's working state: its bins and counters. Aligned to a cache
// line: the counters are written on every scan, and workers sit side by side
// in a vector (sharing a line doubled the time per scan with 2 threads).
template <class W, class L>
class alignas(64) Worker {
  using K = typename L::Key;
  static_assert(std::is_same_v<K, Key<W>>, "labels keyed by W's width");
  using Entry = cpu::Entry<K>;

 public:
  Worker(const CsrView<W>& g, L labels, double inv_delta)
      : g_(g), lab_(labels), inv_delta_(inv_delta), ring_(static_cast<size_t>(kRing)) {}

  int64_t bucket_of(K dbits) const {
    // Distances are >= 0, so truncation is the floor.
    const double q = static_cast<double>(from_bits<W>(dbits)) * inv_delta_;
    return q < 4.0e18 ? static_cast<int64_t>(q) : int64_t(4.0e18);
  }
  bool valid(const Entry& e) const { return lab_.get(e.v) == e.d; }
  std::vector<Entry>& bin(int64_t b) { return ring_[static_cast<size_t>(b & (kRing - 1))]; }

  void push(int64_t curr, int32_t v, K d) {
    const int64_t b = bucket_of(d);
    if (b - curr < kRing) {
      bin(b).push_back(Entry{v, d});
      if (b > hi_) hi_ = b;
    } else {
      far_.push_back(Entry{v, d});
      if (b < far_min_) far_min_ = b;
    }
  }

  // Relaxes every out-arc of u, whose distance has bits du_bits (bucket curr).
  void scan(int32_t u, K du_bits, int64_t curr) {
    const W du = from_bits<W>(du_bits);
    const int64_t begin = g_.offsets[u];
    const int64_t end = g_.offsets[u + 1];
    ++scans_;
    relax_ += end - begin;
    for (int64_t e = begin; e < end; ++e) {
      const int32_t v = g_.targets[e];
      W nd;
      if (!add_key(du, g_.weights[e], &nd)) {
        // int32 sum past GSP_I32_INF: judged at the end (as in Dijkstra);
        // only a vertex left unreachable makes it an error.
        overflowed_.emplace_back(u, v);
        continue;
      }
      const K nk = key_bits(nd);
      if (lab_.lower(v, nk, u)) push(curr, v, nk);
    }
  }

  // Scans the valid entries of e[0 .. count). The loop is bound by memory
  // latency (each entry is a random vertex: its label, its offsets, then its
  // arcs), so it prefetches ahead: the label and offsets kFar entries on,
  // the arcs kNear entries on (by then the offsets are in cache).
  void scan_entries(const Entry* e, size_t count, int64_t curr) {
    constexpr size_t kFar = 8, kNear = 4;
    for (size_t i = 0; i < count; ++i) {
      if (i + kFar < count) {
        const int32_t f = e[i + kFar].v;
        prefetch(g_.offsets + f);
        lab_.prefetch(f);
      }
      if (i + kNear < count) {
        const int64_t b = g_.offsets[e[i + kNear].v];
        prefetch(g_.targets + b);
        prefetch(g_.weights + b);
      }
      if (valid(e[i])) scan(e[i].v, e[i].d, curr);
    }
  }

  // Empties this thread's bin for bucket curr, fused: only while it holds
  // fewer than `limit` entries.
  void drain(int64_t curr, size_t limit) {
    std::vector<Entry>& b = bin(curr);
    while (!b.empty() && b.size() < limit) {
      tmp_.swap(b);
      scan_entries(tmp_.data(), tmp_.size(), curr);
      tmp_.clear();
    }
  }

  // Smallest bucket >= curr holding an entry of this thread (or kNoBucket).
  int64_t next_bucket(int64_t curr) {
    const int64_t last = std::min(hi_, curr + kRing - 1);
    for (int64_t b = curr; b <= last; ++b) {
      if (!bin(b).empty()) return b;
    }
    return far_min_;
  }

  // Moves far entries that now fall in the ring (curr is the new bucket).
  void pull_far(int64_t curr) {
    if (far_min_ >= curr + kRing) return;
    size_t keep = 0;
    far_min_ = kNoBucket;
    for (size_t i = 0; i < far_.size(); ++i) {
      const Entry e = far_[i];
      if (!valid(e)) continue;
      const int64_t b = bucket_of(e.d);
      if (b - curr < kRing) {
        bin(b).push_back(e);
        if (b > hi_) hi_ = b;
      } else {
        far_[keep++] = e;
        if (b < far_min_) far_min_ = b;
      }
    }
    far_.resize(keep);
  }

  int64_t relaxations() const { return relax_; }
  int64_t scans() const { return scans_; }
  const std::vector<std::pair<int32_t, int32_t>>& overflowed() const { return overflowed_; }

 private:
  const CsrView<W> g_;
  L lab_;
  const double inv_delta_;
  std::vector<std::vector<Entry>> ring_;
  std::vector<Entry> far_, tmp_;
  int64_t hi_ = -1;
  int64_t far_min_ = kNoBucket;
  int64_t relax_ = 0, scans_ = 0;
  std::vector<std::pair<int32_t, int32_t>> overflowed_;
};

struct Outcome {
  int64_t rounds = 0;
  int64_t relaxations = 0;
  int threads = 1;
  std::vector<std::pair<int32_t, int32_t>> overflowed;
};

// One thread: bucket by bucket, each emptied completely.
template <class W>
void run_serial(const CsrView<W>& g, SeqLabels<Key<W>> lab, int32_t source, double inv_delta, const RunOptions& opt,
                Outcome* out) {
  Worker<W, SeqLabels<Key<W>>> w(g, lab, inv_delta);
  const double inv_n = 1.0 / static_cast<double>(std::max(1, g.n));
  int64_t curr = 0;
  w.bin(0).push_back(Entry<Key<W>>{source, lab.get(source)});
  while (curr != kNoBucket) {
    w.pull_far(curr);
    w.drain(curr, SIZE_MAX);
    if ((++out->rounds & 15) == 0) opt.report(std::min(0.99, static_cast<double>(w.scans()) * inv_n));
    curr = w.next_bucket(curr);
  }
  out->relaxations = w.relaxations();
  out->overflowed = w.overflowed();
}

// A team of `threads`; rounds separated by two barriers. The labels (layout
// L) are set up and, once every distance is final, written to dist / pred
// by the team, each thread on its slice of the vertices: no serial pass
// over n.
template <class W, class L>
void run_parallel(const CsrView<W>& g, int32_t source, double inv_delta, int threads, const RunOptions& opt, Key<W> inf,
                  W* dist, int32_t* pred, Outcome* out) {
  using Entry = cpu::Entry<Key<W>>;
  // new[] of std::atomic leaves the values to init() (C++17): first touch
  // happens in the team.
  std::unique_ptr<std::atomic<typename L::Word>[]> words(new std::atomic<typename L::Word>[static_cast<size_t>(g.n)]);
  const L lab{words.get()};
  Team team(threads);
  const size_t T = static_cast<size_t>(team.size());
  const double inv_n = 1.0 / static_cast<double>(std::max(1, g.n));
  std::vector<Worker<W, L>> workers;
  workers.reserve(T);
  for (size_t t = 0; t < T; ++t) workers.emplace_back(g, lab, inv_delta);
  // The frontier: every thread's published bin, in thread order.
  std::vector<std::vector<Entry>> published(T);
  std::vector<size_t> prefix(T + 1, 1);
  published[0].push_back(Entry{source, key_bits(W(0))});
  prefix[0] = 0;

  const DsTuning tune = DsTuning::of(opt.tuning);
  Barrier barrier(static_cast<int>(T), tune.spin_ns, tune.pause);
  std::atomic<size_t> cursor{0};
  std::atomic<int64_t> next_min{kNoBucket};
  std::atomic<int64_t> scans_total{0};
  std::atomic<bool> abort{false};
  std::mutex err_mu;
  std::exception_ptr err;
  // Written only by the barriers' last arrivers.
  int64_t curr = 0, rounds = 0;
  bool stop = false;

  auto fail = [&] {
    std::lock_guard<std::mutex> lk(err_mu);
    if (!err) err = std::current_exception();
    abort.store(true, std::memory_order_relaxed);
  };

  const size_t n = static_cast<size_t>(g.n);
  team.run([&](int tid) {
    Worker<W, L>& me = workers[static_cast<size_t>(tid)];
    const size_t lo = n * static_cast<size_t>(tid) / T, hi = n * (static_cast<size_t>(tid) + 1) / T;
    lab.init(lo, hi, static_cast<size_t>(source), inf, key_bits(W(0)));
    barrier.wait([] {});
    for (;;) {
      // A round: the frontier, then this thread's own small bins, fused.
      if (!abort.load(std::memory_order_relaxed)) {
        try {
          if (tid == 0 && (rounds & 15) == 15) {
            // Only the calling thread reports (and may be cancelled).
            opt.report(std::min(0.99, static_cast<double>(scans_total.load(std::memory_order_relaxed)) * inv_n));
          }
          const int64_t scans0 = me.scans();
          const size_t total = prefix[T];
          size_t part = 0;
          // Chunks of up to kChunk entries, smaller for small frontiers so
          // that every thread gets some: each entry seeds a thread's fused
          // work, and on road graphs a frontier of a few hundred entries in
          // chunks of 64 left most of the team idle for the whole round.
          const size_t step = std::clamp<size_t>(total / (4 * T), 1, kChunk);
          Entry chunk[kChunk];
          for (size_t c; (c = cursor.fetch_add(step, std::memory_order_relaxed)) < total;) {
            const size_t end = std::min(total, c + step);
            for (size_t x = c; x < end; ++x) {
              while (x >= prefix[part + 1]) ++part;
              chunk[x - c] = published[part][x - prefix[part]];
            }
            me.scan_entries(chunk, end - c, curr);
          }
          // Bucket fusion: keep emptying this thread's own bin for the
          // current bucket while it holds fewer than tune.fuse entries.
          me.drain(curr, tune.fuse);
          const int64_t mine = me.next_bucket(curr);
          int64_t seen = next_min.load(std::memory_order_relaxed);
          while (mine < seen && !next_min.compare_exchange_weak(seen, mine, std::memory_order_relaxed)) {
          }
          scans_total.fetch_add(me.scans() - scans0, std::memory_order_relaxed);
        } catch (...) {
          fail();
        }
      }
      barrier.wait([&] {
        ++rounds;
        curr = next_min.load(std::memory_order_relaxed);
        next_min.store(kNoBucket, std::memory_order_relaxed);
        stop = abort.load(std::memory_order_relaxed) || curr == kNoBucket;
      });
      if (stop) {
        // Every thread is past its last relaxation.
        if (!abort.load(std::memory_order_relaxed)) lab.template finish<W>(lo, hi, dist, pred);
        break;
      }
      // Publish this thread's bin for the agreed bucket.
      try {
        me.pull_far(curr);
        std::vector<Entry>& mine = published[static_cast<size_t>(tid)];
        mine.clear();
        mine.swap(me.bin(curr));
      } catch (...) {
        fail();
      }
      barrier.wait([&] {
        for (size_t t = 0; t < T; ++t) prefix[t + 1] = prefix[t] + published[t].size();
        cursor.store(0, std::memory_order_relaxed);
        stop = abort.load(std::memory_order_relaxed);
      });
      if (stop) break;
    }
  });
  // Every thread is back (Team::run waited for them): now an error may leave.
  if (err) std::rethrow_exception(err);
  out->rounds = rounds;
  out->threads = team.size();
  for (const auto& w : workers) {
    out->relaxations += w.relaxations();
    out->overflowed.insert(out->overflowed.end(), w.overflowed().begin(), w.overflowed().end());
  }
}

// Predecessors from finished distances, for threaded runs whose labels hold
// none (64-bit keys): every vertex v != source of finite distance gets an
// in-arc u -> v, u != v, with dist[u] + w == dist[v], the sum computed as
// the search computes it. One exists: the last lowering of v came from a
// scan of some u, and u's final label, no larger, was scanned too; rounding
// is monotone, so that scan's sum was <= dist[v], and < would have lowered
// v again. The team sweeps the out-arcs of chunks of tails (any tight arc
// will do, so heads are claimed with relaxed atomics, first come first
// kept). Distances strictly grow along a kept arc with dist[u] < dist[v],
// so the predecessors form a tree unless some kept arc has dist[u] ==
// dist[v] (zero weights, or a weight the sum absorbed), or a vertex was left
// without one: only then is the row checked, and rebuilt if it is no tree
// (pred_repair.h).
template <class W>
void preds_from_tight_arcs(const CsrView<W>& g, int32_t source, const W* dist, int32_t* pred, int threads) {
  constexpr size_t kTails = 1024;
  const size_t n = static_cast<size_t>(g.n);
  const W inf = Dist<W>::inf();
  std::unique_ptr<std::atomic<int32_t>[]> tight(new std::atomic<int32_t>[n]);
  Team team(threads);
  const size_t T = static_cast<size_t>(team.size());
  std::atomic<size_t> cursor{0};
  std::atomic<bool> check{false};
  // Thread t's slice of the vertices: [n t / T, n (t + 1) / T).
  auto slice = [n, T](int tid) {
    return std::make_pair(n * static_cast<size_t>(tid) / T, n * (static_cast<size_t>(tid) + 1) / T);
  };
  team.run([&](int tid) {
    const auto [lo, hi] = slice(tid);
    for (size_t v = lo; v < hi; ++v) tight[v].store(-1, std::memory_order_relaxed);
  });
  team.run([&](int) {
    bool level = false;
    for (size_t c; (c = cursor.fetch_add(kTails, std::memory_order_relaxed)) < n;) {
      const int32_t end = static_cast<int32_t>(std::min(n, c + kTails));
      for (int32_t u = static_cast<int32_t>(c); u < end; ++u) {
        const W du = dist[u];
        if (du == inf) continue;
        for (int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const int32_t v = g.targets[e];
          W nd;
          if (!add_key(du, g.weights[e], &nd) || nd != dist[v] || nd == inf || v == u || v == source ||
              tight[v].load(std::memory_order_relaxed) >= 0) {
            continue;
          }
          tight[v].store(u, std::memory_order_relaxed);
          level |= du == nd;
        }
      }
    }
    if (level) check.store(true, std::memory_order_relaxed);
  });
  team.run([&](int tid) {
    bool missing = false;
    const auto [lo, hi] = slice(tid);
    for (size_t v = lo; v < hi; ++v) {
      pred[v] = tight[v].load(std::memory_order_relaxed);
      missing |= pred[v] < 0 && dist[v] != inf && v != static_cast<size_t>(source);
    }
    if (missing) check.store(true, std::memory_order_relaxed);
  });
  if (check.load(std::memory_order_relaxed)) {
    PredRepairScratch scratch;
    (void)repair_pred_row(g, source, dist, pred, scratch);
  }
}

// At most one thread per this many arcs (starting a team and meeting at
// barriers costs more than small graphs take).
constexpr int64_t kMinArcsPerThread = 4096;

}  // namespace

int delta_stepping_threads(const Graph& graph, int requested) {
  // Rounds end at barriers: more threads than cores only adds waiting.
  int threads = std::max(1, requested);
  const int cores = hardware_threads();
  if (cores > 0) threads = std::min(threads, cores);
  return static_cast<int>(std::min<int64_t>(threads, std::max<int64_t>(1, graph.m() / kMinArcsPerThread)));
}

template <class W>
void delta_stepping_sssp(const SsspJob& job) {
  using K = Key<W>;
  const Graph& graph = *job.graph;
  require_non_negative(graph, "delta-stepping");
  const CsrView<W> g = graph.view<W>();
  const size_t n = static_cast<size_t>(g.n);
  const RunOptions& opt = *job.options;
  const double delta = opt.delta > 0 ? opt.delta : choose_delta(graph);
  const double inv_delta = 1.0 / delta;
  const K inf = key_bits(Dist<W>::inf());
  const K zero = key_bits(W(0));
  W* dist = static_cast<W*>(job.dist);
  int32_t* pred = opt.want_paths ? job.pred : nullptr;

  const int threads = delta_stepping_threads(graph, resolved_threads(job.options));

  Outcome out;
  if (threads == 1) {
    std::vector<K> dbits;
    alloc_vector(dbits, n, inf);
    dbits[static_cast<size_t>(job.source)] = zero;
    if (job.pred != nullptr) std::fill(job.pred, job.pred + n, -1);
    run_serial<W>(g, SeqLabels<K>{dbits.data(), pred}, job.source, inv_delta, opt, &out);
    std::memcpy(dist, dbits.data(), n * sizeof(W));
  } else if (pred == nullptr) {
    run_parallel<W, DistLabels<K>>(g, job.source, inv_delta, threads, opt, inf, dist, job.pred, &out);
  } else if constexpr (sizeof(K) == 4) {
    run_parallel<W, PackedLabels>(g, job.source, inv_delta, threads, opt, inf, dist, pred, &out);
  } else {
    run_parallel<W, DistLabels<K>>(g, job.source, inv_delta, threads, opt, inf, dist, nullptr, &out);
    preds_from_tight_arcs(g, job.source, dist, pred, out.threads);
  }

  for (const auto& uv : out.overflowed) {
    if (key_bits(dist[uv.second]) == inf) throw_overflow(uv.first, uv.second);
  }
  fill_stats(job.stats, GSP_SSSP_DELTA_STEPPING, out.threads, out.rounds, out.relaxations);
}

template void delta_stepping_sssp<float>(const SsspJob&);
template void delta_stepping_sssp<int32_t>(const SsspJob&);
template void delta_stepping_sssp<double>(const SsspJob&);

}  // namespace gsp::detail::cpu
