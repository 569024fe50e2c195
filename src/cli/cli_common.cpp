// The gsp command's shared pieces (declared in cli.h): messages, number and
// list parsing, the progress bar, graph loading, run options, distance and
// path text, the argument parser and the helpers every command uses.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.h"
#include "gsp/gsp.h"
#include "svg.h"
#include "gsp_generators.h"

namespace gsp_cli {

void usage_error(const std::string& msg) { throw Exit{2, msg}; }
void failure(const std::string& msg) { throw Exit{1, msg}; }

std::string status_text(gsp_status s) {
  std::string name = gsp_status_name(s);
  const char* detail = gsp_last_error();
  if (detail == nullptr || !*detail) return name;
  return name + ": " + detail;
}

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string fmt(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20) {
      o += fmt("\\u%04x", c);
    } else {
      o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

int64_t parse_int(const std::string& opt, const std::string& s, int64_t lo, int64_t hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != 0 || errno != 0 || v < lo || v > hi)
    usage_error(fmt("%s: expected an integer in %lld..%lld, got '%s'", opt.c_str(), static_cast<long long>(lo),
                    static_cast<long long>(hi), s.c_str()));
  return v;
}

std::vector<int32_t> parse_vertex_list(const std::string& opt, const std::string& list, int32_t n) {
  std::vector<int32_t> out;
  size_t i = 0;
  while (i <= list.size()) {
    size_t j = list.find(',', i);
    if (j == std::string::npos) j = list.size();
    const std::string item = list.substr(i, j - i);
    const size_t dash = item.find('-', 1);
    int64_t lo, hi;
    if (dash == std::string::npos) {
      lo = hi = parse_int(opt, item, 0, n - 1);
    } else {
      lo = parse_int(opt, item.substr(0, dash), 0, n - 1);
      hi = parse_int(opt, item.substr(dash + 1), 0, n - 1);
      if (hi < lo) usage_error(fmt("%s: empty range '%s'", opt.c_str(), item.c_str()));
    }
    for (int64_t v = lo; v <= hi; v++) out.push_back(static_cast<int32_t>(v));
    i = j + 1;
  }
  return out;
}

void Progress::begin(bool quiet) {
  enabled = !quiet && isatty(STDERR_FILENO);
  start = now();
  last = 0;
  drawn = false;
}

void Progress::update(double f) {
  if (!enabled) return;
  const double t = now();
  if (t - start < 1.0 || t - last < 0.1) return;
  last = t;
  drawn = true;
  if (f < 0) f = 0;
  if (f > 1) f = 1;
  const int width = 30, fill = static_cast<int>(f * width);
  std::fprintf(stderr, "\r[%.*s%*s] %3d%%  %.1f s", fill, "##############################", width - fill, "",
               static_cast<int>(f * 100), t - start);
  std::fflush(stderr);
}

void Progress::end() {
  if (drawn) std::fprintf(stderr, "\r\033[K");
  drawn = false;
}

int progress_cb(void* user, double fraction) {
  static_cast<Progress*>(user)->update(fraction);
  return 0;
}

const char* const kLoadHelp =
    "  --format F        auto (by extension: .gr[.gz] DIMACS, .mtx[.gz] Matrix Market,\n"
    "                    else edge list), dimacs, mtx, edges\n"
    "  --weights T       auto (i32 for DIMACS, f32 otherwise), f32, i32, f64\n"
    "  --undirected      add (v,u) for every arc (u,v)\n";

const char* const kCommonHelp =
    "  --quiet, -q       print nothing but errors (and --json output)\n"
    "  --json            machine-readable output on stdout\n"
    "  --help, -h        this text\n";

static bool ends_with(const std::string& s, const char* suffix) {
  const size_t k = std::strlen(suffix);
  return s.size() >= k && s.compare(s.size() - k, k, suffix) == 0;
}

void print_graph_line(FILE* rep, const std::string& path, const Loaded& l) {
  std::fprintf(rep, "graph:     %s, %d vertices, %lld arcs (loaded in %.3f s)\n", path.c_str(),
               gsp_graph_num_vertices(l.g), static_cast<long long>(gsp_graph_num_edges(l.g)), l.seconds);
}

void load(Loaded& out, const Args& a, const std::string& path) {
  gsp_format format = GSP_FORMAT_AUTO;
  const std::string f = a.get("--format", "auto");
  if (f == "dimacs" || f == "gr")
    format = GSP_FORMAT_DIMACS;
  else if (f == "mtx" || f == "matrix-market")
    format = GSP_FORMAT_MATRIX_MARKET;
  else if (f == "edges" || f == "edge-list")
    format = GSP_FORMAT_EDGE_LIST;
  else if (f != "auto")
    usage_error("--format: expected auto, dimacs, mtx or edges, got '" + f + "'");
  const bool dimacs = format == GSP_FORMAT_DIMACS ||
                      (format == GSP_FORMAT_AUTO && (ends_with(path, ".gr") || ends_with(path, ".gr.gz")));
  gsp_dtype dtype = dimacs ? GSP_I32 : GSP_F32;
  const std::string w = a.get("--weights", "auto");
  if (w == "f32")
    dtype = GSP_F32;
  else if (w == "i32")
    dtype = GSP_I32;
  else if (w == "f64")
    dtype = GSP_F64;
  else if (w != "auto")
    usage_error("--weights: expected auto, f32, i32 or f64, got '" + w + "'");
  const uint32_t flags = a.has("--undirected") ? static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED) : 0u;
  const double t0 = now();
  const gsp_status s = gsp_graph_load(&out.g, path.c_str(), format, dtype, flags);
  out.seconds = now() - t0;
  if (s != GSP_OK) failure("cannot load graph: " + status_text(s));
}

