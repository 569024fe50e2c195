"""More gsp.csgraph vs scipy.sparse.csgraph cases (issue 31): input kinds
(masked arrays, lists, int/float32/bool dtypes, sparse formats, explicit
zeros, duplicates, inf/NaN, tiny entries), large weights (1e8-2e8 integers,
1e39), N = 0, self-loops, exceptions, dijkstra's limit and min_only,
overwrite. The helpers are test_csgraph.py's."""
import itertools
import warnings
import unittest

from test_csgraph import CASES, SKIP, CsgraphCase, random_graph, np, sp, ref, ours


def forms(g):
    """The same graph as scipy reads it in several containers."""
    out = [("dense", g), ("csr", sp.csr_matrix(g)), ("csc", sp.csc_matrix(g)), ("coo", sp.coo_matrix(g)),
           ("lil", sp.lil_matrix(g)), ("list", g.tolist())]
    return out


@SKIP
class TestCombinations(CsgraphCase):
    def test_grid(self):
        """method x directed x predecessors x unweighted x container, on one integer and one float graph."""
        graphs = [("int", random_graph(14, 0.2, True)), ("float", random_graph(12, 0.25, False))]
        for (gname, g), method, directed, pred, unweighted in itertools.product(
                graphs, ("auto", "FW", "D", "BF", "J"), (True, False), (False, True), (False, True)):
            name, form = [("dense", g), ("csr", sp.csr_matrix(g))][(directed + pred + unweighted) % 2]
            bad = method == "BF" and not directed and gname == "float" and not unweighted
            with self.subTest(graph=gname, method=method, directed=directed, pred=pred, unweighted=unweighted):
                self.compare("shortest_path", form, method=method, directed=directed, return_predecessors=pred,
                             unweighted=unweighted, ref_kw={"method": "D"} if bad else None,
                             exact=gname == "int" or unweighted or method != "FW")

    def test_containers(self):
        g = random_graph(10, 0.3, True)
        for (form, x), method in itertools.product(forms(g), ("FW", "D", "BF", "J")):
            with self.subTest(form=form, method=method):  # FW on coo: scipy's ValueError
                self.compare("shortest_path", x, method=method, return_predecessors=True)
        for form, x in forms(g)[:5]:  # auto: scipy 1.10 needs .shape (lists raise there)
            self.compare("shortest_path", x, return_predecessors=True)

    def test_functions_indices(self):
        g = sp.csr_matrix(random_graph(25, 0.15, False))
        for fn, idx in itertools.product(("dijkstra", "bellman_ford", "johnson"),
                                         (None, 0, -1, [3, 3, 24], [[0, 1], [2, 3]], np.int64(5), [])):
            with self.subTest(fn=fn, idx=idx):
                self.compare(fn, g, indices=idx, return_predecessors=True)


