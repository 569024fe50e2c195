//! Raw, hand-written declarations of libgsp's C API (`include/gsp/gsp.h`).
//!
//! C enums are plain integer constants here (a Rust enum holding a value the
//! library adds later would be undefined behaviour). Everything is `unsafe`;
//! the `gsp` crate is the safe layer. Sizes, offsets and constants are
//! checked against the header by `tests/test_abi_layout.c` through the
//! `abi` example of this crate.
#![allow(non_camel_case_types)]
#![no_std]

use core::ffi::{c_char, c_double, c_int, c_void};

pub type gsp_status = c_int;
pub type gsp_dtype = c_int;
pub type gsp_format = c_int;
pub type gsp_backend = c_int;
pub type gsp_algorithm = c_int;

pub const GSP_VERSION_MAJOR: u32 = 0;
pub const GSP_VERSION_MINOR: u32 = 1;
pub const GSP_VERSION_PATCH: u32 = 0;

// gsp_status, as GSP_STATUS_LIST lists it.
pub const GSP_OK: gsp_status = 0;
pub const GSP_ERR_INVALID_ARGUMENT: gsp_status = 1;
pub const GSP_ERR_INVALID_GRAPH: gsp_status = 2;
pub const GSP_ERR_NEGATIVE_WEIGHT: gsp_status = 3;
pub const GSP_ERR_NEGATIVE_CYCLE: gsp_status = 4;
pub const GSP_ERR_OVERFLOW: gsp_status = 5;
pub const GSP_ERR_NO_PATH: gsp_status = 6;
pub const GSP_ERR_BUFFER_TOO_SMALL: gsp_status = 7;
pub const GSP_ERR_OUT_OF_MEMORY: gsp_status = 8;
pub const GSP_ERR_DEVICE_OUT_OF_MEMORY: gsp_status = 9;
pub const GSP_ERR_NO_DEVICE: gsp_status = 10;
pub const GSP_ERR_DEVICE: gsp_status = 11;
pub const GSP_ERR_UNSUPPORTED: gsp_status = 12;
pub const GSP_ERR_IO: gsp_status = 13;
pub const GSP_ERR_PARSE: gsp_status = 14;
pub const GSP_ERR_CANCELLED: gsp_status = 15;
pub const GSP_ERR_INTERNAL: gsp_status = 16;

pub const GSP_F32: gsp_dtype = 1;
pub const GSP_I32: gsp_dtype = 2;
pub const GSP_F64: gsp_dtype = 3;
pub const GSP_I32_INF: i32 = i32::MAX;
pub const GSP_GRAPH_UNDIRECTED: u32 = 1 << 0;

pub const GSP_FORMAT_AUTO: gsp_format = 0;
pub const GSP_FORMAT_DIMACS: gsp_format = 1;
pub const GSP_FORMAT_MATRIX_MARKET: gsp_format = 2;
pub const GSP_FORMAT_EDGE_LIST: gsp_format = 3;

pub const GSP_BACKEND_AUTO: gsp_backend = 0;
pub const GSP_BACKEND_CPU: gsp_backend = 1;
pub const GSP_BACKEND_CUDA: gsp_backend = 2;

/// gsp_kind: which entry points run an algorithm (`gsp_algorithm_kind`).
pub type gsp_kind = c_int;
pub const GSP_KIND_UNKNOWN: gsp_kind = -1;
pub const GSP_KIND_AUTO: gsp_kind = 0;
pub const GSP_KIND_SSSP: gsp_kind = 1;
pub const GSP_KIND_APSP: gsp_kind = 2;
pub const GSP_KIND_INDEX: gsp_kind = 3;

