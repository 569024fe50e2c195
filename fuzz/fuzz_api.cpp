// Fuzz target: a random sequence of API calls on the CPU backend (the
// backend GSP_FUZZ_BACKEND names, cpu by default: cuda or auto on a GPU
// machine, where the replay runs under compute-sanitizer). Up to 4
// graphs and 8 results live at once; the input picks each call and its
// arguments: create (COO or CSR), SSSP / APSP / APSP stream / tables with random
// options (algorithm ids including invalid and CUDA-only ones, threads,
// flags, delta, options size, a progress callback that may cancel), every
// query with buffers of random capacity (exactly that large, so ASan sees an
// overrun), and destroys in any order (results outlive their graphs).
//
// Oracle: every status is documented; results that GSP_OK returns are
// compared with an exact Bellman-Ford in int64/double (graphs use small
// exactly-representable weights), negative weights and cycles must be
// reported as such, and every path returned is a real shortest path.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fuzz_util.h"

namespace {

using fuzz::Bytes;
using fuzz::check_row;
using fuzz::kInf;
using fuzz::Model;
using fuzz::reference;
using fuzz::value_at;

struct Result {
  gsp_paths* p = nullptr;
  std::shared_ptr<Model> model;  // the graph as it was (the handle may be gone)
  std::vector<int32_t> sources;
  bool has_paths = false;
};

// The algorithms as gsp.h documents them: a summary says "w >= 0" where
// negative weights must be refused.
struct Algorithm {
  int value;
  const char* summary;
};
#define FUZZ_ALGORITHM_(name, value, cli_name, summary) {value, summary},
constexpr Algorithm kAlgorithms[] = {GSP_ALGORITHM_LIST(FUZZ_ALGORITHM_)};
#undef FUZZ_ALGORITHM_
constexpr int kNumAlgorithms = static_cast<int>(sizeof kAlgorithms / sizeof kAlgorithms[0]);

bool needs_nonnegative(int a) {
  for (const Algorithm& x : kAlgorithms) {
    if (x.value == a) return std::strstr(x.summary, "w >= 0") != nullptr;
  }
  return false;
}

// A graph with small weights (exact in float and in sums), sometimes invalid ids.
std::shared_ptr<Model> make_graph(Bytes& in) {
  auto m = std::make_shared<Model>();
  const uint8_t k = in.u8();
  m->n = 1 + in.u8() % 24;
  m->dtype = (k & 1) ? GSP_I32 : GSP_F32;
  const bool undirected = (k & 2) != 0;
  const bool allow_negative = (k & 4) != 0;
  const bool csr = (k & 8) != 0;
  const bool bad = in.u8() < 4;  // one invalid id or weight
  const int32_t arcs = in.u8() % 64;
  std::vector<int32_t> s, t;
  std::vector<float> wf;
  std::vector<int32_t> wi;
  for (int32_t i = 0; i < arcs; i++) {
    int32_t u = in.u8() % m->n, v = in.u8() % m->n;
    int32_t w = static_cast<int32_t>(in.u8() % 16) - (allow_negative ? 3 : 0);
    if (m->dtype == GSP_I32 && in.u8() == 255) w = (in.u8() & 1) ? INT32_MAX / 2 + 7 : -(INT32_MAX / 2) - 7;
    s.push_back(u);
    t.push_back(v);
    wf.push_back(static_cast<float>(w));
    wi.push_back(w);
  }
  if (bad && arcs > 0) {
    t[0] = m->n + static_cast<int32_t>(in.u8());
    wf[0] = NAN;
  }
  if (csr) {  // sort by tail (stable) into CSR arrays
    std::vector<int64_t> off(static_cast<size_t>(m->n) + 1, 0);
    for (int32_t u : s) off[static_cast<size_t>(u) + 1]++;
    for (int32_t v = 0; v < m->n; v++) off[v + 1] += off[v];
    std::vector<int32_t> ct(s.size()), cwi(s.size()), pos(off.begin(), off.end() - 1), cs(s.size());
    std::vector<float> cwf(s.size());
    for (size_t i = 0; i < s.size(); i++) {
      const int64_t at = pos[s[i]]++;
      ct[at] = t[i];
      cwi[at] = wi[i];
      cwf[at] = wf[i];
      cs[at] = s[i];
    }
    s = cs;
    t = ct;
    wi = cwi;
    wf = cwf;
    const gsp_status st = gsp_graph_create_csr(&m->g, m->n, off.data(), t.empty() ? nullptr : t.data(),
                                               m->dtype == GSP_F32 ? static_cast<const void*>(wf.data()) : wi.data(),
                                               m->dtype, undirected ? GSP_GRAPH_UNDIRECTED : 0);
    FUZZ_CHECK(st == (bad && arcs > 0 ? GSP_ERR_INVALID_GRAPH : GSP_OK), "create_csr: %s: %s", gsp_status_name(st),
               gsp_last_error());
  } else {
    const gsp_status st = gsp_graph_create(&m->g, m->n, arcs, s.data(), t.data(),
                                           m->dtype == GSP_F32 ? static_cast<const void*>(wf.data()) : wi.data(),
                                           m->dtype, undirected ? GSP_GRAPH_UNDIRECTED : 0);
    FUZZ_CHECK(st == (bad && arcs > 0 ? GSP_ERR_INVALID_GRAPH : GSP_OK), "create: %s: %s", gsp_status_name(st),
               gsp_last_error());
  }
  if (m->g == nullptr) return nullptr;
  for (size_t i = 0; i < s.size(); i++) {
    const double w = m->dtype == GSP_F32 ? static_cast<double>(wf[i]) : static_cast<double>(wi[i]);
    m->src.push_back(s[i]);
    m->dst.push_back(t[i]);
    m->w.push_back(w);
    if (w < 0) m->negative = true;
    if (undirected && s[i] != t[i]) {
      m->src.push_back(t[i]);
      m->dst.push_back(s[i]);
      m->w.push_back(w);
    }
  }
  return m;
}

struct Progress {
  int calls = 0;
  int cancel_at = -1;  // -1: never
  double last = 0;
};
int on_progress(void* user, double f) {
  auto* p = static_cast<Progress*>(user);
  FUZZ_CHECK(f >= 0 && f <= 1, "progress %g outside [0, 1]", f);
  p->last = f;
  return p->cancel_at >= 0 && p->calls++ >= p->cancel_at ? 1 : 0;
}

struct Options {
  gsp_options o;
  Progress progress;
  bool valid = true;
  bool want_paths = true;
  int algorithm = 0;
};

// The backend every run asks for: GSP_FUZZ_BACKEND (cpu, cuda or auto; read
// once), the CPU when unset.
gsp_backend fuzz_backend() {
  static const gsp_backend b = [] {
    const char* e = std::getenv("GSP_FUZZ_BACKEND");
    if (e != nullptr && std::strcmp(e, "cuda") == 0) return GSP_BACKEND_CUDA;
    if (e != nullptr && std::strcmp(e, "auto") == 0) return GSP_BACKEND_AUTO;
    return GSP_BACKEND_CPU;
  }();
  return b;
}

void make_options(Bytes& in, Options* opt) {
  gsp_options_init(&opt->o);
  gsp_options& o = opt->o;
  o.backend = fuzz_backend();
  const uint8_t a = in.u8();
  opt->algorithm = a < 240 ? a % kNumAlgorithms : static_cast<int>(in.i32());  // every id, sometimes anything
  o.algorithm = static_cast<gsp_algorithm>(opt->algorithm);
  if (opt->algorithm < 0 || opt->algorithm >= kNumAlgorithms) opt->valid = false;
  const uint8_t th = in.u8();
  o.num_threads = th < 250 ? th % 4 : -static_cast<int32_t>(th % 4) - 1;
  if (o.num_threads < 0) opt->valid = false;
  const uint8_t fl = in.u8();
  o.flags = fl < 250 ? (fl & 1u) : (1u << (fl % 32));
  if (o.flags & ~1u) opt->valid = false;
  opt->want_paths = (o.flags & GSP_NO_PATHS) == 0;
  // Valid widths, extreme ones (bucket counts far beyond int64), invalid ones.
  const double deltas[] = {0, 0.25, 1, 3, 1000, 1e-3, 1e-30, 5e-324, 1e300, -1, NAN, INFINITY};
  const uint8_t d = in.u8();
  o.delta = d < 200 ? deltas[d % 6] : deltas[d % 12];
  if (!(std::isfinite(o.delta) && o.delta >= 0)) opt->valid = false;
  const uint8_t sz = in.u8();
  if (sz == 255) {
    // Too small below libgsp 0.1's struct (which ended before `limit`); a
    // size from there on is an older caller's, valid (gsp_options.h).
    o.size = static_cast<uint32_t>(in.u8());
    if (o.size < offsetof(gsp_options, limit)) opt->valid = false;
  }
  const uint8_t bk = in.u8();
  if (bk >= 252) {
    o.backend = static_cast<gsp_backend>(bk == 255 ? -1 : 3 + (bk & 1));
    opt->valid = false;
  }
  const uint8_t pr = in.u8();
  if (pr >= 192) {
    o.progress = on_progress;
    o.progress_user = &opt->progress;
    opt->progress.cancel_at = pr >= 224 ? pr % 8 : -1;
  }
}

// Checks the status of a run against what the options and graph allow.
void check_run_status(gsp_status s, const Options& opt, const Model& m, bool apsp) {
  FUZZ_CHECK(fuzz::known_status(s), "status %d", static_cast<int>(s));
  FUZZ_CHECK(s != GSP_ERR_INTERNAL && s != GSP_ERR_DEVICE && s != GSP_ERR_IO && s != GSP_ERR_PARSE, "run: %s: %s",
             gsp_status_name(s), gsp_last_error());
  if (s == GSP_OK) {
    FUZZ_CHECK(opt.valid, "invalid options accepted");
    FUZZ_CHECK(!(m.negative && needs_nonnegative(opt.algorithm)), "negative weights accepted by %d", opt.algorithm);
    (void)apsp;
  }
  if (s == GSP_ERR_NEGATIVE_WEIGHT) FUZZ_CHECK(m.negative, "NEGATIVE_WEIGHT without negative weights");
  if (s == GSP_ERR_NEGATIVE_CYCLE) FUZZ_CHECK(m.negative, "NEGATIVE_CYCLE without negative weights");
  if (s == GSP_ERR_CANCELLED) FUZZ_CHECK(opt.progress.cancel_at >= 0, "CANCELLED without a cancelling callback");
  if (s == GSP_ERR_OVERFLOW) FUZZ_CHECK(m.dtype == GSP_I32, "OVERFLOW on a float graph");
  if (s != GSP_OK) FUZZ_CHECK(gsp_last_error()[0] != '\0', "failure without a message");
}

struct StreamState {
  const Model* m;
  std::vector<int32_t> sources;
  int32_t next = 0;
  int cancel_after = -1;
  int blocks = 0;
  bool want_paths = true;
};
int on_rows(void* user, int32_t first, int32_t rows, const void* dist, const int32_t* pred) {
  auto* st = static_cast<StreamState*>(user);
  FUZZ_CHECK(first == st->next, "stream row %d, want %d", first, st->next);
  FUZZ_CHECK(rows >= 1 && first + rows <= static_cast<int32_t>(st->sources.size()), "stream rows %d", rows);
  FUZZ_CHECK((pred != nullptr) == st->want_paths, "stream predecessors %s", pred ? "present" : "absent");
  const size_t width = static_cast<size_t>(st->m->n);
  for (int32_t r = 0; r < rows; r++) {
    const void* row = static_cast<const char*>(dist) + static_cast<size_t>(r) * width * 4;
    check_row(*st->m, st->sources[first + r], row, pred ? pred + static_cast<size_t>(r) * width : nullptr);
  }
  st->next = first + rows;
  return st->cancel_after >= 0 && st->blocks++ >= st->cancel_after ? 1 : 0;
}

// A list's data, never NULL (an empty vector's data() may be NULL, which
// the API reads as "all vertices").
const int32_t* nonnull(const std::vector<int32_t>& v) {
  static const int32_t dummy = 0;
  return v.empty() ? &dummy : v.data();
}

// Sources for APSP: NULL (all) or a list, valid or not.
bool make_sources(Bytes& in, int32_t n, std::vector<int32_t>* list, int32_t* count, bool* use_null) {
  const uint8_t k = in.u8();
  *use_null = k < 64;
  bool valid = true;
  list->clear();
  if (*use_null) {
    *count = k < 8 ? -static_cast<int32_t>(in.u8()) : static_cast<int32_t>(in.u8() % 4);  // ignored
    for (int32_t v = 0; v < n; v++) list->push_back(v);
    return true;
  }
  const int32_t len = in.u8() % 12;
  for (int32_t i = 0; i < len; i++) {
    int32_t v = in.u8() % n;
    if (in.u8() == 0) {
      v = in.i32();
      if (v < 0 || v >= n) valid = false;
    }
    list->push_back(v);
  }
  *count = len;
  if (len == 0) valid = false;
  return valid;
}

// A K x T table (gsp_table_run) with lists of up to 6 vertices, sometimes
// out of range, NULL with a zero count, or a negative count: a GSP_OK table
// has every cell equal to the reference and every path real, arc by arc.
void run_table(Bytes& in, const Model& m) {
  Options opt;
  make_options(in, &opt);
  bool valid = true;
  auto list = [&](std::vector<int32_t>* v) -> int32_t {
    const uint8_t k = in.u8();
    if (k == 255) {
      valid = false;
      return -1 - static_cast<int32_t>(in.u8() % 4);
    }
    const int32_t len = k % 7;
    for (int32_t i = 0; i < len; i++) {
      int32_t x = in.u8() % m.n;
      if (in.u8() == 0) {
        x = in.i32();
        if (x < 0 || x >= m.n) valid = false;
      }
      v->push_back(x);
    }
    return len;
  };
  std::vector<int32_t> srcs, tgts;
  const int32_t K = list(&srcs), T = list(&tgts);
  gsp_table* t = reinterpret_cast<gsp_table*>(&t);
  const gsp_status st =
      gsp_table_run(m.g, srcs.empty() ? nullptr : srcs.data(), K, tgts.empty() ? nullptr : tgts.data(), T, &opt.o, &t);
  FUZZ_CHECK(fuzz::known_status(st), "table: status %d", static_cast<int>(st));
  FUZZ_CHECK(st != GSP_ERR_INTERNAL && st != GSP_ERR_DEVICE && st != GSP_ERR_IO && st != GSP_ERR_PARSE, "table: %s: %s",
             gsp_status_name(st), gsp_last_error());
  if (st != GSP_OK) {
    FUZZ_CHECK(t == nullptr, "a failed table left a result");
    FUZZ_CHECK(gsp_last_error()[0] != '\0', "table: failure without a message");
    if (st == GSP_ERR_NEGATIVE_CYCLE || st == GSP_ERR_NEGATIVE_WEIGHT)
      FUZZ_CHECK(m.negative, "table: %s", gsp_status_name(st));
    if (st == GSP_ERR_OVERFLOW) FUZZ_CHECK(m.dtype == GSP_I32, "table: OVERFLOW on a float graph");
    return;
  }
  FUZZ_CHECK(valid && opt.valid, "table: invalid lists or options accepted");
  int32_t k = -1, tt = -1;
  FUZZ_CHECK(gsp_table_size(t, &k, &tt) == GSP_OK && k == K && tt == T, "table size %d x %d, want %d x %d", k, tt, K,
             T);
  std::vector<uint32_t> cells(static_cast<size_t>(K) * static_cast<size_t>(T) + 1);
  if (K * T > 0) {
    FUZZ_CHECK(gsp_table_distances(t, cells.data(), static_cast<int64_t>(K) * T - 1) == GSP_ERR_BUFFER_TOO_SMALL,
               "table: a short buffer accepted");
  }
  FUZZ_CHECK(gsp_table_distances(t, K * T > 0 ? cells.data() : nullptr, static_cast<int64_t>(K) * T) == GSP_OK,
             "table distances: %s", gsp_last_error());
  for (int32_t i = 0; i < K; i++) {
    bool neg = false;
    const std::vector<double> ref = reference(m, srcs[i], &neg);
    // (No cells, nothing computed: an empty table may be GSP_OK anyway.)
    FUZZ_CHECK(!neg || T == 0, "table: GSP_OK although a negative cycle is reachable from %d", srcs[i]);
    for (int32_t j = 0; j < T; j++) {
      const double got = value_at(cells.data() + static_cast<size_t>(i) * T, m.dtype, j);
      FUZZ_CHECK(got == ref[tgts[j]], "table d(%d -> %d) = %g, want %g", srcs[i], tgts[j], got, ref[tgts[j]]);
      int32_t len = -1;
      const gsp_status ls = gsp_table_path(t, i, j, nullptr, 0, &len);
      if (!opt.want_paths) {
        FUZZ_CHECK(ls == GSP_ERR_UNSUPPORTED, "table path without paths: %s", gsp_status_name(ls));
        continue;
      }
      if (ref[tgts[j]] == kInf) {
        FUZZ_CHECK(ls == GSP_ERR_NO_PATH, "table path to an unreachable target: %s", gsp_status_name(ls));
        continue;
      }
      FUZZ_CHECK((ls == GSP_OK || ls == GSP_ERR_BUFFER_TOO_SMALL) && len >= 1 && len <= m.n, "table path length %d: %s",
                 len, gsp_status_name(ls));
      std::vector<int32_t> path(static_cast<size_t>(len));
      int32_t got_len = -1;
      FUZZ_CHECK(gsp_table_path(t, i, j, path.data(), len, &got_len) == GSP_OK && got_len == len, "table path");
      FUZZ_CHECK(path.front() == srcs[i] && path.back() == tgts[j], "table path ends %d .. %d", path.front(),
                 path.back());
      double sum = 0;
      for (int32_t a = 0; a + 1 < len; a++) {
        double best = kInf;
        for (size_t e = 0; e < m.src.size(); e++) {
          if (m.src[e] == path[a] && m.dst[e] == path[a + 1]) best = std::min(best, m.w[e]);
        }
        FUZZ_CHECK(best != kInf, "table path uses a missing arc %d -> %d", path[a], path[a + 1]);
        sum += best;
      }
      FUZZ_CHECK(sum == ref[tgts[j]], "table path weighs %g, want %g", sum, ref[tgts[j]]);
    }
  }
  gsp_table_destroy(t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  std::shared_ptr<Model> graphs[4];
  Result results[8];
  int steps = 0;
  while (!in.empty() && steps++ < 64) {
    const uint8_t op = in.u8();
    const int gi = (op >> 4) & 3;
    const int ri = (op >> 4) & 7;
    switch (op % 13) {
      case 0:
      case 1: {  // create
        if (graphs[gi]) gsp_graph_destroy(graphs[gi]->g);
        graphs[gi] = make_graph(in);
        break;
      }
      case 2: {  // destroy a graph (results stay valid)
        if (graphs[gi]) {
          gsp_graph_destroy(graphs[gi]->g);
          graphs[gi].reset();
        }
        break;
      }
      case 3:
      case 4: {  // SSSP
        Options opt;
        make_options(in, &opt);
        auto m = graphs[gi];
        if (!m) {
          gsp_paths* p = reinterpret_cast<gsp_paths*>(&p);
          FUZZ_CHECK(gsp_sssp_run(nullptr, 0, &opt.o, &p) == GSP_ERR_INVALID_ARGUMENT && p == nullptr, "NULL graph");
          break;
        }
        int32_t s = in.u8() % m->n;
        bool valid_src = true;
        if (in.u8() == 0) {
          s = in.i32();
          valid_src = s >= 0 && s < m->n;
        }
        gsp_paths* p = reinterpret_cast<gsp_paths*>(&p);
        const gsp_status st = gsp_sssp_run(m->g, s, &opt.o, &p);
        check_run_status(st, opt, *m, false);
        if (st != GSP_OK) {
          FUZZ_CHECK(p == nullptr, "failed run left a result");
          break;
        }
        FUZZ_CHECK(valid_src, "source %d accepted", s);
        gsp_paths_destroy(results[ri].p);
        results[ri] = Result{p, m, {s}, opt.want_paths};
        std::vector<uint32_t> dist(static_cast<size_t>(m->n));
        std::vector<int32_t> pred(static_cast<size_t>(m->n));
        FUZZ_CHECK(gsp_paths_distances(p, s, dist.data(), m->n) == GSP_OK, "distances: %s", gsp_last_error());
        const gsp_status ps = gsp_paths_predecessors(p, s, pred.data(), m->n);
        FUZZ_CHECK(ps == (opt.want_paths ? GSP_OK : GSP_ERR_UNSUPPORTED), "predecessors: %s", gsp_status_name(ps));
        check_row(*m, s, dist.data(), opt.want_paths ? pred.data() : nullptr);
        break;
      }
      case 5: {  // APSP
        Options opt;
        make_options(in, &opt);
        auto m = graphs[gi];
        if (!m) break;
        std::vector<int32_t> list;
        int32_t count = 0;
        bool use_null = false;
        const bool valid = make_sources(in, m->n, &list, &count, &use_null);
        gsp_paths* p = reinterpret_cast<gsp_paths*>(&p);
        const gsp_status st = gsp_apsp_run(m->g, use_null ? nullptr : nonnull(list), count, &opt.o, &p);
        check_run_status(st, opt, *m, true);
        if (st != GSP_OK) {
          FUZZ_CHECK(p == nullptr, "failed run left a result");
          break;
        }
        FUZZ_CHECK(valid, "invalid sources accepted (num_sources %d, list %s, first %d)", count,
                   use_null ? "NULL" : "given", list.empty() ? -1 : list[0]);
        FUZZ_CHECK(gsp_paths_num_sources(p) == static_cast<int32_t>(list.size()), "rows");
        gsp_paths_destroy(results[ri].p);
        results[ri] = Result{p, m, list, opt.want_paths};
        std::vector<uint32_t> dist(static_cast<size_t>(m->n));
        std::vector<int32_t> pred(static_cast<size_t>(m->n));
        for (size_t i = 0; i < list.size(); i++) {
          FUZZ_CHECK(gsp_paths_source(p, static_cast<int32_t>(i)) == list[i], "source of row %zu", i);
          FUZZ_CHECK(gsp_paths_distances(p, list[i], dist.data(), m->n) == GSP_OK, "distances");
          const bool paths = opt.want_paths && gsp_paths_predecessors(p, list[i], pred.data(), m->n) == GSP_OK;
          check_row(*m, list[i], dist.data(), paths ? pred.data() : nullptr);
        }
        break;
      }
      case 6: {  // APSP stream
        Options opt;
        make_options(in, &opt);
        auto m = graphs[gi];
        if (!m) break;
        StreamState st;
        st.m = m.get();
        int32_t count = 0;
        bool use_null = false;
        const bool valid = make_sources(in, m->n, &st.sources, &count, &use_null);
        st.want_paths = opt.want_paths;
        st.cancel_after = in.u8() >= 224 ? in.u8() % 4 : -1;
        const gsp_status s =
            gsp_apsp_stream(m->g, use_null ? nullptr : nonnull(st.sources), count, &opt.o, on_rows, &st);
        if (!(s == GSP_ERR_CANCELLED && st.cancel_after >= 0)) check_run_status(s, opt, *m, true);
        if (s == GSP_OK) {
          FUZZ_CHECK(valid, "invalid sources accepted by stream");
          FUZZ_CHECK(st.next == static_cast<int32_t>(st.sources.size()), "stream delivered %d of %zu rows", st.next,
                     st.sources.size());
        }
        break;
      }
      case 7: {  // distance / path queries with random buffers
        Result& r = results[ri];
        if (r.p == nullptr) break;
        const Model& m = *r.model;
        int32_t s = r.sources[in.u8() % r.sources.size()];
        if (in.u8() == 0) s = in.i32();
        int32_t t = in.u8() % m.n;
        if (in.u8() == 0) t = in.i32();
        const bool s_ok = std::find(r.sources.begin(), r.sources.end(), s) != r.sources.end();
        const bool t_ok = t >= 0 && t < m.n;
        const int32_t cap = static_cast<int32_t>(in.u8() % (m.n + 2));
        std::unique_ptr<int32_t[]> buf(new int32_t[static_cast<size_t>(cap) + 0]);
        int32_t len = -7;
        const gsp_status st = gsp_path_get(r.p, s, t, in.u8() < 32 ? nullptr : buf.get(), cap, &len);
        FUZZ_CHECK(fuzz::known_status(st), "path status");
        if (!s_ok || !t_ok) {
          FUZZ_CHECK(st == GSP_ERR_INVALID_ARGUMENT, "path from %d to %d: %s", s, t, gsp_status_name(st));
          break;
        }
        if (!r.has_paths) {
          FUZZ_CHECK(st == GSP_ERR_UNSUPPORTED, "path without paths: %s", gsp_status_name(st));
          break;
        }
        bool neg = false;
        const std::vector<double> ref = reference(m, s, &neg);
        if (ref[t] == kInf) {
          FUZZ_CHECK(st == GSP_ERR_NO_PATH, "path to unreachable: %s", gsp_status_name(st));
          break;
        }
        FUZZ_CHECK(st == GSP_OK || st == GSP_ERR_BUFFER_TOO_SMALL, "path: %s: %s", gsp_status_name(st),
                   gsp_last_error());
        FUZZ_CHECK(len >= 1 && len <= m.n, "path length %d", len);
        if (st == GSP_ERR_BUFFER_TOO_SMALL) {
          FUZZ_CHECK(cap < len, "BUFFER_TOO_SMALL with capacity %d >= %d", cap, len);
          break;
        }
        uint32_t d = 0;
        FUZZ_CHECK(gsp_paths_distance(r.p, s, t, &d) == GSP_OK, "distance");
        FUZZ_CHECK(value_at(&d, m.dtype, 0) == ref[t], "distance %d -> %d", s, t);
        break;
      }
      case 8: {  // more queries: predecessors/distances capacity, info, source index
        Result& r = results[ri];
        if (r.p == nullptr) break;
        const Model& m = *r.model;
        const int32_t s = r.sources[in.u8() % r.sources.size()];
        const int64_t cap = static_cast<int64_t>(in.u8() % (m.n + 2)) - (in.u8() == 0 ? 300 : 0);
        std::unique_ptr<uint32_t[]> buf(new uint32_t[cap > 0 ? static_cast<size_t>(cap) : 1]);
        gsp_status st = gsp_paths_distances(r.p, s, buf.get(), cap);
        FUZZ_CHECK(st == (cap >= m.n ? GSP_OK : GSP_ERR_BUFFER_TOO_SMALL), "distances cap %lld: %s",
                   static_cast<long long>(cap), gsp_status_name(st));
        st = gsp_paths_predecessors(r.p, s, reinterpret_cast<int32_t*>(buf.get()), cap);
        FUZZ_CHECK(st == GSP_OK || st == GSP_ERR_BUFFER_TOO_SMALL || st == GSP_ERR_UNSUPPORTED, "predecessors");
        if (st == GSP_OK) FUZZ_CHECK(cap >= m.n && r.has_paths, "predecessors cap");
        gsp_run_info info;
        std::memset(&info, 0, sizeof info);
        const uint32_t asked = in.u8() < 16 ? in.u8() : sizeof info;
        info.size = asked;
        st = gsp_paths_info(r.p, &info);
        // 0: this version's struct; below libgsp 0.1's (up to has_paths):
        // refused; else the whole fields the size covers (doc/run-info.md).
        const size_t v01 = offsetof(gsp_run_info, setup_seconds);
        FUZZ_CHECK(st == (asked == 0 || asked >= v01 ? GSP_OK : GSP_ERR_INVALID_ARGUMENT), "info (size %u)", asked);
        if (st == GSP_OK) {
          FUZZ_CHECK(info.size >= v01 && info.size <= (asked == 0 ? sizeof info : asked) &&
                         (asked != sizeof info || info.size == sizeof info),
                     "info size %u written for %u", info.size, asked);
          FUZZ_CHECK(info.num_vertices == m.n && (info.backend == fuzz_backend() || fuzz_backend() == GSP_BACKEND_AUTO),
                     "info contents");
          FUZZ_CHECK(std::memchr(info.device_name, 0, sizeof info.device_name) != nullptr, "device_name unterminated");
        }
        const int32_t idx = static_cast<int32_t>(in.u8()) - 4;
        const int32_t got = gsp_paths_source(r.p, idx);
        FUZZ_CHECK(got == (idx >= 0 && idx < static_cast<int32_t>(r.sources.size()) ? r.sources[idx] : -1),
                   "paths_source(%d)", idx);
        break;
      }
      case 9: {  // destroy a result
        gsp_paths_destroy(results[ri].p);
        results[ri] = Result{};
        break;
      }
      case 10: {  // a full path into an exact buffer, checked arc by arc
        Result& r = results[ri];
        if (r.p == nullptr || !r.has_paths) break;
        const Model& m = *r.model;
        const int32_t s = r.sources[in.u8() % r.sources.size()];
        const int32_t t = in.u8() % m.n;
        int32_t len = 0;
        gsp_status st = gsp_path_get(r.p, s, t, nullptr, 0, &len);
        if (st != GSP_OK) {
          FUZZ_CHECK(st == GSP_ERR_NO_PATH, "path length: %s", gsp_status_name(st));
          break;
        }
        std::unique_ptr<int32_t[]> buf(new int32_t[static_cast<size_t>(len)]);
        int32_t len2 = 0;
        st = gsp_path_get(r.p, s, t, buf.get(), len, &len2);
        FUZZ_CHECK(st == GSP_OK && len2 == len, "path");
        FUZZ_CHECK(buf[0] == s && buf[len - 1] == t, "path ends");
        bool neg = false;
        const std::vector<double> ref = reference(m, s, &neg);
        double total = 0;
        for (int32_t i = 0; i + 1 < len; i++) {
          double best = kInf;
          for (size_t k = 0; k < m.src.size(); k++)
            if (m.src[k] == buf[i] && m.dst[k] == buf[i + 1] && m.w[k] < best) best = m.w[k];
          FUZZ_CHECK(best != kInf, "path uses a missing arc %d -> %d", buf[i], buf[i + 1]);
          total += best;
        }
        FUZZ_CHECK(total == ref[t], "path %d -> %d has length %g, want %g", s, t, total, ref[t]);
        break;
      }
      case 12: {  // a table
        if (graphs[gi]) run_table(in, *graphs[gi]);
        break;
      }
      default: {  // NULL and bad-argument calls
        FUZZ_CHECK(gsp_graph_create(nullptr, 1, 0, nullptr, nullptr, nullptr, GSP_F32, 0) == GSP_ERR_INVALID_ARGUMENT,
                   "create(NULL)");
        FUZZ_CHECK(gsp_graph_num_vertices(nullptr) == -1 && gsp_paths_num_sources(nullptr) == -1, "NULL getters");
        FUZZ_CHECK(gsp_apsp_stream(nullptr, nullptr, 0, nullptr, on_rows, nullptr) == GSP_ERR_INVALID_ARGUMENT,
                   "stream(NULL)");
        if (graphs[gi]) {
          FUZZ_CHECK(gsp_apsp_stream(graphs[gi]->g, nullptr, 0, nullptr, nullptr, nullptr) == GSP_ERR_INVALID_ARGUMENT,
                     "stream without callback");
          FUZZ_CHECK(gsp_sssp_run(graphs[gi]->g, 0, nullptr, nullptr) == GSP_ERR_INVALID_ARGUMENT, "sssp NULL result");
        }
        gsp_graph_destroy(nullptr);
        gsp_paths_destroy(nullptr);
        break;
      }
    }
  }
  // Destroy what is left in an input-chosen order.
  const uint8_t order = in.u8();
  if (order & 1) {
    for (auto& g : graphs)
      if (g) gsp_graph_destroy(g->g);
    for (auto& r : results) gsp_paths_destroy(r.p);
  } else {
    for (auto& r : results) gsp_paths_destroy(r.p);
    for (auto& g : graphs)
      if (g) gsp_graph_destroy(g->g);
  }
  return 0;
}
