"""gsp.csgraph against scipy.sparse.csgraph itself: the same calls, the same
results, dtypes, shapes, warnings and exception types (run by
scripts/check_bindings.sh python, after pip install). The helpers here are
shared with test_csgraph_cases.py; every compare() is one comparison case,
counted in CASES (test_csgraph_cases.py checks that there are >= 200)."""
import unittest
import warnings

try:
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph as ref
    MISSING = None
except ImportError as e:  # pragma: no cover - depends on the machine
    np = sp = ref = None
    MISSING = str(e)

from gsp import csgraph as ours

SKIP = unittest.skipIf(np is None, "numpy/scipy missing: %s" % MISSING)
CASES = {"compared": 0, "exact": 0}

if np is not None:
    RNG = np.random.default_rng(23)


def random_graph(n, density, integer, negative=False, low=1, high=1000):
    """A dense n x n matrix: zeros are non-edges."""
    mask = RNG.random((n, n)) < density
    np.fill_diagonal(mask, False)
    if integer:
        w = RNG.integers(low, high, (n, n)).astype(np.float64)
    else:
        w = RNG.uniform(0.5, 100.0, (n, n))
    if negative:  # a DAG with some negative arcs: no negative cycle
        mask &= np.triu(np.ones((n, n), dtype=bool), 1)
        w = np.where(RNG.random((n, n)) < 0.3, -np.floor(w / 4) - 1 if integer else -w / 4, w)
    return np.where(mask, w, 0.0)


# NumPy 2 moved ComplexWarning into numpy.exceptions.
_COMPLEX_WARNING = getattr(np, "ComplexWarning", None) or getattr(getattr(np, "exceptions", None), "ComplexWarning",
                                                                  Warning) if np is not None else Warning


def call(fn, *args, **kw):
    """(result or exception, [UserWarning messages])."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kw)
        except Exception as e:  # noqa: BLE001 - compared by type
            out = e
    return out, [str(w.message) for w in rec if issubclass(w.category, UserWarning)
                 and not issubclass(w.category, (_COMPLEX_WARNING, PendingDeprecationWarning))]


class CsgraphCase(unittest.TestCase):
    """compare(name, graph, ...): scipy's function `name` and ours on the same arguments."""

    def weights(self, graph, directed, unweighted, fw):
        """The least weight of each arc as gsp.csgraph reads the graph (inf: none)."""
        if fw:
            m = ours._fw_matrix(graph, directed)
            n = m.shape[0]
            t, h = np.nonzero(np.isfinite(m))
            w = m[t, h]
        else:
            n, t, h, w, _ = ours._csr_arcs(graph, directed)
        if unweighted:
            w = np.ones_like(w)
        W = np.full((n, n), np.inf)
        np.minimum.at(W, (t, h), w)
        if not directed:
            W = np.minimum(W, W.T)
        return W

    def check_pred(self, graph, dist, pred, kw, fw):
        """-9999 exactly where scipy has it (checked by the caller); every other
        predecessor p of v is tight: dist[p] + w(p, v) == dist[v]."""
        if dist.size == 0:
            return
        W = self.weights(graph, kw.get("directed", True), kw.get("unweighted", False), fw)
        dist2, pred2 = dist.reshape(-1, W.shape[0]), pred.reshape(-1, W.shape[0])
        rows, cols = np.nonzero(pred2 != ours.NO_PREDECESSOR)
        p = pred2[rows, cols]
        np.testing.assert_allclose(dist2[rows, p] + W[p, cols], dist2[rows, cols], rtol=1e-12)

    def compare(self, name, graph, exact=True, ref_kw=None, ref_name=None, **kw):
        """Calls scipy.sparse.csgraph.<name>(graph, **kw) and ours; the same
        exception type, or the same tuple shape, dtypes, shapes and values
        (bit for bit when ``exact``, else rtol 1e-12), the same UserWarnings.
        ``ref_kw``/``ref_name`` change scipy's call (where scipy 1.10 is wrong)."""
        CASES["compared"] += 1
        want, wwarn = call(getattr(ref, ref_name or name), graph, **dict(kw, **(ref_kw or {})))
        got, gwarn = call(getattr(ours, name), graph, **kw)
        if isinstance(want, Exception):
            self.assertIsInstance(got, type(want), "scipy raised %r, gsp gave %r" % (want, got))
            return got
        if isinstance(got, Exception):
            raise AssertionError("scipy returned, gsp raised %r" % (got,)) from got
        if ref_name is None and not ref_kw:
            self.assertEqual(gwarn, wwarn)
        self.assertEqual(type(got), type(want))
        wt = want if isinstance(want, tuple) else (want,)
        gt = got if isinstance(got, tuple) else (got,)
        self.assertEqual(len(gt), len(wt))
        for g, w in zip(gt, wt):
            self.assertEqual(g.dtype, w.dtype)
            self.assertEqual(g.shape, w.shape)
        if exact:
            np.testing.assert_array_equal(gt[0], wt[0])
            CASES["exact"] += 1
        else:
            np.testing.assert_allclose(gt[0], wt[0], rtol=1e-12, atol=1e-9)
        if len(gt) > 1:
            np.testing.assert_array_equal(gt[1] == ours.NO_PREDECESSOR, wt[1] == ours.NO_PREDECESSOR)
            method = kw.get("method", "auto")
            fw = name == "floyd_warshall" or (name == "shortest_path" and (
                method == "FW" or (method == "auto" and ours._auto_method(graph, kw.get("indices")) == "FW")))
            self.check_pred(graph, gt[0], gt[1], kw, fw)
        if len(gt) > 2:  # min_only's sources: -9999 where scipy's; another source only at a tie
            np.testing.assert_array_equal(gt[2] == ours.NO_PREDECESSOR, wt[2] == ours.NO_PREDECESSOR)
            for v in np.nonzero(gt[2] != wt[2])[0]:
                d = ref.dijkstra(graph, directed=kw.get("directed", True), indices=int(gt[2][v]),
                                 unweighted=kw.get("unweighted", False))
                self.assertEqual(d[v], gt[0][v])
        return got


