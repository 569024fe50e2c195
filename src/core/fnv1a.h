// FNV-1a (64-bit): the hash of a graph's fingerprint (Graph::fingerprint)
// and the checksum of road index files (io/index_file.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsp::detail {

constexpr uint64_t kFnv1aStart = 14695981039346656037ull;

// The hash continued from h over `bytes` bytes at data.
inline uint64_t fnv1a(uint64_t h, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// The same over the 8 bytes of v, low byte first.
inline uint64_t fnv1a_value(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xffu)) * 1099511628211ull;
  return h;
}

}  // namespace gsp::detail
