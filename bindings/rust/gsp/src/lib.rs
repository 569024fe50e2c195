//! Safe Rust API for libgsp: single-source and all-pairs shortest paths on
//! CPUs and NVIDIA GPUs.
//!
//! ```no_run
//! let g = gsp::Graph::new(4, &[0, 1, 2], &[1, 2, 3], gsp::Weights::F32(&[1.0, 2.0, 3.0]), false)?;
//! let p = g.sssp(0, &gsp::Options::default())?;
//! assert_eq!(p.path(0, 3)?, vec![0, 1, 2, 3]);
//! # Ok::<(), gsp::Error>(())
//! ```
//!
//! Vertex ids are 0-based `i32`, as in C. Every fallible call returns
//! [`Result`]; the [`Error`] carries the library's status and the message
//! that `gsp_last_error()` gave on the same thread right after the call.
//! Handles are freed by `Drop`; a [`Paths`] or [`Table`] stays valid after
//! its [`Graph`] is dropped (the library keeps what it needs).
//! [`Graph::table`] computes the distances (and paths) from a list of
//! sources to a list of targets only.
use gsp_sys as sys;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr::{self, NonNull};
use std::sync::Arc;

pub use sys::GSP_I32_INF as I32_INF;
pub use table::Table;

mod table;

// ------------------------------------------------------------------ errors

/// A failed libgsp call: its status and the library's message.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    status: i32,
    message: String,
}

/// `std::result::Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Reads this thread's last error at once. Only called right after a
    /// failing call on the same thread, so the message is that call's.
    fn last(status: sys::gsp_status) -> Error {
        let message = unsafe { cstr(sys::gsp_last_error()) };
        Error { status, message }
    }
    fn new(status: sys::gsp_status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }
    /// The `gsp_status` value, e.g. [`Error::NO_PATH`].
    pub fn status(&self) -> i32 {
        self.status
    }
    /// The status's C name, e.g. "GSP_ERR_NO_PATH".
    pub fn name(&self) -> String {
        status_name(self.status)
    }
    /// The library's detail.
    pub fn message(&self) -> &str {
        &self.message
    }

    pub const INVALID_ARGUMENT: i32 = sys::GSP_ERR_INVALID_ARGUMENT;
    pub const INVALID_GRAPH: i32 = sys::GSP_ERR_INVALID_GRAPH;
    pub const NEGATIVE_WEIGHT: i32 = sys::GSP_ERR_NEGATIVE_WEIGHT;
    pub const NEGATIVE_CYCLE: i32 = sys::GSP_ERR_NEGATIVE_CYCLE;
    pub const OVERFLOW: i32 = sys::GSP_ERR_OVERFLOW;
    pub const NO_PATH: i32 = sys::GSP_ERR_NO_PATH;
    pub const BUFFER_TOO_SMALL: i32 = sys::GSP_ERR_BUFFER_TOO_SMALL;
    pub const OUT_OF_MEMORY: i32 = sys::GSP_ERR_OUT_OF_MEMORY;
    pub const DEVICE_OUT_OF_MEMORY: i32 = sys::GSP_ERR_DEVICE_OUT_OF_MEMORY;
    pub const NO_DEVICE: i32 = sys::GSP_ERR_NO_DEVICE;
    pub const DEVICE: i32 = sys::GSP_ERR_DEVICE;
    pub const UNSUPPORTED: i32 = sys::GSP_ERR_UNSUPPORTED;
    pub const IO: i32 = sys::GSP_ERR_IO;
    pub const PARSE: i32 = sys::GSP_ERR_PARSE;
    pub const CANCELLED: i32 = sys::GSP_ERR_CANCELLED;
    pub const INTERNAL: i32 = sys::GSP_ERR_INTERNAL;
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.name())
        } else {
            write!(f, "{}: {}", self.name(), self.message)
        }
    }
}
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gsp::Error({self})")
    }
}
impl std::error::Error for Error {}

