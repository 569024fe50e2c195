// SSSP benchmark: every CPU SSSP engine (all cores) and every CUDA SSSP
// engine on Graph4096 / Graph65536 (random, out-degree 6, as in the seeds),
// the NY road graph (when GSP_DATA_DIR has it) and an R-MAT graph of 1M
// vertices / 16M arcs; peers in the same run where present: SciPy's
// csgraph.dijkstra (python3) and Boost Graph Library's
// dijkstra_shortest_paths. Prints ratios against the CPU Dijkstra of the same
// run, appends rows to a CSV and a dated table to $GSP_BENCH_RESULTS. Then the
// CPU AUTO section (issue 20): CPU Dijkstra, delta-stepping and AUTO at 1, 2
// and 16 threads on NY, Graph65536 and R-MAT, and AUTO over the better one.
#include <cmath>
#include <string>
#include <vector>

#include "bench_common.h"

#if __has_include(<boost/graph/dijkstra_shortest_paths.hpp>) && __has_include(<boost/graph/compressed_sparse_row_graph.hpp>)
#define GSP_BENCH_BOOST 1
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#endif

namespace {

const gsp_algorithm kCpu[] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING};
const gsp_algorithm kCuda[] = {GSP_SSSP_ATOMIC_LOCK,  GSP_SSSP_ATOMIC_64, GSP_SSSP_HARISH,   GSP_SSSP_DELTA_STEPPING,
                               GSP_SSSP_BELLMAN_FORD, GSP_SSSP_SPMV_CSR,  GSP_SSSP_SPMV_ELL, GSP_SSSP_GPU_DIJKSTRA};

struct Csr {
  std::vector<int64_t> off;
  std::vector<int32_t> tgt;
  std::vector<float> w;
};

Csr csr_f32(const gsp_graph* g) {
  Csr c;
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  c.off.resize(static_cast<size_t>(n) + 1);
  c.tgt.resize(static_cast<size_t>(m));
  c.w.resize(static_cast<size_t>(m));
  if (gsp_graph_weight_type(g) == GSP_F32) {
    gsp_graph_csr(g, c.off.data(), c.tgt.data(), c.w.data());
  } else if (gsp_graph_weight_type(g) == GSP_F64) {
    std::vector<double> wd(static_cast<size_t>(m));
    gsp_graph_csr(g, c.off.data(), c.tgt.data(), wd.data());
    for (size_t k = 0; k < wd.size(); ++k) c.w[k] = static_cast<float>(wd[k]);
  } else {
    std::vector<int32_t> wi(static_cast<size_t>(m));
    gsp_graph_csr(g, c.off.data(), c.tgt.data(), wi.data());
    for (size_t k = 0; k < wi.size(); ++k) c.w[k] = static_cast<float>(wi[k]);
  }
  return c;
}

void peer_row(bench_row* row, const char* graph, const gsp_graph* g, const char* engine, double ms, const char* note) {
  memset(row, 0, sizeof *row);
  snprintf(row->graph, sizeof row->graph, "%s", graph);
  snprintf(row->dtype, sizeof row->dtype, "f32");
  snprintf(row->engine, sizeof row->engine, "%s", engine);
  snprintf(row->backend, sizeof row->backend, "peer");
  snprintf(row->device, sizeof row->device, "CPU (1 thread)");
  row->n = gsp_graph_num_vertices(g);
  row->m = gsp_graph_num_edges(g);
  row->median_ms = ms;
  row->min_ms = NAN;
  row->upload_ms = NAN;
  row->reps = 5;
  row->status = std::isnan(ms) ? GSP_ERR_UNSUPPORTED : GSP_OK;
  snprintf(row->note, sizeof row->note, "%s", note);
}

