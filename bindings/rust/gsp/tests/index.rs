//! Road indexes ([`gsp::Index`], gsp_index.h): runs with an index equal the
//! same runs without it; save/load; corrupt, missing and foreign files; misuse.
use gsp::{Algorithm, Backend, Distances, Error, Graph, Index, Options, WeightType, Weights};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A road-like grid: two-way streets of weight 2..6 and a faster two-way
/// avenue (weight 1) along the middle row.
fn grid_arcs(rows: i32, cols: i32) -> (i32, Vec<i32>, Vec<i32>, Vec<i32>) {
    let (mut s, mut d, mut w) = (vec![], vec![], vec![]);
    let mut street = |u: i32, v: i32, x: i32| {
        s.extend([u, v]);
        d.extend([v, u]);
        w.extend([x, x]);
    };
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                street(v, v + 1, if r == rows / 2 { 1 } else { 2 + (r * 7 + c * 3) % 5 });
            }
            if r + 1 < rows {
                street(v, v + cols, 2 + (r * 5 + c * 11) % 5);
            }
        }
    }
    (rows * cols, s, d, w)
}

fn grid(rows: i32, cols: i32) -> Graph {
    let (n, s, d, w) = grid_arcs(rows, cols);
    let wf: Vec<f32> = w.iter().map(|&x| x as f32).collect();
    Graph::new(n, &s, &d, Weights::F32(&wf), false).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gsp_rust_index_{}_{name}", std::process::id()))
}

#[test]
fn sssp_table_apsp_equal_without_index() {
    let g = grid(6, 7);
    let n = g.num_vertices();
    let ix = Index::build(&g, &Options::new().num_threads(2)).unwrap();
    let size = ix.size();
    assert_eq!(size.num_vertices, n);
    assert!(size.num_arcs > 0 && size.num_shortcuts >= 0, "{size:?}");
    assert!(ix.build_info().unwrap().seconds >= 0.0);
    assert!(format!("{ix:?}").starts_with("Index("));

    let with = Options::new().index(&ix);
    let plain = Options::new().backend(Backend::CPU);
    for s in (0..n).step_by(5) {
        let got = g.sssp(s, &with).unwrap();
        let want = g.sssp(s, &plain).unwrap();
        assert_eq!(got.distances(s).unwrap(), want.distances(s).unwrap(), "source {s}");
        assert_eq!(got.info().unwrap().algorithm, Algorithm::CH);
        let t = n - 1 - s;
        let path = got.path(s, t).unwrap();
        assert_eq!((path[0], *path.last().unwrap()), (s, t));
    }
    let named = g.sssp(3, &with.clone().algorithm(Algorithm::CH)).unwrap();
    assert_eq!(named.info().unwrap().algorithm, Algorithm::CH);

    let (sources, targets) = ([0, 9, 41, 9, 20], [41, 0, 13, 13, 6, 35]);
    let want = g.table(&sources, &targets, &plain).unwrap();
    let got = g.table(&sources, &targets, &with).unwrap();
    assert_eq!(got.distances().unwrap(), want.distances().unwrap());
    for (i, &s) in sources.iter().enumerate() {
        for (j, &t) in targets.iter().enumerate() {
            let p = got.path(i, j).unwrap();
            assert_eq!((p[0], *p.last().unwrap()), (s, t));
        }
    }
    let (d, info) = g.table_distances(&sources, &targets, &with).unwrap();
    assert_eq!(d, want.distances().unwrap());
    assert_eq!(info.algorithm, Algorithm::CH);

    let got = g.apsp(Some(&[4, 0]), &with).unwrap();
    let want = g.apsp(Some(&[4, 0]), &plain).unwrap();
    for s in [4, 0] {
        assert_eq!(got.distances(s).unwrap(), want.distances(s).unwrap());
    }
    let mut rows = 0;
    g.apsp_stream(Some(&[5, 11]), &with.clone().no_paths(true), |b| {
        rows += b.num_rows;
        false
    })
    .unwrap();
    assert_eq!(rows, 2);
}

