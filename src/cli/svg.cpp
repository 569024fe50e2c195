// `gsp path --svg`: the graph in light grey, the path in red, over DIMACS
// coordinates (north up). A plain SVG 1.1 file that any browser opens.
#include "svg.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsp_generators.h"

namespace gsp_cli {

void write_svg(const std::string& svg_path, const std::string& coords_path, const gsp_graph* graph,
               const std::vector<int32_t>& path) {
  const int32_t n = gsp_graph_num_vertices(graph);
  const int64_t m = gsp_graph_num_edges(graph);
  double* xy = nullptr;
  char err[512];
  if (gsp_coords_read(coords_path.c_str(), n, &xy, err, sizeof err) != 0) throw std::runtime_error(err);
  std::vector<double> c(xy, xy + 2 * static_cast<size_t>(n));
  std::free(xy);

  std::vector<int64_t> off(static_cast<size_t>(n) + 1);
  std::vector<int32_t> dst(static_cast<size_t>(m));
  if (gsp_graph_csr(graph, off.data(), m ? dst.data() : nullptr, nullptr) != GSP_OK)
    throw std::runtime_error(std::string("cannot read the graph: ") + gsp_last_error());

  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (int32_t v = 0; v < n; v++) {
    const double x = c[2 * v], y = c[2 * v + 1];
    if (std::isnan(x) || std::isnan(y)) continue;
    x0 = std::fmin(x0, x);
    x1 = std::fmax(x1, x);
    y0 = std::fmin(y0, y);
    y1 = std::fmax(y1, y);
  }
  if (!(x0 <= x1)) throw std::runtime_error("'" + coords_path + "' gives no coordinates for this graph's vertices");
  const double span_x = x1 > x0 ? x1 - x0 : 1, span_y = y1 > y0 ? y1 - y0 : 1;
  const double width = 1000, margin = 10;
  double height = width * span_y / span_x;
  if (height < 200) height = 200;
  if (height > 2000) height = 2000;
  const double sx = (width - 2 * margin) / span_x, sy = (height - 2 * margin) / span_y;
  const double s = sx < sy ? sx : sy;
  auto X = [&](int32_t v) { return margin + (c[2 * v] - x0) * s; };
  auto Y = [&](int32_t v) { return height - margin - (c[2 * v + 1] - y0) * s; };
  auto has = [&](int32_t v) { return !std::isnan(c[2 * v]) && !std::isnan(c[2 * v + 1]); };

  FILE* f = std::fopen(svg_path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot create '" + svg_path + "': " + std::strerror(errno));
  const double stroke = m > 100000 ? 0.25 : m > 10000 ? 0.5 : 1.0;
  std::fprintf(f,
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\">\n"
               "<title>gsp path %d to %d</title>\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
               width, height, width, height, path.empty() ? -1 : path.front(), path.empty() ? -1 : path.back());
  // The graph: one line per arc, a two-way street drawn once.
  int64_t segments = 0;
  std::fprintf(f, "<path fill=\"none\" stroke=\"#b0b0b0\" stroke-width=\"%g\" d=\"", stroke);
  for (int32_t u = 0; u < n; u++) {
    if (!has(u)) continue;
    for (int64_t k = off[u]; k < off[u + 1]; k++) {
      const int32_t v = dst[k];
      if (v == u || !has(v)) continue;
      if (v < u) {  // skip when the reverse arc (v, u) exists and was drawn
        bool reverse = false;
        for (int64_t j = off[v]; j < off[v + 1] && j < off[v] + 64; j++) {
          if (dst[j] == u) {
            reverse = true;
            break;
          }
        }
        if (reverse) continue;
      }
      std::fprintf(f, "M%.1f %.1fL%.1f %.1f", X(u), Y(u), X(v), Y(v));
      if (++segments % 20000 == 0)
        std::fprintf(f, "\"/>\n<path fill=\"none\" stroke=\"#b0b0b0\" stroke-width=\"%g\" d=\"", stroke);
    }
  }
  std::fprintf(f, "\"/>\n");
  if (!path.empty()) {
    std::fprintf(f,
                 "<polyline fill=\"none\" stroke=\"#d01010\" stroke-width=\"3\" stroke-linejoin=\"round\" "
                 "stroke-linecap=\"round\" points=\"");
    for (size_t i = 0; i < path.size(); i++)
      if (has(path[i])) std::fprintf(f, "%s%.1f,%.1f", i ? " " : "", X(path[i]), Y(path[i]));
    std::fprintf(f, "\"/>\n");
    const int32_t a = path.front(), b = path.back();
    if (has(a))
      std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#108010\"><title>source %d</title></circle>\n",
                   X(a), Y(a), a);
    if (has(b))
      std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#1030d0\"><title>target %d</title></circle>\n",
                   X(b), Y(b), b);
  }
  std::fprintf(f, "</svg>\n");
  const bool bad = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || bad) throw std::runtime_error("cannot write '" + svg_path + "': " + std::strerror(errno));
}

}  // namespace gsp_cli
