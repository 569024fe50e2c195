package gsp

// Run options: Options, their C form, and the per-call state that the
// progress callback (callbacks.go) reaches through a cgo.Handle.

/*
#include <gsp/gsp.h>
#include <stdint.h>

int gspGoProgress(void* user, double fraction);

static int gsp_go_progress_tramp(void* user, double fraction) { return gspGoProgress(user, fraction); }
// Handles travel as integers and become void* only on the C side.
static void gsp_go_set_progress(gsp_options* o, uintptr_t handle) {
  o->progress = gsp_go_progress_tramp;
  o->progress_user = (void*)handle;
}
static void gsp_go_set_stream(gsp_options* o, uintptr_t stream) { o->cuda_stream = (void*)stream; }
*/
import "C"

import (
	"runtime/cgo"
	"sync"
	"unsafe"
)

// ------------------------------------------------------------------ options

// Options of a run. The zero value is the defaults.
type Options struct {
	Backend   Backend
	Algorithm Algorithm
	Device    int32 // CUDA ordinal
	NoPaths   bool  // distances only
	// AnyOrder (GSP_ROWS_ANY_ORDER) lets APSPStream hand row blocks to its
	// callback in any order (each at its FirstSourceIndex; every row once,
	// one call at a time), so that a run on several devices streams from
	// all of them at once. Other runs ignore it. Default: source order.
	AnyOrder          bool
	Delta             float64 // delta-stepping bucket width; 0 chooses
	NumThreads        int32   // CPU threads; 0: all cores
	DeviceMemoryLimit uint64  // bytes; 0: what is free
	CUDAStream        uintptr // a cudaStream_t, or 0 for the library's own
	// Progress gets the fraction done in [0, 1]; returning true stops the
	// run (ErrCancelled). It may be called from the library's threads.
	Progress func(fraction float64) (stop bool)
	// Limit bounds the distances (gsp_search.h): a vertex farther than
	// *Limit from the source(s) is reported unreachable, and Dijkstra-like
	// engines stop there. nil (the default): no limit; set it with
	// gsp.Limit(d). Needs non-negative weights (ErrNegativeWeight); NaN or
	// a negative limit is ErrInvalidArgument.
	Limit *float64
	// NumDevices is the number of CUDA devices a run may use, from Device
	// upward (doc/multi-gpu.md): 0 (the default) lets AUTO choose (every
	// device when that is estimated faster), 1 only Device, k >= 2 exactly
	// Device .. Device+k-1. Negative, or k >= 2 with CUDAStream, is
	// ErrInvalidArgument.
	NumDevices int32
	// Index is a road index of the run's graph (Graph.BuildIndex,
	// LoadIndex): with AlgoAuto or IndexCH, SSSP, APSP, APSPStream, Table
	// and TableDistances answer from it, on CPU threads (any other
	// algorithm runs without it). An index of another graph is
	// ErrInvalidArgument, a closed one ErrClosed. nil (the default): none.
	Index *Index
}

// Limit returns a pointer to d, for Options.Limit.
func Limit(d float64) *float64 { return &d }

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
	// Never past this binding's struct: the header's gsp_options_init is a
	// macro cgo cannot call, and the function of that name fills libgsp 0.1's.
	C.gsp_options_init_sized(c, C.size_t(unsafe.Sizeof(*c)))
	if o == nil {
		return
	}
	c.backend = C.gsp_backend(o.Backend)
	c.algorithm = C.gsp_algorithm(o.Algorithm)
	c.device = C.int32_t(o.Device)
	if o.NoPaths {
		c.flags |= C.GSP_NO_PATHS
	}
	if o.AnyOrder {
		c.flags |= C.GSP_ROWS_ANY_ORDER
	}
	c.delta = C.double(o.Delta)
	c.num_threads = C.int32_t(o.NumThreads)
	c.device_memory_limit = C.size_t(o.DeviceMemoryLimit)
	C.gsp_go_set_stream(c, C.uintptr_t(o.CUDAStream))
	if o.Limit != nil {
		c.limit = C.double(*o.Limit)
	}
	c.num_devices = C.int32_t(o.NumDevices)
	if o.Progress != nil {
		C.gsp_go_set_progress(c, C.uintptr_t(h))
	}
}
