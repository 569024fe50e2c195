// Fuzz target: the gsp command as a whole, argument parsing included: the
// CLI's sources (src/cli/) are compiled in with their main renamed
// gsp_cli_main and called with an argv made from the input:
//   byte 0: the command (sssp, path, table, nearest, apsp, info) and which
//           graph file (a small DIMACS file this harness writes, or a
//           missing one);
//   then up to 16 arguments separated by NUL or newline bytes, up to a 0xFF
//   byte; what follows is the content of the id-list file that every
//   argument starting with '@' is made to name (--sources @FILE).
// The values of --out (and its alias -o) and --svg, the only options that
// write files, are replaced by a temporary path, so the command writes
// nothing else; arguments naming other files are only ever read as graph or
// list paths that do not exist.
// Oracle: gsp_cli_main returns 0, 1 or 2 (success, failure, bad usage) and
// nothing escapes it: no exception, abort, exit, sanitizer report or leak.
#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "fuzz_util.h"

int gsp_cli_main(int argc, char** argv);

namespace {

const char* const kCommands[] = {"sssp", "path", "table", "nearest", "apsp", "info"};

const std::string& graph_file() {
  static const std::string path = [] {
    const std::string p = fuzz::temp_path("cli.gr");
    const char text[] =
        "c a small graph for the cli target\n"
        "p sp 8 11\n"
        "a 1 2 3\na 2 3 1\na 3 4 4\na 4 1 2\na 2 5 7\na 5 6 0\na 6 5 1\n"
        "a 6 7 2\na 7 8 5\na 8 7 5\na 1 8 20\n";
    if (!fuzz::write_file(p, reinterpret_cast<const uint8_t*>(text), sizeof text - 1, false))
      fuzz::fail("cannot write the graph file");
    return p;
  }();
  return path;
}

// Standard output to /dev/null.
void set_up_once() {
  static const bool done = [] {
    const int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      close(fd);
    }
    return true;
  }();
  (void)done;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  set_up_once();
  const uint8_t pick = data[0];
  std::vector<std::string> args = {"gsp", kCommands[pick % 6],
                                   (pick & 0x80) ? std::string("/nonexistent/gsp-fuzz.gr") : graph_file()};
  size_t at = 1;
  std::string cur;
  bool list_part = false;
  for (; at < size; ++at) {
    const uint8_t c = data[at];
    if (c == 0xFF) {
      list_part = true;
      ++at;
      break;
    }
    if (c == 0 || c == '\n') {
      if (args.size() < 19) args.push_back(cur);
      cur.clear();
    } else if (cur.size() < 64) {
      cur += static_cast<char>(c);
    }
  }
  if (!cur.empty() && args.size() < 19) args.push_back(cur);
  static const std::string list_path = fuzz::temp_path("cli.ids");
  static const std::string out_path = fuzz::temp_path("cli.out");
  if (!fuzz::write_file(list_path, list_part ? data + at : data, list_part ? size - at : 0, false))
    fuzz::fail("cannot write the id-list file");
  for (size_t i = 2; i < args.size(); ++i) {
    std::string& a = args[i];
    const size_t eq = a.find('=');
    const std::string key = eq == std::string::npos ? a : a.substr(0, eq);
    if ((key == "--out" || key == "--svg") && eq != std::string::npos) {
      a = key + "=" + out_path;
    } else if ((a == "--out" || a == "-o" || a == "--svg") && i + 1 < args.size()) {
      args[++i] = out_path;
    } else if (eq != std::string::npos && a.size() > eq + 1 && a[eq + 1] == '@') {
      a = key + "=@" + list_path;
    } else if (!a.empty() && a[0] == '@') {
      a = "@" + list_path;
    } else if (i >= 3 && !a.empty() && a[0] != '-') {
      // A second FILE, or an option's value: never a path of this machine.
      if (a.find('/') != std::string::npos) a = "/nonexistent/" + std::to_string(i);
    }
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  const int rc = gsp_cli_main(static_cast<int>(args.size()), argv.data());
  FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2, "gsp %s: exit code %d", args[1].c_str(), rc);
  return 0;
}
