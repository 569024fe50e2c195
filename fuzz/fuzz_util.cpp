// Support code linked into every fuzz target (libFuzzer and replay builds).
//
// Allocation cap: a file may legally declare two billion vertices, and the
// library would then try to allocate (and zero) 16 GiB, which libFuzzer
// reports as an out-of-memory "crash". Replacing the global operator new
// (tests/support/alloc_hook.h, shared with tests/test_faults.cpp) with one that refuses any single block over
// kMaxBlock turns that into the documented GSP_ERR_OUT_OF_MEMORY answer, so
// the targets still cover huge headers without exhausting the machine. The
// library's host-memory checks are bounded the same way (below).
#include "fuzz_util.h"

#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <new>
#include <vector>

#include "support/alloc_hook.h"

namespace {
constexpr std::size_t kMaxBlock = std::size_t{64} << 20;
}  // namespace

bool alloc_hook_allow(std::size_t size) { return size <= kMaxBlock; }

// The library's own host-memory budget, as a caller under a memory limit
// meets it: every up-front check the library makes before an allocation
// that grows with n, m or n^2 (src/core/host_memory.h) refuses more than
// kMaxBlock, so a file or call declaring two billion vertices is answered
// GSP_ERR_OUT_OF_MEMORY before anything is allocated, whether through
// operator new or malloc (which the cap above does not see and libFuzzer's
// -malloc_limit_mb would report as a crash).
extern "C" int gsp_testhook_host_reserve(const char* what, uint64_t bytes) {
  (void)what;
  return bytes > kMaxBlock ? 1 : 0;
}

namespace {

std::vector<std::string>& temp_files() {
  static std::vector<std::string> files;
  return files;
}
void remove_temp_files() {
  for (const auto& f : temp_files()) std::remove(f.c_str());
}
}  // namespace

namespace fuzz {

std::string temp_path(const char* suffix) {
  const char* tmpdir = std::getenv("TMPDIR");
  const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (tmpdir != nullptr ? tmpdir : "/tmp");
  std::string p = std::string(dir) + "/gsp_fuzz_" + std::to_string(static_cast<long>(getpid())) + "_" + suffix;
  if (temp_files().empty()) std::atexit(remove_temp_files);
  for (const auto& f : temp_files())
    if (f == p) return p;
  temp_files().push_back(p);
  return p;
}

bool write_file(const std::string& path, const uint8_t* data, size_t size, bool gzip) {
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb1");
    if (f == nullptr) return false;
    bool ok = size == 0 || gzwrite(f, data, static_cast<unsigned>(size)) == static_cast<int>(size);
    ok = gzclose(f) == Z_OK && ok;
    return ok;
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  ok = std::fclose(f) == 0 && ok;
  return ok;
}

int32_t pick_dtype(Bytes& in) {
  switch (in.u8() % 8) {
    case 0: return in.i32();
    case 1: return 0;
    case 2:
    case 3:
    case 4: return GSP_F32;
    default: return GSP_I32;
  }
}

uint32_t pick_graph_flags(Bytes& in) {
  const uint8_t fb = in.u8();
  return fb < 16 ? in.u32() : ((fb & 1) ? static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED) : 0u);
}

int32_t pick_n(Bytes& in) {
  switch (in.u8() % 8) {
    case 0: return in.i32();                        // anything, mostly rejected or huge
    case 1: return -static_cast<int32_t>(in.u8());  // 0 and negatives
    default: return 1 + static_cast<int32_t>(in.u8() % 64);
  }
}

int32_t pick_id(Bytes& in, int32_t n) {
  const uint8_t k = in.u8();
  if (k < 8) return in.i32();  // arbitrary, usually out of range
  if (n <= 0) return static_cast<int32_t>(k) - 128;
  return static_cast<int32_t>(in.u8()) % n;
}

std::vector<int64_t> pick_offsets(Bytes& in, int32_t n) {
  std::vector<int64_t> off(static_cast<size_t>(n) + 1);
  int64_t at = 0;
  const uint8_t style = in.u8();
  for (int32_t i = 0; i <= n; i++) {
    if (style < 32) {
      off[i] = static_cast<int64_t>(in.u64());  // arbitrary
    } else {
      off[i] = at;
      at += in.u8() % 4;
      if (in.u8() == 0) at -= 2;  // occasionally decreasing
    }
  }
  if (in.u8() < 16) off[0] = static_cast<int64_t>(in.u8()) - 4;
  return off;
}

