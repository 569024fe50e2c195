"""scipy.sparse.csgraph's shortest-path functions, computed by libgsp.

Same names, arguments, results, dtypes, shapes, warnings and exception
types as scipy.sparse.csgraph (checked against scipy 1.10 by
tests/test_csgraph*.py), so a program switches by changing one import:

    from gsp.csgraph import shortest_path   # was: from scipy.sparse.csgraph import shortest_path
    dist, pred = shortest_path(A, directed=False, return_predecessors=True)

The graph, as scipy reads it:

- a dense array (or list of lists): entries within 1e-8 of zero, inf and
  NaN are non-edges; every other entry is an arc;
- a NumPy masked array: masked entries are non-edges (for 'FW', zeros too;
  for 'D', 'BF' and 'J', an unmasked zero is an arc of weight 0, as in scipy);
- a scipy.sparse matrix: every stored entry is an arc, explicit zeros too;
  repeated entries of a CSR/CSC matrix are parallel arcs (the least counts),
  a COO matrix's are summed (scipy's conversion to CSR). 'FW' takes CSR,
  CSC and LIL only (ValueError otherwise, as scipy).

libgsp computes in float64 (gsp.F64 graphs): distances are the same sums
in the same order as scipy's, so they are equal bit for bit except where
two paths of different arcs have lengths within rounding of each other,
and after Johnson's reweighting with negative float weights (scipy adds
and subtracts the potentials; expect 1e-12 relative). Distances come back
as float64 with inf where unreachable; predecessors as int32 with -9999
where there is none. dijkstra's ``limit`` and ``min_only`` run on libgsp's
distance limit and nearest-source search (gsp_search.h). Extra keyword
arguments (backend="cpu"|"cuda"|"auto", num_threads, ...) go to libgsp.

Exceptions: NegativeCycleError is scipy's class where scipy is importable
(``except scipy.sparse.csgraph.NegativeCycleError`` catches ours); libgsp's
argument and graph errors are also ValueErrors, its overflow an
OverflowError; all derive from gsp.GspError.

Remaining differences from scipy 1.10 (each documented where it arises):

- dijkstra with negative weights gives the same UserWarning, then the exact
  shortest paths (scipy's Dijkstra may be wrong there), with ``limit``
  applied to them; a negative cycle raises NegativeCycleError (scipy
  returns whatever its search found);
- bellman_ford(directed=False) and method='BF' undirected: scipy 1.10's
  negative-cycle test rejects some float graphs without a negative cycle
  (a rounding artefact); libgsp answers them;
- a sum beyond the float64 range raises OverflowError (scipy: inf);
- sparse entries of +inf are non-edges (scipy's 'D'/'J' then still name a
  predecessor at distance inf); -inf raises ValueError; NaN is a non-edge;
- lists of lists work with method='auto' (scipy 1.10: AttributeError);
  masked arrays with no mask work with 'D', 'BF', 'J' (scipy 1.10: AxisError);
- dijkstra(min_only=True) without ``indices`` returns shape (N,), as newer
  scipy does (scipy 1.10 fails to reshape);
- where several shortest paths tie, the predecessors may name another.

``overwrite=True`` behaves as scipy's: a dense C-ordered float64 input gets
inf at its non-edges, and with 'FW' the distances.
"""
import ctypes
import warnings

import numpy as np

from . import Graph, GspError, _ffi

try:  # a negative cycle raises an error that scipy's callers already catch
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycle
except ImportError:  # pragma: no cover - depends on the machine
    _ScipyNegativeCycle = Exception

__all__ = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall", "NegativeCycleError",
           "NO_PREDECESSOR"]

