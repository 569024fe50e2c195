//! Nearest-source searches (`gsp_nearest_run`, gsp_search.h): for every
//! vertex, the distance from the closest of many sources, which source that
//! is, and the path.
use crate::{c_options, len_i32, sys, Distances, Graph, Options, Result};
use std::ptr;

/// The result of [`Graph::nearest`]: one entry per vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearest {
    /// Distance from the nearest source, in the graph's weight type
    /// (unreachable: infinity, or [`I32_INF`](crate::I32_INF)); 0 at every source.
    pub distances: Distances,
    /// The source each distance is measured from (a source names itself),
    /// -1 where no source reaches (or is within [`Options::limit`]).
    pub nearest: Vec<i32>,
    /// The vertex before each on its path from its nearest source, -1 at
    /// sources and unreached vertices; `None` when run with `no_paths`.
    pub predecessors: Option<Vec<i32>>,
}

impl Nearest {
    /// The vertices of the shortest path to `target` from its nearest
    /// source, that source first; `None` when no source reaches `target` (or
    /// the run had `no_paths`).
    pub fn path(&self, target: i32) -> Option<Vec<i32>> {
        let pred = self.predecessors.as_ref()?;
        let n = pred.len();
        let t = usize::try_from(target).ok().filter(|&t| t < n)?;
        if self.nearest[t] < 0 {
            return None;
        }
        let mut v = vec![target];
        let mut cur = t;
        while pred[cur] >= 0 && v.len() <= n {
            cur = pred[cur] as usize;
            v.push(cur as i32);
        }
        v.reverse();
        Some(v)
    }
}

impl Graph {
    /// One search from all of `sources` at once (each at distance 0): for
    /// every vertex, the distance from the closest source and which one it
    /// is, as cheap as one [`Graph::sssp`]. Where two sources are equally
    /// near, either may be named. The algorithm is
    /// [`Algorithm::AUTO`](crate::Algorithm::AUTO) or a single-source one;
    /// [`Options::limit`] applies.
    pub fn nearest(&self, sources: &[i32], options: &Options) -> Result<Nearest> {
        let ns = len_i32(sources.len(), "sources")?;
        let n = self.num_vertices().max(0) as usize;
        let state = self.state(options);
        let c = c_options(options, &state);
        let mut distances = Distances::zeroed(self.weight_type(), n);
        let mut nearest = vec![0i32; n];
        let mut predecessors = if options.no_paths { None } else { Some(vec![0i32; n]) };
        let st = unsafe {
            sys::gsp_nearest_run(
                self.ptr.as_ptr(),
                if sources.is_empty() { ptr::null() } else { sources.as_ptr() },
                ns,
                &c,
                distances.as_mut_ptr(),
                nearest.as_mut_ptr(),
                predecessors.as_mut().map_or(ptr::null_mut(), |p| p.as_mut_ptr()),
            )
        };
        state.finish(st)?;
        Ok(Nearest { distances, nearest, predecessors })
    }
}
