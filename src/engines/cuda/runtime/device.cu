// The device layer: probing (and gpu::usable, device_count, started,
// start_in_background of core/gpu_runtime.h), error checking, the run context
// and the graph's cached device copy. See device.cuh for the rules engines follow.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/gpu_runtime.h"
#include "runtime/device.cuh"
#include "runtime/engines.cuh"

namespace gsp::detail::gpu {

// ---------------------------------------------------------------- errors

void check_cuda(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
  const char* base = file;
  for (const char* p = file; *p != '\0'; ++p) {
    if (*p == '/') base = p + 1;
  }
  std::string msg = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err) + " (in " + what + " at " +
                    base + ":" + std::to_string(line) + ")";
  if (err == cudaErrorMemoryAllocation) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY, "device memory exhausted: " + msg);
  }
  throw Error(GSP_ERR_DEVICE, "CUDA call failed: " + msg);
}

// ---------------------------------------------------------------- probing

namespace {

struct ProbeResult {
  bool usable = false;
  int32_t count = 0;
  std::string why;
  std::vector<cudaDeviceProp> props;  // per ordinal, read once (the call is slow)
};

std::once_flag g_probe_once;
ProbeResult g_probe;
std::atomic<bool> g_started{false};      // a RunContext has started a device (started())
std::atomic<bool> g_start_asked{false};  // start_in_background() was called

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

void do_probe() {
  ProbeResult r;
  int driver = 0, runtime = 0;
  (void)cudaRuntimeGetVersion(&runtime);
  cudaError_t derr = cudaDriverGetVersion(&driver);
  if (derr != cudaSuccess || driver == 0) {
    (void)cudaGetLastError();
    r.why = "no CUDA driver is installed (libcuda.so not found); the CUDA engines need an NVIDIA driver";
    g_probe = r;
    return;
  }
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    switch (err) {
      case cudaErrorNoDevice: r.why = "no CUDA device is present (cudaGetDeviceCount: no CUDA-capable device)"; break;
      case cudaErrorInsufficientDriver:
        r.why = "the NVIDIA driver (CUDA " + version_text(driver) +
                ") is older than the CUDA runtime libgsp was built with (" + version_text(runtime) +
                "); update the driver";
        break;
      default:
        r.why = std::string("CUDA is not usable: cudaGetDeviceCount failed: ") + cudaGetErrorName(err) + ": " +
                cudaGetErrorString(err);
        break;
    }
    g_probe = r;
    return;
  }
  if (count <= 0) {
    r.why = "no CUDA device is present";
    g_probe = r;
    return;
  }
  if (driver < runtime) {
    // cudaGetDeviceCount normally reports this itself; keep the check for
    // drivers with forward-compatibility packages that still fail later.
    r.why = "the NVIDIA driver (CUDA " + version_text(driver) +
            ") is older than the CUDA runtime libgsp was built with (" + version_text(runtime) + ")";
    g_probe = r;
    return;
  }
  r.props.resize(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) {
    cudaError_t perr = cudaGetDeviceProperties(&r.props[static_cast<size_t>(d)], d);
    if (perr != cudaSuccess) {
      (void)cudaGetLastError();
      r.why = "cudaGetDeviceProperties(" + std::to_string(d) + ") failed: " + cudaGetErrorString(perr);
      r.props.clear();
      g_probe = r;
      return;
    }
  }
  r.usable = true;
  r.count = count;
  g_probe = r;
}

}  // namespace

bool probe(std::string* why, int32_t* count) {
  std::call_once(g_probe_once, do_probe);
  if (why != nullptr) *why = g_probe.why;
  if (count != nullptr) *count = g_probe.count;
  return g_probe.usable;
}

bool usable(std::string* why) { return probe(why, nullptr); }

int32_t device_count() {
  int32_t count = 0;
  return probe(nullptr, &count) ? count : 0;
}

// ---------------------------------------------------------------- RunContext

