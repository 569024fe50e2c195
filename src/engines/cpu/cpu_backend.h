// The CPU backend's door: the entry points of the CPU engines (src/engines/cpu/), the one
// header of them that dispatch/ includes, with the shape of its twin, the CUDA backend's door
// (engines/cuda/cuda_backend.h). The dispatcher calls sssp() / apsp() with a resolved
// algorithm; each routes to its engine file (cpu_backend.cpp). Beside the two run kinds it
// has what only the CPU offers: the negative-cycle check, Johnson's reweighting for an
// engine of the other backend, the table engine, road indexes, and what dispatch/ reads of
// the CPU engines (the delta-stepping facts, the pooled threads).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/engine.h"
#include "core/road_index.h"
#include "core/table.h"

namespace gsp::detail::cpu {

// True if the CPU backend has an engine for this algorithm (core/algorithms.h).
bool supports(gsp_algorithm algorithm);
// SSSP: GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING.
void sssp(const SsspJob& job);
// APSP: GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MINPLUS, GSP_APSP_HEAP (repeated
// Dijkstra, one task per source), GSP_APSP_DELTA_STEPPING (the same engine
// with job.rows_by_delta_stepping, which the dispatcher sets for it),
// GSP_APSP_JOHNSON.
void apsp(const ApspJob& job);
// Float64 evidence for a negative cycle anywhere in the graph: queue
// Bellman-Ford from a virtual source joined to every vertex, with labels in
// int64 / double (sssp_core.h). dispatch.cpp asks it before it lets a float
// engine call a float graph a negative-cycle graph.
bool has_negative_cycle(const Graph& graph);

// Johnson's reweighting for an engine of another backend (johnson_reduced.cpp):
// potentials h from the queue Bellman-Ford of johnson.h (in int64 / double;
// GSP_ERR_NEGATIVE_CYCLE when the graph has one), and the graph of reduced
// costs w + h[u] - h[v] >= 0 as float64 weights, the original's arcs in
// its CSR order, on which any engine for non-negative weights runs; paths
// on it are paths of the original. unreduce() maps a float64 distance from
// `source` back to the original's weight type (d - h[source] + h[t]; an
// int32 or float distance that does not fit is GSP_ERR_OVERFLOW, as the CPU
// Johnson reports it).
struct ReducedGraph {
  GraphPtr graph;                  // GSP_F64, the reduced costs
  std::vector<double> potentials;  // h, one per vertex
  gsp_dtype dtype = GSP_F32;       // the original's weight type
  int64_t relaxations = 0;         // Bellman-Ford's
  // false when int32 weights reduce to costs whose sums float64 might round
  // (a cost times n reaching 2^53): then only the CPU Johnson is exact.
  bool exact = true;
  // count distances of a row from `source` (reduced, float64) into out
  // (count values of dtype): to vertices columns[0..count), or 0..count
  // when columns is null.
  void unreduce(int32_t source, const double* reduced, const int32_t* columns, int32_t count, void* out) const;
};
ReducedGraph johnson_reduced_graph(const Graph& graph, const RunOptions* options);

// What AUTO's CPU cost model (dispatch/cpu_cost_model.cpp) reads of delta-stepping
// (delta_stepping.cpp): the delta chosen from the graph when options->delta is 0, and
// the threads a run uses when `requested` are asked for (at most the cores, and one
// per 4096 arcs).
double choose_delta(const Graph& g);
int delta_stepping_threads(const Graph& g, int requested);

// f(i) for every i in [0, count), on min(threads, count) of the CPU engines' pooled
// threads (common/team.h; the calling thread is one of them, and alone when threads
// or count is at most 1); the first exception an f threw is rethrown. Host work that
// dispatch/ spreads over the rows of a run (a table's cells and paths, Johnson's rows
// mapped back to the graph's weight type).
void for_each_index(int32_t threads, int32_t count, const std::function<void(int32_t)>& f);

// A many-to-many table (table_dijkstra.cpp): K x T distances of the graph's
// weight type into dist (row-major, row i: from sources[i]) and, when paths
// is not null, every cell's path. Per source, a binary-heap Dijkstra that
// stops once every distinct target is settled, or, when the targets are one
// vertex and no arc is negative, a bidirectional one (point_to_point.h);
// on Johnson's reduced costs when the graph has negative arcs
// (GSP_ERR_NEGATIVE_CYCLE when it has a negative cycle). Sources are
// spread over options->num_threads threads. The job is core/table.h's.
// true: every cell written; false: a search outgrew job.settle_budget.
bool table(const TableJob& job);

// Road indexes (engines/cpu/index/; doc/road-index.md).
// The contraction hierarchy of `graph` (weights >= 0:
// GSP_ERR_NEGATIVE_WEIGHT otherwise; ch_build.cpp): vertices contracted in
// rounds of independent sets on options.num_threads threads, progress
// reported as the fraction contracted (GSP_ERR_CANCELLED when the callback
// stops it). stats: iterations = rounds, relaxations = witness-search arc
// scans.
std::unique_ptr<ChBase> build_index(const Graph& graph, const RunOptions& options, RunStats* stats);
// Runs that answer from an index of job.graph (ch_query.cpp; the dispatcher
// has checked that it is the graph's): one row (PHAST: an upward search
// from the source, then one sweep over the vertices in rank order), the
// rows of job.sources in source order (spread over the threads), a K x T
// table (buckets: an upward search from each target leaves its labels at
// the vertices it reaches, one from each source reads them). Paths are
// unpacked to the graph's vertices.
void index_sssp(const ChBase& index, const SsspJob& job);
void index_apsp(const ChBase& index, const ApspJob& job);
void index_table(const ChBase& index, const TableJob& job);
// The upward searches of `count` sources (PHAST's first half, for a sweep
// on the CUDA backend: core/road_index.h's ChSeeds), spread over `threads`
// threads (ch_seeds.cpp). W is the index's weight type.
template <class W>
void index_seeds(const ChBase& index, const int32_t* sources, int32_t count, int threads, ChSeeds<W>& out);

}  // namespace gsp::detail::cpu