// gsp_algorithm: the algorithms of GSP_ALGORITHM_TABLE this crate names (a
// library's others are found with gsp_algorithm_kind and friends).
pub const GSP_ALGO_AUTO: gsp_algorithm = 0;
pub const GSP_SSSP_DIJKSTRA: gsp_algorithm = 1;
pub const GSP_SSSP_BELLMAN_FORD: gsp_algorithm = 2;
pub const GSP_SSSP_DELTA_STEPPING: gsp_algorithm = 3;
pub const GSP_SSSP_ATOMIC_LOCK: gsp_algorithm = 4;
pub const GSP_SSSP_HARISH: gsp_algorithm = 5;
pub const GSP_SSSP_SPMV_CSR: gsp_algorithm = 6;
pub const GSP_SSSP_SPMV_ELL: gsp_algorithm = 7;
pub const GSP_SSSP_GPU_DIJKSTRA: gsp_algorithm = 8;
pub const GSP_APSP_FLOYD_WARSHALL: gsp_algorithm = 9;
pub const GSP_APSP_MINPLUS: gsp_algorithm = 10;
pub const GSP_APSP_HEAP: gsp_algorithm = 11;
pub const GSP_APSP_TASK_PARALLEL: gsp_algorithm = 12;
pub const GSP_APSP_JOHNSON: gsp_algorithm = 13;
pub const GSP_SSSP_ATOMIC_64: gsp_algorithm = 14;
pub const GSP_APSP_DELTA_STEPPING: gsp_algorithm = 15;
pub const GSP_APSP_SPMM: gsp_algorithm = 16;
/// Queries on a road index (`gsp_options::index`, gsp_index.h; w >= 0; CPU).
pub const GSP_CH: gsp_algorithm = 17;

pub const GSP_NO_PATHS: u32 = 1 << 0;
/// `gsp_apsp_stream` may hand row blocks to its callback in any order
/// (each at its `first_source_index`; every row once, one call at a time,
/// on the calling thread), so that several devices stream at once.
pub const GSP_ROWS_ANY_ORDER: u32 = 1 << 1;

/// Every constant above but the algorithms, by its C name (for the ABI check).
pub const CONSTANTS: &[(&str, i64)] = &[
    ("GSP_VERSION_MAJOR", GSP_VERSION_MAJOR as i64),
    ("GSP_VERSION_MINOR", GSP_VERSION_MINOR as i64),
    ("GSP_VERSION_PATCH", GSP_VERSION_PATCH as i64),
    ("GSP_OK", GSP_OK as i64),
    ("GSP_ERR_INVALID_ARGUMENT", GSP_ERR_INVALID_ARGUMENT as i64),
    ("GSP_ERR_INVALID_GRAPH", GSP_ERR_INVALID_GRAPH as i64),
    ("GSP_ERR_NEGATIVE_WEIGHT", GSP_ERR_NEGATIVE_WEIGHT as i64),
    ("GSP_ERR_NEGATIVE_CYCLE", GSP_ERR_NEGATIVE_CYCLE as i64),
    ("GSP_ERR_OVERFLOW", GSP_ERR_OVERFLOW as i64),
    ("GSP_ERR_NO_PATH", GSP_ERR_NO_PATH as i64),
    ("GSP_ERR_BUFFER_TOO_SMALL", GSP_ERR_BUFFER_TOO_SMALL as i64),
    ("GSP_ERR_OUT_OF_MEMORY", GSP_ERR_OUT_OF_MEMORY as i64),
    ("GSP_ERR_DEVICE_OUT_OF_MEMORY", GSP_ERR_DEVICE_OUT_OF_MEMORY as i64),
    ("GSP_ERR_NO_DEVICE", GSP_ERR_NO_DEVICE as i64),
    ("GSP_ERR_DEVICE", GSP_ERR_DEVICE as i64),
    ("GSP_ERR_UNSUPPORTED", GSP_ERR_UNSUPPORTED as i64),
    ("GSP_ERR_IO", GSP_ERR_IO as i64),
    ("GSP_ERR_PARSE", GSP_ERR_PARSE as i64),
    ("GSP_ERR_CANCELLED", GSP_ERR_CANCELLED as i64),
    ("GSP_ERR_INTERNAL", GSP_ERR_INTERNAL as i64),
    ("GSP_F32", GSP_F32 as i64),
    ("GSP_I32", GSP_I32 as i64),
    ("GSP_F64", GSP_F64 as i64),
    ("GSP_I32_INF", GSP_I32_INF as i64),
    ("GSP_GRAPH_UNDIRECTED", GSP_GRAPH_UNDIRECTED as i64),
    ("GSP_FORMAT_AUTO", GSP_FORMAT_AUTO as i64),
    ("GSP_FORMAT_DIMACS", GSP_FORMAT_DIMACS as i64),
    ("GSP_FORMAT_MATRIX_MARKET", GSP_FORMAT_MATRIX_MARKET as i64),
    ("GSP_FORMAT_EDGE_LIST", GSP_FORMAT_EDGE_LIST as i64),
    ("GSP_BACKEND_AUTO", GSP_BACKEND_AUTO as i64),
    ("GSP_BACKEND_CPU", GSP_BACKEND_CPU as i64),
    ("GSP_BACKEND_CUDA", GSP_BACKEND_CUDA as i64),
    ("GSP_KIND_UNKNOWN", GSP_KIND_UNKNOWN as i64),
    ("GSP_KIND_AUTO", GSP_KIND_AUTO as i64),
    ("GSP_KIND_SSSP", GSP_KIND_SSSP as i64),
    ("GSP_KIND_APSP", GSP_KIND_APSP as i64),
    ("GSP_KIND_INDEX", GSP_KIND_INDEX as i64),
    ("GSP_NO_PATHS", GSP_NO_PATHS as i64),
    ("GSP_ROWS_ANY_ORDER", GSP_ROWS_ANY_ORDER as i64),
];

