// The one reader of the environment (tuning.h): a table of the GSP_* knobs,
// each with the parse and range that fills its field of Tuning.
#include "core/tuning.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
extern char** environ;
#endif

namespace gsp::detail {

namespace {

// The environment's GSP_* variables, found in one pass over it at the start
// of a call, so that each knob is looked up among them instead of by a
// getenv of its own (itself a pass over the whole environment, 35 times a
// call). The same answers as getenv: the first entry of a name. Where
// `environ` is not known, or past kMax such variables, getenv answers.
class GspVariables {
 public:
  GspVariables() {
#if defined(__linux__)
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
      const char* v = *e;  // the prefix by hand: a strncmp call per variable was most of the pass
      if (v[0] != 'G' || v[1] != 'S' || v[2] != 'P' || v[3] != '_') continue;
      if (count_ == kMax) {
        complete_ = false;
        break;
      }
      entry_[count_++] = *e;
    }
#else
    complete_ = false;
#endif
  }
  const char* find(const char* name) const {
    if (!complete_) return std::getenv(name);
    if (count_ == 0) return nullptr;
    const size_t len = std::strlen(name);
    for (int i = 0; i < count_; ++i) {
      if (std::strncmp(entry_[i], name, len) == 0 && entry_[i][len] == '=') return entry_[i] + len + 1;
    }
    return nullptr;
  }

 private:
  static constexpr int kMax = 64;
  const char* entry_[kMax] = {};
  int count_ = 0;
  bool complete_ = true;
};

// A whole decimal integer in [lo, hi], or nothing.
std::optional<int64_t> as_int(const char* s, int64_t lo, int64_t hi) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi) return std::nullopt;
  return static_cast<int64_t>(v);
}

// A switch: 0 or 1.
std::optional<bool> as_switch(const char* s) {
  const std::optional<int64_t> v = as_int(s, 0, 1);
  if (!v) return std::nullopt;
  return *v != 0;
}

template <class E>
struct Word {
  const char* text;
  E value;
};

// One of a choice's words.
template <class E, size_t N>
std::optional<E> as_word(const char* s, const Word<E> (&words)[N]) {
  for (const Word<E>& w : words) {
    if (std::strcmp(s, w.text) == 0) return w.value;
  }
  return std::nullopt;
}

// The type a field holds (T for std::optional<T>).
template <class F>
struct Held {
  using type = F;
};
template <class T>
struct Held<std::optional<T>> {
  using type = T;
};

// Stores a parsed value in its field; false (field untouched) when the text
// did not parse.
template <class F, class V>
bool put(F& field, const std::optional<V>& v) {
  if (!v) return false;
  field = static_cast<typename Held<F>::type>(*v);
  return true;
}

const Word<CudaSplit> kCudaSplit[] = {
    {"copy", CudaSplit::kCopy}, {"filter", CudaSplit::kFilter}, {"none", CudaSplit::kNone}};
const Word<DensePred> kDensePred[] = {
    {"auto", DensePred::kAuto}, {"pass", DensePred::kPass}, {"track", DensePred::kTrack}};
const Word<HeapLayout> kHeapLayout[] = {{"interleaved", HeapLayout::kInterleaved},
                                        {"contiguous", HeapLayout::kContiguous}};
const Word<CudaFilter> kCudaFilter[] = {
    {"both", CudaFilter::kBoth}, {"global", CudaFilter::kGlobal}, {"none", CudaFilter::kNone}};
const Word<MpiTransport> kMpiTransport[] = {
    {"auto", MpiTransport::kAuto}, {"device", MpiTransport::kDevice}, {"host", MpiTransport::kHost}};

// A knob: its variable and how a (non-empty) value of it is stored; false
// when the value is ignored.
struct Knob {
  const char* name;
  bool (*set)(Tuning& t, const char* text);
};

constexpr int64_t kMaxSpinUs = 10000000;  // 10 s
constexpr int64_t kMaxWaves = int64_t(1) << 20;

