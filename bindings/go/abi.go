package gsp

/*
#include <gsp/gsp.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ABILines is this package's view of the ABI, in the format of
// tests/test_abi_layout.c (for scripts/check_bindings.sh).
func ABILines() []string {
	var o C.gsp_options
	var i C.gsp_run_info
	l := []string{fmt.Sprintf("size gsp_options %d", unsafe.Sizeof(o))}
	off := func(t, f string, v uintptr) { l = append(l, fmt.Sprintf("offset %s.%s %d", t, f, v)) }
	off("gsp_options", "size", unsafe.Offsetof(o.size))
	off("gsp_options", "backend", unsafe.Offsetof(o.backend))
	off("gsp_options", "algorithm", unsafe.Offsetof(o.algorithm))
	off("gsp_options", "device", unsafe.Offsetof(o.device))
	off("gsp_options", "flags", unsafe.Offsetof(o.flags))
	off("gsp_options", "delta", unsafe.Offsetof(o.delta))
	off("gsp_options", "num_threads", unsafe.Offsetof(o.num_threads))
	off("gsp_options", "device_memory_limit", unsafe.Offsetof(o.device_memory_limit))
	off("gsp_options", "cuda_stream", unsafe.Offsetof(o.cuda_stream))
	off("gsp_options", "progress", unsafe.Offsetof(o.progress))
	off("gsp_options", "progress_user", unsafe.Offsetof(o.progress_user))
	off("gsp_options", "limit", unsafe.Offsetof(o.limit))
	off("gsp_options", "num_devices", unsafe.Offsetof(o.num_devices))
	off("gsp_options", "index", unsafe.Offsetof(o.index))
	// not o.index: tests/test_abi_layout.c prints no offset for it (its size line covers it)
	l = append(l, fmt.Sprintf("size gsp_run_info %d", unsafe.Sizeof(i)))
	off("gsp_run_info", "size", unsafe.Offsetof(i.size))
	off("gsp_run_info", "backend", unsafe.Offsetof(i.backend))
	off("gsp_run_info", "algorithm", unsafe.Offsetof(i.algorithm))
	off("gsp_run_info", "weight_type", unsafe.Offsetof(i.weight_type))
	off("gsp_run_info", "num_vertices", unsafe.Offsetof(i.num_vertices))
	off("gsp_run_info", "num_sources", unsafe.Offsetof(i.num_sources))
	off("gsp_run_info", "device", unsafe.Offsetof(i.device))
	off("gsp_run_info", "device_name", unsafe.Offsetof(i.device_name))
	off("gsp_run_info", "seconds", unsafe.Offsetof(i.seconds))
	off("gsp_run_info", "upload_seconds", unsafe.Offsetof(i.upload_seconds))
	off("gsp_run_info", "iterations", unsafe.Offsetof(i.iterations))
	off("gsp_run_info", "relaxations", unsafe.Offsetof(i.relaxations))
	off("gsp_run_info", "has_paths", unsafe.Offsetof(i.has_paths))
	off("gsp_run_info", "setup_seconds", unsafe.Offsetof(i.setup_seconds))
	off("gsp_run_info", "compute_seconds", unsafe.Offsetof(i.compute_seconds))
	off("gsp_run_info", "copy_seconds", unsafe.Offsetof(i.copy_seconds))
	off("gsp_run_info", "paths_seconds", unsafe.Offsetof(i.paths_seconds))
	off("gsp_run_info", "num_devices", unsafe.Offsetof(i.num_devices))
	c := func(name string, v int64) { l = append(l, fmt.Sprintf("const %s %d", name, v)) }
	c("GSP_VERSION_MAJOR", C.GSP_VERSION_MAJOR)
	c("GSP_VERSION_MINOR", C.GSP_VERSION_MINOR)
	c("GSP_VERSION_PATCH", C.GSP_VERSION_PATCH)
	for s := OK; s <= ErrInternal; s++ {
		c(s.Name(), int64(s))
	}
	c("GSP_F32", int64(F32))
	c("GSP_I32", int64(I32))
	c("GSP_F64", int64(F64))
	c("GSP_I32_INF", int64(I32Inf))
	c("GSP_GRAPH_UNDIRECTED", int64(Undirected))
	c("GSP_FORMAT_AUTO", int64(FormatAuto))
	c("GSP_FORMAT_DIMACS", int64(FormatDIMACS))
	c("GSP_FORMAT_MATRIX_MARKET", int64(FormatMatrixMarket))
	c("GSP_FORMAT_EDGE_LIST", int64(FormatEdgeList))
	c("GSP_BACKEND_AUTO", int64(BackendAuto))
	c("GSP_BACKEND_CPU", int64(BackendCPU))
	c("GSP_BACKEND_CUDA", int64(BackendCUDA))
	c("GSP_KIND_UNKNOWN", int64(KindUnknown))
	c("GSP_KIND_AUTO", int64(KindAuto))
	c("GSP_KIND_SSSP", int64(KindSSSP))
	c("GSP_KIND_APSP", int64(KindAPSP))
	c("GSP_KIND_INDEX", int64(KindIndex))
	c("GSP_NO_PATHS", C.GSP_NO_PATHS)
	c("GSP_ROWS_ANY_ORDER", C.GSP_ROWS_ANY_ORDER)
	for _, a := range algorithmConstants {
		l = append(l, fmt.Sprintf("algorithm %s %d", a.name, int64(a.value)))
	}
	return l
}

// algorithmConstants names the Algorithm constants this package declares,
// by their C names, as tests/test_abi_layout.c prints GSP_ALGORITHM_LIST's
// ("algorithm NAME VALUE"): the ABI check asks that each is the header's.
// An algorithm of the library without a constant here is still listed by
// Algorithms and found by AlgorithmFromName.
var algorithmConstants = []struct {
	name  string
	value Algorithm
}{
	{"GSP_ALGO_AUTO", AlgoAuto},
	{"GSP_SSSP_DIJKSTRA", SSSPDijkstra},
	{"GSP_SSSP_BELLMAN_FORD", SSSPBellmanFord},
	{"GSP_SSSP_DELTA_STEPPING", SSSPDeltaStepping},
	{"GSP_SSSP_ATOMIC_LOCK", SSSPAtomicLock},
	{"GSP_SSSP_HARISH", SSSPHarish},
	{"GSP_SSSP_SPMV_CSR", SSSPSpmvCSR},
	{"GSP_SSSP_SPMV_ELL", SSSPSpmvELL},
	{"GSP_SSSP_GPU_DIJKSTRA", SSSPGPUDijkstra},
	{"GSP_APSP_FLOYD_WARSHALL", APSPFloydWarshall},
	{"GSP_APSP_MINPLUS", APSPMinPlus},
	{"GSP_APSP_HEAP", APSPHeap},
	{"GSP_APSP_TASK_PARALLEL", APSPTaskParallel},
	{"GSP_APSP_JOHNSON", APSPJohnson},
	{"GSP_SSSP_ATOMIC_64", SSSPAtomic64},
	{"GSP_APSP_DELTA_STEPPING", APSPDeltaStepping},
	{"GSP_APSP_SPMM", APSPSpmm},
	{"GSP_CH", IndexCH},
}
