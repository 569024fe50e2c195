// A host array for large results (rows x n distances and predecessors):
// allocated without zero-filling (engines write every entry), 2 MiB aligned
// with transparent huge pages requested for large sizes, so a 34 GB APSP
// result costs page faults once, not a memset plus faults.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
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
    if (bytes >= 16 * kHuge) {
      p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
      if (p != nullptr) (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint; failure is fine
    } else {
      p = std::malloc(bytes);
    }
    if (p == nullptr) throw std::bad_alloc();
    data_.reset(static_cast<T*>(p));
    size_ = count;
  }
  // Allocates count elements, each set to value.
  void assign(size_t count, const T& value) {
    resize_uninitialized(count);
    std::fill(data(), data() + count, value);
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_ = 0;
};

}  // namespace gsp::detail