NO_PREDECESSOR = -9999  # scipy's value where a vertex has no predecessor
_ITYPE = np.int32  # scipy's index and predecessor type
_METHODS = ("auto", "FW", "D", "BF", "J")
_NEGATIVE_WARNING = ("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                     "negative cycles. Consider johnson or bellman_ford.")


class NegativeCycleError(GspError, _ScipyNegativeCycle):
    """The graph has a negative cycle (also a scipy NegativeCycleError when scipy is installed)."""

    def __init__(self, status, message):
        GspError.__init__(self, status, message)


class CsgraphValueError(GspError, ValueError):
    """libgsp refused an argument or the graph (where scipy raises ValueError)."""


class CsgraphOverflowError(GspError, OverflowError):
    """A distance does not fit in float64 (scipy would report inf)."""


def _translate(e):
    if e.status == _ffi.GSP_ERR_NEGATIVE_CYCLE:
        return NegativeCycleError(e.status, e.message)
    if e.status in (_ffi.GSP_ERR_INVALID_ARGUMENT, _ffi.GSP_ERR_INVALID_GRAPH, _ffi.GSP_ERR_NEGATIVE_WEIGHT):
        return CsgraphValueError(e.status, e.message)
    if e.status == _ffi.GSP_ERR_OVERFLOW:
        return CsgraphOverflowError(e.status, e.message)
    return e


# ------------------------------------------------------------------ input
def _sparse():
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - depends on the machine
        return None
    return sp


def _is_sparse(g):
    sp = _sparse()
    return sp is not None and sp.issparse(g)


def _dense_nonedges(a):
    """scipy's csgraph_masked_from_dense(null_value=0): entries close to 0
    (np.ma.masked_values: |x| <= 1e-8 for floats, == 0 otherwise), inf, NaN."""
    mask = np.ma.getmaskarray(np.ma.masked_values(a, np.float64(0), copy=False, shrink=False))
    return mask | np.isinf(a) | np.isnan(a)


def _square(a):
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    if a.shape[0] != a.shape[1]:
        raise ValueError("graph should be a square array")


def _overwrite_nonedges(csgraph, nonedge):
    """scipy's validate_graph(copy_if_dense=False) writes inf at the non-edges
    of a float64 input it does not copy."""
    base = csgraph.data if np.ma.isMaskedArray(csgraph) else csgraph
    if isinstance(base, np.ndarray) and base.dtype == np.float64 and base.ndim == 2:
        base[nonedge] = np.inf


def _csr_arcs(csgraph, directed, overwrite=False):
    """scipy's validate_graph(dense_output=False): (n, tails, heads, weights
    float64) of the stored arcs, NaN and +inf dropped; the weights before
    dropping (for dijkstra's negative-weight warning)."""
    if _is_sparse(csgraph):
        sp = _sparse()
        g = csgraph.T if (not directed and sp.isspmatrix_csc(csgraph)) else csgraph
        csr = sp.csr_matrix(g, dtype=np.float64)
        if csr.ndim != 2:
            raise ValueError("compressed-sparse graph must be 2-D")
        if csr.shape[0] != csr.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        n = csr.shape[0]
        tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(csr.indptr))
        heads, w = np.asarray(csr.indices, dtype=np.int64), np.asarray(csr.data, dtype=np.float64)
    elif np.ma.isMaskedArray(csgraph):
        data = np.asarray(csgraph.data)
        _square(data)
        nonedge = np.ma.getmaskarray(csgraph)
        if overwrite:
            _overwrite_nonedges(csgraph, nonedge)
        n = data.shape[0]
        tails, heads = np.nonzero(~nonedge)
        w = np.asarray(data[tails, heads], dtype=np.float64)
    else:
        a = np.array(csgraph)
        _square(a)
        nonedge = _dense_nonedges(a)
        if overwrite:
            _overwrite_nonedges(csgraph, nonedge)
        n = a.shape[0]
        tails, heads = np.nonzero(~nonedge)
        w = np.asarray(a[tails, heads], dtype=np.float64)
    raw = w
    if np.any(np.isneginf(w)):
        raise ValueError("gsp.csgraph: a weight of -inf is not supported")
    keep = np.isfinite(w)
    return n, tails[keep], heads[keep], w[keep], raw