fn check(status: sys::gsp_status) -> Result<()> {
    if status == sys::GSP_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

fn c_path(path: &Path) -> Result<CString> {
    CString::new(path.to_string_lossy().as_bytes())
        .map_err(|_| Error::new(sys::GSP_ERR_INVALID_ARGUMENT, "path contains a NUL byte"))
}

fn len_i32(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::new(sys::GSP_ERR_INVALID_ARGUMENT, format!("{what}: too many ({n})")))
}

// ------------------------------------------------------------------ library

/// (major, minor, patch) of the linked library.
pub fn version() -> (u32, u32, u32) {
    let v = unsafe { sys::gsp_version() };
    (v >> 16, (v >> 8) & 0xff, v & 0xff)
}

/// The C name of a status, e.g. "GSP_ERR_NO_PATH".
pub fn status_name(status: i32) -> String {
    unsafe { cstr(sys::gsp_status_name(status)) }
}

/// Whether a backend can run now.
pub fn backend_available(backend: Backend) -> bool {
    unsafe { sys::gsp_backend_available(backend.0) != 0 }
}

/// Number of usable CUDA devices.
pub fn device_count() -> i32 {
    unsafe { sys::gsp_device_count() }
}

/// Gives back memory libgsp keeps between runs for speed (device workspace
/// pools, pinned host buffers); later runs re-create what they need.
pub fn release_cached_memory() {
    unsafe { sys::gsp_release_cached_memory() }
}

/// Where an engine runs. A newtype over the C value, so values from newer
/// libraries stay representable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Backend(pub i32);
impl Backend {
    pub const AUTO: Backend = Backend(sys::GSP_BACKEND_AUTO);
    pub const CPU: Backend = Backend(sys::GSP_BACKEND_CPU);
    pub const CUDA: Backend = Backend(sys::GSP_BACKEND_CUDA);
    /// "auto", "cpu", "cuda".
    pub fn name(self) -> String {
        unsafe { cstr(sys::gsp_backend_name(self.0)) }
    }
}
impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Backend({})", self.name())
    }
}

/// A shortest-path algorithm (see doc/algorithms.md).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Algorithm(pub i32);
impl Algorithm {
    pub const AUTO: Algorithm = Algorithm(sys::GSP_ALGO_AUTO);
    pub const SSSP_DIJKSTRA: Algorithm = Algorithm(sys::GSP_SSSP_DIJKSTRA);
    pub const SSSP_BELLMAN_FORD: Algorithm = Algorithm(sys::GSP_SSSP_BELLMAN_FORD);
    pub const SSSP_DELTA_STEPPING: Algorithm = Algorithm(sys::GSP_SSSP_DELTA_STEPPING);
    pub const SSSP_ATOMIC_LOCK: Algorithm = Algorithm(sys::GSP_SSSP_ATOMIC_LOCK);
    pub const SSSP_HARISH: Algorithm = Algorithm(sys::GSP_SSSP_HARISH);
    pub const SSSP_SPMV_CSR: Algorithm = Algorithm(sys::GSP_SSSP_SPMV_CSR);
    pub const SSSP_SPMV_ELL: Algorithm = Algorithm(sys::GSP_SSSP_SPMV_ELL);
    pub const SSSP_GPU_DIJKSTRA: Algorithm = Algorithm(sys::GSP_SSSP_GPU_DIJKSTRA);
    pub const SSSP_ATOMIC_64: Algorithm = Algorithm(sys::GSP_SSSP_ATOMIC_64);
    pub const APSP_FLOYD_WARSHALL: Algorithm = Algorithm(sys::GSP_APSP_FLOYD_WARSHALL);
    pub const APSP_MINPLUS: Algorithm = Algorithm(sys::GSP_APSP_MINPLUS);
    pub const APSP_HEAP: Algorithm = Algorithm(sys::GSP_APSP_HEAP);
    pub const APSP_TASK_PARALLEL: Algorithm = Algorithm(sys::GSP_APSP_TASK_PARALLEL);
    pub const APSP_JOHNSON: Algorithm = Algorithm(sys::GSP_APSP_JOHNSON);
    /// Every SSSP algorithm.
    pub const SSSP: [Algorithm; 9] = [
        Self::SSSP_DIJKSTRA, Self::SSSP_BELLMAN_FORD, Self::SSSP_DELTA_STEPPING, Self::SSSP_ATOMIC_LOCK,
        Self::SSSP_HARISH, Self::SSSP_SPMV_CSR, Self::SSSP_SPMV_ELL, Self::SSSP_GPU_DIJKSTRA, Self::SSSP_ATOMIC_64,
    ];
    /// Every APSP algorithm.
    pub const APSP: [Algorithm; 5] = [
        Self::APSP_FLOYD_WARSHALL, Self::APSP_MINPLUS, Self::APSP_HEAP, Self::APSP_TASK_PARALLEL, Self::APSP_JOHNSON,
    ];

