"""gsp.csgraph against scipy.sparse.csgraph itself: the same calls, the same
results (run by scripts/check_bindings.sh python, after pip install)."""
import unittest

try:
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph as ref
except ImportError as e:  # pragma: no cover - depends on the machine
    np = None
    MISSING = str(e)

from gsp import csgraph as ours

if np is not None:
    RNG = np.random.default_rng(23)


def random_graph(n, density, integer, negative=False):
    """A dense n x n matrix: zeros are non-edges; weights distinct-ish."""
    mask = RNG.random((n, n)) < density
    np.fill_diagonal(mask, False)
    w = RNG.integers(1, 1000, (n, n)).astype(np.float64) if integer else RNG.uniform(0.5, 100.0, (n, n))
    if negative:  # a DAG with some negative arcs: no negative cycle
        mask &= np.triu(np.ones((n, n), dtype=bool), 1)
        w = np.where(RNG.random((n, n)) < 0.3, -w / 4, w)
    return np.where(mask, w, 0.0)


@unittest.skipIf(np is None, "numpy/scipy missing: %s" % (None if np is not None else MISSING))
class TestAgainstScipy(unittest.TestCase):
    def check_pred(self, graph, dist, pred, directed, unweighted, sources):
        """Every predecessor is tight: dist[p] + w(p, v) == dist[v]; -9999 exactly where scipy has it."""
        dense = graph.toarray() if sp.issparse(graph) else np.asarray(graph)
        if unweighted:
            dense = (dense != 0).astype(np.float64)
        if not directed:
            both = np.where(dense != 0, dense, dense.T)
            dense = np.where((dense != 0) & (dense.T != 0), np.minimum(dense, dense.T), both)
        for row, s in enumerate(sources):
            for v in range(dense.shape[0]):
                p = pred[row, v]
                if p == ours.NO_PREDECESSOR:
                    self.assertTrue(v == s or np.isinf(dist[row, v]), (s, v))
                else:
                    self.assertAlmostEqual(dist[row, p] + dense[p, v], dist[row, v], delta=1e-4 * (1 + abs(dist[row, v])))

    def compare(self, graph, **kw):
        # scipy 1.10's undirected Bellman-Ford reports a negative cycle on
        # positive graphs: compare that case with scipy's Dijkstra.
        rkw = dict(kw, method="D") if kw.get("method") == "BF" and kw.get("directed") is False else kw
        want = ref.shortest_path(graph, **rkw)
        got = ours.shortest_path(graph, **kw)
        if kw.get("return_predecessors"):
            (want, wpred), (got, gpred) = want, got
            self.assertEqual(gpred.dtype, np.int32)
            self.assertEqual(gpred.shape, wpred.shape)
            np.testing.assert_array_equal(gpred == ours.NO_PREDECESSOR, wpred == ours.NO_PREDECESSOR)
            idx = kw.get("indices")
            sources = range(graph.shape[0]) if idx is None else np.atleast_1d(idx)
            self.check_pred(graph, np.atleast_2d(got), np.atleast_2d(gpred), kw.get("directed", True),
                            kw.get("unweighted", False), sources)
        self.assertEqual(got.dtype, np.float64)
        self.assertEqual(got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5)

    def test_methods_dense_and_sparse(self):
        for integer in (True, False):
            g = random_graph(60, 0.08, integer)
            for method in ("auto", "FW", "D", "BF", "J"):
                for directed in (True, False):
                    with self.subTest(integer=integer, method=method, directed=directed):
                        self.compare(g, method=method, directed=directed)
                        self.compare(sp.csr_matrix(g), method=method, directed=directed, return_predecessors=True)

    def test_indices_and_unweighted(self):
        g = sp.csr_matrix(random_graph(50, 0.1, False))
        self.compare(g, indices=3, return_predecessors=True)
        self.compare(g, indices=[7, 0, 7, 49], return_predecessors=True)
        self.compare(g, method="D", indices=np.array([1, 2]), unweighted=True)
        self.compare(g, directed=False, unweighted=True, return_predecessors=True)

    def test_negative_weights(self):
        g = random_graph(40, 0.2, True, negative=True)
        for method in ("auto", "BF", "J", "FW"):
            with self.subTest(method=method):
                self.compare(sp.csr_matrix(g), method=method, return_predecessors=True)

    def test_negative_cycle(self):
        g = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
        with self.assertRaises(ref.NegativeCycleError):
            ref.shortest_path(g, method="BF")
        with self.assertRaises(ref.NegativeCycleError):  # scipy's exception class catches ours
            ours.shortest_path(g, method="BF")

    def test_explicit_zero_is_an_edge(self):
        g = sp.csr_matrix((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([1, 2]))), shape=(3, 3))
        self.compare(g, return_predecessors=True)

    def test_wrappers(self):
        g = sp.csr_matrix(random_graph(30, 0.15, False))
        np.testing.assert_allclose(ours.dijkstra(g, indices=[0, 5]), ref.dijkstra(g, indices=[0, 5]), rtol=1e-5)
        np.testing.assert_allclose(ours.bellman_ford(g, directed=False), ref.dijkstra(g, directed=False),
                                   rtol=1e-5)  # see compare()
        np.testing.assert_allclose(ours.johnson(g, indices=2), ref.johnson(g, indices=2), rtol=1e-5)
        np.testing.assert_allclose(ours.floyd_warshall(g), ref.floyd_warshall(g), rtol=1e-5)
        with self.assertRaises(NotImplementedError):
            ours.dijkstra(g, limit=3.0)
        with self.assertRaises(ValueError):
            ours.shortest_path(g, method="XX")


if __name__ == "__main__":
    unittest.main()
