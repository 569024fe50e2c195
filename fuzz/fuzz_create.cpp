// Fuzz target: gsp_graph_create and gsp_graph_create_csr with arbitrary
// arrays. The input decodes into the mode, n, the weight type (valid or not),
// flags (known bits or not), which arrays are NULL, and the arrays
// themselves. Array lengths always match what the call is told (the library
// cannot check a caller's buffer sizes), every value in them is arbitrary.
//
// Invariants: the status is documented; success iff every id is in range,
// every float weight is finite, CSR offsets are consistent, n >= 1, the flags
// and weight type are valid (or out of memory); on success the graph's CSR
// holds exactly the given arcs (per tail, in input order when directed; as a
// multiset with the reverse arcs when undirected).
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "fuzz_util.h"

namespace {

using fuzz::Bytes;
using fuzz::pick_id;
using fuzz::pick_n;
using fuzz::pick_weight;
using fuzz::weight_array;
using fuzz::weight_bytes;
using fuzz::weight_ok;

struct Arc {
  int32_t u, v;
  uint64_t w;  // weight bits (4 or 8 bytes of the weight type)
  bool operator<(const Arc& o) const { return std::tie(u, v, w) < std::tie(o.u, o.v, o.w); }
  bool operator==(const Arc& o) const { return u == o.u && v == o.v && w == o.w; }
};

uint64_t one(gsp_dtype t) { return t == GSP_F32 ? 0x3f800000u : t == GSP_F64 ? 0x3ff0000000000000ull : 1u; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const uint8_t mode = in.u8();
  const bool csr = (mode & 1) != 0;
  const uint8_t nulls = in.u8();  // bit 0 sources/offsets, 1 targets, 2 weights
  // The weight type as the int a C caller may pass (held as int here: an
  // out-of-range value in a C++ enum variable is itself undefined).
  const int32_t dtype_raw = fuzz::pick_dtype(in);
  const auto dtype = [dtype_raw] { return static_cast<gsp_dtype>(dtype_raw); };
  const uint32_t flags = fuzz::pick_graph_flags(in);
  const int32_t n = pick_n(in);
  const bool valid_dtype = dtype_raw == GSP_F32 || dtype_raw == GSP_I32 || dtype_raw == GSP_F64;
  // How weights are generated, and the caller's array (sized for the weight
  // type the call names, as a C caller's would be).
  const gsp_dtype wt = dtype_raw == GSP_I32 ? GSP_I32 : dtype_raw == GSP_F64 ? GSP_F64 : GSP_F32;
  const bool undirected = (flags & GSP_GRAPH_UNDIRECTED) != 0;

  bool expect_ok = valid_dtype && (flags & ~static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED)) == 0 && n >= 1;
  std::vector<Arc> given;
  gsp_graph* g = reinterpret_cast<gsp_graph*>(&g);
  gsp_status s;
  const bool null_w = (nulls & 4) != 0;

  if (!csr) {
    int64_t m = in.u8() % 96;
    int64_t claimed = m;
    if (in.u8() < 8) claimed = -static_cast<int64_t>(in.u8()) - 1;  // negative count with real arrays
    std::vector<int32_t> src(static_cast<size_t>(m)), dst(static_cast<size_t>(m));
    std::vector<uint64_t> w(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; i++) {
      src[i] = pick_id(in, n);
      dst[i] = pick_id(in, n);
      w[i] = null_w ? one(wt) : pick_weight(in, wt);
    }
    const std::vector<unsigned char> wa = weight_array(w, wt);
    const bool null_s = (nulls & 1) != 0 && (m == 0 || (nulls & 8));
    const bool null_t = (nulls & 2) != 0 && (m == 0 || (nulls & 8));
    if (claimed < 0) expect_ok = false;
    if ((null_s || null_t) && claimed > 0) expect_ok = false;
    for (int64_t i = 0; i < m && claimed >= 0; i++) {
      if (src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n) expect_ok = false;
      if (!weight_ok(w[i], wt)) expect_ok = false;
      given.push_back({src[i], dst[i], w[i]});
    }
    s = gsp_graph_create(&g, n, claimed, null_s ? nullptr : src.data(), null_t ? nullptr : dst.data(),
                         null_w ? nullptr : wa.data(), dtype(), flags);
  } else {
    // offsets: n+1 entries for a small n. The library cannot know the size of
    // a caller's array, so any other n goes with NULL offsets (which must be
    // refused before anything is read or allocated for n).
    const bool small_n = n >= 1 && n <= 64;
    std::vector<int64_t> off;
    if (small_n) off = fuzz::pick_offsets(in, n);
    // targets/weights sized by offsets[n] when that is a sane count.
    const int64_t last = small_n ? off[static_cast<size_t>(n)] : 0;
    const int64_t m = (last >= 0 && last <= 4096) ? last : 0;
    std::vector<int32_t> tgt(static_cast<size_t>(m) + 1);
    std::vector<uint64_t> w(static_cast<size_t>(m) + 1);
    for (int64_t i = 0; i < m; i++) {
      tgt[i] = pick_id(in, n);
      w[i] = null_w ? one(wt) : pick_weight(in, wt);
    }
    const std::vector<unsigned char> wa = weight_array(w, wt);
    bool consistent = small_n && off[0] == 0 && last >= 0 && last <= 4096;
    for (int32_t i = 0; consistent && i < n; i++)
      if (off[i] > off[i + 1]) consistent = false;
    const bool null_o = !small_n || (nulls & 1) != 0;
    const bool null_t = (nulls & 2) != 0 && (m == 0 || (nulls & 8));
    if (!small_n && n >= 1 && n <= 64) expect_ok = false;
    if (null_o || !consistent) expect_ok = false;
    if (null_t && m > 0) expect_ok = false;
    if (last > 4096) expect_ok = false;
    if (expect_ok) {
      for (int32_t u = 0; u < n; u++)
        for (int64_t k = off[u]; k < off[u + 1]; k++) {
          if (tgt[k] < 0 || tgt[k] >= n) expect_ok = false;
          if (!weight_ok(w[k], wt)) expect_ok = false;
          given.push_back({u, tgt[k], w[k]});
        }
    }
    if (last > 4096) {
      // offsets[n] too large to back with arrays: NULL targets, which the
      // library must refuse (targets NULL with offsets[n] > 0) without reading.
      s = gsp_graph_create_csr(&g, n, small_n ? off.data() : nullptr, nullptr, nullptr, dtype(), flags);
    } else {
      s = gsp_graph_create_csr(&g, n, null_o ? nullptr : off.data(), null_t ? nullptr : tgt.data(),
                               null_w ? nullptr : wa.data(), dtype(), flags);
    }
  }

