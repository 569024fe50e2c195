// The gsp command: generate, info, sssp, apsp, path, table, nearest, index. Built on the
// public C API (include/gsp/gsp.h) and the gsp_tools generators / coordinate
// reader. This file holds the dispatch and the help; each command has a
// file (cmd_*.cpp) and the shared pieces are in cli_common.cpp (cli.h).
//
// Exit codes: 0 success, 1 failure (a file that cannot be read, a run that
// fails, a --check that disagrees, no path), 2 bad usage.
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "cli.h"
#include "gsp/gsp.h"

namespace {

using namespace gsp_cli;

// ------------------------------------------------------------------ main

const char* kMainHelp =
    "usage: gsp COMMAND [options]\n"
    "\n"
    "Shortest paths on CPUs and NVIDIA GPUs (libgsp).\n"
    "\n"
    "commands:\n"
    "  generate KIND --vertices N -o FILE     write a generated graph\n"
    "  info FILE                              describe a graph\n"
    "  sssp FILE --source S [--to T]          single-source shortest paths\n"
    "  apsp FILE [--sources LIST] [--out F]   all-pairs shortest paths, streamed\n"
    "  path FILE --from S --to T [--svg F]    one shortest path, optionally drawn\n"
    "  table FILE --sources L --targets L     distances from every source to every target\n"
    "  nearest FILE --sources LIST            each vertex's nearest source and its distance\n"
    "  index FILE -o INDEX                    build a road index; sssp, path, apsp and\n"
    "                                         table answer from it with --index INDEX\n"
    "\n"
    "Vertex ids are 0-based (DIMACS vertex 1 is 0). 'gsp COMMAND --help' for details.\n"
    "Exit codes: 0 success, 1 failure, 2 bad usage.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kMainHelp, stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kMainHelp, stdout);
    return 0;
  }
  if (cmd == "--version") {
    const uint32_t v = gsp_version();
    std::printf("gsp %u.%u.%u\n", v >> 16, (v >> 8) & 0xff, v & 0xff);
    return 0;
  }
  const Spec* spec = nullptr;
  if (cmd == "generate")
    spec = &kGenerate;
  else if (cmd == "info")
    spec = &kInfo;
  else if (cmd == "sssp")
    spec = &kSssp;
  else if (cmd == "apsp")
    spec = &kApsp;
  else if (cmd == "path")
    spec = &kPath;
  else if (cmd == "table")
    spec = &kTable;
  else if (cmd == "nearest")
    spec = &kNearest;
  else if (cmd == "index")
    spec = &kIndex;
  if (spec == nullptr) {
    std::fprintf(stderr, "gsp: unknown command '%s'; see 'gsp --help'\n", cmd.c_str());
    return 2;
  }
  try {
    const Args a = parse_args(*spec, argc - 2, argv + 2);
    if (a.has("--help")) {
      std::fputs(spec->usage.c_str(), stdout);
      return 0;
    }
    if (spec == &kGenerate) return cmd_generate(a);
    if (spec == &kInfo) return cmd_info(a);
    if (spec == &kSssp) return cmd_sssp(a, false);
    if (spec == &kPath) return cmd_sssp(a, true);
    if (spec == &kTable) return cmd_table(a);
    if (spec == &kNearest) return cmd_nearest(a);
    if (spec == &kIndex) return cmd_index(a);
    return cmd_apsp(a);
  } catch (const Exit& e) {
    std::fprintf(stderr, "gsp %s: %s\n", cmd.c_str(), e.message.c_str());
    // One hint: messages that already point at --help get no second one.
    if (e.code == 2 && e.message.find("--help") == std::string::npos)
      std::fprintf(stderr, "see 'gsp %s --help'\n", cmd.c_str());
    return e.code;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "gsp %s: %s\n", cmd.c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gsp %s: out of memory\n", cmd.c_str());
    return 1;
  }
}
