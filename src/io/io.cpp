// Graph file readers: DIMACS .gr, Matrix Market coordinate, edge lists, any
// of them optionally gzip-compressed (the writers: graph_writer.cpp).
//
// Reading goes through zlib's gz* functions (which pass plain files through
// untouched) into a large buffer that is parsed by hand, line by line, with
// no per-line allocation, iostreams or sscanf. The arcs are collected as COO
// arrays and handed to build_graph_coo().
#include "io/io.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/graph_build.h"
#include "core/host_memory.h"
#include "io/inflate_ahead.h"

namespace gsp::detail::io {

bool ends_with_ci(const std::string& s, const char* suffix) {
  const size_t k = std::strlen(suffix);
  if (s.size() < k) return false;
  for (size_t i = 0; i < k; i++) {
    char a = s[s.size() - k + i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (a != suffix[i]) return false;
  }
  return true;
}

gsp_format format_from_name(const std::string& path) {
  if (ends_with_ci(path, ".gr") || ends_with_ci(path, ".gr.gz")) return GSP_FORMAT_DIMACS;
  if (ends_with_ci(path, ".mtx") || ends_with_ci(path, ".mtx.gz")) return GSP_FORMAT_MATRIX_MARKET;
  return GSP_FORMAT_EDGE_LIST;
}

namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// "'token'" for messages, shortened; "end of line" for an empty token.
std::string shown(const char* b, const char* e) {
  if (b == e) return "end of line";
  std::string s(b, static_cast<size_t>(e - b) > 40 ? 40 : static_cast<size_t>(e - b));
  if (static_cast<size_t>(e - b) > 40) s += "...";
  return "'" + s + "'";
}

// ------------------------------------------------------------------ input

// Reads a (possibly gzip-compressed) file line by line through one big buffer.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path) {
    // Buffers sized to the file: zlib's (in + 2x out) and the line buffer
    // start at the file's size when it is below their usual sizes (256 KiB,
    // 64 KiB), at least 8 KiB / 4 KiB. A small file then costs no large
    // allocation (per load, those were most of the time of loading tiny
    // files: mapped, faulted in and unmapped each time). The line buffer
    // grows to kReadSize while reads keep filling it. It is allocated before
    // the file is opened: a throwing constructor runs no destructor, so
    // nothing that needs closing may exist yet (found by tests/test_faults.cpp).
    size_t zbuf = 1u << 18, line_buf = 1u << 16, size = 0;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) {
      size = static_cast<size_t>(st.st_size);
      zbuf = std::min(zbuf, std::max<size_t>(size, 8192));
      line_buf = std::min(line_buf, std::max<size_t>(size + 1, 4096));
    }
    buf_.resize(line_buf);
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      const int err = errno;
      throw Error(GSP_ERR_IO, "cannot open '" + path + "': " + (err != 0 ? std::strerror(err) : "out of memory"));
    }
    gzbuffer(file_, static_cast<unsigned>(zbuf));
    // A large compressed file inflates on a thread beside the parser
    // (inflate_ahead.h); where none can be had, it is read here.
    if (size >= kAheadFrom && gzdirect(file_) == 0) {
      try {
        ahead_ = std::make_unique<InflateAhead>(file_);
      } catch (...) {
        ahead_.reset();
      }
    }
  }
  ~LineReader() {
    ahead_.reset();  // its thread stopped before the file closes
    if (file_ != nullptr) gzclose_r(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  const std::string& path() const { return path_; }
  int64_t line() const { return line_; }

  // The next line without its '\n'; false at the end of the file.
  bool next(const char** b, const char** e) {
    for (;;) {
      char* start = buf_.data() + begin_;
      char* stop = buf_.data() + end_;
      char* nl = static_cast<char*>(std::memchr(start, '\n', static_cast<size_t>(stop - start)));
      if (nl != nullptr) {
        *b = start;
        *e = nl;
        begin_ = static_cast<size_t>(nl + 1 - buf_.data());
        line_++;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        *b = start;
        *e = stop;
        begin_ = end_;
        line_++;
        return true;
      }
      fill();
    }
  }

  [[noreturn]] void fail(const std::string& expected, const char* b, const char* e) const {
    fail_at(line_, expected + ", got " + shown(b, e));
  }
  [[noreturn]] void fail_at(int64_t line, const std::string& what) const {
    throw Error(GSP_ERR_PARSE, path_ + ":" + std::to_string(line) + ": " + what);
  }

 private:
  void fill() {
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buf_.size() || (last_read_full_ && buf_.size() < kReadSize)) {
      buf_.resize(buf_.size() * 2);  // a line longer than the buffer, or a large file
    }
    const size_t want = buf_.size() - end_;
    const unsigned chunk = want > (1u << 30) ? (1u << 30) : static_cast<unsigned>(want);
    errno = 0;
    const int got =
        ahead_ != nullptr ? ahead_->read(buf_.data() + end_, chunk) : gzread(file_, buf_.data() + end_, chunk);
    if (got < 0) check_error();
    end_ += static_cast<size_t>(got);
    last_read_full_ = got > 0 && static_cast<unsigned>(got) == chunk;
    if (got == 0) {
      check_error();  // a truncated gzip stream ends with Z_BUF_ERROR, not -1
      eof_ = true;
    }
  }
  void check_error() {
    int code = Z_OK;
    const char* msg = gzerror(file_, &code);
    if (code == Z_OK) return;
    if (code == Z_ERRNO) {
      const int err = errno;
      throw Error(GSP_ERR_IO, "cannot read '" + path_ + "': " + (err != 0 ? std::strerror(err) : "read error"));
    }
    if (code == Z_MEM_ERROR) throw std::bad_alloc();
    throw Error(GSP_ERR_PARSE, path_ + ":" + std::to_string(line_ + 1) +
                                   ": expected more gzip data, got a truncated or corrupt stream (zlib: " +
                                   (msg != nullptr ? msg : "error") + ")");
  }

  static constexpr size_t kReadSize = size_t{1} << 22;
  static constexpr size_t kAheadFrom = size_t{1} << 20;  // compressed bytes
  std::string path_;
  gzFile file_ = nullptr;
  std::unique_ptr<InflateAhead> ahead_;
  bool last_read_full_ = false;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  int64_t line_ = 0;
};