    /// The CLI's name, e.g. "dijkstra".
    pub fn name(self) -> String {
        unsafe { cstr(sys::gsp_algorithm_name(self.0)) }
    }
    /// Looks an algorithm up by its name.
    pub fn from_name(name: &str) -> Result<Algorithm> {
        let c = CString::new(name).map_err(|_| Error::new(sys::GSP_ERR_INVALID_ARGUMENT, "name contains NUL"))?;
        let mut out: sys::gsp_algorithm = 0;
        check(unsafe { sys::gsp_algorithm_from_name(c.as_ptr(), &mut out) })?;
        Ok(Algorithm(out))
    }
}
impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.name())
    }
}

/// Weight (and distance) type of a graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightType {
    F32,
    I32,
}
impl WeightType {
    fn raw(self) -> sys::gsp_dtype {
        match self {
            WeightType::F32 => sys::GSP_F32,
            WeightType::I32 => sys::GSP_I32,
        }
    }
    fn from_raw(v: sys::gsp_dtype) -> WeightType {
        if v == sys::GSP_I32 { WeightType::I32 } else { WeightType::F32 }
    }
}

/// Graph file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// By extension: .gr DIMACS, .mtx Matrix Market, else edge list (.gz too).
    #[default]
    Auto,
    Dimacs,
    MatrixMarket,
    EdgeList,
}
impl Format {
    fn raw(self) -> sys::gsp_format {
        match self {
            Format::Auto => sys::GSP_FORMAT_AUTO,
            Format::Dimacs => sys::GSP_FORMAT_DIMACS,
            Format::MatrixMarket => sys::GSP_FORMAT_MATRIX_MARKET,
            Format::EdgeList => sys::GSP_FORMAT_EDGE_LIST,
        }
    }
}

/// Arc weights given to a graph constructor.
#[derive(Clone, Copy, Debug)]
pub enum Weights<'a> {
    /// Every weight is 1, of this type.
    Unit(WeightType),
    F32(&'a [f32]),
    I32(&'a [i32]),
}
impl Weights<'_> {
    fn parts(&self, m: usize) -> Result<(*const c_void, sys::gsp_dtype)> {
        let (p, len, t) = match *self {
            Weights::Unit(t) => return Ok((ptr::null(), t.raw())),
            Weights::F32(w) => (w.as_ptr() as *const c_void, w.len(), sys::GSP_F32),
            Weights::I32(w) => (w.as_ptr() as *const c_void, w.len(), sys::GSP_I32),
        };
        if len != m {
            return Err(Error::new(sys::GSP_ERR_INVALID_ARGUMENT, format!("{len} weights for {m} arcs")));
        }
        Ok((p, t))
    }
}

