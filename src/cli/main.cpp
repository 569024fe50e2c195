// The gsp command: generate, info, sssp, apsp, path, table. Built on the
// public C API (include/gsp/gsp.h) and the gsp_tools generators / coordinate
// reader. This file holds the dispatch, the help, the helpers declared in
// cli.h and the older commands; newer commands have a file each
// (cmd_table.cpp).
//
// Exit codes: 0 success, 1 failure (a file that cannot be read, a run that
// fails, a --check that disagrees, no path), 2 bad usage.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

// ------------------------------------------------------------------ shared (cli.h)

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
    "  --weights T       auto (i32 for DIMACS, f32 otherwise), f32, i32\n"
    "  --undirected      add (v,u) for every arc (u,v)\n";

const char* const kCommonHelp =
    "  --quiet, -q       print nothing but errors (and --json output)\n"
    "  --json            machine-readable output on stdout\n"
    "  --help, -h        this text\n";

static bool ends_with(const std::string& s, const char* suffix) {
  const size_t k = std::strlen(suffix);
  return s.size() >= k && s.compare(s.size() - k, k, suffix) == 0;
}

void load(Loaded& out, const Args& a, const std::string& path) {
  gsp_format format = GSP_FORMAT_AUTO;
  const std::string f = a.get("--format", "auto");
  if (f == "dimacs" || f == "gr") format = GSP_FORMAT_DIMACS;
  else if (f == "mtx" || f == "matrix-market") format = GSP_FORMAT_MATRIX_MARKET;
  else if (f == "edges" || f == "edge-list") format = GSP_FORMAT_EDGE_LIST;
  else if (f != "auto") usage_error("--format: expected auto, dimacs, mtx or edges, got '" + f + "'");
  const bool dimacs = format == GSP_FORMAT_DIMACS ||
                      (format == GSP_FORMAT_AUTO && (ends_with(path, ".gr") || ends_with(path, ".gr.gz")));
  gsp_dtype dtype = dimacs ? GSP_I32 : GSP_F32;
  const std::string w = a.get("--weights", "auto");
  if (w == "f32") dtype = GSP_F32;
  else if (w == "i32") dtype = GSP_I32;
  else if (w != "auto") usage_error("--weights: expected auto, f32 or i32, got '" + w + "'");
  const uint32_t flags = a.has("--undirected") ? static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED) : 0u;
  const double t0 = now();
  const gsp_status s = gsp_graph_load(&out.g, path.c_str(), format, dtype, flags);
  out.seconds = now() - t0;
  if (s != GSP_OK) failure("cannot load graph: " + status_text(s));
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
  if (b == "cpu") o.backend = GSP_BACKEND_CPU;
  else if (b == "cuda") o.backend = GSP_BACKEND_CUDA;
  else if (b != "auto") usage_error("--backend: expected cpu, cuda or auto, got '" + b + "'");
  if (a.opt.count("--threads")) o.num_threads = static_cast<int32_t>(parse_int("--threads", a.get("--threads"), 0, 4096));
  if (a.opt.count("--delta")) o.delta = parse_double("--delta", a.get("--delta"));
  if (p != nullptr) {
    o.progress = progress_cb;
    o.progress_user = p;
  }
}

std::string dist_text(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) {
    const int32_t d = static_cast<const int32_t*>(row)[v];
    return d == GSP_I32_INF ? "inf" : std::to_string(d);
  }
  const float d = static_cast<const float*>(row)[v];
  return std::isinf(d) ? "inf" : fmt("%.9g", static_cast<double>(d));
}

std::string dist_json(gsp_dtype dtype, const void* row, int32_t v) {
  const std::string t = dist_text(dtype, row, v);
  return t == "inf" ? "null" : t;
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

namespace {

using namespace gsp_cli;

// ------------------------------------------------------------------ arguments

const std::set<std::string> kCommonFlags = {"--quiet", "--json", "--help"};

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

struct Csr {
  int32_t n = 0;
  int64_t m = 0;
  gsp_dtype dtype = GSP_F32;
  std::vector<int64_t> off;
  std::vector<int32_t> dst;
  std::vector<float> wf;
  std::vector<int32_t> wi;
  double weight(int64_t k) const { return dtype == GSP_F32 ? static_cast<double>(wf[k]) : static_cast<double>(wi[k]); }
};

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
  } else {
    c.wi.resize(static_cast<size_t>(c.m));
    w = c.wi.data();
  }
  const gsp_status s = gsp_graph_csr(g, c.off.data(), c.dst.data(), c.m ? w : nullptr);
  if (s != GSP_OK) failure("cannot read the graph: " + status_text(s));
}

