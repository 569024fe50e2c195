"""unittest tests of the Python binding (run by scripts/check_bindings.sh python)."""
import math
import os
import tempfile
import threading
import unittest

import gsp

INF = float("inf")
# 0 -> 1 -> 2 -> 3, plus a longer 0 -> 3 arc; vertex 4 is unreachable.
N = 5
SRC = [0, 1, 2, 0]
DST = [1, 2, 3, 3]
W = [1.0, 2.0, 3.0, 10.0]
DIST0 = [0.0, 1.0, 3.0, 6.0, INF]

BACKENDS = [gsp.GSP_BACKEND_CPU] + ([gsp.GSP_BACKEND_CUDA] if gsp.backend_available(gsp.GSP_BACKEND_CUDA) else [])
# The library's algorithms of each kind (gsp.algorithms reads its table).
SSSP_ALGOS = [gsp.algorithm_from_name(a) for a in gsp.algorithms("sssp")]
APSP_ALGOS = [gsp.algorithm_from_name(a) for a in gsp.algorithms("apsp")]
INDEX_ALGOS = [gsp.algorithm_from_name(a) for a in gsp.algorithms("index")]  # queries on a road index (test_index.py)
NOT_OFFERED = (gsp.GSP_ERR_UNSUPPORTED, gsp.GSP_ERR_NO_DEVICE)


def lst(x):
    return [float(v) for v in x]


class TestLibrary(unittest.TestCase):
    def test_version(self):
        self.assertEqual(gsp.version(), (gsp.GSP_VERSION_MAJOR, gsp.GSP_VERSION_MINOR, gsp.GSP_VERSION_PATCH))
        self.assertRegex(gsp.version_string(), r"^\d+\.\d+\.\d+$")

    def test_names(self):
        self.assertEqual(gsp.status_name(gsp.GSP_ERR_NO_PATH), "GSP_ERR_NO_PATH")
        self.assertEqual(gsp.backend_name(gsp.GSP_BACKEND_CPU), "cpu")
        name = gsp.algorithm_name(gsp.GSP_SSSP_DIJKSTRA)
        self.assertEqual(gsp.algorithm_from_name(name), gsp.GSP_SSSP_DIJKSTRA)
        with self.assertRaises(gsp.GspError) as cm:
            gsp.algorithm_from_name("no-such-algorithm")
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        self.assertTrue(cm.exception.message)
        self.assertTrue(gsp.backend_available("cpu"))
        self.assertGreaterEqual(gsp.device_count(), 0)
        self.assertIsInstance(gsp.device_start(), bool)  # begun, or no CUDA backend: never raises
        with self.assertRaises(ValueError):
            gsp.device_start(-2)
        gsp.release_cached_memory()  # callable at any time


    def test_algorithm_lists(self):
        """Every algorithm the library names is listed by gsp.algorithms() once, under its C name and
        kind, and round-trips by name; the lists by kind and backend agree with the library's answers."""
        listed = [gsp.GSP_ALGO_AUTO] + SSSP_ALGOS + APSP_ALGOS + INDEX_ALGOS
        self.assertEqual(sorted(listed), list(range(len(gsp.algorithms()))))
        for i in range(256):
            name = gsp.algorithm_name(i)
            if name == "unknown":
                self.assertNotIn(i, listed)
                continue
            self.assertEqual(listed.count(i), 1, "algorithm %d (%s)" % (i, name))
            self.assertEqual(gsp.algorithm_from_name(name), i)
            self.assertEqual(getattr(gsp, gsp._ffi.ALGORITHMS[i]), i)
            self.assertIn(gsp._ffi.ALGORITHMS[i], gsp.__all__)
        self.assertEqual(gsp.algorithm_kind("dijkstra"), "sssp")
        self.assertEqual(gsp.algorithm_kind(gsp.GSP_APSP_JOHNSON), "apsp")
        self.assertEqual(gsp.algorithm_kind("auto"), "auto")
        self.assertEqual(gsp.algorithm_kind(gsp.GSP_CH), "index")
        self.assertIn("dijkstra", gsp.algorithms("sssp", backend="cpu"))
        self.assertNotIn("harish", gsp.algorithms("sssp", backend="cpu"))
        self.assertEqual("harish" in gsp.algorithms(backend="cuda"), gsp._ffi.lib.gsp_algorithm_has_engine(
            gsp.GSP_SSSP_HARISH, gsp.GSP_BACKEND_CUDA) == 1)
        with self.assertRaises(ValueError):
            gsp.algorithms("no-such-kind")
        with self.assertRaises(ValueError):
            gsp.algorithm_kind(1000)
        self.assertEqual(gsp.GSP_APSP_DELTA_STEPPING, 15)
        self.assertEqual(gsp.algorithm_name(gsp.GSP_APSP_DELTA_STEPPING), "batched-delta-stepping")
        self.assertEqual(gsp.GSP_APSP_SPMM, 16)
        self.assertEqual(gsp.algorithm_name(gsp.GSP_APSP_SPMM), "spmm")
        self.assertEqual(gsp.GSP_CH, 17)
        self.assertEqual(gsp.algorithm_name(gsp.GSP_CH), "ch")