/// Distances (or weights) copied out of the library, in the graph's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Distances {
    /// Unreachable: `f32::INFINITY`.
    F32(Vec<f32>),
    /// Unreachable: [`I32_INF`].
    I32(Vec<i32>),
}
impl Distances {
    fn zeroed(t: WeightType, n: usize) -> Distances {
        match t {
            WeightType::F32 => Distances::F32(vec![0.0; n]),
            WeightType::I32 => Distances::I32(vec![0; n]),
        }
    }
    fn as_mut_ptr(&mut self) -> *mut c_void {
        match self {
            Distances::F32(v) => v.as_mut_ptr() as *mut c_void,
            Distances::I32(v) => v.as_mut_ptr() as *mut c_void,
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Distances::F32(v) => v.len(),
            Distances::I32(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// As f64, with unreachable as `f64::INFINITY` for both types.
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            Distances::F32(v) => v.iter().map(|&x| x as f64).collect(),
            Distances::I32(v) => v.iter().map(|&x| if x == I32_INF { f64::INFINITY } else { x as f64 }).collect(),
        }
    }
    pub fn as_f32(&self) -> Option<&[f32]> {
        if let Distances::F32(v) = self { Some(v) } else { None }
    }
    pub fn as_i32(&self) -> Option<&[i32]> {
        if let Distances::I32(v) = self { Some(v) } else { None }
    }
}

// ------------------------------------------------------------------ options

/// A progress callback: gets the fraction done in [0, 1]; returns `true` to
/// stop the run (which then fails with [`Error::CANCELLED`]). It may be
/// called from the library's worker threads, hence `Send + Sync`.
pub type Progress = Arc<dyn Fn(f64) -> bool + Send + Sync>;

/// Options of a run (`gsp_options`; defaults from `gsp_options_init`).
#[derive(Clone, Default)]
pub struct Options {
    pub backend: Backend,
    pub algorithm: Algorithm,
    /// CUDA device ordinal.
    pub device: i32,
    /// Distances only: no predecessors, no paths.
    pub no_paths: bool,
    /// Delta-stepping bucket width; 0 chooses.
    pub delta: f64,
    /// CPU threads; 0 uses all cores.
    pub num_threads: i32,
    /// Bytes of device memory an engine may use; 0: what is free.
    pub device_memory_limit: usize,
    /// A `cudaStream_t` to run on, or null for the library's own.
    pub cuda_stream: Option<NonNull<c_void>>,
    pub progress: Option<Progress>,
}

impl Options {
    pub fn new() -> Options {
        Options::default()
    }
    pub fn backend(mut self, b: Backend) -> Options {
        self.backend = b;
        self
    }
    pub fn algorithm(mut self, a: Algorithm) -> Options {
        self.algorithm = a;
        self
    }
    pub fn no_paths(mut self, yes: bool) -> Options {
        self.no_paths = yes;
        self
    }
    pub fn num_threads(mut self, n: i32) -> Options {
        self.num_threads = n;
        self
    }
    pub fn progress(mut self, f: impl Fn(f64) -> bool + Send + Sync + 'static) -> Options {
        self.progress = Some(Arc::new(f));
        self
    }
}

// Safety: the stream pointer is only handed to the library, which documents
// it as usable from the calling thread; Options holds nothing thread-bound.
unsafe impl Send for Options {}
unsafe impl Sync for Options {}

/// Per-call state the C callbacks see: the callbacks and the first panic.
struct CallState<'a> {
    progress: Option<&'a (dyn Fn(f64) -> bool + Send + Sync)>,
    rows: Option<&'a mut dyn FnMut(RowBlock<'_>) -> bool>,
    n: usize,
    weight_type: WeightType,
    panic: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl CallState<'_> {
    fn finish(self, status: sys::gsp_status) -> Result<()> {
        // Read the message before anything else can call into the library.
        let r = check(status);
        if let Some(p) = self.panic.into_inner().unwrap_or_else(|e| e.into_inner()) {
            resume_unwind(p);
        }
        r
    }
    fn store_panic(&self, p: Box<dyn std::any::Any + Send>) {
        let mut slot = self.panic.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(p);
    }
}

