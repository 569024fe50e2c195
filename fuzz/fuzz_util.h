// Shared by the fuzz targets (fuzz/*.cpp): a byte reader that turns fuzz
// input into values, temporary files, and a check that aborts (so libFuzzer
// and the replay driver both report it) when an invariant breaks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gsp/gsp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fuzz {

// Consumes the input from the front; past the end every value is 0.
class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  size_t left() const { return n_ - at_; }
  bool empty() const { return at_ >= n_; }
  uint8_t u8() { return at_ < n_ ? d_[at_++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint32_t u32() { return static_cast<uint32_t>(u16()) | (static_cast<uint32_t>(u16()) << 16); }
  uint64_t u64() { return static_cast<uint64_t>(u32()) | (static_cast<uint64_t>(u32()) << 32); }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  bool flag() { return (u8() & 1) != 0; }
  // A value in [0, k) (k >= 1).
  uint32_t below(uint32_t k) { return k <= 256 ? u8() % k : u32() % k; }
  // The rest of the input.
  const uint8_t* rest(size_t* len) {
    *len = left();
    const uint8_t* p = d_ + at_;
    at_ = n_;
    return p;
  }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t at_ = 0;
};

// Aborts with a message: libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const char* what, const char* detail = "") {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s %s\n", what, detail);
  std::abort();
}
#define FUZZ_CHECK(cond, ...)                                   \
  do {                                                          \
    if (!(cond)) {                                              \
      char buf_[512];                                           \
      std::snprintf(buf_, sizeof buf_, __VA_ARGS__);            \
      ::fuzz::fail(#cond, buf_);                                \
    }                                                           \
  } while (0)

// A per-process temporary file name (in /dev/shm when it exists), removed at
// exit. suffix distinguishes several files of one process.
std::string temp_path(const char* suffix);

// Writes bytes to path (optionally gzip-compressed); false on failure.
bool write_file(const std::string& path, const uint8_t* data, size_t size, bool gzip);

// Every status the library may answer, and nothing else.
inline bool known_status(gsp_status s) { return s >= GSP_OK && s <= GSP_ERR_INTERNAL; }

}  // namespace fuzz