void start_device_early(const Args& a, bool large) {
  const std::string b = a.get("--backend", "auto");
  if (b == "cpu" || (b == "auto" && !large)) return;
  if (a.opt.count("--index")) return;                 // a road index answers on the CPU
  const bool one = a.get("--devices", "0") == "1";    // runs start on device 0
  (void)gsp_device_start(one ? 0 : GSP_ALL_DEVICES);  // GSP_ERR_NO_DEVICE: the run says so if it needs CUDA
}

static double parse_double(const std::string& opt, const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != 0 || !std::isfinite(v) || v < 0)
    usage_error(fmt("%s: expected a non-negative number, got '%s'", opt.c_str(), s.c_str()));
  return v;
}

void run_options(const Args& a, gsp_options& o, Progress* p) {
  gsp_options_init(&o);
  const std::string alg = a.get("--algorithm", "auto");
  if (alg != "auto") {
    gsp_algorithm id;
    if (gsp_algorithm_from_name(alg.c_str(), &id) != GSP_OK) {
      std::string names;
      for (int i = 1; i <= 64; i++) {
        const char* nm = gsp_algorithm_name(static_cast<gsp_algorithm>(i));
        if (std::strcmp(nm, "unknown") != 0) names += std::string(names.empty() ? "" : ", ") + nm;
      }
      usage_error("--algorithm: unknown algorithm '" + alg + "'; known: auto, " + names);
    }
    o.algorithm = id;
  }
  const std::string b = a.get("--backend", "auto");
  if (b == "cpu")
    o.backend = GSP_BACKEND_CPU;
  else if (b == "cuda")
    o.backend = GSP_BACKEND_CUDA;
  else if (b != "auto")
    usage_error("--backend: expected cpu, cuda or auto, got '" + b + "'");
  if (a.opt.count("--threads"))
    o.num_threads = static_cast<int32_t>(parse_int("--threads", a.get("--threads"), 0, 4096));
  if (a.opt.count("--delta")) o.delta = parse_double("--delta", a.get("--delta"));
  if (a.opt.count("--limit")) {
    const std::string l = a.get("--limit");
    o.limit = l == "inf" ? INFINITY : parse_double("--limit", l);
  }
  // --devices N: gsp_options.num_devices (0 AUTO, 1 one GPU, N exactly N
  // GPUs from the first on); the library checks N against the devices there
  // are when the run is on CUDA and ignores it on the CPU.
  if (a.opt.count("--devices"))
    o.num_devices = static_cast<int32_t>(parse_int("--devices", a.get("--devices"), 0, 4096));
  if (p != nullptr) {
    o.progress = progress_cb;
    o.progress_user = p;
  }
}

