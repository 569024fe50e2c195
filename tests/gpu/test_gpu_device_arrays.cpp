/* Device arrays (gsp_device.h): a graph from CSR or COO arrays in device
 * memory equals the graph from the same arrays on the host (CSR copied back
 * arc by arc), and gsp_sssp_run_device writes into device memory exactly
 * what gsp_sssp_run returns on the host, for every CUDA SSSP engine, the CPU
 * backend, AUTO, each weight type, with and without predecessors, on the
 * legacy default stream and on a stream of the caller's, with a distance
 * limit, on zero-weight graphs (the predecessor repair), and from a road
 * index (the sweep emitting into the caller's arrays). Bad arguments: a
 * host pointer, predecessors with GSP_NO_PATHS, a bad source.
 *
 * This program allocates with its own CUDA runtime, as CuPy or PyTorch
 * would, while libgsp carries its own: pointers cross between the two.
 * Without a usable device both calls must answer GSP_ERR_NO_DEVICE; the
 * test then skips (exit 77) with a visible SKIP line. */
#include <cmath>
#include <cstring>
#include <vector>

#include "gsp/gsp_index.h"
#include "testing.h"

/* GSP_TEST_HAS_CUDART (set by tests/CMakeLists.txt where CUDA is built): the
 * program links a CUDA runtime of its own; without it only the no-device
 * answers are checked. */
#if GSP_TEST_HAS_CUDART
#include <cuda_runtime.h>

namespace {

const gsp_algorithm kAlgos[] = {GSP_ALGO_AUTO,           GSP_SSSP_ATOMIC_LOCK,  GSP_SSSP_ATOMIC_64, GSP_SSSP_HARISH,
                                GSP_SSSP_DELTA_STEPPING, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,  GSP_SSSP_SPMV_ELL,
                                GSP_SSSP_GPU_DIJKSTRA,   GSP_SSSP_DIJKSTRA};

bool cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  CHECK(0, "%s: %s", what, cudaGetErrorString(e));
  return false;
}