@SKIP
class TestAgainstScipy(CsgraphCase):
    def test_methods_dense_and_sparse(self):
        for integer in (True, False):
            g = random_graph(60, 0.08, integer)
            for method in ("auto", "FW", "D", "BF", "J"):
                for directed in (True, False):
                    with self.subTest(integer=integer, method=method, directed=directed):
                        # scipy 1.10's undirected Bellman-Ford rejects float graphs
                        # (rounding in its negative-cycle test): compare with its Dijkstra
                        bad = method == "BF" and not directed and not integer
                        rk = {"method": "D"} if bad else None
                        self.compare("shortest_path", g, method=method, directed=directed, ref_kw=rk,
                                     exact=integer or method != "FW")
                        self.compare("shortest_path", sp.csr_matrix(g), method=method, directed=directed,
                                     return_predecessors=True, ref_kw=rk, exact=integer or method != "FW")

    def test_indices_and_unweighted(self):
        g = sp.csr_matrix(random_graph(50, 0.1, False))
        self.compare("shortest_path", g, indices=3, return_predecessors=True)
        self.compare("shortest_path", g, indices=[7, 0, 7, 49], return_predecessors=True)
        self.compare("shortest_path", g, method="D", indices=np.array([1, 2]), unweighted=True)
        self.compare("shortest_path", g, directed=False, unweighted=True, return_predecessors=True)
        self.compare("shortest_path", g, indices=[[1, 2], [-1, 0]], return_predecessors=True)  # 2-D
        self.compare("dijkstra", g, indices=[[1], [2]])
        self.compare("bellman_ford", g, indices=np.array([[4, -2]]))
        self.compare("johnson", g, indices=[])
        self.compare("dijkstra", g, indices=1.7)  # scipy truncates to 1
        self.compare("dijkstra", g, indices=True)
        self.compare("dijkstra", g, indices=[50])  # ValueError
        self.compare("dijkstra", g, indices=[-51])
        self.compare("dijkstra", g, indices="a")
        self.compare("shortest_path", g, method="FW", indices=[0])  # ValueError

    def test_negative_weights(self):
        g = random_graph(40, 0.2, True, negative=True)
        for method in ("auto", "BF", "J", "FW"):
            with self.subTest(method=method):
                self.compare("shortest_path", sp.csr_matrix(g), method=method, return_predecessors=True)
                self.compare("shortest_path", g, method=method, indices=[0, 3])
        f = random_graph(40, 0.2, False, negative=True)
        for method in ("BF", "J", "FW"):
            self.compare("shortest_path", f, method=method, exact=method == "BF")

    def test_negative_cycle(self):
        g = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
        for method in ("auto", "BF", "J", "FW"):
            got = self.compare("shortest_path", g, method=method)
            self.assertIsInstance(got, ref.NegativeCycleError)  # scipy's class catches ours
            self.assertIsInstance(got, ours.NegativeCycleError)

    def test_explicit_zero_is_an_edge(self):
        g = sp.csr_matrix((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([1, 2]))), shape=(3, 3))
        for method in ("auto", "FW", "D", "BF", "J"):
            self.compare("shortest_path", g, method=method, return_predecessors=True)

    def test_wrappers(self):
        g = sp.csr_matrix(random_graph(30, 0.15, False))
        self.compare("dijkstra", g, indices=[0, 5])
        self.compare("bellman_ford", g, directed=False, ref_name="dijkstra")  # see test_methods
        self.compare("johnson", g, indices=2)
        self.compare("floyd_warshall", g, exact=False)
        self.compare("shortest_path", g, method="XX")  # ValueError


if __name__ == "__main__":
    unittest.main()
