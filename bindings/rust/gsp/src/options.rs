//! Run options and the per-call state behind the progress callback.
use crate::{check, sys, Algorithm, Backend, Index, Result, RowBlock, WeightType};
use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::Arc;

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
    /// [`Graph::apsp_stream`](crate::Graph::apsp_stream) may hand row blocks
    /// to its callback in any order (`GSP_ROWS_ANY_ORDER`: each block at its
    /// `first_source_index`, every row once, one call at a time, on the
    /// calling thread), so that a run on several devices streams from all
    /// of them at once. Other runs ignore it. Default: source order.
    pub any_order: bool,
    /// Delta-stepping bucket width; 0 chooses.
    pub delta: f64,
    /// CPU threads; 0 uses all cores.
    pub num_threads: i32,
    /// Bytes of device memory an engine may use; 0: what is free.
    pub device_memory_limit: usize,
    /// A `cudaStream_t` to run on, or null for the library's own.
    pub cuda_stream: Option<NonNull<c_void>>,
    pub progress: Option<Progress>,
    /// Distance limit (gsp_search.h): vertices farther than this from the
    /// source(s) are reported unreachable, and Dijkstra-like engines stop
    /// there. `None` (the default): no limit. Needs non-negative weights;
    /// NaN or a negative limit fails with [`Error::INVALID_ARGUMENT`](crate::Error::INVALID_ARGUMENT).
    pub limit: Option<f64>,
    /// CUDA devices a run may use, from [`Options::device`] upward
    /// (doc/multi-gpu.md): 0 (the default) lets AUTO choose (every device
    /// when that is estimated faster), 1 only `device`, k >= 2 exactly
    /// `device .. device + k - 1`. Negative, or k >= 2 with `cuda_stream`,
    /// fails with [`Error::INVALID_ARGUMENT`](crate::Error::INVALID_ARGUMENT).
    pub num_devices: i32,
    /// A road index of the run's graph ([`Index`], gsp_index.h): with
    /// [`Algorithm::AUTO`] or [`Algorithm::CH`], [`Graph::sssp`](crate::Graph::sssp),
    /// `apsp`, `apsp_stream`, `table` and `table_distances` answer from it
    /// (on CPU threads; any other algorithm runs without it). An index of
    /// another graph fails with [`Error::INVALID_ARGUMENT`](crate::Error::INVALID_ARGUMENT).
    /// `None` (the default): none. Holding it here keeps the index alive.
    pub index: Option<Index>,
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
    /// Sets [`Options::any_order`].
    pub fn any_order(mut self, yes: bool) -> Options {
        self.any_order = yes;
        self
    }
    pub fn num_threads(mut self, n: i32) -> Options {
        self.num_threads = n;
        self
    }
    /// Sets [`Options::limit`].
    pub fn limit(mut self, limit: f64) -> Options {
        self.limit = Some(limit);
        self
    }
    /// Sets [`Options::num_devices`].
    pub fn num_devices(mut self, n: i32) -> Options {
        self.num_devices = n;
        self
    }
    /// Sets [`Options::index`] (a cheap clone of the handle).
    pub fn index(mut self, index: &Index) -> Options {
        self.index = Some(index.clone());
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
pub(crate) struct CallState<'a> {
    pub(crate) progress: Option<&'a (dyn Fn(f64) -> bool + Send + Sync)>,
    pub(crate) rows: Option<&'a mut dyn FnMut(RowBlock<'_>) -> bool>,
    pub(crate) n: usize,
    pub(crate) weight_type: WeightType,
    pub(crate) panic: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl CallState<'_> {
    pub(crate) fn finish(self, status: sys::gsp_status) -> Result<()> {
        // Read the message before anything else can call into the library.
        let r = check(status);
        if let Some(p) = self.panic.into_inner().unwrap_or_else(|e| e.into_inner()) {
            resume_unwind(p);
        }
        r
    }
    pub(crate) fn store_panic(&self, p: Box<dyn std::any::Any + Send>) {
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

pub(crate) fn c_options(o: &Options, state: &CallState<'_>) -> sys::gsp_options {
    let mut c = std::mem::MaybeUninit::<sys::gsp_options>::zeroed();
    // Safety: gsp_options_init_sized fills every field of this struct, and nothing past it.
    let mut c = unsafe {
        sys::gsp_options_init_sized(c.as_mut_ptr(), std::mem::size_of::<sys::gsp_options>());
        c.assume_init()
    };
    c.backend = o.backend.0;
    c.algorithm = o.algorithm.0;
    c.device = o.device;
    if o.no_paths {
        c.flags |= sys::GSP_NO_PATHS;
    }
    if o.any_order {
        c.flags |= sys::GSP_ROWS_ANY_ORDER;
    }
    c.delta = o.delta;
    c.num_threads = o.num_threads;
    c.device_memory_limit = o.device_memory_limit;
    c.cuda_stream = o.cuda_stream.map_or(ptr::null_mut(), |p| p.as_ptr());
    if let Some(limit) = o.limit {
        c.limit = limit;
    }
    c.num_devices = o.num_devices;
    c.index = o.index.as_ref().map_or(ptr::null(), |ix| ix.as_ptr());
    if state.progress.is_some() {
        c.progress = Some(progress_trampoline);
        c.progress_user = state as *const CallState<'_> as *mut c_void;
    }
    c
}
