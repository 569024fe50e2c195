"""libgsp for Python: shortest paths (SSSP, APSP) on CPUs and NVIDIA GPUs.

A ctypes binding over libgsp.so (found through $GSP_LIBRARY, next to this
package, $GSP_BUILD_DIR or the system's library path). Vertex ids are 0-based,
as in C. NumPy arrays are accepted and returned when NumPy is importable;
plain lists otherwise.

    import gsp
    with gsp.Graph(4, [0, 1, 2], [1, 2, 3], [1.0, 2.0, 3.0]) as g:
        with g.sssp(0, algorithm="dijkstra") as p:
            print(p.distances(0), p.path(0, 3))
        print(g.table([0, 1], [3, 2]))  # 2 x 2 distances, rows = sources
        print(g.nearest([0, 2], limit=4.0))  # distance to, and id of, the nearest source
        with g.build_index() as ix:  # a road index (contraction hierarchy), built once
            print(g.table([0, 1], [3, 2], index=ix))  # the same distances, answered from it

Weights are float32 (gsp.F32), int32 (gsp.I32) or float64 (gsp.F64: double
sums, as scipy computes; unreachable is inf). Every run accepts ``limit=``:
vertices farther than it are reported unreachable (needs weights >= 0), and
``num_devices=`` (default 0: AUTO chooses): the CUDA devices it may use, from
``device=`` upward (RunInfo.num_devices: those it used, 0 on the CPU).

Road indexes (gsp_index.h): ``Graph.build_index()`` (or ``Index.build``)
preprocesses a graph with weights >= 0 once, ``Index.save``/``Index.load``
keep it in a file, and ``index=`` on sssp, apsp, apsp_stream and table
answers those runs from it (algorithm "auto" or GSP_CH): the same distances,
far faster on road networks.

CUDA arrays (CuPy, PyTorch, anything with __cuda_array_interface__ or
__dlpack__) go in and out without host copies: Graph.from_device_csr and
Graph.sssp_device (gsp/_device.py reads the protocols).

Failures of the library raise GspError(status, message); a closed Graph or
Paths raises ValueError, like a closed file. A Graph may be shared by threads;
each call reads the library's thread-local message on its own thread.
"""
import collections
import ctypes
import math

from . import _device, _ffi
from ._ffi import *  # noqa: F401,F403  (the constants: GSP_OK, GSP_F32, GSP_SSSP_DIJKSTRA, ...)
from ._ffi import lib as _lib

try:  # optional
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the machine
    _np = None

__all__ = ["Graph", "Paths", "Index", "IndexSize", "RunInfo", "GspError", "version", "version_string", "status_name",
           "backend_available", "device_count", "release_cached_memory", "backend_name", "algorithm_name",
           "algorithm_from_name", "algorithms", "algorithm_kind", "HAVE_NUMPY", "F32", "I32",
           "F64"] + list(_ffi.CONSTANTS) + list(_ffi.ALGORITHMS)

HAVE_NUMPY = _np is not None
F32 = _ffi.GSP_F32
I32 = _ffi.GSP_I32
F64 = _ffi.GSP_F64


class GspError(Exception):
    """A libgsp call failed. ``status`` is the gsp_status value, ``name`` its
    enum name ("GSP_ERR_NO_PATH"), ``message`` the library's detail."""

    def __init__(self, status, message):
        self.status = int(status)
        self.name = status_name(self.status)
        self.message = message
        super().__init__("%s: %s" % (self.name, message) if message else self.name)


def _check(status):
    # Called right after the C call, on the same thread: the thread-local
    # message belongs to that call.
    if status != _ffi.GSP_OK:
        msg = _lib.gsp_last_error()
        raise GspError(status, msg.decode("utf-8", "replace") if msg else "")


def status_name(status):
    return _lib.gsp_status_name(int(status)).decode()


def version():
    """(major, minor, patch) of the loaded library."""
    v = _lib.gsp_version()
    return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)


def version_string():
    return "%d.%d.%d" % version()


def backend_available(backend):
    return bool(_lib.gsp_backend_available(_backend(backend)))


def device_count():
    return int(_lib.gsp_device_count())


def device_start(device=-1):
    """Start a CUDA device (-1: every one) in the background, so that the first
    CUDA run of the process does not wait for it (gsp_device_start). Returns
    True when the start was begun, False when libgsp has no CUDA backend."""
    if int(device) < -1:
        raise ValueError(f"device = {device} is neither a CUDA device ordinal (>= 0) nor -1 (every device)")
    return int(_lib.gsp_device_start(int(device))) == 0


def release_cached_memory():
    """Give back memory libgsp keeps between runs (device pools, pinned buffers)."""
    _lib.gsp_release_cached_memory()


def backend_name(backend):
    return _lib.gsp_backend_name(int(backend)).decode()


def algorithm_name(algorithm):
    return _lib.gsp_algorithm_name(int(algorithm)).decode()


def algorithm_from_name(name):
    out = ctypes.c_int(0)
    _check(_lib.gsp_algorithm_from_name(name.encode(), ctypes.byref(out)))
    return out.value


_KINDS = {"auto": _ffi.GSP_KIND_AUTO, "sssp": _ffi.GSP_KIND_SSSP, "apsp": _ffi.GSP_KIND_APSP,
          "index": _ffi.GSP_KIND_INDEX}


