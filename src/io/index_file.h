// Road index files behind gsp_index_save / gsp_index_load (index_file.cpp;
// doc/formats.md). Throw Error: GSP_ERR_IO (with the OS's reason),
// GSP_ERR_PARSE (the file and what is wrong with it).
#pragma once

#include <memory>
#include <string>

#include "core/road_index.h"

namespace gsp::detail::io {

void save_index(const ChBase& index, const std::string& path);
// The index in `path`, checked whole (it is not yet matched to a graph).
std::unique_ptr<ChBase> load_index(const std::string& path);

}  // namespace gsp::detail::io