/// The algorithm constants above, by their C names (for the ABI check, which
/// asks that each is the header's).
pub const ALGORITHMS: &[(&str, i64)] = &[
    ("GSP_ALGO_AUTO", GSP_ALGO_AUTO as i64),
    ("GSP_SSSP_DIJKSTRA", GSP_SSSP_DIJKSTRA as i64),
    ("GSP_SSSP_BELLMAN_FORD", GSP_SSSP_BELLMAN_FORD as i64),
    ("GSP_SSSP_DELTA_STEPPING", GSP_SSSP_DELTA_STEPPING as i64),
    ("GSP_SSSP_ATOMIC_LOCK", GSP_SSSP_ATOMIC_LOCK as i64),
    ("GSP_SSSP_HARISH", GSP_SSSP_HARISH as i64),
    ("GSP_SSSP_SPMV_CSR", GSP_SSSP_SPMV_CSR as i64),
    ("GSP_SSSP_SPMV_ELL", GSP_SSSP_SPMV_ELL as i64),
    ("GSP_SSSP_GPU_DIJKSTRA", GSP_SSSP_GPU_DIJKSTRA as i64),
    ("GSP_APSP_FLOYD_WARSHALL", GSP_APSP_FLOYD_WARSHALL as i64),
    ("GSP_APSP_MINPLUS", GSP_APSP_MINPLUS as i64),
    ("GSP_APSP_HEAP", GSP_APSP_HEAP as i64),
    ("GSP_APSP_TASK_PARALLEL", GSP_APSP_TASK_PARALLEL as i64),
    ("GSP_APSP_JOHNSON", GSP_APSP_JOHNSON as i64),
    ("GSP_SSSP_ATOMIC_64", GSP_SSSP_ATOMIC_64 as i64),
    ("GSP_APSP_DELTA_STEPPING", GSP_APSP_DELTA_STEPPING as i64),
    ("GSP_APSP_SPMM", GSP_APSP_SPMM as i64),
    ("GSP_CH", GSP_CH as i64),
];

/// Opaque graph handle.
#[repr(C)]
pub struct gsp_graph {
    _private: [u8; 0],
}
/// Opaque result handle.
#[repr(C)]
pub struct gsp_paths {
    _private: [u8; 0],
}
/// Opaque many-to-many table handle.
#[repr(C)]
pub struct gsp_table {
    _private: [u8; 0],
}
/// Opaque road index handle (gsp_index.h).
#[repr(C)]
pub struct gsp_index {
    _private: [u8; 0],
}

pub type gsp_progress_fn = Option<unsafe extern "C" fn(user: *mut c_void, fraction_done: c_double) -> c_int>;
pub type gsp_rows_fn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        first_source_index: i32,
        num_rows: i32,
        distances: *const c_void,
        predecessors: *const i32,
    ) -> c_int,
