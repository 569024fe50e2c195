//! Tests of the safe crate (cargo test --offline), on the CPU and, where
//! usable, on CUDA.
use gsp::{Algorithm, Backend, Distances, Error, Format, Graph, Kind, Options, RowDistances, WeightType, Weights};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const INF: f64 = f64::INFINITY;
const N: i32 = 5;
const SRC: [i32; 4] = [0, 1, 2, 0];
const DST: [i32; 4] = [1, 2, 3, 3];
const W: [f32; 4] = [1.0, 2.0, 3.0, 10.0];
const DIST0: [f64; 5] = [0.0, 1.0, 3.0, 6.0, INF];

fn graph() -> Graph {
    Graph::new(N, &SRC, &DST, Weights::F32(&W), false).unwrap()
}

fn backends() -> Vec<Backend> {
    let mut b = vec![Backend::CPU];
    if gsp::backend_available(Backend::CUDA) {
        b.push(Backend::CUDA);
    }
    b
}

fn not_offered(e: &Error) -> bool {
    e.status() == Error::UNSUPPORTED || e.status() == Error::NO_DEVICE
}

/// Every algorithm the library names (any id up to 255) is listed once by
/// `Algorithm::of_kind` of its kind and round-trips by name and C name; the
/// crate's named lists are of their kinds.
#[test]
fn algorithm_lists() {
    let listed: Vec<Algorithm> = [Kind::AUTO, Kind::SSSP, Kind::APSP, Kind::INDEX]
        .iter()
        .flat_map(|&k| Algorithm::of_kind(k))
        .collect();
    assert_eq!(listed.len(), Algorithm::all().len());
    for (named, kind) in [(&Algorithm::SSSP[..], Kind::SSSP), (&Algorithm::APSP[..], Kind::APSP), (&Algorithm::INDEX[..], Kind::INDEX)] {
        for a in named {
            assert_eq!(a.kind(), kind, "{a:?}");
        }
    }
    assert_eq!(Algorithm::SSSP_DIJKSTRA.identifier(), "GSP_SSSP_DIJKSTRA");
    assert!(Algorithm::SSSP_DIJKSTRA.summary().starts_with("SSSP, w >= 0: "));
    assert!(Algorithm::SSSP_BELLMAN_FORD.accepts_negative_weights() && !Algorithm::SSSP_DIJKSTRA.accepts_negative_weights());
    assert!(Algorithm::SSSP_DIJKSTRA.has_engine(Backend::CPU) && !Algorithm::SSSP_HARISH.has_engine(Backend::CPU));
    assert_eq!(Algorithm(1000).kind(), Kind::UNKNOWN);
    for id in 0..256 {
        let a = Algorithm(id);
        let count = listed.iter().filter(|&&x| x == a).count();
        let name = a.name();
        if name == "unknown" {
            assert_eq!(count, 0, "{id} is listed but the library has no such algorithm");
            continue;
        }
        assert_eq!(count, 1, "algorithm {id} ({name}) is listed {count} times");
        assert_eq!(Algorithm::from_name(&name).unwrap(), a);
        assert!(gsp_sys::ALGORITHMS.iter().all(|&(c, v)| v != id as i64 || c == a.identifier()));
    }
    assert_eq!(Algorithm::APSP_DELTA_STEPPING.0, 15);
    assert_eq!(Algorithm::APSP_DELTA_STEPPING.name(), "batched-delta-stepping");
    assert_eq!(Algorithm::APSP_SPMM.0, 16);
    assert_eq!(Algorithm::APSP_SPMM.name(), "spmm");
    assert_eq!(Algorithm::CH.0, 17);
    assert_eq!(Algorithm::CH.name(), "ch");
}

