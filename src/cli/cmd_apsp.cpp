// `gsp apsp`: all-pairs (or many-sources) shortest paths, streamed to a file.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cli.h"
#include "gsp/gsp.h"
#include "svg.h"
#include "gsp_generators.h"

namespace gsp_cli {

// ------------------------------------------------------------------ apsp

const Spec kApsp = {"apsp",
                    std::string("usage: gsp apsp FILE [--sources LIST] [--out FILE] [options]\n"
                                "\n"
                                "All-pairs (or many-sources) shortest paths, one line per source in FILE\n"
                                "('SOURCE: D0 D1 ... Dn-1', 'inf' when unreachable). Results up to 256 MiB\n"
                                "(sources x vertices x 4 bytes; 8 with f64 weights) are computed whole and\n"
                                "the report names the algorithm that ran; larger ones are streamed to FILE\n"
                                "as they are computed, never held in memory whole.\n"
                                "\n"
                                "  --sources LIST    e.g. 0,5,10-20 (default: every vertex)\n"
                                "  --out FILE        write the rows to FILE (-: standard output; the summary\n"
                                "                    then goes to stderr)\n")
                        .append(kRunHelp)
                        .append(kDevicesHelp)
                        .append(kLimitHelp)
                        .append(kIndexHelp)
                        .append(kLoadHelp)
                        .append(kCommonHelp),
                    {"--sources", "--out", "--algorithm", "--backend", "--threads", "--delta", "--limit", "--devices",
                     "--index", "--format", "--weights"},
                    {"--undirected"}};

namespace {

struct ApspSink {
  FILE* f = nullptr;
  std::unique_ptr<Writer> out;  // over f
  const std::vector<int32_t>* sources = nullptr;
  int32_t n = 0, total = 0, done = 0;
  gsp_dtype dtype = GSP_F32;
  int64_t reachable_pairs = 0;
  double longest = 0;
  Progress* prog = nullptr;
};

// Reachable vertices and the longest finite distance of one row: a typed
// loop over the values (a whole NY row block is 10^8 of them).
template <class W>
void summarize_row(const W* row, int32_t n, int64_t* reachable_count, double* longest) {
  int64_t count = 0;
  W most = 0;
  for (int32_t v = 0; v < n; v++) {
    const W d = row[v];
    const bool finite =
        std::is_same_v<W, int32_t> ? d != static_cast<W>(GSP_I32_INF) : !std::isinf(static_cast<double>(d));
    count += finite ? 1 : 0;
    if (finite && d > most) most = d;
  }
  *reachable_count += count;
  if (count > 0) *longest = std::max(*longest, static_cast<double>(most));
}

int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t*) {
  ApspSink& k = *static_cast<ApspSink*>(user);
  for (int32_t r = 0; r < rows; r++) {
    const int32_t src =
        k.sources->empty() ? first + r : (*k.sources)[static_cast<size_t>(first) + static_cast<size_t>(r)];
    const char* row =
        static_cast<const char*>(dist) + static_cast<size_t>(r) * static_cast<size_t>(k.n) * weight_bytes(k.dtype);
    if (k.out) {
      k.out->num(src) << ':';
      for (int32_t v = 0; v < k.n; v++) k.out->operator<<(' ').dist(k.dtype, row, v);
      *k.out << '\n';
    }
    const void* values = row;
    if (k.dtype == GSP_I32)
      summarize_row(static_cast<const int32_t*>(values), k.n, &k.reachable_pairs, &k.longest);
    else if (k.dtype == GSP_F64)
      summarize_row(static_cast<const double*>(values), k.n, &k.reachable_pairs, &k.longest);
    else
      summarize_row(static_cast<const float*>(values), k.n, &k.reachable_pairs, &k.longest);
  }
  k.done += rows;
  if (k.prog) k.prog->update(static_cast<double>(k.done) / k.total);
  return 0;
}

// Results up to this size are computed whole (gsp_apsp_run), so that
// gsp_paths_info names the algorithm and backend that ran; larger ones are
// streamed row block by row block (gsp_apsp_stream), which reports no run
// info: the report then names what gsp_run_plan says the run uses.
constexpr int64_t kWholeResultBytes = int64_t(256) << 20;

// Every row of a whole result, through the streaming writer.
gsp_status write_whole(const gsp_paths* p, int32_t count, ApspSink& sink) {
  std::vector<char> row(static_cast<size_t>(sink.n) * weight_bytes(sink.dtype));
  for (int32_t i = 0; i < count; i++) {
    const gsp_status st = gsp_paths_distances(p, gsp_paths_source(p, i), row.data(), sink.n);
    if (st != GSP_OK) return st;
    on_rows(&sink, i, 1, row.data(), nullptr);
  }
  return GSP_OK;
}

}  // namespace