def _fw_matrix(csgraph, directed, overwrite=False):
    """scipy's validate_graph(csr_output=False) then floyd_warshall's setup:
    an n x n float64 matrix, inf at non-edges (the least of repeated entries)."""
    if _is_sparse(csgraph):
        sp = _sparse()
        g = csgraph.T if (not directed and sp.isspmatrix_csc(csgraph)) else csgraph
        if g.shape[0] != g.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        if sp.isspmatrix_csc(g) or sp.isspmatrix_lil(g):
            g = g.tocsr()
        elif not sp.isspmatrix_csr(g):
            raise ValueError("csgraph must be lil, csr, or csc format")
        n = g.shape[0]
        tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(g.indptr))
        w = np.asarray(g.data, dtype=np.float64)
        keep = ~np.isnan(w)
        m = np.full((n, n), np.inf)
        np.minimum.at(m, (tails[keep], np.asarray(g.indices)[keep]), w[keep])
    elif np.ma.isMaskedArray(csgraph):
        data = np.asarray(csgraph.data)
        _square(data)
        nonedge = np.ma.getmaskarray(csgraph)
        if overwrite:
            _overwrite_nonedges(csgraph, nonedge)
        m = np.array(data, dtype=np.float64)
        m[nonedge | np.isnan(m) | (m == 0)] = np.inf
    else:
        a = np.array(csgraph)
        _square(a)
        nonedge = _dense_nonedges(a)
        if overwrite:
            _overwrite_nonedges(csgraph, nonedge)
        m = np.array(a, dtype=np.float64)
        m[nonedge | (m == 0)] = np.inf
    if np.any(np.isneginf(m)):
        raise ValueError("gsp.csgraph: a weight of -inf is not supported")
    return m


def _auto_method(csgraph, indices):
    """scipy's choice for method='auto': 'FW' when the graph is dense enough
    and no indices are given, else 'J' with a negative weight, else 'D'."""
    if _is_sparse(csgraph):
        n, nk = csgraph.shape[0], csgraph.nnz
        fmt = csgraph.format
        edges = csgraph.data if fmt in ("csr", "csc", "coo") else csgraph.tocoo().data
    elif np.ma.isMaskedArray(csgraph):
        n, nk, edges = csgraph.shape[0], csgraph.count(), csgraph.compressed()
    else:
        a = np.asarray(csgraph)
        n = a.shape[0]
        edges = a[np.isfinite(a)]
        edges = edges[edges != 0]
        nk = edges.size
    if indices is not None or nk < n * n / 4:
        return "J" if np.any(edges < 0) else "D"
    return "FW"


def _indices(indices, n, min_only=False):
    """scipy's: (sources as int32, shape of the result)."""
    if indices is None:
        idx = np.arange(n, dtype=_ITYPE)
        return idx, ((n,) if min_only else (n, n))
    idx = np.array(indices, order="C", dtype=_ITYPE, copy=True)
    shape = (n,) if min_only else idx.shape + (n,)
    idx = np.atleast_1d(idx).reshape(-1)
    idx[idx < 0] += n
    if np.any(idx < 0) or np.any(idx >= n):
        raise ValueError("indices out of range 0...N")
    return idx, shape


def _both_ways(tails, heads, w, directed):
    if directed:
        return tails, heads, w
    return np.concatenate([tails, heads]), np.concatenate([heads, tails]), np.concatenate([w, w])


def _graph(n, tails, heads, w):
    return Graph(n, np.asarray(tails, dtype=np.int32), np.asarray(heads, dtype=np.int32),
                 np.ascontiguousarray(w, dtype=np.float64), dtype=_ffi.GSP_F64)


def _options(options, **mine):
    opts = dict(options)
    opts.update(mine)
    return opts


def _pred_row(p):
    p = np.asarray(p, dtype=_ITYPE)
    return np.where(p < 0, NO_PREDECESSOR, p).astype(_ITYPE)


def _compute(n, tails, heads, w, sources, algorithm, with_pred, options, limit=None):
    """Rows of distances (and predecessors) from each of ``sources`` (no repeats)."""
    k = len(sources)
    dist = np.full((k, n), np.inf)
    pred = np.full((k, n), NO_PREDECESSOR, dtype=_ITYPE) if with_pred else None
    if k == 0 or n == 0:
        return dist, pred
    extra = {} if limit is None or limit == np.inf else {"limit": limit}
    opts = _options(options, no_paths=not with_pred, algorithm=algorithm, **extra)
    try:
        with _graph(n, tails, heads, w) as g:
            if algorithm == _ffi.GSP_SSSP_BELLMAN_FORD:
                for i, s in enumerate(sources):
                    with g.sssp(int(s), **opts) as p:
                        dist[i] = p.distances(int(s))
                        if with_pred:
                            pred[i] = _pred_row(p.predecessors(int(s)))
            else:
                every = k == n and np.array_equal(sources, np.arange(n))
                with g.apsp(None if every else np.asarray(sources, dtype=np.int32), **opts) as p:
                    for i, s in enumerate(sources):
                        dist[i] = p.distances(int(s))
                        if with_pred:
                            pred[i] = _pred_row(p.predecessors(int(s)))
    except GspError as e:
        raise _translate(e) from None
    return dist, pred


