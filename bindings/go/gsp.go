// Package gsp is the Go binding of libgsp: single-source, all-pairs,
// many-to-many (Table) and nearest-source (Nearest) shortest paths on CPUs
// and NVIDIA GPUs, with float32, int32 or float64 weights.
//
// It links the installed libgsp through pkg-config (set PKG_CONFIG_PATH to
// the prefix's lib/pkgconfig). Vertex ids are 0-based int32, as in C.
//
// Every call that can fail runs with its goroutine locked to its OS thread,
// so the library's thread-local message read after a failure belongs to that
// call. Failures are *Error values; errors.Is(err, gsp.ErrNoPath) tests the
// status. Graph, Paths, Table and Index must be closed (Close is idempotent;
// a finalizer is a backstop); a closed handle is refused with ErrClosed.
// They may be used by many goroutines at once, and closed in any order.
//
// A road index (Index: Graph.BuildIndex, LoadIndex, Index.Save) is built
// once from a graph with weights >= 0; runs given it in Options.Index
// answer from it (AlgoAuto or IndexCH) with the same distances, far faster
// on road networks.
package gsp

// The cgo preamble of each file declares what that file calls; the #cgo
// line here links libgsp for the whole package. Files by concern:
// errors.go (Status, Error), options.go (Options and the progress
// callback), graph.go (Graph), run.go (SSSP, APSP, APSPStream), paths.go
// (Paths, RunInfo), table.go (Table), callbacks.go (the exported C
// callbacks), search.go (Nearest), index.go (Index, road indexes), abi.go
// (the ABI lines of scripts/check_bindings.sh).

/*
#cgo pkg-config: gsp
#include <gsp/gsp.h>
#include <stdlib.h>
*/
import "C"

import "unsafe"

// ------------------------------------------------------------------ enums

// WeightType is the weight and distance type of a graph.
type WeightType int32

const (
	F32 WeightType = C.GSP_F32
	I32 WeightType = C.GSP_I32
	F64 WeightType = C.GSP_F64 // float64 weights and distances; unreachable is +Inf
)

// I32Inf is the distance of an unreachable vertex in an I32 graph.
const I32Inf = int32(C.GSP_I32_INF)

// GraphFlags for graph constructors.
type GraphFlags uint32

// Undirected adds (v,u) for every arc (u,v).
const Undirected GraphFlags = C.GSP_GRAPH_UNDIRECTED

// Format of a graph file.
type Format int32

const (
	FormatAuto         Format = C.GSP_FORMAT_AUTO
	FormatDIMACS       Format = C.GSP_FORMAT_DIMACS
	FormatMatrixMarket Format = C.GSP_FORMAT_MATRIX_MARKET
	FormatEdgeList     Format = C.GSP_FORMAT_EDGE_LIST
)

// Backend is where an engine runs.
type Backend int32

const (
	BackendAuto Backend = C.GSP_BACKEND_AUTO
	BackendCPU  Backend = C.GSP_BACKEND_CPU
	BackendCUDA Backend = C.GSP_BACKEND_CUDA
)

func (b Backend) String() string { return C.GoString(C.gsp_backend_name(C.gsp_backend(b))) }

// Algorithm is a shortest-path algorithm (see doc/algorithms.md).
type Algorithm int32

const (
	AlgoAuto          Algorithm = C.GSP_ALGO_AUTO
	SSSPDijkstra      Algorithm = C.GSP_SSSP_DIJKSTRA
	SSSPBellmanFord   Algorithm = C.GSP_SSSP_BELLMAN_FORD
	SSSPDeltaStepping Algorithm = C.GSP_SSSP_DELTA_STEPPING
	SSSPAtomicLock    Algorithm = C.GSP_SSSP_ATOMIC_LOCK
	SSSPHarish        Algorithm = C.GSP_SSSP_HARISH
	SSSPSpmvCSR       Algorithm = C.GSP_SSSP_SPMV_CSR
	SSSPSpmvELL       Algorithm = C.GSP_SSSP_SPMV_ELL
	SSSPGPUDijkstra   Algorithm = C.GSP_SSSP_GPU_DIJKSTRA
	APSPFloydWarshall Algorithm = C.GSP_APSP_FLOYD_WARSHALL
	APSPMinPlus       Algorithm = C.GSP_APSP_MINPLUS
	APSPHeap          Algorithm = C.GSP_APSP_HEAP
	APSPTaskParallel  Algorithm = C.GSP_APSP_TASK_PARALLEL
	APSPJohnson       Algorithm = C.GSP_APSP_JOHNSON
	SSSPAtomic64      Algorithm = C.GSP_SSSP_ATOMIC_64
	// APSPDeltaStepping runs one delta-stepping search per source
	// ("batched-delta-stepping"; w >= 0; CPU and CUDA).
	APSPDeltaStepping Algorithm = C.GSP_APSP_DELTA_STEPPING
	// APSPSpmm runs min-plus SpMM Bellman-Ford rounds for a tile of
	// sources at once ("spmm"; w >= 0; CUDA only).
	APSPSpmm Algorithm = C.GSP_APSP_SPMM
	// IndexCH answers from the road index in Options.Index ("ch"; w >= 0;
	// CPU); AlgoAuto does too when an index is given.
	IndexCH Algorithm = C.GSP_CH
)

