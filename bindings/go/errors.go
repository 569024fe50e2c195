package gsp

// Errors: Status (a gsp_status, also an error), Error (a failed call with
// the library's message), and call, which runs a fallible C call on a
// locked OS thread.

/*
#include <gsp/gsp.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
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
