//! Graphs: construction, files, CSR, and the SSSP / APSP runs on them.
use crate::{
    c_options, c_path, check, len_i32, sys, CallState, Distances, Error, Format, Options, Paths, Result, WeightType,
    Weights,
};
use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr::{self, NonNull};

/// An immutable weighted directed graph (`gsp_graph`).
pub struct Graph {
    pub(crate) ptr: NonNull<sys::gsp_graph>,
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
    F64(&'a [f64]),
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
            WeightType::F64 => RowDistances::F64(slice_or_empty(distances as *const f64, len)),
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

    pub(crate) fn state<'a>(&self, o: &'a Options) -> CallState<'a> {
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

    /// All-pairs shortest paths delivered in row blocks, in source order
    /// (in any order with [`Options::any_order`]: each block's
    /// `first_source_index` says where it goes); `on_rows` returns `true` to
    /// stop (the call then fails with [`Error::CANCELLED`]).
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
