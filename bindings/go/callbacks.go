package gsp

// The C callbacks. This file's preamble holds declarations only, as cgo
// requires of files with //export.

/*
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

//export gspGoProgress
func gspGoProgress(user unsafe.Pointer, fraction C.double) (stop C.int) {
	st := cgo.Handle(uintptr(user)).Value().(*callState)
	defer func() {
		if p := recover(); p != nil {
			st.recordPanic(p)
			stop = 1
		}
	}()
	if st.progress != nil && st.progress(float64(fraction)) {
		return 1
	}
	return 0
}

//export gspGoRows
func gspGoRows(user unsafe.Pointer, first, numRows C.int32_t, distances unsafe.Pointer, preds *C.int32_t) (stop C.int) {
	st := cgo.Handle(uintptr(user)).Value().(*callState)
	defer func() {
		if p := recover(); p != nil {
			st.recordPanic(p)
			stop = 1
		}
	}()
	rows, n := int(numRows), st.n
	b := RowBlock{FirstSourceIndex: int(first)}
	switch st.wt {
	case I32:
		all := unsafe.Slice((*int32)(distances), rows*n)
		for r := 0; r < rows; r++ {
			b.I32 = append(b.I32, append([]int32(nil), all[r*n:(r+1)*n]...))
		}
	case F64:
		all := unsafe.Slice((*float64)(distances), rows*n)
		for r := 0; r < rows; r++ {
			b.F64 = append(b.F64, append([]float64(nil), all[r*n:(r+1)*n]...))
		}
	default:
		all := unsafe.Slice((*float32)(distances), rows*n)
		for r := 0; r < rows; r++ {
			b.F32 = append(b.F32, append([]float32(nil), all[r*n:(r+1)*n]...))
		}
	}
	if preds != nil {
		all := unsafe.Slice((*int32)(unsafe.Pointer(preds)), rows*n)
		for r := 0; r < rows; r++ {
			b.Predecessors = append(b.Predecessors, append([]int32(nil), all[r*n:(r+1)*n]...))
		}
	}
	if st.rows(b) {
		return 1
	}
	return 0
}
