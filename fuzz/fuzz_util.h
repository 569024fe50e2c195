// Shared by the fuzz targets (fuzz/*.cpp): a byte reader that turns fuzz
// input into values, temporary files, a check that aborts (so libFuzzer
// and the replay driver both report it) when an invariant breaks, the
// values of a caller's graph arrays, and reference shortest paths.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gsp/gsp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fuzz {

// Consumes the input from the front; past the end every value is 0.
class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  size_t left() const { return n_ - at_; }
  bool empty() const { return at_ >= n_; }
  uint8_t u8() { return at_ < n_ ? d_[at_++] : 0; }
  // Little-endian. The low part is read first, in its own statement: the
  // operands of | are unsequenced, and GCC reads `u8() | u8() << 8` high
  // byte first where clang (libFuzzer's compiler) reads it low byte first,
  // so a replay built with GCC decoded other values than the campaign found.
  uint16_t u16() {
    const uint16_t lo = u8();
    return static_cast<uint16_t>(lo | (u8() << 8));
  }
  uint32_t u32() {
    const uint32_t lo = u16();
    return lo | (static_cast<uint32_t>(u16()) << 16);
  }
  uint64_t u64() {
    const uint64_t lo = u32();
    return lo | (static_cast<uint64_t>(u32()) << 32);
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  bool flag() { return (u8() & 1) != 0; }
  // A value in [0, k) (k >= 1).
  uint32_t below(uint32_t k) { return k <= 256 ? u8() % k : u32() % k; }
  // The rest of the input.
  const uint8_t* rest(size_t* len) {
    *len = left();
    const uint8_t* p = d_ + at_;
    at_ = n_;
    return p;
  }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t at_ = 0;
};