def algorithm_kind(algorithm):
    """The kind of an algorithm (value or name): "auto", "sssp" (Graph.sssp),
    "apsp" (apsp, apsp_stream, table) or "index" (answers from an Index)."""
    k = _lib.gsp_algorithm_kind(_algorithm(algorithm))
    for name, v in _KINDS.items():
        if v == k:
            return name
    raise ValueError("no such algorithm: %r" % (algorithm,))


def algorithms(kind=None, backend=None):
    """The names of the library's algorithms, in value order: of one kind
    ("sssp", "apsp", "index", "auto") when given, and with an engine on
    ``backend`` ("cpu", "cuda", "auto") in this build when given."""
    if kind is not None and kind not in _KINDS:
        raise ValueError("kind must be one of %s, got %r" % (", ".join(_KINDS), kind))
    if backend is not None and backend not in _BACKENDS:
        raise ValueError("backend must be one of %s, got %r" % (", ".join(_BACKENDS), backend))
    out = []
    for a in range(len(_ffi.ALGORITHMS)):
        if kind is not None and _lib.gsp_algorithm_kind(a) != _KINDS[kind]:
            continue
        if backend is not None and not _lib.gsp_algorithm_has_engine(a, _BACKENDS[backend]):
            continue
        out.append(algorithm_name(a))
    return out


_BACKENDS = {"auto": _ffi.GSP_BACKEND_AUTO, "cpu": _ffi.GSP_BACKEND_CPU, "cuda": _ffi.GSP_BACKEND_CUDA}
_DTYPES = {"f32": F32, "float32": F32, "i32": I32, "int32": I32, "f64": F64, "float64": F64, "double": F64}
_FORMATS = {"auto": _ffi.GSP_FORMAT_AUTO, "dimacs": _ffi.GSP_FORMAT_DIMACS,
            "mtx": _ffi.GSP_FORMAT_MATRIX_MARKET, "matrix-market": _ffi.GSP_FORMAT_MATRIX_MARKET,
            "edge-list": _ffi.GSP_FORMAT_EDGE_LIST}


def _lookup(table, value, what):
    if isinstance(value, str):
        try:
            return table[value.lower()]
        except KeyError:
            raise ValueError("unknown %s %r (one of %s)" % (what, value, ", ".join(table))) from None
    return int(value)


def _backend(b):
    return _lookup(_BACKENDS, b, "backend")


def _algorithm(a):
    return algorithm_from_name(a) if isinstance(a, str) else int(a)


# ------------------------------------------------------------------ arrays
_NPTYPES = {} if _np is None else {ctypes.c_int32: _np.int32, ctypes.c_int64: _np.int64,
                                   ctypes.c_float: _np.float32, ctypes.c_double: _np.float64}


def _array(values, ctype, what):
    """A C array of ctype holding values (list, tuple, range or NumPy array)
    and the object that keeps its memory alive."""
    if _np is not None and isinstance(values, _np.ndarray):
        npt = _NPTYPES[ctype]
        if values.ndim != 1:
            raise ValueError("%s must be one-dimensional" % what)
        a = _np.ascontiguousarray(values, dtype=npt)
        return a.ctypes.data_as(ctypes.POINTER(ctype)), len(a), a
    try:
        n = len(values)
        arr = (ctype * n)(*values)
    except TypeError as e:
        raise TypeError("%s: %s" % (what, e)) from None
    return ctypes.cast(arr, ctypes.POINTER(ctype)), n, arr


def _infer_dtype(weights, dtype):
    if dtype is not None:
        d = _lookup(_DTYPES, dtype, "dtype")
        if d not in (F32, I32, F64):
            raise ValueError("dtype must be gsp.F32, gsp.I32 or gsp.F64")
        return d
    if weights is None:
        return F32
    if _np is not None and isinstance(weights, _np.ndarray):
        return I32 if weights.dtype.kind in "iu" else F32
    return I32 if all(isinstance(w, int) and not isinstance(w, bool) for w in weights) else F32


def _out(ctype, n):
    """An output buffer of n values: a NumPy array or a ctypes array."""
    if _np is not None:
        npt = _NPTYPES[ctype]
        a = _np.empty(n, dtype=npt)
        return a, a.ctypes.data_as(ctypes.c_void_p)
    a = (ctype * n)()
    return a, ctypes.cast(a, ctypes.c_void_p)


def _result(buf):
    return buf if _np is not None else list(buf)


_DEVICE_WEIGHTS = {"float32": F32, "int32": I32, "float64": F64}
_DEVICE_DTYPE_NAMES = {F32: "float32", I32: "int32", F64: "float64"}


def _need(name):
    if not _ffi.has(name):
        raise GspError(_ffi.GSP_ERR_UNSUPPORTED, "the loaded libgsp (%s) predates %s()" % (version_string(), name))


def _wtype(dtype):
    return {F32: ctypes.c_float, F64: ctypes.c_double}.get(dtype, ctypes.c_int32)


