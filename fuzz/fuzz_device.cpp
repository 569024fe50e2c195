// Fuzz target: the device-array entry points of gsp_device.h,
// gsp_graph_create_csr_device, gsp_graph_create_device and
// gsp_sssp_run_device, with arguments decoded from the input: a sequence of
// up to 8 calls, each with its n (0, negative, huge), counts, offsets, ids
// and weights of any bits, weight type and flags (invalid values, unknown
// bits), NULL arrays, arrays placed in host memory where device memory is
// asked for, and options (NULL, or device ordinal, size field, backend,
// algorithm, flags, delta, threads, limit, num_devices, cuda_stream, each
// sometimes invalid); a run takes the last graph made of small weights,
// a source in or out of range, distances and predecessors (or NULL, with
// and without GSP_NO_PATHS) and a gsp_run_info of any size field.
//
// Every array is a buffer of exactly the size the call is told (malloc, so
// ASan reports a read or write past it; a device copy of the same size on a
// GPU). Oracle, everywhere: the status is one the function documents; a
// failure leaves a message and no graph, and writes nothing to the
// caller's host arrays.
// - Without a usable device (this program built without a CUDA runtime of
//   its own, or none present): exactly GSP_ERR_INVALID_ARGUMENT where an
//   argument the entry checks first is bad (graph out-pointer, flags,
//   weight type, options, info size, distances NULL, predecessors with
//   GSP_NO_PATHS), GSP_ERR_NO_DEVICE otherwise; nothing is read.
// - With one (the replay built with CUDA on a GPU machine, GSP_FUZZ_HAS_CUDART):
//   the arrays are copied into device memory with the CUDA runtime and the
//   answer is the host twin's (gsp_graph_create_csr / gsp_graph_create with
//   the same host arrays, gsp_sssp_run with the same options): the same
//   status, the same CSR arrays, the same distances, and predecessors that
//   are on shortest paths. An array in host memory (or on another device
//   than options->device) that the call would read is refused with
//   GSP_ERR_INVALID_ARGUMENT unless an earlier check refuses the call.
// The host twin of every run is checked against an exact Bellman-Ford
// (cut at options->limit) in both cases.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_util.h"

#if GSP_FUZZ_HAS_CUDART
#include <cuda_runtime.h>
#endif

namespace {

using fuzz::Bytes;
using fuzz::kInf;
using fuzz::Model;
using fuzz::weight_bytes;

// Whether the library and this program both have a CUDA device to use.
bool have_device() {
  static const bool yes = [] {
#if GSP_FUZZ_HAS_CUDART
    int count = 0;
    if (gsp_device_count() <= 0) return false;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
      (void)cudaGetLastError();
      return false;
    }
    return true;
#else
    return false;
#endif
  }();
  return yes;
}

#if GSP_FUZZ_HAS_CUDART
void cuda_check(cudaError_t e, const char* what) {
  FUZZ_CHECK(e == cudaSuccess, "%s: %s (the harness's own CUDA call)", what, cudaGetErrorString(e));
}
#endif

// Where a caller's array is: device memory (host memory without a device),
// host memory where device memory is asked for, or NULL.
enum class Place : uint8_t { kDevice, kHost, kNull };

Place pick_place(Bytes& in) {
  const uint8_t k = in.u8();
  return k < 224 ? Place::kDevice : k < 240 ? Place::kHost : Place::kNull;
}

