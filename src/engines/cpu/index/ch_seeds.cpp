// The upward searches of a sweep made on the CUDA backend (index_seeds:
// engines/cpu/cpu_backend.h): PHAST's first half, one search a source, on
// the team's threads.
#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "engines/cpu/common/team.h"
#include "engines/cpu/cpu_backend.h"
#include "engines/cpu/index/ch_search.h"

namespace gsp::detail::cpu {

namespace {

// A thread's search, kept in the index's seed pool between calls (its
// n-sized labels cost more to make than a search of a road graph's
// hierarchy).
template <class W>
struct SeedScratch final : ChScratch {
  explicit SeedScratch(int32_t n) : up(n) {}
  ch::UpwardSearch<W> up;
  std::vector<int32_t> position, last;  // this thread's rows, one after another
  std::vector<ChDist<W>> dist;
  std::vector<int32_t> row;  // each of its rows: which,
  std::vector<int64_t> at;   // and where it starts
};

template <class W>
std::unique_ptr<SeedScratch<W>> take_scratch(const ChHierarchy<W>& h) {
  std::unique_ptr<ChScratch> s = h.seed_scratch.take();
  if (s != nullptr) return std::unique_ptr<SeedScratch<W>>(static_cast<SeedScratch<W>*>(s.release()));
  return std::make_unique<SeedScratch<W>>(h.n);
}

// The search from `source` appended to the scratch's lists.
template <class W>
void search_one(const ChHierarchy<W>& h, int32_t source, SeedScratch<W>& s) {
  ch::upward_labels(h, s.up, source, [&](int32_t p, ChDist<W> label, int32_t via) {
    s.position.push_back(p);
    s.dist.push_back(label);
    s.last.push_back(via);
  });
}

}  // namespace

template <class W>
void index_seeds(const ChBase& index, const int32_t* sources, int32_t count, int threads, ChSeeds<W>& out) {
  const auto& h = static_cast<const ChHierarchy<W>&>(index);
  // A search settles a few hundred vertices on a road graph (tens of
  // microseconds): a thread takes sources in chunks.
  constexpr int32_t kChunk = 4;
  const int team_size = std::max(1, std::min(threads, (count + kChunk - 1) / kChunk));
  std::vector<std::unique_ptr<SeedScratch<W>>> scratch(static_cast<size_t>(team_size));
  std::atomic<int32_t> next{0};
  auto work = [&](int t) {
    auto& s = scratch[static_cast<size_t>(t)];
    s = take_scratch(h);
    s->position.clear();
    s->dist.clear();
    s->last.clear();
    s->row.clear();
    s->at.clear();
    for (int32_t r = next.fetch_add(kChunk); r < count; r = next.fetch_add(kChunk)) {
      for (int32_t i = r; i < std::min(count, r + kChunk); ++i) {
        s->row.push_back(i);
        s->at.push_back(static_cast<int64_t>(s->position.size()));
        search_one(h, sources[i], *s);
      }
    }
    s->at.push_back(static_cast<int64_t>(s->position.size()));
  };
  if (team_size == 1) {
    work(0);
  } else {
    Team team(team_size);
    team.run(work);
  }
  // Rows in source order.
  std::vector<int64_t> len(static_cast<size_t>(count), 0);
  for (const auto& s : scratch) {
    if (s == nullptr) continue;  // a member that did not run: the others took its rows
    for (size_t k = 0; k < s->row.size(); ++k) len[static_cast<size_t>(s->row[k])] = s->at[k + 1] - s->at[k];
  }
  out.begin.assign(static_cast<size_t>(count) + 1, 0);
  for (int32_t i = 0; i < count; ++i)
    out.begin[static_cast<size_t>(i) + 1] = out.begin[static_cast<size_t>(i)] + len[static_cast<size_t>(i)];
  const size_t total = static_cast<size_t>(out.begin.back());
  out.position.resize(total);
  out.dist.resize(total);
  out.last.resize(total);
  for (auto& s : scratch) {
    if (s == nullptr) continue;
    for (size_t k = 0; k < s->row.size(); ++k) {
      const size_t from = static_cast<size_t>(s->at[k]), to = static_cast<size_t>(s->at[k + 1]);
      const size_t at = static_cast<size_t>(out.begin[static_cast<size_t>(s->row[k])]);
      std::copy(s->position.begin() + from, s->position.begin() + to, out.position.begin() + at);
      std::copy(s->dist.begin() + from, s->dist.begin() + to, out.dist.begin() + at);
      std::copy(s->last.begin() + from, s->last.begin() + to, out.last.begin() + at);
    }
    h.seed_scratch.give(std::move(s));
  }
}

template void index_seeds<int32_t>(const ChBase&, const int32_t*, int32_t, int, ChSeeds<int32_t>&);
template void index_seeds<float>(const ChBase&, const int32_t*, int32_t, int, ChSeeds<float>&);
template void index_seeds<double>(const ChBase&, const int32_t*, int32_t, int, ChSeeds<double>&);

}  // namespace gsp::detail::cpu