# ------------------------------------------------------------------ options
_LIMIT_END = _ffi.gsp_options.limit.offset + ctypes.sizeof(ctypes.c_double)
_NUM_DEVICES_END = _ffi.gsp_options.num_devices.offset + ctypes.sizeof(ctypes.c_int32)
_INDEX_END = _ffi.gsp_options.index.offset + ctypes.sizeof(ctypes.c_void_p)


class _Options:
    """Builds a gsp_options (filled by gsp_options_init_sized) from keyword
    arguments, and keeps callbacks alive for the call."""

    KEYS = ("backend", "algorithm", "device", "no_paths", "delta", "num_threads",
            "device_memory_limit", "cuda_stream", "progress", "limit", "num_devices", "index")

    def __init__(self, kwargs):
        unknown = set(kwargs) - set(self.KEYS)
        if unknown:
            raise TypeError("unknown option(s): %s" % ", ".join(sorted(unknown)))
        o = _ffi.gsp_options()
        if _ffi.has("gsp_options_init_sized"):  # never writes past this binding's struct
            _lib.gsp_options_init_sized(ctypes.byref(o), ctypes.sizeof(o))
        else:  # libgsp 0.1: fills 0.1's struct, the start of ours
            _lib.gsp_options_init(ctypes.byref(o))
        if kwargs.get("backend") is not None:
            o.backend = _backend(kwargs["backend"])
        if kwargs.get("algorithm") is not None:
            o.algorithm = _algorithm(kwargs["algorithm"])
        o.device = int(kwargs.get("device", 0))
        if kwargs.get("no_paths"):
            o.flags |= _ffi.GSP_NO_PATHS
        o.delta = float(kwargs.get("delta", 0.0))
        o.num_threads = int(kwargs.get("num_threads", 0))
        limit = int(kwargs.get("device_memory_limit", 0))
        if limit < 0:
            raise ValueError("device_memory_limit must be >= 0")
        o.device_memory_limit = limit
        o.cuda_stream = kwargs.get("cuda_stream") or None
        if kwargs.get("limit") is not None:
            if o.size < _LIMIT_END:
                raise GspError(_ffi.GSP_ERR_UNSUPPORTED, "the loaded libgsp (gsp_options of %d bytes) predates "
                               "gsp_options.limit" % o.size)
            o.limit = float(kwargs["limit"])
        num_devices = int(kwargs.get("num_devices", 0))
        if num_devices != 0:  # 0, the default, is what an older libgsp does anyway
            if o.size < _NUM_DEVICES_END:
                raise GspError(_ffi.GSP_ERR_UNSUPPORTED, "the loaded libgsp (gsp_options of %d bytes) predates "
                               "gsp_options.num_devices" % o.size)
            o.num_devices = num_devices
        # The Index, kept alive (with its handle) as long as these options.
        self._index = kwargs.get("index")
        if self._index is not None:
            if not isinstance(self._index, Index):
                raise TypeError("index must be a gsp.Index, not %s" % type(self._index).__name__)
            if o.size < _INDEX_END:
                raise GspError(_ffi.GSP_ERR_UNSUPPORTED, "the loaded libgsp (gsp_options of %d bytes) predates "
                               "gsp_options.index" % o.size)
            o.index = self._index._ptr()  # ValueError when closed
        self.error = None
        self._progress = None
        fn = kwargs.get("progress")
        if fn is not None:
            def trampoline(_user, fraction):
                try:
                    return 1 if fn(fraction) else 0
                except BaseException as e:  # stop the run; re-raised after it
                    self.error = e
                    return 1
            self._progress = _ffi.PROGRESS_FN(trampoline)
            o.progress = self._progress
        self.c = o

    def check(self, status):
        if self.error is not None:
            raise self.error
        _check(status)