int32_t vertex_arg(const Args& a, const char* opt, int32_t n, bool required, int32_t def = 0) {
  if (!a.opt.count(opt)) {
    if (required) usage_error(std::string("missing ") + opt + " VERTEX");
    return def;
  }
  const int64_t v = parse_int(opt, a.get(opt), 0, INT32_MAX);
  if (v >= n) usage_error(fmt("%s %lld: out of range, the graph has %d vertices (ids 0..%d)", opt,
                              static_cast<long long>(v), n, n - 1));
  return static_cast<int32_t>(v);
}

const char* kRunHelp =
    "  --algorithm A     auto or a name: dijkstra, bellman-ford, delta-stepping, ... \n"
    "  --backend B       auto (CUDA when usable; a job the CPU ends sooner than CUDA\n"
    "                    starts runs on the CPU), cpu, cuda\n"
    "  --threads N       CPU threads (0: all cores)\n"
    "  --delta D         delta-stepping bucket width (0: chosen from the graph)\n";

bool reachable(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) return static_cast<const int32_t*>(row)[v] != GSP_I32_INF;
  return !std::isinf(static_cast<const float*>(row)[v]);
}

double dist_value(gsp_dtype dtype, const void* row, int32_t v) {
  if (dtype == GSP_I32) return static_cast<const int32_t*>(row)[v];
  return static_cast<const float*>(row)[v];
}

RunInfo run_info(const gsp_paths* p) {
  RunInfo r;
  r.info.size = sizeof(gsp_run_info);
  if (gsp_paths_info(p, &r.info) != GSP_OK) failure("cannot read run info: " + status_text(GSP_ERR_INTERNAL));
  return r;
}

struct PathsHolder {
  gsp_paths* p = nullptr;
  ~PathsHolder() { gsp_paths_destroy(p); }
};

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

// ------------------------------------------------------------------ generate

const Spec kGenerate = {"generate",
                        "usage: gsp generate KIND --vertices N [--degree D] [--seed S] [--weights i32|f32]\n"
                        "                    [--max-weight W] [--coords FILE.co] -o FILE\n"
                        "\n"
                        "Writes a generated graph; the format follows FILE's extension (.gr DIMACS,\n"
                        ".mtx Matrix Market, else edge list). KIND is one of:\n"
                        "  random     fixed out-degree D (default 6) to random vertices\n"
                        "  rmat       R-MAT power law, N*D arcs (default D 6)\n"
                        "  grid       road-like 2-D grid, about N vertices, two-way streets\n"
                        "  ring       directed cycle\n"
                        "  complete   every arc u -> v, u != v\n"
                        "  dag        DAG with negative arcs, D arcs per vertex (default 3)\n"
                        "\n"
                        "  --vertices N      vertex count (grid: rounded up to rows x cols)\n"
                        "  --degree D        out-degree (random, rmat, dag)\n"
                        "  --seed S          random seed (default 1); same seed, same graph\n"
                        "  --weights T       i32 (default) or f32; weights are integers in 1..W\n"
                        "  --max-weight W    largest weight (default 100)\n"
                        "  --coords FILE     also write DIMACS coordinates (.co) for drawing\n"
                        "  --out, -o FILE    the graph file to write\n",
                        {"--vertices", "--degree", "--seed", "--weights", "--max-weight", "--coords", "--out"},
                        {}};

