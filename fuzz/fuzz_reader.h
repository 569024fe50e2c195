// One reader target: the first input byte chooses the options, the rest is
// the file. Bits of the first byte:
//   0: weight type (0 GSP_F32, 1 GSP_I32)    1: GSP_GRAPH_UNDIRECTED
//   2: write the file gzip-compressed        3: save + reload round trip
//   4: GSP_F64 instead (bit 0 ignored)
// The format is forced (GSP_FORMAT_FUZZ, defined by the including target).
// Invariants checked: the status is a documented one; a failed load leaves
// the handle NULL and a message; a loaded graph has consistent CSR arrays;
// saving it in the same format and loading it back gives the same CSR.
#pragma once

#include <cmath>
#include <vector>

#include "fuzz_util.h"

namespace fuzz {

inline int reader_one_input(const uint8_t* data, size_t size, gsp_format format, const char* ext) {
  if (size < 1) return 0;
  const uint8_t opt = data[0];
  const gsp_dtype dtype = (opt & 16) ? GSP_F64 : (opt & 1) ? GSP_I32 : GSP_F32;
  const uint32_t flags = (opt & 2) ? GSP_GRAPH_UNDIRECTED : 0;
  static const std::string in_path = temp_path("in");
  static const std::string out_path = temp_path((std::string("out") + ext).c_str());
  if (!write_file(in_path, data + 1, size - 1, (opt & 4) != 0)) fail("cannot write the temporary file");

  gsp_graph* g = reinterpret_cast<gsp_graph*>(&g);  // must be overwritten
  const gsp_status s = gsp_graph_load(&g, in_path.c_str(), format, dtype, flags);
  FUZZ_CHECK(known_status(s), "status %d", static_cast<int>(s));
  if (s != GSP_OK) {
    FUZZ_CHECK(g == nullptr, "failed load left a handle (%s)", gsp_status_name(s));
    FUZZ_CHECK(s == GSP_ERR_PARSE || s == GSP_ERR_INVALID_GRAPH || s == GSP_ERR_OUT_OF_MEMORY || s == GSP_ERR_IO,
               "unexpected status %s: %s", gsp_status_name(s), gsp_last_error());
    FUZZ_CHECK(gsp_last_error()[0] != '\0', "failure without a message (%s)", gsp_status_name(s));
    return 0;
  }
  FUZZ_CHECK(g != nullptr, "GSP_OK without a graph");
  if (static_cast<uint64_t>(gsp_graph_num_vertices(g)) + 1 > (uint64_t{64} << 20) / 8) {
    // A huge declared vertex count with few arcs loads cheaply (the offsets
    // are untouched zero pages); copying them would exceed this harness's
    // own 64 MiB block cap, so only the sizes are checked.
    FUZZ_CHECK(gsp_graph_num_edges(g) >= 0, "m < 0");
    gsp_graph_destroy(g);
    return 0;
  }
  const CsrCopy a = csr_of(g);
  FUZZ_CHECK(a.dtype == dtype, "dtype changed");

  if ((opt & 8) && a.m <= 100000 && a.n <= (1 << 20)) {
    const gsp_status ss = gsp_graph_save(g, out_path.c_str(), format);
    FUZZ_CHECK(ss == GSP_OK || ss == GSP_ERR_OUT_OF_MEMORY, "save: %s: %s", gsp_status_name(ss), gsp_last_error());
    if (ss == GSP_OK) {
      gsp_graph* h = nullptr;
      const gsp_status ls = gsp_graph_load(&h, out_path.c_str(), format, dtype, 0);
      FUZZ_CHECK(ls == GSP_OK || ls == GSP_ERR_OUT_OF_MEMORY, "reload of a saved graph: %s: %s", gsp_status_name(ls),
                 gsp_last_error());
      if (ls == GSP_OK) {
        const CsrCopy b = csr_of(h);
        FUZZ_CHECK(a.n == b.n && a.m == b.m, "round trip changed n/m: %d/%lld -> %d/%lld", a.n,
                   static_cast<long long>(a.m), b.n, static_cast<long long>(b.m));
        FUZZ_CHECK(a.offsets == b.offsets && a.targets == b.targets, "round trip changed the arcs");
        FUZZ_CHECK(a.weights == b.weights, "round trip changed a weight");
      }
      gsp_graph_destroy(h);
    }
  }
  gsp_graph_destroy(g);
  return 0;
}

}  // namespace fuzz