# ------------------------------------------------------------------ handles
class _Handle:
    _h = None
    _destroy = None

    def _ptr(self):
        if self._h is None:
            raise ValueError("operation on a closed %s" % type(self).__name__)
        return self._h

    @property
    def closed(self):
        return self._h is None

    def close(self):
        """Free the C object. Idempotent; later use raises ValueError."""
        h, self._h = self._h, None
        if h is not None:
            type(self)._destroy(h)

    def __enter__(self):
        self._ptr()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Graph(_Handle):
    """An immutable weighted directed graph.

    ``Graph(n, sources, targets, weights=None, dtype=None, undirected=False)``
    builds it from arcs; ``Graph.from_csr`` and ``Graph.load`` from CSR arrays
    or a file. ``dtype`` is gsp.F32 / gsp.I32 (or "f32" / "i32"); when None it
    follows the weights (integers give I32, anything else F32); gsp.F64
    ("f64") keeps float64 weights and computes in double, as scipy does."""

    _destroy = staticmethod(_lib.gsp_graph_destroy)

    def __init__(self, num_vertices, sources=(), targets=(), weights=None, dtype=None, undirected=False):
        dt = _infer_dtype(weights, dtype)
        s, ns, keep_s = _array(sources, ctypes.c_int32, "sources")
        t, nt, keep_t = _array(targets, ctypes.c_int32, "targets")
        if ns != nt:
            raise ValueError("sources and targets differ in length (%d != %d)" % (ns, nt))
        w, keep_w = None, None
        if weights is not None:
            w, nw, keep_w = _array(weights, _wtype(dt), "weights")
            if nw != ns:
                raise ValueError("weights has %d values for %d arcs" % (nw, ns))
        h = ctypes.c_void_p()
        _check(_lib.gsp_graph_create(ctypes.byref(h), int(num_vertices), ns, s, t,
                                     ctypes.cast(w, ctypes.c_void_p) if w is not None else None,
                                     dt, _ffi.GSP_GRAPH_UNDIRECTED if undirected else 0))
        self._h = h.value
        del keep_s, keep_t, keep_w

    @classmethod
    def _wrap(cls, h):
        g = cls.__new__(cls)
        g._h = h
        return g

    @classmethod
    def from_csr(cls, num_vertices, offsets, targets, weights=None, dtype=None, undirected=False):
        dt = _infer_dtype(weights, dtype)
        o, no, keep_o = _array(offsets, ctypes.c_int64, "offsets")
        if no != int(num_vertices) + 1:
            raise ValueError("offsets must hold num_vertices + 1 values, not %d" % no)
        t, nt, keep_t = _array(targets, ctypes.c_int32, "targets")
        if nt != offsets[-1]:
            raise ValueError("targets has %d values, offsets[-1] is %d" % (nt, offsets[-1]))
        w, keep_w = None, None
        if weights is not None:
            w, nw, keep_w = _array(weights, _wtype(dt), "weights")
            if nw != nt:
                raise ValueError("weights has %d values for %d arcs" % (nw, nt))
        h = ctypes.c_void_p()
        _check(_lib.gsp_graph_create_csr(ctypes.byref(h), int(num_vertices), o, t,
                                         ctypes.cast(w, ctypes.c_void_p) if w is not None else None,
                                         dt, _ffi.GSP_GRAPH_UNDIRECTED if undirected else 0))
        del keep_o, keep_t, keep_w
        return cls._wrap(h.value)

    @classmethod
    def load(cls, path, format="auto", dtype=F32, undirected=False):
        """Read a DIMACS (.gr), Matrix Market (.mtx) or edge-list file (.gz too)."""
        h = ctypes.c_void_p()
        _check(_lib.gsp_graph_load(ctypes.byref(h), str(path).encode(), _lookup(_FORMATS, format, "format"),
                                   _lookup(_DTYPES, dtype, "dtype"),
                                   _ffi.GSP_GRAPH_UNDIRECTED if undirected else 0))
        return cls._wrap(h.value)

    # The framework ("cupy", "torch") and device of from_device_csr's arrays:
    # sssp_device allocates its outputs with them.
    _array_module = None
    _array_device = None

    @classmethod
    def from_device_csr(cls, offsets, targets, weights=None, dtype=None, undirected=False, device=None, stream=None):
        """A graph from CSR arrays in CUDA device memory, with no host copy on
        the caller's side (gsp_graph_create_csr_device): any objects with
        ``__cuda_array_interface__`` (preferred) or ``__dlpack__`` (CuPy
        arrays, PyTorch CUDA tensors, Numba device arrays), contiguous and
        one-dimensional: ``offsets`` int64 (n + 1 values), ``targets`` int32,
        ``weights`` float32 (gsp.F32), int32 (gsp.I32) or float64 (gsp.F64),
        or None for weight 1 (``dtype`` then, F32 by default). Arrays are not
        converted: another dtype is a TypeError, as is host memory (NumPy
        arrays, CPU tensors: use Graph.from_csr). ``device`` defaults to the
        arrays' (they must share one); ``stream`` (an int cudaStream_t or a
        CuPy/PyTorch stream) is the stream they are read on, by default the
        one their ``__cuda_array_interface__`` names, else CUDA's legacy
        default stream. The library keeps its own copy: the arrays may be
        freed afterwards. Without CUDA: GspError GSP_ERR_NO_DEVICE."""
        _need("gsp_graph_create_csr_device")
        vs, handle = _device.views({"offsets": offsets, "targets": targets, "weights": weights}, stream)
        h = ctypes.c_void_p()
        try:
            o = _device.require(vs["offsets"], ("int64",))
            t = _device.require(vs["targets"], ("int32",))
            if o.size < 2:
                raise ValueError("offsets must hold num_vertices + 1 >= 2 values, got %d" % o.size)
            w = vs.get("weights")
            if w is not None:
                _device.require(w, tuple(_DEVICE_WEIGHTS), t.size)
                dt = _DEVICE_WEIGHTS[w.dtype]
                if dtype is not None and _infer_dtype(None, dtype) != dt:
                    raise TypeError("dtype=%r does not match the weights' %s (device arrays are not converted)" %
                                    (dtype, w.dtype))
            else:
                dt = _infer_dtype(None, dtype)
            last = _device.last_value(offsets)
            if last is not None and last != t.size:
                raise ValueError("targets has %d values, offsets[-1] is %d" % (t.size, last))
            dev = _device.common_device(vs.values(), device)
            dev = 0 if dev is None else dev
            opts = _Options({"device": dev, "cuda_stream": _device.c_stream(handle)})
            st = _lib.gsp_graph_create_csr_device(ctypes.byref(h), o.size - 1, o.ptr, t.ptr or None,
                                                  (w.ptr or None) if w is not None else None, dt,
                                                  _ffi.GSP_GRAPH_UNDIRECTED if undirected else 0,
                                                  ctypes.byref(opts.c))
            _check(st)
        finally:
            for v in vs.values():
                v.release()
        g = cls._wrap(h.value)
        g._array_module = next((m for m in map(_device.module_of, (offsets, targets, weights))
                                if m in _device.ALLOCATORS), None)
        g._array_device = dev
        return g

    def save(self, path, format="auto"):
        _check(_lib.gsp_graph_save(self._ptr(), str(path).encode(), _lookup(_FORMATS, format, "format")))

    @property
    def num_vertices(self):
        return int(_lib.gsp_graph_num_vertices(self._ptr()))

    @property
    def num_edges(self):
        return int(_lib.gsp_graph_num_edges(self._ptr()))

    @property
    def weight_type(self):
        return int(_lib.gsp_graph_weight_type(self._ptr()))

    def csr(self):
        """(offsets, targets, weights) copied out of the graph."""
        h = self._ptr()
        n, m = self.num_vertices, self.num_edges
        off, po = _out(ctypes.c_int64, n + 1)
        tgt, pt = _out(ctypes.c_int32, max(m, 1))
        w, pw = _out(_wtype(self.weight_type), max(m, 1))
        _check(_lib.gsp_graph_csr(h, ctypes.cast(po, ctypes.POINTER(ctypes.c_int64)),
                                  ctypes.cast(pt, ctypes.POINTER(ctypes.c_int32)), pw))
        return _result(off), _result(tgt[:m]), _result(w[:m])

    def sssp(self, source, **options):
        """Single-source shortest paths from ``source``. Options: backend,
        algorithm (value or name), device, no_paths, delta, num_threads,
        device_memory_limit, cuda_stream, progress (callable(fraction) ->
        true to stop), limit (a distance: vertices farther away are reported
        unreachable, as by scipy's dijkstra(limit=); weights must be >= 0),
        num_devices (CUDA devices from ``device`` upward: 0, the default, lets
        AUTO choose; 1 only ``device``; k >= 2 exactly k, not with
        cuda_stream; doc/multi-gpu.md), index (a gsp.Index of this graph:
        with algorithm auto or GSP_CH the run answers from it, on CPU
        threads)."""
        opts = _Options(options)
        out = ctypes.c_void_p()
        st = _lib.gsp_sssp_run(self._ptr(), int(source), ctypes.byref(opts.c), ctypes.byref(out))
        opts.check(st)
        return Paths._wrap(out.value)

    def sssp_device(self, source, out=None, predecessors=None, stream=None, return_info=False, **options):
        """Single-source shortest paths into CUDA device arrays
        (gsp_sssp_run_device): the distances go to ``out`` (n values of the
        graph's weight type: float32, int32 or float64), the predecessors,
        when ``predecessors`` is an array (n int32) or True, to it; arrays as
        for from_device_csr (contiguous, one-dimensional, writable, on one
        device). What is not given is allocated with the framework of the
        graph's arrays (from_device_csr with CuPy: cupy.empty; PyTorch:
        torch.empty on cuda:N) or of ``out``; otherwise pass out=. Returns
        the distances, or (distances, predecessors), with the RunInfo
        appended when ``return_info``. The run is ordered on ``stream``
        (default: the one the arrays' ``__cuda_array_interface__`` names,
        else CUDA's legacy default stream) and the call returns when the
        arrays hold the result. Unreachable: inf (GSP_I32_INF for int32).
        Options as for sssp(), but ``device`` defaults to the arrays' and
        the graph's device, and no ``no_paths``/``cuda_stream``."""
        _need("gsp_sssp_run_device")
        for key, instead in (("no_paths", "predecessors="), ("cuda_stream", "stream=")):
            if key in options:
                raise TypeError("sssp_device() takes %s, not %s" % (instead, key))
        h = self._ptr()
        n = self.num_vertices
        wname = _DEVICE_DTYPE_NAMES[self.weight_type]
        want_pred = predecessors is not None and predecessors is not False
        module = self._array_module
        for given in (out, predecessors):
            if module is None and given is not None and _device.module_of(given) in _device.ALLOCATORS:
                module = _device.module_of(given)
        if out is None or predecessors is True:
            # on device=, else the given array's device, else the graph's, else 0
            dev = options.get("device")
            if dev is None:
                given = [_device.device_of(a) for a in (out, predecessors) if a is not None and a is not True]
                dev = next((d for d in given if d is not None), self._array_device)
            dev = 0 if dev is None else int(dev)
            if out is None:
                out = _device.allocate(module, wname, n, dev)
            if predecessors is True:
                predecessors = _device.allocate(module, "int32", n, dev)
        vs, handle = _device.views({"out": out, "predecessors": predecessors if want_pred else None}, stream)
        info = _ffi.gsp_run_info()
        info.size = ctypes.sizeof(info)
        try:
            d = _device.require(vs["out"], (wname,), n, writable=True)
            p = _device.require(vs["predecessors"], ("int32",), n, writable=True) if want_pred else None
            dev = _device.common_device(vs.values(), options.get("device"))
            if dev is None:
                dev = 0 if self._array_device is None else self._array_device
            opts = _Options(dict(options, device=dev, cuda_stream=_device.c_stream(handle)))
            if not want_pred:
                opts.c.flags |= _ffi.GSP_NO_PATHS
            st = _lib.gsp_sssp_run_device(h, int(source), ctypes.byref(opts.c), d.ptr or None,
                                          (p.ptr or None) if p is not None else None, ctypes.byref(info))
            opts.check(st)
        finally:
            for v in vs.values():
                v.release()
        res = (out, predecessors) if want_pred else out
        if return_info:
            return (res + (RunInfo(info),)) if want_pred else (res, RunInfo(info))
        return res

    def apsp(self, sources=None, **options):
        """Shortest paths from every vertex, or from ``sources`` (one row each,
        in order). Options as for sssp(), ``index`` included."""
        opts = _Options(options)
        s, n, keep = (None, 0, None) if sources is None else _array(sources, ctypes.c_int32, "sources")
        out = ctypes.c_void_p()
        st = _lib.gsp_apsp_run(self._ptr(), s, n, ctypes.byref(opts.c), ctypes.byref(out))
        del keep
        opts.check(st)
        return Paths._wrap(out.value)

    def table(self, sources, targets, paths=False, **options):
        """Shortest distances from every vertex of ``sources`` to every vertex
        of ``targets`` (each list may repeat ids): a K x T array, row i from
        sources[i], column j to targets[j] (inf, or GSP_I32_INF for int
        graphs, where unreachable); a 2-D NumPy array of the graph's weight
        type, or K lists without NumPy. Only those cells are computed, never
        whole rows. With ``paths=True`` it returns ``(distances, paths)``,
        paths[i][j] being the vertices of a shortest path from sources[i] to
        targets[j] (a list), or None where unreachable. Options as for
        apsp(); the algorithm is auto or an all-pairs one, or GSP_CH with
        ``index=`` (one upward search per source and per target)."""
        if "no_paths" in options:
            raise TypeError("table() takes paths=True/False, not no_paths")
        opts = _Options(options)
        h = self._ptr()
        s, k, keep_s = _array(sources, ctypes.c_int32, "sources")
        t, nt, keep_t = _array(targets, ctypes.c_int32, "targets")
        dist, pd = _out(_wtype(_lib.gsp_graph_weight_type(h)), k * nt)
        if not paths:
            opts.c.flags |= _ffi.GSP_NO_PATHS
            st = _lib.gsp_table_run_into(h, s, k, t, nt, ctypes.byref(opts.c), pd, None)
            del keep_s, keep_t
            opts.check(st)
            return _matrix(dist, k, nt)
        out = ctypes.c_void_p()
        st = _lib.gsp_table_run(h, s, k, t, nt, ctypes.byref(opts.c), ctypes.byref(out))
        del keep_s, keep_t
        opts.check(st)
        try:
            _check(_lib.gsp_table_distances(out, pd, k * nt))
            cells = [[_table_path(out, i, j) for j in range(nt)] for i in range(k)]
        finally:
            _lib.gsp_table_destroy(out)
        return _matrix(dist, k, nt), cells

    def nearest(self, sources, paths=True, **options):
        """Nearest-source search: one search from all of ``sources`` at once
        (gsp_nearest_run). Returns ``(distances, nearest, predecessors)``,
        each with one value per vertex: the distance to the closest source
        (inf, or GSP_I32_INF for int graphs, where none reaches), that
        source's id (-1 where none reaches; a source names itself), and the
        vertex before it on its path (-1 at sources and unreached vertices;
        None with ``paths=False``). Options as for sssp(), ``limit`` included
        (scipy's ``dijkstra(min_only=True, limit=...)``); the algorithm is
        auto or a single-source one."""
        if "no_paths" in options:
            raise TypeError("nearest() takes paths=True/False, not no_paths")
        opts = _Options(options)
        h = self._ptr()
        s, k, keep_s = _array(sources, ctypes.c_int32, "sources")
        n = self.num_vertices
        dist, pd = _out(_wtype(_lib.gsp_graph_weight_type(h)), max(n, 1))
        near, pn = _out(ctypes.c_int32, max(n, 1))
        pred, pp = (None, None)
        if paths:
            pred, pp = _out(ctypes.c_int32, max(n, 1))
        else:
            opts.c.flags |= _ffi.GSP_NO_PATHS
        i32p = ctypes.POINTER(ctypes.c_int32)
        st = _lib.gsp_nearest_run(h, s, k, ctypes.byref(opts.c), pd, ctypes.cast(pn, i32p),
                                  ctypes.cast(pp, i32p) if paths else None)
        del keep_s
        opts.check(st)
        return _result(dist[:n]), _result(near[:n]), (_result(pred[:n]) if paths else None)

    def build_index(self, num_threads=0, progress=None):
        """A road index of this graph: ``Index.build(self, ...)``."""
        return Index.build(self, num_threads=num_threads, progress=progress)

    def apsp_stream(self, on_rows, sources=None, any_order=False, **options):
        """APSP delivered in row blocks: ``on_rows(first_index, distances,
        predecessors)`` with one row (list or NumPy array) per source;
        predecessors is None with no_paths. Return true to stop
        (GspError GSP_ERR_CANCELLED). Blocks come in source order; with
        ``any_order=True`` (GSP_ROWS_ANY_ORDER) in any order, each at its
        ``first_index`` (every row once, one call at a time, on the calling
        thread), so that a run on several devices (``num_devices``) streams
        from all of them at once."""
        opts = _Options(options)
        if any_order:
            opts.c.flags |= _ffi.GSP_ROWS_ANY_ORDER
        h = self._ptr()
        n = self.num_vertices
        wt = _wtype(self.weight_type)
        s, ns, keep = (None, 0, None) if sources is None else _array(sources, ctypes.c_int32, "sources")

        def rows(_user, first, num_rows, dist, pred):
            try:
                dp = ctypes.cast(dist, ctypes.POINTER(wt))
                d = [_result(_copy(dp, r * n, n, wt)) for r in range(num_rows)]
                p = None
                if pred:
                    p = [_result(_copy(pred, r * n, n, ctypes.c_int32)) for r in range(num_rows)]
                return 1 if on_rows(first, d, p) else 0
            except BaseException as e:
                opts.error = e
                return 1
        fn = _ffi.ROWS_FN(rows)
        st = _lib.gsp_apsp_stream(h, s, ns, ctypes.byref(opts.c), fn, None)
        del keep
        opts.check(st)


