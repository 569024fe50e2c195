"""GPU arrays in and out: Graph.from_device_csr and Graph.sssp_device over
the CUDA Array Interface and DLPack (gsp/_device.py).

Two parts:
- TestProtocolParsing runs everywhere (CPU-only CI included): fake producers
  built with ctypes exercise the DLPack capsule handling (versioned and
  legacy, renaming, deleter, strides, byte_offset) and the CUDA Array
  Interface parsing, and host memory must be refused with a TypeError.
- TestDeviceArrays needs a CUDA device, libgsp built with CUDA and CuPy or a
  CUDA PyTorch: it is skipped, saying why, otherwise. It compares with the
  host API (Graph(...).sssp) for F32, I32 and F64 weights, with and without
  predecessors, through either protocol, with out= given and allocated.
"""
import ctypes
import unittest

import gsp
from gsp import _device

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

# ------------------------------------------------------------------ GPU frameworks
FRAMEWORKS = {}
_WHY = []
try:
    import cupy
    if cupy.cuda.runtime.getDeviceCount() > 0:
        FRAMEWORKS["cupy"] = cupy
    else:
        _WHY.append("cupy: no CUDA device")
except Exception as e:  # ImportError, or a CUDA error without a driver/device
    _WHY.append("cupy: %s" % (str(e).splitlines()[0] if str(e) else type(e).__name__))
try:
    import torch
    if torch.cuda.is_available():
        FRAMEWORKS["torch"] = torch
    else:
        _WHY.append("torch: no CUDA")
except Exception as e:
    _WHY.append("torch: %s" % (str(e).splitlines()[0] if str(e) else type(e).__name__))
if not gsp.backend_available("cuda"):
    _WHY.append("libgsp: no CUDA backend (built without CUDA, or no usable device)")
if np is None:
    _WHY.append("numpy: not importable")
GPU_SKIP = None if (FRAMEWORKS and gsp.backend_available("cuda") and np is not None) else \
    "no CUDA arrays to test with (%s)" % "; ".join(_WHY)
if GPU_SKIP:
    print("test_device_arrays: GPU tests skipped: " + GPU_SKIP)

# ------------------------------------------------------------------ a fake DLPack producer (ctypes)
_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, _DESTRUCTOR)(
    ("PyCapsule_New", ctypes.pythonapi))
_capsule_get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(("PyCapsule_GetName", ctypes.pythonapi))
_capsule_name_of = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))
_NAMES = {b"dltensor": ctypes.create_string_buffer(b"dltensor"),
          b"dltensor_versioned": ctypes.create_string_buffer(b"dltensor_versioned")}


class FakeProducer:
    """A DLPack producer over a ctypes array in host memory (device type
    kDLCPU unless told otherwise: a lie only the parsing tests tell)."""

    def __init__(self, values, ctype, code, bits, device_type=_device.kDLCPU, device_id=0, versioned=True,
                 strides=None, byte_offset=0, readonly=False, shape=None, old_signature=False, version=(1, 0)):
        self.buf = (ctype * len(values))(*values)
        self.dims = list(shape) if shape is not None else [len(values) - byte_offset // ctypes.sizeof(ctype)]
        self.shape = (ctypes.c_int64 * len(self.dims))(*self.dims)
        self.strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        self.versioned = versioned
        self.old_signature = old_signature
        self.deleted = 0
        self.streams = []
        self.capsules = []
        self.device = (device_type, device_id)
        if versioned:
            m = self.managed = _device.DLManagedTensorVersioned()
            m.version.major, m.version.minor = version
            m.flags = _device.DLPACK_FLAG_BITMASK_READ_ONLY if readonly else 0
        else:
            m = self.managed = _device.DLManagedTensor()
        t = m.dl_tensor
        t.data = ctypes.addressof(self.buf)
        t.device.device_type, t.device.device_id = device_type, device_id
        t.ndim = len(self.dims)
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = byte_offset

        def deleter(addr):
            assert addr == ctypes.addressof(self.managed)
            self.deleted += 1
        self._deleter = _DESTRUCTOR(deleter)
        m.deleter = ctypes.cast(self._deleter, ctypes.c_void_p)

        def destructor(capsule):  # the protocol's: delete unless a consumer took the tensor
            if _capsule_get_name(capsule) in (b"dltensor", b"dltensor_versioned"):
                self.deleted += 1
        self._destructor = _DESTRUCTOR(destructor)

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None, max_version=None):
        if self.old_signature and max_version is not None:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        self.streams.append(stream)
        name = b"dltensor_versioned" if self.versioned else b"dltensor"
        c = _capsule_new(ctypes.addressof(self.managed), ctypes.addressof(_NAMES[name]), self._destructor)
        self.capsules.append(c)
        return c

    def values(self):
        return list(self.buf)


