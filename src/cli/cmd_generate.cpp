// `gsp generate`: write a generated graph (gsp_tools generators) to a file.
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

// ------------------------------------------------------------------ generate

const Spec kGenerate = {"generate",
                        "usage: gsp generate KIND --vertices N [--degree D] [--seed S] [--weights i32|f32|f64]\n"
                        "                    [--max-weight W] [--coords FILE.co] -o FILE\n"
                        "\n"
                        "Writes a generated graph; the format follows FILE's extension (.gr DIMACS,\n"
                        ".mtx Matrix Market, else edge list). KIND is one of:\n"
                        "  random     fixed out-degree D (default 6) to random vertices\n"
                        "  rmat       R-MAT power law, N*D arcs (default D 6)\n"
                        "  grid       road-like 2-D grid, about N vertices, two-way streets\n"
                        "  road       grid of streets with arterials (every 8th row and column)\n"
                        "             and highways (every 64th) of shorter travel times\n"
                        "  ring       directed cycle\n"
                        "  complete   every arc u -> v, u != v\n"
                        "  dag        DAG with negative arcs, D arcs per vertex (default 3)\n"
                        "\n"
                        "  --vertices N      vertex count (grid, road: rounded up to rows x cols)\n"
                        "  --degree D        out-degree (random, rmat, dag)\n"
                        "  --seed S          random seed (default 1); same seed, same graph\n"
                        "  --weights T       i32 (default), f32 or f64; weights are integers in 1..W\n"
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
  if (w != "i32" && w != "f32" && w != "f64") usage_error("--weights: expected i32, f32 or f64, got '" + w + "'");
  if (kind == "complete" && n > 46341) usage_error("--vertices: complete graphs are limited to 46341 vertices");
  const std::string out = a.get("--out");
  const double t0 = now();
  gsp_graph* g = nullptr;
  gsp_status s = gsp_gen_by_name(&g, kind.c_str(), n, deg, seed,
                                 w == "f32"   ? GSP_F32
                                 : w == "f64" ? GSP_F64
                                              : GSP_I32,
                                 maxw);
  if (s != GSP_OK && *gsp_gen_error()) {  // the generator says why (arguments, its own arrays)
    failure(std::string("cannot generate the graph: ") + gsp_status_name(s) + ": " + gsp_gen_error());
  }
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
      if (kind == "grid" || kind == "road") {
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

}  // namespace gsp_cli