// Kind says which entry points run an algorithm (gsp_kind).
type Kind int32

const (
	KindUnknown Kind = C.GSP_KIND_UNKNOWN // no such algorithm
	KindAuto    Kind = C.GSP_KIND_AUTO    // AlgoAuto: chosen per call
	KindSSSP    Kind = C.GSP_KIND_SSSP    // one source: SSSP
	KindAPSP    Kind = C.GSP_KIND_APSP    // many sources: APSP, APSPStream, Table
	KindIndex   Kind = C.GSP_KIND_INDEX   // answers from a road index (Options.Index)
)

// Kind is the algorithm's kind, KindUnknown for a value the library does not know.
func (a Algorithm) Kind() Kind { return Kind(C.gsp_algorithm_kind(C.gsp_algorithm(a))) }

// AcceptsNegativeWeights says whether the algorithm runs on graphs with negative arcs.
func (a Algorithm) AcceptsNegativeWeights() bool {
	return C.gsp_algorithm_accepts_negative_weights(C.gsp_algorithm(a)) != 0
}

// HasEngine says whether this build of libgsp has an engine for the
// algorithm on the backend (BackendAuto: on either).
func (a Algorithm) HasEngine(b Backend) bool {
	return C.gsp_algorithm_has_engine(C.gsp_algorithm(a), C.gsp_backend(b)) != 0
}

// Algorithms lists the library's algorithms of a kind, in value order, as
// the library's table has them (gsp_algorithm_kind): a library with a new
// algorithm lists it without a new binding.
func Algorithms(kind Kind) []Algorithm {
	var out []Algorithm
	for a := Algorithm(0); a.Kind() != KindUnknown; a++ {
		if a.Kind() == kind {
			out = append(out, a)
		}
	}
	return out
}

// SSSPAlgorithms, APSPAlgorithms and IndexAlgorithms list every algorithm
// of each kind, read from the library (Algorithms).
var (
	SSSPAlgorithms  = Algorithms(KindSSSP)
	APSPAlgorithms  = Algorithms(KindAPSP)
	IndexAlgorithms = Algorithms(KindIndex)
)

// String is the CLI's name, e.g. "dijkstra".
func (a Algorithm) String() string { return C.GoString(C.gsp_algorithm_name(C.gsp_algorithm(a))) }

// AlgorithmFromName looks an algorithm up by its name.
func AlgorithmFromName(name string) (Algorithm, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var out C.gsp_algorithm
	err := call(func() C.gsp_status { return C.gsp_algorithm_from_name(cs, &out) })
	return Algorithm(out), err
}

// ------------------------------------------------------------------ library

// Version of the linked library.
func Version() (major, minor, patch int) {
	v := uint32(C.gsp_version())
	return int(v >> 16), int(v>>8) & 0xff, int(v & 0xff)
}

// BackendAvailable says whether a backend can run now.
func BackendAvailable(b Backend) bool { return C.gsp_backend_available(C.gsp_backend(b)) != 0 }

// DeviceCount is the number of usable CUDA devices.
func DeviceCount() int { return int(C.gsp_device_count()) }

// DeviceStart starts a CUDA device (-1: every one) in the background, so that
// the first CUDA run of the process does not wait for it (gsp_device_start);
// false when libgsp has no CUDA backend.
func DeviceStart(device int) bool { return C.gsp_device_start(C.int32_t(device)) == C.GSP_OK }

// ReleaseCachedMemory gives back memory libgsp keeps between runs for speed
// (device workspace pools, pinned host buffers).
func ReleaseCachedMemory() { C.gsp_release_cached_memory() }
