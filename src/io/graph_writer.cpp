// Graph file writers behind gsp_graph_save: DIMACS .gr, Matrix Market
// coordinate and edge lists, uncompressed, through one buffered writer that
// leaves no partial file behind on failure.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/error.h"
#include "io/io.h"
#include "io/output_file.h"

namespace gsp::detail::io {
namespace {

// Text through a 1 MiB buffer into an OutputFile.
class Writer {
 public:
  explicit Writer(const std::string& path) : out_(path) { buf_.reserve(kFlush + 256); }

  void str(const char* s) {
    buf_.append(s);
    maybe_flush();
  }
  void ch(char c) { buf_.push_back(c); }
  void num(int64_t v) {
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void weight(float v) {
    char tmp[48];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);  // shortest text that reads back exactly
    buf_.append(tmp, r.ptr);
  }
  void weight(double v) {
    char tmp[48];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);  // shortest text that reads back exactly
    buf_.append(tmp, r.ptr);
  }
  void weight(int32_t v) { num(v); }
  void end_line() {
    buf_.push_back('\n');
    maybe_flush();
  }
  void close() {
    flush();
    out_.close();
  }

 private:
  static constexpr size_t kFlush = size_t{1} << 20;
  void maybe_flush() {
    if (buf_.size() >= kFlush) flush();
  }
  void flush() {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

  OutputFile out_;
  std::string buf_;
};

template <class W>
void write_graph(const Graph& g, Writer& out, gsp_format format) {
  const CsrView<W> v = g.view<W>();
  const bool is_int = std::is_same_v<W, int32_t>;
  int base = 1;
  if (format == GSP_FORMAT_DIMACS) {
    out.str("c written by libgsp\np sp ");
    out.num(v.n);
    out.ch(' ');
    out.num(v.m);
    out.end_line();
  } else if (format == GSP_FORMAT_MATRIX_MARKET) {
    out.str(is_int ? "%%MatrixMarket matrix coordinate integer general\n"
                   : "%%MatrixMarket matrix coordinate real general\n");
    out.str("% written by libgsp: row = tail, column = head, value = weight\n");
    out.num(v.n);
    out.ch(' ');
    out.num(v.n);
    out.ch(' ');
    out.num(v.m);
    out.end_line();
  } else {
    base = 0;
    out.str("# libgsp edge list: tail head weight, 0-based ids\n# vertices ");
    out.num(v.n);
    out.str("\n# arcs ");
    out.num(v.m);
    out.end_line();
  }
  for (int32_t u = 0; u < v.n; u++) {
    for (int64_t k = v.offsets[u]; k < v.offsets[u + 1]; k++) {
      if (format == GSP_FORMAT_DIMACS) out.str("a ");
      out.num(int64_t{u} + base);
      out.ch(' ');
      out.num(int64_t{v.targets[k]} + base);
      out.ch(' ');
      out.weight(v.weights[k]);
      out.end_line();
    }
  }
}

}  // namespace

void save_graph(const Graph& graph, const std::string& path, gsp_format format) {
  require(format >= GSP_FORMAT_AUTO && format <= GSP_FORMAT_EDGE_LIST, GSP_ERR_INVALID_ARGUMENT,
          "format must be a gsp_format, got " + std::to_string(static_cast<int>(format)));
  require(!path.empty(), GSP_ERR_INVALID_ARGUMENT, "path must not be empty");
  require(!ends_with_ci(path, ".gz"), GSP_ERR_INVALID_ARGUMENT,
          "'" + path + "': graphs are saved uncompressed; save without '.gz' and compress the file afterwards");
  if (format == GSP_FORMAT_AUTO) format = format_from_name(path);
  Writer out(path);
  with_weight_type(graph.dtype(), [&](auto w) {
    using W = decltype(w);
    write_graph<W>(graph, out, format);
  });
  out.close();
}

}  // namespace gsp::detail::io
