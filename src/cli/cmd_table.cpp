// `gsp table`: shortest distances (and paths) from a list of sources to a
// list of targets, a K x T table (gsp_table_run / gsp_table_run_into).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli.h"

namespace gsp_cli {

const Spec kTable = {
    "table",
    std::string("usage: gsp table FILE --sources LIST|@IDS --targets LIST|@IDS [--paths] [--csv] [options]\n"
                "\n"
                "Shortest distances from every source to every target: a table with one row\n"
                "per source and one column per target, in the order given ('inf' when\n"
                "unreachable). Only those K x T cells are computed and kept, never whole\n"
                "rows: one source and one target is a point-to-point query. A summary\n"
                "comes first; --quiet prints the table alone.\n"
                "\n"
                "  --sources LIST    source vertices, e.g. 0,5,10-20; or @FILE, a file of ids and\n"
                "                    ranges separated by commas, blanks or lines ('#' comments)\n"
                "  --targets LIST    target vertices, the same way (ids may repeat)\n"
                "  --paths           also print the path of every cell\n"
                "  --csv             the table as CSV on stdout (the summary goes to stderr);\n"
                "                    with --paths one line per cell: source,target,distance,path,\n"
                "                    the sources run in groups of at most 65536 cells, each\n"
                "                    group's lines written before the next (memory holds one\n"
                "                    group's paths) and the summary after them\n"
                "  --algorithm A     auto, or an all-pairs algorithm: heap, johnson,\n"
                "                    floyd-warshall, minplus, task-parallel,\n"
                "                    batched-delta-stepping; ch with --index\n"
                "  --backend B       auto (CUDA when usable; a job the CPU ends sooner than CUDA\n"
                "                    starts runs on the CPU), cpu, cuda\n"
                "  --threads N       CPU threads (0: all cores)\n")
        .append(kDevicesHelp)
        .append(kLimitHelp)
        .append(kIndexHelp)
        .append(kLoadHelp)
        .append(kCommonHelp),
    {"--sources", "--targets", "--algorithm", "--backend", "--threads", "--devices", "--limit", "--index", "--format",
     "--weights"},
    {"--paths", "--csv", "--undirected"}};

namespace {

// The ids of --sources or --targets: a LIST, or @FILE holding LIST items
// separated by commas, blanks or lines, '#' starting a comment.
std::vector<int32_t> vertex_list(const Args& a, const char* opt, int32_t n) {
  if (!a.opt.count(opt)) usage_error(std::string("missing ") + opt + " LIST");
  const std::string value = a.get(opt);
  if (value.empty()) usage_error(std::string(opt) + ": the list is empty");
  if (value[0] != '@') return parse_vertex_list(opt, value, n);
  const std::string path = value.substr(1);
  if (path.empty()) usage_error(std::string(opt) + ": '@' needs a file name");
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) failure("cannot open '" + path + "': " + std::strerror(errno));
  std::vector<int32_t> out;
  std::string line;
  int lineno = 0;
  bool eof = false;
  try {
    while (!eof) {
      line.clear();
      int c;
      while ((c = std::fgetc(f)) != EOF && c != '\n') line += static_cast<char>(c);
      eof = c == EOF;
      if (eof && line.empty()) break;
      lineno++;
      const size_t hash = line.find('#');
      if (hash != std::string::npos) line.erase(hash);
      for (char& ch : line)
        if (ch == ' ' || ch == '\t' || ch == '\r') ch = ',';
      const std::string where = fmt("%s %s:%d", opt, path.c_str(), lineno);
      size_t i = 0;
      while (i < line.size()) {
        size_t j = line.find(',', i);
        if (j == std::string::npos) j = line.size();
        if (j > i) {
          const std::vector<int32_t> ids = parse_vertex_list(where, line.substr(i, j - i), n);
          out.insert(out.end(), ids.begin(), ids.end());
        }
        i = j + 1;
      }
    }
  } catch (...) {
    std::fclose(f);
    throw;
  }
  const bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) failure("cannot read '" + path + "'");
  if (out.empty()) usage_error(std::string(opt) + ": '" + path + "' lists no vertices");
  return out;
}

struct TableHolder {
  gsp_table* t = nullptr;
  TableHolder() = default;
  TableHolder(const TableHolder&) = delete;
  TableHolder& operator=(const TableHolder&) = delete;
  ~TableHolder() { gsp_table_destroy(t); }
};