// SciPy's csgraph.dijkstra with predecessors, median of 5 after a warm-up;
// NaN when python3 or SciPy is missing.
double scipy_ms(const Csr& c, int32_t source, std::string* note) {
  char base[] = "/tmp/gsp_bench_XXXXXX";
  int fd = mkstemp(base);
  if (fd < 0) return NAN;
  close(fd);
  const std::string b = base;
  auto dump = [&](const std::string& path, const void* data, size_t bytes) {
    FILE* f = fopen(path.c_str(), "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, bytes, f) == bytes;
    fclose(f);
    return ok;
  };
  double ms = NAN;
  if (dump(b + ".off", c.off.data(), c.off.size() * 8) && dump(b + ".tgt", c.tgt.data(), c.tgt.size() * 4) &&
      dump(b + ".w", c.w.data(), c.w.size() * 4)) {
    const std::string cmd =
        "python3 -c \"\nimport sys,time\nimport numpy as np\nfrom scipy.sparse import csr_matrix\n"
        "from scipy.sparse.csgraph import dijkstra\nb=sys.argv[1]; n=int(sys.argv[2]); s=int(sys.argv[3])\n"
        "off=np.fromfile(b+'.off',dtype=np.int64); tg=np.fromfile(b+'.tgt',dtype=np.int32)\n"
        "w=np.fromfile(b+'.w',dtype=np.float32).astype(np.float64)\n"
        "A=csr_matrix((w,tg,off),shape=(n,n))\ndijkstra(A,indices=s,return_predecessors=True)\nts=[]\n"
        "for _ in range(5):\n  t=time.perf_counter(); dijkstra(A,indices=s,return_predecessors=True); "
        "ts.append(time.perf_counter()-t)\nprint(sorted(ts)[2]*1e3)\n\" " +
        b + " " + std::to_string(c.off.size() - 1) + " " + std::to_string(source) + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (p) {
      char line[512];
      std::string last;
      while (fgets(line, sizeof line, p)) last = line;
      int rc = pclose(p);
      if (rc == 0 && !last.empty()) {
        ms = atof(last.c_str());
      } else {
        *note = "scipy unavailable: " + last.substr(0, 100);
        while (!note->empty() && (note->back() == '\n')) note->pop_back();
      }
    }
  }
  remove(base);
  remove((b + ".off").c_str());
  remove((b + ".tgt").c_str());
  remove((b + ".w").c_str());
  return ms;
}

#ifdef GSP_BENCH_BOOST
double boost_ms(const Csr& c, int32_t source) {
  using G = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, float>;
  const size_t n = c.off.size() - 1;
  std::vector<std::pair<size_t, size_t>> edges;
  edges.reserve(c.tgt.size());
  for (size_t u = 0; u < n; ++u)
    for (int64_t e = c.off[u]; e < c.off[u + 1]; ++e) edges.emplace_back(u, static_cast<size_t>(c.tgt[e]));
  G g(boost::edges_are_sorted, edges.begin(), edges.end(), c.w.begin(), n);
  std::vector<float> dist(n);
  std::vector<size_t> pred(n);
  double t[6];
  for (int r = 0; r < 6; ++r) {
    const double t0 = bench_now();
    boost::dijkstra_shortest_paths(
        g, static_cast<size_t>(source),
        boost::predecessor_map(boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, g)))
            .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
            .weight_map(boost::get(boost::edge_bundle, g)));
    t[r] = (bench_now() - t0) * 1e3;
  }
  return bench_median(t + 1, 5);
}
#endif

// Rows whose timed runs lost at least this much CPU time to the hypervisor
// (all CPUs together) are flagged (bench_common.h, "Host CPU steal").
constexpr double kStealFlagMs = 10.0;

void print_row(const bench_row& r, double cpu_dijkstra_ms) {
  const double ratio = cpu_dijkstra_ms / r.median_ms;
  if (r.status == GSP_OK && !strcmp(r.backend, "peer")) {
    printf("%-12s %-4s %-16s %-5s %10.3f ms  %39s x%-8.2f\n", r.graph, r.dtype, r.engine, r.backend, r.median_ms, "",
           ratio);
  } else if (r.status == GSP_OK) {
    printf("%-12s %-4s %-16s %-5s %10.3f ms  upload %8.3f ms  %6lld it  x%-8.2f", r.graph, r.dtype, r.engine, r.backend,
           r.median_ms, r.upload_ms, static_cast<long long>(r.iterations), ratio);
    if (r.steal_ms >= kStealFlagMs) printf("  host CPU steal %.0f ms", r.steal_ms);
    printf("\n");
  } else {
    printf("%-12s %-4s %-16s %-5s %s: %.100s\n", r.graph, r.dtype, r.engine, r.backend, gsp_status_name(r.status),
           r.note);
  }
  fflush(stdout);
}

