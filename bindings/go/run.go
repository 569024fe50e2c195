package gsp

// Runs on a Graph: SSSP, APSP and APSPStream (rows delivered in blocks
// through the rows callback of callbacks.go).

/*
#include <gsp/gsp.h>
#include <stdint.h>

int gspGoRows(void* user, int32_t first, int32_t num_rows, void* distances, int32_t* predecessors);

static int gsp_go_rows_tramp(void* user, int32_t first, int32_t num_rows, const void* distances,
                             const int32_t* predecessors) {
  return gspGoRows(user, first, num_rows, (void*)distances, (int32_t*)predecessors);
}
// The handle travels as an integer and becomes void* only on the C side.
static gsp_status gsp_go_apsp_stream(const gsp_graph* g, const int32_t* sources, int32_t num_sources,
                                     const gsp_options* o, uintptr_t handle) {
  return gsp_apsp_stream(g, sources, num_sources, o, gsp_go_rows_tramp, (void*)handle);
}
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
)

// ------------------------------------------------------------------ runs

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
		// Options.Index, held open for the call.
		return o.useIndex(func(ix *C.gsp_index) error {
			c.index = ix
			err := call(func() C.gsp_status { return f(p, &c, h) })
			st.rethrow()
			return err
		})
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
	F64              [][]float64 // one row per source (F64 graphs)
	Predecessors     [][]int32   // nil with NoPaths
}

// APSPStream delivers APSP rows in blocks, in source order (in any order
// with Options.AnyOrder: each block's FirstSourceIndex says where it goes);
// onRows returns true to stop (the call then fails with ErrCancelled).
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