>;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gsp_options {
    pub size: u32,
    pub backend: gsp_backend,
    pub algorithm: gsp_algorithm,
    pub device: i32,
    pub flags: u32,
    pub delta: c_double,
    pub num_threads: i32,
    pub device_memory_limit: usize,
    pub cuda_stream: *mut c_void,
    pub progress: gsp_progress_fn,
    pub progress_user: *mut c_void,
    /// Distance limit (gsp_search.h); `f64::INFINITY` (the default): none.
    pub limit: c_double,
    /// CUDA devices a run may use, from `device` upward: 0 (the default) lets
    /// AUTO choose, 1 only `device`, k >= 2 exactly `device .. device + k - 1`.
    pub num_devices: i32,
    /// A road index of the run's graph (gsp_index.h): with algorithm AUTO or
    /// `GSP_CH` the run answers from it; null (the default): none.
    pub index: *const gsp_index,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct gsp_run_info {
    pub size: u32,
    pub backend: gsp_backend,
    pub algorithm: gsp_algorithm,
    pub weight_type: gsp_dtype,
    pub num_vertices: i32,
    pub num_sources: i32,
    pub device: i32,
    pub device_name: [c_char; 128],
    pub seconds: c_double,
    pub upload_seconds: c_double,
    pub iterations: i64,
    pub relaxations: i64,
    pub has_paths: u32,
    pub setup_seconds: c_double,
    pub compute_seconds: c_double,
    pub copy_seconds: c_double,
    pub paths_seconds: c_double,
    /// CUDA devices the run used (0 on the CPU).
    pub num_devices: i32,
}

extern "C" {
    pub fn gsp_version() -> u32;
    pub fn gsp_status_name(status: gsp_status) -> *const c_char;
    pub fn gsp_last_error() -> *const c_char;

    pub fn gsp_graph_create(
        graph: *mut *mut gsp_graph,
        num_vertices: i32,
        num_edges: i64,
        sources: *const i32,
        targets: *const i32,
        weights: *const c_void,
        weight_type: gsp_dtype,
        flags: u32,
    ) -> gsp_status;
    pub fn gsp_graph_create_csr(
        graph: *mut *mut gsp_graph,
        num_vertices: i32,
        offsets: *const i64,
        targets: *const i32,
        weights: *const c_void,
        weight_type: gsp_dtype,
        flags: u32,
    ) -> gsp_status;
    pub fn gsp_graph_load(
        graph: *mut *mut gsp_graph,
        path: *const c_char,
        format: gsp_format,
        weight_type: gsp_dtype,
        flags: u32,
    ) -> gsp_status;
    pub fn gsp_graph_save(graph: *const gsp_graph, path: *const c_char, format: gsp_format) -> gsp_status;
    pub fn gsp_graph_destroy(graph: *mut gsp_graph);
    pub fn gsp_graph_num_vertices(graph: *const gsp_graph) -> i32;
    pub fn gsp_graph_num_edges(graph: *const gsp_graph) -> i64;
    pub fn gsp_graph_weight_type(graph: *const gsp_graph) -> gsp_dtype;
    pub fn gsp_graph_csr(graph: *const gsp_graph, offsets: *mut i64, targets: *mut i32, weights: *mut c_void)
        -> gsp_status;

    pub fn gsp_options_init(options: *mut gsp_options);
    /// Fills the first `size` bytes (the header's gsp_options_init passes its own sizeof).
    pub fn gsp_options_init_sized(options: *mut gsp_options, size: usize);
    pub fn gsp_sssp_run(
        graph: *const gsp_graph,
        source: i32,
        options: *const gsp_options,
        result: *mut *mut gsp_paths,
    ) -> gsp_status;
    pub fn gsp_apsp_run(
        graph: *const gsp_graph,
        sources: *const i32,
        num_sources: i32,
        options: *const gsp_options,
        result: *mut *mut gsp_paths,
    ) -> gsp_status;
    pub fn gsp_apsp_stream(
        graph: *const gsp_graph,
        sources: *const i32,
        num_sources: i32,
        options: *const gsp_options,
        on_rows: gsp_rows_fn,
        user: *mut c_void,
    ) -> gsp_status;

    pub fn gsp_paths_num_sources(paths: *const gsp_paths) -> i32;
    pub fn gsp_paths_source(paths: *const gsp_paths, index: i32) -> i32;
    pub fn gsp_paths_distances(paths: *const gsp_paths, source: i32, out: *mut c_void, capacity: i64) -> gsp_status;
    pub fn gsp_paths_distance(paths: *const gsp_paths, source: i32, target: i32, out: *mut c_void) -> gsp_status;
    pub fn gsp_paths_predecessors(paths: *const gsp_paths, source: i32, out: *mut i32, capacity: i64) -> gsp_status;
    pub fn gsp_path_get(
        paths: *const gsp_paths,
        source: i32,
        target: i32,
        vertices: *mut i32,
        capacity: i32,
        length: *mut i32,
    ) -> gsp_status;
    pub fn gsp_paths_info(paths: *const gsp_paths, info: *mut gsp_run_info) -> gsp_status;
    pub fn gsp_paths_destroy(paths: *mut gsp_paths);

    pub fn gsp_table_run(
        graph: *const gsp_graph,
        sources: *const i32,
        num_sources: i32,
        targets: *const i32,
        num_targets: i32,
        options: *const gsp_options,
        result: *mut *mut gsp_table,
    ) -> gsp_status;
    pub fn gsp_table_run_into(
        graph: *const gsp_graph,
        sources: *const i32,
        num_sources: i32,
        targets: *const i32,
        num_targets: i32,
        options: *const gsp_options,
        distances: *mut c_void,
        info: *mut gsp_run_info,
    ) -> gsp_status;
    pub fn gsp_table_size(table: *const gsp_table, num_sources: *mut i32, num_targets: *mut i32) -> gsp_status;
    pub fn gsp_table_distances(table: *const gsp_table, out: *mut c_void, capacity: i64) -> gsp_status;
    pub fn gsp_table_distance(table: *const gsp_table, source_index: i32, target_index: i32, out: *mut c_void)
        -> gsp_status;
    pub fn gsp_table_path(
        table: *const gsp_table,
        source_index: i32,
        target_index: i32,
        vertices: *mut i32,
        capacity: i32,
        length: *mut i32,
    ) -> gsp_status;
    pub fn gsp_table_info(table: *const gsp_table, info: *mut gsp_run_info) -> gsp_status;
    pub fn gsp_table_destroy(table: *mut gsp_table);

    // gsp_search.h
    pub fn gsp_nearest_run(
        graph: *const gsp_graph,
        sources: *const i32,
        num_sources: i32,
        options: *const gsp_options,
        distances: *mut c_void,
        nearest: *mut i32,
        predecessors: *mut i32,
    ) -> gsp_status;

    // gsp_index.h
    pub fn gsp_index_build(
        graph: *const gsp_graph,
        options: *const gsp_options,
        index: *mut *mut gsp_index,
        info: *mut gsp_run_info,
    ) -> gsp_status;
    pub fn gsp_index_size(
        index: *const gsp_index,
        num_vertices: *mut i32,
        num_arcs: *mut i64,
        num_shortcuts: *mut i64,
    ) -> gsp_status;
    pub fn gsp_index_save(index: *const gsp_index, path: *const c_char) -> gsp_status;
    pub fn gsp_index_load(graph: *const gsp_graph, path: *const c_char, index: *mut *mut gsp_index) -> gsp_status;
    pub fn gsp_index_destroy(index: *mut gsp_index);

    pub fn gsp_backend_available(backend: gsp_backend) -> c_int;
    pub fn gsp_device_count() -> i32;
    pub fn gsp_device_start(device: i32) -> gsp_status;
    pub fn gsp_release_cached_memory();
    pub fn gsp_backend_name(backend: gsp_backend) -> *const c_char;
    pub fn gsp_algorithm_name(algorithm: gsp_algorithm) -> *const c_char;
    pub fn gsp_algorithm_from_name(name: *const c_char, out: *mut gsp_algorithm) -> gsp_status;
    pub fn gsp_algorithm_identifier(algorithm: gsp_algorithm) -> *const c_char;
    pub fn gsp_algorithm_summary(algorithm: gsp_algorithm) -> *const c_char;
    pub fn gsp_algorithm_kind(algorithm: gsp_algorithm) -> gsp_kind;
    pub fn gsp_algorithm_accepts_negative_weights(algorithm: gsp_algorithm) -> c_int;
    pub fn gsp_algorithm_has_engine(algorithm: gsp_algorithm, backend: gsp_backend) -> c_int;
}