const char* dtype_name(gsp_dtype dtype) { return dtype == GSP_F32 ? "f32" : dtype == GSP_F64 ? "f64" : "i32"; }

std::string value_text(gsp_dtype dtype, double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt(dtype == GSP_F64 ? "%.17g" : "%.9g", x);
}

std::string dist_text(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) {
    const int32_t d = static_cast<const int32_t*>(row)[v];
    return d == GSP_I32_INF ? "inf" : std::to_string(d);
  }
  if (dtype == GSP_F64) {
    const double d = static_cast<const double*>(row)[v];
    return std::isinf(d) ? "inf" : fmt("%.17g", d);
  }
  const float d = static_cast<const float*>(row)[v];
  return std::isinf(d) ? "inf" : fmt("%.9g", static_cast<double>(d));
}

std::string dist_json(gsp_dtype dtype, const void* row, int32_t v) {
  const std::string t = dist_text(dtype, row, v);
  return t == "inf" ? "null" : t;
}

constexpr size_t kWriterBuffer = size_t(1) << 20;

Writer::Writer(FILE* f, const char* what) : f_(f), what_(what), buf_(kWriterBuffer) {}

void Writer::drain() {
  if (f_ == nullptr) return;  // in memory
  if (len_ > 0 && std::fwrite(buf_.data(), 1, len_, f_) != len_)
    failure(std::string("cannot write ") + what_ + ": " + std::strerror(errno));
  len_ = 0;
}

char* Writer::room(size_t bytes) {
  if (len_ + bytes > buf_.size()) {
    if (f_ == nullptr) {
      buf_.resize(std::max(buf_.size() * 2, len_ + bytes));
    } else {
      drain();
      if (bytes > buf_.size()) buf_.resize(bytes);
    }
  }
  return buf_.data() + len_;
}

void Writer::put(const char* s, size_t bytes) {
  std::memcpy(room(bytes), s, bytes);
  len_ += bytes;
}

Writer& Writer::operator<<(const std::string& s) {
  put(s.data(), s.size());
  return *this;
}

Writer& Writer::bytes(const char* s, size_t n) {
  put(s, n);
  return *this;
}

Writer& Writer::operator<<(const char* s) {
  put(s, std::strlen(s));
  return *this;
}

Writer& Writer::operator<<(char c) {
  put(&c, 1);
  return *this;
}

Writer& Writer::num(int64_t v) {
  char* p = room(24);
  len_ = static_cast<size_t>(std::to_chars(p, p + 24, v).ptr - buf_.data());
  return *this;
}

Writer& Writer::dist(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) {
    const int32_t d = static_cast<const int32_t*>(row)[v];
    return d == GSP_I32_INF ? (*this << "inf") : num(d);
  }
  const double d =
      dtype == GSP_F64 ? static_cast<const double*>(row)[v] : static_cast<double>(static_cast<const float*>(row)[v]);
  if (std::isinf(d)) return *this << "inf";
  char* p = room(32);
  const int k = std::snprintf(p, 32, dtype == GSP_F64 ? "%.17g" : "%.9g", d);
  len_ += static_cast<size_t>(std::clamp(k, 0, 31));
  return *this;
}

// The hot loop of a table with paths (hundreds of vertices a cell): one
// reservation a path, digits written in place.
Writer& Writer::path(const std::vector<int32_t>& path, const char* sep) {
  const size_t sl = std::strlen(sep);
  char* p = room(path.size() * (12 + sl));
  char* const start = buf_.data();
  for (size_t i = 0; i < path.size(); i++) {
    if (i) p = std::copy(sep, sep + sl, p);
    p = std::to_chars(p, p + 12, path[i]).ptr;
  }
  len_ = static_cast<size_t>(p - start);
  return *this;
}

void Writer::finish() {
  drain();
  if (std::fflush(f_) != 0) failure(std::string("cannot write ") + what_ + ": " + std::strerror(errno));
}

std::string path_text(const std::vector<int32_t>& path) {
  std::string s;
  for (size_t i = 0; i < path.size(); i++) s += (i ? " -> " : "") + std::to_string(path[i]);
  return s;
}