template <class T>
T* device_copy(const T* host, size_t count) {
  void* d = nullptr;
  if (!cuda_ok(cudaMalloc(&d, count * sizeof(T) + 1), "cudaMalloc")) return nullptr;
  if (count > 0) cuda_ok(cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  // From pageable memory cudaMemcpy may return before the data lands; the
  // runs read on a non-blocking stream too (gsp_device.h: the caller orders).
  cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return static_cast<T*>(d);
}

struct Csr {
  std::vector<int64_t> off;
  std::vector<int32_t> tgt;
  std::vector<char> w;
};

Csr csr_of(const gsp_graph* g) {
  Csr c;
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  c.off.resize(static_cast<size_t>(n) + 1);
  c.tgt.resize(static_cast<size_t>(m) + 1);
  c.w.resize(static_cast<size_t>(m) * t_dist_bytes(gsp_graph_weight_type(g)) + 8);
  CHECK_OK(gsp_graph_csr(g, c.off.data(), c.tgt.data(), c.w.data()));
  return c;
}

/* The device graph: built from device copies of g's CSR, checked equal to g. */
gsp_graph* device_graph(const gsp_graph* g, const char* what) {
  const gsp_dtype dt = gsp_graph_weight_type(g);
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  const Csr c = csr_of(g);
  int64_t* d_off = device_copy(c.off.data(), c.off.size());
  int32_t* d_tgt = device_copy(c.tgt.data(), static_cast<size_t>(m));
  char* d_w = device_copy(c.w.data(), static_cast<size_t>(m) * t_dist_bytes(dt));
  gsp_graph* h = nullptr;
  CHECK_OK(gsp_graph_create_csr_device(&h, n, d_off, d_tgt, d_w, dt, 0, nullptr));
  if (h != nullptr) {
    const Csr back = csr_of(h);
    CHECK(gsp_graph_weight_type(h) == dt && gsp_graph_num_edges(h) == m && back.off == c.off && back.tgt == c.tgt &&
              back.w == c.w,
          "%s: the device-built graph differs from the host one", what);
  }
  /* the same arcs as a device COO list (tails expanded from the offsets) */
  std::vector<int32_t> tails(static_cast<size_t>(m) + 1);
  for (int32_t u = 0; u < n; u++) {
    for (int64_t e = c.off[static_cast<size_t>(u)]; e < c.off[static_cast<size_t>(u) + 1]; e++)
      tails[static_cast<size_t>(e)] = u;
  }
  int32_t* d_src = device_copy(tails.data(), static_cast<size_t>(m));
  gsp_graph* k = nullptr;
  CHECK_OK(gsp_graph_create_device(&k, n, m, d_src, d_tgt, d_w, dt, 0, nullptr));
  if (k != nullptr) {
    const Csr back = csr_of(k);
    CHECK(back.off == c.off && back.tgt == c.tgt && back.w == c.w, "%s: the device COO graph differs", what);
  }
  gsp_graph_destroy(k);
  cudaFree(d_src);
  cudaFree(d_off);
  cudaFree(d_tgt);
  cudaFree(d_w);
  return h;
}

/* One device run against the host run of the same options (with ix, both
 * from that road index). */
void compare_run(const gsp_graph* g, const gsp_graph* dg, int32_t src, gsp_algorithm algo, gsp_backend be,
                 uint32_t flags, double limit, cudaStream_t stream, const char* what, gsp_index* ix = nullptr) {
  const gsp_dtype dt = gsp_graph_weight_type(g);
  const int32_t n = gsp_graph_num_vertices(g);
  const size_t wb = t_dist_bytes(dt);
  gsp_options o;
  gsp_options_init(&o);
  o.algorithm = algo;
  o.backend = be;
  o.flags = flags;
  o.limit = limit;
  o.index = ix;
  gsp_paths* p = nullptr;
  const gsp_status want = gsp_sssp_run(g, src, &o, &p);
  void* d_dist = nullptr;
  int32_t* d_pred = nullptr;
  cuda_ok(cudaMalloc(&d_dist, static_cast<size_t>(n) * wb), "cudaMalloc dist");
  if (!(flags & GSP_NO_PATHS)) cuda_ok(cudaMalloc(reinterpret_cast<void**>(&d_pred), n * sizeof(int32_t)), "pred");
  o.cuda_stream = stream;
  gsp_run_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  const gsp_status got = gsp_sssp_run_device(dg, src, &o, d_dist, d_pred, &info);
  CHECK(got == want, "%s: device run %s (%s), host run %s", what, gsp_status_name(got), gsp_last_error(),
        gsp_status_name(want));
  if (got == GSP_OK && want == GSP_OK) {
    std::vector<char> a(static_cast<size_t>(n) * wb), b(static_cast<size_t>(n) * wb);
    std::vector<int32_t> pa(static_cast<size_t>(n)), pb(static_cast<size_t>(n));
    cuda_ok(cudaMemcpy(a.data(), d_dist, a.size(), cudaMemcpyDeviceToHost), "copy back");
    CHECK_OK(gsp_paths_distances(p, src, b.data(), n));
    int bad = 0;
    for (int32_t v = 0; v < n; v++) bad += t_dist_at(a.data(), dt, v) != t_dist_at(b.data(), dt, v);
    CHECK(bad == 0, "%s: %d distances differ from the host run", what, bad);
    CHECK(info.backend == (be == GSP_BACKEND_CPU ? GSP_BACKEND_CPU : GSP_BACKEND_CUDA) && info.num_sources == 1,
          "%s: info backend %s", what, gsp_backend_name(info.backend));
    if (d_pred != nullptr) {
      /* every predecessor arc tight, -1 exactly where the host run has it */
      const Csr c = csr_of(g);
      cuda_ok(cudaMemcpy(pa.data(), d_pred, n * sizeof(int32_t), cudaMemcpyDeviceToHost), "copy back pred");
      CHECK_OK(gsp_paths_predecessors(p, src, pb.data(), n));
      bad = 0;
      for (int32_t v = 0; v < n; v++) {
        const int32_t u = pa[static_cast<size_t>(v)];
        if ((u < 0) != (pb[static_cast<size_t>(v)] < 0)) {
          bad++;
          continue;
        }
        if (u < 0) continue;
        double best = HUGE_VAL;
        for (int64_t e = c.off[static_cast<size_t>(u)]; e < c.off[static_cast<size_t>(u) + 1]; e++) {
          if (c.tgt[static_cast<size_t>(e)] != v) continue;
          const double w = t_dist_at(c.w.data(), dt, e);
          if (t_dist_at(a.data(), dt, u) + w == t_dist_at(a.data(), dt, v) && w < best) best = w;
        }
        bad += best == HUGE_VAL;
      }
      CHECK(bad == 0, "%s: %d predecessors differ in reach or are not tight", what, bad);
    }
  }
  gsp_paths_destroy(p);
  cudaFree(d_dist);
  cudaFree(d_pred);
}

void test_shapes() {
  const int shapes[] = {T_RANDOM_SPARSE, T_GRID, T_ZERO_WEIGHTS, T_POWER_LAW, T_ISOLATED, T_DAG_NEGATIVE};
  cudaStream_t stream = nullptr;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  for (int shape : shapes) {
    t_arcs a;
    t_make_shape(&a, shape, 3000, 17);
    for (int di = 0; di < T_NUM_DTYPES; di++) {
      const gsp_dtype dt = t_dtypes[di];
      gsp_graph* g = t_graph(&a, dt, 1.0f);
      char what[160];
      snprintf(what, sizeof what, "%s %s", a.name, t_dtype_name(dt));
      gsp_graph* dg = device_graph(g, what);
      for (gsp_algorithm algo : kAlgos) {
        if (dg == nullptr) break;
        const gsp_backend be = algo == GSP_SSSP_DIJKSTRA ? GSP_BACKEND_CPU : GSP_BACKEND_AUTO;
        for (int variant = 0; variant < 4; variant++) {
          /* 0: paths, default stream; 1: no paths; 2: the caller's stream; 3: a limit */
          char vwhat[200];
          const double limit = variant == 3 && !a.negative ? 40.0 : HUGE_VAL;
          snprintf(vwhat, sizeof vwhat, "%s %s variant %d", what, gsp_algorithm_name(algo), variant);
          compare_run(g, dg, a.n / 3, algo, be, variant == 1 ? GSP_NO_PATHS : 0, limit, variant == 2 ? stream : nullptr,
                      vwhat);
        }
      }
      gsp_graph_destroy(dg);
      gsp_graph_destroy(g);
    }
    t_arcs_free(&a);
  }
  cudaStreamDestroy(stream);
}

/* Rows from a road index into device arrays (the CUDA sweep emits into
 * them; the CPU's rows are copied in) equal the host's rows from the same
 * index, on the non-negative shapes, each weight type (zero weights and
 * floats: the predecessor check), with and without paths, on the caller's
 * stream, with a limit. */
void test_index_rows() {
  const int shapes[] = {T_RANDOM_SPARSE, T_GRID, T_ZERO_WEIGHTS, T_ISOLATED};
  cudaStream_t stream = nullptr;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  for (int shape : shapes) {
    t_arcs a;
    t_make_shape(&a, shape, 3000, 23);
    for (int di = 0; di < T_NUM_DTYPES; di++) {
      const gsp_dtype dt = t_dtypes[di];
      gsp_graph* g = t_graph(&a, dt, 1.0f);
      gsp_index* ix = nullptr;
      CHECK_OK(gsp_index_build(g, nullptr, &ix, nullptr));
      for (int variant = 0; ix != nullptr && variant < 8; variant++) {
        /* variant & 3 as in test_shapes; variant & 4: the CPU backend */
        char what[200];
        const gsp_backend be = (variant & 4) ? GSP_BACKEND_CPU : GSP_BACKEND_AUTO;
        const double limit = (variant & 3) == 3 ? 40.0 : HUGE_VAL;
        snprintf(what, sizeof what, "%s %s, road index, variant %d", a.name, t_dtype_name(dt), variant);
        for (int32_t src : {a.n / 3, 0, a.n - 1}) {
          compare_run(g, g, src, GSP_ALGO_AUTO, be, (variant & 3) == 1 ? GSP_NO_PATHS : 0, limit,
                      (variant & 3) == 2 ? stream : nullptr, what, ix);
        }
      }
      gsp_index_destroy(ix);
      gsp_graph_destroy(g);
    }
    t_arcs_free(&a);
  }
  cudaStreamDestroy(stream);
}

void test_refusals() {
  t_arcs a;
  t_make_shape(&a, T_RING, 50, 1);
  gsp_graph* g = t_graph(&a, GSP_F32, 1.0f);
  std::vector<float> host(50);
  float* d_dist = nullptr;
  int32_t* d_pred = nullptr;
  cuda_ok(cudaMalloc(reinterpret_cast<void**>(&d_dist), 50 * sizeof(float)), "malloc");
  cuda_ok(cudaMalloc(reinterpret_cast<void**>(&d_pred), 50 * sizeof(int32_t)), "malloc");
  CHECK_STATUS(gsp_sssp_run_device(g, 0, nullptr, host.data(), nullptr, nullptr), GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "distances is not CUDA device memory") != nullptr, "%s", gsp_last_error());
  gsp_options o;
  gsp_options_init(&o);
  o.flags = GSP_NO_PATHS;
  CHECK_STATUS(gsp_sssp_run_device(g, 0, &o, d_dist, d_pred, nullptr), GSP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gsp_sssp_run_device(g, 50, nullptr, d_dist, d_pred, nullptr), GSP_ERR_INVALID_ARGUMENT);
  const Csr c = csr_of(g);
  gsp_graph* h = nullptr;
  CHECK_STATUS(gsp_graph_create_csr_device(&h, 50, c.off.data(), c.tgt.data(), nullptr, GSP_F32, 0, nullptr),
               GSP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(gsp_last_error(), "offsets is not CUDA device memory") != nullptr, "%s", gsp_last_error());
  CHECK(h == nullptr, "no graph on failure");
  {
    int32_t* d_t = device_copy(c.tgt.data(), c.tgt.size());
    CHECK_STATUS(gsp_graph_create_device(&h, 50, 50, c.tgt.data(), d_t, nullptr, GSP_F32, 0, nullptr),
                 GSP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gsp_last_error(), "sources is not CUDA device memory") != nullptr, "%s", gsp_last_error());
    CHECK_STATUS(gsp_graph_create_device(&h, 50, -1, d_t, d_t, nullptr, GSP_F32, 0, nullptr), GSP_ERR_INVALID_ARGUMENT);
    cudaFree(d_t);
  }
  /* a bad CSR in device memory: the host builder's checks and messages */
  std::vector<int64_t> bad_off(c.off);
  bad_off[10] = bad_off[11] + 1;
  int64_t* d_off = device_copy(bad_off.data(), bad_off.size());
  int32_t* d_tgt = device_copy(c.tgt.data(), c.tgt.size());
  CHECK_STATUS(gsp_graph_create_csr_device(&h, 50, d_off, d_tgt, nullptr, GSP_F32, 0, nullptr), GSP_ERR_INVALID_GRAPH);
  CHECK(strstr(gsp_last_error(), "offsets must not decrease") != nullptr, "%s", gsp_last_error());
  cudaFree(d_off);
  cudaFree(d_tgt);
  cudaFree(d_dist);
  cudaFree(d_pred);
  gsp_graph_destroy(g);
  t_arcs_free(&a);
}

}  // namespace
#endif