// GSP_BENCH_DELTA_SWEEP=0 turns the CPU delta-stepping sweep off; it runs on
// the graphs issue 10 names (NY, Graph65536).
bool delta_sweep_wanted(const char* name) {
  const char* e = getenv("GSP_BENCH_DELTA_SWEEP");
  if (e != nullptr && strcmp(e, "0") == 0) return false;
  return strstr(name, "NY") != nullptr || strcmp(name, "Graph65536") == 0;
}

struct GraphResult {
  std::vector<bench_row> rows;
  double cpu_dijkstra_ms = NAN;
};

GraphResult bench_graph(const gsp_graph* g, const char* name, bool cuda, bool peers) {
  GraphResult gr;
  const int32_t source = 0;
  for (gsp_algorithm a : kCpu) {
    bench_row r;
    bench_time_sssp(g, source, GSP_BACKEND_CPU, a, name, &r);
    if (a == GSP_SSSP_DIJKSTRA && r.status == GSP_OK) gr.cpu_dijkstra_ms = r.median_ms;
    print_row(r, gr.cpu_dijkstra_ms);
    gr.rows.push_back(r);
  }
  // CPU delta-stepping's width and threads (issue 10 compares with a
  // published CPU delta-stepping at its own width, on one thread and all
  // cores): multiples of the default rule 8 * mean weight / mean out-degree,
  // plus GAP's NY width 16000, on 1 thread and on all cores.
  if (delta_sweep_wanted(name)) {
    const Csr c = csr_f32(g);
    const double n = static_cast<double>(gsp_graph_num_vertices(g)), m = static_cast<double>(c.w.size());
    double sum = 0;
    for (float w : c.w) sum += w;
    const double rule = m > 0 && sum > 0 ? 8.0 * (sum / m) / (m / n) : 1.0;
    std::vector<double> widths = {0.5 * rule, rule, 2 * rule, 4 * rule, 8 * rule};
    if (strstr(name, "NY") != nullptr) widths.push_back(16000);
    for (int threads : {1, 0}) {
      for (double d : widths) {
        gsp_options o;
        gsp_options_init(&o);
        o.backend = GSP_BACKEND_CPU;
        o.algorithm = GSP_SSSP_DELTA_STEPPING;
        o.delta = std::floor(d) > 0 ? std::floor(d) : 1;
        o.num_threads = threads;
        char label[40];
        snprintf(label, sizeof label, "delta-stepping d=%.0f t=%s", o.delta, threads == 1 ? "1" : "all");
        bench_row r;
        bench_time_sssp_options(g, source, &o, label, name, &r);
        print_row(r, gr.cpu_dijkstra_ms);
        gr.rows.push_back(r);
      }
    }
  }
  if (cuda) {
    for (gsp_algorithm a : kCuda) {
      bench_row r;
      bench_time_sssp(g, source, GSP_BACKEND_CUDA, a, name, &r);
      print_row(r, gr.cpu_dijkstra_ms);
      gr.rows.push_back(r);
    }
  }
  // What a user gets by default: backend and algorithm AUTO, paths on and
  // off (issue 20), beside the best engine's full call in append_markdown().
  for (const bool paths : {true, false}) {
    gsp_options o;
    gsp_options_init(&o);
    if (!paths) o.flags |= GSP_NO_PATHS;
    gsp_backend be = GSP_BACKEND_AUTO;
    gsp_algorithm al = GSP_ALGO_AUTO;
    gsp_run_plan(g, 1, 1, &o, &be, &al);
    char label[40];
    snprintf(label, sizeof label, "AUTO: %s%s", gsp_algorithm_name(al), paths ? "" : ", no paths");
    bench_row r;
    bench_time_sssp_options(g, source, &o, label, name, &r);
    snprintf(r.backend, sizeof r.backend, "%s", gsp_backend_name(be));
    print_row(r, gr.cpu_dijkstra_ms);
    gr.rows.push_back(r);
  }
  if (peers && gsp_graph_weight_type(g) == GSP_F32) {
    const Csr c = csr_f32(g);
    std::string note;
    bench_row r;
    const double sp_ms = scipy_ms(c, source, &note);
    peer_row(&r, name, g, "scipy-dijkstra", sp_ms, note.c_str());
    print_row(r, gr.cpu_dijkstra_ms);
    gr.rows.push_back(r);
#ifdef GSP_BENCH_BOOST
    peer_row(&r, name, g, "boost-dijkstra", boost_ms(c, source), "");
    print_row(r, gr.cpu_dijkstra_ms);
    gr.rows.push_back(r);
#endif
  }
  return gr;
}

