// The weight types on the device (float, double, int32_t): their bit
// patterns, atomic minimum on a distance array, and the packed
// (distance key, parent) word that the lock-free engines lower atomically.
//
// Atomic minimum on a floating-point distance: the IEEE bit patterns of
// values >= 0 (and +inf) order like the values when read as signed integers,
// those of negative values in reverse when read as unsigned. So a value >= 0
// takes a signed atomicMin, a negative one an unsigned atomicMax (the sign
// split); atomic_min_nonneg() is the first half alone, for engines whose
// distances are never negative. float uses the 32-bit atomics, double the
// 64-bit ones; int32 is atomicMin itself.
//
// The packed word: an order-preserving key of the distance and the parent,
// the key in the high half, lowered by one atomic so that distance and parent
// always belong together. A 4-byte key packs with the parent into 64 bits
// (atomicMin on unsigned long long). An 8-byte key (double) cannot: its word
// is 128 bits (ulonglong2: .y the key, .x the parent), lowered by a
// compare-and-swap loop on sm_90's 16-byte atomicCAS, which orders (key,
// parent) lexicographically exactly as the 64-bit atomicMin does. All ones
// is "no distance yet" in both.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gsp::detail::gpu {

template <class W>
struct WeightTraits;

template <>
struct WeightTraits<float> {
  using Bits = uint32_t;
  static __host__ __device__ __forceinline__ float inf() { return __builtin_huge_valf(); }
  static __device__ __forceinline__ Bits to_bits(float d) { return __float_as_uint(d); }
  static __device__ __forceinline__ float from_bits(Bits b) { return __uint_as_float(b); }
  static __device__ __forceinline__ void atomic_min_nonneg(float* p, float v) {
    atomicMin(reinterpret_cast<int*>(p), __float_as_int(v));
  }
  static __device__ __forceinline__ void atomic_min(float* p, float v) {
    if (!signbit(v)) {
      atomicMin(reinterpret_cast<int*>(p), __float_as_int(v));
    } else {
      atomicMax(reinterpret_cast<unsigned*>(p), __float_as_uint(v));
    }
  }
};

template <>
struct WeightTraits<double> {
  using Bits = unsigned long long;
  static __host__ __device__ __forceinline__ double inf() { return __builtin_huge_val(); }
  static __device__ __forceinline__ Bits to_bits(double d) { return static_cast<Bits>(__double_as_longlong(d)); }
  static __device__ __forceinline__ double from_bits(Bits b) { return __longlong_as_double(static_cast<long long>(b)); }
  static __device__ __forceinline__ void atomic_min_nonneg(double* p, double v) {
    atomicMin(reinterpret_cast<long long*>(p), __double_as_longlong(v));
  }
  static __device__ __forceinline__ void atomic_min(double* p, double v) {
    if (!signbit(v)) {
      atomicMin(reinterpret_cast<long long*>(p), __double_as_longlong(v));
    } else {
      atomicMax(reinterpret_cast<unsigned long long*>(p), to_bits(v));
    }
  }
};

template <>
struct WeightTraits<int32_t> {
  using Bits = uint32_t;
  static __host__ __device__ __forceinline__ int32_t inf() { return INT32_MAX; }
  static __device__ __forceinline__ Bits to_bits(int32_t d) { return static_cast<uint32_t>(d); }
  static __device__ __forceinline__ int32_t from_bits(Bits b) { return static_cast<int32_t>(b); }
  static __device__ __forceinline__ void atomic_min_nonneg(int32_t* p, int32_t v) { atomicMin(p, v); }
  static __device__ __forceinline__ void atomic_min(int32_t* p, int32_t v) { atomicMin(p, v); }
};

// ---------------------------------------------------------------- packed words

// The word type for keys of type K (uint32_t: 64 bits; unsigned long long:
// 128 bits).
template <class K>
struct PackedWordOf;
template <>
struct PackedWordOf<uint32_t> {
  using type = unsigned long long;
};
template <>
struct PackedWordOf<unsigned long long> {
  using type = ulonglong2;
};
template <class K>
using PackedWord = typename PackedWordOf<K>::type;

