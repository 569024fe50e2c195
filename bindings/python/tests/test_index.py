"""Road indexes (gsp.Index, gsp_index.h): runs with index= equal the same
runs without it; save/load; corrupt, missing and foreign files; misuse."""
import os
import tempfile
import unittest

import gsp

INF = float("inf")


def grid(rows, cols, dtype=gsp.F32):
    """A road-like grid: two-way streets of weight 2..6, and a faster
    two-way avenue (weight 1) along the middle row."""
    src, dst, w = [], [], []

    def street(u, v, weight):
        src.extend([u, v])
        dst.extend([v, u])
        w.extend([weight, weight])
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                street(v, v + 1, 1 if r == rows // 2 else 2 + (r * 7 + c * 3) % 5)
            if r + 1 < rows:
                street(v, v + cols, 2 + (r * 5 + c * 11) % 5)
    if dtype != gsp.I32:
        w = [float(x) for x in w]
    return gsp.Graph(rows * cols, src, dst, w, dtype=dtype)


def rows_of(x):
    return [[float(v) for v in row] for row in x]


class TestIndex(unittest.TestCase):
    def setUp(self):
        self.g = grid(6, 7)
        self.n = self.g.num_vertices
        self.ix = self.g.build_index(num_threads=2)
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.ix.close()
        self.g.close()
        self.tmp.cleanup()

    def test_size_and_build_info(self):
        size = self.ix.size()
        self.assertEqual(size.num_vertices, self.n)
        self.assertEqual(size, (self.ix.num_vertices, self.ix.num_arcs, self.ix.num_shortcuts))
        self.assertGreater(size.num_arcs, 0)
        self.assertGreaterEqual(size.num_shortcuts, 0)
        self.assertIsInstance(self.ix.build_info, gsp.RunInfo)
        self.assertGreaterEqual(self.ix.build_info.seconds, 0.0)
        self.assertIn("Index", repr(self.ix))

    def test_sssp_equals_without_index(self):
        for s in range(0, self.n, 5):
            with self.g.sssp(s, backend="cpu") as want, self.g.sssp(s, index=self.ix, num_threads=2) as got:
                self.assertEqual([float(x) for x in got.distances(s)], [float(x) for x in want.distances(s)], s)
                self.assertEqual(got.info().algorithm, gsp.GSP_CH)
                # paths come out as vertices of the graph (shortcuts unpacked) and have the right length
                t = self.n - 1 - s
                path = got.path(s, t)
                self.assertEqual((path[0], path[-1]), (s, t))
                self.assertEqual(len(path), len(set(path)))
        with self.g.sssp(3, index=self.ix, algorithm=gsp.GSP_CH) as p:  # GSP_CH named
            self.assertEqual(p.info().algorithm, gsp.GSP_CH)
        with self.g.sssp(3, index=self.ix, algorithm="ch") as p:  # by name
            self.assertEqual(p.info().algorithm, gsp.GSP_CH)

    def test_table_and_apsp_equal_without_index(self):
        sources, targets = [0, 9, 41, 9, 20], [41, 0, 13, 13, 6, 35]
        want = rows_of(self.g.table(sources, targets))
        self.assertEqual(rows_of(self.g.table(sources, targets, index=self.ix)), want)
        d, paths = self.g.table(sources, targets, paths=True, index=self.ix)
        self.assertEqual(rows_of(d), want)
        for i, s in enumerate(sources):
            for j, t in enumerate(targets):
                self.assertEqual((paths[i][j][0], paths[i][j][-1]), (s, t))
        self.assertEqual(rows_of(self.g.table([17], [30], index=self.ix)), rows_of(self.g.table([17], [30])))
        with self.g.apsp([4, 0], index=self.ix) as got, self.g.apsp([4, 0]) as ref:
            self.assertEqual(got.info().algorithm, gsp.GSP_CH)
            for s in (4, 0):
                self.assertEqual([float(x) for x in got.distances(s)], [float(x) for x in ref.distances(s)])
        rows = {}

        def on_rows(first, dist, pred):
            for k, row in enumerate(dist):
                rows[first + k] = [float(x) for x in row]
        self.g.apsp_stream(on_rows, sources=[5, 11], index=self.ix, no_paths=True)
        with self.g.apsp([5, 11]) as ref:
            self.assertEqual(rows, {0: [float(x) for x in ref.distances(5)], 1: [float(x) for x in ref.distances(11)]})

    def test_int_weights(self):
        with grid(5, 5, gsp.I32) as gi, gsp.Index.build(gi) as ix:
            want = gi.table(range(25), range(25))
            got = gi.table(range(25), range(25), index=ix)
            self.assertEqual([[int(x) for x in r] for r in got], [[int(x) for x in r] for r in want])

    def test_save_load(self):
        path = os.path.join(self.tmp.name, "grid.gspi")
        self.ix.save(path)
        with gsp.Index.load(self.g, path) as ix2:
            self.assertEqual(ix2.size(), self.ix.size())
            self.assertIsNone(ix2.build_info)
            want = rows_of(self.g.table([0, 40], [41, 2]))
            self.assertEqual(rows_of(self.g.table([0, 40], [41, 2], index=ix2)), want)
        # an equal graph built again takes the same file
        with grid(6, 7) as again, gsp.Index.load(again, path) as ix3:
            with again.sssp(0, index=ix3) as p, again.sssp(0) as ref:
                self.assertEqual([float(x) for x in p.distances(0)], [float(x) for x in ref.distances(0)])

    def test_corrupt_and_missing_files(self):
        path = os.path.join(self.tmp.name, "cut.gspi")
        self.ix.save(path)
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:len(data) // 2])  # cut short
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Index.load(self.g, path)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_PARSE)
        self.assertEqual(cm.exception.name, "GSP_ERR_PARSE")
        self.assertIn("cut.gspi", cm.exception.message)
        with self.assertRaises(gsp.GspError) as cm:
            gsp.Index.load(self.g, os.path.join(self.tmp.name, "missing.gspi"))
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_IO)
        with self.assertRaises(gsp.GspError) as cm:
            self.ix.save(os.path.join(self.tmp.name, "no", "such", "dir.gspi"))
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_IO)

    def test_other_graph(self):
        path = os.path.join(self.tmp.name, "grid.gspi")
        self.ix.save(path)
        with grid(5, 5) as other:
            with self.assertRaises(gsp.GspError) as cm:
                gsp.Index.load(other, path)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
            self.assertTrue(cm.exception.message)
            with self.assertRaises(gsp.GspError) as cm:
                other.sssp(0, index=self.ix)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)

    def test_misuse(self):
        with self.assertRaises(gsp.GspError) as cm:  # GSP_CH without an index
            self.g.sssp(0, algorithm=gsp.GSP_CH)
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_INVALID_ARGUMENT)
        with self.assertRaises(TypeError):
            self.g.sssp(0, index="not an index")
        with self.assertRaises(TypeError):
            gsp.Index()
        with self.assertRaises(TypeError):
            gsp.Index.build("not a graph")
        with gsp.Graph(2, [0], [1], [-1.0]) as neg, self.assertRaises(gsp.GspError) as cm:
            neg.build_index()
        self.assertEqual(cm.exception.status, gsp.GSP_ERR_NEGATIVE_WEIGHT)
        ix = self.g.build_index()
        ix.close()
        ix.close()  # idempotent
        self.assertTrue(ix.closed)
        with self.assertRaises(ValueError):
            self.g.sssp(0, index=ix)
        with self.assertRaises(ValueError):
            ix.save(os.path.join(self.tmp.name, "closed.gspi"))
        with self.assertRaises(ValueError):
            ix.size()

    def test_progress(self):
        seen = []
        with self.g.build_index(progress=lambda f: seen.append(f)) as ix:
            self.assertEqual(ix.num_vertices, self.n)
        self.assertTrue(all(0.0 <= f <= 1.0 for f in seen), seen)
        if seen:
            with self.assertRaises(gsp.GspError) as cm:
                self.g.build_index(progress=lambda f: True)
            self.assertEqual(cm.exception.status, gsp.GSP_ERR_CANCELLED)

            def boom(f):
                raise KeyError("from the progress callback")
            with self.assertRaises(KeyError):
                self.g.build_index(progress=boom)


if __name__ == "__main__":
    unittest.main()