unsafe extern "C" fn progress_trampoline(user: *mut c_void, fraction: f64) -> c_int {
    let st = &*(user as *const CallState<'_>);
    let f = match st.progress {
        Some(f) => f,
        None => return 0,
    };
    match catch_unwind(AssertUnwindSafe(|| f(fraction))) {
        Ok(stop) => stop as c_int,
        Err(p) => {
            st.store_panic(p);
            1
        }
    }
}

fn c_options(o: &Options, state: &CallState<'_>) -> sys::gsp_options {
    let mut c = std::mem::MaybeUninit::<sys::gsp_options>::zeroed();
    // Safety: gsp_options_init fills every field.
    let mut c = unsafe {
        sys::gsp_options_init(c.as_mut_ptr());
        c.assume_init()
    };
    c.backend = o.backend.0;
    c.algorithm = o.algorithm.0;
    c.device = o.device;
    if o.no_paths {
        c.flags |= sys::GSP_NO_PATHS;
    }
    c.delta = o.delta;
    c.num_threads = o.num_threads;
    c.device_memory_limit = o.device_memory_limit;
    c.cuda_stream = o.cuda_stream.map_or(ptr::null_mut(), |p| p.as_ptr());
    if state.progress.is_some() {
        c.progress = Some(progress_trampoline);
        c.progress_user = state as *const CallState<'_> as *mut c_void;
    }
    c
}

// ------------------------------------------------------------------ graph

/// An immutable weighted directed graph (`gsp_graph`).
pub struct Graph {
    ptr: NonNull<sys::gsp_graph>,
}

// Safety: gsp.h documents a gsp_graph as immutable after creation and usable
// by any number of threads at once, and gsp_graph_destroy may run on any
// thread (results keep their own reference), so the handle may move between
// threads (Send) and be shared by them (Sync).
unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

impl Drop for Graph {
    fn drop(&mut self) {
        unsafe { sys::gsp_graph_destroy(self.ptr.as_ptr()) }
    }
}

/// A graph's CSR arrays, copied out.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub offsets: Vec<i64>,
    pub targets: Vec<i32>,
    pub weights: Distances,
}

/// One block of rows delivered by [`Graph::apsp_stream`].
pub struct RowBlock<'a> {
    /// Index into the sources of the first row.
    pub first_source_index: usize,
    /// Rows in this block.
    pub num_rows: usize,
    /// num_rows × n distances, row-major; valid only during the callback.
    pub distances: RowDistances<'a>,
    /// num_rows × n predecessors, or None with `no_paths`.
    pub predecessors: Option<&'a [i32]>,
}