def _matrix(buf, rows, cols):
    """A row-major buffer of rows x cols values as a 2-D array (or a list of lists)."""
    if _np is not None:
        return buf.reshape(rows, cols)
    return [list(buf[i * cols:(i + 1) * cols]) for i in range(rows)]


def _table_path(h, i, j):
    """The path of a table's cell (i, j) as a list, or None when unreachable."""
    length = ctypes.c_int32(0)
    st = _lib.gsp_table_path(h, i, j, None, 0, ctypes.byref(length))
    if st == _ffi.GSP_ERR_NO_PATH:
        return None
    if st != _ffi.GSP_ERR_BUFFER_TOO_SMALL:
        _check(st)
    buf = (ctypes.c_int32 * length.value)()
    _check(_lib.gsp_table_path(h, i, j, buf, length.value, ctypes.byref(length)))
    return list(buf[:length.value])


def _copy(ptr, start, n, ctype):
    buf, p = _out(ctype, n)
    ctypes.memmove(p, ctypes.addressof(ptr.contents) + start * ctypes.sizeof(ctype), n * ctypes.sizeof(ctype))
    return buf


IndexSize = collections.namedtuple("IndexSize", "num_vertices num_arcs num_shortcuts")
IndexSize.__doc__ = """Sizes of a road index: n of its graph, the arcs of its hierarchy (the
graph's, merged, and the shortcuts) and the shortcut arcs the contraction added."""