const Knob kKnobs[] = {
    {"GSP_CPU_POOL", [](Tuning& t, const char* s) { return put(t.cpu_pool, as_switch(s)); }},
    {"GSP_CPU_POOL_SPIN_US",
     [](Tuning& t, const char* s) { return put(t.cpu_pool_spin_us, as_int(s, 0, kMaxSpinUs)); }},
    {"GSP_CPU_BARRIER_SPIN_US",
     [](Tuning& t, const char* s) { return put(t.cpu_barrier_spin_us, as_int(s, 0, kMaxSpinUs)); }},
    {"GSP_CPU_BARRIER_PAUSE", [](Tuning& t, const char* s) { return put(t.cpu_barrier_pause, as_switch(s)); }},
    {"GSP_CPU_DS_FUSE", [](Tuning& t, const char* s) { return put(t.cpu_ds_fuse, as_int(s, 0, int64_t(1) << 30)); }},
    {"GSP_DENSE_PRED", [](Tuning& t, const char* s) { return put(t.dense_pred, as_word(s, kDensePred)); }},
    {"GSP_DENSE_FW_BLOCK", [](Tuning& t, const char* s) { return put(t.dense_fw_block, as_int(s, 1, 8)); }},
    {"GSP_DENSE_FW_LOOKAHEAD", [](Tuning& t, const char* s) { return put(t.dense_fw_lookahead, as_switch(s)); }},
    {"GSP_DENSE_PINNED_CACHE", [](Tuning& t, const char* s) { return put(t.dense_pinned_cache, as_switch(s)); }},
    {"GSP_APSP_HEAP_LAYOUT", [](Tuning& t, const char* s) { return put(t.apsp_heap_layout, as_word(s, kHeapLayout)); }},
    {"GSP_APSP_TP_MAX_N", [](Tuning& t, const char* s) { return put(t.apsp_tp_max_n, as_int(s, 32, 65536)); }},
    {"GSP_CUDA_SSSP_POOL", [](Tuning& t, const char* s) { return put(t.cuda_sssp_pool, as_switch(s)); }},
    {"GSP_CUDA_PINNED_RESULTS", [](Tuning& t, const char* s) { return put(t.cuda_pinned_results, as_switch(s)); }},
    {"GSP_CUDA_DS_ONE_BUCKET", [](Tuning& t, const char* s) { return put(t.cuda_ds_one_bucket, as_switch(s)); }},
    {"GSP_CUDA_LOCAL_ROUNDS",
     [](Tuning& t, const char* s) { return put(t.cuda_local_rounds, as_int(s, 0, kMaxWaves)); }},
    {"GSP_CUDA_ELL", [](Tuning& t, const char* s) { return put(t.cuda_ell, as_switch(s)); }},
    {"GSP_CUDA_SPEC", [](Tuning& t, const char* s) { return put(t.cuda_spec, as_switch(s)); }},
    {"GSP_CUDA_PERSISTENT_BLOCKS_PER_SM",
     [](Tuning& t, const char* s) { return put(t.cuda_persistent_blocks_per_sm, as_int(s, 1, 4)); }},
    {"GSP_CUDA_FILTER", [](Tuning& t, const char* s) { return put(t.cuda_filter, as_word(s, kCudaFilter)); }},
    {"GSP_CUDA_HUB_ARCS", [](Tuning& t, const char* s) { return put(t.cuda_hub_arcs, as_int(s, 0, INT32_MAX)); }},
    {"GSP_CUDA_DS_DELTA_SCALE",
     [](Tuning& t, const char* s) { return put(t.cuda_ds_delta_scale, as_int(s, 1, int64_t(1) << 20)); }},
    {"GSP_CUDA_DS_SPLIT", [](Tuning& t, const char* s) { return put(t.cuda_ds_split, as_word(s, kCudaSplit)); }},
    {"GSP_CUDA_TRACE", [](Tuning& t, const char* s) { return put(t.cuda_trace, as_switch(s)); }},
    {"GSP_CUDA_BATCH_SOURCES",
     [](Tuning& t, const char* s) { return put(t.cuda_batch_sources, as_int(s, 1, INT32_MAX)); }},
    {"GSP_CUDA_SPMM_HUB_ARCS",
     [](Tuning& t, const char* s) { return put(t.cuda_spmm_hub_arcs, as_int(s, 1, INT32_MAX)); }},
    {"GSP_CUDA_INDEX_SWEEP_PER_SM",
     [](Tuning& t, const char* s) { return put(t.cuda_index_sweep_per_sm, as_int(s, 0, 32)); }},
    {"GSP_MPI_BLOCK_SIZE",
     [](Tuning& t, const char* s) {
       if (put(t.mpi_block_size, as_int(s, 1, 2048))) return true;
       t.mpi_block_size_rejected = s;
       return false;
     }},
    {"GSP_MPI_GRID",
     [](Tuning& t, const char* s) {
       t.mpi_grid = s;
       return true;
     }},
    {"GSP_MPI_TRACE", [](Tuning& t, const char* s) { return put(t.mpi_trace, as_switch(s)); }},
    {"GSP_MPI_TRANSPORT", [](Tuning& t, const char* s) { return put(t.mpi_transport, as_word(s, kMpiTransport)); }},
#if defined(GSP_TEST_HOOKS)
    // Test builds only (CMake defines GSP_TEST_HOOKS when the tests are built).
    {"GSP_MPI_TEST_FAIL_RANK",
     [](Tuning& t, const char* s) { return put(t.mpi_test_fail_rank, as_int(s, 0, INT_MAX)); }},
    {"GSP_MPI_TEST_FAIL_STEP",
     [](Tuning& t, const char* s) { return put(t.mpi_test_fail_step, as_int(s, 1, INT_MAX)); }},
    {"GSP_TEST_FAIL_DEVICE", [](Tuning& t, const char* s) { return put(t.test_fail_device, as_int(s, 0, INT_MAX)); }},
    {"GSP_TEST_RESULT_READY_DELAY_MS",
     [](Tuning& t, const char* s) { return put(t.test_result_ready_delay_ms, as_int(s, 1, 60000)); }},
    {"GSP_TEST_LOCK_PIECE_KB",
     [](Tuning& t, const char* s) {
       const std::optional<int64_t> kb = as_int(s, 4, 65536);
       return put(t.test_lock_piece_kb, kb && (*kb & (*kb - 1)) == 0 ? kb : std::optional<int64_t>());
     }},
#endif
};

}  // namespace

namespace {

// read_tuning over any callable lookup (tuning()'s keeps its variables).
template <class Lookup>
Tuning read_knobs(const Lookup& lookup, std::vector<std::string>* ignored) {
  Tuning t;
  for (const Knob& k : kKnobs) {
    const char* s = lookup(k.name);
    if (s == nullptr || *s == '\0') continue;  // unset or empty: the default
    if (!k.set(t, s) && ignored != nullptr) ignored->push_back(std::string(k.name) + "=" + s);
  }
  return t;
}

}  // namespace

Tuning read_tuning(const char* (*lookup)(const char* name), std::vector<std::string>* ignored) {
  return read_knobs(lookup, ignored);
}

Tuning tuning() {
  const GspVariables variables;
  return read_knobs(
      [&variables](const char* name) -> const char* {
#if defined(GSP_TEST_HOOKS)
        if (const char* v = tuning_override(name)) return v;  // a test's choice (tuning_override.cpp)
#endif
        return variables.find(name);
      },
      nullptr);
}

std::vector<std::string> tuning_variables() {
  std::vector<std::string> names;
  for (const Knob& k : kKnobs) names.emplace_back(k.name);
  return names;
}

}  // namespace gsp::detail
