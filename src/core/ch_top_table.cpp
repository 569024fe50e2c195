// The top table of a road index: made per top position on the caller's
// threads (core/ch_top_table.h).
#include "core/ch_top_table.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/first_error.h"

namespace gsp::detail {

namespace {

// Row u of the table: PHAST from top position u inside the top. Every
// up_out arc of a top position leads to a lower one, so a pass over the
// positions from u down to 0 settles the upward labels in order; every
// up_in arc of one comes from a lower one, so the sweep from 0 up takes
// each position's best arc from above once those are final. The top is
// closed upward, so its up-down paths (which keep every distance among
// its positions) never leave it.
template <class W>
void table_row(ChHierarchy<W>& h, int32_t u) {
  using D = ChDist<W>;
  ChTopTable<W>& t = h.top;
  const size_t size = static_cast<size_t>(t.size);
  D* d = t.dist.data() + static_cast<size_t>(u) * size;
  int32_t* arc = t.arc.data() + static_cast<size_t>(u) * size;
  std::fill(d, d + size, ch_inf<W>());
  std::fill(arc, arc + size, -1);
  d[u] = 0;
  const ChArcs<W>& up = h.up_out;
  for (int32_t x = u; x >= 0; --x) {
    const D dx = d[x];
    if (!(dx < ch_inf<W>())) continue;
    for (int64_t e = up.offsets[static_cast<size_t>(x)]; e < up.offsets[static_cast<size_t>(x) + 1]; ++e) {
      const size_t y = static_cast<size_t>(up.other[static_cast<size_t>(e)]);
      const D nd = dx + up.weight[static_cast<size_t>(e)];
      if (nd < d[y]) {
        d[y] = nd;
        arc[y] = static_cast<int32_t>(e);
      }
    }
  }
  const ChArcs<W>& in = h.up_in;
  for (size_t p = 0; p < size; ++p) {
    for (int64_t e = in.offsets[p]; e < in.offsets[p + 1]; ++e) {
      const D nd = d[static_cast<size_t>(in.other[static_cast<size_t>(e)])] + in.weight[static_cast<size_t>(e)];
      if (nd < d[p]) {
        d[p] = nd;
        arc[p] = static_cast<int32_t>(t.out_arcs + e);
      }
    }
  }
}

}  // namespace

template <class W>
void make_top_table(ChHierarchy<W>& h, int threads) {
  ChTopTable<W>& t = h.top;
  t = ChTopTable<W>{};
  const int32_t size = top_table_size(h.n);
  if (size <= 0) return;
  const size_t cells = static_cast<size_t>(size) * static_cast<size_t>(size);
  t.size = size;
  t.out_arcs = h.up_out.offsets[static_cast<size_t>(size)];
  // Arc ids are int32: the top's arcs of both directions (NY: 58,000).
  require(t.out_arcs + h.up_in.offsets[static_cast<size_t>(size)] < INT32_MAX, GSP_ERR_INTERNAL,
          "road index: the top's arcs do not fit int32 ids");
  t.dist.resize(cells);
  t.arc.resize(cells);
  std::atomic<int32_t> next{0};
  FirstError first;
  auto work = [&] {
    first.guard(
        [&] {
          for (int32_t u = next.fetch_add(1); u < size; u = next.fetch_add(1)) table_row(h, u);
        },
        [&] { next.store(size); });
  };
  const int team = std::max(1, std::min(threads, size / 64));
  std::vector<std::thread> helpers;
  for (int i = 1; i < team; ++i) {
    try {
      helpers.emplace_back(work);
    } catch (...) {
      break;  // fewer threads: the others take the rows
    }
  }
  work();
  for (std::thread& th : helpers) th.join();
  if (first.failed()) first.rethrow();
}

template <class W>
ChTopArc top_arc(const ChHierarchy<W>& h, int32_t id) {
  const auto at = [](const ChArcs<W>& a, int64_t e) {
    // The position whose arcs hold e.
    const auto it = std::upper_bound(a.offsets.begin(), a.offsets.end(), e);
    return static_cast<int32_t>(it - a.offsets.begin()) - 1;
  };
  const int64_t e = id;
  if (e < h.top.out_arcs) return ChTopArc{true, e, at(h.up_out, e), h.up_out.other[static_cast<size_t>(e)]};
  const int64_t f = e - h.top.out_arcs;
  return ChTopArc{false, f, h.up_in.other[static_cast<size_t>(f)], at(h.up_in, f)};
}

template void make_top_table<int32_t>(ChHierarchy<int32_t>&, int);
template void make_top_table<float>(ChHierarchy<float>&, int);
template void make_top_table<double>(ChHierarchy<double>&, int);
template ChTopArc top_arc<int32_t>(const ChHierarchy<int32_t>&, int32_t);
template ChTopArc top_arc<float>(const ChHierarchy<float>&, int32_t);
template ChTopArc top_arc<double>(const ChHierarchy<double>&, int32_t);

}  // namespace gsp::detail
