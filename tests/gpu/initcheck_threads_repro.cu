// A stand-alone check of compute-sanitizer initcheck with host threads that
// allocate and free device memory concurrently (doc/fuzzing.md, "initcheck
// and concurrent runs"). Each of 4 threads repeats: own non-blocking stream,
// cudaMalloc, an init kernel that writes every word, read-and-update kernels
// that read every word, a copy back, a check, cudaFree. Every read follows
// the init kernel on the same stream, so initcheck must report nothing; any
// report it prints is about the tool, not about this program. Not part of
// the build; on a GPU machine:
//   nvcc -O2 -arch=sm_90 -o repro tests/gpu/initcheck_threads_repro.cu
//   compute-sanitizer --tool initcheck --error-exitcode 99 ./repro [rounds]
// (and several such processes at once, as tests/gpu/run.sh runs them).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

__global__ void init_kernel(int n, unsigned* a, unsigned char* mask) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[i] = 1000u + static_cast<unsigned>(i);
  mask[i] = static_cast<unsigned char>(i & 1);
}

__global__ void step_kernel(int n, unsigned* a, const unsigned char* mask) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (mask[i] != 0 || a[i] > 0) a[i] = a[i] + 1u;
}

int worker(int id, int rounds) {
  const int n = 64 + 37 * id;  // small arrays, like the SSSP test's graphs
  std::vector<unsigned> host(static_cast<size_t>(n));
  for (int r = 0; r < rounds; ++r) {
    cudaStream_t s = nullptr;
    unsigned* a = nullptr;
    unsigned char* mask = nullptr;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
    if (cudaMalloc(&a, n * sizeof(unsigned)) != cudaSuccess) return 1;
    if (cudaMalloc(&mask, static_cast<size_t>(n)) != cudaSuccess) return 1;
    init_kernel<<<(n + 127) / 128, 128, 0, s>>>(n, a, mask);
    for (int k = 0; k < 8; ++k) step_kernel<<<(n + 127) / 128, 128, 0, s>>>(n, a, mask);
    cudaMemcpyAsync(host.data(), a, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess) return 1;
    for (int i = 0; i < n; ++i) {
      if (host[static_cast<size_t>(i)] != 1008u + static_cast<unsigned>(i)) {
        std::fprintf(stderr, "thread %d round %d: a[%d] = %u\n", id, r, i, host[static_cast<size_t>(i)]);
        return 1;
      }
    }
    cudaFree(mask);
    cudaFree(a);
    cudaStreamDestroy(s);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  constexpr int kThreads = 4;
  std::vector<int> rc(kThreads, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back([&rc, t, rounds] { rc[static_cast<size_t>(t)] = worker(t, rounds); });
  for (auto& t : th) t.join();
  int bad = 0;
  for (int r : rc) bad += r != 0;
  std::printf("%d threads x %d rounds: %s\n", kThreads, rounds, bad == 0 ? "all values right" : "FAILED");
  return bad == 0 ? 0 : 1;
}
