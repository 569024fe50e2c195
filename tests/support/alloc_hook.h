// Replaces the global operator new/delete of a test program (tests and fuzz
// targets) so that it decides which allocations fail: every allocation asks
// alloc_hook_allow(size), which the including program defines. libgsp is a
// static archive, so its own allocations resolve to these too. Include this
// header in exactly one translation unit of a program.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

// Defined by the program: false makes this allocation fail (std::bad_alloc,
// or nullptr for the nothrow forms).
bool alloc_hook_allow(std::size_t size);

namespace alloc_hook_detail {
inline void* allocate(std::size_t size) {
  if (!alloc_hook_allow(size)) return nullptr;
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace alloc_hook_detail

void* operator new(std::size_t size) {
  void* p = alloc_hook_detail::allocate(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t size) {
  void* p = alloc_hook_detail::allocate(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return alloc_hook_detail::allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return alloc_hook_detail::allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