int cmd_apsp(const Args& a) {
  if (a.pos.size() != 1) usage_error("expected one FILE");
  Progress prog;
  gsp_options o;
  run_options(a, o, nullptr);
  o.flags |= GSP_NO_PATHS;
  check_index_args(a);
  Loaded L;
  start_device_early(a, true);
  load(L, a, a.pos[0]);
  IndexHolder H;
  load_index(H, a, L.g, o);
  const int32_t n = gsp_graph_num_vertices(L.g);
  std::vector<int32_t> sources;
  if (a.opt.count("--sources")) sources = parse_vertex_list("--sources", a.get("--sources"), n);
  ApspSink sink;
  sink.sources = &sources;
  sink.n = n;
  sink.total = sources.empty() ? n : static_cast<int32_t>(sources.size());
  sink.dtype = gsp_graph_weight_type(L.g);
  sink.prog = &prog;
  const bool quiet = a.has("--quiet"), json = a.has("--json");
  const std::string out = a.get("--out");
  FILE* const rep = report_stream(a);
  if (!out.empty()) {
    sink.f = open_out(out);
    std::fprintf(sink.f, "# gsp apsp %s: %d sources x %d vertices, 'SOURCE: distances'\n", a.pos[0].c_str(), sink.total,
                 n);
    sink.out = std::make_unique<Writer>(sink.f, "--out");
  }
  const int32_t* const list = sources.empty() ? nullptr : sources.data();
  const bool whole =
      static_cast<int64_t>(sink.total) * n * static_cast<int64_t>(weight_bytes(sink.dtype)) <= kWholeResultBytes;
  PathsHolder P;
  if (whole) {  // progress from the run itself, not from the rows written after it
    o.progress = progress_cb;
    o.progress_user = &prog;
    sink.prog = nullptr;
  }
  prog.begin(quiet || json);
  const double t0 = now();
  gsp_status st = whole ? gsp_apsp_run(L.g, list, sink.total, &o, &P.p)
                        : gsp_apsp_stream(L.g, list, sink.total, &o, on_rows, &sink);
  const double secs = now() - t0;
  prog.end();
  if (whole && st == GSP_OK) st = write_whole(P.p, sink.total, sink);
  if (sink.out && st == GSP_OK) sink.out->finish();
  if (sink.f) {
    if (st != GSP_OK && sink.f != stdout)
      std::fclose(sink.f);
    else
      close_out(sink.f, out);
  }
  if (st != GSP_OK) failure("apsp failed: " + status_text(st));
  gsp_backend used = o.backend;
  gsp_algorithm ran = o.algorithm;
  std::string stages, stages_json, devices, devices_json;  // a streamed run has no run info
  if (whole) {
    const RunInfo ri = run_info(P.p);
    ran = ri.info.algorithm;
    used = ri.info.backend;
    stages = ri.stages();
    stages_json = ", " + ri.stages_json();
    devices = devices_text(ri.info);
    devices_json = fmt(", \"num_devices\": %d", ri.info.num_devices);
  } else if (const gsp_status ps = gsp_run_plan(L.g, 0, sink.total, &o, &used, &ran); ps != GSP_OK) {
    failure("apsp: cannot name the run's algorithm: " + status_text(ps));
  }
  const char* alg = gsp_algorithm_name(ran);
  if (json) {
    std::printf(
        "{\"file\": %s, \"vertices\": %d, \"arcs\": %lld, \"load_seconds\": %.6f, \"sources\": %d, "
        "\"algorithm\": %s, \"backend\": %s%s, \"seconds\": %.6f%s, \"reachable_pairs\": %lld, \"longest\": %s%s}\n",
        json_str(a.pos[0]).c_str(), n, static_cast<long long>(gsp_graph_num_edges(L.g)), L.seconds, sink.total,
        json_str(alg).c_str(), json_str(gsp_backend_name(used)).c_str(), devices_json.c_str(), secs,
        stages_json.c_str(), static_cast<long long>(sink.reachable_pairs), value_text(sink.dtype, sink.longest).c_str(),
        out.empty() ? "" : (", \"out\": " + json_str(out)).c_str());
  } else if (!quiet) {
    print_graph_line(rep, a.pos[0], L);
    print_index_line(rep, a, H);
    std::fprintf(rep, "run:       %s on %s%s, %d sources, %.3f s%s%s\n", alg, gsp_backend_name(used), devices.c_str(),
                 sink.total, secs, whole ? "" : " (rows streamed)", stages.c_str());
    std::fprintf(rep, "reachable: %lld of %lld pairs; longest shortest path %s\n",
                 static_cast<long long>(sink.reachable_pairs), static_cast<long long>(sink.total) * n,
                 value_text(sink.dtype, sink.longest).c_str());
    if (!out.empty()) std::fprintf(rep, "wrote:     %s\n", out.c_str());
  }
  return 0;
}

}  // namespace gsp_cli
