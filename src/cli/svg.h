// SVG drawing for `gsp path --svg`.
#pragma once

#include <string>
#include <vector>

#include "gsp/gsp.h"

namespace gsp_cli {

// Draws every arc of the graph (one line per two-way street) over the DIMACS
// coordinates in coords_path, and the path on top. Throws the CLI's failure
// (exit 1) when a file cannot be read or written.
void write_svg(const std::string& svg_path, const std::string& coords_path, const gsp_graph* graph,
               const std::vector<int32_t>& path);

}  // namespace gsp_cli
