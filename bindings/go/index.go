package gsp

// Road indexes (gsp_index.h): Index, a contraction hierarchy of a Graph,
// built once (Graph.BuildIndex) or read from a file (LoadIndex), which the
// runs given it in Options.Index answer from.

/*
#include <gsp/gsp.h>
#include <stdlib.h>
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// Index is a road index of a graph (a contraction hierarchy). Set it in
// Options.Index and the runs of that graph (SSSP, APSP, APSPStream, Table,
// TableDistances; AlgoAuto or IndexCH) answer from it: the same distances
// (int32 bit for bit; float sums may round differently) and paths, on CPU
// threads, far faster on road networks (doc/road-index.md). It keeps no
// reference to its graph and answers only for it (or an equal graph):
// another graph is ErrInvalidArgument. Close it when done (idempotent; a
// finalizer is a backstop); a run holding it keeps Close waiting until it
// returns.
type Index struct {
	mu        sync.RWMutex // Close takes it exclusively; every use shares it
	p         *C.gsp_index
	buildInfo *RunInfo
}

// IndexSize gives the sizes of an Index.
type IndexSize struct {
	NumVertices  int   // n of its graph
	NumArcs      int64 // arcs of the hierarchy: the graph's, merged, and the shortcuts
	NumShortcuts int64 // shortcut arcs the contraction added
}

func newIndex(p *C.gsp_index) *Index {
	ix := &Index{p: p}
	runtime.SetFinalizer(ix, (*Index).Close)
	return ix
}

// BuildIndex builds the road index of g (gsp_index_build). Of o (nil for
// defaults) it reads NumThreads (0: every core) and Progress (the fraction
// of vertices contracted; true stops the build: ErrCancelled). Negative
// weights are ErrNegativeWeight.
func (g *Graph) BuildIndex(o *Options) (*Index, error) {
	if o != nil && o.Index != nil { // not read by the build: never ErrClosed for it
		oc := *o
		oc.Index = nil
		o = &oc
	}
	var out *C.gsp_index
	var ci C.gsp_run_info
	ci.size = C.uint32_t(unsafe.Sizeof(ci))
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		return C.gsp_index_build(p, c, &out, &ci)
	})
	if err != nil {
		C.gsp_index_destroy(out) // NULL on failure: a no-op
		return nil, err
	}
	ix := newIndex(out)
	info := runInfo(&ci)
	ix.buildInfo = &info
	return ix, nil
}

// LoadIndex reads an index that Index.Save wrote for g (gsp_index_load). A
// file cut short, damaged or not an index is ErrParse (the message names the
// file), a missing one ErrIO, an index of another graph ErrInvalidArgument.
func LoadIndex(g *Graph, path string) (*Index, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var out *C.gsp_index
	if err := g.use(func(p *C.gsp_graph) error {
		return call(func() C.gsp_status { return C.gsp_index_load(p, cs, &out) })
	}); err != nil {
		return nil, err
	}
	return newIndex(out), nil
}

// Close frees the index; idempotent. It waits for the runs using it.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.p != nil {
		C.gsp_index_destroy(ix.p)
		ix.p = nil
		runtime.SetFinalizer(ix, nil)
	}
	return nil
}

// use runs f with the live handle, or returns ErrClosed.
func (ix *Index) use(f func(p *C.gsp_index) error) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.p == nil {
		return ErrClosed
	}
	err := f(ix.p)
	runtime.KeepAlive(ix)
	return err
}

// useIndex runs f with the handle of o.Index (nil without one), held open
// for the call, or returns ErrClosed.
func (o *Options) useIndex(f func(p *C.gsp_index) error) error {
	if o == nil || o.Index == nil {
		return f(nil)
	}
	return o.Index.use(f)
}

// Save writes the index to a file (a versioned binary format with a
// checksum).
func (ix *Index) Save(path string) error {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	return ix.use(func(p *C.gsp_index) error {
		return call(func() C.gsp_status { return C.gsp_index_save(p, cs) })
	})
}

// Size gives the index's sizes (gsp_index_size).
func (ix *Index) Size() (IndexSize, error) {
	var s IndexSize
	err := ix.use(func(p *C.gsp_index) error {
		var n C.int32_t
		var arcs, shortcuts C.int64_t
		if err := call(func() C.gsp_status { return C.gsp_index_size(p, &n, &arcs, &shortcuts) }); err != nil {
			return err
		}
		s = IndexSize{int(n), int64(arcs), int64(shortcuts)}
		return nil
	})
	return s, err
}

// BuildInfo says what BuildIndex did (Seconds, the threads in DeviceName);
// nil for a loaded index.
func (ix *Index) BuildInfo() *RunInfo { return ix.buildInfo }