int cmd_generate(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one KIND (" + std::string(gsp_gen_kinds()) + ")");
  const std::string kind = a.pos[0];
  const std::string kinds = std::string(" ") + gsp_gen_kinds() + " ";
  if (kinds.find(" " + kind + " ") == std::string::npos)
    usage_error("unknown KIND '" + kind + "'; expected one of: " + gsp_gen_kinds());
  if (!a.opt.count("--vertices")) usage_error("missing --vertices N");
  if (!a.opt.count("--out")) usage_error("missing -o FILE");
  const int32_t n = static_cast<int32_t>(parse_int("--vertices", a.get("--vertices"), 1, INT32_MAX));
  const int32_t deg = static_cast<int32_t>(parse_int("--degree", a.get("--degree", "0"), 0, 1 << 20));
  const uint64_t seed = static_cast<uint64_t>(parse_int("--seed", a.get("--seed", "1"), 0, INT64_MAX));
  const int32_t maxw = static_cast<int32_t>(parse_int("--max-weight", a.get("--max-weight", "100"), 1, INT32_MAX));
  const std::string w = a.get("--weights", "i32");
  if (w != "i32" && w != "f32") usage_error("--weights: expected i32 or f32, got '" + w + "'");
  if (kind == "complete" && n > 46341) usage_error("--vertices: complete graphs are limited to 46341 vertices");
  const std::string out = a.get("--out");
  const double t0 = now();
  gsp_graph* g = nullptr;
  gsp_status s = gsp_gen_by_name(&g, kind.c_str(), n, deg, seed, w == "f32" ? GSP_F32 : GSP_I32, maxw);
  if (s != GSP_OK) failure("cannot generate the graph: " + status_text(s));
  Loaded holder;
  holder.g = g;
  s = gsp_graph_save(g, out.c_str(), GSP_FORMAT_AUTO);
  if (s != GSP_OK) failure("cannot save the graph: " + status_text(s));
  const int32_t nv = gsp_graph_num_vertices(g);
  if (a.opt.count("--coords")) {
    std::vector<double> xy(2 * static_cast<size_t>(nv));
    int32_t rows = 0, cols = 0;
    gsp_gen_grid_shape(n, &rows, &cols);
    for (int32_t v = 0; v < nv; v++) {
      if (kind == "grid") {
        const int32_t row = v / cols;  // integer division intended
        xy[2 * v] = v % cols;
        xy[2 * v + 1] = row;
      } else {  // a circle
        const double t = 2 * 3.14159265358979 * v / nv;
        xy[2 * v] = 1000 * std::cos(t);
        xy[2 * v + 1] = 1000 * std::sin(t);
      }
    }
    char err[512];
    if (gsp_coords_write(a.get("--coords").c_str(), nv, xy.data(), err, sizeof err) != 0) failure(err);
  }
  const double secs = now() - t0;
  if (a.has("--json")) {
    std::printf("{\"file\": %s, \"kind\": %s, \"vertices\": %d, \"arcs\": %lld, \"seed\": %llu, \"seconds\": %.6f}\n",
                json_str(out).c_str(), json_str(kind).c_str(), nv, static_cast<long long>(gsp_graph_num_edges(g)),
                static_cast<unsigned long long>(seed), secs);
  } else if (!a.has("--quiet")) {
    std::printf("wrote %s: %s graph, %d vertices, %lld arcs, %s weights (%.3f s)\n", out.c_str(), kind.c_str(), nv,
                static_cast<long long>(gsp_graph_num_edges(g)), w.c_str(), secs);
  }
  return 0;
}

// ------------------------------------------------------------------ info

const Spec kInfo = {"info",
                    std::string("usage: gsp info FILE [--source S]\n"
                                "\n"
                                "Vertices, arcs, out-degree statistics, weight range, weakly connected\n"
                                "components and the vertices reachable from S (default 0).\n"
                                "\n"
                                "  --source S        vertex to count reachable vertices from (0-based)\n")
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--source", "--format", "--weights"},
                    {"--undirected"}};