#[test]
fn version_and_names() {
    assert_eq!(gsp::version(), (gsp_sys::GSP_VERSION_MAJOR, gsp_sys::GSP_VERSION_MINOR, gsp_sys::GSP_VERSION_PATCH));
    assert_eq!(gsp::status_name(Error::NO_PATH), "GSP_ERR_NO_PATH");
    assert_eq!(Backend::CPU.name(), "cpu");
    let name = Algorithm::SSSP_DIJKSTRA.name();
    assert_eq!(Algorithm::from_name(&name).unwrap(), Algorithm::SSSP_DIJKSTRA);
    let e = Algorithm::from_name("no-such-algorithm").unwrap_err();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
    assert!(!e.message().is_empty());
    assert!(gsp::backend_available(Backend::CPU));
    assert!(gsp::device_count() >= 0);
    gsp::release_cached_memory(); // callable at any time
}

#[test]
fn graph_from_arrays_and_csr() {
    let g = graph();
    assert_eq!((g.num_vertices(), g.num_edges(), g.weight_type()), (N, 4, WeightType::F32));
    let csr = g.csr().unwrap();
    assert_eq!(csr.offsets, vec![0, 2, 3, 4, 4, 4]);
    let g2 = Graph::from_csr(N, &csr.offsets, &csr.targets, Weights::F32(csr.weights.as_f32().unwrap()), false).unwrap();
    assert_eq!(g2.sssp(0, &Options::default()).unwrap().distances(0).unwrap().to_f64(), DIST0);

    let gi = Graph::new(3, &[0, 1], &[1, 2], Weights::I32(&[4, 5]), true).unwrap();
    assert_eq!(gi.num_edges(), 4);
    assert_eq!(gi.sssp(2, &Options::default()).unwrap().distances(2).unwrap(), Distances::I32(vec![9, 5, 0]));
    let gu = Graph::new(3, &[0], &[1], Weights::Unit(WeightType::I32), false).unwrap();
    let d = gu.sssp(0, &Options::default()).unwrap().distances(0).unwrap();
    assert_eq!(d, Distances::I32(vec![0, 1, gsp::I32_INF]));
}

