// `gsp sssp` and `gsp path`: single-source shortest paths, and one path
// (optionally drawn as SVG).
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

namespace gsp_cli {

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
                        .append(kDevicesHelp)
                        .append("                    (one source runs on one GPU; N is still checked)\n")
                        .append(kLimitHelp)
                        .append(kIndexHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--source", "--to", "--out", "--algorithm", "--backend", "--threads", "--delta", "--limit",
                     "--devices", "--index", "--format", "--weights"},
                    {"--check", "--undirected"}};

namespace {

bool has_negative(const gsp_graph* g) {
  Csr c;
  get_csr(g, c);
  for (int64_t k = 0; k < c.m; k++)
    if (c.weight(k) < 0) return true;
  return false;
}

// What --check found: every distance equal to the CPU reference's (int32
// exactly, float and double within their rounding), and the line saying so.
struct Check {
  bool ok = true;
  std::string message;
};

Check check_against_cpu(const gsp_graph* g, int32_t s, const gsp_options& o, const void* row) {
  const int32_t n = gsp_graph_num_vertices(g);
  const gsp_dtype dtype = gsp_graph_weight_type(g);
  gsp_options ref;
  gsp_options_init(&ref);
  ref.backend = GSP_BACKEND_CPU;
  ref.algorithm = has_negative(g) ? GSP_SSSP_BELLMAN_FORD : GSP_SSSP_DIJKSTRA;
  ref.flags = GSP_NO_PATHS;
  ref.limit = o.limit;
  PathsHolder R;
  const gsp_status rs = gsp_sssp_run(g, s, &ref, &R.p);
  if (rs != GSP_OK) failure("--check: the reference run failed: " + status_text(rs));
  std::vector<char> refbuf(static_cast<size_t>(n) * weight_bytes(dtype));
  if (gsp_paths_distances(R.p, s, refbuf.data(), n) != GSP_OK) failure("--check: cannot read distances");
  int64_t bad = 0;
  int32_t first = -1;
  for (int32_t v = 0; v < n; v++) {
    bool same;
    if (dtype == GSP_I32) {
      same = static_cast<const int32_t*>(row)[v] == reinterpret_cast<const int32_t*>(refbuf.data())[v];
    } else {
      // float sums in any order agree to about 1e-7 relative, double ones to about 1e-16
      const double x = dist_value(dtype, row, v), y = dist_value(dtype, refbuf.data(), v);
      const double tol = dtype == GSP_F64 ? 1e-12 : 1e-5;
      same = (std::isinf(x) && std::isinf(y)) || std::fabs(x - y) <= tol * (std::fabs(y) + 1.0);
    }
    if (!same) {
      if (first < 0) first = v;
      bad++;
    }
  }
  if (bad == 0) return {true, fmt("OK: all %d distances match the CPU %s", n, gsp_algorithm_name(ref.algorithm))};
  return {false, fmt("FAILED: %lld of %d distances differ from the CPU %s; first at vertex %d: %s, want %s",
                     static_cast<long long>(bad), n, gsp_algorithm_name(ref.algorithm), first,
                     dist_text(dtype, row, first).c_str(), dist_text(dtype, refbuf.data(), first).c_str())};
}

// --out FILE: a 'vertex distance predecessor' line per vertex of source s's row.
void write_distances(const Args& a, const gsp_graph* g, const gsp_paths* p, int32_t s, const void* row) {
  const int32_t n = gsp_graph_num_vertices(g);
  const gsp_dtype dtype = gsp_graph_weight_type(g);
  const std::string out = a.get("--out");
  FILE* f = open_out(out);
  std::vector<int32_t> pred(static_cast<size_t>(n), -1);
  const bool preds = gsp_paths_predecessors(p, s, pred.data(), n) == GSP_OK;
  std::fprintf(f, "# gsp sssp %s --source %d: vertex distance predecessor\n", a.pos[0].c_str(), s);
  for (int32_t v = 0; v < n; v++)
    std::fprintf(f, "%d %s %d\n", v, dist_text(dtype, row, v).c_str(), preds ? pred[v] : -1);
  close_out(f, out);
}

}  // namespace

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
  check_index_args(a);
  Loaded L;
  start_device_early(a, false);
  load(L, a, a.pos[0]);
  IndexHolder H;
  load_index(H, a, L.g, o);
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
  std::vector<char> rowbuf(static_cast<size_t>(n) * weight_bytes(dtype));
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
  const Check check = a.has("--check") ? check_against_cpu(L.g, s, o, row) : Check{};
  const bool check_ok = check.ok;
  const std::string& check_msg = check.message;
  if (a.opt.count("--out")) write_distances(a, L.g, P.p, s, row);

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
    print_graph_line(rep, a.pos[0], L);
    print_index_line(rep, a, H);
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
                        .append(kIndexHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--from", "--to", "--svg", "--coords", "--algorithm", "--backend", "--threads", "--delta",
                     "--index", "--format", "--weights"},
                    {"--undirected"}};

}  // namespace gsp_cli