int32_t uf_find(std::vector<int32_t>& p, int32_t x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

int cmd_info(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  Loaded L;
  load(L, a, a.pos[0]);
  Csr c;
  get_csr(L.g, c);
  const int32_t src = vertex_arg(a, "--source", c.n, false, 0);
  int64_t min_deg = INT64_MAX, max_deg = 0, sinks = 0, loops = 0, negative = 0;
  double wmin = INFINITY, wmax = -INFINITY;
  std::vector<int32_t> parent(static_cast<size_t>(c.n));
  std::iota(parent.begin(), parent.end(), 0);
  for (int32_t u = 0; u < c.n; u++) {
    const int64_t d = c.off[u + 1] - c.off[u];
    min_deg = std::min(min_deg, d);
    max_deg = std::max(max_deg, d);
    if (d == 0) sinks++;
    for (int64_t k = c.off[u]; k < c.off[u + 1]; k++) {
      const int32_t v = c.dst[k];
      if (v == u) loops++;
      const double w = c.weight(k);
      wmin = std::min(wmin, w);
      wmax = std::max(wmax, w);
      if (w < 0) negative++;
      const int32_t ru = uf_find(parent, u), rv = uf_find(parent, v);
      if (ru != rv) parent[std::max(ru, rv)] = std::min(ru, rv);
    }
  }
  std::vector<int32_t> size(static_cast<size_t>(c.n), 0);
  int64_t components = 0, largest = 0;
  for (int32_t v = 0; v < c.n; v++) {
    const int32_t r = uf_find(parent, v);
    if (size[r]++ == 0) components++;
    largest = std::max<int64_t>(largest, size[r]);
  }
  // Reachable from src: BFS.
  std::vector<char> seen(static_cast<size_t>(c.n), 0);
  std::vector<int32_t> queue;
  queue.reserve(static_cast<size_t>(c.n));
  queue.push_back(src);
  seen[src] = 1;
  for (size_t i = 0; i < queue.size(); i++) {
    const int32_t u = queue[i];
    for (int64_t k = c.off[u]; k < c.off[u + 1]; k++) {
      if (!seen[c.dst[k]]) {
        seen[c.dst[k]] = 1;
        queue.push_back(c.dst[k]);
      }
    }
  }
  if (c.m == 0) wmin = wmax = 0;
  const char* wt = c.dtype == GSP_F32 ? "f32" : "i32";
  const double avg = static_cast<double>(c.m) / c.n;
  if (a.has("--json")) {
    std::printf(
        "{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"weight_type\": \"%s\", \"load_seconds\": %.6f, "
        "\"out_degree\": {\"min\": %lld, \"mean\": %.4f, \"max\": %lld}, \"sinks\": %lld, \"self_loops\": %lld, "
        "\"weight\": {\"min\": %.9g, \"max\": %.9g}, \"negative_arcs\": %lld, "
        "\"weak_components\": %lld, \"largest_component\": %lld, \"source\": %d, \"reachable\": %lld}\n",
        json_str(a.pos[0]).c_str(), c.n, static_cast<long long>(c.m), wt, L.seconds, static_cast<long long>(min_deg),
        avg, static_cast<long long>(max_deg), static_cast<long long>(sinks), static_cast<long long>(loops), wmin,
        wmax, static_cast<long long>(negative), static_cast<long long>(components), static_cast<long long>(largest),
        src, static_cast<long long>(queue.size()));
  } else if (!a.has("--quiet")) {
    std::printf("file:              %s (loaded in %.3f s)\n", a.pos[0].c_str(), L.seconds);
    std::printf("vertices:          %d\n", c.n);
    std::printf("arcs:              %lld\n", static_cast<long long>(c.m));
    std::printf("weight type:       %s\n", wt);
    std::printf("out-degree:        min %lld, mean %.2f, max %lld; %lld without out-arcs\n",
                static_cast<long long>(min_deg), avg, static_cast<long long>(max_deg), static_cast<long long>(sinks));
    std::printf("self-loops:        %lld\n", static_cast<long long>(loops));
    std::printf("weights:           %.9g .. %.9g (%lld negative)\n", wmin, wmax, static_cast<long long>(negative));
    std::printf("weak components:   %lld (largest: %lld vertices)\n", static_cast<long long>(components),
                static_cast<long long>(largest));
    std::printf("reachable from %d: %lld vertices\n", src, static_cast<long long>(queue.size()));
  }
  return 0;
}

// ------------------------------------------------------------------ sssp

const Spec kSssp = {"sssp",
                    std::string("usage: gsp sssp FILE --source S [--to T] [--out FILE] [--check] [options]\n"
                                "\n"
                                "Single-source shortest paths from S (0-based ids). Prints a summary, the\n"
                                "distance and path to T with --to, and writes every distance with --out\n"
                                "(lines 'VERTEX DISTANCE PREDECESSOR', 'inf' and -1 when unreachable).\n"
                                "\n"
                                "  --source S        source vertex\n"
                                "  --to T            print the distance and the path to T\n"
                                "  --out FILE        write all distances to FILE (-: standard output; the\n"
                                "                    summary then goes to stderr)\n"
                                "  --check           compare with the CPU Dijkstra (Bellman-Ford when weights\n"
                                "                    are negative); exit 1 on any difference\n")
                        .append(kRunHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--source", "--to", "--out", "--algorithm", "--backend", "--threads", "--delta", "--format",
                     "--weights"},
                    {"--check", "--undirected"}};

bool has_negative(const gsp_graph* g) {
  Csr c;
  get_csr(g, c);
  for (int64_t k = 0; k < c.m; k++)
    if (c.weight(k) < 0) return true;
  return false;
}

int cmd_sssp(const Args& a, bool path_mode) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  const char* src_opt = path_mode ? "--from" : "--source";
  if (!a.opt.count(src_opt)) usage_error(std::string("missing ") + src_opt + " VERTEX");
  if (path_mode && !a.opt.count("--to")) usage_error("missing --to VERTEX");
  if (path_mode && a.opt.count("--svg") && !a.opt.count("--coords"))
    usage_error("--svg needs --coords FILE.co (DIMACS coordinates)");
  Progress prog;
  gsp_options o;
  run_options(a, o, &prog);
  Loaded L;
  load(L, a, a.pos[0]);
  const int32_t n = gsp_graph_num_vertices(L.g);
  const gsp_dtype dtype = gsp_graph_weight_type(L.g);
  const int32_t s = vertex_arg(a, src_opt, n, true);
  const bool has_to = a.opt.count("--to") != 0;
  const int32_t t = vertex_arg(a, "--to", n, false, 0);
  const bool quiet = a.has("--quiet"), json = a.has("--json");
  FILE* const rep = report_stream(a);

  PathsHolder P;
  prog.begin(quiet || json);
  const gsp_status st = gsp_sssp_run(L.g, s, &o, &P.p);
  prog.end();
  if (st != GSP_OK) failure("sssp failed: " + status_text(st));
  const RunInfo ri = run_info(P.p);
  std::vector<char> rowbuf(static_cast<size_t>(n) * 4);
  void* row = rowbuf.data();
  gsp_status st2 = gsp_paths_distances(P.p, s, row, n);
  if (st2 != GSP_OK) failure("cannot read distances: " + status_text(st2));
  int64_t reached = 0;
  int32_t far = s;
  for (int32_t v = 0; v < n; v++) {
    if (!reachable(dtype, row, v)) continue;
    reached++;
    if (dist_value(dtype, row, v) > dist_value(dtype, row, far)) far = v;
  }

  std::vector<int32_t> path;
  if (has_to) path = get_path(P.p, s, t);

  // --check against the CPU reference.
  std::string check_msg;
  bool check_ok = true;
  if (a.has("--check")) {
    gsp_options ref;
    gsp_options_init(&ref);
    ref.backend = GSP_BACKEND_CPU;
    ref.algorithm = has_negative(L.g) ? GSP_SSSP_BELLMAN_FORD : GSP_SSSP_DIJKSTRA;
    ref.flags = GSP_NO_PATHS;
    PathsHolder R;
    const gsp_status rs = gsp_sssp_run(L.g, s, &ref, &R.p);
    if (rs != GSP_OK) failure("--check: the reference run failed: " + status_text(rs));
    std::vector<char> refbuf(static_cast<size_t>(n) * 4);
    if (gsp_paths_distances(R.p, s, refbuf.data(), n) != GSP_OK) failure("--check: cannot read distances");
    int64_t bad = 0;
    int32_t first = -1;
    for (int32_t v = 0; v < n; v++) {
      bool same;
      if (dtype == GSP_I32) {
        same = static_cast<const int32_t*>(row)[v] == reinterpret_cast<const int32_t*>(refbuf.data())[v];
      } else {
        const double x = static_cast<const float*>(row)[v], y = reinterpret_cast<const float*>(refbuf.data())[v];
        same = (std::isinf(x) && std::isinf(y)) || std::fabs(x - y) <= 1e-5 * (std::fabs(y) + 1.0);
      }
      if (!same) {
        if (first < 0) first = v;
        bad++;
      }
    }
    if (bad == 0) {
      check_msg = fmt("OK: all %d distances match the CPU %s", n, gsp_algorithm_name(ref.algorithm));
    } else {
      check_ok = false;
      check_msg = fmt("FAILED: %lld of %d distances differ from the CPU %s; first at vertex %d: %s, want %s",
                      static_cast<long long>(bad), n, gsp_algorithm_name(ref.algorithm), first,
                      dist_text(dtype, row, first).c_str(), dist_text(dtype, refbuf.data(), first).c_str());
    }
  }

  if (a.opt.count("--out")) {
    const std::string out = a.get("--out");
    FILE* f = open_out(out);
    std::vector<int32_t> pred(static_cast<size_t>(n), -1);
    const bool preds = gsp_paths_predecessors(P.p, s, pred.data(), n) == GSP_OK;
    std::fprintf(f, "# gsp sssp %s --source %d: vertex distance predecessor\n", a.pos[0].c_str(), s);
    for (int32_t v = 0; v < n; v++)
      std::fprintf(f, "%d %s %d\n", v, dist_text(dtype, row, v).c_str(), preds ? pred[v] : -1);
    close_out(f, out);
  }

  // SVG for gsp path.
  if (path_mode && a.opt.count("--svg")) {
    gsp_cli::write_svg(a.get("--svg"), a.get("--coords"), L.g, path);
  }

  if (json) {
    std::string j = fmt("{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, \"source\": %d, ",
                        json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds, s);
    j += ri.json() + fmt(", \"reached\": %lld, \"farthest\": {\"vertex\": %d, \"distance\": %s}",
                         static_cast<long long>(reached), far, dist_json(dtype, row, far).c_str());
    if (has_to)
      j += fmt(", \"target\": %d, \"distance\": %s, \"path\": %s", t, dist_json(dtype, row, t).c_str(),
               path.empty() ? "null" : path_json(path).c_str());
    if (a.has("--check")) j += fmt(", \"check\": %s", check_ok ? "true" : "false");
    std::printf("%s}\n", j.c_str());
  } else if (!quiet) {
    std::fprintf(rep, "graph:     %s, %d vertices, %lld arcs (loaded in %.3f s)\n", a.pos[0].c_str(), n,
                static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds);
    std::fprintf(rep, "run:       %s\n", ri.describe().c_str());
    std::fprintf(rep, "reached:   %lld of %d vertices from %d; farthest %d at distance %s\n",
                static_cast<long long>(reached), n, s, far, dist_text(dtype, row, far).c_str());
    if (has_to) {
      if (path.empty()) {
        std::fprintf(rep, "no path from %d to %d\n", s, t);
      } else {
        std::fprintf(rep, "distance:  %d -> %d = %s\n", s, t, dist_text(dtype, row, t).c_str());
        std::fprintf(rep, "path:      %zu vertices: %s\n", path.size(), path_text(path).c_str());
      }
    }
    if (a.opt.count("--out")) std::fprintf(rep, "wrote:     %s\n", a.get("--out").c_str());
    if (path_mode && a.opt.count("--svg")) std::fprintf(rep, "wrote:     %s\n", a.get("--svg").c_str());
  }
  if (!check_msg.empty() && !json && !(quiet && check_ok))
    std::fprintf(check_ok ? rep : stderr, "check:     %s\n", check_msg.c_str());
  if (!check_ok) return 1;
  if (path_mode && path.empty()) {
    if (quiet) std::fprintf(stderr, "gsp path: no path from %d to %d\n", s, t);
    return 1;
  }
  return 0;
}