#[test]
fn file_roundtrip() {
    let dir = std::env::temp_dir().join(format!("gsp-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.gr");
    graph().save(&path, Format::Auto).unwrap();
    let g = Graph::load(&path, Format::Dimacs, WeightType::F32, false).unwrap();
    assert_eq!(g.num_vertices(), N);
    assert_eq!(g.sssp(0, &Options::default()).unwrap().distances(0).unwrap().to_f64(), DIST0);
    std::fs::write(dir.join("bad.gr"), "p sp 2 1\nnot an arc\n").unwrap();
    let e = Graph::load(dir.join("bad.gr"), Format::Auto, WeightType::F32, false).err().unwrap();
    assert_eq!(e.status(), Error::PARSE, "{e}");
    let e = Graph::load("/nonexistent/g.gr", Format::Auto, WeightType::F32, false).err().unwrap();
    assert_eq!(e.status(), Error::IO);
    assert!(e.message().contains("nonexistent"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input() {
    let e = Graph::new(2, &[0], &[7], Weights::F32(&[1.0]), false).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_GRAPH);
    assert!(!e.message().is_empty());
    assert!(e.to_string().contains(e.message()));
    assert_eq!(Graph::new(0, &[], &[], Weights::Unit(WeightType::F32), false).err().unwrap().status(), Error::INVALID_ARGUMENT);
    assert_eq!(Graph::new(3, &[0, 1], &[1], Weights::Unit(WeightType::F32), false).err().unwrap().status(), Error::INVALID_ARGUMENT);
    assert_eq!(Graph::new(3, &[0], &[1], Weights::F32(&[1.0, 2.0]), false).err().unwrap().status(), Error::INVALID_ARGUMENT);
    let g = graph();
    assert_eq!(g.sssp(99, &Options::default()).err().unwrap().status(), Error::INVALID_ARGUMENT);
    let p = g.sssp(0, &Options::default()).unwrap();
    let e = p.path(0, 4).unwrap_err();
    assert_eq!(e.status(), Error::NO_PATH);
    assert!(!e.message().is_empty());
    assert_eq!(p.distances(1).unwrap_err().status(), Error::INVALID_ARGUMENT);

    let neg = Graph::new(2, &[0], &[1], Weights::F32(&[-1.0]), false).unwrap();
    let o = Options::new().backend(Backend::CPU);
    let e = neg.sssp(0, &o.clone().algorithm(Algorithm::SSSP_DIJKSTRA)).err().unwrap();
    assert_eq!(e.status(), Error::NEGATIVE_WEIGHT);
    assert_eq!(neg.sssp(0, &o.clone().algorithm(Algorithm::SSSP_BELLMAN_FORD)).unwrap().distances(0).unwrap().to_f64(), vec![0.0, -1.0]);
    let cyc = Graph::new(2, &[0, 1], &[1, 0], Weights::F32(&[1.0, -2.0]), false).unwrap();
    let e = cyc.sssp(0, &o.algorithm(Algorithm::SSSP_BELLMAN_FORD)).err().unwrap();
    assert_eq!(e.status(), Error::NEGATIVE_CYCLE);
}

#[test]
fn sssp_every_algorithm() {
    let g = graph();
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(Kind::SSSP)) {
            let p = match g.sssp(0, &Options::new().backend(b).algorithm(a)) {
                Ok(p) => p,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            assert_eq!(p.distances(0).unwrap().to_f64(), DIST0, "{b:?} {a:?}");
            assert_eq!(p.path(0, 3).unwrap(), vec![0, 1, 2, 3]);
            assert_eq!(p.distance(0, 3).unwrap(), 6.0);
            assert_eq!(&p.predecessors(0).unwrap()[..4], &[-1, 0, 1, 2]);
            let info = p.info().unwrap();
            assert_eq!(info.backend, b);
            if a != Algorithm::AUTO {
                assert_eq!(info.algorithm, a);
            }
            assert_eq!((info.num_vertices, info.num_sources, info.has_paths), (N, 1, true));
            // CUDA devices the run used: 0 on the CPU, at least 1 on CUDA
            assert_eq!(info.num_devices == 0, info.backend == Backend::CPU, "{info:?}");
        }
    }
    assert!(ran > 1);
}

#[test]
fn num_devices() {
    assert_eq!(Options::default().num_devices, 0); // AUTO chooses
    assert_eq!(Options::new().num_devices(3).num_devices, 3);
    let g = graph();
    let p = g.sssp(0, &Options::new().backend(Backend::CPU).num_devices(0)).unwrap();
    assert_eq!(p.info().unwrap().num_devices, 0); // no CUDA device on the CPU
    let e = g.sssp(0, &Options::new().num_devices(-1)).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{e}");
    // A stream belongs to one device.
    let o = Options { cuda_stream: Some(std::ptr::NonNull::dangling()), ..Options::new().num_devices(2) };
    let e = g.sssp(0, &o).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{e}");
}

#[test]
fn apsp_every_algorithm() {
    let g = graph();
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(Kind::APSP)) {
            let p = match g.apsp(None, &Options::new().backend(b).algorithm(a)) {
                Ok(p) => p,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            assert_eq!(p.sources(), (0..N).collect::<Vec<_>>());
            assert_eq!(p.distances(0).unwrap().to_f64(), DIST0);
            assert_eq!(p.distances(1).unwrap().to_f64(), vec![INF, 0.0, 2.0, 5.0, INF]);
            assert_eq!(p.path(1, 3).unwrap(), vec![1, 2, 3]);
        }
    }
    assert!(ran > 1);
}

#[test]
fn run_info_stages() {
    // doc/run-info.md: the CPU Floyd-Warshall times its set-up, k-steps,
    // predecessor pass (with paths only) and copy into the result's rows;
    // the stages are parts of `seconds`.
    let g = graph();
    for no_paths in [false, true] {
        let o = Options { backend: Backend::CPU, algorithm: Algorithm::APSP_FLOYD_WARSHALL, no_paths, ..Options::default() };
        let i = g.apsp(None, &o).unwrap().info().unwrap();
        let stages = [i.setup_seconds, i.compute_seconds, i.copy_seconds, i.paths_seconds];
        assert!(stages[..3].iter().all(|&t| t > 0.0), "{stages:?}");
        assert_eq!(i.paths_seconds > 0.0, !no_paths, "{stages:?}");
        assert!(stages.iter().sum::<f64>() <= i.seconds * 1.001 + 1e-6, "{stages:?} vs {}", i.seconds);
    }
}

#[test]
fn apsp_options_and_stream() {
    let g = graph();
    let o = Options { no_paths: true, num_threads: 1, algorithm: Algorithm::APSP_FLOYD_WARSHALL, ..Options::default() };
    let p = g.apsp(Some(&[2, 0]), &o).unwrap();
    assert_eq!(p.sources(), vec![2, 0]);
    assert!(!p.info().unwrap().has_paths);
    assert_eq!(p.path(0, 3).unwrap_err().status(), Error::UNSUPPORTED);

    let mut rows = vec![Vec::new(); 3];
    g.apsp_stream(Some(&[0, 1, 3]), &Options::default(), |b| {
        let n = N as usize;
        for r in 0..b.num_rows {
            if let RowDistances::F32(d) = b.distances {
                rows[b.first_source_index + r] = d[r * n..(r + 1) * n].iter().map(|&x| x as f64).collect();
            }
        }
        assert!(b.predecessors.is_some());
        false
    })
    .unwrap();
    assert_eq!(rows[0], DIST0);
    assert_eq!(rows[2], vec![INF, INF, INF, 0.0, INF]);
    let e = g.apsp_stream(None, &Options::default(), |_| true).unwrap_err();
    assert_eq!(e.status(), Error::CANCELLED);
    let r = std::panic::catch_unwind(|| g.apsp_stream(None, &Options::default(), |_| panic!("from the callback")));
    assert!(r.is_err(), "a panic in the callback reaches the caller");
}

#[test]
fn stream_any_order() {
    // GSP_ROWS_ANY_ORDER: every row once, each block at its first index (on
    // the CPU still in order); the other runs ignore it.
    assert_eq!(gsp_sys::GSP_ROWS_ANY_ORDER, 2);
    assert!(!Options::default().any_order);
    let g = graph();
    let o = Options::new().backend(Backend::CPU).any_order(true);
    let mut rows = vec![Vec::new(); 3];
    let mut firsts = Vec::new();
    g.apsp_stream(Some(&[0, 1, 3]), &o, |b| {
        let n = N as usize;
        firsts.push(b.first_source_index);
        for r in 0..b.num_rows {
            assert!(rows[b.first_source_index + r].is_empty(), "row {} twice", b.first_source_index + r);
            if let RowDistances::F32(d) = b.distances {
                rows[b.first_source_index + r] = d[r * n..(r + 1) * n].iter().map(|&x| x as f64).collect();
            }
        }
        false
    })
    .unwrap();
    assert_eq!(rows[0], DIST0);
    assert_eq!(rows[2], vec![INF, INF, INF, 0.0, INF]);
    assert!(rows.iter().all(|r| !r.is_empty()));
    assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{firsts:?}");
    assert_eq!(g.apsp(Some(&[0]), &o).unwrap().distances(0).unwrap().to_f64(), DIST0);
    let e = g.apsp_stream(None, &Options::new().any_order(true), |_| true).unwrap_err();
    assert_eq!(e.status(), Error::CANCELLED);
}

#[test]
fn table_every_algorithm() {
    let g = graph();
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(Kind::APSP)) {
            let t = match g.table(&[1, 0], &[3, 0, 3], &Options::new().backend(b).algorithm(a)) {
                Ok(t) => t,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            assert_eq!((t.num_sources(), t.num_targets(), t.weight_type()), (2, 3, WeightType::F32));
            assert_eq!(t.distances().unwrap().to_f64(), vec![5.0, INF, 5.0, 6.0, 0.0, 6.0], "{b:?} {a:?}");
            assert_eq!(t.path(1, 2).unwrap(), vec![0, 1, 2, 3]); // sources[1] = 0 to targets[2] = 3
            assert_eq!(t.path(1, 1).unwrap(), vec![0]);
            assert_eq!(t.path(0, 1).unwrap_err().status(), Error::NO_PATH);
            let info = t.info().unwrap();
            assert_eq!((info.backend, info.num_sources, info.num_vertices, info.has_paths), (b, 2, N, true));
        }
    }
    assert!(ran > 1);
}

