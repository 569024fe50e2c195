"""Benchmark (not a test; CI does not run it): what the device-array entry
costs over the engine, on a GPU machine with CuPy.

    python3 bench_device_arrays.py GRAPH.gr.gz [SOURCE] [REPEATS]

For F32 and F64 weights: loads the DIMACS graph with gsp.Graph.load, moves
its CSR (Graph.csr()) to CuPy arrays, builds the graph with
Graph.from_device_csr, then times, as the median of REPEATS (20) calls after
a warm-up call:
  device  graph.sssp_device(src, out=cupy array), synchronized
  host    graph.sssp(src) plus the distances copied to a NumPy array
  engine  the engine's seconds of the device call (RunInfo.seconds)
  create  Graph.from_device_csr itself (a one-time cost: the arrays are
          copied to the host, checked and built there)
and prints one line per measurement, with the ratio device call / engine.
With GSP_BENCH_RESULTS set (scripts/bench.sh, make bench) it also appends a
Markdown table to that file.
"""
import os
import statistics
import sys
import time

import gsp


def median_seconds(fn, repeats, sync):
    fn()  # warm-up: uploads, pools, first-run costs
    sync()
    times = []
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    import cupy
    path = argv[1]
    source = int(argv[2]) if len(argv) > 2 else 0
    repeats = int(argv[3]) if len(argv) > 3 else 20
    sync = cupy.cuda.runtime.deviceSynchronize
    rows = []
    for dtype, name in ((gsp.F32, "f32"), (gsp.F64, "f64")):
        with gsp.Graph.load(path, dtype=dtype) as host_graph:
            n, m = host_graph.num_vertices, host_graph.num_edges
            offsets, targets, weights = host_graph.csr()
            d_off, d_tgt, d_w = cupy.asarray(offsets), cupy.asarray(targets), cupy.asarray(weights)
            t_create = median_seconds(lambda: gsp.Graph.from_device_csr(d_off, d_tgt, d_w).close(), 5, sync)
            with gsp.Graph.from_device_csr(d_off, d_tgt, d_w) as g:
                out = cupy.empty(n, dtype=weights.dtype)
                engine = []

                def device_call():
                    _, info = g.sssp_device(source, out=out, return_info=True)
                    engine.append(info.seconds)
                t_dev = median_seconds(device_call, repeats, sync)
                t_eng = statistics.median(engine[1:]) if len(engine) > 1 else engine[0]
                info = g.sssp_device(source, out=out, return_info=True)[1]

                host_info = []

                def host_call():  # no_paths, as sssp_device without predecessors
                    with g.sssp(source, no_paths=True) as p:
                        p.distances(source)
                        if not host_info:
                            host_info.append(p.info())
                t_host = median_seconds(host_call, repeats, sync)
        label = "%s %s n=%d m=%d source=%d (%s/%s)" % (path, name, n, m, source, info.backend_name,
                                                        info.algorithm_name)
        ratio = t_dev / t_eng if t_eng > 0 else float("nan")
        print("%s device sssp_device(out=cupy) median %.6f s  device/engine %.3f" % (label, t_dev, ratio))
        print("%s host   sssp()+distances     median %.6f s  host/engine %.3f  (host ran %s/%s)" %
              (label, t_host, t_host / t_eng if t_eng > 0 else float("nan"), host_info[0].backend_name,
               host_info[0].algorithm_name))
        print("%s engine RunInfo.seconds      median %.6f s" % (label, t_eng))
        print("%s create from_device_csr      median %.6f s (once per graph)" % (label, t_create))
        rows.append((name, n, m, info.backend_name + "/" + info.algorithm_name, t_eng, t_dev, t_host, t_create))
    out = os.environ.get("GSP_BENCH_RESULTS")
    if out:
        with open(out, "a") as f:
            f.write("\n## GPU arrays from Python (bench_device_arrays.py), %s\n\n%s, source %d, CuPy arrays; "
                    "median of %d calls after a warm-up, distances only. \"device call\": "
                    "Graph.sssp_device(out=cupy array), synchronized; \"host call\": Graph.sssp() and the "
                    "distances into NumPy; \"create\": Graph.from_device_csr, once per graph. Issue 31's "
                    "bar: device call at most 1.1x the engine.\n\n"
                    "| weights | n | m | engine | engine ms | device call ms | device/engine | host call ms | "
                    "create ms |\n| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n"
                    % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.path.basename(path), source, repeats))
            for name, n, m, eng, t_eng, t_dev, t_host, t_create in rows:
                f.write("| %s | %d | %d | %s | %.3f | %.3f | %.3f | %.3f | %.1f |\n"
                        % (name, n, m, eng, 1e3 * t_eng, 1e3 * t_dev, t_dev / t_eng, 1e3 * t_host, 1e3 * t_create))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