std::string path_json(const std::vector<int32_t>& path) {
  std::string s = "[";
  for (size_t i = 0; i < path.size(); i++) s += (i ? ", " : "") + std::to_string(path[i]);
  return s + "]";
}

}  // namespace gsp_cli

namespace gsp_cli {

// ------------------------------------------------------------------ arguments

namespace {
const std::set<std::string> kCommonFlags = {"--quiet", "--json", "--help"};
}  // namespace

Args parse_args(const Spec& spec, int argc, char** argv) {
  Args a;
  for (int i = 0; i < argc; i++) {
    std::string s = argv[i];
    if (s.size() > 1 && s[0] == '-' && !(s.size() > 1 && (std::isdigit(static_cast<unsigned char>(s[1]))))) {
      std::string key = s, value;
      bool inline_value = false;
      const size_t eq = s.find('=');
      if (s.rfind("--", 0) == 0 && eq != std::string::npos) {
        key = s.substr(0, eq);
        value = s.substr(eq + 1);
        inline_value = true;
      }
      if (key == "-o") key = "--out";
      if (key == "-h") key = "--help";
      if (key == "-q") key = "--quiet";
      if (spec.valued.count(key)) {
        if (!inline_value) {
          if (i + 1 >= argc) usage_error(fmt("option %s needs a value; see 'gsp %s --help'", key.c_str(), spec.name));
          value = argv[++i];
        }
        a.opt[key] = value;
      } else if (spec.flags.count(key) || kCommonFlags.count(key)) {
        if (inline_value) usage_error(fmt("option %s takes no value", key.c_str()));
        a.flag.insert(key);
      } else {
        usage_error(fmt("unknown option '%s' for 'gsp %s'; see 'gsp %s --help'", s.c_str(), spec.name, spec.name));
      }
    } else {
      a.pos.push_back(s);
    }
  }
  return a;
}

// ------------------------------------------------------------------ graphs and results

void get_csr(const gsp_graph* g, Csr& c) {
  c.n = gsp_graph_num_vertices(g);
  c.m = gsp_graph_num_edges(g);
  c.dtype = gsp_graph_weight_type(g);
  c.off.resize(static_cast<size_t>(c.n) + 1);
  c.dst.resize(static_cast<size_t>(c.m));
  void* w;
  if (c.dtype == GSP_F32) {
    c.wf.resize(static_cast<size_t>(c.m));
    w = c.wf.data();
  } else if (c.dtype == GSP_F64) {
    c.wd.resize(static_cast<size_t>(c.m));
    w = c.wd.data();
  } else {
    c.wi.resize(static_cast<size_t>(c.m));
    w = c.wi.data();
  }
  const gsp_status s = gsp_graph_csr(g, c.off.data(), c.dst.data(), c.m ? w : nullptr);
  if (s != GSP_OK) failure("cannot read the graph: " + status_text(s));
}

int32_t vertex_arg(const Args& a, const char* opt, int32_t n, bool required, int32_t def) {
  if (!a.opt.count(opt)) {
    if (required) usage_error(std::string("missing ") + opt + " VERTEX");
    return def;
  }
  const int64_t v = parse_int(opt, a.get(opt), 0, INT32_MAX);
  if (v >= n)
    usage_error(
        fmt("%s %lld: out of range, the graph has %d vertices (ids 0..%d)", opt, static_cast<long long>(v), n, n - 1));
  return static_cast<int32_t>(v);
}

const char* const kRunHelp =
    "  --algorithm A     auto or a name: dijkstra, bellman-ford, delta-stepping, ... \n"
    "  --backend B       auto (CUDA when usable; a job the CPU ends sooner than CUDA\n"
    "                    starts runs on the CPU), cpu, cuda\n"
    "  --threads N       CPU threads (0: all cores)\n"
    "  --delta D         delta-stepping bucket width (0: chosen from the graph)\n";

const char* const kLimitHelp =
    "  --limit D         distance limit: vertices farther than D are reported\n"
    "                    unreachable ('inf'); Dijkstra stops there (default: none)\n";

const char* const kDevicesHelp =
    "  --devices N       CUDA devices (GPUs) a run may use: 0 auto (the default:\n"
    "                    every GPU when that is estimated faster), 1 one GPU,\n"
    "                    N exactly N; ignored on the CPU\n";

const char* const kIndexHelp =
    "  --index FILE      answer from the road index FILE ('gsp index' of this graph,\n"
    "                    read with the same --format, --weights, --undirected):\n"
    "                    algorithm ch on the CPU, with --algorithm auto or ch\n";

void check_index_args(const Args& a) {
  const std::string alg = a.get("--algorithm", "auto");
  if (a.opt.count("--index")) {
    if (a.get("--index").empty()) usage_error("--index: expected an index FILE (made by 'gsp index')");
    if (alg != "auto" && alg != "ch")
      usage_error("--index answers with --algorithm auto or ch, not '" + alg + "'; leave --index out to run " + alg);
  } else if (alg == "ch") {
    usage_error("--algorithm ch answers from a road index: give --index FILE (made by 'gsp index')");
  }
}

void load_index(IndexHolder& h, const Args& a, const gsp_graph* g, gsp_options& o) {
  if (!a.opt.count("--index")) return;
  const double t0 = now();
  const gsp_status s = gsp_index_load(g, a.get("--index").c_str(), &h.ix);
  h.seconds = now() - t0;
  if (s != GSP_OK) failure("cannot load the index: " + status_text(s));
  o.index = h.ix;
}

void print_index_line(FILE* rep, const Args& a, const IndexHolder& h) {
  if (h.ix == nullptr) return;
  int64_t arcs = 0, shortcuts = 0;
  if (gsp_index_size(h.ix, nullptr, &arcs, &shortcuts) != GSP_OK) return;
  std::fprintf(rep, "index:     %s, %lld arcs, %lld shortcuts (loaded in %.3f s)\n", a.get("--index").c_str(),
               static_cast<long long>(arcs), static_cast<long long>(shortcuts), h.seconds);
}

std::string devices_text(const gsp_run_info& info) {
  return info.num_devices > 1 ? fmt(", on %d devices", info.num_devices) : std::string();
}

bool reachable(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) return static_cast<const int32_t*>(row)[v] != GSP_I32_INF;
  return !std::isinf(dist_value(dtype, row, v));
}