#[test]
fn table_cells_and_errors() {
    let g = graph();
    let t = g.table(&[0, 2], &[3, 4], &Options::new().num_threads(1)).unwrap();
    assert_eq!(t.distance(1, 0).unwrap(), 3.0);
    assert_eq!(t.distance(0, 1).unwrap(), INF);
    assert_eq!(t.distance(2, 0).unwrap_err().status(), Error::INVALID_ARGUMENT);
    assert_eq!(t.path(0, 2).unwrap_err().status(), Error::INVALID_ARGUMENT);
    drop(g); // the table outlives its graph
    assert_eq!(t.path(1, 0).unwrap(), vec![2, 3]);
    let t = std::thread::spawn(move || {
        assert_eq!(t.distances().unwrap().to_f64(), vec![6.0, INF, 3.0, INF]);
        t
    })
    .join()
    .unwrap();
    drop(t);

    let g = graph();
    let t = g.table(&[0], &[3], &Options::new().no_paths(true)).unwrap();
    assert_eq!(t.path(0, 0).unwrap_err().status(), Error::UNSUPPORTED);
    assert!(!t.info().unwrap().has_paths);
    let (d, info) = g.table_distances(&[1, 1], &[0, 3, 2], &Options::new().backend(Backend::CPU)).unwrap();
    assert_eq!(d.to_f64(), vec![INF, 5.0, 2.0, INF, 5.0, 2.0]);
    assert_eq!((info.num_sources, info.has_paths), (2, false));
    let gi = Graph::new(3, &[0, 1], &[1, 2], Weights::I32(&[4, 5]), false).unwrap();
    let (d, _) = gi.table_distances(&[2, 0], &[0, 2], &Options::default()).unwrap();
    assert_eq!(d, Distances::I32(vec![gsp::I32_INF, 0, 0, 9]));
    let empty = g.table(&[], &[1, 2], &Options::default()).unwrap();
    assert_eq!((empty.num_sources(), empty.num_targets(), empty.distances().unwrap().len()), (0, 2, 0));

    let e = g.table(&[0], &[3, N], &Options::default()).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
    assert!(!e.message().is_empty());
    let e = g.table_distances(&[-1], &[3], &Options::default()).unwrap_err();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
    let sssp = Options::new().algorithm(Algorithm::SSSP_DIJKSTRA).backend(Backend::CPU);
    let e = g.table(&[0], &[3], &sssp).err().unwrap();
    assert!(e.status() == Error::INVALID_ARGUMENT || e.status() == Error::UNSUPPORTED, "{e}");
    let cyc = Graph::new(2, &[0, 1], &[1, 0], Weights::F32(&[1.0, -2.0]), false).unwrap();
    assert_eq!(cyc.table(&[0], &[1], &Options::default()).err().unwrap().status(), Error::NEGATIVE_CYCLE);
}