// The path of cell (i, j) of t into *out; empty when unreachable.
void cell_path(const gsp_table* t, int32_t i, int32_t j, std::vector<int32_t>* out) {
  int32_t len = 0;
  out->clear();
  gsp_status st = gsp_table_path(t, i, j, nullptr, 0, &len);
  if (st == GSP_ERR_NO_PATH) return;
  if (st != GSP_OK && st != GSP_ERR_BUFFER_TOO_SMALL) failure("cannot get a path: " + status_text(st));
  out->resize(static_cast<size_t>(len));
  st = gsp_table_path(t, i, j, out->data(), len, &len);
  if (st != GSP_OK) failure("cannot get a path: " + status_text(st));
}

std::string pad(const std::string& s, size_t width, bool left) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return left ? s + fill : fill + s;
}

// Cells a run of `gsp table --csv --paths` covers at most (1000 targets:
// 262 sources a run), so that its paths (a few hundred vertices a cell on a
// road network) stay near a few hundred MB.
constexpr int64_t kCellsPerRun = int64_t(1) << 16;

// The run info of several runs as one: the first run's engine and device,
// the sum of the times.
void add_run(gsp_run_info& total, const gsp_run_info& one, bool first) {
  if (first) {
    total = one;
    return;
  }
  total.seconds += one.seconds;
  total.setup_seconds += one.setup_seconds;
  total.compute_seconds += one.compute_seconds;
  total.copy_seconds += one.copy_seconds;
  total.paths_seconds += one.paths_seconds;
}

// One `gsp table` command after its arguments are read: the runs, then the
// output in the form asked for, each a phase of its own.
class TableCommand {
 public:
  TableCommand(const Args& a, const Loaded& L, const IndexHolder& H, std::vector<int32_t> sources,
               std::vector<int32_t> targets)
      : a_(a),
        L_(L),
        H_index_(H),
        sources_(std::move(sources)),
        targets_(std::move(targets)),
        K_(static_cast<int32_t>(sources_.size())),
        T_(static_cast<int32_t>(targets_.size())),
        dtype_(gsp_graph_weight_type(L.g)),
        wb_(weight_bytes(dtype_)),
        quiet_(a.has("--quiet")),
        json_(a.has("--json")),
        csv_(a.has("--csv")),
        paths_(a.has("--paths")),
        grouped_(csv_ && paths_),
        dist_(static_cast<size_t>(K_) * static_cast<size_t>(T_) * wb_) {
    ri_.info.size = sizeof(gsp_run_info);
  }

  // Without paths the distances go straight into our array; with them the
  // table object keeps every cell's path. With --csv --paths (one line a
  // cell, nothing before the lines that needs the whole table) the sources
  // run in groups of at most kCellsPerRun cells, each group's lines written
  // before the next runs, so memory holds one group's paths, not every
  // cell's (NY 1000 x 1000: about 1.6 GB of paths).
  void run(gsp_options& o, Progress& prog) {
    const int32_t group = grouped_ ? static_cast<int32_t>(std::clamp<int64_t>(kCellsPerRun / T_, 1, K_)) : K_;
    if (grouped_) w_ << "source,target,distance,path\n";
    for (int32_t i0 = 0; i0 < K_; i0 += group) {
      const int32_t k = std::min(group, K_ - i0);
      run_group(o, prog, i0, k);
      if (grouped_) csv_path_lines(i0, k);
    }
    group_ = group;
  }

  void print() {
    if (json_) {
      print_json();
      return;
    }
    print_summary();
    if (!grouped_) {
      if (csv_) {
        print_csv();
      } else {
        print_aligned();
      }
    }
    w_.finish();
  }

 private:
  const char* row(int32_t i) const { return dist_.data() + static_cast<size_t>(i) * static_cast<size_t>(T_) * wb_; }
  char* row(int32_t i) { return dist_.data() + static_cast<size_t>(i) * static_cast<size_t>(T_) * wb_; }
  std::string dist(int32_t i, int32_t c) const { return dist_text(dtype_, row(i), c); }

  void run_group(gsp_options& o, Progress& prog, int32_t i0, int32_t k) {
    gsp_run_info one{};
    one.size = sizeof(gsp_run_info);
    gsp_table_destroy(H_.t);
    H_.t = nullptr;
    prog.begin(quiet_ || json_);
    gsp_status st = paths_ ? gsp_table_run(L_.g, sources_.data() + i0, k, targets_.data(), T_, &o, &H_.t)
                           : gsp_table_run_into(L_.g, sources_.data() + i0, k, targets_.data(), T_, &o, row(i0), &one);
    prog.end();
    if (st != GSP_OK) failure("table failed: " + status_text(st));
    if (paths_) {
      st = gsp_table_distances(H_.t, row(i0), static_cast<int64_t>(k) * T_);
      if (st != GSP_OK) failure("cannot read the distances: " + status_text(st));
      st = gsp_table_info(H_.t, &one);
      if (st != GSP_OK) failure("cannot read run info: " + status_text(st));
    }
    add_run(ri_.info, one, runs_++ == 0);
    for (int32_t i = i0; i < i0 + k; i++)
      for (int32_t j = 0; j < T_; j++) reached_ += reachable(dtype_, row(i), j) ? 1 : 0;
  }

