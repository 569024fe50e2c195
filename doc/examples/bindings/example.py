"""libgsp from Python: build a small graph, run SSSP and APSP, print a path."""
import gsp

print("libgsp", gsp.version_string())
with gsp.Graph(4, [0, 1, 2, 0], [1, 2, 3, 3], [1.0, 2.0, 3.0, 10.0]) as g:
    backend = "cuda" if gsp.backend_available("cuda") else "cpu"
    with g.sssp(0, backend=backend) as p:
        info = p.info()
        print("sssp on %s (%s): %s" % (info.device_name, info.algorithm_name, list(p.distances(0))))
        print("path:", p.path(0, 3))
    with g.apsp(algorithm="floyd-warshall", backend="cpu") as p:
        print("apsp rows: %d, d(1,3) = %g" % (p.num_sources, p.distance(1, 3)))
        try:
            p.path(3, 0)
        except gsp.GspError as e:
            print("expected error:", e)
