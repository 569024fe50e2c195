//! Results of a run: distances, predecessors, paths and what ran.
use crate::{check, sys, Algorithm, Backend, Distances, Error, Result, WeightType};
use std::ffi::c_void;
use std::ptr::{self, NonNull};

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
    /// Stages (doc/run-info.md): disjoint parts of `seconds`, 0 where the engine does not measure one.
    /// Allocation and initialisation.
    pub setup_seconds: f64,
    /// The search or the matrix steps, with any copies they overlap.
    pub compute_seconds: f64,
    /// Results into host memory.
    pub copy_seconds: f64,
    /// A separate predecessor pass or repair.
    pub paths_seconds: f64,
    /// CUDA devices the run used, `device` and the next ones (0 on the CPU).
    pub num_devices: i32,
}

impl RunInfo {
    pub(crate) fn from_c(c: &sys::gsp_run_info) -> RunInfo {
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
            setup_seconds: c.setup_seconds,
            compute_seconds: c.compute_seconds,
            copy_seconds: c.copy_seconds,
            paths_seconds: c.paths_seconds,
            num_devices: c.num_devices,
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
    pub(crate) fn from_out(out: *mut sys::gsp_paths) -> Result<Paths> {
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

    /// One distance, as f64 (`f64::INFINITY` when unreachable, for every type).
    pub fn distance(&self, source: i32, target: i32) -> Result<f64> {
        let mut raw = 0u64; // 8 aligned bytes: room for any weight type
        let out = &mut raw as *mut u64 as *mut c_void;
        check(unsafe { sys::gsp_paths_distance(self.ptr.as_ptr(), source, target, out) })?;
        Ok(self.weight_type.raw_to_f64(raw))
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
