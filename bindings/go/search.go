package gsp

// Nearest-source searches (gsp_nearest_run, gsp_search.h): for every
// vertex, the distance from the closest of many sources, which source that
// is, and the path.

/*
#include <gsp/gsp.h>
#include <stdint.h>
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"unsafe"
)

// NearestResult is the answer of Graph.Nearest, one entry per vertex.
type NearestResult struct {
	// WeightType of the graph the distances come from.
	WeightType WeightType
	// Distances from the nearest source as float64 for any weight type
	// (+Inf where no source reaches, or none within Options.Limit); 0 at
	// every source.
	Distances []float64
	// Nearest is the source each distance is measured from (a source names
	// itself), -1 where none reaches.
	Nearest []int32
	// Predecessors is the vertex before each on its path from its nearest
	// source, -1 at sources and unreached vertices; nil with NoPaths.
	Predecessors []int32
}

// Path lists the vertices of the shortest path to target from its nearest
// source, that source first; nil when no source reaches target, target is
// out of range, or the search ran with NoPaths.
func (r *NearestResult) Path(target int32) []int32 {
	n := len(r.Predecessors)
	if target < 0 || int(target) >= n || r.Nearest[target] < 0 {
		return nil
	}
	v := []int32{target}
	for cur := target; r.Predecessors[cur] >= 0 && len(v) <= n; {
		cur = r.Predecessors[cur]
		v = append(v, cur)
	}
	for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
		v[i], v[j] = v[j], v[i]
	}
	return v
}

// Nearest runs one search from all of sources at once (each at distance
// 0): for every vertex, the distance from the closest source and which one
// it is, as cheap as one SSSP whatever the number of sources. Where two
// sources are equally near, either may be named. o may be nil for defaults;
// its Algorithm is AlgoAuto or an SSSP algorithm; Limit applies.
func (g *Graph) Nearest(sources []int32, o *Options) (*NearestResult, error) {
	var res NearestResult
	noPaths := o != nil && o.NoPaths
	err := g.run(o, nil, func(p *C.gsp_graph, c *C.gsp_options, _ cgo.Handle) C.gsp_status {
		n := int(C.gsp_graph_num_vertices(p))
		res.WeightType = WeightType(C.gsp_graph_weight_type(p))
		raw := make([]uint64, n+1) // 8-byte aligned room for n values of any type
		res.Nearest = make([]int32, n+1)
		var pred *C.int32_t
		if !noPaths {
			res.Predecessors = make([]int32, n+1)
			pred = i32ptr(res.Predecessors)
		}
		st := C.gsp_nearest_run(p, i32ptr(sources), C.int32_t(len(sources)), c, unsafe.Pointer(&raw[0]),
			i32ptr(res.Nearest), pred)
		res.Distances = rawToF64(unsafe.Pointer(&raw[0]), n, res.WeightType)
		res.Nearest = res.Nearest[:n]
		if res.Predecessors != nil {
			res.Predecessors = res.Predecessors[:n]
		}
		return st
	})
	runtime.KeepAlive(sources)
	if err != nil {
		return nil, err
	}
	return &res, nil
}
