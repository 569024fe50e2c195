"""The raw layer: libgsp loaded with ctypes, every function with argtypes and
restype, the two mirrored structs and every constant of include/gsp/gsp.h
(from _constants.py, generated from the header; the algorithms from the
library, see ALGORITHMS).

Nothing here checks arguments; the public layer (gsp/__init__.py) does.
The constants are checked against the header by tests/test_abi_layout.c
(see scripts/check_bindings.sh, step "abi").
"""
import ctypes
import ctypes.util
import os
import subprocess

# ------------------------------------------------------------------ constants
# _constants.py is generated from the header by bindings/gen_constants.c.
from ._constants import *  # noqa: F401,F403
from ._constants import CONSTANTS, STATUS  # noqa: F401

# ------------------------------------------------------------------ structs
c_status = ctypes.c_int  # C enums are int-sized on every ABI libgsp supports
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double)
ROWS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                           ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32))


class gsp_options(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_uint32),
        ("backend", ctypes.c_int),
        ("algorithm", ctypes.c_int),
        ("device", ctypes.c_int32),
        ("flags", ctypes.c_uint32),
        ("delta", ctypes.c_double),
        ("num_threads", ctypes.c_int32),
        ("device_memory_limit", ctypes.c_size_t),
        ("cuda_stream", ctypes.c_void_p),
        ("progress", PROGRESS_FN),
        ("progress_user", ctypes.c_void_p),
        ("limit", ctypes.c_double),  # gsp_search.h: +INFINITY (gsp_options_init) means no limit
        ("num_devices", ctypes.c_int32),  # 0 (gsp_options_init): AUTO chooses; k: devices device..device+k-1
        ("index", ctypes.c_void_p),  # a gsp_index* (gsp_index.h): AUTO or GSP_CH runs answer from it; NULL: none
    ]


class gsp_run_info(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_uint32),
        ("backend", ctypes.c_int),
        ("algorithm", ctypes.c_int),
        ("weight_type", ctypes.c_int),
        ("num_vertices", ctypes.c_int32),
        ("num_sources", ctypes.c_int32),
        ("device", ctypes.c_int32),
        ("device_name", ctypes.c_char * 128),
        ("seconds", ctypes.c_double),
        ("upload_seconds", ctypes.c_double),
        ("iterations", ctypes.c_int64),
        ("relaxations", ctypes.c_int64),
        ("has_paths", ctypes.c_uint32),
        ("setup_seconds", ctypes.c_double),
        ("compute_seconds", ctypes.c_double),
        ("copy_seconds", ctypes.c_double),
        ("paths_seconds", ctypes.c_double),
        ("num_devices", ctypes.c_int32),  # CUDA devices the run used (0 on the CPU)
    ]


# Fields that tests/test_abi_layout.c does not print an offset for (its size
# line covers them): leave them out here too, or the diff fails.
_ABI_UNLISTED = set()


def abi_lines():
    """The binding's view of the ABI, in the format of tests/test_abi_layout.c."""
    out = []
    for st in (gsp_options, gsp_run_info):
        out.append("size %s %d" % (st.__name__, ctypes.sizeof(st)))
        for name, _ in st._fields_:
            if (st.__name__, name) in _ABI_UNLISTED:
                continue
            out.append("offset %s.%s %d" % (st.__name__, name, getattr(st, name).offset))
    for name in CONSTANTS:
        out.append("const %s %d" % (name, globals()[name]))
    for value, name in enumerate(ALGORITHMS):
        out.append("algorithm %s %d" % (name, value))
    return out


# ------------------------------------------------------------------ library
_SONAMES = ("libgsp.so.%d.%d" % (GSP_VERSION_MAJOR, GSP_VERSION_MINOR), "libgsp.so", "libgsp.dylib")


