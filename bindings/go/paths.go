package gsp

// Paths, the result of a run (distances, predecessors, paths), and RunInfo,
// what the run did.

/*
#include <gsp/gsp.h>
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"unsafe"
)

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
	// Stages (doc/run-info.md): disjoint parts of Seconds, 0 where the
	// engine does not measure one.
	SetupSeconds   float64 // allocation and initialisation
	ComputeSeconds float64 // the search or the matrix steps, with any copies they overlap
	CopySeconds    float64 // results into host memory
	PathsSeconds   float64 // a separate predecessor pass or repair
	NumDevices     int     // CUDA devices the run used, Device and the next ones (0 on the CPU)
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

// DistancesF64 copies the distances from source of an F64 result (+Inf: unreachable).
func (r *Paths) DistancesF64(source int32) ([]float64, error) {
	if r.wt != F64 {
		return nil, errorf(ErrInvalidArgument, "the distances are not float64")
	}
	d := make([]float64, r.n+1)
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

// Distances copies the distances from source as float64 for any weight
// type (+Inf: unreachable).
func (r *Paths) Distances(source int32) ([]float64, error) {
	if r.wt == F64 {
		return r.DistancesF64(source)
	}
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
	var raw [1]uint64 // 8 aligned bytes: room for any weight type
	err := r.use(func(p *C.gsp_paths) error {
		return call(func() C.gsp_status {
			return C.gsp_paths_distance(p, C.int32_t(source), C.int32_t(target), unsafe.Pointer(&raw[0]))
		})
	})
	if err != nil {
		return 0, err
	}
	return rawToF64(unsafe.Pointer(&raw[0]), 1, r.wt)[0], nil
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
