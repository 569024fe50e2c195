// What the gsp command's files share: main.cpp (dispatch, help, the older
// commands and the definitions of everything declared here) and one
// cmd_NAME.cpp file per newer command. Built on the public C API only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gsp/gsp.h"

namespace gsp_cli {

// ------------------------------------------------------------------ errors

// Thrown by a command; main() prints "gsp COMMAND: message" on stderr and
// exits with code (1 failure, 2 bad usage).
struct Exit {
  int code;
  std::string message;
};

[[noreturn]] void usage_error(const std::string& msg);  // exit 2
[[noreturn]] void failure(const std::string& msg);      // exit 1

// "GSP_ERR_NAME: detail", the detail being this thread's gsp_last_error().
std::string status_text(gsp_status s);
// Seconds on a monotonic clock.
double now();
// printf into a std::string of at most 511 characters.
std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
// s as a JSON string literal, quotes included.
std::string json_str(const std::string& s);

// ------------------------------------------------------------------ arguments

// A command: its name, --help text and the options it takes (valued ones
// take the next argument or "=value"; --quiet, --json and --help are common).
struct Spec {
  const char* name;
  std::string usage;  // full --help text
  std::set<std::string> valued;
  std::set<std::string> flags;
};

struct Args {
  std::vector<std::string> pos;
  std::map<std::string, std::string> opt;
  std::set<std::string> flag;
  bool has(const std::string& k) const { return opt.count(k) != 0 || flag.count(k) != 0; }
  std::string get(const std::string& k, const std::string& def = "") const {
    auto it = opt.find(k);
    return it == opt.end() ? def : it->second;
  }
};

// An integer in lo..hi, else a usage error naming opt.
int64_t parse_int(const std::string& opt, const std::string& s, int64_t lo, int64_t hi);
// Vertex ids and ranges, comma-separated ("0,5,10-20"), each in 0..n-1, in
// the order given; any bad item is a usage error naming opt.
std::vector<int32_t> parse_vertex_list(const std::string& opt, const std::string& list, int32_t n);

// ------------------------------------------------------------------ progress

// A progress bar on stderr: only when stderr is a terminal, not --quiet, and
// only once the run has taken more than a second.
struct Progress {
  bool enabled = false;
  double start = 0, last = 0;
  bool drawn = false;
  void begin(bool quiet);
  void update(double f);
  void end();
};

// A gsp_progress_fn feeding the Progress that user points to.
int progress_cb(void* user, double fraction);

// ------------------------------------------------------------------ graphs and runs

// --help lines of the graph-loading options (--format, --weights, --undirected)
// and of the common flags (--quiet, --json, --help).
extern const char* const kLoadHelp;
extern const char* const kCommonHelp;

struct Loaded {
  gsp_graph* g = nullptr;
  double seconds = 0;
  Loaded() = default;
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;
  ~Loaded() { gsp_graph_destroy(g); }
};

// Loads path as --format, --weights and --undirected say; failure() if it cannot.
void load(Loaded& out, const Args& a, const std::string& path);
// Starts the CUDA device in the background (gsp_device_start) so that it
// comes up while the graph is read: with --backend cuda, or with auto when
// the command's job is large enough for AUTO to pick the GPU (`large`:
// tables, many sources), not for a one-source query that AUTO keeps on the
// CPU. Every device unless --devices 1 (then device 0). Call before load().
void start_device_early(const Args& a, bool large);
// The summary's first line: "graph:     PATH, N vertices, M arcs (loaded in S s)".
void print_graph_line(FILE* rep, const std::string& path, const Loaded& l);

// gsp_options from --algorithm, --backend, --threads, --delta, --limit and
// --devices; the progress callback feeds p when p is not null.
void run_options(const Args& a, gsp_options& o, Progress* p);

// Bytes of one weight (and distance) of a weight type: 8 for GSP_F64, else 4.
inline size_t weight_bytes(gsp_dtype dtype) { return dtype == GSP_F64 ? sizeof(double) : 4; }
// The --weights name of a weight type: "f32", "i32" or "f64".
const char* dtype_name(gsp_dtype dtype);

// Distance v of a row of the graph's weight type: "inf" when unreachable
// (dist_json: null), else the integer, the float with 9 significant digits
// or the double with 17 (%.9g / %.17g: each reads back exactly).
std::string dist_text(gsp_dtype dtype, const void* row, int32_t v);
std::string dist_json(gsp_dtype dtype, const void* row, int32_t v);
// A value of the weight type held in a double (a distance or a weight), as
// dist_text writes it: %.17g for GSP_F64, %.9g otherwise.
std::string value_text(gsp_dtype dtype, double x);

// Output written as it is produced: about 1 MiB is gathered and handed to
// the FILE, so a command's memory stays bounded however long its output is
// (a table with paths). Integers are formatted with std::to_chars. finish()
// writes the rest and flushes; a write error is a failure naming `what`.
class Writer {
 public:
  // f null: the text stays in memory (text(), clear()), the buffer grows.
  Writer(FILE* f, const char* what);
  Writer& operator<<(const std::string& s);
  Writer& operator<<(const char* s);
  Writer& operator<<(char c);
  Writer& num(int64_t v);
  // Vertex v's distance in a row of dtype values, as dist_text() writes it.
  Writer& dist(gsp_dtype dtype, const void* row, int32_t v);
  // The vertices of a path separated by sep (" ", " -> ", ", ").
  Writer& path(const std::vector<int32_t>& path, const char* sep);
  Writer& bytes(const char* s, size_t n);
  void finish();
  // In memory (f null): what was written since the last clear().
  const char* text() const { return buf_.data(); }
  size_t size() const { return len_; }
  void clear() { len_ = 0; }