// A cursor over one line's tokens.
struct Cursor {
  const char* p;
  const char* e;
  // Next whitespace-separated token, [tb, te); empty at the end of the line.
  void token(const char** tb, const char** te) {
    while (p < e && is_space(*p)) p++;
    *tb = p;
    while (p < e && !is_space(*p)) p++;
    *te = p;
  }
  bool at_end() {
    while (p < e && is_space(*p)) p++;
    return p == e;
  }
};

bool token_is(const char* b, const char* e, const char* word) {
  const size_t k = std::strlen(word);
  return static_cast<size_t>(e - b) == k && std::memcmp(b, word, k) == 0;
}

bool token_is_ci(const char* b, const char* e, const char* word) {
  const size_t k = std::strlen(word);
  if (static_cast<size_t>(e - b) != k) return false;
  for (size_t i = 0; i < k; i++) {
    char c = b[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

// Unsigned decimal integer, digits only, saturating at 2^62.
bool parse_uint(const char* b, const char* e, uint64_t* out) {
  if (b == e) return false;
  uint64_t v = 0;
  for (const char* p = b; p < e; p++) {
    const unsigned d = static_cast<unsigned>(*p - '0');
    if (d > 9) return false;
    v = v * 10 + d;
    if (v > (uint64_t{1} << 62)) v = uint64_t{1} << 62;
  }
  *out = v;
  return true;
}

// A vertex id in [base, base + n) (n < 0: unbounded below INT32_MAX), as a 0-based id.
int32_t parse_id(const LineReader& in, const char* b, const char* e, int64_t n, int base, const char* what) {
  uint64_t v = 0;
  const int64_t limit = n >= 0 ? n : int64_t{std::numeric_limits<int32_t>::max()} - 1;
  if (!parse_uint(b, e, &v) || v < static_cast<uint64_t>(base) ||
      v - static_cast<uint64_t>(base) >= static_cast<uint64_t>(limit)) {
    std::string range = std::to_string(base) + ".." + std::to_string(limit - 1 + base);
    in.fail(std::string("expected ") + what + " in " + range, b, e);
  }
  return static_cast<int32_t>(v - static_cast<uint64_t>(base));
}

// Whether a decimal number that from_chars found out of double's range is
// too large (rather than so small that it rounds to zero): the decimal
// exponent of its first non-zero digit is positive.
bool magnitude_overflows(const char* p, const char* e) {
  int64_t int_digits = 0, seen = 0, first_nonzero = -1;
  bool point = false;
  for (; p < e && *p != 'e' && *p != 'E'; p++) {
    if (*p == '.') {
      point = true;
      continue;
    }
    if (!point) int_digits++;
    if (*p != '0' && first_nonzero < 0) first_nonzero = seen;
    seen++;
  }
  int64_t exp = 0;
  if (p < e) {
    p++;
    bool eneg = false;
    if (p < e && (*p == '-' || *p == '+')) eneg = *p++ == '-';
    for (; p < e; p++) exp = std::min<int64_t>(exp * 10 + (*p - '0'), int64_t{1} << 40);
    if (eneg) exp = -exp;
  }
  return first_nonzero >= 0 && int_digits - first_nonzero - 1 + exp > 0;
}

// A weight of type W. Short integers are parsed directly; anything else
// through from_chars (locale-independent, correctly rounded: a double
// written with its shortest round-trip text, or with %.17g, reads back
// exactly). Rejects NaN/inf, values beyond W's range (1e400 for double,
// 1e39 for float) and, for int32, values that are not integers. A value so
// small that it rounds to zero in W reads as zero, as IEEE rounding says.
template <class W>
W parse_weight(const LineReader& in, const char* b, const char* e) {
  constexpr bool is_int = std::is_same_v<W, int32_t>;
  const char* range = is_int                     ? "expected a weight in the int32 range"
                      : std::is_same_v<W, float> ? "expected a weight in the float range"
                                                 : "expected a weight in the double range";
  const char* p = b;
  bool neg = false;
  if (p < e && (*p == '-' || *p == '+')) {
    neg = *p == '-';
    p++;
  }
  if (p < e && (*p == '-' || *p == '+')) in.fail("expected a number as weight", b, e);  // "--5", "+-5"
  uint64_t mag = 0;
  // Integers of up to 18 digits are exact in uint64 (parse_uint saturates
  // beyond); longer ones go through from_chars (1 and 39 zeros is 1e39).
  if ((is_int || e - p <= 18) && parse_uint(p, e, &mag)) {
    if constexpr (is_int) {
      const uint64_t lim = neg ? uint64_t{1} << 31 : (uint64_t{1} << 31) - 1;
      if (mag > lim) in.fail(range, b, e);
      return neg ? static_cast<int32_t>(-static_cast<int64_t>(mag)) : static_cast<int32_t>(mag);
    } else {
      const W w = static_cast<W>(mag);  // one correctly rounded conversion
      return neg ? -w : w;
    }
  }
  double d = 0;
  const auto r = std::from_chars(p, e, d);
  if (p == e || r.ec == std::errc::invalid_argument || r.ptr != e) in.fail("expected a number as weight", b, e);
  if (r.ec == std::errc::result_out_of_range) {
    if (magnitude_overflows(p, e)) in.fail(range, b, e);
    if (is_int) in.fail("expected an integer weight (the weight type is int32)", b, e);
    return neg ? W(-0.0) : W(0);  // below the smallest subnormal: rounds to zero
  }
  if (!std::isfinite(d)) in.fail("expected a finite weight", b, e);
  if constexpr (is_int) {
    if (neg) d = -d;
    if (d != std::floor(d)) in.fail("expected an integer weight (the weight type is int32)", b, e);
    if (d < -2147483648.0 || d > 2147483647.0) in.fail(range, b, e);
    return static_cast<int32_t>(d);
  } else if constexpr (std::is_same_v<W, float>) {
    if (d > static_cast<double>(std::numeric_limits<float>::max())) in.fail(range, b, e);
    float f = 0;  // parsed once more as float: correctly rounded, not rounded twice through double
    const auto rf = std::from_chars(p, e, f);
    if (rf.ec == std::errc::result_out_of_range) f = 0;  // in range, so it rounds to zero
    return neg ? -f : f;
  } else {
    return neg ? -d : d;
  }
}

template <class W>
struct Arcs {
  std::vector<int32_t> src, dst;
  std::vector<W> w;
  int64_t declared = 0;  // the header's arc count
  // Sized from the file's header, but capped: a bogus header must not
  // allocate gigabytes up front. Once the file has filled the cap, the
  // vectors take the declared count in one step (doubling 2^31 arcs would
  // hold 1.5 times the arcs while it copies), and grow past it as needed.
  // First, a header whose sizes cannot fit is refused at once, at its line:
  // the arcs as read ((8 + sizeof(W)) m) plus the graph built from them.
  void reserve(const LineReader& in, int64_t n, int64_t m, bool undirected) {
    const uint64_t need = bytes_add(bytes_mul(8 + sizeof(W), static_cast<uint64_t>(m)),
                                    graph_build_bytes(static_cast<int32_t>(n), m, undirected, dtype_of<W>()));
    require_host_memory(need, in.path() + ":" + std::to_string(in.line()) + ": the declared " + std::to_string(n) +
                                  " vertices and " + std::to_string(m) + " arcs (as read, then as a graph)");
    declared = m;
    if (m <= 0) return;
    reserve_arcs(std::min(m, kReserveCap));
  }
  void reserve_arcs(int64_t m) {
    const size_t k = static_cast<size_t>(m);
    src.reserve(k);
    dst.reserve(k);
    w.reserve(k);
  }
  void add(int32_t u, int32_t v, W x) {
    if (src.size() == src.capacity() && src.size() >= static_cast<size_t>(kReserveCap) &&
        declared > static_cast<int64_t>(src.size())) {
      reserve_arcs(declared);
    }
    src.push_back(u);
    dst.push_back(v);
    w.push_back(x);
  }
  int64_t size() const { return static_cast<int64_t>(src.size()); }
  static constexpr int64_t kReserveCap = int64_t{1} << 26;
  GraphPtr build(int32_t n, gsp_dtype dtype, bool undirected) const {
    return build_graph_coo(n, size(), src.data(), dst.data(), w.data(), dtype, undirected);
  }
};

// ------------------------------------------------------------------ DIMACS

template <class W>
GraphPtr read_dimacs(LineReader& in, gsp_dtype dtype, bool undirected) {
  Arcs<W> arcs;
  int64_t n = -1, m = -1, p_line = 0;
  const char *b, *e, *tb, *te;
  while (in.next(&b, &e)) {
    Cursor c{b, e};
    c.token(&tb, &te);
    if (tb == te) continue;  // blank line
    if (*tb == 'a' && te == tb + 1) {
      if (n < 0) in.fail("expected a 'p sp N M' line before the first arc", tb, te);
      if (arcs.size() == m)
        in.fail("expected no more than " + std::to_string(m) + " arcs (p line at line " + std::to_string(p_line) +
                    "), got another arc",
                tb, te);
      c.token(&tb, &te);
      const int32_t u = parse_id(in, tb, te, n, 1, "a tail vertex id");
      c.token(&tb, &te);
      const int32_t v = parse_id(in, tb, te, n, 1, "a head vertex id");
      c.token(&tb, &te);
      if (tb == te) in.fail("expected a weight", tb, te);
      const W w = parse_weight<W>(in, tb, te);
      if (!c.at_end()) {
        c.token(&tb, &te);
        in.fail("expected end of line after 'a U V W'", tb, te);
      }
      arcs.add(u, v, w);
    } else if (*tb == 'c') {
      continue;  // comment
    } else if (*tb == 'p' && te == tb + 1) {
      if (n >= 0) in.fail("expected one 'p' line (the first is at line " + std::to_string(p_line) + ")", tb, te);
      c.token(&tb, &te);
      if (!token_is(tb, te, "sp")) in.fail("expected 'sp' after 'p'", tb, te);
      uint64_t nn = 0, mm = 0;
      c.token(&tb, &te);
      if (!parse_uint(tb, te, &nn) || nn < 1 || nn > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
        in.fail("expected a vertex count in 1..2147483647", tb, te);
      c.token(&tb, &te);
      if (!parse_uint(tb, te, &mm) || mm >= (uint64_t{1} << 62)) in.fail("expected an arc count", tb, te);
      if (!c.at_end()) {
        c.token(&tb, &te);
        in.fail("expected end of line after 'p sp N M'", tb, te);
      }
      n = static_cast<int64_t>(nn);
      m = static_cast<int64_t>(mm);
      p_line = in.line();
      arcs.reserve(in, n, m, undirected);
    } else {
      in.fail("expected a 'c', 'p' or 'a' line", tb, te);
    }
  }
  if (n < 0) in.fail_at(in.line(), "expected a 'p sp N M' line, got end of file");
  if (arcs.size() != m)
    in.fail_at(in.line(), "expected " + std::to_string(m) + " arcs (p line at line " + std::to_string(p_line) +
                              "), got " + std::to_string(arcs.size()));
  return arcs.build(static_cast<int32_t>(n), dtype, undirected);
}

// ------------------------------------------------------------------ Matrix Market

template <class W>
GraphPtr read_matrix_market(LineReader& in, gsp_dtype dtype, bool undirected) {
  const char *b, *e, *tb, *te;
  if (!in.next(&b, &e)) in.fail_at(1, "expected a '%%MatrixMarket' header, got end of file");
  Cursor c{b, e};
  c.token(&tb, &te);
  if (!token_is_ci(tb, te, "%%matrixmarket")) in.fail("expected a '%%MatrixMarket' header", tb, te);
  c.token(&tb, &te);
  if (!token_is_ci(tb, te, "matrix")) in.fail("expected 'matrix'", tb, te);
  c.token(&tb, &te);
  if (!token_is_ci(tb, te, "coordinate")) in.fail("expected 'coordinate'", tb, te);
  c.token(&tb, &te);
  bool pattern = false;
  if (token_is_ci(tb, te, "pattern")) {
    pattern = true;
  } else if (!token_is_ci(tb, te, "real") && !token_is_ci(tb, te, "integer") && !token_is_ci(tb, te, "double")) {
    in.fail("expected 'real', 'integer' or 'pattern'", tb, te);
  }
  c.token(&tb, &te);
  int symmetry = 0;  // 0 general, 1 symmetric, 2 skew-symmetric
  if (token_is_ci(tb, te, "symmetric")) {
    symmetry = 1;
  } else if (token_is_ci(tb, te, "skew-symmetric")) {
    symmetry = 2;
  } else if (!token_is_ci(tb, te, "general")) {
    in.fail("expected 'general', 'symmetric' or 'skew-symmetric'", tb, te);
  }
  if (!c.at_end()) {
    c.token(&tb, &te);
    in.fail("expected end of line after the header", tb, te);
  }

  int64_t n = -1, nnz = -1, size_line = 0, entries = 0;
  Arcs<W> arcs;
  while (in.next(&b, &e)) {
    c = Cursor{b, e};
    c.token(&tb, &te);
    if (tb == te || *tb == '%') continue;  // blank line or comment
    if (n < 0) {
      uint64_t rows = 0, cols = 0, k = 0;
      if (!parse_uint(tb, te, &rows) || rows < 1 || rows > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
        in.fail("expected a row count in 1..2147483647", tb, te);
      c.token(&tb, &te);
      if (!parse_uint(tb, te, &cols) || cols != rows)
        in.fail("expected a column count equal to the row count " + std::to_string(rows), tb, te);
      c.token(&tb, &te);
      if (!parse_uint(tb, te, &k) || k >= (uint64_t{1} << 62)) in.fail("expected an entry count", tb, te);
      if (!c.at_end()) {
        c.token(&tb, &te);
        in.fail("expected end of line after 'ROWS COLS ENTRIES'", tb, te);
      }
      n = static_cast<int64_t>(rows);
      nnz = static_cast<int64_t>(k);
      size_line = in.line();
      arcs.reserve(in, n, symmetry ? 2 * nnz : nnz, undirected);
      continue;
    }
    if (entries == nnz)
      in.fail("expected end of file after " + std::to_string(nnz) + " entries (size line at line " +
                  std::to_string(size_line) + ")",
              tb, te);
    const int32_t u = parse_id(in, tb, te, n, 1, "a row index");
    c.token(&tb, &te);
    const int32_t v = parse_id(in, tb, te, n, 1, "a column index");
    W w = W(1);
    if (!pattern) {
      c.token(&tb, &te);
      if (tb == te) in.fail("expected a value", tb, te);
      w = parse_weight<W>(in, tb, te);
    }
    if (!c.at_end()) {
      c.token(&tb, &te);
      in.fail(pattern ? "expected end of line after 'I J' (pattern matrix)" : "expected end of line after 'I J V'", tb,
              te);
    }
    entries++;
    arcs.add(u, v, w);
    if (symmetry != 0 && u != v) {
      W mirrored = w;
      if (symmetry == 2) {
        if constexpr (std::is_same_v<W, int32_t>) {
          if (w == std::numeric_limits<int32_t>::min())
            in.fail("expected a value whose negation fits int32 (skew-symmetric)", tb, te);
        }
        mirrored = -w;
      }
      arcs.add(v, u, mirrored);
    }
  }
  if (n < 0) in.fail_at(in.line(), "expected a 'ROWS COLS ENTRIES' line, got end of file");
  if (entries != nnz)
    in.fail_at(in.line(), "expected " + std::to_string(nnz) + " entries (size line at line " +
                              std::to_string(size_line) + "), got " + std::to_string(entries));
  return arcs.build(static_cast<int32_t>(n), dtype, undirected);
}

// ------------------------------------------------------------------ edge list

template <class W>
GraphPtr read_edge_list(LineReader& in, gsp_dtype dtype, bool undirected) {
  Arcs<W> arcs;
  int64_t n_hint = 0, max_id = -1;
  const char *b, *e, *tb, *te;
  while (in.next(&b, &e)) {
    const char* hash = static_cast<const char*>(std::memchr(b, '#', static_cast<size_t>(e - b)));
    Cursor c{b, hash != nullptr ? hash : e};
    c.token(&tb, &te);
    if (tb == te) {
      if (hash != nullptr) {  // a comment line; "# vertices N" sets the vertex count
        Cursor h{hash + 1, e};
        h.token(&tb, &te);
        if (token_is(tb, te, "vertices")) {
          h.token(&tb, &te);
          uint64_t k = 0;
          if (!parse_uint(tb, te, &k) || k < 1 || k > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
            in.fail("expected a vertex count in 1..2147483647 after '# vertices'", tb, te);
          if (static_cast<int64_t>(k) > n_hint) n_hint = static_cast<int64_t>(k);
        }
      }
      continue;
    }
    const int32_t u = parse_id(in, tb, te, -1, 0, "a tail vertex id");
    c.token(&tb, &te);
    const int32_t v = parse_id(in, tb, te, -1, 0, "a head vertex id");
    c.token(&tb, &te);
    W w = W(1);
    if (tb != te) {
      w = parse_weight<W>(in, tb, te);
      if (!c.at_end()) {
        c.token(&tb, &te);
        in.fail("expected end of line after 'U V W'", tb, te);
      }
    }
    if (u > max_id) max_id = u;
    if (v > max_id) max_id = v;
    arcs.add(u, v, w);
  }
  const int64_t n = max_id + 1 > n_hint ? max_id + 1 : n_hint;
  if (n < 1) in.fail_at(in.line(), "expected at least one arc or a '# vertices N' comment, got none");
  return arcs.build(static_cast<int32_t>(n), dtype, undirected);
}

}  // namespace

GraphPtr load_graph(const std::string& path, gsp_format format, gsp_dtype dtype, bool undirected) {
  require(dtype == GSP_F32 || dtype == GSP_I32 || dtype == GSP_F64, GSP_ERR_INVALID_ARGUMENT,
          "weight_type must be GSP_F32, GSP_I32 or GSP_F64, got " + std::to_string(static_cast<int>(dtype)));
  require(format >= GSP_FORMAT_AUTO && format <= GSP_FORMAT_EDGE_LIST, GSP_ERR_INVALID_ARGUMENT,
          "format must be a gsp_format, got " + std::to_string(static_cast<int>(format)));
  require(!path.empty(), GSP_ERR_INVALID_ARGUMENT, "path must not be empty");
  if (format == GSP_FORMAT_AUTO) format = format_from_name(path);
  LineReader in(path);
  return with_weight_type(dtype, [&](auto w) -> GraphPtr {
    using W = decltype(w);
    switch (format) {
      case GSP_FORMAT_DIMACS: return read_dimacs<W>(in, dtype, undirected);
      case GSP_FORMAT_MATRIX_MARKET: return read_matrix_market<W>(in, dtype, undirected);
      default: return read_edge_list<W>(in, dtype, undirected);
    }
  });
}

}  // namespace gsp::detail::io
