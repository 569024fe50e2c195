//! Road indexes (`gsp_index.h`): a contraction hierarchy of a graph, built
//! once (or loaded from a file), that runs given it in [`Options::index`]
//! answer from.
use crate::{c_options, c_path, check, sys, Error, Graph, Options, Result, RunInfo};
use std::fmt;
use std::path::Path;
use std::ptr::{self, NonNull};
use std::sync::Arc;

/// The C handle; freed when the last [`Index`] clone goes.
struct Handle(NonNull<sys::gsp_index>);

// Safety: a gsp_index is immutable once built or loaded (every query takes a
// const pointer), so it may be shared by threads and freed on any of them.
unsafe impl Send for Handle {}
unsafe impl Sync for Handle {}

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { sys::gsp_index_destroy(self.0.as_ptr()) }
    }
}

/// A road index of a graph (`gsp_index`, a contraction hierarchy).
///
/// [`Index::build`] contracts a graph with weights >= 0 once; set
/// [`Options::index`] (or [`Options::index()`](Options::index)) and the
/// runs of that graph ([`Graph::sssp`], [`Graph::apsp`],
/// [`Graph::apsp_stream`], [`Graph::table`], [`Graph::table_distances`])
/// answer from it, with [`Algorithm::AUTO`](crate::Algorithm::AUTO) or
/// [`Algorithm::CH`](crate::Algorithm::CH): the same distances (`i32` bit for
/// bit; float sums may round differently) and paths, on CPU threads, far
/// faster on road networks (doc/road-index.md). The index keeps no reference
/// to its graph and answers only for it (or an equal graph): another graph
/// fails with [`Error::INVALID_ARGUMENT`].
///
/// Cloning is cheap (a shared handle); the index is freed when the last
/// clone, including those held by [`Options`], is dropped.
#[derive(Clone)]
pub struct Index {
    handle: Arc<Handle>,
    build_info: Option<RunInfo>,
}

/// Sizes of an [`Index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexSize {
    /// n of its graph.
    pub num_vertices: i32,
    /// Arcs of the hierarchy: the graph's, merged, and the shortcuts.
    pub num_arcs: i64,
    /// Shortcut arcs the contraction added.
    pub num_shortcuts: i64,
}

impl Index {
    fn from_out(out: *mut sys::gsp_index, build_info: Option<RunInfo>) -> Result<Index> {
        NonNull::new(out)
            .map(|p| Index { handle: Arc::new(Handle(p)), build_info })
            .ok_or_else(|| Error::new(sys::GSP_ERR_INTERNAL, "the library returned no index"))
    }

    /// Builds the index of `graph` (`gsp_index_build`). Reads
    /// [`Options::num_threads`] (0: every core) and [`Options::progress`]
    /// (the fraction of vertices contracted; `true` stops the build:
    /// [`Error::CANCELLED`]); the other fields are ignored. Negative weights
    /// fail with [`Error::NEGATIVE_WEIGHT`].
    pub fn build(graph: &Graph, options: &Options) -> Result<Index> {
        let state = graph.state(options);
        let c = c_options(options, &state);
        // Safety: all-zero bytes are a valid gsp_run_info.
        let mut info: sys::gsp_run_info = unsafe { std::mem::zeroed() };
        info.size = std::mem::size_of::<sys::gsp_run_info>() as u32;
        let mut out = ptr::null_mut();
        let st = unsafe { sys::gsp_index_build(graph.ptr.as_ptr(), &c, &mut out, &mut info) };
        // Owned at once, so that a failure or a panic from the callback frees it.
        let made = NonNull::new(out).map(Handle);
        state.finish(st)?;
        let handle = made.ok_or_else(|| Error::new(sys::GSP_ERR_INTERNAL, "the library returned no index"))?;
        Ok(Index { handle: Arc::new(handle), build_info: Some(RunInfo::from_c(&info)) })
    }

    /// Reads an index that [`Index::save`] wrote for `graph`
    /// (`gsp_index_load`). A file cut short, damaged or not an index fails
    /// with [`Error::PARSE`], a missing one with [`Error::IO`], an index of
    /// another graph with [`Error::INVALID_ARGUMENT`].
    pub fn load(graph: &Graph, path: impl AsRef<Path>) -> Result<Index> {
        let p = c_path(path.as_ref())?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::gsp_index_load(graph.ptr.as_ptr(), p.as_ptr(), &mut out) })?;
        Index::from_out(out, None)
    }

    /// Writes the index to a file (a versioned binary format with a checksum).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let p = c_path(path.as_ref())?;
        check(unsafe { sys::gsp_index_save(self.as_ptr(), p.as_ptr()) })
    }

    /// Its sizes (`gsp_index_size`).
    pub fn size(&self) -> IndexSize {
        let (mut n, mut arcs, mut shortcuts) = (0i32, 0i64, 0i64);
        // Cannot fail: the handle is never null.
        unsafe { sys::gsp_index_size(self.as_ptr(), &mut n, &mut arcs, &mut shortcuts) };
        IndexSize { num_vertices: n, num_arcs: arcs, num_shortcuts: shortcuts }
    }

    /// What [`Index::build`] did (its seconds and threads); `None` for a
    /// loaded index.
    pub fn build_info(&self) -> Option<&RunInfo> {
        self.build_info.as_ref()
    }

    pub(crate) fn as_ptr(&self) -> *const sys::gsp_index {
        self.handle.0.as_ptr()
    }
}

impl fmt::Debug for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.size();
        write!(f, "Index(n {}, {} arcs, {} shortcuts)", s.num_vertices, s.num_arcs, s.num_shortcuts)
    }
}

impl Graph {
    /// The road index of this graph: [`Index::build`].
    pub fn build_index(&self, options: &Options) -> Result<Index> {
        Index::build(self, options)
    }
}
