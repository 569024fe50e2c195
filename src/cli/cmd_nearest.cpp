// `gsp nearest`: for every vertex, the distance to the nearest of many
// sources and which source that is (gsp_nearest_run: one search from all
// the sources at once).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"

namespace gsp_cli {

const Spec kNearest = {
    "nearest",
    std::string("usage: gsp nearest FILE --sources LIST [--vertices LIST] [--paths] [--csv] [options]\n"
                "\n"
                "For every vertex, the distance to the nearest of the sources and which\n"
                "source that is (0-based ids): nearest facilities, the Voronoi cells of a\n"
                "graph. One search from all the sources at once, as cheap as one 'gsp sssp'\n"
                "whatever the number of sources. A summary comes first, then one line per\n"
                "vertex, 'VERTEX DISTANCE NEAREST' ('inf' and -1 where no source reaches);\n"
                "--quiet prints the lines alone.\n"
                "\n"
                "  --sources LIST    source vertices, e.g. 0,5,10-20 (repeats allowed)\n"
                "  --vertices LIST   list only these vertices, in this order (default: all)\n"
                "  --paths           also print each vertex's path from its nearest source\n"
                "  --csv             the lines as CSV on stdout, 'vertex,distance,nearest'\n"
                "                    (',path' with --paths); the summary goes to stderr\n")
        .append(kRunHelp)
        .append(kLimitHelp)
        .append(kLoadHelp)
        .append(kCommonHelp),
    {"--sources", "--vertices", "--algorithm", "--backend", "--threads", "--delta", "--limit", "--format", "--weights"},
    {"--paths", "--csv", "--undirected"}};

namespace {

// The path from v's nearest source to v through the predecessors; empty
// when no source reaches v.
std::vector<int32_t> walk(const std::vector<int32_t>& pred, const std::vector<int32_t>& nearest, int32_t v) {
  std::vector<int32_t> path;
  if (nearest[static_cast<size_t>(v)] < 0) return path;
  for (int32_t u = v; u >= 0 && path.size() <= pred.size(); u = pred[static_cast<size_t>(u)]) path.push_back(u);
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

int cmd_nearest(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  const bool quiet = a.has("--quiet"), json = a.has("--json"), csv = a.has("--csv"), paths = a.has("--paths");
  if (csv && json) usage_error("--csv and --json both choose the output; choose one");
  if (!a.opt.count("--sources")) usage_error("missing --sources LIST");
  if (a.get("--sources").empty()) usage_error("--sources: the list is empty");
  Progress prog;
  gsp_options o;
  run_options(a, o, &prog);
  if (!paths) o.flags |= GSP_NO_PATHS;
  Loaded L;
  start_device_early(a, false);
  load(L, a, a.pos[0]);
  const int32_t n = gsp_graph_num_vertices(L.g);
  const gsp_dtype dtype = gsp_graph_weight_type(L.g);
  const std::vector<int32_t> sources = parse_vertex_list("--sources", a.get("--sources"), n);
  if (sources.size() > static_cast<size_t>(INT32_MAX)) usage_error("more than 2^31 - 1 sources");
  std::vector<int32_t> listed;
  if (a.opt.count("--vertices")) {
    if (a.get("--vertices").empty()) usage_error("--vertices: the list is empty");
    listed = parse_vertex_list("--vertices", a.get("--vertices"), n);
  } else {
    listed.resize(static_cast<size_t>(n));
    for (int32_t v = 0; v < n; v++) listed[static_cast<size_t>(v)] = v;
  }

  std::vector<char> dist(static_cast<size_t>(n) * weight_bytes(dtype));
  std::vector<int32_t> nearest(static_cast<size_t>(n), -1), pred;
  if (paths) pred.assign(static_cast<size_t>(n), -1);
  prog.begin(quiet || json);
  const double t0 = now();
  const gsp_status st = gsp_nearest_run(L.g, sources.data(), static_cast<int32_t>(sources.size()), &o, dist.data(),
                                        nearest.data(), paths ? pred.data() : nullptr);
  const double secs = now() - t0;
  prog.end();
  if (st != GSP_OK) failure("nearest failed: " + status_text(st));
  const void* row = dist.data();
  int64_t reached = 0;
  int32_t far = sources[0];
  for (int32_t v = 0; v < n; v++) {
    if (!reachable(dtype, row, v)) continue;
    reached++;
    if (dist_value(dtype, row, v) > dist_value(dtype, row, far)) far = v;
  }

  if (json) {
    std::string j = fmt("{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, ",
                        json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds);
    j += "\"sources\": " + path_json(sources) +
         fmt(", \"seconds\": %.6f, \"reached\": %lld", secs, static_cast<long long>(reached));
    j += fmt(", \"farthest\": {\"vertex\": %d, \"distance\": %s, \"nearest\": %d}", far,
             dist_json(dtype, row, far).c_str(), nearest[static_cast<size_t>(far)]);
    j += ", \"ids\": " + path_json(listed) + ", \"distances\": [";
    for (size_t i = 0; i < listed.size(); i++) j += (i ? ", " : "") + dist_json(dtype, row, listed[i]);
    j += "], \"nearest\": [";
    for (size_t i = 0; i < listed.size(); i++)
      j += (i ? ", " : "") + std::to_string(nearest[static_cast<size_t>(listed[i])]);
    j += "]";
    if (paths) {
      j += ", \"paths\": [";
      for (size_t i = 0; i < listed.size(); i++) {
        const std::vector<int32_t> p = walk(pred, nearest, listed[i]);
        j += (i ? ", " : "") + (p.empty() ? std::string("null") : path_json(p));
      }
      j += "]";
    }
    std::printf("%s}\n", j.c_str());
    return 0;
  }

  // The summary: on stdout before the lines, or on stderr with --csv.
  FILE* const rep = csv ? stderr : stdout;
  if (!quiet) {
    print_graph_line(rep, a.pos[0], L);
    std::fprintf(rep, "run:       nearest of %zu sources, %.3f s\n", sources.size(), secs);
    std::fprintf(rep, "reached:   %lld of %d vertices; farthest %d at distance %s from source %d\n",
                 static_cast<long long>(reached), n, far, dist_text(dtype, row, far).c_str(),
                 nearest[static_cast<size_t>(far)]);
  }
  std::string out;
  if (csv) out = paths ? "vertex,distance,nearest,path\n" : "vertex,distance,nearest\n";
  for (const int32_t v : listed) {
    const std::string d = dist_text(dtype, row, v);
    const int32_t s = nearest[static_cast<size_t>(v)];
    if (csv) {
      out += fmt("%d,", v) + d + fmt(",%d", s);
      if (paths) {
        out += ",";
        const std::vector<int32_t> p = walk(pred, nearest, v);
        for (size_t k = 0; k < p.size(); k++) out += (k ? " " : "") + std::to_string(p[k]);
      }
    } else {
      out += fmt("%d ", v) + d + fmt(" %d", s);
      if (paths) {
        const std::vector<int32_t> p = walk(pred, nearest, v);
        out += p.empty() ? std::string(" no path") : " path: " + path_text(p);
      }
    }
    out += "\n";
    if (out.size() >= (1u << 20)) {
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    failure(std::string("cannot write the lines: ") + std::strerror(errno));
  return 0;
}

}  // namespace gsp_cli
