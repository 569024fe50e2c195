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
//! sources to a list of targets only; [`Graph::nearest`] the distance from
//! the nearest of many sources, and which one it is. Weights are `f32`,
//! `i32` or `f64` ([`Weights`], [`Distances`]); [`Options::limit`] bounds a
//! search. An [`Index`] (a road index, built once with [`Index::build`],
//! kept in a file with [`Index::save`] / [`Index::load`]) answers the runs
//! given it in [`Options::index`] far faster on road networks.
use gsp_sys as sys;
use std::ffi::{c_char, CStr, CString};
use std::path::Path;

pub use error::{Error, Result};
pub use graph::{Csr, Graph, RowBlock, RowDistances};
pub use index::{Index, IndexSize};
pub use nearest::Nearest;
pub use options::{Options, Progress};
pub use paths::{Paths, RunInfo};
pub use sys::GSP_I32_INF as I32_INF;
pub use table::Table;
pub use types::{Algorithm, Backend, Distances, Format, Kind, WeightType, Weights};

use error::check;
use options::{c_options, CallState};

// One module per concern; everything public is re-exported above.
mod error;
mod graph;
mod index;
mod nearest;
mod options;
mod paths;
mod table;
mod types;

// ------------------------------------------------------------------ helpers

pub(crate) unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

pub(crate) fn c_path(path: &Path) -> Result<CString> {
    CString::new(path.to_string_lossy().as_bytes())
        .map_err(|_| Error::new(sys::GSP_ERR_INVALID_ARGUMENT, "path contains a NUL byte"))
}

pub(crate) fn len_i32(n: usize, what: &str) -> Result<i32> {
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
