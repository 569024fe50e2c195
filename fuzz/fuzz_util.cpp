// Support code linked into every fuzz target (libFuzzer and replay builds).
//
// Allocation cap: a file may legally declare two billion vertices, and the
// library would then try to allocate (and zero) 16 GiB, which libFuzzer
// reports as an out-of-memory "crash". Replacing the global operator new
// (tests/support/alloc_hook.h, shared with tests/test_faults.cpp) with one that refuses any single block over
// kMaxBlock turns that into the documented GSP_ERR_OUT_OF_MEMORY answer, so
// the targets still cover huge headers without exhausting the machine. The
// library's host-memory checks are bounded the same way (below).
#include "fuzz_util.h"

#include <unistd.h>
#include <zlib.h>

#include <new>
#include <vector>

#include "support/alloc_hook.h"

namespace {
constexpr std::size_t kMaxBlock = std::size_t{64} << 20;
}  // namespace

bool alloc_hook_allow(std::size_t size) { return size <= kMaxBlock; }

// The library's own host-memory budget, as a caller under a memory limit
// meets it: every up-front check the library makes before an allocation
// that grows with n, m or n^2 (src/core/host_memory.h) refuses more than
// kMaxBlock, so a file or call declaring two billion vertices is answered
// GSP_ERR_OUT_OF_MEMORY before anything is allocated, whether through
// operator new or malloc (which the cap above does not see and libFuzzer's
// -malloc_limit_mb would report as a crash).
extern "C" int gsp_testhook_host_reserve(const char* what, uint64_t bytes) {
  (void)what;
  return bytes > kMaxBlock ? 1 : 0;
}

namespace {

std::vector<std::string>& temp_files() {
  static std::vector<std::string> files;
  return files;
}
void remove_temp_files() {
  for (const auto& f : temp_files()) std::remove(f.c_str());
}
}  // namespace

namespace fuzz {

std::string temp_path(const char* suffix) {
  const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  std::string p = std::string(dir) + "/gsp_fuzz_" + std::to_string(static_cast<long>(getpid())) + "_" + suffix;
  if (temp_files().empty()) std::atexit(remove_temp_files);
  for (const auto& f : temp_files())
    if (f == p) return p;
  temp_files().push_back(p);
  return p;
}

bool write_file(const std::string& path, const uint8_t* data, size_t size, bool gzip) {
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb1");
    if (f == nullptr) return false;
    bool ok = size == 0 || gzwrite(f, data, static_cast<unsigned>(size)) == static_cast<int>(size);
    ok = gzclose(f) == Z_OK && ok;
    return ok;
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  ok = std::fclose(f) == 0 && ok;
  return ok;
}

}  // namespace fuzz
