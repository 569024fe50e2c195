//! The library's value types: backends, algorithms, weight types, file
//! formats, weights given and distances copied out.
use crate::{check, cstr, sys, Error, Result, I32_INF};
use std::ffi::{c_void, CString};
use std::fmt;
use std::ptr;

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

/// What an algorithm computes: which entry points run it (`gsp_kind`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Kind(pub i32);
impl Kind {
    /// No such algorithm.
    pub const UNKNOWN: Kind = Kind(sys::GSP_KIND_UNKNOWN);
    /// [`Algorithm::AUTO`]: chosen per call.
    pub const AUTO: Kind = Kind(sys::GSP_KIND_AUTO);
    /// One source: [`Graph::sssp`](crate::Graph::sssp).
    pub const SSSP: Kind = Kind(sys::GSP_KIND_SSSP);
    /// Many sources: apsp, apsp_stream, tables.
    pub const APSP: Kind = Kind(sys::GSP_KIND_APSP);
    /// Answers from a road index ([`Index`](crate::Index)).
    pub const INDEX: Kind = Kind(sys::GSP_KIND_INDEX);
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
    /// One delta-stepping search per source ("batched-delta-stepping"; w >= 0; CPU and CUDA).
    pub const APSP_DELTA_STEPPING: Algorithm = Algorithm(sys::GSP_APSP_DELTA_STEPPING);
    /// Min-plus SpMM Bellman-Ford, a tile of sources per vertex ("spmm"; w >= 0; CUDA only).
    pub const APSP_SPMM: Algorithm = Algorithm(sys::GSP_APSP_SPMM);
    /// Queries on a road index ("ch"; w >= 0; CPU): runs given
    /// [`Options::index`](crate::Options::index) answer from it with AUTO or this.
    pub const CH: Algorithm = Algorithm(sys::GSP_CH);
    /// The SSSP algorithms this crate names (`Algorithm::of_kind(Kind::SSSP)`
    /// lists the library's, a newer library's too).
    pub const SSSP: [Algorithm; 9] = [
        Self::SSSP_DIJKSTRA, Self::SSSP_BELLMAN_FORD, Self::SSSP_DELTA_STEPPING, Self::SSSP_ATOMIC_LOCK,
        Self::SSSP_HARISH, Self::SSSP_SPMV_CSR, Self::SSSP_SPMV_ELL, Self::SSSP_GPU_DIJKSTRA, Self::SSSP_ATOMIC_64,
    ];
    /// The APSP algorithms this crate names (`Algorithm::of_kind(Kind::APSP)`: the library's).
    pub const APSP: [Algorithm; 7] = [
        Self::APSP_FLOYD_WARSHALL, Self::APSP_MINPLUS, Self::APSP_HEAP, Self::APSP_TASK_PARALLEL, Self::APSP_JOHNSON,
        Self::APSP_DELTA_STEPPING, Self::APSP_SPMM,
    ];
    /// The algorithms this crate names that answer from a road index
    /// ([`Index`](crate::Index); `Algorithm::of_kind(Kind::INDEX)`: the library's).
    pub const INDEX: [Algorithm; 1] = [Self::CH];