namespace {

// The streams of runs that bring none (options.cuda_stream NULL), kept
// between runs, per device: a run takes one and gives it back idle, so a
// call pays no cudaStreamCreate and cudaStreamDestroy (5.8 µs together on
// the H200 host; a one-to-all row on a road index takes 0.25 ms).
// Concurrent runs take different streams. Kept until the process ends.
std::mutex g_streams_mu;
std::map<int, std::vector<cudaStream_t>> g_idle_streams;

cudaStream_t take_stream(int device) {
  {
    std::lock_guard<std::mutex> lock(g_streams_mu);
    std::vector<cudaStream_t>& idle = g_idle_streams[device];
    if (!idle.empty()) {
      cudaStream_t s = idle.back();
      idle.pop_back();
      return s;
    }
  }
  cudaStream_t s = nullptr;
  GSP_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

void give_stream(int device, cudaStream_t s) {
  std::lock_guard<std::mutex> lock(g_streams_mu);
  g_idle_streams[device].push_back(s);
}

}  // namespace

RunContext::RunContext(const RunOptions& options, RunStats* stats) : options_(options), stats_(stats) {
  std::string why;
  int32_t count = 0;
  if (!probe(&why, &count)) throw Error(GSP_ERR_NO_DEVICE, why);
  if (options.device < 0 || options.device >= count) {
    throw Error(GSP_ERR_INVALID_ARGUMENT, "options.device = " + std::to_string(options.device) +
                                              " is not a CUDA device ordinal (" + std::to_string(count) + " device" +
                                              (count == 1 ? "" : "s") + " usable)");
  }
  device_ = options.device;
  GSP_CUDA(cudaGetDevice(&previous_device_));
  GSP_CUDA(cudaSetDevice(device_));
  try {
    props_ = g_probe.props[static_cast<size_t>(device_)];
    if (options.cuda_stream != nullptr) {
      stream_ = static_cast<cudaStream_t>(options.cuda_stream);
      own_stream_ = false;
    } else {
      stream_ = take_stream(device_);
      own_stream_ = true;
    }
    if (options.device_memory_limit > 0) {
      budget_ = options.device_memory_limit;
    } else {
      size_t free_bytes = 0, total_bytes = 0;
      GSP_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
      budget_ = free_bytes;
    }
  } catch (...) {
    if (own_stream_ && stream_ != nullptr) give_stream(device_, stream_);
    cudaSetDevice(previous_device_);
    throw;
  }
  g_started.store(true, std::memory_order_relaxed);
  if (stats_ != nullptr) {
    stats_->backend = GSP_BACKEND_CUDA;
    stats_->device = device_;
    stats_->device_name = props_.name;
  }
}

bool started() { return g_started.load(std::memory_order_relaxed) || g_start_asked.load(std::memory_order_relaxed); }

// ------------------------------------------------------- start in background

namespace {

// The threads gsp_device_start() began, joined at exit (an atexit handler
// registered before the first one starts). Never destroyed.
struct BackgroundStarts {
  std::mutex mu;
  std::vector<std::thread> threads;
  bool all_asked = false;
  std::vector<int32_t> asked;
};
BackgroundStarts& background_starts() {
  static BackgroundStarts* b = [] {
    auto* made = new BackgroundStarts();
    std::atexit([] {
      BackgroundStarts& s = background_starts();
      std::lock_guard<std::mutex> lock(s.mu);
      for (auto& t : s.threads) {
        if (t.joinable()) t.join();
      }
    });
    return made;
  }();
  return *b;
}

// On the starting thread: the probe (driver), then each asked device's
// primary context; for every device, also peer access between each pair
// (what a run over several devices enables first). Errors are left for the
// run that needs the device.
void start_devices(int32_t device) noexcept {
  std::string why;
  int32_t count = 0;
  if (!probe(&why, &count)) return;
  for (int32_t d = device < 0 ? 0 : device; d < count && (device < 0 || d == device); ++d) {
    if (cudaSetDevice(d) == cudaSuccess) (void)cudaFree(nullptr);
    (void)cudaGetLastError();
  }
  if (device >= 0) return;
  try {
    for (int32_t d = 0; d < count; ++d) {
      for (int32_t peer = 0; peer < count; ++peer) {
        if (peer != d) (void)enable_peer_access(d, peer);
      }
    }
  } catch (...) {  // a failure is the run's to report
  }
  (void)cudaGetLastError();
}

}  // namespace

bool start_in_background(int32_t device) {
  BackgroundStarts& b = background_starts();
  std::lock_guard<std::mutex> lock(b.mu);
  g_start_asked.store(true, std::memory_order_relaxed);
  if (b.all_asked || std::find(b.asked.begin(), b.asked.end(), device) != b.asked.end()) return true;
  if (device < 0) b.all_asked = true;
  b.asked.push_back(device);
  try {
    b.threads.emplace_back(start_devices, device);
  } catch (...) {  // no thread: the first run starts the device as before
  }
  return true;
}

bool enable_peer_access(int device, int peer) {
  static std::mutex mu;
  static std::map<std::pair<int, int>, bool> done;
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(device, peer);
  if (const auto it = done.find(key); it != done.end()) return it->second;
  int can = 0;
  GSP_CUDA(cudaDeviceCanAccessPeer(&can, device, peer));
  bool on = false;
  if (can != 0) {
    int previous = 0;
    GSP_CUDA(cudaGetDevice(&previous));
    GSP_CUDA(cudaSetDevice(device));
    const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
    (void)cudaGetLastError();  // cudaErrorPeerAccessAlreadyEnabled: the caller's own, fine
    on = err == cudaSuccess || err == cudaErrorPeerAccessAlreadyEnabled;
    GSP_CUDA(cudaSetDevice(previous));
  }
  done[key] = on;
  return on;
}

RunContext::~RunContext() {
  if (own_stream_ && stream_ != nullptr) {
    // Wait for work still queued (an error path may leave some), so the
    // next run finds the stream idle; errors here cannot be reported from a
    // destructor. A stream the device has lost (a sticky error) is dropped.
    if (cudaStreamSynchronize(stream_) == cudaSuccess) {
      give_stream(device_, stream_);
    } else {
      (void)cudaStreamDestroy(stream_);
    }
  }
  (void)cudaGetLastError();
  (void)cudaSetDevice(previous_device_);
}

void RunContext::reserve(size_t bytes, const char* what) {
  if (bytes > budget_ - used_) {
    throw Error(GSP_ERR_DEVICE_OUT_OF_MEMORY,
                std::string("device memory over the budget allocating ") + what + ": " + std::to_string(bytes) +
                    " bytes needed, " + std::to_string(budget_ - used_) + " of " + std::to_string(budget_) + " left" +
                    (options_.device_memory_limit > 0 ? " (options.device_memory_limit)" : " (free on the device)"));
  }
  used_ += bytes;
}

void RunContext::release(size_t bytes) { used_ = bytes > used_ ? 0 : used_ - bytes; }

void RunContext::sync() const { GSP_CUDA(cudaStreamSynchronize(stream_)); }

int resident_blocks_per_sm(const void* kernel, int device, int threads) {
  static std::mutex mu;
  static std::map<std::tuple<const void*, int, int>, int> known;
  const auto key = std::make_tuple(kernel, device, threads);
  {
    std::lock_guard<std::mutex> lock(mu);
    const auto it = known.find(key);
    if (it != known.end()) return it->second;
  }
  int occ = 0;
  GSP_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, threads, 0));
  std::lock_guard<std::mutex> lock(mu);
  known[key] = occ;
  return occ;
}