class TestGraph(unittest.TestCase):
    def test_arrays(self):
        with gsp.Graph(N, SRC, DST, W) as g:
            self.assertEqual((g.num_vertices, g.num_edges, g.weight_type), (N, 4, gsp.GSP_F32))
            off, tgt, w = g.csr()
            self.assertEqual([int(x) for x in off], [0, 2, 3, 4, 4, 4])
            self.assertEqual(sorted(zip([int(x) for x in tgt], lst(w))), sorted(zip(DST, W)))

    def test_int_and_undirected(self):
        with gsp.Graph(3, [0, 1], [1, 2], [4, 5], undirected=True) as g:
            self.assertEqual(g.weight_type, gsp.GSP_I32)
            self.assertEqual(g.num_edges, 4)
            with g.sssp(2) as p:
                self.assertEqual([int(d) for d in p.distances(2)], [9, 5, 0])
        with gsp.Graph(3, [0], [1], dtype="i32") as g, g.sssp(0) as p:
            d = [int(x) for x in p.distances(0)]
            self.assertEqual(d, [0, 1, gsp.GSP_I32_INF])
            self.assertTrue(gsp.Paths.unreachable(d[2]))

    def test_csr(self):
        with gsp.Graph.from_csr(3, [0, 1, 2, 2], [1, 2], [0.5, 0.25]) as g, g.sssp(0) as p:
            self.assertEqual(lst(p.distances(0)), [0.0, 0.5, 0.75])
        with self.assertRaises(ValueError):
            gsp.Graph.from_csr(3, [0, 1], [1])

    def test_file_roundtrip(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "g.gr")
            with gsp.Graph(N, SRC, DST, W) as g:
                g.save(path)
            with gsp.Graph.load(path) as g2, g2.sssp(0) as p:
                self.assertEqual(g2.num_vertices, N)
                self.assertEqual(lst(p.distances(0)), DIST0)
            with gsp.Graph.load(path, format=gsp.GSP_FORMAT_DIMACS, dtype="i32") as g3:
                self.assertEqual(g3.weight_type, gsp.GSP_I32)

    def test_bad_input(self):
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Graph(2, [0], [7], [1.0])
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_GRAPH)
        self.assertTrue(cm.exception.message)
        self.assertIn(cm.exception.message, str(cm.exception))
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Graph(0)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        with self.assertRaises(ValueError):
            gsp.Graph(3, [0, 1], [1])
        with self.assertRaises(TypeError):
            gsp.Graph(3, ["a"], [1])
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Graph.load("/nonexistent/graph.gr")
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_IO)
        self.assertIn("nonexistent", cm.exception.message)
        with tempfile.NamedTemporaryFile("w", suffix=".gr", delete=False) as f:
            f.write("p sp 2 1\nthis is not an arc\n")
        try:
            with self.assertRaises(gsp.GspError) as cm:
                gsp.Graph.load(f.name)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_PARSE)
        finally:
            os.unlink(f.name)

    def test_closed(self):
        g = gsp.Graph(N, SRC, DST, W)
        p = g.sssp(0)
        g.close()
        g.close()  # idempotent
        self.assertTrue(g.closed)
        with self.assertRaises(ValueError):
            g.num_vertices
        with self.assertRaises(ValueError):
            g.sssp(0)
        # the result outlives its graph
        self.assertEqual(lst(p.distances(0)), DIST0)
        p.close()
        with self.assertRaises(ValueError):
            p.distances(0)
        with self.assertRaises(ValueError):
            p.path(0, 3)


