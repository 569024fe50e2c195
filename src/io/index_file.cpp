// Road index files (gsp_index_save / gsp_index_load; doc/formats.md): a
// fixed header, then the hierarchy's arrays as they are in memory, with a
// checksum over them. A file is read and checked whole before anything
// uses it: sizes against the file's length, the checksum, then the
// structure queries rely on (offsets, ranks of every arc's ends, every
// shortcut's two halves present), so that a damaged or forged file is
// GSP_ERR_PARSE, never a crash or a search that does not end.
#include "io/index_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/ch_top_table.h"
#include "core/error.h"
#include "core/fnv1a.h"
#include "core/hardware_threads.h"
#include "core/weight_type.h"
#include "io/output_file.h"

namespace gsp::detail::io {

namespace {

constexpr char kMagic[8] = {'G', 'S', 'P', 'I', 'N', 'D', 'E', 'X'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kByteOrder = 0x01020304;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t byte_order;
  int32_t dtype;
  int32_t n;
  int64_t graph_arcs;
  uint64_t graph_fingerprint;
  int64_t shortcuts;
  int64_t out_arcs;
  int64_t in_arcs;
  uint64_t checksum;  // FNV-1a of every byte after the header
};
static_assert(sizeof(Header) == 72, "index file header layout");

struct Checksum {
  uint64_t h = kFnv1aStart;
  void add(const void* data, size_t bytes) { h = fnv1a(h, data, bytes); }
};

std::string os_reason(int err, const char* otherwise) { return err != 0 ? std::strerror(err) : otherwise; }

template <class T>
void write_array(OutputFile& out, const std::vector<T>& v, Checksum* sum) {
  sum->add(v.data(), v.size() * sizeof(T));
  out.write(v.data(), v.size() * sizeof(T));
}

template <class W>
void write_arcs(OutputFile& out, const ChArcs<W>& a, Checksum* sum) {
  write_array(out, a.offsets, sum);
  write_array(out, a.other, sum);
  write_array(out, a.weight, sum);
  write_array(out, a.middle, sum);
  write_array(out, a.last, sum);
}

// The whole file in memory, read through with checks.
class Input {
 public:
  explicit Input(const std::string& path) : path_(path) {
    errno = 0;
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (f == nullptr) throw Error(GSP_ERR_IO, "cannot open '" + path + "': " + os_reason(errno, "unknown error"));
    char chunk[1 << 16];
    for (;;) {
      const size_t got = std::fread(chunk, 1, sizeof chunk, f.get());
      data_.insert(data_.end(), chunk, chunk + got);
      if (got < sizeof chunk) break;
    }
    if (std::ferror(f.get()) != 0)
      throw Error(GSP_ERR_IO, "cannot read '" + path + "': " + os_reason(errno, "read error"));
  }
  [[noreturn]] void bad(const std::string& what) const {
    throw Error(GSP_ERR_PARSE, path_ + ": not a usable libgsp index file: " + what);
  }
  size_t size() const { return data_.size(); }
  const unsigned char* at(size_t offset) const { return data_.data() + offset; }
  template <class T>
  void array(size_t count, std::vector<T>* out) {
    out->resize(count);
    if (count > 0) std::memcpy(out->data(), at(pos_), count * sizeof(T));
    pos_ += count * sizeof(T);
  }
  void skip(size_t bytes) { pos_ += bytes; }