def _rows(n, tails, heads, w, idx, algorithm, with_pred, options, limit=None):
    """_compute over the distinct sources of idx, rows put back in idx's order."""
    unique, inverse = np.unique(idx, return_inverse=True)
    dist, pred = _compute(n, tails, heads, w, unique, algorithm, with_pred, options, limit)
    return dist[inverse], (pred[inverse] if with_pred else None)


def _finish(dist, pred, shape, with_pred):
    dist = dist.reshape(shape)
    if with_pred:
        return dist, pred.reshape(shape)
    return dist


def _drop_self_loops(tails, heads, w, keep_negative):
    keep = tails != heads
    if keep_negative:
        keep |= w < 0
    return tails[keep], heads[keep], w[keep]


# ------------------------------------------------------------------ functions
def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None, **options):
    """As scipy.sparse.csgraph.shortest_path; method: 'auto', 'FW', 'D', 'BF' or 'J'.

    'auto' picks as scipy does ('FW' for dense enough graphs without
    ``indices``, else 'J' with a negative weight, else 'D'). Extra keyword
    arguments go to libgsp (backend, num_threads, ...)."""
    if method == "auto":
        if not _is_sparse(csgraph) and not np.ma.isMaskedArray(csgraph):
            _square(np.asarray(csgraph))
        method = _auto_method(csgraph, indices)
    if method == "FW":
        if indices is not None:
            raise ValueError("Cannot specify indices with method == 'FW'.")
        return floyd_warshall(csgraph, directed, return_predecessors=return_predecessors, unweighted=unweighted,
                              overwrite=overwrite, **options)
    if method not in _METHODS:
        raise ValueError("unrecognized method '%s'" % method)
    if overwrite and not _is_sparse(csgraph):  # scipy's first validate_graph writes inf at non-edges
        _csr_arcs(csgraph, directed, overwrite=True)
    if method == "D":
        return dijkstra(csgraph, directed, indices, return_predecessors, unweighted, **options)
    if method == "BF":
        return bellman_ford(csgraph, directed, indices, return_predecessors, unweighted, **options)
    return johnson(csgraph, directed, indices, return_predecessors, unweighted, **options)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False,
                   **options):
    """As scipy.sparse.csgraph.floyd_warshall (libgsp's blocked Floyd-Warshall).

    Self-loops are ignored (scipy zeroes the diagonal first); with
    ``overwrite=True`` a dense C-ordered float64 input receives the distances."""
    m = _fw_matrix(csgraph, directed, overwrite=overwrite)
    n = m.shape[0]
    if unweighted:
        m[~np.isinf(m)] = 1
    np.fill_diagonal(m, np.inf)  # scipy sets the diagonal to 0: self-loops never count
    if not directed:
        m = np.minimum(m, m.T)
    tails, heads = np.nonzero(np.isfinite(m))
    dist, pred = _compute(n, tails, heads, m[tails, heads], np.arange(n), _ffi.GSP_APSP_FLOYD_WARSHALL,
                          return_predecessors, options)
    if overwrite:
        base = csgraph.data if np.ma.isMaskedArray(csgraph) else csgraph
        if isinstance(base, np.ndarray) and base.dtype == np.float64 and base.flags.c_contiguous \
                and base.shape == dist.shape:
            base[...] = dist
            dist = base.view(np.ndarray)
    return (dist, pred) if return_predecessors else dist


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=np.inf,
             min_only=False, **options):
    """As scipy.sparse.csgraph.dijkstra, ``limit`` and ``min_only`` included.

    ``limit``: vertices farther than it are unreachable (inf, -9999), on
    libgsp's distance limit (gsp_options.limit). ``min_only=True``: one
    nearest-source search from all of ``indices`` (gsp_nearest_run); returns
    the distances, shape (N,), or with ``return_predecessors`` the tuple
    (distances, predecessors, sources), the last naming each vertex's
    nearest source (-9999: none within the limit). Negative weights give
    scipy's UserWarning, then exact shortest paths (scipy's Dijkstra may be
    wrong there) with the limit applied to them; a negative cycle raises
    NegativeCycleError."""
    n, tails, heads, w, raw = _csr_arcs(csgraph, directed)
    if np.any(raw < 0):
        warnings.warn(_NEGATIVE_WARNING, stacklevel=2)
    idx, shape = _indices(indices, n, min_only)
    if isinstance(limit, (str, bytes)):
        raise TypeError("must be real number, not %s" % type(limit).__name__)
    limitf = float(limit)
    if limitf < 0:
        raise ValueError("limit must be >= 0")
    if unweighted:
        w = np.ones_like(w)
    tails, heads, w = _drop_self_loops(tails, heads, w, keep_negative=False)  # Dijkstra never takes one
    tails, heads, w = _both_ways(tails, heads, w, directed)
    negative = bool(np.any(w < 0))
    if np.isnan(limitf):  # scipy: no distance compares <= NaN, so only the sources are reached
        tails, heads, w = tails[:0], heads[:0], w[:0]
        limitf, negative = np.inf, False
    if min_only:
        return _nearest(n, tails, heads, w, idx, shape, return_predecessors, limitf, negative, options)
    if negative:
        dist, pred = _rows(n, tails, heads, w, idx, _ffi.GSP_APSP_JOHNSON, return_predecessors, options)
        far = dist > limitf
        dist[far] = np.inf
        if return_predecessors:
            pred[far] = NO_PREDECESSOR
    else:
        dist, pred = _rows(n, tails, heads, w, idx, _ffi.GSP_APSP_HEAP, return_predecessors, options, limitf)
    return _finish(dist, pred, shape, return_predecessors)