#[test]
fn progress() {
    let g = graph();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let p = g
        .sssp(0, &Options::new().progress(move |f| {
            assert!((0.0..=1.0).contains(&f));
            c.fetch_add(1, Ordering::Relaxed);
            false
        }))
        .unwrap();
    assert_eq!(p.distances(0).unwrap().to_f64(), DIST0);
    if calls.load(Ordering::Relaxed) > 0 {
        let e = g.sssp(0, &Options::new().progress(|_| true)).err().unwrap();
        assert_eq!(e.status(), Error::CANCELLED);
    }
}

#[test]
fn threads_share_graph_and_results() {
    let g = Arc::new(graph());
    let p = Arc::new(g.sssp(0, &Options::default()).unwrap());
    let hs: Vec<_> = (0..4)
        .map(|i| {
            let (g, p) = (g.clone(), p.clone());
            std::thread::spawn(move || {
                for _ in 0..20 {
                    assert_eq!(p.distances(0).unwrap().to_f64(), DIST0);
                    let e = g.sssp(100 + i, &Options::default()).err().unwrap();
                    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
                    assert!(!e.message().is_empty());
                }
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    // results outlive their graph, in either drop order
    drop(g);
    assert_eq!(p.path(0, 3).unwrap(), vec![0, 1, 2, 3]);
}
