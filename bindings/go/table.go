package gsp

/*
#include <gsp/gsp.h>
#include <stdint.h>
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// ------------------------------------------------------------------ tables

// Table holds the distances (and, unless run with NoPaths, the paths) from a
// list of sources to a list of targets. Cells are addressed by index into
// the two lists (i for sources[i], j for targets[j]), not by vertex id.
// Close it when done (idempotent; a finalizer is a backstop); it stays valid
// after its Graph is closed.
type Table struct {
	mu   sync.RWMutex
	p    *C.gsp_table
	k, t int
	wt   WeightType
}

// Table computes shortest paths from every vertex of sources to every vertex
// of targets (either list may repeat ids, and may be empty). Only the
// len(sources) x len(targets) cells are computed and kept, never whole rows.
// o may be nil for defaults; its Algorithm is AlgoAuto or an APSP algorithm;
// NoPaths keeps distances only (Path then fails with ErrUnsupported).
func (g *Graph) Table(sources, targets []int32, o *Options) (*Table, error) {
	var out *C.gsp_table
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		return C.gsp_table_run(p, i32ptr(sources), C.int32_t(len(sources)), i32ptr(targets),
			C.int32_t(len(targets)), c, &out)
	})
	runtime.KeepAlive(sources)
	runtime.KeepAlive(targets)
	if err != nil {
		return nil, err
	}
	return newTable(out)
}

// TableDistances computes only the distances of Table, straight into a
// slice (no Table to close): len(sources) x len(targets) values as float64,
// row-major (row i from sources[i]), +Inf where unreachable. o.NoPaths is
// implied.
func (g *Graph) TableDistances(sources, targets []int32, o *Options) ([]float64, RunInfo, error) {
	var info RunInfo
	var raw []uint64 // 8-byte aligned room for cells values of any type
	var wt WeightType
	cells := len(sources) * len(targets)
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		wt = WeightType(C.gsp_graph_weight_type(p))
		raw = make([]uint64, cells+1)
		c.flags |= C.GSP_NO_PATHS
		var ci C.gsp_run_info
		ci.size = C.uint32_t(unsafe.Sizeof(ci))
		st := C.gsp_table_run_into(p, i32ptr(sources), C.int32_t(len(sources)), i32ptr(targets),
			C.int32_t(len(targets)), c, unsafe.Pointer(&raw[0]), &ci)
		info = runInfo(&ci)
		return st
	})
	runtime.KeepAlive(sources)
	runtime.KeepAlive(targets)
	if err != nil {
		return nil, RunInfo{}, err
	}
	return rawToF64(unsafe.Pointer(&raw[0]), cells, wt), info, nil
}

func newTable(p *C.gsp_table) (*Table, error) {
	r := &Table{p: p}
	runtime.SetFinalizer(r, (*Table).Close)
	var k, t C.int32_t
	if err := call(func() C.gsp_status { return C.gsp_table_size(p, &k, &t) }); err != nil {
		r.Close()
		return nil, err
	}
	info, err := r.Info()
	if err != nil {
		r.Close()
		return nil, err
	}
	r.k, r.t, r.wt = int(k), int(t), info.WeightType
	return r, nil
}

// Close frees the table; idempotent.
func (r *Table) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p != nil {
		C.gsp_table_destroy(r.p)
		r.p = nil
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

func (r *Table) use(f func(p *C.gsp_table) error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.p == nil {
		return ErrClosed
	}
	err := f(r.p)
	runtime.KeepAlive(r)
	return err
}

// Size is (number of sources, number of targets): the table's rows and
// columns.
func (r *Table) Size() (sources, targets int) { return r.k, r.t }

// WeightType of the distances.
func (r *Table) WeightType() WeightType { return r.wt }

// Info says what the run did (NumSources is the number of sources).
func (r *Table) Info() (RunInfo, error) {
	var info RunInfo
	err := r.use(func(p *C.gsp_table) error {
		var c C.gsp_run_info
		c.size = C.uint32_t(unsafe.Sizeof(c))
		if err := call(func() C.gsp_status { return C.gsp_table_info(p, &c) }); err != nil {
			return err
		}
		info = runInfo(&c)
		return nil
	})
	return info, err
}

func runInfo(c *C.gsp_run_info) RunInfo {
	return RunInfo{Backend(c.backend), Algorithm(c.algorithm), WeightType(c.weight_type), int(c.num_vertices),
		int(c.num_sources), int(c.device), C.GoStringN(&c.device_name[0], C.int(cstrlen(c.device_name[:]))),
		float64(c.seconds), float64(c.upload_seconds), int64(c.iterations), int64(c.relaxations), c.has_paths != 0,
		float64(c.setup_seconds), float64(c.compute_seconds), float64(c.copy_seconds), float64(c.paths_seconds),
		int(c.num_devices)}
}

// rawToF64 converts n distances of type wt at raw to float64 (+Inf: unreachable).
func rawToF64(raw unsafe.Pointer, n int, wt WeightType) []float64 {
	out := make([]float64, n)
	if n == 0 {
		return out
	}
	switch wt {
	case I32:
		for i, v := range unsafe.Slice((*int32)(raw), n) {
			out[i] = i32ToF64(v)
		}
	case F64:
		copy(out, unsafe.Slice((*float64)(raw), n))
	default:
		for i, v := range unsafe.Slice((*float32)(raw), n) {
			out[i] = float64(v)
		}
	}
	return out
}

// Distances copies all the distances as float64, row-major: the value for
// sources[i] and targets[j] is at i*len(targets) + j (+Inf: unreachable).
func (r *Table) Distances() ([]float64, error) {
	cells := r.k * r.t
	raw := make([]uint64, cells+1) // 8-byte aligned room for any weight type
	err := r.use(func(p *C.gsp_table) error {
		return call(func() C.gsp_status { return C.gsp_table_distances(p, unsafe.Pointer(&raw[0]), C.int64_t(cells)) })
	})
	if err != nil {
		return nil, err
	}
	return rawToF64(unsafe.Pointer(&raw[0]), cells, r.wt), nil
}

// Rows is Distances as one slice per source.
func (r *Table) Rows() ([][]float64, error) {
	d, err := r.Distances()
	if err != nil {
		return nil, err
	}
	rows := make([][]float64, r.k)
	for i := range rows {
		rows[i] = d[i*r.t : (i+1)*r.t : (i+1)*r.t]
	}
	return rows, nil
}

// Distance from sources[i] to targets[j] as float64 (+Inf: unreachable).
func (r *Table) Distance(i, j int) (float64, error) {
	var raw [1]uint64 // 8 aligned bytes: room for any weight type
	err := r.use(func(p *C.gsp_table) error {
		return call(func() C.gsp_status {
			return C.gsp_table_distance(p, C.int32_t(i), C.int32_t(j), unsafe.Pointer(&raw[0]))
		})
	})
	if err != nil {
		return 0, err
	}
	return rawToF64(unsafe.Pointer(&raw[0]), 1, r.wt)[0], nil
}

// Path lists the vertices of a shortest path from sources[i] to targets[j],
// both included; ErrNoPath when unreachable, ErrUnsupported when the table
// was run with NoPaths.
func (r *Table) Path(i, j int) ([]int32, error) {
	var out []int32
	err := r.use(func(p *C.gsp_table) error {
		var length C.int32_t
		if err := call(func() C.gsp_status {
			return C.gsp_table_path(p, C.int32_t(i), C.int32_t(j), nil, 0, &length)
		}); err != nil {
			return err
		}
		out = make([]int32, int(length)+1)
		err := call(func() C.gsp_status {
			return C.gsp_table_path(p, C.int32_t(i), C.int32_t(j), i32ptr(out), length, &length)
		})
		out = out[:int(length)]
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