  // Source i's lines (its table row i - i0 in H_) into w.
  void csv_path_row(int32_t i0, int32_t i, Writer& w, std::vector<int32_t>& route) const {
    for (int32_t c = 0; c < T_; c++) {
      w.num(sources_[i]) << ',';
      w.num(targets_[c]) << ',';
      w.dist(dtype_, row(i), c) << ',';
      cell_path(H_.t, i - i0, c, &route);
      w.path(route, " ") << '\n';
    }
  }

  // The lines of the sources [i0, i0 + k), whose table H_ holds: rows
  // formatted side by side in memory (a NY row of 1000 paths is about
  // 2.7 MB of text), written in order.
  void csv_path_lines(int32_t i0, int32_t k) {
    const int32_t threads = static_cast<int32_t>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
    if (threads == 1 || k == 1) {
      for (int32_t i = i0; i < i0 + k; i++) csv_path_row(i0, i, w_, route_);
      return;
    }
    std::vector<std::unique_ptr<Writer>> text;
    std::vector<std::vector<int32_t>> routes(static_cast<size_t>(threads));
    text.reserve(static_cast<size_t>(threads));
    for (int32_t t = 0; t < threads; t++) text.push_back(std::make_unique<Writer>(nullptr, "a row"));
    for (int32_t at = i0; at < i0 + k; at += threads) {
      const int32_t rows = std::min(threads, i0 + k - at);
      std::vector<std::string> failed(static_cast<size_t>(rows));
      auto format = [&](int32_t t) {
        try {
          text[static_cast<size_t>(t)]->clear();
          csv_path_row(i0, at + t, *text[static_cast<size_t>(t)], routes[static_cast<size_t>(t)]);
        } catch (const Exit& e) {
          failed[static_cast<size_t>(t)] = e.message.empty() ? "cannot format a row" : e.message;
        } catch (const std::exception& e) {
          failed[static_cast<size_t>(t)] = e.what();
        }
      };
      std::vector<std::thread> pool;
      int32_t started = 1;
      try {
        for (; started < rows; started++) pool.emplace_back(format, started);
      } catch (...) {  // no more threads: this one formats the rest
      }
      format(0);
      for (int32_t t = started; t < rows; t++) format(t);
      for (auto& th : pool) th.join();
      for (int32_t t = 0; t < rows; t++) {
        if (!failed[static_cast<size_t>(t)].empty()) failure(failed[static_cast<size_t>(t)]);
        w_.bytes(text[static_cast<size_t>(t)]->text(), text[static_cast<size_t>(t)]->size());
      }
    }
  }

  void print_json() {
    w_ << fmt("{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, ", json_str(a_.pos[0]).c_str(),
              gsp_graph_num_vertices(L_.g), static_cast<long long>(gsp_graph_num_edges(L_.g)), L_.seconds);
    w_ << ri_.json() << ", \"sources\": " << path_json(sources_) << ", \"targets\": " << path_json(targets_);
    w_ << fmt(", \"reachable_pairs\": %lld, \"distances\": [", static_cast<long long>(reached_));
    for (int32_t i = 0; i < K_; i++) {
      w_ << (i ? ", [" : "[");
      for (int32_t c = 0; c < T_; c++) w_ << (c ? ", " : "") << dist_json(dtype_, row(i), c);
      w_ << "]";
    }
    w_ << "]";
    if (paths_) {
      w_ << ", \"paths\": [";
      for (int32_t i = 0; i < K_; i++) {
        w_ << (i ? ", [" : "[");
        for (int32_t c = 0; c < T_; c++) {
          w_ << (c ? ", " : "");
          cell_path(H_.t, i, c, &route_);
          if (route_.empty()) {
            w_ << "null";
          } else {
            w_ << "[";
            w_.path(route_, ", ") << "]";
          }
        }
        w_ << "]";
      }
      w_ << "]";
    }
    w_ << "}\n";
    w_.finish();
  }

