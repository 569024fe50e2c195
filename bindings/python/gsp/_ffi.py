"""The raw layer: libgsp loaded with ctypes, every function with argtypes and
restype, the two mirrored structs and every constant of include/gsp/gsp.h.

Nothing here checks arguments; the public layer (gsp/__init__.py) does.
The constants are checked against the header by tests/test_abi_layout.c
(see scripts/check_bindings.sh, step "abi").
"""
import ctypes
import ctypes.util
import os

# ------------------------------------------------------------------ constants
GSP_VERSION_MAJOR = 0
GSP_VERSION_MINOR = 1
GSP_VERSION_PATCH = 0

# gsp_status, in the order of GSP_STATUS_LIST.
STATUS = {
    "GSP_OK": 0,
    "GSP_ERR_INVALID_ARGUMENT": 1,
    "GSP_ERR_INVALID_GRAPH": 2,
    "GSP_ERR_NEGATIVE_WEIGHT": 3,
    "GSP_ERR_NEGATIVE_CYCLE": 4,
    "GSP_ERR_OVERFLOW": 5,
    "GSP_ERR_NO_PATH": 6,
    "GSP_ERR_BUFFER_TOO_SMALL": 7,
    "GSP_ERR_OUT_OF_MEMORY": 8,
    "GSP_ERR_DEVICE_OUT_OF_MEMORY": 9,
    "GSP_ERR_NO_DEVICE": 10,
    "GSP_ERR_DEVICE": 11,
    "GSP_ERR_UNSUPPORTED": 12,
    "GSP_ERR_IO": 13,
    "GSP_ERR_PARSE": 14,
    "GSP_ERR_CANCELLED": 15,
    "GSP_ERR_INTERNAL": 16,
}
globals().update(STATUS)

GSP_F32 = 1
GSP_I32 = 2
GSP_I32_INF = 2147483647
GSP_GRAPH_UNDIRECTED = 1
GSP_FORMAT_AUTO = 0
GSP_FORMAT_DIMACS = 1
GSP_FORMAT_MATRIX_MARKET = 2
GSP_FORMAT_EDGE_LIST = 3
GSP_BACKEND_AUTO = 0
GSP_BACKEND_CPU = 1
GSP_BACKEND_CUDA = 2
GSP_ALGO_AUTO = 0
GSP_SSSP_DIJKSTRA = 1
GSP_SSSP_BELLMAN_FORD = 2
GSP_SSSP_DELTA_STEPPING = 3
GSP_SSSP_ATOMIC_LOCK = 4
GSP_SSSP_HARISH = 5
GSP_SSSP_SPMV_CSR = 6
GSP_SSSP_SPMV_ELL = 7
GSP_SSSP_GPU_DIJKSTRA = 8
GSP_APSP_FLOYD_WARSHALL = 9
GSP_APSP_MINPLUS = 10
GSP_APSP_HEAP = 11
GSP_APSP_TASK_PARALLEL = 12
GSP_APSP_JOHNSON = 13
GSP_SSSP_ATOMIC_64 = 14
GSP_NO_PATHS = 1

CONSTANTS = [
    "GSP_VERSION_MAJOR", "GSP_VERSION_MINOR", "GSP_VERSION_PATCH",
    *STATUS,
    "GSP_F32", "GSP_I32", "GSP_I32_INF", "GSP_GRAPH_UNDIRECTED",
    "GSP_FORMAT_AUTO", "GSP_FORMAT_DIMACS", "GSP_FORMAT_MATRIX_MARKET", "GSP_FORMAT_EDGE_LIST",
    "GSP_BACKEND_AUTO", "GSP_BACKEND_CPU", "GSP_BACKEND_CUDA",
    "GSP_ALGO_AUTO", "GSP_SSSP_DIJKSTRA", "GSP_SSSP_BELLMAN_FORD", "GSP_SSSP_DELTA_STEPPING",
    "GSP_SSSP_ATOMIC_LOCK", "GSP_SSSP_HARISH", "GSP_SSSP_SPMV_CSR", "GSP_SSSP_SPMV_ELL",
    "GSP_SSSP_GPU_DIJKSTRA", "GSP_APSP_FLOYD_WARSHALL", "GSP_APSP_MINPLUS", "GSP_APSP_HEAP",
    "GSP_APSP_TASK_PARALLEL", "GSP_APSP_JOHNSON", "GSP_SSSP_ATOMIC_64", "GSP_NO_PATHS",
]

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
    ]


def abi_lines():
    """The binding's view of the ABI, in the format of tests/test_abi_layout.c."""
    out = []
    for st in (gsp_options, gsp_run_info):
        out.append("size %s %d" % (st.__name__, ctypes.sizeof(st)))
        for name, _ in st._fields_:
            out.append("offset %s.%s %d" % (st.__name__, name, getattr(st, name).offset))
    for name in CONSTANTS:
        out.append("const %s %d" % (name, globals()[name]))
    return out


# ------------------------------------------------------------------ library
def _candidates():
    env = os.environ.get("GSP_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (here, os.path.dirname(here)):
        for name in ("libgsp.so", "libgsp.so.0", "libgsp.dylib"):
            yield os.path.join(d, name)
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
    raise ImportError("libgsp shared library not found; set GSP_LIBRARY to libgsp.so "
                      "(build with -DGSP_BUILD_SHARED=ON). Tried: " + ", ".join(tried or ["nothing"]))


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
    "gsp_backend_available": (ctypes.c_int, [ctypes.c_int]),
    "gsp_device_count": (_i32, []),
    "gsp_release_cached_memory": (None, []),
    "gsp_backend_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_name": (ctypes.c_char_p, [ctypes.c_int]),
    "gsp_algorithm_from_name": (c_status, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
}
for _name, (_res, _args) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
