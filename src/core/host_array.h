// A host array for large results (rows x n distances and predecessors):
// allocated without zero-filling (engines write every entry), 2 MiB aligned
// with transparent huge pages requested for large sizes, so a 34 GB APSP
// result costs page faults once, not a memset plus faults. assign_zero()
// gets large zeroed arrays from calloc, i.e. untouched zero pages (a graph's
// CSR offsets: an empty graph of 2^31 - 1 vertices costs no resident
// memory). Small arrays come from operator new, so the tests' allocation
// hook (tests/support/alloc_hook.h) can make them fail. It can also
// adopt memory from another allocator (the CUDA backend's page-locked
// result buffers, gpu::result_buffer_take()) with the function that gives
// it back.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace gsp::detail {

template <class T>
class HostArray {
 public:
  // Allocates count elements with unspecified contents (previous contents are lost).
  void resize_uninitialized(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = std::max<size_t>(count * sizeof(T), 1);
    constexpr size_t kHuge = size_t(2) << 20;
    void* p = nullptr;
    Free how;
    if (bytes >= 16 * kHuge) {
      p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
      if (p != nullptr) (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint; failure is fine
    } else {
      p = ::operator new(bytes, std::nothrow);
      how.by_delete = true;
    }
    if (p == nullptr) throw std::bad_alloc();
    data_ = std::unique_ptr<T, Free>(static_cast<T*>(p), how);
    size_ = count;
  }
  // Allocates count elements, all zero bits; large arrays stay untouched
  // zero pages until written.
  void assign_zero(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = std::max<size_t>(count * sizeof(T), 1);
    if (bytes < size_t(1) << 20) {
      resize_uninitialized(count);
      std::memset(static_cast<void*>(data()), 0, bytes);
      return;
    }
    void* p = std::calloc(1, bytes);
    if (p == nullptr) throw std::bad_alloc();
    data_ = std::unique_ptr<T, Free>(static_cast<T*>(p), Free{});
    size_ = count;
  }
  // Takes p, count elements with unspecified contents, which release(p,
  // bytes) gives back when this array lets go of it (bytes: what the
  // allocator handed out, >= count * sizeof(T)).
  void adopt(T* p, size_t count, size_t bytes, void (*release)(void*, size_t)) {
    data_ = std::unique_ptr<T, Free>(p, Free{release, bytes});
    size_ = count;
  }
  // Allocates count elements, each set to value.
  void assign(size_t count, const T& value) {
    resize_uninitialized(count);
    std::fill(data(), data() + count, value);
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](size_t i) { return data_.get()[i]; }
  const T& operator[](size_t i) const { return data_.get()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Free {
    void (*release)(void*, size_t) = nullptr;  // nullptr: std::free, or operator delete when by_delete
    size_t bytes = 0;
    bool by_delete = false;
    void operator()(T* p) const {
      if (release != nullptr) {
        release(p, bytes);
      } else if (by_delete) {
        ::operator delete(static_cast<void*>(p));
      } else {
        std::free(p);
      }
    }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_ = 0;
};

}  // namespace gsp::detail