// ---------------------------------------------------------------- graph cache

namespace {

// Device arrays of one direction of the graph.
struct DeviceArrays {
  void* offsets = nullptr;
  void* targets = nullptr;
  void* weights = nullptr;
  bool ready = false;
};

struct PerDevice {
  DeviceArrays forward;
  DeviceArrays reverse;
};

// What the CUDA layer caches on a Graph: the arrays per device ordinal.
class GraphDeviceCache final : public DeviceCacheBase {
 public:
  ~GraphDeviceCache() override {
    int previous = 0;
    bool have_previous = cudaGetDevice(&previous) == cudaSuccess;
    for (auto& [device, entry] : per_device) {
      if (cudaSetDevice(device) != cudaSuccess) continue;
      free_arrays(entry.forward);
      free_arrays(entry.reverse);
    }
    if (have_previous) cudaSetDevice(previous);
    (void)cudaGetLastError();
  }
  static void free_arrays(DeviceArrays& a) {
    if (a.offsets) cudaFree(a.offsets);
    if (a.targets) cudaFree(a.targets);
    if (a.weights) cudaFree(a.weights);
    a = DeviceArrays{};
  }
  std::map<int, PerDevice> per_device;
};

// Owns raw device allocations until release(); frees them on an error path.
struct PendingArrays {
  DeviceArrays a;
  ~PendingArrays() { GraphDeviceCache::free_arrays(a); }
  DeviceArrays release() {
    DeviceArrays r = a;
    a = DeviceArrays{};
    return r;
  }
};

void* raw_alloc(size_t bytes, const char* what) {
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, bytes == 0 ? 1 : bytes), what, __FILE__, __LINE__);
  return p;
}