def _nearest(n, tails, heads, w, idx, shape, with_pred, limitf, negative, options):
    dist = np.full(n, np.inf)
    pred = np.full(n, NO_PREDECESSOR, dtype=_ITYPE)
    src = np.full(n, NO_PREDECESSOR, dtype=_ITYPE)
    if len(idx) and n:
        extra = {} if negative or limitf == np.inf else {"limit": limitf}
        if negative:
            extra["algorithm"] = _ffi.GSP_SSSP_BELLMAN_FORD
        try:
            with _graph(n, tails, heads, w) as g:
                d, near, p = g.nearest(np.asarray(idx, dtype=np.int32), paths=with_pred, **_options(options, **extra))
        except GspError as e:
            raise _translate(e) from None
        dist[:] = d
        src[:] = _pred_row(near)
        if with_pred:
            pred[:] = _pred_row(p)
        if negative:
            far = dist > limitf
            dist[far] = np.inf
            src[far] = NO_PREDECESSOR
            pred[far] = NO_PREDECESSOR
    if with_pred:
        return dist.reshape(shape), pred.reshape(shape), src.reshape(shape)
    return dist.reshape(shape)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, **options):
    """As scipy.sparse.csgraph.bellman_ford (libgsp's queue Bellman-Ford, one
    search per source; a negative cycle reachable from a source raises
    NegativeCycleError)."""
    n, tails, heads, w, _ = _csr_arcs(csgraph, directed)
    idx, shape = _indices(indices, n)
    if unweighted:
        w = np.ones_like(w)
    tails, heads, w = _drop_self_loops(tails, heads, w, keep_negative=True)
    tails, heads, w = _both_ways(tails, heads, w, directed)
    dist, pred = _rows(n, tails, heads, w, idx, _ffi.GSP_SSSP_BELLMAN_FORD, return_predecessors, options)
    return _finish(dist, pred, shape, return_predecessors)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, **options):
    """As scipy.sparse.csgraph.johnson (libgsp's Johnson: any negative cycle
    in the graph raises NegativeCycleError). ``unweighted=True`` is
    dijkstra's, as in scipy."""
    if unweighted:
        return dijkstra(csgraph, directed, indices, return_predecessors, unweighted, **options)
    n, tails, heads, w, _ = _csr_arcs(csgraph, directed)
    idx, shape = _indices(indices, n)
    tails, heads, w = _drop_self_loops(tails, heads, w, keep_negative=True)
    tails, heads, w = _both_ways(tails, heads, w, directed)
    dist, pred = _rows(n, tails, heads, w, idx, _ffi.GSP_APSP_JOHNSON, return_predecessors, options)
    return _finish(dist, pred, shape, return_predecessors)
