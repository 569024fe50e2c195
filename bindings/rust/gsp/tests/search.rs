//! Tests of the f64 weight type (GSP_F64), the distance limit
//! (`Options::limit`) and nearest-source searches (`Graph::nearest`), on the
//! CPU and, where usable, on CUDA.
use gsp::{Algorithm, Backend, Distances, Error, Format, Graph, Nearest, Options, RowDistances, WeightType, Weights};

const INF: f64 = f64::INFINITY;
const N: i32 = 5;
const SRC: [i32; 4] = [0, 1, 2, 0];
const DST: [i32; 4] = [1, 2, 3, 3];
const W: [f32; 4] = [1.0, 2.0, 3.0, 10.0];
const DIST0: [f64; 5] = [0.0, 1.0, 3.0, 6.0, INF];
// f64 weights no f32 holds: 0.1 + 0.2 is 0.30000000000000004 in f64 only.
const W64: [f64; 4] = [0.1, 0.2, 0.4, 5.0];

fn graph() -> Graph {
    Graph::new(N, &SRC, &DST, Weights::F32(&W), false).unwrap()
}

fn graph64() -> Graph {
    Graph::new(N, &SRC, &DST, Weights::F64(&W64), false).unwrap()
}

/// The distances from 0 in graph64(), as f64 sums in path order.
fn dist64() -> Vec<f64> {
    vec![0.0, 0.1, 0.1 + 0.2, 0.1 + 0.2 + 0.4, INF]
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

#[test]
fn f64_constant() {
    assert_eq!(gsp_sys::GSP_F64, 3);
    assert!(gsp_sys::CONSTANTS.contains(&("GSP_F64", 3)));
}

#[test]
fn f64_graph_and_csr() {
    let g = graph64();
    assert_eq!((g.num_vertices(), g.num_edges(), g.weight_type()), (N, 4, WeightType::F64));
    assert_eq!(WeightType::F64.size(), 8);
    let csr = g.csr().unwrap();
    assert_eq!(csr.offsets, vec![0, 2, 3, 4, 4, 4]);
    let w = csr.weights.as_f64().expect("f64 weights come back as f64");
    assert_eq!(csr.weights.weight_type(), WeightType::F64);
    let mut sorted = w.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(sorted, W64.to_vec());
    let g2 = Graph::from_csr(N, &csr.offsets, &csr.targets, Weights::F64(w), false).unwrap();
    assert_eq!(g2.weight_type(), WeightType::F64);
    assert_eq!(g2.sssp(0, &Options::default()).unwrap().distances(0).unwrap(), Distances::F64(dist64()));

    let gu = Graph::new(3, &[0, 1], &[1, 2], Weights::Unit(WeightType::F64), true).unwrap();
    assert_eq!(gu.weight_type(), WeightType::F64);
    assert_eq!(gu.sssp(2, &Options::default()).unwrap().distances(2).unwrap(), Distances::F64(vec![2.0, 1.0, 0.0]));
    let e = Graph::new(3, &[0], &[1], Weights::F64(&[1.0, 2.0]), false).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
    let e = Graph::new(2, &[0], &[1], Weights::F64(&[f64::NAN]), false).err().unwrap();
    assert!(e.status() == Error::INVALID_ARGUMENT || e.status() == Error::INVALID_GRAPH, "{e}");
}

#[test]
fn f64_file_roundtrip() {
    let dir = std::env::temp_dir().join(format!("gsp-rust-f64-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.txt");
    std::fs::write(&path, "0 1 0.1\n1 2 0.2\n").unwrap();
    let g = Graph::load(&path, Format::EdgeList, WeightType::F64, false).unwrap();
    assert_eq!(g.weight_type(), WeightType::F64);
    let p = g.sssp(0, &Options::default()).unwrap();
    assert_eq!(p.distance(0, 2).unwrap(), 0.1 + 0.2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn f64_every_sssp_and_apsp_algorithm() {
    let g = graph64();
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(gsp::Kind::SSSP)) {
            let p = match g.sssp(0, &Options::new().backend(b).algorithm(a)) {
                Ok(p) => p,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            assert_eq!(p.weight_type(), WeightType::F64);
            let d = p.distances(0).unwrap();
            assert_eq!(d.as_f64().unwrap(), &dist64()[..], "{b:?} {a:?}");
            assert_eq!(p.distance(0, 3).unwrap(), 0.1 + 0.2 + 0.4, "{b:?} {a:?}");
            assert_eq!(p.distance(0, 4).unwrap(), INF);
            assert_eq!(p.path(0, 3).unwrap(), vec![0, 1, 2, 3]);
            assert_eq!(p.info().unwrap().weight_type, WeightType::F64);
        }
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(gsp::Kind::APSP)) {
            let p = match g.apsp(None, &Options::new().backend(b).algorithm(a)) {
                Ok(p) => p,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            assert_eq!(p.distances(0).unwrap(), Distances::F64(dist64()), "{b:?} {a:?}");
            assert_eq!(p.distances(1).unwrap().to_f64(), vec![INF, 0.0, 0.2, 0.2 + 0.4, INF], "{b:?} {a:?}");
        }
    }
    assert!(ran > 2);
}

#[test]
fn f64_table_and_stream() {
    let g = graph64();
    let t = g.table(&[1, 0], &[3, 0], &Options::default()).unwrap();
    assert_eq!(t.weight_type(), WeightType::F64);
    assert_eq!(t.distances().unwrap(), Distances::F64(vec![0.2 + 0.4, INF, 0.1 + 0.2 + 0.4, 0.0]));
    assert_eq!(t.distance(1, 0).unwrap(), 0.1 + 0.2 + 0.4);
    assert_eq!(t.distance(0, 1).unwrap(), INF);
    assert_eq!(t.path(1, 0).unwrap(), vec![0, 1, 2, 3]);
    let (d, info) = g.table_distances(&[0], &[2, 4], &Options::default()).unwrap();
    assert_eq!(d, Distances::F64(vec![0.1 + 0.2, INF]));
    assert_eq!(info.weight_type, WeightType::F64);

    let mut row = Vec::new();
    g.apsp_stream(Some(&[0]), &Options::default(), |b| {
        match b.distances {
            RowDistances::F64(d) => row = d.to_vec(),
            _ => panic!("an f64 graph streams f64 rows"),
        }
        false
    })
    .unwrap();
    assert_eq!(row, dist64());
}

#[test]
fn limit_bounds_every_run() {
    assert_eq!(Options::default().limit, None);
    let g = graph();
    // Default (no limit), an infinite limit, and a limit beyond every distance change nothing.
    for o in [Options::default(), Options::new().limit(INF), Options::new().limit(100.0)] {
        assert_eq!(g.sssp(0, &o).unwrap().distances(0).unwrap().to_f64(), DIST0);
    }
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(gsp::Kind::SSSP)) {
            let o = Options::new().backend(b).algorithm(a).limit(3.0);
            let p = match g.sssp(0, &o) {
                Ok(p) => p,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            // 3 is within the limit (at most), 6 beyond it.
            assert_eq!(p.distances(0).unwrap().to_f64(), vec![0.0, 1.0, 3.0, INF, INF], "{b:?} {a:?}");
            assert_eq!(p.path(0, 2).unwrap(), vec![0, 1, 2]);
            assert_eq!(p.path(0, 3).unwrap_err().status(), Error::NO_PATH);
            assert_eq!(p.predecessors(0).unwrap()[3], -1);
        }
    }
    assert!(ran > 1);
    let p = g.apsp(Some(&[1, 0]), &Options::new().limit(2.0)).unwrap();
    assert_eq!(p.distances(1).unwrap().to_f64(), vec![INF, 0.0, 2.0, INF, INF]);
    assert_eq!(p.distances(0).unwrap().to_f64(), vec![0.0, 1.0, INF, INF, INF]);
    let t = g.table(&[0, 2], &[2, 3], &Options::new().limit(3.0)).unwrap();
    assert_eq!(t.distances().unwrap().to_f64(), vec![3.0, INF, 0.0, 3.0]);
    let (d, _) = g.table_distances(&[0], &[1, 3], &Options::new().limit(0.5)).unwrap();
    assert_eq!(d.to_f64(), vec![INF, INF]);
    let mut rows = 0;
    g.apsp_stream(Some(&[0]), &Options::new().limit(1.0), |b| {
        if let RowDistances::F32(d) = b.distances {
            assert_eq!(d, &[0.0, 1.0, f32::INFINITY, f32::INFINITY, f32::INFINITY]);
            rows += 1;
        }
        false
    })
    .unwrap();
    assert_eq!(rows, 1);

    // The unreachable value of each type.
    let gi = Graph::new(3, &[0, 1], &[1, 2], Weights::I32(&[4, 5]), false).unwrap();
    let d = gi.sssp(0, &Options::new().limit(4.0)).unwrap().distances(0).unwrap();
    assert_eq!(d, Distances::I32(vec![0, 4, gsp::I32_INF]));
    let d = graph64().sssp(0, &Options::new().limit(0.3)).unwrap().distances(0).unwrap();
    assert_eq!(d, Distances::F64(vec![0.0, 0.1, INF, INF, INF])); // 0.1 + 0.2 > 0.3 in f64
    let d = graph64().sssp(0, &Options::new().limit(0.1 + 0.2)).unwrap().distances(0).unwrap();
    assert_eq!(d, Distances::F64(vec![0.0, 0.1, 0.1 + 0.2, INF, INF]));
}

#[test]
fn limit_errors() {
    let g = graph();
    for bad in [f64::NAN, -1.0] {
        let e = g.sssp(0, &Options::new().limit(bad)).err().unwrap();
        assert_eq!(e.status(), Error::INVALID_ARGUMENT, "limit {bad}: {e}");
        assert!(!e.message().is_empty());
        let e = g.nearest(&[0], &Options::new().limit(bad)).unwrap_err();
        assert_eq!(e.status(), Error::INVALID_ARGUMENT, "limit {bad}: {e}");
    }
    let neg = Graph::new(2, &[0], &[1], Weights::F32(&[-1.0]), false).unwrap();
    let o = Options::new().backend(Backend::CPU).algorithm(Algorithm::SSSP_BELLMAN_FORD);
    assert!(neg.sssp(0, &o).is_ok());
    let e = neg.sssp(0, &o.limit(5.0)).err().unwrap();
    assert_eq!(e.status(), Error::NEGATIVE_WEIGHT, "{e}");
}

fn check_nearest(r: &Nearest, what: &str) {
    // Sources 2 and 0 of graph(): 3 is nearer to 2 (3) than to 0 (6); 4 is reached by none.
    assert_eq!(r.distances.to_f64(), vec![0.0, 1.0, 0.0, 3.0, INF], "{what}");
    assert_eq!(r.nearest, vec![0, 0, 2, 2, -1], "{what}");
}

#[test]
fn nearest_every_algorithm() {
    let g = graph();
    let mut ran = 0;
    for b in backends() {
        for a in std::iter::once(Algorithm::AUTO).chain(Algorithm::of_kind(gsp::Kind::SSSP)) {
            let r = match g.nearest(&[2, 0], &Options::new().backend(b).algorithm(a)) {
                Ok(r) => r,
                Err(e) => {
                    assert!(not_offered(&e), "{b:?} {a:?}: {e}");
                    continue;
                }
            };
            ran += 1;
            check_nearest(&r, &format!("{b:?} {a:?}"));
            assert_eq!(r.predecessors.as_deref(), Some(&[-1, 0, -1, 2, -1][..]), "{b:?} {a:?}");
            assert_eq!(r.path(3), Some(vec![2, 3]));
            assert_eq!(r.path(1), Some(vec![0, 1]));
            assert_eq!(r.path(0), Some(vec![0]));
            assert_eq!(r.path(4), None);
            assert_eq!(r.path(N), None);
        }
    }
    assert!(ran > 1);
}

#[test]
fn nearest_options_types_and_errors() {
    let g = graph();
    // Repeats allowed; no_paths gives no predecessors.
    let r = g.nearest(&[0, 2, 2], &Options::new().no_paths(true)).unwrap();
    check_nearest(&r, "no_paths");
    assert_eq!(r.predecessors, None);
    assert_eq!(r.path(3), None);
    // The limit applies.
    let r = g.nearest(&[2, 0], &Options::new().limit(1.0)).unwrap();
    assert_eq!(r.distances.to_f64(), vec![0.0, 1.0, 0.0, INF, INF]);
    assert_eq!(r.nearest, vec![0, 0, 2, -1, -1]);
    assert_eq!(r.predecessors.as_deref(), Some(&[-1, 0, -1, -1, -1][..]));
    // One source is an SSSP.
    let r = g.nearest(&[0], &Options::default()).unwrap();
    assert_eq!(r.distances.to_f64(), DIST0);
    assert_eq!(r.nearest, vec![0, 0, 0, 0, -1]);
    // Each weight type gives distances of its type.
    let gi = Graph::new(4, &[0, 1, 3], &[1, 2, 2], Weights::I32(&[4, 5, 7]), false).unwrap();
    let r = gi.nearest(&[0, 3], &Options::default()).unwrap();
    assert_eq!(r.distances, Distances::I32(vec![0, 4, 7, 0]));
    assert_eq!(r.nearest, vec![0, 0, 3, 3]);
    let r = gi.nearest(&[1], &Options::default()).unwrap();
    assert_eq!(r.distances, Distances::I32(vec![gsp::I32_INF, 0, 5, gsp::I32_INF]));
    assert_eq!(r.nearest, vec![-1, 1, 1, -1]);
    let r = graph64().nearest(&[1, 3], &Options::default()).unwrap();
    assert_eq!(r.distances, Distances::F64(vec![INF, 0.0, 0.2, 0.0, INF]));
    assert_eq!(r.nearest, vec![-1, 1, 1, 3, -1]);
    // Errors.
    for bad in [&[][..], &[N][..], &[-1][..], &[0, 7][..]] {
        let e = g.nearest(bad, &Options::default()).unwrap_err();
        assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{bad:?}: {e}");
        assert!(!e.message().is_empty());
    }
    let e = g.nearest(&[0], &Options::new().algorithm(Algorithm::APSP_FLOYD_WARSHALL)).unwrap_err();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{e}");
    let neg = Graph::new(2, &[0], &[1], Weights::F32(&[-1.0]), false).unwrap();
    let e = neg.nearest(&[0], &Options::new().backend(Backend::CPU).algorithm(Algorithm::SSSP_DIJKSTRA)).unwrap_err();
    assert_eq!(e.status(), Error::NEGATIVE_WEIGHT, "{e}");
    let cyc = Graph::new(2, &[0, 1], &[1, 0], Weights::F32(&[1.0, -2.0]), false).unwrap();
    let o = Options::new().backend(Backend::CPU).algorithm(Algorithm::SSSP_BELLMAN_FORD);
    assert_eq!(cyc.nearest(&[0], &o).unwrap_err().status(), Error::NEGATIVE_CYCLE);
}
