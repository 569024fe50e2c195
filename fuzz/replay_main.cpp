// Standalone driver: feeds every file named on the command line (or found in
// a directory named there) to LLVMFuzzerTestOneInput, so the committed seed
// corpora run as regression tests without libFuzzer (zstd/libgit2 style).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

#include "fuzz_util.h"

namespace {

bool read_all(const std::string& path, std::vector<uint8_t>* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  uint8_t buf[65536];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out->insert(out->end(), buf, buf + got);
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

void collect(const std::string& path, std::vector<std::string>* files) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    files->push_back(path);
    return;
  }
  DIR* d = opendir(path.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    collect(path + "/" + name, files);
  }
  closedir(d);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) collect(argv[i], &files);
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...: no input files found\n", argv[0]);
    return 1;
  }
  std::vector<uint8_t> data;
  for (const auto& f : files) {
    if (!read_all(f, &data)) {
      std::fprintf(stderr, "cannot read %s\n", f.c_str());
      return 1;
    }
    std::fprintf(stderr, "replay %s (%zu bytes)\n", f.c_str(), data.size());
    // A copy of exactly the input's size, so ASan sees reads past its end.
    std::unique_ptr<uint8_t[]> exact(new uint8_t[data.size()]);
    if (!data.empty()) std::memcpy(exact.get(), data.data(), data.size());
    LLVMFuzzerTestOneInput(exact.get(), data.size());
  }
  std::printf("%zu inputs replayed\n", files.size());
  return 0;
}