def _candidates():
    """Where libgsp.so may be, in order: $GSP_LIBRARY; inside this package
    (pip install ships it there); up to four directories above it (make
    install: PREFIX/lib/python3/site-packages/gsp -> PREFIX/lib); the lib
    directory of `pkg-config gsp`; $GSP_BUILD_DIR; the system's search path."""
    env = os.environ.get("GSP_LIBRARY")
    if env:
        yield env
        return
    d = os.path.dirname(os.path.abspath(__file__))
    for _ in range(5):
        for name in _SONAMES:
            yield os.path.join(d, name)
        d = os.path.dirname(d)
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "gsp"], capture_output=True, text=True,
                             check=False).stdout.strip()
    except OSError:
        out = ""
    if out:
        for name in _SONAMES:
            yield os.path.join(out, name)
    build = os.environ.get("GSP_BUILD_DIR")
    if build:
        yield os.path.join(build, "libgsp.so")
    found = ctypes.util.find_library("gsp")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("libgsp shared library not found; install libgsp (make install, which builds "
                      "libgsp.so by default) or set GSP_LIBRARY to libgsp.so. Tried: " + ", ".join(tried or ["nothing"]))


lib = _load()

_p = ctypes.c_void_p
_i32 = ctypes.c_int32
_i64 = ctypes.c_int64
_pi32 = ctypes.POINTER(ctypes.c_int32)
_pi64 = ctypes.POINTER(ctypes.c_int64)
_SIGNATURES = {
    "gsp_version": (ctypes.c_uint32, []),
    "gsp_status_name": (ctypes.c_char_p, [c_status]),
    "gsp_last_error": (ctypes.c_char_p, []),
    "gsp_graph_create": (c_status, [ctypes.POINTER(_p), _i32, _i64, _pi32, _pi32, _p, ctypes.c_int, ctypes.c_uint32]),
    "gsp_graph_create_csr": (c_status, [ctypes.POINTER(_p), _i32, _pi64, _pi32, _p, ctypes.c_int, ctypes.c_uint32]),
    "gsp_graph_load": (c_status, [ctypes.POINTER(_p), ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_uint32]),
    "gsp_graph_save": (c_status, [_p, ctypes.c_char_p, ctypes.c_int]),
    "gsp_graph_destroy": (None, [_p]),
    "gsp_graph_num_vertices": (_i32, [_p]),
    "gsp_graph_num_edges": (_i64, [_p]),
    "gsp_graph_weight_type": (ctypes.c_int, [_p]),
    "gsp_graph_csr": (c_status, [_p, _pi64, _pi32, _p]),
    "gsp_options_init": (None, [ctypes.POINTER(gsp_options)]),
    "gsp_sssp_run": (c_status, [_p, _i32, ctypes.POINTER(gsp_options), ctypes.POINTER(_p)]),
    "gsp_apsp_run": (c_status, [_p, _pi32, _i32, ctypes.POINTER(gsp_options), ctypes.POINTER(_p)]),
    "gsp_apsp_stream": (c_status, [_p, _pi32, _i32, ctypes.POINTER(gsp_options), ROWS_FN, _p]),
    "gsp_paths_num_sources": (_i32, [_p]),
    "gsp_paths_source": (_i32, [_p, _i32]),
    "gsp_paths_distances": (c_status, [_p, _i32, _p, _i64]),
    "gsp_paths_distance": (c_status, [_p, _i32, _i32, _p]),
    "gsp_paths_predecessors": (c_status, [_p, _i32, _pi32, _i64]),
    "gsp_path_get": (c_status, [_p, _i32, _i32, _pi32, _i32, _pi32]),
    "gsp_paths_info": (c_status, [_p, ctypes.POINTER(gsp_run_info)]),
    "gsp_paths_destroy": (None, [_p]),
    "gsp_table_run": (c_status, [_p, _pi32, _i32, _pi32, _i32, ctypes.POINTER(gsp_options), ctypes.POINTER(_p)]),
    "gsp_table_run_into": (c_status, [_p, _pi32, _i32, _pi32, _i32, ctypes.POINTER(gsp_options), _p,
                                      ctypes.POINTER(gsp_run_info)]),
    "gsp_table_size": (c_status, [_p, _pi32, _pi32]),
    "gsp_table_distances": (c_status, [_p, _p, _i64]),
    "gsp_table_distance": (c_status, [_p, _i32, _i32, _p]),
    "gsp_table_path": (c_status, [_p, _i32, _i32, _pi32, _i32, _pi32]),
    "gsp_table_info": (c_status, [_p, ctypes.POINTER(gsp_run_info)]),
    "gsp_table_destroy": (None, [_p]),
    "gsp_nearest_run": (c_status, [_p, _pi32, _i32, ctypes.POINTER(gsp_options), _p, _pi32, _pi32]),
    "gsp_backend_available": (ctypes.c_int, [ctypes.c_int]),
    "gsp_device_count": (_i32, []),
    "gsp_device_start": (c_status, [_i32]),
    "gsp_release_cached_memory": (None, []),
    "gsp_backend_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_from_name": (c_status, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "gsp_algorithm_identifier": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_summary": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_kind": (ctypes.c_int, [ctypes.c_int]),
    "gsp_algorithm_accepts_negative_weights": (ctypes.c_int, [ctypes.c_int]),
    "gsp_algorithm_has_engine": (ctypes.c_int, [ctypes.c_int, ctypes.c_int]),
}
# Entries a libgsp older than the binding may lack: declared when present; the
# public layer says GSP_ERR_UNSUPPORTED when not (gsp._device.has_device_arrays).
_OPTIONAL_SIGNATURES = {
    # gsp_options.h: fills exactly the binding's struct (a 0.1 library lacks it).
    "gsp_options_init_sized": (None, [ctypes.POINTER(gsp_options), ctypes.c_size_t]),
    # gsp_device.h, "device arrays": the pointers are CUDA device addresses (ints).
    "gsp_graph_create_csr_device": (c_status, [ctypes.POINTER(_p), _i32, _p, _p, _p, ctypes.c_int, ctypes.c_uint32,
                                               ctypes.POINTER(gsp_options)]),
    "gsp_sssp_run_device": (c_status, [_p, _i32, ctypes.POINTER(gsp_options), _p, _p,
                                       ctypes.POINTER(gsp_run_info)]),
    # gsp_index.h, road indexes (gsp.Index): the handle is a gsp_index*.
    "gsp_index_build": (c_status, [_p, ctypes.POINTER(gsp_options), ctypes.POINTER(_p),
                                   ctypes.POINTER(gsp_run_info)]),
    "gsp_index_size": (c_status, [_p, _pi32, _pi64, _pi64]),
    "gsp_index_save": (c_status, [_p, ctypes.c_char_p]),
    "gsp_index_load": (c_status, [_p, ctypes.c_char_p, ctypes.POINTER(_p)]),
    "gsp_index_destroy": (None, [_p]),
}
for _name, (_res, _args) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
for _name, (_res, _args) in _OPTIONAL_SIGNATURES.items():
    _f = getattr(lib, _name, None)
    if _f is not None:
        _f.restype = _res
        _f.argtypes = _args


def has(name):
    """Whether the loaded libgsp exports the function ``name``."""
    return getattr(lib, name, None) is not None


# ------------------------------------------------------------------ algorithms
# Read from the loaded library (gsp_algorithms.h), not listed here: every
# value from 0 on that gsp_algorithm_kind() knows is one, and each becomes a
# module constant under its C name (GSP_SSSP_DIJKSTRA = 1), so a library with
# a new algorithm needs no new binding.
def _read_algorithms():
    out = []
    while lib.gsp_algorithm_kind(len(out)) != GSP_KIND_UNKNOWN:
        out.append(lib.gsp_algorithm_identifier(len(out)).decode())
    return out


ALGORITHMS = _read_algorithms()  # C names, by value
for _value, _ident in enumerate(ALGORITHMS):
    globals()[_ident] = _value