/// Borrowed distances of a row block.
pub enum RowDistances<'a> {
    F32(&'a [f32]),
    I32(&'a [i32]),
}

unsafe extern "C" fn rows_trampoline(
    user: *mut c_void,
    first: i32,
    num_rows: i32,
    distances: *const c_void,
    preds: *const i32,
) -> c_int {
    let st = &mut *(user as *mut CallState<'_>);
    let len = st.n * num_rows.max(0) as usize;
    let block = RowBlock {
        first_source_index: first.max(0) as usize,
        num_rows: num_rows.max(0) as usize,
        distances: match st.weight_type {
            WeightType::F32 => RowDistances::F32(slice_or_empty(distances as *const f32, len)),
            WeightType::I32 => RowDistances::I32(slice_or_empty(distances as *const i32, len)),
        },
        predecessors: if preds.is_null() { None } else { Some(std::slice::from_raw_parts(preds, len)) },
    };
    let f = match st.rows.as_mut() {
        Some(f) => f,
        None => return 1,
    };
    match catch_unwind(AssertUnwindSafe(|| f(block))) {
        Ok(stop) => stop as c_int,
        Err(p) => {
            st.store_panic(p);
            1
        }
    }
}

unsafe fn slice_or_empty<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if p.is_null() || len == 0 { &[] } else { std::slice::from_raw_parts(p, len) }
}

impl Graph {
    fn from_out(status: sys::gsp_status, out: *mut sys::gsp_graph) -> Result<Graph> {
        check(status)?;
        NonNull::new(out)
            .map(|ptr| Graph { ptr })
            .ok_or_else(|| Error::new(sys::GSP_ERR_INTERNAL, "the library returned no graph"))
    }

    /// A graph from an arc list: arc i goes from `sources[i]` to `targets[i]`.
    pub fn new(num_vertices: i32, sources: &[i32], targets: &[i32], weights: Weights<'_>, undirected: bool) -> Result<Graph> {
        if sources.len() != targets.len() {
            return Err(Error::new(
                sys::GSP_ERR_INVALID_ARGUMENT,
                format!("{} sources but {} targets", sources.len(), targets.len()),
            ));
        }
        let (w, t) = weights.parts(sources.len())?;
        let mut out = ptr::null_mut();
        let st = unsafe {
            sys::gsp_graph_create(
                &mut out,
                num_vertices,
                sources.len() as i64,
                sources.as_ptr(),
                targets.as_ptr(),
                w,
                t,
                if undirected { sys::GSP_GRAPH_UNDIRECTED } else { 0 },
            )
        };
        Graph::from_out(st, out)
    }

    /// A graph from CSR arrays (`offsets` has n + 1 entries).
    pub fn from_csr(num_vertices: i32, offsets: &[i64], targets: &[i32], weights: Weights<'_>, undirected: bool) -> Result<Graph> {
        if num_vertices < 0 || offsets.len() != num_vertices as usize + 1 {
            return Err(Error::new(
                sys::GSP_ERR_INVALID_ARGUMENT,
                format!("{} offsets for {num_vertices} vertices (need n + 1)", offsets.len()),
            ));
        }
        if offsets.last().copied() != Some(targets.len() as i64) {
            return Err(Error::new(sys::GSP_ERR_INVALID_ARGUMENT, "offsets[n] differs from the number of targets"));
        }
        let (w, t) = weights.parts(targets.len())?;
        let mut out = ptr::null_mut();
        let st = unsafe {
            sys::gsp_graph_create_csr(
                &mut out,
                num_vertices,
                offsets.as_ptr(),
                targets.as_ptr(),
                w,
                t,
                if undirected { sys::GSP_GRAPH_UNDIRECTED } else { 0 },
            )
        };
        Graph::from_out(st, out)
    }

    /// Reads a DIMACS, Matrix Market or edge-list file (".gz" too).
    pub fn load(path: impl AsRef<Path>, format: Format, weight_type: WeightType, undirected: bool) -> Result<Graph> {
        let p = c_path(path.as_ref())?;
        let mut out = ptr::null_mut();
        let st = unsafe {
            sys::gsp_graph_load(
                &mut out,
                p.as_ptr(),
                format.raw(),
                weight_type.raw(),
                if undirected { sys::GSP_GRAPH_UNDIRECTED } else { 0 },
            )
        };
        Graph::from_out(st, out)
    }

    /// Writes the graph to a file.
    pub fn save(&self, path: impl AsRef<Path>, format: Format) -> Result<()> {
        let p = c_path(path.as_ref())?;
        check(unsafe { sys::gsp_graph_save(self.ptr.as_ptr(), p.as_ptr(), format.raw()) })
    }

    pub fn num_vertices(&self) -> i32 {
        unsafe { sys::gsp_graph_num_vertices(self.ptr.as_ptr()) }
    }
    /// Arcs (after undirected doubling).
    pub fn num_edges(&self) -> i64 {
        unsafe { sys::gsp_graph_num_edges(self.ptr.as_ptr()) }
    }
    pub fn weight_type(&self) -> WeightType {
        WeightType::from_raw(unsafe { sys::gsp_graph_weight_type(self.ptr.as_ptr()) })
    }

    /// Copies the CSR arrays out.
    pub fn csr(&self) -> Result<Csr> {
        let n = self.num_vertices() as usize;
        let m = self.num_edges() as usize;
        let mut offsets = vec![0i64; n + 1];
        let mut targets = vec![0i32; m];
        let mut weights = Distances::zeroed(self.weight_type(), m);
        check(unsafe {
            sys::gsp_graph_csr(self.ptr.as_ptr(), offsets.as_mut_ptr(), targets.as_mut_ptr(), weights.as_mut_ptr())
        })?;
        Ok(Csr { offsets, targets, weights })
    }

    fn state<'a>(&self, o: &'a Options) -> CallState<'a> {
        CallState {
            progress: o.progress.as_deref(),
            rows: None,
            n: self.num_vertices().max(0) as usize,
            weight_type: self.weight_type(),
            panic: std::sync::Mutex::new(None),
        }
    }

    /// Single-source shortest paths from `source`.
    pub fn sssp(&self, source: i32, options: &Options) -> Result<Paths> {
        let state = self.state(options);
        let c = c_options(options, &state);
        let mut out = ptr::null_mut();
        let st = unsafe { sys::gsp_sssp_run(self.ptr.as_ptr(), source, &c, &mut out) };
        state.finish(st)?;
        Paths::from_out(out)
    }

    /// All-pairs shortest paths (`sources` None), or from the given sources,
    /// one row each in order.
    pub fn apsp(&self, sources: Option<&[i32]>, options: &Options) -> Result<Paths> {
        let state = self.state(options);
        let c = c_options(options, &state);
        let (sp, ns) = match sources {
            Some(s) => (s.as_ptr(), len_i32(s.len(), "sources")?),
            None => (ptr::null(), 0),
        };
        let mut out = ptr::null_mut();
        let st = unsafe { sys::gsp_apsp_run(self.ptr.as_ptr(), sp, ns, &c, &mut out) };
        state.finish(st)?;
        Paths::from_out(out)
    }

    /// All-pairs shortest paths delivered in row blocks, in source order;
    /// `on_rows` returns `true` to stop (the call then fails with
    /// [`Error::CANCELLED`]).
    pub fn apsp_stream<F>(&self, sources: Option<&[i32]>, options: &Options, mut on_rows: F) -> Result<()>
    where
        F: FnMut(RowBlock<'_>) -> bool,
    {
        let mut state = self.state(options);
        state.rows = Some(&mut on_rows);
        let (sp, ns) = match sources {
            Some(s) => (s.as_ptr(), len_i32(s.len(), "sources")?),
            None => (ptr::null(), 0),
        };
        let c = c_options(options, &state);
        let user = &mut state as *mut CallState<'_> as *mut c_void;
        let st = unsafe { sys::gsp_apsp_stream(self.ptr.as_ptr(), sp, ns, &c, Some(rows_trampoline), user) };
        state.finish(st)
    }
}