class Index(_Handle):
    """A road index (contraction hierarchy) of a graph (gsp_index.h).

    ``Index.build(graph)`` (or ``graph.build_index()``) contracts the graph
    once (weights >= 0, any weight type); pass it to runs of that graph as
    ``index=`` (sssp, apsp, apsp_stream, table; algorithm "auto" or
    GSP_CH): they answer from it with the same distances (int32 bit for
    bit; float sums may round differently), paths included, on CPU threads.
    It pays on road-like graphs (doc/road-index.md). ``save(path)`` and
    ``Index.load(graph, path)`` keep it in a file (a corrupt or cut file is
    GspError GSP_ERR_PARSE, an index of another graph GSP_ERR_INVALID_ARGUMENT).
    The index keeps no reference to its graph, and answers only for it (or
    an equal graph). Free it with close() or a ``with`` block, like a Graph."""

    _destroy = staticmethod(getattr(_lib, "gsp_index_destroy", None) or (lambda h: None))
    build_info = None  # the RunInfo of Index.build (seconds, threads); None for a loaded index

    def __init__(self):
        raise TypeError("an Index comes from Index.build(graph), Graph.build_index() or Index.load(graph, path)")

    @classmethod
    def _wrap(cls, h, info=None):
        ix = cls.__new__(cls)
        ix._h = h
        ix.build_info = info
        return ix

    @classmethod
    def build(cls, graph, num_threads=0, progress=None):
        """Build the index of ``graph`` (gsp_index_build) on ``num_threads``
        CPU threads (0: every core). ``progress`` (callable(fraction) -> true
        to stop: GspError GSP_ERR_CANCELLED) gets the fraction of vertices
        contracted. Negative weights: GspError GSP_ERR_NEGATIVE_WEIGHT."""
        _need("gsp_index_build")
        if not isinstance(graph, Graph):
            raise TypeError("graph must be a gsp.Graph, not %s" % type(graph).__name__)
        opts = _Options({"num_threads": num_threads, "progress": progress})
        info = _ffi.gsp_run_info()
        info.size = ctypes.sizeof(info)
        out = ctypes.c_void_p()
        st = _lib.gsp_index_build(graph._ptr(), ctypes.byref(opts.c), ctypes.byref(out), ctypes.byref(info))
        ix = cls._wrap(out.value) if out.value else None
        try:
            opts.check(st)
        except BaseException:
            if ix is not None:
                ix.close()
            raise
        ix.build_info = RunInfo(info)
        return ix

    @classmethod
    def load(cls, graph, path):
        """Read an index that save() wrote for ``graph`` (gsp_index_load)."""
        _need("gsp_index_load")
        if not isinstance(graph, Graph):
            raise TypeError("graph must be a gsp.Graph, not %s" % type(graph).__name__)
        out = ctypes.c_void_p()
        _check(_lib.gsp_index_load(graph._ptr(), str(path).encode(), ctypes.byref(out)))
        return cls._wrap(out.value)

    def save(self, path):
        """Write the index to a file (a versioned binary format with a checksum)."""
        _check(_lib.gsp_index_save(self._ptr(), str(path).encode()))

    def size(self):
        """IndexSize(num_vertices, num_arcs, num_shortcuts)."""
        n, arcs, shortcuts = ctypes.c_int32(0), ctypes.c_int64(0), ctypes.c_int64(0)
        _check(_lib.gsp_index_size(self._ptr(), ctypes.byref(n), ctypes.byref(arcs), ctypes.byref(shortcuts)))
        return IndexSize(n.value, arcs.value, shortcuts.value)

    @property
    def num_vertices(self):
        return self.size().num_vertices

    @property
    def num_arcs(self):
        return self.size().num_arcs

    @property
    def num_shortcuts(self):
        return self.size().num_shortcuts

    def __repr__(self):
        if self.closed:
            return "<gsp.Index closed>"
        return "<gsp.Index %s>" % ", ".join("%s=%d" % kv for kv in self.size()._asdict().items())