template <class W>
DeviceCsr<W> get_or_upload(RunContext& ctx, const Graph& graph, bool reverse) {
  if (graph.dtype() != dtype_of<W>()) {
    throw Error(GSP_ERR_INTERNAL, "device_graph: weight type does not match the graph's");
  }
  // The reverse graph is built on the host outside the device lock (it has
  // its own once-flag).
  const CsrView<W> view = reverse ? graph.reverse_view<W>() : graph.view<W>();

  std::lock_guard<std::mutex> lock(graph.device_mutex());
  std::unique_ptr<DeviceCacheBase>& slot = graph.device_cache();
  if (!slot) slot = std::make_unique<GraphDeviceCache>();
  auto* cache = dynamic_cast<GraphDeviceCache*>(slot.get());
  if (cache == nullptr) throw Error(GSP_ERR_INTERNAL, "device_graph: foreign device cache on the graph");
  PerDevice& entry = cache->per_device[ctx.device()];
  DeviceArrays& arrays = reverse ? entry.reverse : entry.forward;

  if (!arrays.ready) {
    const size_t off_bytes = static_cast<size_t>(view.n + 1) * sizeof(int64_t);
    const size_t tgt_bytes = static_cast<size_t>(view.m) * sizeof(int32_t);
    const size_t w_bytes = static_cast<size_t>(view.m) * sizeof(W);
    const size_t total = off_bytes + tgt_bytes + w_bytes;
    // Charged to this run for good: the copy outlives the run.
    ctx.reserve(total, reverse ? "the reverse graph's device copy" : "the graph's device copy");

    const auto t0 = std::chrono::steady_clock::now();
    PendingArrays pending;
    pending.a.offsets = raw_alloc(off_bytes, "cudaMalloc(graph offsets)");
    pending.a.targets = raw_alloc(tgt_bytes, "cudaMalloc(graph targets)");
    pending.a.weights = raw_alloc(w_bytes, "cudaMalloc(graph weights)");
    GSP_CUDA(cudaMemcpyAsync(pending.a.offsets, view.offsets, off_bytes, cudaMemcpyHostToDevice, ctx.stream()));
    if (view.m > 0) {
      GSP_CUDA(cudaMemcpyAsync(pending.a.targets, view.targets, tgt_bytes, cudaMemcpyHostToDevice, ctx.stream()));
      GSP_CUDA(cudaMemcpyAsync(pending.a.weights, view.weights, w_bytes, cudaMemcpyHostToDevice, ctx.stream()));
    }
    ctx.sync();  // the host arrays are pageable, and the copy must be complete before it is shared
    arrays = pending.release();
    arrays.ready = true;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ctx.stats() != nullptr) ctx.stats()->upload_seconds += secs;
  }

  DeviceCsr<W> d;
  d.n = view.n;
  d.m = view.m;
  d.offsets = static_cast<const int64_t*>(arrays.offsets);
  d.targets = static_cast<const int32_t*>(arrays.targets);
  d.weights = static_cast<const W*>(arrays.weights);
  return d;
}

}  // namespace

template <class W>
DeviceCsr<W> device_graph(RunContext& ctx, const Graph& graph) {
  return get_or_upload<W>(ctx, graph, false);
}
template <class W>
DeviceCsr<W> device_reverse_graph(RunContext& ctx, const Graph& graph) {
  return get_or_upload<W>(ctx, graph, true);
}

template DeviceCsr<float> device_graph<float>(RunContext&, const Graph&);
template DeviceCsr<int32_t> device_graph<int32_t>(RunContext&, const Graph&);
template DeviceCsr<double> device_graph<double>(RunContext&, const Graph&);
template DeviceCsr<float> device_reverse_graph<float>(RunContext&, const Graph&);
template DeviceCsr<int32_t> device_reverse_graph<int32_t>(RunContext&, const Graph&);
template DeviceCsr<double> device_reverse_graph<double>(RunContext&, const Graph&);

}  // namespace gsp::detail::gpu