// ------------------------------------------------------------------ results

/// What a run did (`gsp_run_info`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    pub backend: Backend,
    pub algorithm: Algorithm,
    pub weight_type: WeightType,
    pub num_vertices: i32,
    pub num_sources: i32,
    /// CUDA ordinal, or -1 on the CPU.
    pub device: i32,
    pub device_name: String,
    pub seconds: f64,
    pub upload_seconds: f64,
    pub iterations: i64,
    pub relaxations: i64,
    pub has_paths: bool,
}

impl RunInfo {
    fn from_c(c: &sys::gsp_run_info) -> RunInfo {
        let bytes: Vec<u8> = c.device_name.iter().map(|&b| b as u8).take_while(|&b| b != 0).collect();
        RunInfo {
            backend: Backend(c.backend),
            algorithm: Algorithm(c.algorithm),
            weight_type: WeightType::from_raw(c.weight_type),
            num_vertices: c.num_vertices,
            num_sources: c.num_sources,
            device: c.device,
            device_name: String::from_utf8_lossy(&bytes).into_owned(),
            seconds: c.seconds,
            upload_seconds: c.upload_seconds,
            iterations: c.iterations,
            relaxations: c.relaxations,
            has_paths: c.has_paths != 0,
        }
    }
}

/// Distances and predecessors from one or many sources (`gsp_paths`).
/// Sources and targets are vertex ids; a source must be one of [`Paths::sources`].
pub struct Paths {
    ptr: NonNull<sys::gsp_paths>,
    n: usize,
    weight_type: WeightType,
}