class RunInfo:
    """What a run did (gsp_run_info)."""

    def __init__(self, c):
        self.backend = c.backend
        self.algorithm = c.algorithm
        self.backend_name = backend_name(c.backend)
        self.algorithm_name = algorithm_name(c.algorithm)
        self.weight_type = c.weight_type
        self.num_vertices = c.num_vertices
        self.num_sources = c.num_sources
        self.device = c.device
        self.device_name = c.device_name.decode("utf-8", "replace")
        self.seconds = c.seconds
        self.upload_seconds = c.upload_seconds
        self.iterations = c.iterations
        self.relaxations = c.relaxations
        self.has_paths = bool(c.has_paths)
        # stages (doc/run-info.md): disjoint parts of seconds; 0 where the engine does not measure one
        self.setup_seconds = c.setup_seconds
        self.compute_seconds = c.compute_seconds
        self.copy_seconds = c.copy_seconds
        self.paths_seconds = c.paths_seconds
        self.num_devices = c.num_devices  # CUDA devices the run used (0 on the CPU)

    def __repr__(self):
        return "RunInfo(%s)" % ", ".join("%s=%r" % kv for kv in vars(self).items())


class Paths(_Handle):
    """Distances and predecessors from one or many sources. Ids are vertex
    ids (a source must be one of ``sources``)."""

    _destroy = staticmethod(_lib.gsp_paths_destroy)

    def __init__(self):
        raise TypeError("Paths come from Graph.sssp() or Graph.apsp()")

    @classmethod
    def _wrap(cls, h):
        p = cls.__new__(cls)
        p._h = h
        i = p.info()
        p._n, p._dtype = i.num_vertices, i.weight_type
        return p

    def info(self):
        c = _ffi.gsp_run_info()
        c.size = ctypes.sizeof(c)
        _check(_lib.gsp_paths_info(self._ptr(), ctypes.byref(c)))
        return RunInfo(c)

    @property
    def num_sources(self):
        return int(_lib.gsp_paths_num_sources(self._ptr()))

    @property
    def sources(self):
        h = self._ptr()
        return [int(_lib.gsp_paths_source(h, i)) for i in range(_lib.gsp_paths_num_sources(h))]

    def distances(self, source):
        """Distances from ``source`` to every vertex (inf, or GSP_I32_INF for
        int graphs, where unreachable)."""
        h = self._ptr()
        buf, p = _out(_wtype(self._dtype), self._n)
        _check(_lib.gsp_paths_distances(h, int(source), p, self._n))
        return _result(buf)

    def distance(self, source, target):
        h = self._ptr()
        v = _wtype(self._dtype)()
        _check(_lib.gsp_paths_distance(h, int(source), int(target), ctypes.byref(v)))
        return v.value

    def predecessors(self, source):
        """Predecessor of every vertex on its shortest path from ``source`` (-1: none)."""
        h = self._ptr()
        buf, p = _out(ctypes.c_int32, self._n)
        _check(_lib.gsp_paths_predecessors(h, int(source), ctypes.cast(p, ctypes.POINTER(ctypes.c_int32)), self._n))
        return _result(buf)

    def path(self, source, target):
        """The vertices of a shortest path, source and target included, as a
        list. GspError GSP_ERR_NO_PATH when target is unreachable."""
        h = self._ptr()
        length = ctypes.c_int32(0)
        _check(_lib.gsp_path_get(h, int(source), int(target), None, 0, ctypes.byref(length)))
        buf = (ctypes.c_int32 * length.value)()
        _check(_lib.gsp_path_get(h, int(source), int(target), buf, length.value, ctypes.byref(length)))
        return list(buf[:length.value])

    @staticmethod
    def unreachable(d):
        return d == _ffi.GSP_I32_INF or (isinstance(d, float) and math.isinf(d))
