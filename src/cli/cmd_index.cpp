// `gsp index`: build a road index (contraction hierarchy, gsp_index.h) of a
// graph and save it; `gsp sssp`, `path`, `apsp` and `table` answer from it
// with --index FILE (load_index in cli_common.cpp).
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "cli.h"
#include "gsp/gsp.h"

namespace gsp_cli {

const Spec kIndex = {"index",
                     std::string("usage: gsp index FILE -o INDEX [--threads N] [options]\n"
                                 "\n"
                                 "Builds a road index of the graph in FILE (a contraction hierarchy:\n"
                                 "gsp_index_build) and saves it to INDEX. 'gsp sssp', 'path', 'apsp' and\n"
                                 "'table' given --index INDEX then answer from it (algorithm 'ch'): the same\n"
                                 "distances, far faster on road networks. The index answers only for this\n"
                                 "graph, read the same way (--format, --weights, --undirected); it needs\n"
                                 "weights >= 0.\n"
                                 "\n"
                                 "  --out, -o INDEX   the index file to write\n"
                                 "  --threads N       CPU threads of the build (0: all cores)\n")
                         .append(kLoadHelp)
                         .append(kCommonHelp),
                     {"--out", "--threads", "--format", "--weights"},
                     {"--undirected"}};

int cmd_index(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  if (!a.opt.count("--out")) usage_error("missing -o INDEX");
  const std::string out = a.get("--out");
  if (out.empty() || out == "-") usage_error("-o: an index is written to a file, not to standard output");
  gsp_options o;
  gsp_options_init(&o);
  if (a.opt.count("--threads"))
    o.num_threads = static_cast<int32_t>(parse_int("--threads", a.get("--threads"), 0, 4096));
  Progress prog;
  o.progress = progress_cb;
  o.progress_user = &prog;
  const bool quiet = a.has("--quiet"), json = a.has("--json");
  Loaded L;
  load(L, a, a.pos[0]);

  IndexHolder H;
  gsp_run_info info{};
  info.size = sizeof(gsp_run_info);
  prog.begin(quiet || json);
  gsp_status st = gsp_index_build(L.g, &o, &H.ix, &info);
  prog.end();
  if (st != GSP_OK) failure("cannot build the index: " + status_text(st));
  st = gsp_index_save(H.ix, out.c_str());
  if (st != GSP_OK) failure("cannot save the index: " + status_text(st));
  int32_t n = 0;
  int64_t arcs = 0, shortcuts = 0;
  st = gsp_index_size(H.ix, &n, &arcs, &shortcuts);
  if (st != GSP_OK) failure("cannot read the index's size: " + status_text(st));
  struct stat sb {};
  const long long bytes = stat(out.c_str(), &sb) == 0 ? static_cast<long long>(sb.st_size) : -1;

  if (json) {
    std::printf(
        "{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, \"index\": %s, "
        "\"index_arcs\": %lld, \"shortcuts\": %lld, \"device\": %s, \"seconds\": %.6f, \"bytes\": %lld}\n",
        json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds,
        json_str(out).c_str(), static_cast<long long>(arcs), static_cast<long long>(shortcuts),
        json_str(info.device_name).c_str(), info.seconds, bytes);
  } else if (!quiet) {
    print_graph_line(stdout, a.pos[0], L);
    std::printf("index:     %d vertices, %lld arcs, %lld shortcuts, built in %.3f s on %s\n", n,
                static_cast<long long>(arcs), static_cast<long long>(shortcuts), info.seconds, info.device_name);
    std::printf("wrote:     %s, %lld bytes\n", out.c_str(), bytes);
  }
  return 0;
}

}  // namespace gsp_cli