__host__ __device__ __forceinline__ unsigned long long pack_word(uint32_t key, int32_t parent) {
  return (static_cast<unsigned long long>(key) << 32) | static_cast<uint32_t>(parent);
}
__host__ __device__ __forceinline__ ulonglong2 pack_word(unsigned long long key, int32_t parent) {
  ulonglong2 w;
  w.x = static_cast<uint32_t>(parent);
  w.y = key;
  return w;
}
__host__ __device__ __forceinline__ uint32_t word_key(unsigned long long w) { return static_cast<uint32_t>(w >> 32); }
__host__ __device__ __forceinline__ unsigned long long word_key(ulonglong2 w) { return w.y; }
__host__ __device__ __forceinline__ int32_t word_parent(unsigned long long w) {
  return static_cast<int32_t>(static_cast<uint32_t>(w));
}
__host__ __device__ __forceinline__ int32_t word_parent(ulonglong2 w) {
  return static_cast<int32_t>(static_cast<uint32_t>(w.x));
}

template <class Word>
__host__ __device__ __forceinline__ Word unreached_word();
template <>
__host__ __device__ __forceinline__ unsigned long long unreached_word<unsigned long long>() {
  return ~0ull;
}
template <>
__host__ __device__ __forceinline__ ulonglong2 unreached_word<ulonglong2>() {
  ulonglong2 w;
  w.x = ~0ull;
  w.y = ~0ull;
  return w;
}
__host__ __device__ __forceinline__ bool is_unreached(unsigned long long w) { return w == ~0ull; }
__host__ __device__ __forceinline__ bool is_unreached(ulonglong2 w) { return (w.x & w.y) == ~0ull; }
__host__ __device__ __forceinline__ bool same_word(unsigned long long a, unsigned long long b) { return a == b; }
__host__ __device__ __forceinline__ bool same_word(ulonglong2 a, ulonglong2 b) { return a.x == b.x && a.y == b.y; }

// Loads bypassing L1 (the words change under other threads).
__device__ __forceinline__ unsigned long long load_word(const unsigned long long* p) { return __ldcg(p); }
__device__ __forceinline__ ulonglong2 load_word(const ulonglong2* p) { return __ldcg(p); }
__device__ __forceinline__ unsigned long long load_word_volatile(const volatile unsigned long long* p) { return *p; }
__device__ __forceinline__ ulonglong2 load_word_volatile(const volatile ulonglong2* p) {
  ulonglong2 w;
  w.x = p->x;
  w.y = p->y;
  return w;
}

// *p = min(*p, w) by (key, parent); returns the old word, as atomicMin.
__device__ __forceinline__ unsigned long long word_min(unsigned long long* p, unsigned long long w) {
  return atomicMin(p, w);
}
// The 128-bit word: a compare-and-swap loop. The first guess is a plain
// 16-byte load; a torn or stale guess only makes the CAS fail and return the
// current word (keys only fall, so a guess whose key is already <= w's
// means the current one is too).
__device__ __forceinline__ ulonglong2 word_min(ulonglong2* p, ulonglong2 w) {
  ulonglong2 cur = __ldcg(p);
  while (w.y < cur.y || (w.y == cur.y && w.x < cur.x)) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const ulonglong2 old = atomicCAS(p, cur, w);
#else
    const ulonglong2 old = cur;  // never run: the engines are built for sm_90
    __trap();
#endif
    if (old.x == cur.x && old.y == cur.y) return cur;
    cur = old;
  }
  return cur;
}

// Exchanges (atomicExch) a word, for the tag caches.
__device__ __forceinline__ unsigned long long word_exch(unsigned long long* p, unsigned long long w) {
  return atomicExch(p, w);
}
__device__ __forceinline__ ulonglong2 word_exch(ulonglong2* p, ulonglong2 w) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return atomicExch(p, w);
#else
  __trap();
  return w;
#endif
}

}  // namespace gsp::detail::gpu