class FakeCAI:
    """An object with only __cuda_array_interface__ (its pointer is host memory: parsing only)."""

    def __init__(self, n, typestr, ptr=0x10000, strides=None, readonly=False, stream=None, device=None,
                 version=3, shape=None):
        self.__cuda_array_interface__ = {"shape": (n,) if shape is None else shape, "typestr": typestr,
                                         "data": (ptr, readonly), "version": version, "strides": strides}
        if stream is not None:
            self.__cuda_array_interface__["stream"] = stream
        self.device = device

    def __getattr__(self, name):
        if name == "__dlpack_device__" and self.device is not None:
            return lambda: (_device.kDLCUDA, self.device)
        raise AttributeError(name)


def i64(values, **kw):
    return FakeProducer(values, ctypes.c_int64, _device.kDLInt, 64, **kw)


def i32(values, **kw):
    return FakeProducer(values, ctypes.c_int32, _device.kDLInt, 32, **kw)


def f32(values, **kw):
    return FakeProducer(values, ctypes.c_float, _device.kDLFloat, 32, **kw)


class TestProtocolParsing(unittest.TestCase):
    def test_struct_layout(self):
        # dlpack.h on LP64: DLTensor 48 bytes; DLManagedTensor 64; DLManagedTensorVersioned 80, dl_tensor at 32
        self.assertEqual(ctypes.sizeof(_device.DLDevice), 8)
        self.assertEqual(ctypes.sizeof(_device.DLDataType), 4)
        if ctypes.sizeof(ctypes.c_void_p) == 8:
            self.assertEqual(ctypes.sizeof(_device.DLTensor), 48)
            self.assertEqual(_device.DLTensor.shape.offset, 24)
            self.assertEqual(_device.DLTensor.byte_offset.offset, 40)
            self.assertEqual(ctypes.sizeof(_device.DLManagedTensor), 64)
            self.assertEqual(_device.DLManagedTensor.deleter.offset, 56)
            self.assertEqual(ctypes.sizeof(_device.DLManagedTensorVersioned), 80)
            self.assertEqual(_device.DLManagedTensorVersioned.flags.offset, 24)
            self.assertEqual(_device.DLManagedTensorVersioned.dl_tensor.offset, 32)

    def check_consumed(self, fake, released=True):
        self.assertEqual(len(fake.capsules), 1)
        used = b"used_dltensor_versioned" if fake.versioned else b"used_dltensor"
        self.assertEqual(_capsule_name_of(fake.capsules[0]), used)
        self.assertEqual(fake.deleted, 1 if released else 0)
        fake.capsules.clear()  # the capsule's destructor must not delete again
        self.assertEqual(fake.deleted, 1 if released else 0)

    def test_dlpack_parse_versioned_and_legacy(self):
        for versioned in (True, False):
            with self.subTest(versioned=versioned):
                fake = f32([1.0, 2.0, 3.0, 4.0], versioned=versioned, byte_offset=4, device_id=3)
                v = _device.from_dlpack(fake, "weights")
                self.assertEqual(v.protocol, "dlpack")
                self.assertEqual(v.capsule_name, "dltensor_versioned" if versioned else "dltensor")
                self.assertEqual(v.version, (1, 0) if versioned else None)
                self.assertEqual(v.ptr, ctypes.addressof(fake.buf) + 4)
                self.assertEqual((v.size, v.dtype, v.device_type, v.device), (3, "float32", _device.kDLCPU, 3))
                self.assertFalse(v.readonly)
                self.assertEqual(fake.streams, [None])  # no stream for host producers
                self.assertEqual(fake.deleted, 0)  # held until released
                v.release()
                v.release()
                self.check_consumed(fake)

    def test_dlpack_capsule_not_consumed_is_deleted_by_its_destructor(self):
        fake = i32([1, 2])
        fake.__dlpack__()
        fake.capsules.clear()
        self.assertEqual(fake.deleted, 1)

    def test_dlpack_cuda_stream_argument(self):
        fake = i32([1, 2], device_type=_device.kDLCUDA)
        _device.from_dlpack(fake, "x").release()
        _device.from_dlpack(fake, "x", stream=0).release()
        _device.from_dlpack(fake, "x", stream=0x1234).release()
        self.assertEqual(fake.streams, [1, 1, 0x1234])  # 1: the legacy default stream
        self.assertEqual(fake.deleted, 3)

    def test_dlpack_old_producer_without_max_version(self):
        fake = i32([5, 6, 7], versioned=False, old_signature=True)
        with _device.from_dlpack(fake, "targets") as v:
            self.assertEqual((v.size, v.dtype), (3, "int32"))
        self.check_consumed(fake)

    def test_dlpack_readonly_flag(self):
        fake = f32([1.0], readonly=True)
        v = _device.from_dlpack(fake, "out")
        self.assertTrue(v.readonly)
        with self.assertRaisesRegex(ValueError, "read-only"):
            _device.require(v, ("float32",), 1, writable=True)
        self.check_consumed(fake)

    def test_dlpack_dtypes(self):
        for fake, name in ((i64([0, 1]), "int64"), (i32([0, 1]), "int32"), (f32([0, 1]), "float32"),
                           (FakeProducer([0, 1], ctypes.c_double, 2, 64), "float64"),
                           (FakeProducer([0, 1], ctypes.c_uint32, 1, 32), "uint32"),
                           (FakeProducer([0, 1], ctypes.c_uint16, 2, 16), "float16")):
            with _device.from_dlpack(fake, "x") as v:
                self.assertEqual(v.dtype, name)

    def test_dlpack_strides_and_shape(self):
        fake = i32([1, 2, 3, 4], strides=[1])  # explicit unit stride: contiguous
        _device.from_dlpack(fake, "x").release()
        self.check_consumed(fake)
        fake = i32([1, 2, 3, 4], strides=[2], shape=[2])
        with self.assertRaisesRegex(ValueError, "contiguous"):
            _device.from_dlpack(fake, "x")
        self.check_consumed(fake)
        fake = i32([1, 2, 3, 4], shape=[2, 2])
        with self.assertRaisesRegex(ValueError, "one-dimensional"):
            _device.from_dlpack(fake, "x")
        self.check_consumed(fake)

    def test_dlpack_unknown_major_version(self):
        fake = i32([1], version=(2, 0))
        with self.assertRaisesRegex(TypeError, "DLPack 2.0"):
            _device.from_dlpack(fake, "x")
        self.check_consumed(fake)

    def test_host_dlpack_rejected(self):
        """Host memory (kDLCPU) is refused with a TypeError, and every tensor taken is handed back."""
        for versioned in (True, False):
            with self.subTest(versioned=versioned):
                fakes = [i64([0, 1, 2], versioned=versioned), i32([1, 0], versioned=versioned),
                         f32([1.0, 2.0], versioned=versioned)]
                with self.assertRaisesRegex(TypeError, r"offsets is not CUDA device memory.*kDLCPU"):
                    gsp.Graph.from_device_csr(*fakes)
                for fake in fakes:
                    self.check_consumed(fake)
        fake = f32([1.0, 2.0])
        g = gsp.Graph(2, [0], [1], [1.0])
        with self.assertRaisesRegex(TypeError, r"out is not CUDA device memory"):
            g.sssp_device(0, out=fake)
        self.check_consumed(fake)

    @unittest.skipIf(np is None, "numpy not importable")
    def test_numpy_rejected(self):
        offsets, targets = np.array([0, 1, 1], dtype=np.int64), np.array([1], dtype=np.int32)
        if hasattr(offsets, "__dlpack__"):
            with self.assertRaisesRegex(TypeError, "not CUDA device memory"):
                gsp.Graph.from_device_csr(offsets, targets)
        else:  # NumPy < 1.22: no protocol at all
            with self.assertRaisesRegex(TypeError, "must be a CUDA device array"):
                gsp.Graph.from_device_csr(offsets, targets)
        with self.assertRaisesRegex(TypeError, "must be a CUDA device array"):
            gsp.Graph.from_device_csr([0, 1, 1], [1])

    def test_cai_parse(self):
        a = FakeCAI(5, "<f4", ptr=0x7000, stream=0x55, device=1)
        v = _device.view(a, "weights")
        self.assertEqual((v.protocol, v.ptr, v.size, v.dtype, v.device, v.stream, v.readonly),
                         ("cuda_array_interface", 0x7000, 5, "float32", 1, 0x55, False))
        self.assertEqual(_device.from_cai(FakeCAI(2, "<i8", strides=(8,)), "x").dtype, "int64")
        self.assertIsNone(_device.from_cai(FakeCAI(2, "<i4"), "x").device)
        self.assertTrue(_device.from_cai(FakeCAI(2, "<f8", readonly=True), "x").readonly)
        with self.assertRaisesRegex(ValueError, "contiguous"):
            _device.from_cai(FakeCAI(2, "<i4", strides=(8,)), "x")
        with self.assertRaisesRegex(ValueError, "one-dimensional"):
            _device.from_cai(FakeCAI(2, "<i4", shape=(2, 1)), "x")

    def test_cai_preferred_over_dlpack(self):
        class Both(FakeProducer):
            __cuda_array_interface__ = {"shape": (2,), "typestr": "<i4", "data": (0x1000, False), "version": 2}
        fake = Both([1, 2], ctypes.c_int32, 0, 32)
        self.assertEqual(_device.view(fake, "x").protocol, "cuda_array_interface")
        self.assertEqual(fake.capsules, [])

    def test_streams(self):
        self.assertIsNone(_device.stream_handle(None))
        self.assertEqual(_device.stream_handle(7), 7)

        class CupyStream:
            ptr = 11

        class TorchStream:
            cuda_stream = 12
        self.assertEqual(_device.stream_handle(CupyStream()), 11)
        self.assertEqual(_device.stream_handle(TorchStream()), 12)
        with self.assertRaises(TypeError):
            _device.stream_handle("default")
        for h, c in ((None, None), (0, None), (1, None), (2, 2), (0x99, 0x99)):
            self.assertEqual(_device.c_stream(h), c)
        vs, handle = _device.views({"a": FakeCAI(2, "<i4", stream=0x40), "b": FakeCAI(2, "<i4")})
        self.assertEqual(handle, 0x40)
        vs, handle = _device.views({"a": FakeCAI(2, "<i4", stream=0x40)}, stream=0x41)
        self.assertEqual(handle, 0x41)  # the caller's stream wins
        with self.assertRaisesRegex(ValueError, "streams differ"):
            _device.views({"a": FakeCAI(2, "<i4", stream=0x40), "b": FakeCAI(2, "<i4", stream=0x42)})
        # DLPack producers are asked for the CAI stream the others name
        fake = i32([1, 0], device_type=_device.kDLCUDA)
        vs, handle = _device.views({"a": FakeCAI(2, "<i4", stream=0x40), "b": fake})
        self.assertEqual(fake.streams, [0x40])
        vs["b"].release()

    def test_from_device_csr_checks(self):
        n = 3
        ok = dict(offsets=FakeCAI(n + 1, "<i8"), targets=FakeCAI(4, "<i4"), weights=FakeCAI(4, "<f4"))
        with self.assertRaisesRegex(TypeError, "offsets must be int64, got int32"):
            gsp.Graph.from_device_csr(FakeCAI(n + 1, "<i4"), ok["targets"])
        with self.assertRaisesRegex(TypeError, "targets must be int32, got int64"):
            gsp.Graph.from_device_csr(ok["offsets"], FakeCAI(4, "<i8"))
        with self.assertRaisesRegex(TypeError, "weights must be float32 or int32 or float64, got int64"):
            gsp.Graph.from_device_csr(ok["offsets"], ok["targets"], FakeCAI(4, "<i8"))
        with self.assertRaisesRegex(ValueError, "weights must hold 4 values, got 3"):
            gsp.Graph.from_device_csr(ok["offsets"], ok["targets"], FakeCAI(3, "<f4"))
        with self.assertRaisesRegex(TypeError, "does not match"):
            gsp.Graph.from_device_csr(dtype=gsp.F64, **ok)
        with self.assertRaisesRegex(ValueError, "different devices"):
            gsp.Graph.from_device_csr(FakeCAI(n + 1, "<i8", device=0), FakeCAI(4, "<i4", device=1))
        with self.assertRaisesRegex(ValueError, "different devices"):
            gsp.Graph.from_device_csr(FakeCAI(n + 1, "<i8", device=0), FakeCAI(4, "<i4"), device=1)
        with self.assertRaisesRegex(ValueError, ">= 2 values"):
            gsp.Graph.from_device_csr(FakeCAI(1, "<i8"), FakeCAI(0, "<i4"))
        # Well-formed: libgsp itself answers (these pointers are not device memory).
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Graph.from_device_csr(**ok)
        self.assertIn(cm.exception.status, (gsp.GSP_ERR_NO_DEVICE, gsp.GSP_ERR_INVALID_ARGUMENT))

    def test_sssp_device_checks(self):
        g = gsp.Graph(3, [0, 1], [1, 2], [1.0, 2.0])
        with self.assertRaisesRegex(ValueError, "pass out="):
            g.sssp_device(0)
        with self.assertRaisesRegex(TypeError, "out must be float32, got float64"):
            g.sssp_device(0, out=FakeCAI(3, "<f8"))
        with self.assertRaisesRegex(ValueError, "out must hold 3 values, got 4"):
            g.sssp_device(0, out=FakeCAI(4, "<f4"))
        with self.assertRaisesRegex(ValueError, "out is read-only"):
            g.sssp_device(0, out=FakeCAI(3, "<f4", readonly=True))
        with self.assertRaisesRegex(TypeError, "predecessors must be int32, got int64"):
            g.sssp_device(0, out=FakeCAI(3, "<f4"), predecessors=FakeCAI(3, "<i8"))
        with self.assertRaisesRegex(ValueError, "pass out="):
            g.sssp_device(0, out=FakeCAI(3, "<f4"), predecessors=True)
        with self.assertRaisesRegex(TypeError, "stream="):
            g.sssp_device(0, out=FakeCAI(3, "<f4"), cuda_stream=5)
        with self.assertRaisesRegex(TypeError, "predecessors="):
            g.sssp_device(0, out=FakeCAI(3, "<f4"), no_paths=True)
        with self.assertRaises(gsp.GspError) as cm:
            g.sssp_device(0, out=FakeCAI(3, "<f4"), predecessors=FakeCAI(3, "<i4"))
        self.assertIn(cm.exception.status, (gsp.GSP_ERR_NO_DEVICE, gsp.GSP_ERR_INVALID_ARGUMENT))