int main() {
  if (!gsp_backend_available(GSP_BACKEND_CUDA)) {
    float x = 0;
    int64_t off[2] = {0, 0};
    gsp_graph* g = nullptr;
    gsp_graph* h = nullptr;
    CHECK_OK(gsp_graph_create(&g, 1, 0, nullptr, nullptr, nullptr, GSP_F32, 0));
    CHECK_STATUS(gsp_sssp_run_device(g, 0, nullptr, &x, nullptr, nullptr), GSP_ERR_NO_DEVICE);
    CHECK_STATUS(gsp_graph_create_csr_device(&h, 1, off, nullptr, nullptr, GSP_F32, 0, nullptr), GSP_ERR_NO_DEVICE);
    CHECK_STATUS(gsp_graph_create_device(&h, 1, 0, nullptr, nullptr, nullptr, GSP_F32, 0, nullptr), GSP_ERR_NO_DEVICE);
    gsp_graph_destroy(g);
    if (t_failures != 0) return t_finish("test_gpu_device_arrays");
    printf("SKIP test_gpu_device_arrays: no usable CUDA device (both calls answered GSP_ERR_NO_DEVICE)\n");
    return T_SKIP;
  }
#if GSP_TEST_HAS_CUDART
  test_shapes();
  test_index_rows();
  test_refusals();
  gsp_release_cached_memory(); /* the pools are not leaks (compute-sanitizer --leak-check full) */
  return t_finish("test_gpu_device_arrays");
#else
  printf("SKIP test_gpu_device_arrays: built without a CUDA runtime for the test program\n");
  return T_SKIP;
#endif
}