const Spec kPath = {"path",
                    std::string("usage: gsp path FILE --from S --to T [--svg MAP.svg --coords FILE.co] [options]\n"
                                "\n"
                                "The shortest path from S to T (0-based ids): its length and vertices.\n"
                                "Exit code 1 when T is unreachable.\n"
                                "\n"
                                "  --from S          source vertex\n"
                                "  --to T            target vertex\n"
                                "  --svg FILE        draw the graph and the path as SVG\n"
                                "  --coords FILE     DIMACS coordinates ('v ID X Y', .co or .co.gz) for --svg\n")
                        .append(kRunHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--from", "--to", "--svg", "--coords", "--algorithm", "--backend", "--threads", "--delta",
                     "--format", "--weights"},
                    {"--undirected"}};

// ------------------------------------------------------------------ apsp

const Spec kApsp = {"apsp",
                    std::string("usage: gsp apsp FILE [--sources LIST] [--out FILE] [options]\n"
                                "\n"
                                "All-pairs (or many-sources) shortest paths, one line per source in FILE\n"
                                "('SOURCE: D0 D1 ... Dn-1', 'inf' when unreachable). Results up to 256 MiB\n"
                                "(sources x vertices x 4 bytes) are computed whole and the report names\n"
                                "the algorithm that ran; larger ones are streamed to FILE as they are\n"
                                "computed, never held in memory whole.\n"
                                "\n"
                                "  --sources LIST    e.g. 0,5,10-20 (default: every vertex)\n"
                                "  --out FILE        write the rows to FILE (-: standard output; the summary\n"
                                "                    then goes to stderr)\n")
                        .append(kRunHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--sources", "--out", "--algorithm", "--backend", "--threads", "--delta", "--format",
                     "--weights"},
                    {"--undirected"}};