// Safety: gsp.h documents a gsp_paths as readable by many threads at once
// (every accessor takes a const pointer and copies out), and it keeps its
// graph alive itself, so it may be sent to and shared between threads.
unsafe impl Send for Paths {}
unsafe impl Sync for Paths {}

impl Drop for Paths {
    fn drop(&mut self) {
        unsafe { sys::gsp_paths_destroy(self.ptr.as_ptr()) }
    }
}

impl Paths {
    fn from_out(out: *mut sys::gsp_paths) -> Result<Paths> {
        let ptr = NonNull::new(out).ok_or_else(|| Error::new(sys::GSP_ERR_INTERNAL, "the library returned no result"))?;
        let mut p = Paths { ptr, n: 0, weight_type: WeightType::F32 };
        let info = p.info()?;
        p.n = info.num_vertices.max(0) as usize;
        p.weight_type = info.weight_type;
        Ok(p)
    }

    /// Number of rows.
    pub fn num_sources(&self) -> i32 {
        unsafe { sys::gsp_paths_num_sources(self.ptr.as_ptr()) }
    }
    /// The source vertex of each row.
    pub fn sources(&self) -> Vec<i32> {
        (0..self.num_sources()).map(|i| unsafe { sys::gsp_paths_source(self.ptr.as_ptr(), i) }).collect()
    }
    pub fn weight_type(&self) -> WeightType {
        self.weight_type
    }

    /// Distances from `source` to every vertex.
    pub fn distances(&self, source: i32) -> Result<Distances> {
        let mut d = Distances::zeroed(self.weight_type, self.n);
        check(unsafe { sys::gsp_paths_distances(self.ptr.as_ptr(), source, d.as_mut_ptr(), self.n as i64) })?;
        Ok(d)
    }

    /// One distance, as f64 (`f64::INFINITY` when unreachable, for both types).
    pub fn distance(&self, source: i32, target: i32) -> Result<f64> {
        let mut raw = [0u8; 4];
        check(unsafe { sys::gsp_paths_distance(self.ptr.as_ptr(), source, target, raw.as_mut_ptr() as *mut c_void) })?;
        Ok(match self.weight_type {
            WeightType::F32 => f32::from_ne_bytes(raw) as f64,
            WeightType::I32 => match i32::from_ne_bytes(raw) {
                I32_INF => f64::INFINITY,
                v => v as f64,
            },
        })
    }

    /// Predecessor of every vertex on its shortest path from `source` (-1: none).
    pub fn predecessors(&self, source: i32) -> Result<Vec<i32>> {
        let mut v = vec![0i32; self.n];
        check(unsafe { sys::gsp_paths_predecessors(self.ptr.as_ptr(), source, v.as_mut_ptr(), self.n as i64) })?;
        Ok(v)
    }

    /// The vertices of a shortest path, source and target included.
    /// [`Error::NO_PATH`] when `target` is unreachable.
    pub fn path(&self, source: i32, target: i32) -> Result<Vec<i32>> {
        let mut len = 0i32;
        check(unsafe { sys::gsp_path_get(self.ptr.as_ptr(), source, target, ptr::null_mut(), 0, &mut len) })?;
        let mut v = vec![0i32; len.max(0) as usize];
        check(unsafe { sys::gsp_path_get(self.ptr.as_ptr(), source, target, v.as_mut_ptr(), len, &mut len) })?;
        v.truncate(len.max(0) as usize);
        Ok(v)
    }

    /// What the run did.
    pub fn info(&self) -> Result<RunInfo> {
        // Safety: all-zero bytes are a valid gsp_run_info.
        let mut c: sys::gsp_run_info = unsafe { std::mem::zeroed() };
        c.size = std::mem::size_of::<sys::gsp_run_info>() as u32;
        check(unsafe { sys::gsp_paths_info(self.ptr.as_ptr(), &mut c) })?;
        Ok(RunInfo::from_c(&c))
    }
}
