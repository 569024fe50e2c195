// `gsp table`: shortest distances (and paths) from a list of sources to a
// list of targets, a K x T table (gsp_table_run / gsp_table_run_into).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
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
                "                    with --paths one line per cell: source,target,distance,path\n"
                "  --algorithm A     auto, or an all-pairs algorithm: heap, johnson,\n"
                "                    floyd-warshall, minplus, task-parallel,\n"
                "                    batched-delta-stepping\n"
                "  --backend B       auto (CUDA when usable; a job the CPU ends sooner than CUDA\n"
                "                    starts runs on the CPU), cpu, cuda\n"
                "  --threads N       CPU threads (0: all cores)\n")
        .append(kDevicesHelp)
        .append(kLimitHelp)
        .append(kLoadHelp)
        .append(kCommonHelp),
    {"--sources", "--targets", "--algorithm", "--backend", "--threads", "--devices", "--limit", "--format",
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

// The path of cell (i, j); empty when unreachable.
std::vector<int32_t> cell_path(const gsp_table* t, int32_t i, int32_t j) {
  int32_t len = 0;
  gsp_status st = gsp_table_path(t, i, j, nullptr, 0, &len);
  if (st == GSP_ERR_NO_PATH) return {};
  if (st != GSP_OK && st != GSP_ERR_BUFFER_TOO_SMALL) failure("cannot get a path: " + status_text(st));
  std::vector<int32_t> v(static_cast<size_t>(len));
  st = gsp_table_path(t, i, j, v.data(), len, &len);
  if (st != GSP_OK) failure("cannot get a path: " + status_text(st));
  return v;
}

std::string pad(const std::string& s, size_t width, bool left) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return left ? s + fill : fill + s;
}

}  // namespace