struct ApspSink {
  FILE* f = nullptr;
  const std::vector<int32_t>* sources = nullptr;
  int32_t n = 0, total = 0, done = 0;
  gsp_dtype dtype = GSP_F32;
  int64_t reachable_pairs = 0;
  double longest = 0;
  Progress* prog = nullptr;
  std::string line;
};

int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t*) {
  ApspSink& k = *static_cast<ApspSink*>(user);
  for (int32_t r = 0; r < rows; r++) {
    const int32_t src = k.sources->empty() ? first + r : (*k.sources)[static_cast<size_t>(first) + static_cast<size_t>(r)];
    const char* row = static_cast<const char*>(dist) + static_cast<size_t>(r) * k.n * 4;
    if (k.f) {
      k.line = std::to_string(src) + ":";
      for (int32_t v = 0; v < k.n; v++) {
        k.line += ' ';
        k.line += dist_text(k.dtype, row, v);
      }
      k.line += '\n';
      std::fwrite(k.line.data(), 1, k.line.size(), k.f);
    }
    for (int32_t v = 0; v < k.n; v++) {
      if (reachable(k.dtype, row, v)) {
        k.reachable_pairs++;
        k.longest = std::max(k.longest, dist_value(k.dtype, row, v));
      }
    }
  }
  k.done += rows;
  if (k.prog) k.prog->update(static_cast<double>(k.done) / k.total);
  return 0;
}