double dist_value(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) return static_cast<const int32_t*>(row)[v];
  if (dtype == GSP_F64) return static_cast<const double*>(row)[v];
  return static_cast<const float*>(row)[v];
}

RunInfo run_info(const gsp_paths* p) {
  RunInfo r;
  r.info.size = sizeof(gsp_run_info);
  if (gsp_paths_info(p, &r.info) != GSP_OK) failure("cannot read run info: " + status_text(GSP_ERR_INTERNAL));
  return r;
}

// The path source -> target; empty when unreachable.
std::vector<int32_t> get_path(const gsp_paths* p, int32_t s, int32_t t) {
  int32_t len = 0;
  gsp_status st = gsp_path_get(p, s, t, nullptr, 0, &len);
  if (st == GSP_ERR_NO_PATH) return {};
  if (st != GSP_OK && st != GSP_ERR_BUFFER_TOO_SMALL) failure("cannot get the path: " + status_text(st));
  std::vector<int32_t> v(static_cast<size_t>(len));
  st = gsp_path_get(p, s, t, v.data(), len, &len);
  if (st != GSP_OK) failure("cannot get the path: " + status_text(st));
  return v;
}

// "-" is standard output (the human summary then goes to stderr: see report_stream).
FILE* open_out(const std::string& path) {
  if (path == "-") return stdout;
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) failure("cannot create '" + path + "': " + std::strerror(errno));
  return f;
}

void close_out(FILE* f, const std::string& path) {
  const bool bad = std::ferror(f) != 0;
  const int rc = f == stdout ? std::fflush(f) : std::fclose(f);
  if (rc != 0 || bad) failure("cannot write '" + path + "': " + std::strerror(errno));
}

// Where the human-readable summary goes: stderr when --out - puts the data on stdout.
FILE* report_stream(const Args& a) {
  if (a.get("--out") != "-") return stdout;
  if (a.has("--json")) usage_error("--json and --out - both write to standard output; choose one");
  return stderr;
}

}  // namespace gsp_cli