// Aborts with a message: libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const char* what, const char* detail = "") {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s %s\n", what, detail);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                        \
  do {                                               \
    if (!(cond)) {                                   \
      char buf_[512];                                \
      std::snprintf(buf_, sizeof buf_, __VA_ARGS__); \
      ::fuzz::fail(#cond, buf_);                     \
    }                                                \
  } while (0)

// A per-process temporary file name (in /dev/shm when it exists), removed at
// exit. suffix distinguishes several files of one process.
std::string temp_path(const char* suffix);

// Writes bytes to path (optionally gzip-compressed); false on failure.
bool write_file(const std::string& path, const uint8_t* data, size_t size, bool gzip);

// Every status the library may answer, and nothing else.
inline bool known_status(gsp_status s) { return s >= GSP_OK && s <= GSP_ERR_INTERNAL; }

// ---- A caller's graph arrays (fuzz_create, fuzz_device) ------------------

// A weight type as the int a C caller may pass: mostly GSP_F32 or GSP_I32,
// sometimes 0 or any int (held as int: an out-of-range value in a C++ enum
// variable is itself undefined).
int32_t pick_dtype(Bytes& in);
// Graph flags: mostly 0 or GSP_GRAPH_UNDIRECTED, sometimes any bits.
uint32_t pick_graph_flags(Bytes& in);
// A vertex count: mostly 1..64, sometimes 0, negative or any int32.
int32_t pick_n(Bytes& in);
// A vertex id for n vertices: mostly in range, sometimes any int32.
int32_t pick_id(Bytes& in, int32_t n);
// n + 1 CSR offsets (1 <= n): arbitrary int64s, or small steps from 0 that
// occasionally decrease, sometimes with offsets[0] != 0.
std::vector<int64_t> pick_offsets(Bytes& in, int32_t n);
// The bits of one weight of type t (4 or 8 bytes): specials (NaN,
// infinities, extremes, -0, denormals), any bit pattern, or a small value
// (quarters from -8 for floats, a tiny non-quarter part added for GSP_F64;
// -32..223 for GSP_I32).
uint64_t pick_weight(Bytes& in, gsp_dtype t);
// Whether a weight of type t (its bits) is one the library must accept.
bool weight_ok(uint64_t bits, gsp_dtype t);
// Bytes of one weight of type t.
inline size_t weight_bytes(gsp_dtype t) { return t == GSP_F64 ? 8 : 4; }
// The weights as the caller's array of type t (8 spare bytes at the end).
std::vector<unsigned char> weight_array(const std::vector<uint64_t>& w, gsp_dtype t);

// ---- Reference shortest paths (fuzz_api, fuzz_device) --------------------

constexpr double kInf = std::numeric_limits<double>::infinity();

// What a target knows about a graph it created: its arcs (both directions
// of an undirected edge) with their weights as doubles.
struct Model {
  gsp_graph* g = nullptr;
  int32_t n = 0;
  gsp_dtype dtype = GSP_F32;
  std::vector<int32_t> src, dst;
  std::vector<double> w;
  bool negative = false;
};

// Exact single-source distances (Bellman-Ford in double; exact for the
// small weights the targets use); *neg_cycle when one is reachable from s.
std::vector<double> reference(const Model& m, int32_t s, bool* neg_cycle);

// Entry v of a row of distances of type t, as a double (kInf: unreachable).
double value_at(const void* row, gsp_dtype t, int32_t v);

// Checks one row of a successful run from s against the distances ref
// (kInf: unreachable): every distance equal, and every predecessor (pred
// may be null) -1 at s and at unreachable vertices, else the tail of an arc
// on a shortest path (ref[p] + w == ref[v]).
void check_row_against(const Model& m, int32_t s, const std::vector<double>& ref, const void* dist,
                       const int32_t* pred);

// check_row_against the reference, which must have no negative cycle
// reachable from s.
void check_row(const Model& m, int32_t s, const void* dist, const int32_t* pred);

// A graph's CSR arrays through the public getters, with the graph's own
// invariants checked (ids in range, offsets from 0 to m, never decreasing,
// finite float weights).
struct CsrCopy {
  int32_t n = 0;
  int64_t m = 0;
  gsp_dtype dtype = GSP_F32;
  std::vector<int64_t> offsets;
  std::vector<int32_t> targets;
  std::vector<unsigned char> weights;  // raw bytes of the weight type
};

inline CsrCopy csr_of(const gsp_graph* g) {
  CsrCopy c;
  c.n = gsp_graph_num_vertices(g);
  c.m = gsp_graph_num_edges(g);
  c.dtype = gsp_graph_weight_type(g);
  FUZZ_CHECK(c.n >= 1 && c.m >= 0, "n=%d m=%lld", c.n, static_cast<long long>(c.m));
  FUZZ_CHECK(c.dtype == GSP_F32 || c.dtype == GSP_I32 || c.dtype == GSP_F64, "dtype=%d", static_cast<int>(c.dtype));
  const size_t wsize = c.dtype == GSP_F64 ? 8 : 4;
  c.offsets.resize(static_cast<size_t>(c.n) + 1);
  c.targets.resize(static_cast<size_t>(c.m));
  c.weights.resize(static_cast<size_t>(c.m) * wsize);
  const gsp_status s = gsp_graph_csr(g, c.offsets.data(), c.targets.data(), c.weights.data());
  FUZZ_CHECK(s == GSP_OK, "gsp_graph_csr: %s", gsp_last_error());
  FUZZ_CHECK(c.offsets[0] == 0 && c.offsets[static_cast<size_t>(c.n)] == c.m, "offsets ends");
  for (int32_t v = 0; v < c.n; v++) FUZZ_CHECK(c.offsets[v] <= c.offsets[v + 1], "offsets decrease at %d", v);
  for (int64_t k = 0; k < c.m; k++) {
    FUZZ_CHECK(c.targets[k] >= 0 && c.targets[k] < c.n, "target %d out of range", c.targets[k]);
    if (c.dtype == GSP_F32) {
      float w;
      std::memcpy(&w, &c.weights[static_cast<size_t>(k) * 4], 4);
      FUZZ_CHECK(std::isfinite(w), "non-finite weight in a loaded graph");
    } else if (c.dtype == GSP_F64) {
      double w;
      std::memcpy(&w, &c.weights[static_cast<size_t>(k) * 8], 8);
      FUZZ_CHECK(std::isfinite(w), "non-finite weight in a loaded graph");
    }
  }
  return c;
}

}  // namespace fuzz