    /// The CLI's name, e.g. "dijkstra".
    pub fn name(self) -> String {
        unsafe { cstr(sys::gsp_algorithm_name(self.0)) }
    }
    /// The C enumerator's name, e.g. "GSP_SSSP_DIJKSTRA".
    pub fn identifier(self) -> String {
        unsafe { cstr(sys::gsp_algorithm_identifier(self.0)) }
    }
    /// The library's one-line summary, e.g. "SSSP, w >= 0: binary-heap Dijkstra (CPU)".
    pub fn summary(self) -> String {
        unsafe { cstr(sys::gsp_algorithm_summary(self.0)) }
    }
    /// Which entry points run it ([`Kind::UNKNOWN`] for a value the library does not know).
    pub fn kind(self) -> Kind {
        Kind(unsafe { sys::gsp_algorithm_kind(self.0) })
    }
    /// Whether it runs on graphs with negative arcs.
    pub fn accepts_negative_weights(self) -> bool {
        unsafe { sys::gsp_algorithm_accepts_negative_weights(self.0) != 0 }
    }
    /// Whether this build of libgsp has an engine for it on `backend` (AUTO: on either).
    pub fn has_engine(self, backend: Backend) -> bool {
        unsafe { sys::gsp_algorithm_has_engine(self.0, backend.0) != 0 }
    }
    /// Every algorithm of the library, in value order (its table: values run
    /// 0, 1, 2, ... while the library knows them).
    pub fn all() -> Vec<Algorithm> {
        (0..).map(Algorithm).take_while(|a| a.kind() != Kind::UNKNOWN).collect()
    }
    /// The library's algorithms of one kind, in value order.
    pub fn of_kind(kind: Kind) -> Vec<Algorithm> {
        Self::all().into_iter().filter(|a| a.kind() == kind).collect()
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

/// Weight (and distance) type of a graph (`gsp_dtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightType {
    F32,
    I32,
    /// `f64` weights and distances (unreachable: `f64::INFINITY`).
    F64,
}
impl WeightType {
    pub(crate) fn raw(self) -> sys::gsp_dtype {
        match self {
            WeightType::F32 => sys::GSP_F32,
            WeightType::I32 => sys::GSP_I32,
            WeightType::F64 => sys::GSP_F64,
        }
    }
    pub(crate) fn from_raw(v: sys::gsp_dtype) -> WeightType {
        match v {
            sys::GSP_I32 => WeightType::I32,
            sys::GSP_F64 => WeightType::F64,
            _ => WeightType::F32,
        }
    }
    /// Bytes of one weight or distance.
    pub fn size(self) -> usize {
        match self {
            WeightType::F64 => 8,
            WeightType::F32 | WeightType::I32 => 4,
        }
    }
    /// One distance of this type, which the library wrote into the first
    /// `size()` bytes of `raw`, as f64: unreachable is `f64::INFINITY` for
    /// every type.
    pub(crate) fn raw_to_f64(self, raw: u64) -> f64 {
        let b = raw.to_ne_bytes();
        let b4 = [b[0], b[1], b[2], b[3]];
        match self {
            WeightType::F32 => f32::from_ne_bytes(b4) as f64,
            WeightType::I32 => match i32::from_ne_bytes(b4) {
                I32_INF => f64::INFINITY,
                v => v as f64,
            },
            WeightType::F64 => f64::from_ne_bytes(b),
        }
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
    pub(crate) fn raw(self) -> sys::gsp_format {
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
    F64(&'a [f64]),
}
impl Weights<'_> {
    pub(crate) fn parts(&self, m: usize) -> Result<(*const c_void, sys::gsp_dtype)> {
        let (p, len, t) = match *self {
            Weights::Unit(t) => return Ok((ptr::null(), t.raw())),
            Weights::F32(w) => (w.as_ptr() as *const c_void, w.len(), sys::GSP_F32),
            Weights::I32(w) => (w.as_ptr() as *const c_void, w.len(), sys::GSP_I32),
            Weights::F64(w) => (w.as_ptr() as *const c_void, w.len(), sys::GSP_F64),
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
    /// Unreachable: `f64::INFINITY`.
    F64(Vec<f64>),
}
impl Distances {
    pub(crate) fn zeroed(t: WeightType, n: usize) -> Distances {
        match t {
            WeightType::F32 => Distances::F32(vec![0.0; n]),
            WeightType::I32 => Distances::I32(vec![0; n]),
            WeightType::F64 => Distances::F64(vec![0.0; n]),
        }
    }
    pub(crate) fn as_mut_ptr(&mut self) -> *mut c_void {
        match self {
            Distances::F32(v) => v.as_mut_ptr() as *mut c_void,
            Distances::I32(v) => v.as_mut_ptr() as *mut c_void,
            Distances::F64(v) => v.as_mut_ptr() as *mut c_void,
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Distances::F32(v) => v.len(),
            Distances::I32(v) => v.len(),
            Distances::F64(v) => v.len(),
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
            Distances::F64(v) => v.clone(),
        }
    }
    pub fn as_f32(&self) -> Option<&[f32]> {
        if let Distances::F32(v) = self { Some(v) } else { None }
    }
    pub fn as_i32(&self) -> Option<&[i32]> {
        if let Distances::I32(v) = self { Some(v) } else { None }
    }
    pub fn as_f64(&self) -> Option<&[f64]> {
        if let Distances::F64(v) = self { Some(v) } else { None }
    }
    /// The type of the values.
    pub fn weight_type(&self) -> WeightType {
        match self {
            Distances::F32(_) => WeightType::F32,
            Distances::I32(_) => WeightType::I32,
            Distances::F64(_) => WeightType::F64,
        }
    }
}
