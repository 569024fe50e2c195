// The delta-stepping / frontier engine's device state (sssp_delta_stepping.cu):
// launch constants, the control words, the kernel arguments, the frontier
// sink and the small helpers every phase uses. Included through
// frontier_search.cuh by sssp_delta_stepping.cu and apsp_delta_stepping.cu.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sssp/sssp_family.cuh"

namespace gsp::detail::gpu::family {
namespace {

constexpr int kThreads = 256;
constexpr int kNoBucket = 0x7fffffff;
constexpr int kMaxBucket = 1 << 30;

struct Ctrl {
  unsigned int near_cnt[3];
  unsigned int hub_cnt[3];  // hub lists, counted as the near lists (FArgs::hub0/1)
  unsigned int r_cnt[2];
  unsigned long long far_cnt[3];
  int far_min[3];
  int far_ovf[3];
  int status;       // 0 ok, 1 round limit hit
  int stopped;      // 1: the search stopped once stop_vertex was final (FArgs)
  int stop_bucket;  // then: the last bucket done; labels of later buckets are not final
  double delta;
  double inv_delta;
  unsigned long long relax;
  long long rounds;
  long long buckets;
};

// A label's word: (distance key, parent) packed into 64 bits for 4-byte
// weights, lowered by one 64-bit atomicMin; for double the 64-bit key alone
// (a key-only word, kKeyOnly), lowered by the same atomicMin, and the
// predecessors are found after the search from the distances
// (tight_pred_kernel() in sssp_family.cuh). Against a 128-bit (key, parent)
// word that keeps a relaxation one 64-bit atomic instead of a 16-byte CAS
// loop, and the record one sector. The block-local queues keep WordOf<W>
// (the packed word, 16 bytes for double): their parent only spares a
// speculative entry the arc back to it.
template <class W>
using LabelWord = std::conditional_t<(sizeof(typename Key<W>::K) > 4), typename Key<W>::K, WordOf<W>>;
static_assert(sizeof(LabelWord<float>) == 8 && sizeof(LabelWord<double>) == 8, "one 64-bit atomic");

// The queue word of a label word (key-only: parent -1, unused).
template <class W>
__device__ __forceinline__ WordOf<W> queue_word(LabelWord<W> w) {
  if constexpr (kKeyOnly<W, LabelWord<W>>) {
    return pack(w, -1);
  } else {
    return w;
  }
}

// Every label's state in one 32-byte record, one DRAM sector: a relaxation
// touches the label's word, bucket and stamps together, so with labels
// beyond the L2 cache (many copies at once, apsp_delta_stepping.cu) it costs
// one sector instead of one per array. With double distances the word is
// the 8-byte key and done_key takes the padding.
template <class K>
struct LabelStateOf {
  unsigned long long packed;  // pack(distance key, parent), kUnreached
  int bucket;                 // bucket index (kNoBucket: none)
  unsigned int nstamp;        // near-list stamp
  unsigned int fstamp;        // far-pile stamp
  unsigned int rstamp;        // settled-list stamp (light/heavy split)
  uint32_t done_key;          // speculative mode: see FArgs::done_key
  unsigned int pad;
};
template <>
struct LabelStateOf<unsigned long long> {
  unsigned long long packed;  // the distance key alone, kUnreached
  int bucket;
  unsigned int nstamp;
  unsigned int fstamp;
  unsigned int rstamp;
  unsigned long long done_key;
};
template <class W>
using LabelState = LabelStateOf<typename Key<W>::K>;
static_assert(sizeof(LabelState<float>) == 32, "one sector a label");
static_assert(sizeof(LabelState<double>) == 32, "one sector a label");

// One field of the label records, used like an array of that field:
// `field + v` is label v's field, `field[v]` the field itself.
template <class R, class T, size_t Offset>
struct LabelField {
  R* base;
  __host__ __device__ T* operator+(int64_t i) const {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(base + i) + Offset);
  }
  __host__ __device__ T& operator[](int64_t i) const { return *(*this + i); }
};
// Field F of W's label records.
#define GSP_LABEL_FIELD(W, T, F) LabelField<LabelState<W>, T, offsetof(LabelState<W>, F)>

// The light arcs' ELL slot (see kEllSlots): (head, weight bits) in a uint2,
// or for double (head, -, low and high weight words) in a uint4.
template <class W>
struct EllOf {
  using type = uint2;
};
template <>
struct EllOf<double> {
  using type = uint4;
};
template <class W>
using EllEntry = typename EllOf<W>::type;

// Block-local queue and speculative cache sizes: the double queue words are
// twice as wide, so half as many keep the kernel's static shared memory
// under 48 KB.
template <class W>
constexpr unsigned int kLocalCapOf = sizeof(WordOf<W>) == 8 ? 1024u : 512u;
template <class W>
constexpr unsigned int kSeenSlotsOf = sizeof(WordOf<W>) == 8 ? 1024u : 512u;  // powers of two

// A frontier vertex whose arcs off[beg .. end) one block would take too long
// to relax in its tile (more than FArgs::hub_arcs): the whole grid relaxes
// them in the next phase, each block an equal share (relax_hubs()). u is
// the label, base its copy_base().
struct HubEntry {
  long long beg;
  long long end;
  int32_t u;
  int32_t base;
  int32_t heavy;  // arcs of a heavy phase (FArgs::split_filter: relax those with weight > delta)
  int32_t pad;
};
constexpr unsigned int kHubCap = 8192;  // hub entries a phase; beyond: in the tile

// Phase kinds of the trace (FArgs::trace).
constexpr unsigned long long kTraceLight = 0, kTraceHeavy = 1, kTraceOpen = 2;
constexpr int kTraceCap = 8192;  // phases recorded

template <class W>
struct FArgs {
  // Labels (vertices of the searched graph): n. One search: the graph's
  // vertices. Several searches at once (apsp_delta_stepping.cu): `copies`
  // disjoint copies of the graph, label c * copy_n + v for vertex v of copy
  // c, one source per copy (sources[c]); all copies share the buckets, the
  // frontier lists and every launch, so each phase has copies times the
  // work of one search. copy_n = 0 for one search (label = vertex, source).
  int32_t n;
  int32_t source;
  // One search: >= 0 stops it once this vertex's bucket is done (its label
  // is final then), -1 runs it to the end.
  int32_t stop_vertex;
  int32_t copy_n;
  const int32_t* sources;
  const int64_t* off;   // n+1
  const int64_t* lend;  // n: end of the light arcs (split), or off+1 when every arc is light
  const int32_t* tgt;   // arcs, light first within each vertex
  const W* wt;
  LabelState<W>* labels;
  GSP_LABEL_FIELD(W, LabelWord<W>, packed) packed;
  GSP_LABEL_FIELD(W, int, bucket) bucket;
  GSP_LABEL_FIELD(W, unsigned int, nstamp) nstamp;
  GSP_LABEL_FIELD(W, unsigned int, rstamp) rstamp;
  GSP_LABEL_FIELD(W, unsigned int, fstamp) fstamp;
  int32_t* near0;
  int32_t* near1;
  int32_t* far0;
  int32_t* far1;
  int32_t* rlist;
  // The light arcs in ELL form for the block-local waves (relax_wave_ell()),
  // kEllSlots per vertex, or nullptr (waves use relax_tile()).
  const EllEntry<W>* ell;
  unsigned long long far_cap;
  long long max_rounds;
  double inv_delta;
  int local_rounds;
  // Whether a relaxation first reads the target's label and skips the
  // atomicMin when it cannot improve (relax()): in the global tiles and in
  // the block-local waves (see frontier_policy()).
  bool filter_global;
  bool filter_local;
  bool delta_mode;
  bool has_heavy;  // some arc is heavy: heavy phases over the settled list R
  // Heavy arcs told apart by their weight (w > delta) on the graph's own
  // arcs, instead of a light-first copy: light rounds and heavy phases both
  // walk every arc of a vertex and relax their own kind.
  bool split_filter;
  double delta;
  // Speculative pushes in the block-local ELL waves (relax_arc_spec()):
  // delta-stepping with ELL waves on graphs whose weights are all > 0.
  bool speculate;
  // Speculative mode: the smallest distance key each vertex's arcs were
  // relaxed with (all ones: never), so that a vertex offered the same
  // distance again is not relaxed again (relax_wave_ell()).
  GSP_LABEL_FIELD(W, typename Key<W>::K, done_key) done_key;
  // Hub lists (kHubCap entries each, read in phase it from hub[it & 1]),
  // and the arcs above which a global tile's vertex goes there (0: never).
  HubEntry* hub0;
  HubEntry* hub1;
  long long hub_arcs;
  // GSP_CUDA_TRACE: 2 words a phase (globaltimer at its start; kind << 62 |
  // hub entries << 32 | frontier size), kTraceCap phases, or nullptr.
  unsigned long long* trace;
  Ctrl* ctrl;
};

// The first label of u's copy (0 for one search): u's vertex in the graph
// is u - copy_base(a, u), and an arc to vertex x leads to label
// x + copy_base(a, u).
template <class W>
__device__ __forceinline__ int32_t copy_base(const FArgs<W>& a, int32_t u) {
  return a.copy_n == 0 ? 0 : (u / a.copy_n) * a.copy_n;
}

__device__ __forceinline__ int bucket_of(double d, double inv) {
  double q = d * inv;
  if (!(q < static_cast<double>(kMaxBucket))) return kMaxBucket;
  if (q < 0) return 0;
  return static_cast<int>(q);
}

// Per-thread view of where improvements go in the current phase.
template <class W>
struct Sink {
  int cur_b;
  double inv;
  int32_t* near_out;
  unsigned int* near_cnt;
  unsigned int near_stamp;
  int32_t* far_out;
  unsigned long long* far_cnt;
  int* far_min;
  int* far_ovf;
  unsigned long long far_cap;
  bool delta_mode;
  // Block-local queue (shared memory) for improvements that stay in the
  // current bucket: the block relaxes them itself before the grid barrier.
  // local_w[i] is the (distance, parent) word that queued local_q[i].
  int32_t* local_q;
  WordOf<W>* local_w;
  unsigned int* local_cnt;
  // Speculative pushes to a later bucket, checked once after the local
  // waves (relax_arc_spec(), flush_deferred()).
  int32_t* defer_v;
  WordOf<W>* defer_w;
  unsigned int* defer_cnt;
  // Speculative mode: the block's direct-mapped cache of (distance key,
  // vertex) pairs it relaxed (kSeenSlots, shared memory, never cleared).
  WordOf<W>* seen;
  // Hub list for the next phase (HubEntry), or nullptr: no hubs.
  HubEntry* hub_out;
  unsigned int* hub_cnt;
  long long hub_arcs;
};

constexpr int kLocalWaves = 16;  // per grid round; see frontier_policy()
constexpr double kLocalWaveMaxDegree = 4.0;
constexpr unsigned int kDeferCap = 256;  // deferred later-bucket pushes per block and round

// ELL slots per vertex for the block-local waves: a slot holds one light arc
// as (head, weight bits); kEllEmpty marks an unused slot; kEllMore in the
// last slot says the vertex has more than kEllSlots light arcs, and that its
// arcs from index kEllSlots - 1 on are read from the CSR. Four slots hold
// every arc of 99.4% of the vertices of the NY road graph.
constexpr int kEllSlots = 4;
constexpr uint32_t kEllEmpty = 0xffffffffu;
constexpr uint32_t kEllMore = 0xfffffffeu;

// The lanes of the calling thread's ELL entry group (kEllSlots consecutive
// lanes of its warp), for the group's shuffles.
__device__ __forceinline__ unsigned int entry_mask() {
  return ((1u << kEllSlots) - 1u) << (threadIdx.x & 31 & ~(kEllSlots - 1));
}

// Slot of vertex v in a direct-mapped table of kSeenSlots (Fibonacci hash).
__device__ __forceinline__ unsigned int hash_vertex(int32_t v) {
  return (static_cast<uint32_t>(v) * 2654435761u) >> 16;
}

template <class W>
__device__ __forceinline__ uint32_t weight_bits(W w) {
  if constexpr (std::is_same_v<W, float>)
    return __float_as_uint(w);
  else
    return static_cast<uint32_t>(w);
}
template <class W>
__device__ __forceinline__ W weight_from_bits(uint32_t b) {
  if constexpr (std::is_same_v<W, float>)
    return __uint_as_float(b);
  else
    return static_cast<W>(b);
}
template <class W>
__device__ __forceinline__ EllEntry<W> make_ell(uint32_t head, W w) {
  if constexpr (sizeof(W) == 8) {
    return make_uint4(head, 0u, static_cast<uint32_t>(__double2loint(w)), static_cast<uint32_t>(__double2hiint(w)));
  } else {
    return make_uint2(head, weight_bits<W>(w));
  }
}
template <class W>
__device__ __forceinline__ W ell_weight(EllEntry<W> e) {
  if constexpr (sizeof(W) == 8) {
    return __hiloint2double(static_cast<int>(e.w), static_cast<int>(e.z));
  } else {
    return weight_from_bits<W>(e.y);
  }
}

}  // namespace
}  // namespace gsp::detail::gpu::family
