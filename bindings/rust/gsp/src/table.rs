//! Many-to-many shortest paths (`gsp_table_*`): the distances, and
//! optionally the paths, from a list of sources to a list of targets.
use crate::{check, c_options, len_i32, sys, Distances, Error, Graph, Options, Result, RunInfo, WeightType};
use std::ffi::c_void;
use std::ptr::{self, NonNull};

/// The distances (and, unless run with `no_paths`, the paths) from K sources
/// to T targets (`gsp_table`). Cells are addressed by index into the two
/// lists: `(i, j)` is from `sources[i]` to `targets[j]`, not by vertex id.
/// Only the K × T cells are kept, never whole rows; a table stays valid after
/// its [`Graph`] is dropped.
pub struct Table {
    ptr: NonNull<sys::gsp_table>,
    num_sources: usize,
    num_targets: usize,
    weight_type: WeightType,
}

// Safety: a gsp_table is immutable once gsp_table_run returns: every
// accessor takes a const pointer and copies out, and the table holds its
// cells itself (not the graph), so it may be sent to and shared between
// threads, like a gsp_paths.
unsafe impl Send for Table {}
unsafe impl Sync for Table {}

impl Drop for Table {
    fn drop(&mut self) {
        unsafe { sys::gsp_table_destroy(self.ptr.as_ptr()) }
    }
}

fn index(i: usize, what: &str) -> Result<i32> {
    i32::try_from(i).map_err(|_| Error::new(sys::GSP_ERR_INVALID_ARGUMENT, format!("{what} {i} is out of range")))
}

impl Graph {
    /// Shortest paths from every vertex of `sources` to every vertex of
    /// `targets` (either list may repeat ids, or be empty). The algorithm is
    /// [`Algorithm::AUTO`](crate::Algorithm::AUTO) or an all-pairs one;
    /// `no_paths` keeps distances only ([`Table::path`] then fails with
    /// [`Error::UNSUPPORTED`]).
    pub fn table(&self, sources: &[i32], targets: &[i32], options: &Options) -> Result<Table> {
        let (ns, nt) = (len_i32(sources.len(), "sources")?, len_i32(targets.len(), "targets")?);
        let state = self.state(options);
        let c = c_options(options, &state);
        let mut out = ptr::null_mut();
        let st = unsafe {
            sys::gsp_table_run(self.ptr.as_ptr(), sources.as_ptr(), ns, targets.as_ptr(), nt, &c, &mut out)
        };
        state.finish(st)?;
        Table::from_out(out)
    }

    /// The distances of [`Graph::table`] only, straight into a new array (no
    /// table object): K × T values in the graph's type, row-major (row i from
    /// `sources[i]`), and what the run did. `no_paths` is implied.
    pub fn table_distances(&self, sources: &[i32], targets: &[i32], options: &Options) -> Result<(Distances, RunInfo)> {
        let (ns, nt) = (len_i32(sources.len(), "sources")?, len_i32(targets.len(), "targets")?);
        let state = self.state(options);
        let mut c = c_options(options, &state);
        c.flags |= sys::GSP_NO_PATHS;
        let mut d = Distances::zeroed(self.weight_type(), sources.len() * targets.len());
        // Safety: all-zero bytes are a valid gsp_run_info.
        let mut info: sys::gsp_run_info = unsafe { std::mem::zeroed() };
        info.size = std::mem::size_of::<sys::gsp_run_info>() as u32;
        let st = unsafe {
            sys::gsp_table_run_into(
                self.ptr.as_ptr(),
                sources.as_ptr(),
                ns,
                targets.as_ptr(),
                nt,
                &c,
                d.as_mut_ptr(),
                &mut info,
            )
        };
        state.finish(st)?;
        Ok((d, RunInfo::from_c(&info)))
    }
}

impl Table {
    fn from_out(out: *mut sys::gsp_table) -> Result<Table> {
        let ptr = NonNull::new(out).ok_or_else(|| Error::new(sys::GSP_ERR_INTERNAL, "the library returned no table"))?;
        let mut t = Table { ptr, num_sources: 0, num_targets: 0, weight_type: WeightType::F32 };
        let (mut k, mut n) = (0i32, 0i32);
        check(unsafe { sys::gsp_table_size(ptr.as_ptr(), &mut k, &mut n) })?;
        t.num_sources = k.max(0) as usize;
        t.num_targets = n.max(0) as usize;
        t.weight_type = t.info()?.weight_type;
        Ok(t)
    }

    /// K, the number of sources (rows).
    pub fn num_sources(&self) -> usize {
        self.num_sources
    }
    /// T, the number of targets (columns).
    pub fn num_targets(&self) -> usize {
        self.num_targets
    }
    pub fn weight_type(&self) -> WeightType {
        self.weight_type
    }

    /// All K × T distances, row-major: the cell (i, j) is at `i * T + j`
    /// (unreachable: infinity, or [`I32_INF`](crate::I32_INF) for `I32`).
    pub fn distances(&self) -> Result<Distances> {
        let cells = self.num_sources * self.num_targets;
        let mut d = Distances::zeroed(self.weight_type, cells);
        check(unsafe { sys::gsp_table_distances(self.ptr.as_ptr(), d.as_mut_ptr(), cells as i64) })?;
        Ok(d)
    }

    /// The distance from `sources[i]` to `targets[j]` as f64
    /// (`f64::INFINITY` when unreachable, for every type).
    pub fn distance(&self, i: usize, j: usize) -> Result<f64> {
        let mut raw = 0u64; // 8 aligned bytes: room for any weight type
        check(unsafe {
            sys::gsp_table_distance(
                self.ptr.as_ptr(),
                index(i, "source index")?,
                index(j, "target index")?,
                &mut raw as *mut u64 as *mut c_void,
            )
        })?;
        Ok(self.weight_type.raw_to_f64(raw))
    }

    /// The vertices of a shortest path from `sources[i]` to `targets[j]`,
    /// both included. [`Error::NO_PATH`] when unreachable,
    /// [`Error::UNSUPPORTED`] when the table was run with `no_paths`.
    pub fn path(&self, i: usize, j: usize) -> Result<Vec<i32>> {
        let (si, ti) = (index(i, "source index")?, index(j, "target index")?);
        let mut len = 0i32;
        check(unsafe { sys::gsp_table_path(self.ptr.as_ptr(), si, ti, ptr::null_mut(), 0, &mut len) })?;
        let mut v = vec![0i32; len.max(0) as usize];
        check(unsafe { sys::gsp_table_path(self.ptr.as_ptr(), si, ti, v.as_mut_ptr(), len, &mut len) })?;
        v.truncate(len.max(0) as usize);
        Ok(v)
    }

    /// What the run did (`num_sources` is K).
    pub fn info(&self) -> Result<RunInfo> {
        // Safety: all-zero bytes are a valid gsp_run_info.
        let mut c: sys::gsp_run_info = unsafe { std::mem::zeroed() };
        c.size = std::mem::size_of::<sys::gsp_run_info>() as u32;
        check(unsafe { sys::gsp_table_info(self.ptr.as_ptr(), &mut c) })?;
        Ok(RunInfo::from_c(&c))
    }
}