class TestRuns(unittest.TestCase):
    def setUp(self):
        self.g = gsp.Graph(N, SRC, DST, W)

    def tearDown(self):
        self.g.close()

    def test_sssp_every_algorithm(self):
        ran = 0
        for b in BACKENDS:
            for a in [gsp.GSP_ALGO_AUTO] + SSSP_ALGOS:
                try:
                    p = self.g.sssp(0, backend=b, algorithm=a)
                except gsp.GspError as e:
                    self.assertIn(e.status, NOT_OFFERED, (b, a, str(e)))
                    continue
                with p:
                    ran += 1
                    self.assertEqual(lst(p.distances(0)), DIST0, (b, a))
                    self.assertEqual(p.path(0, 3), [0, 1, 2, 3])
                    self.assertEqual(p.distance(0, 3), 6.0)
                    self.assertEqual([int(x) for x in p.predecessors(0)][:4], [-1, 0, 1, 2])
                    info = p.info()
                    self.assertEqual(info.backend, b)
                    if a != gsp.GSP_ALGO_AUTO:
                        self.assertEqual(info.algorithm, a)
                    self.assertEqual((info.num_vertices, info.num_sources), (N, 1))
                    self.assertTrue(info.has_paths)
                    # CUDA devices the run used: 0 on the CPU, at least 1 on CUDA
                    self.assertEqual(info.num_devices == 0, info.backend == gsp.GSP_BACKEND_CPU, info)
        self.assertGreater(ran, 1)

    def test_apsp_every_algorithm(self):
        ran = 0
        for b in BACKENDS:
            for a in [gsp.GSP_ALGO_AUTO] + APSP_ALGOS:
                try:
                    p = self.g.apsp(backend=b, algorithm=a)
                except gsp.GspError as e:
                    self.assertIn(e.status, NOT_OFFERED, (b, a, str(e)))
                    continue
                with p:
                    ran += 1
                    self.assertEqual(p.num_sources, N)
                    self.assertEqual(p.sources, list(range(N)))
                    self.assertEqual(lst(p.distances(0)), DIST0)
                    self.assertEqual(lst(p.distances(1)), [INF, 0.0, 2.0, 5.0, INF])
                    self.assertEqual(p.path(1, 3), [1, 2, 3])
        self.assertGreater(ran, 1)

    def test_run_info_stages(self):
        # doc/run-info.md: the CPU Floyd-Warshall times its set-up, k-steps,
        # predecessor pass (with paths only) and copy into the result's rows;
        # the stages are parts of seconds.
        for paths in (True, False):
            with self.g.apsp(algorithm="floyd-warshall", backend=gsp.GSP_BACKEND_CPU, no_paths=not paths) as p:
                i = p.info()
                stages = (i.setup_seconds, i.compute_seconds, i.copy_seconds, i.paths_seconds)
                self.assertTrue(all(t > 0 for t in stages[:3]), stages)
                self.assertEqual(i.paths_seconds > 0, paths, stages)
                self.assertLessEqual(sum(stages), i.seconds * 1.001 + 1e-6, (stages, i.seconds))

    def test_num_devices(self):
        self.assertEqual(gsp._Options({}).c.num_devices, 0)  # the default: AUTO chooses
        self.assertEqual(gsp._Options({"num_devices": 3}).c.num_devices, 3)
        with self.g.sssp(0, backend=gsp.GSP_BACKEND_CPU, num_devices=0) as p:
            self.assertEqual(p.info().num_devices, 0)  # no CUDA device on the CPU
        with self.assertRaises(gsp.GspError) as cm:
            self.g.sssp(0, num_devices=-1)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        with self.assertRaises(gsp.GspError) as cm:  # a stream belongs to one device
            self.g.sssp(0, num_devices=2, cuda_stream=1)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)

    def test_apsp_sources_and_options(self):
        with self.g.apsp([2, 0], algorithm="floyd-warshall", num_threads=1, no_paths=True) as p:
            self.assertEqual(p.sources, [2, 0])
            self.assertEqual(lst(p.distances(0)), DIST0)
            self.assertFalse(p.info().has_paths)
            with self.assertRaises(gsp.GspError) as cm:
                p.path(0, 3)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_UNSUPPORTED)
            with self.assertRaises(gsp.GspError) as cm:
                p.distances(1)  # not a source of this result
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)

    def test_stream(self):
        rows = {}

        def on_rows(first, dist, pred):
            for i, row in enumerate(dist):
                rows[first + i] = lst(row)
            self.assertEqual(len(pred), len(dist))
            return False
        self.g.apsp_stream(on_rows, sources=[0, 1, 3])
        self.assertEqual(rows[0], DIST0)
        self.assertEqual(rows[2], [INF, INF, INF, 0.0, INF])
        with self.assertRaises(gsp.GspError) as cm:
            self.g.apsp_stream(lambda *a: True)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_CANCELLED)

        def boom(*a):
            raise KeyError("from the callback")
        with self.assertRaises(KeyError):
            self.g.apsp_stream(boom)

    def test_stream_any_order(self):
        # any_order=True (GSP_ROWS_ANY_ORDER): every row once, each block at
        # its first index; on the CPU they still come in order.
        self.assertEqual(gsp.GSP_ROWS_ANY_ORDER, 2)
        firsts, rows = [], {}

        def on_rows(first, dist, pred):
            firsts.append(first)
            for i, row in enumerate(dist):
                self.assertNotIn(first + i, rows)
                rows[first + i] = lst(row)
            return False
        self.g.apsp_stream(on_rows, sources=[0, 1, 3], any_order=True, backend=gsp.GSP_BACKEND_CPU)
        self.assertEqual(sorted(rows), [0, 1, 2])
        self.assertEqual(firsts, sorted(firsts))
        self.assertEqual(rows[0], DIST0)
        self.assertEqual(rows[2], [INF, INF, INF, 0.0, INF])
        with self.assertRaises(gsp.GspError) as cm:
            self.g.apsp_stream(lambda *a: True, any_order=True)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_CANCELLED)
        with self.assertRaises(TypeError):  # not an option of the other runs
            self.g.apsp(any_order=True)

    def test_progress(self):
        seen = []
        with self.g.sssp(0, progress=lambda f: seen.append(f)) as p:
            self.assertEqual(lst(p.distances(0)), DIST0)
        for f in seen:
            self.assertTrue(0.0 <= f <= 1.0)
        if seen:  # an engine that reports progress can be stopped by it
            with self.assertRaises(gsp.GspError) as cm:
                self.g.sssp(0, progress=lambda f: True)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_CANCELLED)

    def test_errors(self):
        with self.assertRaises(gsp.GspError) as cm:
            self.g.sssp(99)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        with self.g.sssp(0) as p, self.assertRaises(gsp.GspError) as cm:
            p.path(0, 4)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_NO_PATH)
        self.assertTrue(cm.exception.message)
        with self.assertRaises(TypeError):
            self.g.sssp(0, colour="blue")
        with self.assertRaises(ValueError):
            self.g.sssp(0, backend="quantum")
        with gsp.Graph(2, [0], [1], [-1.0]) as neg:
            with self.assertRaises(gsp.GspError) as cm:
                neg.sssp(0, algorithm=gsp.GSP_SSSP_DIJKSTRA, backend="cpu")
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_NEGATIVE_WEIGHT)
            with neg.sssp(0, algorithm="bellman-ford", backend="cpu") as p:
                self.assertEqual(lst(p.distances(0)), [0.0, -1.0])
        with gsp.Graph(2, [0, 1], [1, 0], [1.0, -2.0]) as cyc:
            with self.assertRaises(gsp.GspError) as cm:
                cyc.sssp(0, algorithm="bellman-ford", backend="cpu")
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_NEGATIVE_CYCLE)

    def test_threads(self):
        errors = []

        def work(i):
            try:
                for _ in range(20):
                    with self.g.sssp(i % 4) as p:
                        p.distances(i % 4)
                    try:
                        self.g.sssp(100 + i)
                    except gsp.GspError as e:
                        assert e.status == gsp.GSP_ERR_INVALID_ARGUMENT and e.message, e
            except Exception as e:  # pragma: no cover
                errors.append(e)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])