// One array argument of exactly `bytes` bytes: host memory from malloc
// (never NULL, even when empty) and, placed on a usable device, a device
// copy of it on device 0 (the harness's own cudaMalloc, as CuPy's would be).
class Array {
 public:
  Array(const void* data, size_t bytes, Place place) : bytes_(bytes), place_(place) {
    host_ = std::malloc(bytes);
    if (host_ == nullptr) host_ = std::malloc(1);
    FUZZ_CHECK(host_ != nullptr, "malloc(%zu)", bytes);
    if (bytes > 0) std::memcpy(host_, data, bytes);
#if GSP_FUZZ_HAS_CUDART
    if (place == Place::kDevice && have_device()) {
      cuda_check(cudaMalloc(&dev_, bytes == 0 ? 1 : bytes), "cudaMalloc");
      if (bytes > 0) cuda_check(cudaMemcpy(dev_, host_, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
      // From pageable memory cudaMemcpy may return before the data lands,
      // and the library may read on a non-blocking stream (some_stream),
      // which is not ordered after it: finished here, as gsp_device.h asks.
      cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
#endif
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  ~Array() {
    std::free(host_);
#if GSP_FUZZ_HAS_CUDART
    if (dev_ != nullptr) cudaFree(dev_);
#endif
  }
  // What the device entry is given.
  void* arg() const { return place_ == Place::kNull ? nullptr : dev_ != nullptr ? dev_ : host_; }
  // What the host twin is given: the same values in host memory, or NULL.
  void* host_arg() const { return place_ == Place::kNull ? nullptr : host_; }
  // Whether the device entry may read it: device memory of `device`.
  bool readable(int32_t device) const { return dev_ != nullptr && device == 0; }
  bool null() const { return place_ == Place::kNull; }
  bool in_host_memory() const { return place_ != Place::kNull && dev_ == nullptr; }
  const void* host() const { return host_; }
  size_t bytes() const { return bytes_; }
  // The device copy's bytes, copied back into host memory (the results).
  void fetch() {
#if GSP_FUZZ_HAS_CUDART
    if (dev_ != nullptr && bytes_ > 0) {
      cuda_check(cudaMemcpy(host_, dev_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy back");
    }
#endif
  }

 private:
  void* host_ = nullptr;
  void* dev_ = nullptr;
  size_t bytes_;
  Place place_;
};

// A real stream where there is a device; elsewhere a real host object, which
// the library must never use as one.
void* some_stream() {
#if GSP_FUZZ_HAS_CUDART
  if (have_device()) {
    static cudaStream_t s = [] {
      cudaStream_t x = nullptr;
      cuda_check(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking), "cudaStreamCreate");
      return x;
    }();
    return static_cast<void*>(s);
  }
#endif
  static int not_a_stream = 0;
  return &not_a_stream;
}

int32_t raw_int(const gsp_options& o, size_t offset) {
  int32_t v = 0;
  std::memcpy(&v, reinterpret_cast<const char*>(&o) + offset, sizeof v);
  return v;
}
void set_raw_int(gsp_options* o, size_t offset, int32_t v) {
  std::memcpy(reinterpret_cast<char*>(o) + offset, &v, sizeof v);
}

struct Free {
  void operator()(void* p) const { std::free(p); }
};
// A malloc'd block of exactly `bytes` bytes, zeroed.
std::unique_ptr<unsigned char[], Free> exact_block(size_t bytes) {
  std::unique_ptr<unsigned char[], Free> b(static_cast<unsigned char*>(std::calloc(bytes, 1)));
  FUZZ_CHECK(b != nullptr, "calloc(%zu)", bytes);
  return b;
}

// The options argument: NULL, or a struct of exactly `size` bytes (at least
// its size field), as an older or newer caller's would be.
struct Options {
  std::unique_ptr<unsigned char[], Free> buf;
  const gsp_options* arg = nullptr;
  gsp_options eff{};  // what the library reads: defaults, then the caller's first `size` bytes
  bool valid = true;  // what gsp_options.h allows (the library checks every field)
};

void make_options(Bytes& in, Options* opt) {
  gsp_options_init(&opt->eff);
  const uint8_t k = in.u8();
  if (k < 24) return;  // NULL: defaults
  gsp_options o;
  gsp_options_init(&o);
  const uint8_t d = in.u8();
  o.device = d < 200 ? 0 : d < 230 ? 1 + (d & 3) : d < 245 ? -1 - (d & 3) : in.i32();
  const uint8_t b = in.u8();
  set_raw_int(&o, offsetof(gsp_options, backend),
              b < 96    ? GSP_BACKEND_AUTO
              : b < 176 ? GSP_BACKEND_CPU
              : b < 250 ? GSP_BACKEND_CUDA
              : b < 254 ? 3 + (b & 1)
                        : in.i32());
  const uint8_t a = in.u8();
  set_raw_int(&o, offsetof(gsp_options, algorithm), a < 240 ? a % static_cast<int32_t>(GSP_ALGORITHM_END_) : in.i32());
  const uint8_t fl = in.u8();
  o.flags = fl < 224 ? (fl & 3u) : (fl & 1u) | (1u << (fl % 32));
  const double deltas[] = {0, 0.25, 1, 3, 1000, 1e-3, 1e-30, 5e-324, 1e300, -1, NAN, INFINITY};
  const uint8_t de = in.u8();
  o.delta = de < 200 ? deltas[de % 6] : deltas[de % 12];
  const uint8_t th = in.u8();
  o.num_threads = th < 250 ? th % 4 : -static_cast<int32_t>(th % 4) - 1;
  const double limits[] = {INFINITY, 0, 1, 2.5, 7, 40, 1e300, -1, NAN, -INFINITY, -0.0, 5e-324};
  const uint8_t li = in.u8();
  o.limit = li < 160 ? INFINITY : limits[li % 12];
  const uint8_t nd = in.u8();
  o.num_devices = nd < 224 ? 0 : nd < 240 ? 1 + (nd & 3) : nd < 252 ? -1 : INT32_MIN;
  o.cuda_stream = (in.u8() & 1) != 0 ? some_stream() : nullptr;
  // The size field: this header's; 0.1's (up to progress_user); one with
  // limit but not num_devices; too small; cutting limit in two; or larger
  // than this header's.
  const uint8_t sz = in.u8();
  const size_t sizes[] = {sizeof(gsp_options),
                          offsetof(gsp_options, limit),
                          offsetof(gsp_options, num_devices),
                          0,
                          4,
                          offsetof(gsp_options, limit) - 1,
                          offsetof(gsp_options, limit) + 3,
                          sizeof(gsp_options) + 16};
  o.size = static_cast<uint32_t>(sz < 192 ? sizeof(gsp_options) : sizes[sz % 8]);
  const size_t bytes = std::max<size_t>(o.size, sizeof o.size);
  opt->buf = exact_block(bytes);
  std::memcpy(opt->buf.get(), &o, std::min(bytes, sizeof o));
  opt->arg = reinterpret_cast<const gsp_options*>(opt->buf.get());
  // What the library reads: nothing past `size`.
  if (o.size >= offsetof(gsp_options, limit)) std::memcpy(&opt->eff, &o, std::min<size_t>(o.size, sizeof o));
  const gsp_options& e = opt->eff;
  const int32_t backend = raw_int(e, offsetof(gsp_options, backend));
  const int32_t algorithm = raw_int(e, offsetof(gsp_options, algorithm));
  opt->valid = o.size >= offsetof(gsp_options, limit) && backend >= GSP_BACKEND_AUTO && backend <= GSP_BACKEND_CUDA &&
               algorithm >= 0 && algorithm < static_cast<int32_t>(GSP_ALGORITHM_END_) && e.device >= 0 &&
               (e.flags & ~static_cast<uint32_t>(GSP_NO_PATHS | GSP_ROWS_ANY_ORDER)) == 0 && std::isfinite(e.delta) &&
               e.delta >= 0 && e.num_threads >= 0 && !std::isnan(e.limit) && e.limit >= 0 && e.num_devices >= 0 &&
               (e.num_devices <= 1 || e.cuda_stream == nullptr);
}

bool documented_create_status(gsp_status s) {
  return s == GSP_OK || s == GSP_ERR_INVALID_ARGUMENT || s == GSP_ERR_INVALID_GRAPH || s == GSP_ERR_OUT_OF_MEMORY ||
         s == GSP_ERR_NO_DEVICE || s == GSP_ERR_DEVICE;
}

// Where two graphs differ, in words (empty where they do not).
std::string csr_difference(const fuzz::CsrCopy& a, const fuzz::CsrCopy& b) {
  char text[200];
  if (a.n != b.n || a.m != b.m || a.dtype != b.dtype) {
    std::snprintf(text, sizeof text, "n %d / %d, m %lld / %lld, type %d / %d", a.n, b.n, static_cast<long long>(a.m),
                  static_cast<long long>(b.m), static_cast<int>(a.dtype), static_cast<int>(b.dtype));
    return text;
  }
  for (size_t i = 0; i < a.offsets.size(); i++) {
    if (a.offsets[i] != b.offsets[i]) {
      std::snprintf(text, sizeof text, "offsets[%zu] %lld / %lld", i, static_cast<long long>(a.offsets[i]),
                    static_cast<long long>(b.offsets[i]));
      return text;
    }
  }
  for (size_t i = 0; i < a.targets.size(); i++) {
    if (a.targets[i] != b.targets[i]) {
      std::snprintf(text, sizeof text, "targets[%zu] %d / %d (m %lld)", i, a.targets[i], b.targets[i],
                    static_cast<long long>(a.m));
      return text;
    }
  }
  const size_t wb = weight_bytes(a.dtype);
  for (size_t i = 0; i < a.weights.size(); i++) {
    if (a.weights[i] != b.weights[i]) {
      std::snprintf(text, sizeof text, "weights[%zu] %.17g / %.17g (m %lld, type %d)", i / wb,
                    fuzz::value_at(a.weights.data(), a.dtype, static_cast<int32_t>(i / wb)),
                    fuzz::value_at(b.weights.data(), b.dtype, static_cast<int32_t>(i / wb)),
                    static_cast<long long>(a.m), static_cast<int>(a.dtype));
      return text;
    }
  }
  return std::string();
}

// The graphs runs take: at most 64 vertices and 1024 arcs, every weight a
// quarter within +-1024 (sums exact in float, so every engine's distances
// equal Bellman-Ford's in double).
constexpr int32_t kMaxRunVertices = 64;
constexpr int64_t kMaxRunArcs = 1024;

std::shared_ptr<Model> runnable_model(const fuzz::CsrCopy& c) {
  if (c.n > kMaxRunVertices || c.m > kMaxRunArcs) return nullptr;
  auto m = std::make_shared<Model>();
  m->n = c.n;
  m->dtype = c.dtype;
  m->src.reserve(static_cast<size_t>(c.m));
  m->dst.reserve(static_cast<size_t>(c.m));
  m->w.reserve(static_cast<size_t>(c.m));
  for (int32_t u = 0; u < c.n; u++) {
    for (int64_t k = c.offsets[u]; k < c.offsets[u + 1]; k++) {
      const double w = fuzz::value_at(c.weights.data(), c.dtype, static_cast<int32_t>(k));
      if (!(std::fabs(w) <= 1024 && w * 4 == std::floor(w * 4))) return nullptr;
      m->src.push_back(u);
      m->dst.push_back(c.targets[k]);
      m->w.push_back(w);
      if (w < 0) m->negative = true;
    }
  }
  return m;
}

// The graph runs take: the last runnable one made (its handle owned here).
struct Slot {
  std::shared_ptr<Model> model;
  ~Slot() {
    if (model) gsp_graph_destroy(model->g);
  }
  void keep(gsp_graph* g) {
    std::shared_ptr<Model> m;
    if (gsp_graph_num_vertices(g) <= kMaxRunVertices) m = runnable_model(fuzz::csr_of(g));
    if (!m) {
      gsp_graph_destroy(g);
      return;
    }
    if (model) gsp_graph_destroy(model->g);
    m->g = g;
    model = m;
  }
};

// The device entry's answer against the host twin's, and what becomes of
// the graphs. `readable`: every array the call reads is device memory of
// options->device. `pre`: a check made before anything is read refuses
// the call (GSP_ERR_INVALID_ARGUMENT).
void check_create(gsp_status s, const std::string& msg, gsp_graph* g, gsp_status twin, gsp_graph* h, bool pre,
                  bool readable, bool graph_out, Slot* slot) {
  FUZZ_CHECK(documented_create_status(s), "device create: status %d", static_cast<int>(s));
  FUZZ_CHECK(twin == GSP_OK || twin == GSP_ERR_INVALID_ARGUMENT || twin == GSP_ERR_INVALID_GRAPH ||
                 twin == GSP_ERR_OUT_OF_MEMORY,
             "host create: %s", gsp_status_name(twin));
  FUZZ_CHECK((twin == GSP_OK) == (h != nullptr), "host create: %s with handle %p", gsp_status_name(twin),
             static_cast<void*>(h));
  FUZZ_CHECK(twin == GSP_OK || gsp_last_error()[0] != '\0', "host create: failure without a message");
  if (s != GSP_OK) {
    FUZZ_CHECK(!graph_out || g == nullptr, "a failed device create left a handle");
    FUZZ_CHECK(!msg.empty(), "device create: failure without a message");
  }
  const char* why = msg.c_str();
  if (pre) {
    FUZZ_CHECK(s == GSP_ERR_INVALID_ARGUMENT, "device create: %s (%s), want GSP_ERR_INVALID_ARGUMENT",
               gsp_status_name(s), why);
  } else if (!have_device()) {
    FUZZ_CHECK(s == GSP_ERR_NO_DEVICE, "device create without a device: %s (%s)", gsp_status_name(s), why);
  } else if (!readable) {
    // Never read: refused, by that check or by one made earlier.
    FUZZ_CHECK(s == GSP_ERR_INVALID_ARGUMENT || (s != GSP_OK && s == twin),
               "device create with host memory: %s (%s), host create %s", gsp_status_name(s), why,
               gsp_status_name(twin));
  } else {
    FUZZ_CHECK(s == twin, "device create %s (%s), host create %s", gsp_status_name(s), why, gsp_status_name(twin));
  }
  // (GSP_OK here implies the twin's GSP_OK, checked above.)
  if (s == GSP_OK) {
    const std::string diff = csr_difference(fuzz::csr_of(g), fuzz::csr_of(h));
    FUZZ_CHECK(diff.empty(), "the device graph differs from the host one (device / host: %s)", diff.c_str());
    gsp_graph_destroy(h);
    slot->keep(g);
  } else if (h != nullptr) {
    slot->keep(h);
  }
}

// The largest n whose n + 1 offsets are backed, and the most arcs an
// array is made for (more are passed as NULL arrays).
constexpr int32_t kMaxBackedVertices = 65 + 65535;
constexpr int64_t kMaxBackedArcs = 4096;

// gsp_graph_create_csr_device.
void call_csr(Bytes& in, Slot* slot) {
  const bool graph_out = in.u8() >= 8;
  const Place off_at = pick_place(in), tgt_at = pick_place(in), w_at = pick_place(in);
  const int32_t dtype_raw = in.u8() < 32 ? GSP_F64 : fuzz::pick_dtype(in);
  const gsp_dtype wt = dtype_raw == GSP_I32 ? GSP_I32 : dtype_raw == GSP_F64 ? GSP_F64 : GSP_F32;
  const uint32_t flags = fuzz::pick_graph_flags(in);
  const uint8_t nk = in.u8();
  const int32_t n = nk < 8 ? 65 + static_cast<int32_t>(in.u16()) : nk < 12 ? INT32_MAX - in.u8() : fuzz::pick_n(in);
  // offsets: n + 1 of them where they can be backed (for a larger n, its
  // arcs at the last vertex, sometimes offsets[0] != 0), 1 for n = 0, none
  // for a negative n, NULL for a huge one.
  const bool backed = n >= 1 && n <= kMaxBackedVertices;
  std::vector<int64_t> off;
  if (nk < 8) {
    off.assign(static_cast<size_t>(n) + 1, 0);
    const uint8_t k = in.u8();
    off[static_cast<size_t>(n)] = k % 8;
    if (k >= 248) off[0] = k - 250;
  } else if (backed) {
    off = fuzz::pick_offsets(in, n);
  } else if (n == 0) {
    off.push_back(static_cast<int64_t>(in.u64()));
  }
  // targets and weights: offsets[n] of them when that is a sane count;
  // NULL when it is too large to back.
  const int64_t last = backed ? off[static_cast<size_t>(n)] : 0;
  const int64_t m = last >= 0 && last <= kMaxBackedArcs ? last : 0;
  std::vector<int32_t> tgt(static_cast<size_t>(m));
  std::vector<uint64_t> w(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; i++) {
    tgt[i] = fuzz::pick_id(in, n);
    w[i] = fuzz::pick_weight(in, wt);
  }
  const std::vector<unsigned char> wa = fuzz::weight_array(w, wt);
  Options opt;
  make_options(in, &opt);
  const Array a_off(off.data(), off.size() * sizeof(int64_t), n > kMaxBackedVertices ? Place::kNull : off_at);
  const Array a_tgt(tgt.data(), tgt.size() * sizeof(int32_t), last > kMaxBackedArcs ? Place::kNull : tgt_at);
  const Array a_w(wa.data(), w.size() * weight_bytes(wt), last > kMaxBackedArcs ? Place::kNull : w_at);

  gsp_graph* g = reinterpret_cast<gsp_graph*>(&g);
  const gsp_status s = gsp_graph_create_csr_device(
      graph_out ? &g : nullptr, n, static_cast<const int64_t*>(a_off.arg()), static_cast<const int32_t*>(a_tgt.arg()),
      a_w.arg(), static_cast<gsp_dtype>(dtype_raw), flags, opt.arg);
  const std::string msg = gsp_last_error();
  gsp_graph* h = reinterpret_cast<gsp_graph*>(&h);
  const gsp_status twin = gsp_graph_create_csr(&h, n, static_cast<const int64_t*>(a_off.host_arg()),
                                               static_cast<const int32_t*>(a_tgt.host_arg()), a_w.host_arg(),
                                               static_cast<gsp_dtype>(dtype_raw), flags);
  const bool pre = !graph_out || (flags & ~static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED)) != 0 ||
                   !(dtype_raw == GSP_F32 || dtype_raw == GSP_I32 || dtype_raw == GSP_F64) || !opt.valid;
  // What the call reads: the offsets (n >= 1), then offsets[n] targets and weights.
  const int32_t dev = opt.eff.device;
  const bool readable = n < 1 || a_off.null() ||
                        (a_off.readable(dev) &&
                         (last <= 0 || ((a_tgt.null() || a_tgt.readable(dev)) && (a_w.null() || a_w.readable(dev)))));
  check_create(s, msg, graph_out ? g : nullptr, twin, h, pre, readable, graph_out, slot);
}

// gsp_graph_create_device.
void call_coo(Bytes& in, Slot* slot) {
  const bool graph_out = in.u8() >= 8;
  const Place src_at = pick_place(in), tgt_at = pick_place(in), w_at = pick_place(in);
  const int32_t dtype_raw = in.u8() < 32 ? GSP_F64 : fuzz::pick_dtype(in);
  const gsp_dtype wt = dtype_raw == GSP_I32 ? GSP_I32 : dtype_raw == GSP_F64 ? GSP_F64 : GSP_F32;
  const uint32_t flags = fuzz::pick_graph_flags(in);
  const uint8_t nk = in.u8();
  const int32_t n = nk < 8 ? INT32_MAX - in.u8() : nk < 12 ? (1 << 22) + in.u8() : fuzz::pick_n(in);
  const int64_t m = in.u8() % 96;
  // The count the call is told: m; a negative one with real arrays; or one
  // too large to back, with NULL arrays.
  const uint8_t ck = in.u8();
  const int64_t claimed = ck < 8 ? -static_cast<int64_t>(in.u8()) - 1 : ck < 12 ? (int64_t{1} << 40) + in.u8() : m;
  std::vector<int32_t> src(static_cast<size_t>(m)), dst(static_cast<size_t>(m));
  std::vector<uint64_t> w(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; i++) {
    src[i] = fuzz::pick_id(in, n);
    dst[i] = fuzz::pick_id(in, n);
    w[i] = fuzz::pick_weight(in, wt);
  }
  const std::vector<unsigned char> wa = fuzz::weight_array(w, wt);
  Options opt;
  make_options(in, &opt);
  const bool huge = claimed > m;
  const Array a_src(src.data(), src.size() * sizeof(int32_t), huge ? Place::kNull : src_at);
  const Array a_dst(dst.data(), dst.size() * sizeof(int32_t), huge ? Place::kNull : tgt_at);
  const Array a_w(wa.data(), w.size() * weight_bytes(wt), huge ? Place::kNull : w_at);

  gsp_graph* g = reinterpret_cast<gsp_graph*>(&g);
  const gsp_status s = gsp_graph_create_device(
      graph_out ? &g : nullptr, n, claimed, static_cast<const int32_t*>(a_src.arg()),
      static_cast<const int32_t*>(a_dst.arg()), a_w.arg(), static_cast<gsp_dtype>(dtype_raw), flags, opt.arg);
  const std::string msg = gsp_last_error();
  gsp_graph* h = reinterpret_cast<gsp_graph*>(&h);
  const gsp_status twin = gsp_graph_create(&h, n, claimed, static_cast<const int32_t*>(a_src.host_arg()),
                                           static_cast<const int32_t*>(a_dst.host_arg()), a_w.host_arg(),
                                           static_cast<gsp_dtype>(dtype_raw), flags);
  const bool pre = !graph_out || (flags & ~static_cast<uint32_t>(GSP_GRAPH_UNDIRECTED)) != 0 ||
                   !(dtype_raw == GSP_F32 || dtype_raw == GSP_I32 || dtype_raw == GSP_F64) || !opt.valid;
  const int32_t dev = opt.eff.device;
  const bool readable = claimed <= 0 || ((a_src.null() || a_src.readable(dev)) &&
                                         (a_dst.null() || a_dst.readable(dev)) && (a_w.null() || a_w.readable(dev)));
  check_create(s, msg, graph_out ? g : nullptr, twin, h, pre, readable, graph_out, slot);
}

// gsp_sssp_run_device on the slot's graph (or NULL), against gsp_sssp_run.
void call_sssp(Bytes& in, const Slot& slot) {
  const Model* m = in.u8() >= 8 ? slot.model.get() : nullptr;
  const int32_t n = m != nullptr ? m->n : 1;
  const gsp_dtype dt = m != nullptr ? m->dtype : GSP_F32;
  int32_t source = static_cast<int32_t>(in.u8()) % n;
  if (in.u8() < 8) source = in.i32();
  Options opt;
  make_options(in, &opt);
  const Place dist_at = pick_place(in);
  const uint8_t pk = in.u8();
  const Place pred_at = pk < 96 ? Place::kNull : pick_place(in);
  // info: NULL, or a struct of exactly its size field's bytes (0: this
  // header's), valid or too small.
  const uint8_t ik = in.u8();
  const size_t info_sizes[] = {0,
                               sizeof(gsp_run_info),
                               offsetof(gsp_run_info, setup_seconds),
                               offsetof(gsp_run_info, num_devices),
                               offsetof(gsp_run_info, setup_seconds) - 1,
                               4,
                               offsetof(gsp_run_info, setup_seconds) + 4,
                               sizeof(gsp_run_info) + 24};
  const bool with_info = ik >= 96;
  const size_t info_size = info_sizes[ik % 8];
  const size_t info_bytes = std::max<size_t>(info_size == 0 ? sizeof(gsp_run_info) : info_size, sizeof(uint32_t));
  const std::unique_ptr<unsigned char[], Free> info = exact_block(info_bytes);
  const uint32_t info_size32 = static_cast<uint32_t>(info_size);
  std::memcpy(info.get(), &info_size32, sizeof info_size32);

  // The caller's arrays, filled with a pattern no result has.
  const std::vector<unsigned char> pattern(static_cast<size_t>(n) * 8, 0xA5);
  Array dist(pattern.data(), static_cast<size_t>(n) * weight_bytes(dt), dist_at);
  Array pred(pattern.data(), static_cast<size_t>(n) * sizeof(int32_t), pred_at);

  const gsp_status s =
      gsp_sssp_run_device(m != nullptr ? m->g : nullptr, source, opt.arg, dist.arg(), static_cast<int32_t*>(pred.arg()),
                          with_info ? reinterpret_cast<gsp_run_info*>(info.get()) : nullptr);
  const std::string msg = gsp_last_error();
  const char* why = msg.c_str();
  FUZZ_CHECK(fuzz::known_status(s), "device run: status %d", static_cast<int>(s));
  FUZZ_CHECK(s != GSP_ERR_INTERNAL && s != GSP_ERR_IO && s != GSP_ERR_PARSE && s != GSP_ERR_BUFFER_TOO_SMALL &&
                 s != GSP_ERR_NO_PATH && s != GSP_ERR_CANCELLED && s != GSP_ERR_OVERFLOW,
             "device run: %s (%s)", gsp_status_name(s), why);
  if (s != GSP_OK) {
    FUZZ_CHECK(!msg.empty(), "device run: failure without a message");
    // Host memory is never written (refused, or nothing computed).
    FUZZ_CHECK(!dist.in_host_memory() || std::memcmp(dist.host(), pattern.data(), dist.bytes()) == 0,
               "a failed run wrote the distances in host memory");
    FUZZ_CHECK(!pred.in_host_memory() || std::memcmp(pred.host(), pattern.data(), pred.bytes()) == 0,
               "a failed run wrote the predecessors in host memory");
  }
  const bool info_ok = info_size == 0 || info_size >= offsetof(gsp_run_info, setup_seconds);
  const bool no_paths = (opt.eff.flags & GSP_NO_PATHS) != 0;
  const bool pre = m == nullptr || !opt.valid || (with_info && !info_ok) || dist.null() || (!pred.null() && no_paths);
  if (pre) {
    FUZZ_CHECK(s == GSP_ERR_INVALID_ARGUMENT, "device run: %s (%s), want GSP_ERR_INVALID_ARGUMENT", gsp_status_name(s),
               why);
  } else if (!have_device()) {
    FUZZ_CHECK(s == GSP_ERR_NO_DEVICE, "device run without a device: %s (%s)", gsp_status_name(s), why);
  } else if (!(dist.readable(opt.eff.device) && (pred.null() || pred.readable(opt.eff.device)))) {
    FUZZ_CHECK(s == GSP_ERR_INVALID_ARGUMENT, "device run with host memory: %s (%s)", gsp_status_name(s), why);
  }
  if (m == nullptr) return;

  // The host twin, checked against Bellman-Ford cut at the limit.
  gsp_paths* p = reinterpret_cast<gsp_paths*>(&p);
  const gsp_status twin = gsp_sssp_run(m->g, source, opt.arg, &p);
  FUZZ_CHECK(fuzz::known_status(twin) && twin != GSP_ERR_INTERNAL && twin != GSP_ERR_DEVICE && twin != GSP_ERR_IO &&
                 twin != GSP_ERR_PARSE && twin != GSP_ERR_OVERFLOW && twin != GSP_ERR_CANCELLED,
             "host run: %s (%s)", gsp_status_name(twin), gsp_last_error());
  if (twin == GSP_ERR_NEGATIVE_WEIGHT || twin == GSP_ERR_NEGATIVE_CYCLE) {
    FUZZ_CHECK(m->negative, "host run: %s without negative weights", gsp_status_name(twin));
  }
  std::vector<double> ref;
  if (twin != GSP_OK) {
    FUZZ_CHECK(p == nullptr && gsp_last_error()[0] != '\0', "a failed host run left a result or no message");
  } else {
    FUZZ_CHECK(opt.valid && source >= 0 && source < n, "host run: invalid options or source accepted");
    bool neg = false;
    ref = fuzz::reference(*m, source, &neg);
    FUZZ_CHECK(!neg, "host run: GSP_OK although a negative cycle is reachable from %d", source);
    for (double& d : ref) {
      if (d > opt.eff.limit) d = kInf;
    }
    std::vector<unsigned char> row(static_cast<size_t>(n) * weight_bytes(dt));
    std::vector<int32_t> host_pred(static_cast<size_t>(n));
    FUZZ_CHECK(gsp_paths_distances(p, source, row.data(), n) == GSP_OK, "host distances");
    const bool paths = !no_paths;
    if (paths) FUZZ_CHECK(gsp_paths_predecessors(p, source, host_pred.data(), n) == GSP_OK, "host predecessors");
    fuzz::check_row_against(*m, source, ref, row.data(), paths ? host_pred.data() : nullptr);
    gsp_paths_destroy(p);
  }
  const bool readable = dist.readable(opt.eff.device) && (pred.null() || pred.readable(opt.eff.device));
  if (pre || !have_device() || !readable) return;

  // Device memory of options->device: the host twin's answer.
  FUZZ_CHECK(s == twin, "device run %s (%s), host run %s", gsp_status_name(s), why, gsp_status_name(twin));
  if (s != GSP_OK) return;
  dist.fetch();
  pred.fetch();
  fuzz::check_row_against(*m, source, ref, dist.host(),
                          pred.null() ? nullptr : static_cast<const int32_t*>(pred.host()));
  if (with_info && info_size != 0 && info_size >= offsetof(gsp_run_info, setup_seconds)) {
    gsp_run_info r{};
    std::memcpy(&r, info.get(), std::min(info_bytes, sizeof r));
    FUZZ_CHECK(r.size >= offsetof(gsp_run_info, setup_seconds) && r.size <= info_size && r.num_sources == 1 &&
                   r.num_vertices == n && r.weight_type == dt && r.has_paths == (pred.null() ? 0u : 1u) &&
                   std::memchr(r.device_name, 0, sizeof r.device_name) != nullptr,
               "device run info: size %u, %d sources, %d vertices, has_paths %u", r.size, r.num_sources, r.num_vertices,
               r.has_paths);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  Slot slot;
  for (int step = 0; step < 8 && !in.empty(); step++) {
    switch (in.u8() % 3) {
      case 0: call_csr(in, &slot); break;
      case 1: call_coo(in, &slot); break;
      default: call_sssp(in, slot); break;
    }
  }
  return 0;
}