// The Markdown results file opened for appending (nullptr, said on stderr,
// when it cannot be), with today's date and the host CPU's name.
FILE* open_markdown(char (&date)[40], char (&cpu)[160]) {
  const char* path = bench_results_path();
  if (path == nullptr) return nullptr;
  FILE* f = fopen(path, "a");
  if (f == nullptr) {
    fprintf(stderr, "cannot append to %s\n", path);
    return nullptr;
  }
  bench_today(date, sizeof date);
  bench_cpu_name(cpu, sizeof cpu);
  return f;
}

// Appends one graph's rows (and, the first time, the dated header) so that
// a run cut short still leaves what it measured.
void append_markdown(const GraphResult& gr, const char* device, int cuda) {
  static bool header_done = false;
  char date[40], cpu[160];
  FILE* f = open_markdown(date, cpu);
  if (f == nullptr) return;
  if (!header_done) {
    header_done = true;
    fprintf(f,
            "\n## bench_sssp, %s\n\nDevice: %s. Host: %s (%ld cores). Median of %d runs after a warm-up; "
            "engine time from gsp_run_info.seconds (graph upload excluded, shown apart); \"call ms\": wall "
            "time of gsp_sssp_run as a user calls it (result in host memory). \"AUTO\" rows: backend and "
            "algorithm AUTO; the line after each graph compares AUTO's call with the best engine's. "
            "\"vs CPU\" = CPU Dijkstra median / this median (same run, same graph and weight type). "
            "\"host CPU steal\": CPU time the hypervisor took during that row's timed runs "
            "(all CPUs; rows that lost >= 10 ms are marked).\n\n",
            date, cuda ? device : "none (CUDA not usable)", cpu, sysconf(_SC_NPROCESSORS_ONLN), bench_reps());
    fprintf(
        f,
        "| graph | n | m | w | engine | backend | median ms | call ms | upload ms | iterations | vs CPU Dijkstra |\n");
    fprintf(f, "| --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  }
  {
    double lock_ms = NAN, a64_ms = NAN, best_call_ms = NAN, auto_call_ms = NAN;
    char best_name[64] = "";
    for (const bench_row& r : gr.rows) {
      if (r.status != GSP_OK) {
        fprintf(f, "| %s | %d | %lld | %s | %s | %s | %s | | | | |\n", r.graph, r.n, static_cast<long long>(r.m),
                r.dtype, r.engine, r.backend, !strcmp(r.backend, "peer") ? "not available" : gsp_status_name(r.status));
        continue;
      }
      if (!strcmp(r.backend, "cuda") && !strcmp(r.engine, gsp_algorithm_name(GSP_SSSP_ATOMIC_LOCK)))
        lock_ms = r.median_ms;
      if (!strcmp(r.backend, "cuda") && !strcmp(r.engine, gsp_algorithm_name(GSP_SSSP_ATOMIC_64))) a64_ms = r.median_ms;
      char up[32] = "", it[32] = "";
      if (!std::isnan(r.upload_ms) && strcmp(r.backend, "cpu") != 0) snprintf(up, sizeof up, "%.3f", r.upload_ms);
      if (r.iterations > 0) snprintf(it, sizeof it, "%lld", static_cast<long long>(r.iterations));
      char steal[48] = "";
      if (r.steal_ms >= kStealFlagMs) snprintf(steal, sizeof steal, " (host CPU steal %.0f ms)", r.steal_ms);
      char call[32] = "";
      if (r.call_ms > 0) snprintf(call, sizeof call, "%.3f", r.call_ms);
      fprintf(f, "| %s | %d | %lld | %s | %s | %s | %.3f%s | %s | %s | %s | %.2fx |\n", r.graph, r.n,
              static_cast<long long>(r.m), r.dtype, r.engine, r.backend, r.median_ms, steal, call, up, it,
              gr.cpu_dijkstra_ms / r.median_ms);
      // the best engine's full call (paths on), and AUTO's
      const bool is_auto = strncmp(r.engine, "AUTO", 4) == 0;
      if (!is_auto && strcmp(r.backend, "peer") != 0 && r.call_ms > 0 && !(best_call_ms <= r.call_ms)) {
        best_call_ms = r.call_ms;
        snprintf(best_name, sizeof best_name, "%s (%s)", r.engine, r.backend);
      }
      if (is_auto && strstr(r.engine, "no paths") == nullptr) auto_call_ms = r.call_ms;
    }
    if (auto_call_ms > 0 && best_call_ms > 0 && !gr.rows.empty()) {
      fprintf(f, "| %s | | | %s | AUTO / best engine, full call with paths | | %.2fx | best: %s %.3f ms | | | |\n",
              gr.rows[0].graph, gr.rows[0].dtype, auto_call_ms / best_call_ms, best_name, best_call_ms);
    }
    if (!std::isnan(lock_ms) && !std::isnan(a64_ms) && !gr.rows.empty()) {
      fprintf(f, "| %s | | | %s | atomic-64 vs atomic-lock | | %.2fx faster | | | | |\n", gr.rows[0].graph,
              gr.rows[0].dtype, lock_ms / a64_ms);
    }
  }
  fclose(f);
}

// ---------------------------------------------------------------- CPU AUTO
// Issue 20: one source on the CPU, AUTO within 1.1x of the better of
// Dijkstra and delta-stepping (default delta) on NY, Graph65536 and R-MAT
// at 1, 2 and 16 threads. The three are timed as every row above
// (bench_time_sssp_options: paths on, result allocation included, median
// after a warm-up); AUTO's choice is gsp_run_plan()'s (test_cpu_auto checks
// that the run uses it). GSP_BENCH_CPU_AUTO=0 leaves the section out,
// GSP_BENCH_CPU_AUTO=only runs nothing else (f32 graphs only).

struct CpuAutoRow {
  std::string graph;
  int threads = 0;                 // asked for
  int used = 0;                    // delta-stepping's threads (at most one per core and per 4096 arcs)
  double ms[3] = {NAN, NAN, NAN};  // Dijkstra, delta-stepping, AUTO
  gsp_algorithm choice = GSP_ALGO_AUTO;
  double steal_ms = 0;  // host CPU steal over the three rows
};

const gsp_algorithm kAutoEngines[3] = {GSP_SSSP_DIJKSTRA, GSP_SSSP_DELTA_STEPPING, GSP_ALGO_AUTO};

// 0: off, 1: on, 2: only this section.
int cpu_auto_mode() {
  const char* e = getenv("GSP_BENCH_CPU_AUTO");
  if (e == nullptr) return 1;
  if (strcmp(e, "only") == 0) return 2;
  return strcmp(e, "0") == 0 ? 0 : 1;
}

bool cpu_auto_graph(const char* name) {
  return strstr(name, "NY") != nullptr || strcmp(name, "Graph65536") == 0 || strstr(name, "RMAT") != nullptr;
}

// The better engine of a row (0 Dijkstra, 1 delta-stepping; -1 when neither ran).
int cpu_auto_best(const CpuAutoRow& a) {
  if (std::isnan(a.ms[0]) && std::isnan(a.ms[1])) return -1;
  if (std::isnan(a.ms[1])) return 0;
  return std::isnan(a.ms[0]) || a.ms[1] < a.ms[0] ? 1 : 0;
}

void bench_cpu_auto(const gsp_graph* g, const char* name, std::vector<CpuAutoRow>* out, std::vector<bench_row>* csv) {
  for (int threads : {1, 2, 16}) {
    CpuAutoRow a;
    a.graph = name;
    a.threads = threads;
    a.used = threads;
    double dijkstra_ms = NAN;
    for (int k = 0; k < 3; ++k) {
      gsp_options o;
      gsp_options_init(&o);
      o.backend = GSP_BACKEND_CPU;
      o.algorithm = kAutoEngines[k];
      o.num_threads = threads;
      char label[40];
      snprintf(label, sizeof label, "%s t=%d", k == 2 ? "auto" : gsp_algorithm_name(o.algorithm), threads);
      bench_row r;
      bench_time_sssp_options(g, 0, &o, label, name, &r);
      if (k == 0 && r.status == GSP_OK) dijkstra_ms = r.median_ms;
      print_row(r, dijkstra_ms);
      csv->push_back(r);
      if (r.status != GSP_OK) continue;
      a.ms[k] = r.median_ms;
      a.steal_ms += r.steal_ms;
      if (k == 1 && sscanf(r.device, "CPU (%d", &a.used) != 1) a.used = threads;
      if (k == 2) {
        gsp_backend b;
        if (gsp_run_plan(g, 1, 1, &o, &b, &a.choice) != GSP_OK) a.choice = GSP_ALGO_AUTO;
      }
    }
    const int best = cpu_auto_best(a);
    printf("%-12s CPU AUTO, %2d threads: %s, best %s, AUTO/best %.2f\n", name, threads, gsp_algorithm_name(a.choice),
           best < 0 ? "-" : gsp_algorithm_name(kAutoEngines[best]), best < 0 ? NAN : a.ms[2] / a.ms[best]);
    fflush(stdout);
    out->push_back(a);
  }
}

// The CPU AUTO table, one row per graph and thread count, after the rest.
void append_cpu_auto_markdown(const std::vector<CpuAutoRow>& rows) {
  char date[40], cpu[160];
  FILE* f = rows.empty() ? nullptr : open_markdown(date, cpu);
  if (f == nullptr) return;
  fprintf(f,
          "\n## CPU single-source AUTO (bench_sssp), %s\n\nHost: %s (%ld cores). Source 0, f32 weights, paths on; "
          "median of %d runs after a warm-up, engine time from gsp_run_info.seconds (result allocation "
          "included). \"threads\": asked for, and in brackets those delta-stepping used where fewer (one per "
          "core and per 4096 arcs at most). Best: the faster of Dijkstra and delta-stepping (default delta). "
          "AUTO/best: AUTO's median over the best's (issue 20: at most 1.1).\n\n",
          date, cpu, sysconf(_SC_NPROCESSORS_ONLN), bench_reps());
  fprintf(f, "| graph | threads | Dijkstra ms | delta-stepping ms | AUTO ms | AUTO's choice | best | AUTO/best |\n");
  fprintf(f, "| --- | ---: | ---: | ---: | ---: | --- | --- | ---: |\n");
  double worst = 0;
  for (const CpuAutoRow& a : rows) {
    const int best = cpu_auto_best(a);
    const double ratio = best < 0 ? NAN : a.ms[2] / a.ms[best];
    char used[24] = "", steal[48] = "";
    if (a.used != a.threads) snprintf(used, sizeof used, " (%d)", a.used);
    if (a.steal_ms >= kStealFlagMs) snprintf(steal, sizeof steal, " (host CPU steal %.0f ms)", a.steal_ms);
    fprintf(f, "| %s | %d%s | %.3f | %.3f | %.3f | %s | %s | %.2f%s |\n", a.graph.c_str(), a.threads, used, a.ms[0],
            a.ms[1], a.ms[2], gsp_algorithm_name(a.choice), best < 0 ? "-" : gsp_algorithm_name(kAutoEngines[best]),
            ratio, steal);
    if (ratio > worst) worst = ratio;
  }
  if (worst > 0) fprintf(f, "\nWorst AUTO/best in this run: %.2f.\n", worst);
  fclose(f);
}

// Double against float, engine by engine on the same graph and backend
// (issue 31's bar: NY single-source in f64 at most 1.3x f32).
void append_dtype_markdown(const std::vector<bench_row>& rows) {
  char date[40], cpu[160];
  bool any = false;
  for (const bench_row& r : rows) any = any || !strcmp(r.dtype, "f64");
  FILE* f = any ? open_markdown(date, cpu) : nullptr;
  if (f == nullptr) return;
  fprintf(
      f,
      "\n## Double against float weights (bench_sssp), %s\n\nThe same graph and source with GSP_F64 and "
      "GSP_F32 weights (equal integer values), engine time, median of %d runs; f64/f32 is the ratio of "
      "times.\n\n| graph | engine | backend | f32 ms | f64 ms | f64/f32 |\n| --- | --- | --- | ---: | ---: | ---: |\n",
      date, bench_reps());
  for (const bench_row& d : rows) {
    if (strcmp(d.dtype, "f64") != 0 || d.status != GSP_OK) continue;
    for (const bench_row& s : rows) {
      if (strcmp(s.dtype, "f32") != 0 || s.status != GSP_OK || strcmp(s.graph, d.graph) != 0 ||
          strcmp(s.engine, d.engine) != 0 || strcmp(s.backend, d.backend) != 0) {
        continue;
      }
      fprintf(f, "| %s | %s | %s | %.3f | %.3f | %.2f |\n", d.graph, d.engine, d.backend, s.median_ms, d.median_ms,
              d.median_ms / s.median_ms);
      printf("%-12s %-16s %-5s f64/f32 %.2f\n", d.graph, d.engine, d.backend, d.median_ms / s.median_ms);
      break;
    }
  }
  fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = bench_quick();
  const int cuda = gsp_backend_available(GSP_BACKEND_CUDA);
  std::string device = "none";
  const char* only = argc > 1 ? argv[1] : nullptr;  // optional graph-name filter
  if (!cuda) printf("CUDA not usable: %s (CPU engines only)\n", gsp_last_error());

  const int auto_mode = cpu_auto_mode();
  std::vector<CpuAutoRow> auto_rows;
  std::vector<bench_row> all_rows;

  auto run_one = [&](gsp_graph* g, const char* name) {
    if (g == nullptr) return;
    if (auto_mode != 2) {
      GraphResult gr = bench_graph(g, name, cuda != 0, true);
      for (const bench_row& r : gr.rows)
        if (!strcmp(r.backend, "cuda") && r.status == GSP_OK) device = r.device;
      bench_csv_append("bench_sssp", gr.rows.data(), static_cast<int>(gr.rows.size()));
      append_markdown(gr, device.c_str(), cuda);
      all_rows.insert(all_rows.end(), gr.rows.begin(), gr.rows.end());
    }
    if (auto_mode != 0 && gsp_graph_weight_type(g) == GSP_F32 && cpu_auto_graph(name)) {
      std::vector<bench_row> csv;
      bench_cpu_auto(g, name, &auto_rows, &csv);
      bench_csv_append("bench_sssp_cpu_auto", csv.data(), static_cast<int>(csv.size()));
    }
    gsp_graph_destroy(g);
  };
  auto wanted = [&](const char* name) {
    if (auto_mode == 2 && !cpu_auto_graph(name)) return false;
    return only == nullptr || strstr(name, only) != nullptr;
  };

  const gsp_dtype dts[3] = {GSP_F32, GSP_I32, GSP_F64};
  for (gsp_dtype dt : dts) {
    if (auto_mode == 2 && dt != GSP_F32) continue;
    if (wanted("Graph4096")) run_one(bench_random_graph(4096, 6, 1000, 4096, dt), "Graph4096");
    if (wanted("Graph65536")) run_one(bench_random_graph(65536, 6, 1000, 65536, dt), "Graph65536");
    if (wanted("NY")) {
      const char* dir = getenv("GSP_DATA_DIR");
      std::string path = std::string(dir ? dir : "../shared/data") + "/USA-road-d.NY.gr.gz";
      gsp_graph* g = nullptr;
      gsp_status s = gsp_graph_load(&g, path.c_str(), GSP_FORMAT_AUTO, dt, 0);
      if (s == GSP_OK) {
        run_one(g, "NY-road");
      } else {
        printf("NY road graph skipped (%s): %s: %s\n", path.c_str(), gsp_status_name(s), gsp_last_error());
      }
    }
  }
  if (wanted("RMAT")) {
    // f32 only (the CPU engines take seconds per run here).
    if (quick)
      run_one(bench_rmat_graph(16, int64_t(16) << 16, 1000, 20, GSP_F32), "RMAT-64K");
    else
      run_one(bench_rmat_graph(20, int64_t(16) << 20, 1000, 20, GSP_F32), "RMAT-1M");
  }
  append_cpu_auto_markdown(auto_rows);
  append_dtype_markdown(all_rows);

  return 0;
}
