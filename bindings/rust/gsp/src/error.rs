//! Errors: a failed call's status and the library's message.
use crate::{cstr, status_name, sys};
use std::fmt;

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
    pub(crate) fn last(status: sys::gsp_status) -> Error {
        let message = unsafe { cstr(sys::gsp_last_error()) };
        Error { status, message }
    }
    pub(crate) fn new(status: sys::gsp_status, message: impl Into<String>) -> Error {
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

pub(crate) fn check(status: sys::gsp_status) -> Result<()> {
    if status == sys::GSP_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}
