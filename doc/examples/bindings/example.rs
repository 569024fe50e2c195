//! libgsp from Rust: build a small road graph, run SSSP and APSP, print a path.
//! Built and run by `scripts/check_bindings.sh rust` (cargo run --example example).
use gsp::{Algorithm, Backend, Graph, Options, Weights};

fn main() -> Result<(), gsp::Error> {
    let (major, minor, patch) = gsp::version();
    println!("libgsp {major}.{minor}.{patch}");

    // 0 -> 1 -> 2 -> 3 and a long arc 0 -> 3.
    let g = Graph::new(4, &[0, 1, 2, 0], &[1, 2, 3, 3], Weights::F32(&[1.0, 2.0, 3.0, 10.0]), false)?;

    let backend = if gsp::backend_available(Backend::CUDA) { Backend::CUDA } else { Backend::CPU };
    let sssp = g.sssp(0, &Options::new().backend(backend))?;
    let info = sssp.info()?;
    println!("sssp on {} ({}): {:?}", info.device_name, info.algorithm.name(), sssp.distances(0)?.to_f64());
    println!("path: {:?}", sssp.path(0, 3)?);

    let apsp = g.apsp(None, &Options::new().algorithm(Algorithm::APSP_FLOYD_WARSHALL).backend(Backend::CPU))?;
    println!("apsp rows: {}, d(1,3) = {}", apsp.num_sources(), apsp.distance(1, 3)?);

    match apsp.path(3, 0) {
        Err(e) => println!("expected error: {e}"),
        Ok(p) => println!("unexpected path {p:?}"),
    }
    Ok(())
}