  // On stdout before the table, or on stderr with --csv (after the lines
  // where the sources ran in groups).
  void print_summary() {
    if (quiet_) return;
    FILE* const rep = csv_ ? stderr : stdout;
    print_graph_line(rep, a_.pos[0], L_);
    print_index_line(rep, a_, H_index_);
    const std::string runs =
        runs_ > 1 ? fmt(" (%d runs of at most %d sources, the lines of each written before the next)", runs_, group_)
                  : std::string();
    std::fprintf(rep, "run:       %s%s\n", ri_.describe().c_str(), runs.c_str());
    std::fprintf(rep, "reachable: %lld of %lld pairs (%d sources x %d targets)\n", static_cast<long long>(reached_),
                 static_cast<long long>(K_) * T_, K_, T_);
    std::fflush(rep);
  }

  void print_csv() {
    w_ << "source/target";
    for (int32_t c = 0; c < T_; c++) {
      w_ << ',';
      w_.num(targets_[c]);
    }
    w_ << '\n';
    for (int32_t i = 0; i < K_; i++) {
      w_.num(sources_[i]);
      for (int32_t c = 0; c < T_; c++) w_ << ',' << dist(i, c);
      w_ << '\n';
    }
  }

  // Aligned columns: the sources down the left, the targets along the top;
  // then, with --paths, a line per cell.
  void print_aligned() {
    const std::string corner = "from\\to";
    size_t w0 = corner.size(), wd = 1;
    for (int32_t i = 0; i < K_; i++) w0 = std::max(w0, std::to_string(sources_[i]).size());
    for (int32_t c = 0; c < T_; c++) wd = std::max(wd, std::to_string(targets_[c]).size());
    for (int32_t i = 0; i < K_; i++)
      for (int32_t c = 0; c < T_; c++) wd = std::max(wd, dist(i, c).size());
    w_ << pad(corner, w0, true);
    for (int32_t c = 0; c < T_; c++) w_ << "  " << pad(std::to_string(targets_[c]), wd, false);
    w_ << '\n';
    for (int32_t i = 0; i < K_; i++) {
      w_ << pad(std::to_string(sources_[i]), w0, true);
      for (int32_t c = 0; c < T_; c++) w_ << "  " << pad(dist(i, c), wd, false);
      w_ << '\n';
    }
    if (!paths_) return;
    for (int32_t i = 0; i < K_; i++) {
      for (int32_t c = 0; c < T_; c++) {
        w_ << "path ";
        w_.num(sources_[i]) << " -> ";
        w_.num(targets_[c]) << ": ";
        cell_path(H_.t, i, c, &route_);
        if (route_.empty()) {
          w_ << "no path\n";
        } else {
          w_ << "distance " << dist(i, c) << ", ";
          w_.num(static_cast<int64_t>(route_.size())) << " vertices: ";
          w_.path(route_, " -> ") << '\n';
        }
      }
    }
  }

  const Args& a_;
  const Loaded& L_;
  const IndexHolder& H_index_;
  const std::vector<int32_t> sources_, targets_;
  const int32_t K_, T_;
  const gsp_dtype dtype_;
  const size_t wb_;
  const bool quiet_, json_, csv_, paths_, grouped_;
  std::vector<char> dist_;
  RunInfo ri_;
  TableHolder H_;
  Writer w_{stdout, "the table"};
  std::vector<int32_t> route_;  // one cell's path
  int64_t reached_ = 0;
  int32_t runs_ = 0, group_ = 0;
};

}  // namespace

int cmd_table(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  if (a.has("--csv") && a.has("--json")) usage_error("--csv and --json both choose the output; choose one");
  if (!a.opt.count("--sources")) usage_error("missing --sources LIST");
  if (!a.opt.count("--targets")) usage_error("missing --targets LIST");
  Progress prog;
  gsp_options o;
  run_options(a, o, &prog);
  if (!a.has("--paths")) o.flags |= GSP_NO_PATHS;
  check_index_args(a);
  Loaded L;
  start_device_early(a, true);
  load(L, a, a.pos[0]);
  IndexHolder H;
  load_index(H, a, L.g, o);
  const int32_t n = gsp_graph_num_vertices(L.g);
  std::vector<int32_t> sources = vertex_list(a, "--sources", n);
  std::vector<int32_t> targets = vertex_list(a, "--targets", n);
  if (sources.size() > static_cast<size_t>(INT32_MAX) || targets.size() > static_cast<size_t>(INT32_MAX))
    usage_error("more than 2^31 - 1 sources or targets");
  TableCommand t(a, L, H, std::move(sources), std::move(targets));
  t.run(o, prog);
  t.print();
  return 0;
}

}  // namespace gsp_cli
