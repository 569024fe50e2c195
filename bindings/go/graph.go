package gsp

// Graph: construction from arcs, CSR or files, saving, sizes and the CSR
// arrays.

/*
#include <gsp/gsp.h>
#include <stdlib.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

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

// weights is a constructor's weight array: nil for "every weight is 1".
type weights struct {
	p    unsafe.Pointer // the first element; nil when empty or nil
	n    int
	set  bool        // false: nil, every weight 1
	keep interface{} // the slice, kept alive across the call
}

func sliceWeights[T float32 | int32 | float64](w []T) weights {
	if w == nil {
		return weights{}
	}
	var p unsafe.Pointer
	if len(w) > 0 {
		p = unsafe.Pointer(&w[0])
	}
	return weights{p: p, n: len(w), set: true, keep: w}
}

func create(n int32, src, dst []int32, w weights, wt WeightType, flags GraphFlags) (*Graph, error) {
	if len(src) != len(dst) {
		return nil, errorf(ErrInvalidArgument, "%d sources but %d targets", len(src), len(dst))
	}
	if w.set && w.n != len(src) {
		return nil, errorf(ErrInvalidArgument, "weights and arcs differ in number")
	}
	var p *C.gsp_graph
	err := call(func() C.gsp_status {
		return C.gsp_graph_create(&p, C.int32_t(n), C.int64_t(len(src)), i32ptr(src), i32ptr(dst),
			w.p, C.gsp_dtype(wt), C.uint32_t(flags))
	})
	runtime.KeepAlive(src)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(w.keep)
	if err != nil {
		return nil, err
	}
	return newGraph(p), nil
}

// NewGraphF32 builds a graph from arcs src[i] -> dst[i] with float32
// weights (nil: every weight is 1).
func NewGraphF32(n int32, src, dst []int32, weights []float32, flags GraphFlags) (*Graph, error) {
	return create(n, src, dst, sliceWeights(weights), F32, flags)
}

// NewGraphI32 builds a graph from arcs with int32 weights (nil: all 1).
func NewGraphI32(n int32, src, dst []int32, weights []int32, flags GraphFlags) (*Graph, error) {
	return create(n, src, dst, sliceWeights(weights), I32, flags)
}

// NewGraphF64 builds a graph from arcs with float64 weights (nil: all 1);
// its distances are float64 too.
func NewGraphF64(n int32, src, dst []int32, weights []float64, flags GraphFlags) (*Graph, error) {
	return create(n, src, dst, sliceWeights(weights), F64, flags)
}

func createCSR(n int32, offsets []int64, dst []int32, w weights, wt WeightType, flags GraphFlags) (*Graph, error) {
	if n < 0 || len(offsets) != int(n)+1 {
		return nil, errorf(ErrInvalidArgument, "%d offsets for %d vertices (need n + 1)", len(offsets), n)
	}
	if offsets[n] != int64(len(dst)) {
		return nil, errorf(ErrInvalidArgument, "offsets[n] = %d but %d targets", offsets[n], len(dst))
	}
	if w.set && w.n != len(dst) {
		return nil, errorf(ErrInvalidArgument, "weights and arcs differ in number")
	}
	var p *C.gsp_graph
	err := call(func() C.gsp_status {
		return C.gsp_graph_create_csr(&p, C.int32_t(n), (*C.int64_t)(unsafe.Pointer(&offsets[0])), i32ptr(dst),
			w.p, C.gsp_dtype(wt), C.uint32_t(flags))
	})
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(w.keep)
	if err != nil {
		return nil, err
	}
	return newGraph(p), nil
}

// NewGraphCSRF32 builds a graph from CSR arrays (n+1 offsets) with float32 weights.
func NewGraphCSRF32(n int32, offsets []int64, dst []int32, weights []float32, flags GraphFlags) (*Graph, error) {
	return createCSR(n, offsets, dst, sliceWeights(weights), F32, flags)
}

// NewGraphCSRI32 builds a graph from CSR arrays with int32 weights.
func NewGraphCSRI32(n int32, offsets []int64, dst []int32, weights []int32, flags GraphFlags) (*Graph, error) {
	return createCSR(n, offsets, dst, sliceWeights(weights), I32, flags)
}

// NewGraphCSRF64 builds a graph from CSR arrays with float64 weights.
func NewGraphCSRF64(n int32, offsets []int64, dst []int32, weights []float64, flags GraphFlags) (*Graph, error) {
	return createCSR(n, offsets, dst, sliceWeights(weights), F64, flags)
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

// CSR is a graph's arrays; one of WeightsF32 / WeightsI32 / WeightsF64 is
// set, after the graph's weight type.
type CSR struct {
	Offsets    []int64
	Targets    []int32
	WeightsF32 []float32
	WeightsI32 []int32
	WeightsF64 []float64
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
		switch WeightType(C.gsp_graph_weight_type(p)) {
		case I32:
			out.WeightsI32 = make([]int32, m+1)
			w = unsafe.Pointer(&out.WeightsI32[0])
		case F64:
			out.WeightsF64 = make([]float64, m+1)
			w = unsafe.Pointer(&out.WeightsF64[0])
		default:
			out.WeightsF32 = make([]float32, m+1)
			w = unsafe.Pointer(&out.WeightsF32[0])
		}
		err := call(func() C.gsp_status {
			return C.gsp_graph_csr(p, (*C.int64_t)(unsafe.Pointer(&out.Offsets[0])), i32ptr(out.Targets), w)
		})
		out.Targets = out.Targets[:m]
		switch {
		case out.WeightsI32 != nil:
			out.WeightsI32 = out.WeightsI32[:m]
		case out.WeightsF64 != nil:
			out.WeightsF64 = out.WeightsF64[:m]
		default:
			out.WeightsF32 = out.WeightsF32[:m]
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