// Results up to this size are computed whole (gsp_apsp_run), so that
// gsp_paths_info names the algorithm and backend that ran; larger ones are
// streamed row block by row block (gsp_apsp_stream), which reports no run
// info: the report then names what gsp_run_plan says the run uses.
constexpr int64_t kWholeResultBytes = int64_t(256) << 20;

// Every row of a whole result, through the streaming writer.
gsp_status write_whole(const gsp_paths* p, int32_t count, ApspSink& sink) {
  std::vector<char> row(static_cast<size_t>(sink.n) * 4);
  for (int32_t i = 0; i < count; i++) {
    const gsp_status st = gsp_paths_distances(p, gsp_paths_source(p, i), row.data(), sink.n);
    if (st != GSP_OK) return st;
    on_rows(&sink, i, 1, row.data(), nullptr);
  }
  return GSP_OK;
}

int cmd_apsp(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  Progress prog;
  gsp_options o;
  run_options(a, o, nullptr);
  o.flags |= GSP_NO_PATHS;
  Loaded L;
  load(L, a, a.pos[0]);
  const int32_t n = gsp_graph_num_vertices(L.g);
  std::vector<int32_t> sources;
  if (a.opt.count("--sources")) sources = parse_vertex_list("--sources", a.get("--sources"), n);
  ApspSink sink;
  sink.sources = &sources;
  sink.n = n;
  sink.total = sources.empty() ? n : static_cast<int32_t>(sources.size());
  sink.dtype = gsp_graph_weight_type(L.g);
  sink.prog = &prog;
  const bool quiet = a.has("--quiet"), json = a.has("--json");
  const std::string out = a.get("--out");
  FILE* const rep = report_stream(a);
  if (!out.empty()) {
    sink.f = open_out(out);
    std::fprintf(sink.f, "# gsp apsp %s: %d sources x %d vertices, 'SOURCE: distances'\n", a.pos[0].c_str(),
                 sink.total, n);
  }
  const int32_t* const list = sources.empty() ? nullptr : sources.data();
  const bool whole = static_cast<int64_t>(sink.total) * n * 4 <= kWholeResultBytes;
  PathsHolder P;
  if (whole) {  // progress from the run itself, not from the rows written after it
    o.progress = progress_cb;
    o.progress_user = &prog;
    sink.prog = nullptr;
  }
  prog.begin(quiet || json);
  const double t0 = now();
  gsp_status st = whole ? gsp_apsp_run(L.g, list, sink.total, &o, &P.p)
                        : gsp_apsp_stream(L.g, list, sink.total, &o, on_rows, &sink);
  const double secs = now() - t0;
  prog.end();
  if (whole && st == GSP_OK) st = write_whole(P.p, sink.total, sink);
  if (sink.f) {
    if (st != GSP_OK && sink.f != stdout) std::fclose(sink.f);
    else close_out(sink.f, out);
  }
  if (st != GSP_OK) failure("apsp failed: " + status_text(st));
  gsp_backend used = o.backend;
  gsp_algorithm ran = o.algorithm;
  if (whole) {
    const RunInfo ri = run_info(P.p);
    ran = ri.info.algorithm;
    used = ri.info.backend;
  } else if (const gsp_status ps = gsp_run_plan(L.g, 0, sink.total, &o, &used, &ran); ps != GSP_OK) {
    failure("apsp: cannot name the run's algorithm: " + status_text(ps));
  }
  const char* alg = gsp_algorithm_name(ran);
  if (json) {
    std::printf("{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, \"sources\": %d, "
                "\"algorithm\": %s, \"backend\": %s, \"seconds\": %.6f, \"reachable_pairs\": %lld, \"longest\": %.9g%s}\n",
                json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds, sink.total,
                json_str(alg).c_str(), json_str(gsp_backend_name(used)).c_str(), secs,
                static_cast<long long>(sink.reachable_pairs), sink.longest,
                out.empty() ? "" : (", \"out\": " + json_str(out)).c_str());
  } else if (!quiet) {
    std::fprintf(rep, "graph:     %s, %d vertices, %lld arcs (loaded in %.3f s)\n", a.pos[0].c_str(), n,
                static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds);
    std::fprintf(rep, "run:       %s on %s, %d sources, %.3f s%s\n", alg, gsp_backend_name(used), sink.total, secs,
                 whole ? "" : " (rows streamed)");
    std::fprintf(rep, "reachable: %lld of %lld pairs; longest shortest path %.9g\n",
                static_cast<long long>(sink.reachable_pairs), static_cast<long long>(sink.total) * n, sink.longest);
    if (!out.empty()) std::fprintf(rep, "wrote:     %s\n", out.c_str());
  }
  return 0;
}

