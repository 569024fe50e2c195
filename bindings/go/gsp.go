// Package gsp is the Go binding of libgsp: single-source, all-pairs and
// many-to-many (Table) shortest paths on CPUs and NVIDIA GPUs.
//
// It links the installed libgsp through pkg-config (set PKG_CONFIG_PATH to
// the prefix's lib/pkgconfig). Vertex ids are 0-based int32, as in C.
//
// Every call that can fail runs with its goroutine locked to its OS thread,
// so the library's thread-local message read after a failure belongs to that
// call. Failures are *Error values; errors.Is(err, gsp.ErrNoPath) tests the
// status. Graph, Paths and Table must be closed (Close is idempotent; a
// finalizer is a backstop); a closed handle is refused with ErrClosed. They
// may be used by many goroutines at once, and closed in any order.
package gsp

/*
#cgo pkg-config: gsp
#include <gsp/gsp.h>
#include <stdint.h>
#include <stdlib.h>

int gspGoProgress(void* user, double fraction);
int gspGoRows(void* user, int32_t first, int32_t num_rows, void* distances, int32_t* predecessors);

static int gsp_go_progress_tramp(void* user, double fraction) { return gspGoProgress(user, fraction); }
static int gsp_go_rows_tramp(void* user, int32_t first, int32_t num_rows, const void* distances,
                             const int32_t* predecessors) {
  return gspGoRows(user, first, num_rows, (void*)distances, (int32_t*)predecessors);
}
// Handles travel as integers and become void* only on the C side.
static void gsp_go_set_progress(gsp_options* o, uintptr_t handle) {
  o->progress = gsp_go_progress_tramp;
  o->progress_user = (void*)handle;
}
static gsp_status gsp_go_apsp_stream(const gsp_graph* g, const int32_t* sources, int32_t num_sources,
                                     const gsp_options* o, uintptr_t handle) {
  return gsp_apsp_stream(g, sources, num_sources, o, gsp_go_rows_tramp, (void*)handle);
}
static void gsp_go_set_stream(gsp_options* o, uintptr_t stream) { o->cuda_stream = (void*)stream; }
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// ------------------------------------------------------------------ errors

// Status is a gsp_status value. It is also an error, so that
// errors.Is(err, gsp.ErrNoPath) works.
type Status int32

// The status constants come from the header itself (GSP_STATUS_LIST).
const (
	OK                   Status = C.GSP_OK
	ErrInvalidArgument   Status = C.GSP_ERR_INVALID_ARGUMENT
	ErrInvalidGraph      Status = C.GSP_ERR_INVALID_GRAPH
	ErrNegativeWeight    Status = C.GSP_ERR_NEGATIVE_WEIGHT
	ErrNegativeCycle     Status = C.GSP_ERR_NEGATIVE_CYCLE
	ErrOverflow          Status = C.GSP_ERR_OVERFLOW
	ErrNoPath            Status = C.GSP_ERR_NO_PATH
	ErrBufferTooSmall    Status = C.GSP_ERR_BUFFER_TOO_SMALL
	ErrOutOfMemory       Status = C.GSP_ERR_OUT_OF_MEMORY
	ErrDeviceOutOfMemory Status = C.GSP_ERR_DEVICE_OUT_OF_MEMORY
	ErrNoDevice          Status = C.GSP_ERR_NO_DEVICE
	ErrDevice            Status = C.GSP_ERR_DEVICE
	ErrUnsupported       Status = C.GSP_ERR_UNSUPPORTED
	ErrIO                Status = C.GSP_ERR_IO
	ErrParse             Status = C.GSP_ERR_PARSE
	ErrCancelled         Status = C.GSP_ERR_CANCELLED
	ErrInternal          Status = C.GSP_ERR_INTERNAL
)

// Name is the C name, e.g. "GSP_ERR_NO_PATH".
func (s Status) Name() string { return C.GoString(C.gsp_status_name(C.gsp_status(s))) }

func (s Status) Error() string { return s.Name() }

// Error is a failed libgsp call: its status and the library's message.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "gsp: " + e.Status.Name()
	}
	return "gsp: " + e.Status.Name() + ": " + e.Message
}

// Is reports whether target is this error's Status (or an *Error with it).
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Status:
		return e.Status == t
	case *Error:
		return e.Status == t.Status
	}
	return false
}

// ErrClosed is returned for any use of a closed Graph or Paths.
var ErrClosed = errors.New("gsp: use of a closed handle")

func errorf(s Status, format string, args ...interface{}) error {
	return &Error{Status: s, Message: fmt.Sprintf(format, args...)}
}

// call runs a fallible C call on a locked OS thread and reads the
// thread-local message there, right after it.
func call(f func() C.gsp_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	st := f()
	if st == C.GSP_OK {
		return nil
	}
	return &Error{Status: Status(st), Message: C.GoString(C.gsp_last_error())}
}

// ------------------------------------------------------------------ enums

// WeightType is the weight and distance type of a graph.
type WeightType int32

const (
	F32 WeightType = C.GSP_F32
	I32 WeightType = C.GSP_I32
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
)

// SSSPAlgorithms and APSPAlgorithms list every algorithm of each kind.
var (
	SSSPAlgorithms = []Algorithm{SSSPDijkstra, SSSPBellmanFord, SSSPDeltaStepping, SSSPAtomicLock, SSSPHarish,
		SSSPSpmvCSR, SSSPSpmvELL, SSSPGPUDijkstra, SSSPAtomic64}
	APSPAlgorithms = []Algorithm{APSPFloydWarshall, APSPMinPlus, APSPHeap, APSPTaskParallel, APSPJohnson}
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

// ReleaseCachedMemory gives back memory libgsp keeps between runs for speed
// (device workspace pools, pinned host buffers).
func ReleaseCachedMemory() { C.gsp_release_cached_memory() }

// ------------------------------------------------------------------ options

// Options of a run. The zero value is the defaults.
type Options struct {
	Backend           Backend
	Algorithm         Algorithm
	Device            int32   // CUDA ordinal
	NoPaths           bool    // distances only
	Delta             float64 // delta-stepping bucket width; 0 chooses
	NumThreads        int32   // CPU threads; 0: all cores
	DeviceMemoryLimit uint64  // bytes; 0: what is free
	CUDAStream        uintptr // a cudaStream_t, or 0 for the library's own
	// Progress gets the fraction done in [0, 1]; returning true stops the
	// run (ErrCancelled). It may be called from the library's threads.
	Progress func(fraction float64) (stop bool)
}

// callState is what the C callbacks reach through a cgo.Handle.
type callState struct {
	progress func(float64) bool
	rows     func(RowBlock) bool
	n        int
	wt       WeightType
	mu       sync.Mutex
	panicked interface{}
}

func (s *callState) recordPanic(p interface{}) {
	s.mu.Lock()
	if s.panicked == nil {
		s.panicked = p
	}
	s.mu.Unlock()
}

func (s *callState) rethrow() {
	if s.panicked != nil {
		panic(s.panicked)
	}
}

func (o *Options) toC(c *C.gsp_options, h cgo.Handle) {
	C.gsp_options_init(c)
	if o == nil {
		return
	}
	c.backend = C.gsp_backend(o.Backend)
	c.algorithm = C.gsp_algorithm(o.Algorithm)
	c.device = C.int32_t(o.Device)
	if o.NoPaths {
		c.flags |= C.GSP_NO_PATHS
	}
	c.delta = C.double(o.Delta)
	c.num_threads = C.int32_t(o.NumThreads)
	c.device_memory_limit = C.size_t(o.DeviceMemoryLimit)
	C.gsp_go_set_stream(c, C.uintptr_t(o.CUDAStream))
	if o.Progress != nil {
		C.gsp_go_set_progress(c, C.uintptr_t(h))
	}
}

// ------------------------------------------------------------------ graph

// Graph is an immutable weighted directed graph.
type Graph struct {
	mu sync.RWMutex // Close takes it exclusively; every use shares it
	p  *C.gsp_graph
}

func newGraph(p *C.gsp_graph) *Graph {
	g := &Graph{p: p}
	runtime.SetFinalizer(g, (*Graph).Close)
	return g
}

// Close frees the graph. It is idempotent; results computed on the graph
// stay valid.
func (g *Graph) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.p != nil {
		C.gsp_graph_destroy(g.p)
		g.p = nil
		runtime.SetFinalizer(g, nil)
	}
	return nil
}

// use runs f with the live handle, or returns ErrClosed.
func (g *Graph) use(f func(p *C.gsp_graph) error) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.p == nil {
		return ErrClosed
	}
	err := f(g.p)
	runtime.KeepAlive(g)
	return err
}

func i32ptr(s []int32) *C.int32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(&s[0]))
}

func weightsPtr(wf []float32, wi []int32) unsafe.Pointer {
	if len(wf) > 0 {
		return unsafe.Pointer(&wf[0])
	}
	if len(wi) > 0 {
		return unsafe.Pointer(&wi[0])
	}
	return nil
}

func create(n int32, src, dst []int32, wf []float32, wi []int32, wt WeightType, flags GraphFlags) (*Graph, error) {
	if len(src) != len(dst) {
		return nil, errorf(ErrInvalidArgument, "%d sources but %d targets", len(src), len(dst))
	}
	if (wf != nil && len(wf) != len(src)) || (wi != nil && len(wi) != len(src)) {
		return nil, errorf(ErrInvalidArgument, "weights and arcs differ in number")
	}
	var p *C.gsp_graph
	err := call(func() C.gsp_status {
		return C.gsp_graph_create(&p, C.int32_t(n), C.int64_t(len(src)), i32ptr(src), i32ptr(dst),
			weightsPtr(wf, wi), C.gsp_dtype(wt), C.uint32_t(flags))
	})
	runtime.KeepAlive(src)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(wf)
	runtime.KeepAlive(wi)
	if err != nil {
		return nil, err
	}
	return newGraph(p), nil
}

// NewGraphF32 builds a graph from arcs src[i] -> dst[i] with float32
// weights (nil: every weight is 1).
func NewGraphF32(n int32, src, dst []int32, weights []float32, flags GraphFlags) (*Graph, error) {
	return create(n, src, dst, weights, nil, F32, flags)
}

// NewGraphI32 builds a graph from arcs with int32 weights (nil: all 1).
func NewGraphI32(n int32, src, dst []int32, weights []int32, flags GraphFlags) (*Graph, error) {
	return create(n, src, dst, nil, weights, I32, flags)
}

func createCSR(n int32, offsets []int64, dst []int32, wf []float32, wi []int32, wt WeightType, flags GraphFlags) (*Graph, error) {
	if n < 0 || len(offsets) != int(n)+1 {
		return nil, errorf(ErrInvalidArgument, "%d offsets for %d vertices (need n + 1)", len(offsets), n)
	}
	if offsets[n] != int64(len(dst)) {
		return nil, errorf(ErrInvalidArgument, "offsets[n] = %d but %d targets", offsets[n], len(dst))
	}
	if (wf != nil && len(wf) != len(dst)) || (wi != nil && len(wi) != len(dst)) {
		return nil, errorf(ErrInvalidArgument, "weights and arcs differ in number")
	}
	var p *C.gsp_graph
	err := call(func() C.gsp_status {
		return C.gsp_graph_create_csr(&p, C.int32_t(n), (*C.int64_t)(unsafe.Pointer(&offsets[0])), i32ptr(dst),
			weightsPtr(wf, wi), C.gsp_dtype(wt), C.uint32_t(flags))
	})
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(wf)
	runtime.KeepAlive(wi)
	if err != nil {
		return nil, err
	}
	return newGraph(p), nil
}

// NewGraphCSRF32 builds a graph from CSR arrays (n+1 offsets) with float32 weights.
func NewGraphCSRF32(n int32, offsets []int64, dst []int32, weights []float32, flags GraphFlags) (*Graph, error) {
	return createCSR(n, offsets, dst, weights, nil, F32, flags)
}

// NewGraphCSRI32 builds a graph from CSR arrays with int32 weights.
func NewGraphCSRI32(n int32, offsets []int64, dst []int32, weights []int32, flags GraphFlags) (*Graph, error) {
	return createCSR(n, offsets, dst, nil, weights, I32, flags)
}

// LoadGraph reads a DIMACS (.gr), Matrix Market (.mtx) or edge-list file (.gz too).
func LoadGraph(path string, format Format, wt WeightType, flags GraphFlags) (*Graph, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var p *C.gsp_graph
	if err := call(func() C.gsp_status {
		return C.gsp_graph_load(&p, cs, C.gsp_format(format), C.gsp_dtype(wt), C.uint32_t(flags))
	}); err != nil {
		return nil, err
	}
	return newGraph(p), nil
}

// Save writes the graph to a file.
func (g *Graph) Save(path string, format Format) error {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	return g.use(func(p *C.gsp_graph) error {
		return call(func() C.gsp_status { return C.gsp_graph_save(p, cs, C.gsp_format(format)) })
	})
}

// NumVertices is n, or -1 once closed.
func (g *Graph) NumVertices() int {
	n := -1
	g.use(func(p *C.gsp_graph) error { n = int(C.gsp_graph_num_vertices(p)); return nil })
	return n
}

// NumEdges is the number of arcs (after Undirected doubling), or -1 once closed.
func (g *Graph) NumEdges() int64 {
	m := int64(-1)
	g.use(func(p *C.gsp_graph) error { m = int64(C.gsp_graph_num_edges(p)); return nil })
	return m
}

// WeightType of the graph (0 once closed).
func (g *Graph) WeightType() WeightType {
	var t WeightType
	g.use(func(p *C.gsp_graph) error { t = WeightType(C.gsp_graph_weight_type(p)); return nil })
	return t
}

// CSR is a graph's arrays; one of WeightsF32 / WeightsI32 is set.
type CSR struct {
	Offsets    []int64
	Targets    []int32
	WeightsF32 []float32
	WeightsI32 []int32
}

// CSR copies the graph's arrays out.
func (g *Graph) CSR() (*CSR, error) {
	var out CSR
	err := g.use(func(p *C.gsp_graph) error {
		n := int(C.gsp_graph_num_vertices(p))
		m := int(C.gsp_graph_num_edges(p))
		out.Offsets = make([]int64, n+1)
		out.Targets = make([]int32, m+1)
		var w unsafe.Pointer
		if WeightType(C.gsp_graph_weight_type(p)) == I32 {
			out.WeightsI32 = make([]int32, m+1)
			w = unsafe.Pointer(&out.WeightsI32[0])
		} else {
			out.WeightsF32 = make([]float32, m+1)
			w = unsafe.Pointer(&out.WeightsF32[0])
		}
		err := call(func() C.gsp_status {
			return C.gsp_graph_csr(p, (*C.int64_t)(unsafe.Pointer(&out.Offsets[0])), i32ptr(out.Targets), w)
		})
		out.Targets = out.Targets[:m]
		if out.WeightsI32 != nil {
			out.WeightsI32 = out.WeightsI32[:m]
		} else {
			out.WeightsF32 = out.WeightsF32[:m]
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (g *Graph) run(o *Options, rows func(RowBlock) bool, f func(p *C.gsp_graph, c *C.gsp_options, h cgo.Handle) C.gsp_status) error {
	return g.use(func(p *C.gsp_graph) error {
		st := &callState{rows: rows, n: int(C.gsp_graph_num_vertices(p)), wt: WeightType(C.gsp_graph_weight_type(p))}
		if o != nil {
			st.progress = o.Progress
		}
		h := cgo.NewHandle(st)
		defer h.Delete()
		var c C.gsp_options
		o.toC(&c, h)
		err := call(func() C.gsp_status { return f(p, &c, h) })
		st.rethrow()
		return err
	})
}

// SSSP computes shortest paths from source. o may be nil for defaults.
func (g *Graph) SSSP(source int32, o *Options) (*Paths, error) {
	var out *C.gsp_paths
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		return C.gsp_sssp_run(p, C.int32_t(source), c, &out)
	})
	if err != nil {
		return nil, err
	}
	return newPaths(out)
}

// APSP computes shortest paths from every vertex (sources nil) or from the
// given sources, one row each in order.
func (g *Graph) APSP(sources []int32, o *Options) (*Paths, error) {
	var out *C.gsp_paths
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		return C.gsp_apsp_run(p, i32ptr(sources), C.int32_t(len(sources)), c, &out)
	})
	runtime.KeepAlive(sources)
	if err != nil {
		return nil, err
	}
	return newPaths(out)
}

// RowBlock is a block of APSP rows (copies; safe to keep).
type RowBlock struct {
	FirstSourceIndex int         // index into the sources of the first row
	F32              [][]float32 // one row per source (F32 graphs)
	I32              [][]int32   // one row per source (I32 graphs)
	Predecessors     [][]int32   // nil with NoPaths
}

// APSPStream delivers APSP rows in blocks, in source order; onRows returns
// true to stop (the call then fails with ErrCancelled).
func (g *Graph) APSPStream(sources []int32, o *Options, onRows func(RowBlock) bool) error {
	if onRows == nil {
		return errorf(ErrInvalidArgument, "onRows is nil")
	}
	err := g.run(o, onRows, func(p *C.gsp_graph, c *C.gsp_options, h cgo.Handle) C.gsp_status {
		return C.gsp_go_apsp_stream(p, i32ptr(sources), C.int32_t(len(sources)), c, C.uintptr_t(h))
	})
	runtime.KeepAlive(sources)
	return err
}

// ------------------------------------------------------------------ results

// RunInfo says what a run did.
type RunInfo struct {
	Backend       Backend
	Algorithm     Algorithm
	WeightType    WeightType
	NumVertices   int
	NumSources    int
	Device        int // CUDA ordinal, -1 on the CPU
	DeviceName    string
	Seconds       float64
	UploadSeconds float64
	Iterations    int64
	Relaxations   int64
	HasPaths      bool
}

// Paths holds distances and predecessors from one or many sources. Sources
// and targets are vertex ids; a source must be one of Sources().
type Paths struct {
	mu sync.RWMutex
	p  *C.gsp_paths
	n  int
	wt WeightType
}

func newPaths(p *C.gsp_paths) (*Paths, error) {
	r := &Paths{p: p}
	runtime.SetFinalizer(r, (*Paths).Close)
	info, err := r.Info()
	if err != nil {
		r.Close()
		return nil, err
	}
	r.n, r.wt = info.NumVertices, info.WeightType
	return r, nil
}

// Close frees the result; idempotent.
func (r *Paths) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p != nil {
		C.gsp_paths_destroy(r.p)
		r.p = nil
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

func (r *Paths) use(f func(p *C.gsp_paths) error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.p == nil {
		return ErrClosed
	}
	err := f(r.p)
	runtime.KeepAlive(r)
	return err
}

// Info says what the run did.
func (r *Paths) Info() (RunInfo, error) {
	var info RunInfo
	err := r.use(func(p *C.gsp_paths) error {
		var c C.gsp_run_info
		c.size = C.uint32_t(unsafe.Sizeof(c))
		if err := call(func() C.gsp_status { return C.gsp_paths_info(p, &c) }); err != nil {
			return err
		}
		info = runInfo(&c)
		return nil
	})
	return info, err
}

func cstrlen(b []C.char) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}

// WeightType of the distances.
func (r *Paths) WeightType() WeightType { return r.wt }

// NumSources is the number of rows (-1 once closed).
func (r *Paths) NumSources() int {
	n := -1
	r.use(func(p *C.gsp_paths) error { n = int(C.gsp_paths_num_sources(p)); return nil })
	return n
}

// Sources lists the source vertex of each row (nil once closed).
func (r *Paths) Sources() []int32 {
	var s []int32
	r.use(func(p *C.gsp_paths) error {
		k := C.gsp_paths_num_sources(p)
		for i := C.int32_t(0); i < k; i++ {
			s = append(s, int32(C.gsp_paths_source(p, i)))
		}
		return nil
	})
	return s
}

func (r *Paths) rawDistances(source int32, out unsafe.Pointer) error {
	return r.use(func(p *C.gsp_paths) error {
		return call(func() C.gsp_status { return C.gsp_paths_distances(p, C.int32_t(source), out, C.int64_t(r.n)) })
	})
}

// DistancesF32 copies the distances from source of an F32 result (+Inf: unreachable).
func (r *Paths) DistancesF32(source int32) ([]float32, error) {
	if r.wt != F32 {
		return nil, errorf(ErrInvalidArgument, "the distances are not float32")
	}
	d := make([]float32, r.n+1)
	err := r.rawDistances(source, unsafe.Pointer(&d[0]))
	return d[:r.n], err
}

// DistancesI32 copies the distances from source of an I32 result (I32Inf: unreachable).
func (r *Paths) DistancesI32(source int32) ([]int32, error) {
	if r.wt != I32 {
		return nil, errorf(ErrInvalidArgument, "the distances are not int32")
	}
	d := make([]int32, r.n+1)
	err := r.rawDistances(source, unsafe.Pointer(&d[0]))
	return d[:r.n], err
}

func i32ToF64(v int32) float64 {
	if v == I32Inf {
		return math.Inf(1)
	}
	return float64(v)
}

// Distances copies the distances from source as float64 for either weight
// type (+Inf: unreachable).
func (r *Paths) Distances(source int32) ([]float64, error) {
	out := make([]float64, r.n)
	if r.wt == I32 {
		d, err := r.DistancesI32(source)
		if err != nil {
			return nil, err
		}
		for i, v := range d {
			out[i] = i32ToF64(v)
		}
		return out, nil
	}
	d, err := r.DistancesF32(source)
	if err != nil {
		return nil, err
	}
	for i, v := range d {
		out[i] = float64(v)
	}
	return out, nil
}

// Distance from source to target as float64 (+Inf: unreachable).
func (r *Paths) Distance(source, target int32) (float64, error) {
	var raw [4]byte
	err := r.use(func(p *C.gsp_paths) error {
		return call(func() C.gsp_status {
			return C.gsp_paths_distance(p, C.int32_t(source), C.int32_t(target), unsafe.Pointer(&raw[0]))
		})
	})
	if err != nil {
		return 0, err
	}
	if r.wt == I32 {
		return i32ToF64(*(*int32)(unsafe.Pointer(&raw[0]))), nil
	}
	return float64(*(*float32)(unsafe.Pointer(&raw[0]))), nil
}

// Predecessors of every vertex on its shortest path from source (-1: none).
func (r *Paths) Predecessors(source int32) ([]int32, error) {
	d := make([]int32, r.n+1)
	err := r.use(func(p *C.gsp_paths) error {
		return call(func() C.gsp_status {
			return C.gsp_paths_predecessors(p, C.int32_t(source), i32ptr(d), C.int64_t(r.n))
		})
	})
	if err != nil {
		return nil, err
	}
	return d[:r.n], nil
}

// Path lists the vertices of a shortest path, source and target included;
// ErrNoPath when target is unreachable.
func (r *Paths) Path(source, target int32) ([]int32, error) {
	var out []int32
	err := r.use(func(p *C.gsp_paths) error {
		var length C.int32_t
		if err := call(func() C.gsp_status {
			return C.gsp_path_get(p, C.int32_t(source), C.int32_t(target), nil, 0, &length)
		}); err != nil {
			return err
		}
		out = make([]int32, int(length)+1)
		err := call(func() C.gsp_status {
			return C.gsp_path_get(p, C.int32_t(source), C.int32_t(target), i32ptr(out), length, &length)
		})
		out = out[:int(length)]
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