uint64_t pick_weight(Bytes& in, gsp_dtype dtype) {
  const uint8_t k = in.u8();
  if (dtype == GSP_F64) {
    double w;
    if (k < 6) {
      const double special[] = {NAN, INFINITY, -INFINITY, 1.7e308, -0.0, 5e-324};
      w = special[k];
    } else if (k < 12) {
      return in.u64();  // any bit pattern
    } else {
      w = static_cast<double>(static_cast<int>(in.u8()) - 32) / 4.0 + 1e-9 * in.u8();
    }
    uint64_t bits;
    std::memcpy(&bits, &w, 8);
    return bits;
  }
  uint32_t bits;
  if (dtype == GSP_F32) {
    float w;
    if (k < 6) {
      const float special[] = {NAN, INFINITY, -INFINITY, 3.0e38f, -0.0f, 1e-45f};
      w = special[k];
    } else if (k < 12) {
      bits = in.u32();
      return bits;  // any bit pattern: NaNs, denormals, huge
    } else {
      w = static_cast<float>(static_cast<int>(in.u8()) - 32) / 4.0f;
    }
    std::memcpy(&bits, &w, 4);
    return bits;
  }
  if (k < 12) return in.u32();
  return static_cast<uint32_t>(static_cast<int32_t>(in.u8()) - 32);
}

bool weight_ok(uint64_t bits, gsp_dtype t) {
  if (t == GSP_F32) {
    float w;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&w, &b, 4);
    return std::isfinite(w);
  }
  if (t == GSP_F64) {
    double w;
    std::memcpy(&w, &bits, 8);
    return std::isfinite(w);
  }
  return true;
}

std::vector<unsigned char> weight_array(const std::vector<uint64_t>& w, gsp_dtype t) {
  const size_t b = weight_bytes(t);
  std::vector<unsigned char> out(w.size() * b + 8);
  for (size_t i = 0; i < w.size(); i++) {
    if (b == 8) {
      std::memcpy(&out[i * 8], &w[i], 8);
    } else {
      const uint32_t x = static_cast<uint32_t>(w[i]);
      std::memcpy(&out[i * 4], &x, 4);
    }
  }
  return out;
}

std::vector<double> reference(const Model& m, int32_t s, bool* neg_cycle) {
  std::vector<double> d(static_cast<size_t>(m.n), kInf);
  d[s] = 0;
  *neg_cycle = false;
  for (int32_t round = 0; round <= m.n; round++) {
    bool changed = false;
    for (size_t i = 0; i < m.src.size(); i++) {
      if (d[m.src[i]] == kInf) continue;
      const double nd = d[m.src[i]] + m.w[i];
      if (nd < d[m.dst[i]]) {
        d[m.dst[i]] = nd;
        changed = true;
      }
    }
    if (!changed) return d;
    if (round == m.n) *neg_cycle = true;
  }
  return d;
}

double value_at(const void* row, gsp_dtype t, int32_t v) {
  if (t == GSP_F32) {
    float x;
    std::memcpy(&x, static_cast<const char*>(row) + static_cast<size_t>(v) * 4, 4);
    return std::isinf(x) && x > 0 ? kInf : static_cast<double>(x);
  }
  if (t == GSP_F64) {
    double x;
    std::memcpy(&x, static_cast<const char*>(row) + static_cast<size_t>(v) * 8, 8);
    return std::isinf(x) && x > 0 ? kInf : x;
  }
  int32_t x;
  std::memcpy(&x, static_cast<const char*>(row) + static_cast<size_t>(v) * 4, 4);
  return x == GSP_I32_INF ? kInf : static_cast<double>(x);
}

void check_row_against(const Model& m, int32_t s, const std::vector<double>& ref, const void* dist,
                       const int32_t* pred) {
  for (int32_t v = 0; v < m.n; v++) {
    const double got = value_at(dist, m.dtype, v);
    FUZZ_CHECK(got == ref[v], "dist(%d -> %d) = %g, want %g", s, v, got, ref[v]);
    if (pred == nullptr) continue;
    const int32_t p = pred[v];
    if (v == s || ref[v] == kInf) {
      FUZZ_CHECK(p == -1, "pred[%d] = %d from %d, want -1", v, p, s);
      continue;
    }
    FUZZ_CHECK(p >= 0 && p < m.n, "pred[%d] = %d out of range", v, p);
    bool tight = false;
    for (size_t i = 0; i < m.src.size() && !tight; i++)
      tight = m.src[i] == p && m.dst[i] == v && ref[p] + m.w[i] == ref[v];
    FUZZ_CHECK(tight, "pred[%d] = %d is not on a shortest path from %d", v, p, s);
  }
}

void check_row(const Model& m, int32_t s, const void* dist, const int32_t* pred) {
  bool neg = false;
  const std::vector<double> ref = reference(m, s, &neg);
  FUZZ_CHECK(!neg, "GSP_OK although a negative cycle is reachable from %d", s);
  check_row_against(m, s, ref, dist, pred);
}

}  // namespace fuzz