# ------------------------------------------------------------------ on a GPU
class CAIOnly:
    """Shows only the CUDA Array Interface of an array."""

    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return self.a.__cuda_array_interface__


class DLPackOnly:
    """Shows only DLPack of an array."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def random_graph(n=2000, m=16000, seed=7):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.integers(1, 100, m)  # integer-valued: exact sums in every weight type
    order = np.argsort(src, kind="stable")
    src, dst, w = src[order], dst[order], w[order]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=offsets[1:])
    return n, src, dst, w, offsets


NPTYPE = {gsp.F32: "float32", gsp.I32: "int32", gsp.F64: "float64"}


@unittest.skipIf(GPU_SKIP, GPU_SKIP or "")
class TestDeviceArrays(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.n, cls.src, cls.dst, cls.w, cls.offsets = random_graph()
        cls.source = 0
        cls.host = {}
        for dt in (gsp.F32, gsp.I32, gsp.F64):
            with gsp.Graph(cls.n, cls.src, cls.dst, cls.w.astype(NPTYPE[dt]), dtype=dt) as g:
                with g.sssp(cls.source) as p:
                    cls.host[dt] = p.distances(cls.source)

    def to_device(self, fw, a):
        if fw == "cupy":
            return FRAMEWORKS["cupy"].asarray(a)
        return FRAMEWORKS["torch"].from_numpy(np.ascontiguousarray(a)).to("cuda:0")

    def to_host(self, fw, a):
        a = getattr(a, "a", a)  # unwrap CAIOnly / DLPackOnly
        return FRAMEWORKS["cupy"].asnumpy(a) if fw == "cupy" else a.cpu().numpy()

    def check_preds(self, dt, dist, pred):
        tight = dist[self.src] + self.w.astype(NPTYPE[dt]) == dist[self.dst]
        if dt == gsp.I32:
            tight &= dist[self.src] != gsp.GSP_I32_INF
        arcs = set((self.src[tight].astype(np.int64) * self.n + self.dst[tight]).tolist())
        reach = [v for v in range(self.n) if v != self.source and not gsp.Paths.unreachable(dist[v].item())]
        self.assertGreater(len(reach), self.n // 2)
        for v in reach:
            self.assertIn(int(pred[v]) * self.n + v, arcs, "vertex %d: predecessor %d is not tight" % (v, pred[v]))
        self.assertEqual(int(pred[self.source]), -1)

    def run_case(self, fw, dt, wrap, with_pred, allocate):
        n = self.n
        arrays = [self.to_device(fw, a) for a in (self.offsets, self.dst, self.w.astype(NPTYPE[dt]))]
        g = gsp.Graph.from_device_csr(*[wrap(a) for a in arrays])
        with g:
            self.assertEqual((g.num_vertices, g.num_edges, g.weight_type), (n, len(self.dst), dt))
            if allocate:
                res = g.sssp_device(self.source, predecessors=True if with_pred else None)
            else:
                out = wrap(self.to_device(fw, np.full(n, 7, dtype=NPTYPE[dt])))
                pred = wrap(self.to_device(fw, np.full(n, 7, dtype=np.int32))) if with_pred else None
                res = g.sssp_device(self.source, out=out, predecessors=pred)
                self.assertIs(res[0] if with_pred else res, out)
            dist, pred = (res if with_pred else (res, None))
            dist = self.to_host(fw, dist)
            self.assertEqual(str(dist.dtype), NPTYPE[dt])
            np.testing.assert_array_equal(dist, self.host[dt])
            if with_pred:
                self.check_preds(dt, dist, self.to_host(fw, pred))

    def test_against_host(self):
        for fw in FRAMEWORKS:
            for dt in (gsp.F32, gsp.I32, gsp.F64):
                for wrap_name, wrap in (("native", lambda a: a), ("cai", CAIOnly), ("dlpack", DLPackOnly)):
                    for with_pred in (False, True):
                        for allocate in ((False, True) if wrap_name == "native" else (False,)):
                            with self.subTest(fw=fw, dtype=dt, protocol=wrap_name, predecessors=with_pred,
                                              allocate=allocate):
                                self.run_case(fw, dt, wrap, with_pred, allocate)

    def test_info_and_options(self):
        fw = next(iter(FRAMEWORKS))
        arrays = [self.to_device(fw, a) for a in (self.offsets, self.dst, self.w.astype(np.float32))]
        with gsp.Graph.from_device_csr(*arrays) as g:
            dist, info = g.sssp_device(self.source, return_info=True, backend="cuda")
            self.assertEqual(info.backend, gsp.GSP_BACKEND_CUDA)
            self.assertGreater(info.seconds, 0.0)
            np.testing.assert_array_equal(self.to_host(fw, dist), self.host[gsp.F32])
            dist, pred, info = g.sssp_device(self.source, predecessors=True, return_info=True, backend="cpu")
            self.assertTrue(info.has_paths)
            np.testing.assert_array_equal(self.to_host(fw, dist), self.host[gsp.F32])
        # a host graph writes into device arrays too
        with gsp.Graph(self.n, self.src, self.dst, self.w.astype(np.float32)) as g:
            out = self.to_device(fw, np.zeros(self.n, dtype=np.float32))
            g.sssp_device(self.source, out=out)
            np.testing.assert_array_equal(self.to_host(fw, out), self.host[gsp.F32])

    def test_errors_on_device(self):
        fw = next(iter(FRAMEWORKS))
        off, tgt = self.to_device(fw, self.offsets), self.to_device(fw, self.dst)
        with self.assertRaisesRegex(TypeError, "offsets must be int64"):
            gsp.Graph.from_device_csr(self.to_device(fw, self.offsets.astype(np.int32)), tgt)
        with self.assertRaisesRegex(TypeError, "targets must be int32"):
            gsp.Graph.from_device_csr(off, self.to_device(fw, self.dst.astype(np.int64)))
        with self.assertRaisesRegex(ValueError, "targets has"):
            gsp.Graph.from_device_csr(off, tgt[:-1])
        with self.assertRaisesRegex(TypeError, "CUDA device"):  # NumPy's DLPack says kDLCPU
            gsp.Graph.from_device_csr(self.offsets, tgt)
        with gsp.Graph.from_device_csr(off, tgt, self.to_device(fw, self.w.astype(np.int32))) as g:
            with self.assertRaisesRegex(ValueError, "must hold %d values" % self.n):
                g.sssp_device(0, out=self.to_device(fw, np.zeros(self.n + 1, dtype=np.int32)))
            with self.assertRaisesRegex(TypeError, "out must be int32"):
                g.sssp_device(0, out=self.to_device(fw, np.zeros(self.n, dtype=np.float32)))
            with self.assertRaisesRegex(TypeError, "CUDA device"):
                g.sssp_device(0, out=np.zeros(self.n, dtype=np.int32))
            with self.assertRaises(gsp.GspError):
                g.sssp_device(self.n)  # source out of range


if __name__ == "__main__":
    unittest.main()