 private:
  std::string path_;
  std::vector<unsigned char> data_;
  size_t pos_ = 0;
};

// Bytes of the arrays of one direction with m arcs.
template <class W>
uint64_t arc_bytes(int32_t n, int64_t m) {
  return (static_cast<uint64_t>(n) + 1) * sizeof(int64_t) +
         static_cast<uint64_t>(m) * (3 * sizeof(int32_t) + sizeof(ChDist<W>));
}

template <class W>
void read_arcs(Input& in, int32_t n, int64_t m, ChArcs<W>* a) {
  in.array(static_cast<size_t>(n) + 1, &a->offsets);
  in.array(static_cast<size_t>(m), &a->other);
  in.array(static_cast<size_t>(m), &a->weight);
  in.array(static_cast<size_t>(m), &a->middle);
  in.array(static_cast<size_t>(m), &a->last);
}

// What queries rely on in one direction: offsets from 0 to m, every arc to
// a vertex of higher rank (a lower position), sorted, weights >= 0, a
// shortcut's middle below both ends in rank (its halves: link_halves),
// `last` a vertex of the graph.
template <class W>
void check_arcs(const Input& in, const ChHierarchy<W>& h, const ChArcs<W>& a, const char* name) {
  const int32_t n = h.n;
  if (a.offsets[0] != 0 || a.offsets[static_cast<size_t>(n)] != a.size())
    in.bad(std::string(name) + " offsets do not span its arcs");
  for (int32_t p = 0; p < n; ++p) {
    const int64_t b = a.offsets[static_cast<size_t>(p)], e = a.offsets[static_cast<size_t>(p) + 1];
    if (e < b || e > a.size()) in.bad(std::string(name) + " offsets leave their arcs at position " + std::to_string(p));
    for (int64_t k = b; k < e; ++k) {
      const int32_t o = a.other[static_cast<size_t>(k)], mid = a.middle[static_cast<size_t>(k)];
      const ChDist<W> w = a.weight[static_cast<size_t>(k)];
      if (o < 0 || o >= p || (k > b && a.other[static_cast<size_t>(k) - 1] >= o)) {
        in.bad(std::string(name) + " arc " + std::to_string(k) + " does not lead up the ranks in order");
      }
      if (!(w >= 0) || w >= ch_inf<W>()) in.bad(std::string(name) + " arc " + std::to_string(k) + " has a bad weight");
      if (a.last[static_cast<size_t>(k)] < 0 || a.last[static_cast<size_t>(k)] >= n) {
        in.bad(std::string(name) + " arc " + std::to_string(k) + " names no vertex");
      }
      if (mid != -1 && (mid <= p || mid >= n)) {
        in.bad(std::string(name) + " arc " + std::to_string(k) + " bypasses a vertex out of rank");
      }
    }
  }
}

template <class W>
std::unique_ptr<ChBase> read_hierarchy(Input& in, const Header& hd) {
  auto h = std::make_unique<ChHierarchy<W>>();
  h->n = hd.n;
  h->dtype = static_cast<gsp_dtype>(hd.dtype);
  h->graph_fingerprint = hd.graph_fingerprint;
  h->graph_arcs = hd.graph_arcs;
  h->shortcuts = hd.shortcuts;
  in.skip(sizeof(Header));
  in.array(static_cast<size_t>(hd.n), &h->vertex_at);
  read_arcs(in, hd.n, hd.out_arcs, &h->up_out);
  read_arcs(in, hd.n, hd.in_arcs, &h->up_in);
  h->position.assign(static_cast<size_t>(hd.n), -1);
  for (int32_t p = 0; p < hd.n; ++p) {
    const int32_t v = h->vertex_at[static_cast<size_t>(p)];
    if (v < 0 || v >= hd.n || h->position[static_cast<size_t>(v)] != -1)
      in.bad("the vertex order is not a permutation");
    h->position[static_cast<size_t>(v)] = p;
  }
  // Arcs are sorted by their other end (checked first), so that the
  // halves of every shortcut can be looked up.
  check_arcs(in, *h, h->up_out, "up_out");
  check_arcs(in, *h, h->up_in, "up_in");
  if (!link_halves(*h)) in.bad("a shortcut's halves are missing");
  make_top_table(*h, std::min(16, hardware_threads()));
  return h;
}

}  // namespace

void save_index(const ChBase& index, const std::string& path) {
  with_weight_type(index.dtype, [&](auto w0) {
    using W = decltype(w0);
    const auto& h = static_cast<const ChHierarchy<W>&>(index);
    OutputFile out(path);
    Header hd{};
    std::memcpy(hd.magic, kMagic, sizeof kMagic);
    hd.version = kVersion;
    hd.byte_order = kByteOrder;
    hd.dtype = static_cast<int32_t>(h.dtype);
    hd.n = h.n;
    hd.graph_arcs = h.graph_arcs;
    hd.graph_fingerprint = h.graph_fingerprint;
    hd.shortcuts = h.shortcuts;
    hd.out_arcs = h.up_out.size();
    hd.in_arcs = h.up_in.size();
    out.write(&hd, sizeof hd);  // the checksum goes in once the arrays are written
    Checksum sum;
    write_array(out, h.vertex_at, &sum);
    write_arcs(out, h.up_out, &sum);
    write_arcs(out, h.up_in, &sum);
    hd.checksum = sum.h;
    out.rewind();
    out.write(&hd, sizeof hd);
    out.close();
  });
}

std::unique_ptr<ChBase> load_index(const std::string& path) {
  Input in(path);
  Header hd{};
  if (in.size() < sizeof kMagic || std::memcmp(in.at(0), kMagic, sizeof kMagic) != 0) {
    in.bad("it does not start with GSPINDEX");
  }
  if (in.size() < sizeof hd) in.bad("shorter (" + std::to_string(in.size()) + " bytes) than its header (cut short)");
  std::memcpy(&hd, in.at(0), sizeof hd);
  if (hd.byte_order != kByteOrder) in.bad("written on a machine of another byte order");
  if (hd.version != kVersion) {
    in.bad("format version " + std::to_string(hd.version) + ", this library reads version " + std::to_string(kVersion));
  }
  if (hd.dtype != GSP_I32 && hd.dtype != GSP_F32 && hd.dtype != GSP_F64)
    in.bad("unknown weight type " + std::to_string(hd.dtype));
  if (hd.n < 0 || hd.out_arcs < 0 || hd.in_arcs < 0 || hd.shortcuts < 0 || hd.graph_arcs < 0) in.bad("negative sizes");
  const uint64_t expected = with_weight_type(static_cast<gsp_dtype>(hd.dtype), [&](auto w) {
    using W = decltype(w);
    // Bounded before they multiply: every arc takes at least 16 bytes of the file.
    if (static_cast<uint64_t>(hd.out_arcs) > in.size() / 16 || static_cast<uint64_t>(hd.in_arcs) > in.size() / 16 ||
        static_cast<uint64_t>(hd.n) > in.size() / 4) {
      in.bad("its sizes are larger than the file");
    }
    return sizeof(Header) + static_cast<uint64_t>(hd.n) * sizeof(int32_t) + arc_bytes<W>(hd.n, hd.out_arcs) +
           arc_bytes<W>(hd.n, hd.in_arcs);
  });
  if (expected != in.size()) {
    in.bad(std::to_string(in.size()) + " bytes where its header promises " + std::to_string(expected) +
           (in.size() < expected ? " (cut short)" : ""));
  }
  Checksum sum;
  sum.add(in.at(sizeof(Header)), in.size() - sizeof(Header));
  if (sum.h != hd.checksum) in.bad("checksum mismatch (the file is damaged)");
  return with_weight_type(static_cast<gsp_dtype>(hd.dtype),
                          [&](auto w) { return read_hierarchy<decltype(w)>(in, hd); });
}

}  // namespace gsp::detail::io
