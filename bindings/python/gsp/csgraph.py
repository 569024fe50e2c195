"""scipy.sparse.csgraph's shortest-path functions, computed by libgsp.

Same names, arguments and results as scipy.sparse.csgraph, so a program
switches by changing one import:

    from gsp.csgraph import shortest_path   # was: from scipy.sparse.csgraph import shortest_path
    dist, pred = shortest_path(A, directed=False, return_predecessors=True)

``csgraph`` is a dense array (zeros, inf and NaN are non-edges) or a
scipy.sparse matrix (every stored entry is an edge, explicit zeros too).
Distances come back as float64 with inf where unreachable; predecessors as
int32 with -9999 where there is none, as in scipy. Extra keyword arguments
(backend="cpu"|"cuda"|"auto", num_threads, ...) go to libgsp.

Differences from scipy: libgsp computes in float32, or exactly in int32 when
every weight is an integer (and no distance can overflow), so float weights
agree with scipy to about 1e-6 relative; ``overwrite`` is accepted and
ignored (the input is never modified); dijkstra's ``limit`` and ``min_only``
are not offered (NotImplementedError). Needs NumPy (and scipy for sparse input).
"""
import numpy as np

from . import Graph, GspError, _ffi

try:  # a negative cycle raises an error that scipy's callers already catch
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycle
except ImportError:  # pragma: no cover - depends on the machine
    _ScipyNegativeCycle = Exception

__all__ = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall", "NegativeCycleError",
           "NO_PREDECESSOR"]

NO_PREDECESSOR = -9999  # scipy's value where a vertex has no predecessor

_METHODS = {
    "auto": _ffi.GSP_ALGO_AUTO,
    "FW": _ffi.GSP_APSP_FLOYD_WARSHALL,
    "D": _ffi.GSP_APSP_HEAP,  # one Dijkstra per source
    "BF": _ffi.GSP_SSSP_BELLMAN_FORD,
    "J": _ffi.GSP_APSP_JOHNSON,
}


class NegativeCycleError(GspError, _ScipyNegativeCycle):
    """The graph has a negative cycle (also a scipy NegativeCycleError when scipy is installed)."""

    def __init__(self, status, message):
        GspError.__init__(self, status, message)


def _arcs(csgraph, directed, unweighted):
    """(n, tails, heads, weights as float64) of the graph, arcs both ways when undirected."""
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - depends on the machine
        sp = None
    if sp is not None and sp.issparse(csgraph):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        coo = sp.csr_matrix(csgraph, dtype=np.float64).tocoo()  # sums duplicates
        keep = np.isfinite(coo.data)
        n, tails, heads, w = csgraph.shape[0], coo.row[keep], coo.col[keep], coo.data[keep]
    else:
        a = np.asarray(csgraph, dtype=np.float64)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError("dense graph must be shape (N, N)")
        tails, heads = np.nonzero((a != 0) & np.isfinite(a))
        n, w = a.shape[0], a[tails, heads]
    if unweighted:
        w = np.ones_like(w)
    if not directed:
        tails, heads, w = np.concatenate([tails, heads]), np.concatenate([heads, tails]), np.concatenate([w, w])
    return n, tails.astype(np.int32), heads.astype(np.int32), w


def _graph(n, tails, heads, w):
    """The libgsp graph: int32 weights when all are integers and no path can overflow, else float32."""
    exact = w.size == 0 or (np.all(w == np.round(w)) and np.abs(w).max() * max(n - 1, 1) < _ffi.GSP_I32_INF)
    if exact:
        return Graph(n, tails, heads, w.astype(np.int32), dtype=_ffi.GSP_I32)
    return Graph(n, tails, heads, w.astype(np.float32), dtype=_ffi.GSP_F32)


def _sources(indices, n):
    """(vertex ids as int32, whether the caller gave one scalar index)."""
    if indices is None:
        return np.arange(n, dtype=np.int32), False
    idx = np.asarray(indices)
    scalar = idx.ndim == 0
    idx = np.atleast_1d(idx).astype(np.int64)
    if idx.ndim != 1:
        raise ValueError("indices must be a scalar or a one-dimensional array")
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise ValueError("indices out of range 0...N")
    return np.where(idx < 0, idx + n, idx).astype(np.int32), scalar


def _rows(paths, sources, n, with_pred):
    dist = np.empty((len(sources), n), dtype=np.float64)
    pred = np.empty((len(sources), n), dtype=np.int32) if with_pred else None
    for i, s in enumerate(sources):
        d = np.asarray(paths.distances(int(s)))
        if d.dtype.kind == "i":
            d = np.where(d == _ffi.GSP_I32_INF, np.inf, d.astype(np.float64))
        dist[i] = d
        if with_pred:
            p = np.asarray(paths.predecessors(int(s)), dtype=np.int32)
            pred[i] = np.where(p < 0, NO_PREDECESSOR, p)
    return dist, pred


def _run(csgraph, algorithm, directed, indices, return_predecessors, unweighted, options):
    n, tails, heads, w = _arcs(csgraph, directed, unweighted)
    sources, scalar = _sources(indices, n)
    unique, inverse = np.unique(sources, return_inverse=True)
    opts = dict(options)
    opts.setdefault("no_paths", not return_predecessors)
    try:
        with _graph(n, tails, heads, w) as g:
            if algorithm == _ffi.GSP_SSSP_BELLMAN_FORD:
                dist = np.empty((len(unique), n))
                pred = np.empty((len(unique), n), dtype=np.int32) if return_predecessors else None
                for i, s in enumerate(unique):
                    with g.sssp(int(s), algorithm=algorithm, **opts) as p:
                        d, pr = _rows(p, [s], n, return_predecessors)
                    dist[i] = d[0]
                    if return_predecessors:
                        pred[i] = pr[0]
            else:
                every = indices is None
                with g.apsp(None if every else unique, algorithm=algorithm, **opts) as p:
                    dist, pred = _rows(p, unique, n, return_predecessors)
    except GspError as e:
        if e.status == _ffi.GSP_ERR_NEGATIVE_CYCLE:
            raise NegativeCycleError(e.status, e.message) from None
        raise
    dist = dist[inverse]
    pred = pred[inverse] if return_predecessors else None
    if scalar:
        dist = dist[0]
        pred = pred[0] if return_predecessors else None
    return (dist, pred) if return_predecessors else dist


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None, **options):
    """As scipy.sparse.csgraph.shortest_path; method: 'auto', 'FW', 'D', 'BF' or 'J'."""
    del overwrite  # the input is never modified
    if method not in _METHODS:
        raise ValueError("unrecognized method '%s'" % method)
    return _run(csgraph, _METHODS[method], directed, indices, return_predecessors, unweighted, options)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=np.inf,
             min_only=False, **options):
    """As scipy.sparse.csgraph.dijkstra (without limit and min_only)."""
    if limit != np.inf or min_only:
        raise NotImplementedError("gsp.csgraph.dijkstra: limit and min_only are not offered")
    return _run(csgraph, _METHODS["D"], directed, indices, return_predecessors, unweighted, options)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, **options):
    """As scipy.sparse.csgraph.bellman_ford."""
    return _run(csgraph, _METHODS["BF"], directed, indices, return_predecessors, unweighted, options)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, **options):
    """As scipy.sparse.csgraph.johnson."""
    return _run(csgraph, _METHODS["J"], directed, indices, return_predecessors, unweighted, options)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False,
                   **options):
    """As scipy.sparse.csgraph.floyd_warshall."""
    del overwrite
    return _run(csgraph, _METHODS["FW"], directed, None, return_predecessors, unweighted, options)