int cmd_table(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  const bool quiet = a.has("--quiet"), json = a.has("--json"), csv = a.has("--csv"), paths = a.has("--paths");
  if (csv && json) usage_error("--csv and --json both choose the output; choose one");
  if (!a.opt.count("--sources")) usage_error("missing --sources LIST");
  if (!a.opt.count("--targets")) usage_error("missing --targets LIST");
  Progress prog;
  gsp_options o;
  run_options(a, o, &prog);
  if (!paths) o.flags |= GSP_NO_PATHS;
  Loaded L;
  load(L, a, a.pos[0]);
  const int32_t n = gsp_graph_num_vertices(L.g);
  const gsp_dtype dtype = gsp_graph_weight_type(L.g);
  const std::vector<int32_t> sources = vertex_list(a, "--sources", n);
  const std::vector<int32_t> targets = vertex_list(a, "--targets", n);
  if (sources.size() > static_cast<size_t>(INT32_MAX) || targets.size() > static_cast<size_t>(INT32_MAX))
    usage_error("more than 2^31 - 1 sources or targets");
  const int32_t K = static_cast<int32_t>(sources.size()), T = static_cast<int32_t>(targets.size());
  const size_t cells = static_cast<size_t>(K) * static_cast<size_t>(T);

  // Without paths the distances go straight into our array; with them the
  // table object keeps every cell's path.
  const size_t wb = weight_bytes(dtype);
  std::vector<char> dist(cells * wb);
  RunInfo ri;
  ri.info.size = sizeof(gsp_run_info);
  TableHolder H;
  prog.begin(quiet || json);
  gsp_status st = paths ? gsp_table_run(L.g, sources.data(), K, targets.data(), T, &o, &H.t)
                        : gsp_table_run_into(L.g, sources.data(), K, targets.data(), T, &o, dist.data(), &ri.info);
  prog.end();
  if (st != GSP_OK) failure("table failed: " + status_text(st));
  if (paths) {
    st = gsp_table_distances(H.t, dist.data(), static_cast<int64_t>(cells));
    if (st != GSP_OK) failure("cannot read the distances: " + status_text(st));
    st = gsp_table_info(H.t, &ri.info);
    if (st != GSP_OK) failure("cannot read run info: " + status_text(st));
  }
  const auto row = [&](int32_t i) { return dist.data() + static_cast<size_t>(i) * static_cast<size_t>(T) * wb; };
  int64_t reached = 0;
  for (int32_t i = 0; i < K; i++)
    for (int32_t j = 0; j < T; j++) reached += dist_text(dtype, row(i), j) != "inf";

  std::vector<std::vector<int32_t>> cell_paths;  // row-major, K x T, with --paths
  if (paths) {
    cell_paths.reserve(cells);
    for (int32_t i = 0; i < K; i++)
      for (int32_t j = 0; j < T; j++) cell_paths.push_back(cell_path(H.t, i, j));
  }
  const auto cell = [&](int32_t i, int32_t j) -> const std::vector<int32_t>& {
    return cell_paths[static_cast<size_t>(i) * static_cast<size_t>(T) + static_cast<size_t>(j)];
  };

  if (json) {
    std::string j = fmt("{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, ",
                        json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds);
    j += ri.json() + ", \"sources\": " + path_json(sources) + ", \"targets\": " + path_json(targets);
    j += fmt(", \"reachable_pairs\": %lld, \"distances\": [", static_cast<long long>(reached));
    for (int32_t i = 0; i < K; i++) {
      j += i ? ", [" : "[";
      for (int32_t c = 0; c < T; c++) j += (c ? ", " : "") + dist_json(dtype, row(i), c);
      j += "]";
    }
    j += "]";
    if (paths) {
      j += ", \"paths\": [";
      for (int32_t i = 0; i < K; i++) {
        j += i ? ", [" : "[";
        for (int32_t c = 0; c < T; c++) j += (c ? ", " : "") + (cell(i, c).empty() ? "null" : path_json(cell(i, c)));
        j += "]";
      }
      j += "]";
    }
    std::printf("%s}\n", j.c_str());
    return 0;
  }

  // The summary: on stdout before the table, or on stderr with --csv.
  FILE* const rep = csv ? stderr : stdout;
  if (!quiet) {
    print_graph_line(rep, a.pos[0], L);
    std::fprintf(rep, "run:       %s\n", ri.describe().c_str());
    std::fprintf(rep, "reachable: %lld of %lld pairs (%d sources x %d targets)\n", static_cast<long long>(reached),
                 static_cast<long long>(cells), K, T);
  }
  std::string out;
  if (csv && paths) {
    out = "source,target,distance,path\n";
    for (int32_t i = 0; i < K; i++) {
      for (int32_t c = 0; c < T; c++) {
        out += fmt("%d,%d,", sources[i], targets[c]) + dist_text(dtype, row(i), c) + ",";
        for (size_t k = 0; k < cell(i, c).size(); k++) out += (k ? " " : "") + std::to_string(cell(i, c)[k]);
        out += "\n";
      }
    }
  } else if (csv) {
    out = "source/target";
    for (int32_t c = 0; c < T; c++) out += "," + std::to_string(targets[c]);
    out += "\n";
    for (int32_t i = 0; i < K; i++) {
      out += std::to_string(sources[i]);
      for (int32_t c = 0; c < T; c++) out += "," + dist_text(dtype, row(i), c);
      out += "\n";
    }
  } else {
    // Aligned columns: the sources down the left, the targets along the top.
    const std::string corner = "from\\to";
    size_t w0 = corner.size(), w = 1;
    for (int32_t i = 0; i < K; i++) w0 = std::max(w0, std::to_string(sources[i]).size());
    for (int32_t c = 0; c < T; c++) w = std::max(w, std::to_string(targets[c]).size());
    for (int32_t i = 0; i < K; i++)
      for (int32_t c = 0; c < T; c++) w = std::max(w, dist_text(dtype, row(i), c).size());
    out = pad(corner, w0, true);
    for (int32_t c = 0; c < T; c++) out += "  " + pad(std::to_string(targets[c]), w, false);
    out += "\n";
    for (int32_t i = 0; i < K; i++) {
      out += pad(std::to_string(sources[i]), w0, true);
      for (int32_t c = 0; c < T; c++) out += "  " + pad(dist_text(dtype, row(i), c), w, false);
      out += "\n";
    }
    if (paths) {
      for (int32_t i = 0; i < K; i++) {
        for (int32_t c = 0; c < T; c++) {
          out += fmt("path %d -> %d: ", sources[i], targets[c]);
          if (cell(i, c).empty())
            out += "no path\n";
          else
            out += "distance " + dist_text(dtype, row(i), c) + fmt(", %zu vertices: ", cell(i, c).size()) +
                   path_text(cell(i, c)) + "\n";
        }
      }
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (std::fflush(stdout) != 0) failure(std::string("cannot write the table: ") + std::strerror(errno));
  return 0;
}

}  // namespace gsp_cli
