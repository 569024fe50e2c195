// File readers and writers behind gsp_graph_load / gsp_graph_save. Throw
// Error: GSP_ERR_IO (with the OS's reason), GSP_ERR_PARSE ("file:line: what
// was expected"), GSP_ERR_INVALID_ARGUMENT.
#pragma once

#include <string>

#include "core/graph.h"

namespace gsp::detail::io {

GraphPtr load_graph(const std::string& path, gsp_format format, gsp_dtype dtype, bool undirected);
void save_graph(const Graph& graph, const std::string& path, gsp_format format);

// Whether s ends with suffix (lower case), ignoring ASCII case.
bool ends_with_ci(const std::string& s, const char* suffix);
// The format a file name implies: .gr[.gz] DIMACS, .mtx[.gz] Matrix Market,
// anything else an edge list.
gsp_format format_from_name(const std::string& path);

}  // namespace gsp::detail::io