class TestTable(unittest.TestCase):
    """Graph.table(): K x T distances (and paths), cells by index into the lists."""

    def setUp(self):
        self.g = gsp.Graph(N, SRC, DST, W)

    def tearDown(self):
        self.g.close()

    def test_distances(self):
        d = self.g.table([0, 1], [3, 4, 0])
        self.assertEqual(len(d), 2)
        self.assertEqual([lst(row) for row in d], [[6.0, INF, 0.0], [5.0, INF, INF]])

    def test_every_algorithm(self):
        ran = 0
        for b in BACKENDS:
            for a in [gsp.GSP_ALGO_AUTO] + APSP_ALGOS:
                try:
                    d, p = self.g.table([1, 0], [3, 0, 3], paths=True, backend=b, algorithm=a)
                except gsp.GspError as e:
                    self.assertIn(e.status, NOT_OFFERED, (b, a, str(e)))
                    continue
                ran += 1
                self.assertEqual([lst(row) for row in d], [[5.0, INF, 5.0], [6.0, 0.0, 6.0]], (b, a))
                self.assertEqual(p, [[[1, 2, 3], None, [1, 2, 3]], [[0, 1, 2, 3], [0], [0, 1, 2, 3]]], (b, a))
        self.assertGreater(ran, 1)

    def test_paths(self):
        d, p = self.g.table([0, 2, 0], [3, 4], paths=True, num_threads=1)
        self.assertEqual([lst(row) for row in d], [[6.0, INF], [3.0, INF], [6.0, INF]])
        self.assertEqual(p, [[[0, 1, 2, 3], None], [[2, 3], None], [[0, 1, 2, 3], None]])

    def test_int_graph(self):
        with gsp.Graph(3, [0, 1], [1, 2], [4, 5]) as g:
            d = g.table([2, 0], [0, 2])
            self.assertEqual([[int(x) for x in row] for row in d], [[gsp.GSP_I32_INF, 0], [0, 9]])
            self.assertTrue(gsp.Paths.unreachable(int(d[0][0])))

    def test_empty_lists(self):
        self.assertEqual(len(self.g.table([], [1, 2])), 0)
        d = self.g.table([0, 1], [])
        self.assertEqual([list(row) for row in d], [[], []])

    def test_errors(self):
        with self.assertRaises(gsp.GspError) as cm:
            self.g.table([0], [3, N])  # target out of range
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        self.assertTrue(cm.exception.message)
        with self.assertRaises(gsp.GspError) as cm:
            self.g.table([-1], [3], paths=True)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        with self.assertRaises(gsp.GspError) as cm:
            self.g.table([0], [3], algorithm="dijkstra", backend="cpu")
        self.assertIn(cm.exception.status, (gsp.GSP_ERR_INVALID_ARGUMENT, gsp.GSP_ERR_UNSUPPORTED))
        with self.assertRaises(TypeError):
            self.g.table([0], [3], no_paths=True)
        with gsp.Graph(2, [0, 1], [1, 0], [1.0, -2.0]) as cyc:
            with self.assertRaises(gsp.GspError) as cm:
                cyc.table([0], [1])
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_NEGATIVE_CYCLE)
        g = gsp.Graph(N, SRC, DST, W)
        g.close()
        with self.assertRaises(ValueError):
            g.table([0], [3])


@unittest.skipUnless(gsp.HAVE_NUMPY, "NumPy is not installed")
class TestNumpy(unittest.TestCase):
    def test_arrays(self):
        import numpy as np
        with gsp.Graph(N, np.array(SRC), np.array(DST), np.array(W, dtype=np.float64)) as g:
            self.assertEqual(g.weight_type, gsp.GSP_F32)
            with g.sssp(0) as p:
                d = p.distances(0)
                self.assertIsInstance(d, np.ndarray)
                self.assertEqual(d.dtype, np.float32)
                self.assertTrue(math.isinf(d[4]))
            t = g.table(np.array([0, 1]), np.array([3, 4, 0]))
            self.assertIsInstance(t, np.ndarray)
            self.assertEqual((t.shape, t.dtype), ((2, 3), np.float32))
            self.assertEqual(t[0, 0], 6.0)
            self.assertTrue(math.isinf(t[1, 2]))
            d, p = g.table([0], [3], paths=True)
            self.assertEqual((d.shape, p), ((1, 1), [[[0, 1, 2, 3]]]))


if __name__ == "__main__":
    unittest.main()