  FUZZ_CHECK(fuzz::known_status(s), "status %d", static_cast<int>(s));
  if (s != GSP_OK) {
    FUZZ_CHECK(g == nullptr, "failed create left a handle");
    FUZZ_CHECK(gsp_last_error()[0] != '\0', "failure without a message");
    FUZZ_CHECK(!expect_ok || s == GSP_ERR_OUT_OF_MEMORY, "valid input rejected: %s: %s", gsp_status_name(s),
               gsp_last_error());
    FUZZ_CHECK(s == GSP_ERR_INVALID_ARGUMENT || s == GSP_ERR_INVALID_GRAPH || s == GSP_ERR_OUT_OF_MEMORY,
               "unexpected status %s: %s", gsp_status_name(s), gsp_last_error());
    return 0;
  }
  FUZZ_CHECK(expect_ok, "invalid input accepted (csr=%d n=%d dtype=%d flags=%u)", csr ? 1 : 0, n, dtype_raw, flags);
  FUZZ_CHECK(gsp_graph_num_vertices(g) == n, "n changed");
  FUZZ_CHECK(static_cast<int32_t>(gsp_graph_weight_type(g)) == dtype_raw, "dtype changed");

  if (n > (1 << 16)) {  // a huge vertex count (allowed up to the allocation cap): no per-vertex check
    FUZZ_CHECK(gsp_graph_num_edges(g) >= 0, "m");
    gsp_graph_destroy(g);
    return 0;
  }
  // Expected arcs per tail.
  std::vector<std::vector<Arc>> want(static_cast<size_t>(n));
  for (const Arc& a : given) {
    want[a.u].push_back(a);
    if (undirected && a.u != a.v) want[a.v].push_back({a.v, a.u, a.w});
  }
  size_t total = 0;
  for (auto& row : want) total += row.size();
  const int64_t m = gsp_graph_num_edges(g);
  FUZZ_CHECK(m == static_cast<int64_t>(total), "m = %lld, want %zu", static_cast<long long>(m), total);
  std::vector<int64_t> off(static_cast<size_t>(n) + 1);
  std::vector<int32_t> tgt(static_cast<size_t>(m) + 1);
  std::vector<unsigned char> wb((static_cast<size_t>(m) + 1) * weight_bytes(wt));
  FUZZ_CHECK(gsp_graph_csr(g, off.data(), tgt.data(), wb.data()) == GSP_OK, "gsp_graph_csr");
  auto w_at = [&](int64_t k) {
    uint64_t x = 0;
    if (weight_bytes(wt) == 8) {
      std::memcpy(&x, &wb[static_cast<size_t>(k) * 8], 8);
    } else {
      uint32_t y;
      std::memcpy(&y, &wb[static_cast<size_t>(k) * 4], 4);
      x = y;
    }
    return x;
  };
  FUZZ_CHECK(off[0] == 0 && off[static_cast<size_t>(n)] == m, "offsets ends");
  for (int32_t u = 0; u < n; u++) {
    std::vector<Arc> got;
    for (int64_t k = off[u]; k < off[u + 1]; k++) got.push_back({u, tgt[k], w_at(k)});
    std::vector<Arc> exp = want[u];
    if (undirected) {
      std::sort(got.begin(), got.end());
      std::sort(exp.begin(), exp.end());
    }
    FUZZ_CHECK(got == exp, "arcs of vertex %d differ from the input", u);
  }
  gsp_graph_destroy(g);
  return 0;
}