@SKIP
class TestInputs(CsgraphCase):
    def test_masked_arrays(self):
        d = np.array([[0, 1, 5, 0], [2, 0, 2, 0], [3, 0, 0, 7], [0, 0, 1, 0]], dtype=float)
        m = np.ma.masked_array(d, mask=d == 5)
        for method in ("auto", "FW", "D", "BF", "J"):
            self.compare("shortest_path", m, method=method, return_predecessors=True)
        masked_zero = np.ma.masked_array(d, mask=(d == 0) | (d == 2))  # zeros masked too: no weight-0 arcs
        for method in ("FW", "D", "BF", "J"):
            self.compare("shortest_path", masked_zero, method=method)
        unmasked_zero = np.ma.masked_array(d, mask=d == 7)  # D/BF/J: an unmasked 0 is an arc of weight 0
        for method in ("D", "BF", "J"):
            self.compare("shortest_path", unmasked_zero, method=method)
        big = random_graph(30, 0.2, True)
        mb = np.ma.masked_array(big, mask=(big == 0) | (RNG_mask(big.shape)))
        self.compare("dijkstra", mb, indices=[0, 4], return_predecessors=True)
        self.compare("floyd_warshall", mb)

    def test_masked_without_mask(self):  # scipy 1.10 fails (AxisError) on D/BF/J: ours treats it as all arcs
        m = np.ma.masked_array(np.array([[0, 1.0], [2.0, 0]]))
        self.compare("floyd_warshall", m)
        np.testing.assert_array_equal(ours.dijkstra(m), [[0, 1], [2, 0]])
        np.testing.assert_array_equal(ours.bellman_ford(m, indices=1), [2, 0])

    def test_masked_mask_is_honoured(self):
        """The old bug: masked entries became arcs."""
        d = np.array([[0, 1.0, 10.0], [0, 0, 1.0], [0, 0, 0]])
        m = np.ma.masked_array(d, mask=[[True, True, False], [True, True, True], [True, True, True]])
        self.compare("dijkstra", m, indices=0)
        np.testing.assert_array_equal(ours.dijkstra(m, indices=0), [0, np.inf, 10])

    def test_dtypes(self):
        g = random_graph(12, 0.3, True, high=100)
        for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.float32, np.float64, bool):
            for method in ("auto", "D", "FW"):
                with self.subTest(dtype=dt, method=method):
                    self.compare("shortest_path", g.astype(dt), method=method)
                    self.compare("shortest_path", sp.csr_matrix(g.astype(dt)), method=method)
        f = random_graph(12, 0.3, False).astype(np.float32)
        self.compare("shortest_path", f, method="D", return_predecessors=True)

    def test_large_integers(self):
        """1e8..2e8 on 20 vertices: float32 lost up to 30 here; float64 is exact."""
        g = random_graph(20, 0.3, True, low=100_000_000, high=200_000_000)
        for method in ("auto", "FW", "D", "BF", "J"):
            for directed in (True, False):
                self.compare("shortest_path", g, method=method, directed=directed, return_predecessors=True)
        self.compare("dijkstra", sp.csr_matrix(g), min_only=True, indices=[0, 9], return_predecessors=True)

    def test_beyond_float32(self):
        g = np.array([[0, 1e39, 0, 5e38], [0, 0, 1e39, 0], [0, 0, 0, 0], [0, 3e38, 0, 0]])
        for method in ("auto", "FW", "D", "BF", "J"):
            self.compare("shortest_path", g, method=method, return_predecessors=True)
            self.compare("shortest_path", sp.csr_matrix(g * 1e200), method=method)

    def test_tiny_and_special_dense_entries(self):
        g = np.array([[0, 1e-9, 2, -1e-8, 0], [0, 0, 1.1e-8, 0, np.inf], [np.nan, 0, 0, 1, 0],
                      [0, -np.inf, 0, 0, 3], [1e-300, 0, 0, 0, 0]])
        for method in ("auto", "FW", "D", "BF", "J"):
            self.compare("shortest_path", g, method=method, return_predecessors=True)

    def test_sparse_specials(self):
        dup_csr = sp.csr_matrix((np.array([2.0, 3.0, 1.0]), np.array([1, 1, 2]), np.array([0, 2, 3, 3])),
                                shape=(3, 3))  # two arcs 0->1: the least counts
        dup_coo = sp.coo_matrix((np.array([2.0, 3.0, 1.0]), (np.array([0, 0, 1]), np.array([1, 1, 2]))),
                                shape=(3, 3))  # summed by scipy's conversion
        nan = sp.csr_matrix((np.array([np.nan, 1.0]), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
        zero = sp.csr_matrix((np.array([0.0, 0.0, -1.0]), np.array([1, 2, 0]), np.array([0, 1, 2, 2])),
                             shape=(3, 3))
        for g, method in itertools.product((dup_csr, dup_coo, nan, zero), ("auto", "FW", "D", "BF", "J")):
            with self.subTest(g=repr(g), method=method):
                self.compare("shortest_path", g, method=method, return_predecessors=True)
        inf = sp.csr_matrix((np.array([np.inf, 1.0]), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
        for method in ("FW", "D", "BF", "J"):  # distances equal; scipy's D/J name a predecessor at inf
            self.compare("shortest_path", inf, method=method)

    def test_empty_and_tiny_graphs(self):
        for n in (0, 1, 2):
            z = np.zeros((n, n))
            for method in ("auto", "FW", "D", "BF", "J"):
                self.compare("shortest_path", z, method=method, return_predecessors=True)
            self.compare("shortest_path", sp.csr_matrix(z), method="D")
        self.compare("dijkstra", np.zeros((0, 0)), indices=[])

    def test_self_loops(self):
        neg = np.array([[-1.0, 1], [0, 0]])
        pos = np.array([[2.0, 1], [0, 3]])
        for g, method in itertools.product((pos,), ("auto", "FW", "D", "BF", "J")):
            self.compare("shortest_path", g, method=method, return_predecessors=True)
        # A negative self-loop: scipy 1.10's answers, written out, since later
        # scipy versions differ here (one of them never returns): a dense
        # diagonal is no edge for auto, FW and D; BF and J find the cycle.
        for g in (neg, sp.csr_matrix(neg)):
            for method in ("auto", "FW", "D"):
                with self.subTest(method=method, sparse=sp.issparse(g)):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        d, p = ours.shortest_path(g, method=method, return_predecessors=True)
                    np.testing.assert_array_equal(d, [[0.0, 1.0], [np.inf, 0.0]])
                    np.testing.assert_array_equal(p, [[ours.NO_PREDECESSOR, 0], [ours.NO_PREDECESSOR] * 2])
            for method in ("BF", "J"):
                with self.subTest(method=method, sparse=sp.issparse(g)):
                    self.assertRaises(ours.NegativeCycleError, ours.shortest_path, g, method=method)
                    self.assertRaises(ref.NegativeCycleError, ours.shortest_path, g, method=method)
        self.compare("shortest_path", neg, indices=0)  # auto with indices: 'J', a negative cycle
        far = np.array([[0, 1.0, 0], [0, 0, 0], [0, 0, -1]])  # unreachable from 0: BF answers, J raises
        self.compare("bellman_ford", far, indices=0)
        self.compare("johnson", far, indices=0)

    def test_shape_errors(self):
        for bad in (np.zeros((2, 3)), np.zeros(3), np.zeros((2, 2, 2)), [], sp.csr_matrix(np.ones((2, 3)))):
            for fn in ("shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall"):
                with self.subTest(bad=repr(bad), fn=fn):
                    self.compare(fn, bad)

    def test_undirected_negative(self):
        g = np.array([[0, -1.0, 0], [0, 0, 2], [0, 0, 0]])
        for method in ("auto", "FW", "BF", "J"):
            self.compare("shortest_path", g, method=method, directed=False)
        self.compare("bellman_ford", np.array([[0, 0, 0], [0, 0, -1], [0, 0, 0.]]), directed=False, indices=0)


def RNG_mask(shape):
    return np.random.default_rng(5).random(shape) < 0.2


@SKIP
class TestDijkstraExtras(CsgraphCase):
    G = None

    def setUp(self):
        self.G = sp.csr_matrix(random_graph(40, 0.08, False))
        self.I = random_graph(30, 0.1, True)

    def test_limit(self):
        for limit, directed, pred in itertools.product((0, 1e-9, 20.0, 75.5, 150.0, np.inf), (True, False),
                                                       (False, True)):
            with self.subTest(limit=limit, directed=directed):
                self.compare("dijkstra", self.G, limit=limit, directed=directed, return_predecessors=pred)
        d = ref.dijkstra(self.I, indices=0)
        on = float(np.sort(d[np.isfinite(d)])[len(d[np.isfinite(d)]) // 2])
        self.compare("dijkstra", self.I, limit=on, indices=0, return_predecessors=True)  # == limit is in
        self.compare("dijkstra", self.I, limit=on, indices=[[0, 1]], unweighted=True)
        self.compare("dijkstra", self.I, limit=-1)  # ValueError
        self.compare("dijkstra", self.I, limit=np.nan, return_predecessors=True)  # only the sources
        self.compare("dijkstra", self.I, limit="a")  # TypeError

    def test_min_only(self):
        for idx, pred, limit, directed in itertools.product(([0], [0, 7, 7], 3, [[2], [9]], [], [-1, 20]),
                                                            (False, True), (np.inf, 40.0), (True, False)):
            with self.subTest(idx=idx, pred=pred, limit=limit, directed=directed):
                self.compare("dijkstra", self.G, min_only=True, indices=idx, return_predecessors=pred,
                             limit=limit, directed=directed)
        self.compare("dijkstra", self.I, min_only=True, indices=[1, 2], unweighted=True, return_predecessors=True)
        self.compare("dijkstra", self.I, min_only=True, indices=[40])  # ValueError
        # without indices: every vertex is a source (scipy 1.10 fails to reshape; newer scipy returns this)
        d, p, s = ours.dijkstra(self.I, min_only=True, return_predecessors=True)
        np.testing.assert_array_equal(d, np.zeros(30))
        np.testing.assert_array_equal(p, np.full(30, -9999))
        np.testing.assert_array_equal(s, np.arange(30))
        self.assertEqual((d.dtype, p.dtype, s.dtype), (np.float64, np.int32, np.int32))

    def test_negative_weights_warn(self):
        # scipy's Dijkstra is right on these (negative arcs leave the sources only)
        g = np.array([[0, -1.0, 4, 0], [0, 0, 2, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
        self.compare("dijkstra", g, indices=0, return_predecessors=True)
        self.compare("shortest_path", g, method="D", indices=[0])
        self.compare("dijkstra", g, indices=0, limit=1.5)
        self.compare("dijkstra", g, indices=0, min_only=True, return_predecessors=True)
        self.compare("dijkstra", g, unweighted=True, indices=[0, 1])  # warns even so
        self.compare("johnson", g, unweighted=True)  # johnson(unweighted) is dijkstra's: warns too

    def test_high_level_api(self):
        """Graph.nearest and limit= in the Graph API (not scipy's)."""
        import gsp
        with gsp.Graph(4, [0, 1, 2], [1, 2, 3], [1.0, 2.0, 3.0], dtype=gsp.F64) as g:
            self.assertEqual(g.weight_type, gsp.F64)
            d, near, pred = g.nearest([0, 3])
            np.testing.assert_array_equal(d, [0, 1, 3, 0])
            np.testing.assert_array_equal(near, [0, 0, 0, 3])
            np.testing.assert_array_equal(pred, [-1, 0, 1, -1])
            self.assertEqual(d.dtype, np.float64)
            d, near, pred = g.nearest([0], paths=False, limit=2.5)
            np.testing.assert_array_equal(d, [0, 1, np.inf, np.inf])
            np.testing.assert_array_equal(near, [0, 0, -1, -1])
            self.assertIsNone(pred)
            with g.sssp(0, limit=3.0) as p:
                np.testing.assert_array_equal(p.distances(0), [0, 1, 3, np.inf])
                self.assertEqual(p.predecessors(0)[3], -1)
            np.testing.assert_array_equal(g.table([0], [3], limit=5.0), [[np.inf]])
            with g.apsp(limit=1e300) as p:
                self.assertEqual(p.distance(0, 3), 6.0)


@SKIP
class TestOverwrite(CsgraphCase):
    def test_overwrite(self):
        base = np.array([[0, 1, 0], [0, 0, 2], [3, 0, 0]], dtype=float)
        for method in ("auto", "FW", "D"):
            a, b = base.copy(), base.copy()
            want = ref.shortest_path(a, method=method, overwrite=True)
            got = ours.shortest_path(b, method=method, overwrite=True)
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(b, a)  # the input afterwards, as scipy leaves it
            self.assertEqual(np.shares_memory(got, b), np.shares_memory(want, a))
        a, b = base.astype(np.float32), base.astype(np.float32)
        ref.floyd_warshall(a, overwrite=True)
        ours.floyd_warshall(b, overwrite=True)
        np.testing.assert_array_equal(b, a)


@SKIP
class TestZZCount(unittest.TestCase):
    def test_at_least_200_cases(self):
        print("\ngsp.csgraph vs scipy: %d comparison cases (%d bit for bit)" % (CASES["compared"], CASES["exact"]))
        self.assertGreaterEqual(CASES["compared"], 200)


if __name__ == "__main__":
    unittest.main()