 private:
  void drain();
  char* room(size_t bytes);  // space for at most `bytes` more; advance len_ after writing
  void put(const char* s, size_t bytes);
  FILE* f_;
  const char* what_;
  std::vector<char> buf_;
  size_t len_ = 0;
};

// "0 -> 1 -> 5" and "[0, 1, 5]".
std::string path_text(const std::vector<int32_t>& path);
std::string path_json(const std::vector<int32_t>& path);

// ", on N devices" when a run used more than one CUDA device, else "".
std::string devices_text(const gsp_run_info& info);

// What a run did, for the report ("run:" line) and for --json.
struct RunInfo {
  gsp_run_info info{};
  std::string describe() const {
    return fmt("%s on %s (%s)", gsp_algorithm_name(info.algorithm), gsp_backend_name(info.backend), info.device_name) +
           devices_text(info) + fmt(", %.3f s", info.seconds) + stages();
  }
  // The stages the engine measured: "; set-up 0.001 s, compute 0.120 s" (empty when none).
  std::string stages() const {
    const double t[] = {info.setup_seconds, info.compute_seconds, info.copy_seconds, info.paths_seconds};
    const char* const names[] = {"set-up", "compute", "copy", "paths"};
    std::string s;
    for (int i = 0; i < 4; i++) {
      if (t[i] > 0) s += fmt("%s%s %.3f s", s.empty() ? "; " : ", ", names[i], t[i]);
    }
    return s;
  }
  std::string json() const {
    return fmt("\"algorithm\": %s, \"backend\": %s, \"device\": %s, \"num_devices\": %d, \"seconds\": %.6f, ",
               json_str(gsp_algorithm_name(info.algorithm)).c_str(), json_str(gsp_backend_name(info.backend)).c_str(),
               json_str(info.device_name).c_str(), info.num_devices, info.seconds) +
           stages_json();
  }
  std::string stages_json() const {
    return fmt("\"stages\": {\"setup\": %.6f, \"compute\": %.6f, \"copy\": %.6f, \"paths\": %.6f}", info.setup_seconds,
               info.compute_seconds, info.copy_seconds, info.paths_seconds);
  }
};

// ------------------------------------------------------------------ commands in their own files

// ------------------------------------------------------------------ shared by the commands (cli_common.cpp)

// Parses a command's arguments against its spec (usage errors exit 2).
Args parse_args(const Spec& spec, int argc, char** argv);

// The graph's CSR arrays, copied out.
struct Csr {
  int32_t n = 0;
  int64_t m = 0;
  gsp_dtype dtype = GSP_F32;
  std::vector<int64_t> off;
  std::vector<int32_t> dst;
  std::vector<float> wf;
  std::vector<int32_t> wi;
  std::vector<double> wd;
  double weight(int64_t k) const {
    if (dtype == GSP_F32) return static_cast<double>(wf[k]);
    if (dtype == GSP_F64) return wd[k];
    return static_cast<double>(wi[k]);
  }
};
void get_csr(const gsp_graph* g, Csr& c);

// The vertex given with `opt`, checked against n; `def` when absent and not required.
int32_t vertex_arg(const Args& a, const char* opt, int32_t n, bool required, int32_t def = 0);

// The help lines of --algorithm, --backend, --threads, --delta.
extern const char* const kRunHelp;
// The help line of --limit (sssp, apsp, table, nearest).
extern const char* const kLimitHelp;
// The help lines of --devices (sssp, apsp, table).
extern const char* const kDevicesHelp;
// The help lines of --index (sssp, path, apsp, table).
extern const char* const kIndexHelp;

// Owns a road index (gsp_index.h).
struct IndexHolder {
  gsp_index* ix = nullptr;
  double seconds = 0;  // to load it
  IndexHolder() = default;
  IndexHolder(const IndexHolder&) = delete;
  IndexHolder& operator=(const IndexHolder&) = delete;
  ~IndexHolder() { gsp_index_destroy(ix); }
};
// The usage checks of --index and --algorithm ch, before the graph is read:
// --index runs with --algorithm auto or ch only, and ch needs --index.
void check_index_args(const Args& a);
// --index FILE: loads the road index of g (gsp_index_load) into h and sets
// o.index; failure() with the library's message when the file is not an
// index of g. Nothing without --index.
void load_index(IndexHolder& h, const Args& a, const gsp_graph* g, gsp_options& o);
// The summary's "index:     FILE, A arcs, S shortcuts (loaded in T s)" line, when --index.
void print_index_line(FILE* rep, const Args& a, const IndexHolder& h);

bool reachable(gsp_dtype dtype, const void* row, int32_t v);
double dist_value(gsp_dtype dtype, const void* row, int32_t v);
RunInfo run_info(const gsp_paths* p);

// Owns a result.
struct PathsHolder {
  gsp_paths* p = nullptr;
  ~PathsHolder() { gsp_paths_destroy(p); }
};

// The path source -> target; empty when unreachable.
std::vector<int32_t> get_path(const gsp_paths* p, int32_t s, int32_t t);
// "-" is standard output (the human summary then goes to stderr: see report_stream).
FILE* open_out(const std::string& path);
void close_out(FILE* f, const std::string& path);
// Where the human-readable summary goes: stderr when --out - puts the data on stdout.
FILE* report_stream(const Args& a);

// ------------------------------------------------------------------ the commands (cmd_*.cpp)

extern const Spec kGenerate;
int cmd_generate(const Args& a);
extern const Spec kInfo;
int cmd_info(const Args& a);
extern const Spec kSssp;
extern const Spec kPath;
int cmd_sssp(const Args& a, bool path_mode);  // path_mode: `gsp path`
extern const Spec kApsp;
int cmd_apsp(const Args& a);
extern const Spec kTable;  // cmd_table.cpp
int cmd_table(const Args& a);
extern const Spec kNearest;  // cmd_nearest.cpp
int cmd_nearest(const Args& a);
extern const Spec kIndex;  // cmd_index.cpp
int cmd_index(const Args& a);

}  // namespace gsp_cli