#[test]
fn int_weights() {
    let (n, s, d, w) = grid_arcs(5, 5);
    let g = Graph::new(n, &s, &d, Weights::I32(&w), false).unwrap();
    assert_eq!(g.weight_type(), WeightType::I32);
    let ix = g.build_index(&Options::default()).unwrap();
    let all: Vec<i32> = (0..n).collect();
    let want = g.table(&all, &all, &Options::default()).unwrap().distances().unwrap();
    let got = g.table(&all, &all, &Options::default().index(&ix)).unwrap().distances().unwrap();
    assert!(matches!(got, Distances::I32(_)));
    assert_eq!(got, want);
}

#[test]
fn save_load_and_bad_files() {
    let g = grid(6, 7);
    let ix = g.build_index(&Options::default()).unwrap();
    let path = tmp("grid.gspi");
    ix.save(&path).unwrap();
    let loaded = Index::load(&g, &path).unwrap();
    assert_eq!(loaded.size(), ix.size());
    assert!(loaded.build_info().is_none());
    let o = Options::new().index(&loaded);
    assert_eq!(
        g.table(&[0, 40], &[41, 2], &o).unwrap().distances().unwrap(),
        g.table(&[0, 40], &[41, 2], &Options::default()).unwrap().distances().unwrap()
    );
    // An equal graph built again takes the same file.
    let again = grid(6, 7);
    let ix3 = Index::load(&again, &path).unwrap();
    assert_eq!(
        again.sssp(0, &Options::new().index(&ix3)).unwrap().distances(0).unwrap(),
        again.sssp(0, &Options::default()).unwrap().distances(0).unwrap()
    );
    // Another graph: refused when loaded and when a run is given the index.
    let other = grid(5, 5);
    let e = Index::load(&other, &path).unwrap_err();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{e}");
    let e = other.sssp(0, &Options::new().index(&ix)).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT, "{e}");

    // Cut short: GSP_ERR_PARSE naming the file.
    let data = std::fs::read(&path).unwrap();
    let cut = tmp("cut.gspi");
    std::fs::write(&cut, &data[..data.len() / 2]).unwrap();
    let e = Index::load(&g, &cut).unwrap_err();
    assert_eq!(e.status(), Error::PARSE, "{e}");
    assert_eq!(e.name(), "GSP_ERR_PARSE");
    assert!(e.message().contains("cut.gspi"), "{e}");
    let e = Index::load(&g, tmp("missing.gspi")).unwrap_err();
    assert_eq!(e.status(), Error::IO, "{e}");
    let e = ix.save("/nonexistent/dir/x.gspi").unwrap_err();
    assert_eq!(e.status(), Error::IO, "{e}");
    std::fs::remove_file(&path).ok();
    std::fs::remove_file(&cut).ok();
}

#[test]
fn misuse_lifetime_and_progress() {
    let g = grid(6, 7);
    // GSP_CH without an index
    let e = g.sssp(0, &Options::new().algorithm(Algorithm::CH)).err().unwrap();
    assert_eq!(e.status(), Error::INVALID_ARGUMENT);
    let neg = Graph::new(2, &[0], &[1], Weights::F32(&[-1.0]), false).unwrap();
    assert_eq!(neg.build_index(&Options::default()).unwrap_err().status(), Error::NEGATIVE_WEIGHT);

    // Options keep the index alive after the Index value is dropped.
    let o = {
        let ix = g.build_index(&Options::default()).unwrap();
        Options::new().index(&ix)
    };
    let want = g.sssp(7, &Options::default()).unwrap().distances(7).unwrap();
    assert_eq!(g.sssp(7, &o).unwrap().distances(7).unwrap(), want);
    // Shared by threads.
    std::thread::scope(|s| {
        for t in 0..4 {
            let (g, o, want) = (&g, &o, &want);
            s.spawn(move || {
                for _ in 0..10 {
                    assert_eq!(&g.sssp(7, o).unwrap().distances(7).unwrap(), want, "thread {t}");
                }
            });
        }
    });

    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let ix = g
        .build_index(&Options::new().progress(move |f| {
            assert!((0.0..=1.0).contains(&f));
            c.fetch_add(1, Ordering::Relaxed);
            false
        }))
        .unwrap();
    assert_eq!(ix.size().num_vertices, g.num_vertices());
    if calls.load(Ordering::Relaxed) > 0 {
        let e = g.build_index(&Options::new().progress(|_| true)).unwrap_err();
        assert_eq!(e.status(), Error::CANCELLED);
    }
}