// ------------------------------------------------------------------ main

const char* kMainHelp =
    "usage: gsp COMMAND [options]\n"
    "\n"
    "Shortest paths on CPUs and NVIDIA GPUs (libgsp).\n"
    "\n"
    "commands:\n"
    "  generate KIND --vertices N -o FILE     write a generated graph\n"
    "  info FILE                              describe a graph\n"
    "  sssp FILE --source S [--to T]          single-source shortest paths\n"
    "  apsp FILE [--sources LIST] [--out F]   all-pairs shortest paths, streamed\n"
    "  path FILE --from S --to T [--svg F]    one shortest path, optionally drawn\n"
    "  table FILE --sources L --targets L     distances from every source to every target\n"
    "\n"
    "Vertex ids are 0-based (DIMACS vertex 1 is 0). 'gsp COMMAND --help' for details.\n"
    "Exit codes: 0 success, 1 failure, 2 bad usage.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kMainHelp, stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kMainHelp, stdout);
    return 0;
  }
  if (cmd == "--version") {
    const uint32_t v = gsp_version();
    std::printf("gsp %u.%u.%u\n", v >> 16, (v >> 8) & 0xff, v & 0xff);
    return 0;
  }
  const Spec* spec = nullptr;
  if (cmd == "generate") spec = &kGenerate;
  else if (cmd == "info") spec = &kInfo;
  else if (cmd == "sssp") spec = &kSssp;
  else if (cmd == "apsp") spec = &kApsp;
  else if (cmd == "path") spec = &kPath;
  else if (cmd == "table") spec = &kTable;
  if (spec == nullptr) {
    std::fprintf(stderr, "gsp: unknown command '%s'; see 'gsp --help'\n", cmd.c_str());
    return 2;
  }
  try {
    const Args a = parse_args(*spec, argc - 2, argv + 2);
    if (a.has("--help")) {
      std::fputs(spec->usage.c_str(), stdout);
      return 0;
    }
    if (spec == &kGenerate) return cmd_generate(a);
    if (spec == &kInfo) return cmd_info(a);
    if (spec == &kSssp) return cmd_sssp(a, false);
    if (spec == &kPath) return cmd_sssp(a, true);
    if (spec == &kTable) return cmd_table(a);
    return cmd_apsp(a);
  } catch (const Exit& e) {
    std::fprintf(stderr, "gsp %s: %s\n", cmd.c_str(), e.message.c_str());
    // One hint: messages that already point at --help get no second one.
    if (e.code == 2 && e.message.find("--help") == std::string::npos)
      std::fprintf(stderr, "see 'gsp %s --help'\n", cmd.c_str());
    return e.code;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "gsp %s: %s\n", cmd.c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gsp %s: out of memory\n", cmd.c_str());
    return 1;
  }
}
