// The tuning knobs' parser (src/core/tuning.cpp, compiled into this test; see
// tests/internal.cmake): every knob takes its valid values, ignores bad ones
// and keeps the default, tuning() sees the environment as it is at each call
// (tests set variables between runs), and doc/tuning.md lists exactly the
// variables the library reads. Then the tests' overrides (tests/tuning_hook.h,
// src/core/tuning_override.cpp): they win over the environment, removing
// one gives the environment back, a bad name or value is refused, reset
// clears them, and a run may read them while another thread changes them.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/tuning.h"
#include "tuning_hook.h"
#include "checks.h"

using gsp::detail::CudaFilter;
using gsp::detail::CudaSplit;
using gsp::detail::DensePred;
using gsp::detail::HeapLayout;
using gsp::detail::MpiTransport;
using gsp::detail::read_tuning;
using gsp::detail::Tuning;

namespace {

// The environment read_tuning() sees in these tests.
std::map<std::string, std::string> g_env;

const char* lookup(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

Tuning parse(const std::map<std::string, std::string>& env, std::vector<std::string>* ignored = nullptr) {
  g_env = env;
  return read_tuning(lookup, ignored);
}

// Whether two snapshots agree on every field.
bool same(const Tuning& a, const Tuning& b) {
  return a.cpu_pool == b.cpu_pool && a.cpu_pool_spin_us == b.cpu_pool_spin_us &&
         a.cpu_barrier_spin_us == b.cpu_barrier_spin_us && a.cpu_barrier_pause == b.cpu_barrier_pause &&
         a.cpu_ds_fuse == b.cpu_ds_fuse && a.dense_pred == b.dense_pred && a.dense_fw_block == b.dense_fw_block &&
         a.dense_fw_lookahead == b.dense_fw_lookahead && a.dense_pinned_cache == b.dense_pinned_cache &&
         a.apsp_heap_layout == b.apsp_heap_layout && a.apsp_tp_max_n == b.apsp_tp_max_n &&
         a.cuda_sssp_pool == b.cuda_sssp_pool && a.cuda_pinned_results == b.cuda_pinned_results &&
         a.cuda_ds_one_bucket == b.cuda_ds_one_bucket && a.cuda_local_rounds == b.cuda_local_rounds &&
         a.cuda_ell == b.cuda_ell && a.cuda_spec == b.cuda_spec &&
         a.cuda_persistent_blocks_per_sm == b.cuda_persistent_blocks_per_sm && a.cuda_filter == b.cuda_filter &&
         a.cuda_hub_arcs == b.cuda_hub_arcs && a.cuda_ds_delta_scale == b.cuda_ds_delta_scale &&
         a.cuda_ds_split == b.cuda_ds_split && a.cuda_trace == b.cuda_trace &&
         a.cuda_batch_sources == b.cuda_batch_sources && a.cuda_spmm_hub_arcs == b.cuda_spmm_hub_arcs &&
         a.cuda_index_sweep_per_sm == b.cuda_index_sweep_per_sm && a.mpi_block_size == b.mpi_block_size &&
         a.mpi_block_size_rejected == b.mpi_block_size_rejected && a.mpi_grid == b.mpi_grid &&
         a.mpi_trace == b.mpi_trace && a.mpi_test_fail_rank == b.mpi_test_fail_rank &&
         a.test_fail_device == b.test_fail_device && a.test_result_ready_delay_ms == b.test_result_ready_delay_ms &&
         a.test_lock_piece_kb == b.test_lock_piece_kb;
}

// One knob: values it takes (with the check that the field holds each) and
// values it must ignore.
struct Case {
  const char* name;
  std::vector<std::pair<const char*, std::function<bool(const Tuning&)>>> good;
  std::vector<const char*> bad;
};

std::vector<Case> cases() {
  const std::vector<const char*> bad_switch = {"2", "-1", "yes", "on", "1x", "0.5"};
  return {
      {"GSP_CPU_POOL", {{"0", [](const Tuning& t) { return !t.cpu_pool; }}}, bad_switch},
      {"GSP_CPU_POOL_SPIN_US",
       {{"0", [](const Tuning& t) { return t.cpu_pool_spin_us == 0; }},
        {"10000000", [](const Tuning& t) { return t.cpu_pool_spin_us == 10000000; }}},
       {"-1", "10000001", "5us", "99999999999999999999999"}},
      {"GSP_CPU_BARRIER_SPIN_US",
       {{"20", [](const Tuning& t) { return t.cpu_barrier_spin_us == 20; }}},
       {"-5", "twenty"}},
      {"GSP_CPU_BARRIER_PAUSE", {{"0", [](const Tuning& t) { return !t.cpu_barrier_pause; }}}, bad_switch},
      {"GSP_CPU_DS_FUSE",
       {{"0", [](const Tuning& t) { return t.cpu_ds_fuse == 0; }},
        {"100", [](const Tuning& t) { return t.cpu_ds_fuse == 100; }}},
       {"-1", "1073741825", "1e3"}},
      {"GSP_DENSE_PRED",
       {{"pass", [](const Tuning& t) { return t.dense_pred == DensePred::kPass; }},
        {"track", [](const Tuning& t) { return t.dense_pred == DensePred::kTrack; }},
        {"auto", [](const Tuning& t) { return t.dense_pred == DensePred::kAuto; }}},
       {"PASS", "tracking", "1"}},
      {"GSP_DENSE_FW_BLOCK",
       {{"1", [](const Tuning& t) { return t.dense_fw_block == 1; }},
        {"8", [](const Tuning& t) { return t.dense_fw_block == 8; }}},
       {"0", "9", "-4", "four"}},
      {"GSP_DENSE_FW_LOOKAHEAD", {{"0", [](const Tuning& t) { return !t.dense_fw_lookahead; }}}, bad_switch},
      {"GSP_DENSE_PINNED_CACHE", {{"0", [](const Tuning& t) { return !t.dense_pinned_cache; }}}, bad_switch},
      {"GSP_APSP_HEAP_LAYOUT",
       {{"contiguous", [](const Tuning& t) { return t.apsp_heap_layout == HeapLayout::kContiguous; }},
        {"interleaved", [](const Tuning& t) { return t.apsp_heap_layout == HeapLayout::kInterleaved; }}},
       {"contig", "0"}},
      {"GSP_APSP_TP_MAX_N",
       {{"32", [](const Tuning& t) { return t.apsp_tp_max_n == 32; }},
        {"65536", [](const Tuning& t) { return t.apsp_tp_max_n == 65536; }}},
       {"31", "0", "65537", "-64"}},
      {"GSP_CUDA_SSSP_POOL", {{"0", [](const Tuning& t) { return !t.cuda_sssp_pool; }}}, bad_switch},
      {"GSP_CUDA_PINNED_RESULTS", {{"0", [](const Tuning& t) { return !t.cuda_pinned_results; }}}, bad_switch},
      {"GSP_CUDA_DS_ONE_BUCKET", {{"1", [](const Tuning& t) { return t.cuda_ds_one_bucket; }}}, bad_switch},
      {"GSP_CUDA_HUB_ARCS",
       {{"0", [](const Tuning& t) { return t.cuda_hub_arcs == 0; }},
        {"2147483647", [](const Tuning& t) { return t.cuda_hub_arcs == 2147483647; }}},
       {"-1", "2147483648", "4k"}},
      {"GSP_CUDA_DS_DELTA_SCALE",
       {{"1", [](const Tuning& t) { return t.cuda_ds_delta_scale == 1; }},
        {"1048576", [](const Tuning& t) { return t.cuda_ds_delta_scale == 1048576; }}},
       {"0", "1048577", "x"}},
      {"GSP_CUDA_DS_SPLIT",
       {{"copy", [](const Tuning& t) { return t.cuda_ds_split == CudaSplit::kCopy; }},
        {"filter", [](const Tuning& t) { return t.cuda_ds_split == CudaSplit::kFilter; }},
        {"none", [](const Tuning& t) { return t.cuda_ds_split == CudaSplit::kNone; }}},
       {"split", "1"}},
      {"GSP_CUDA_TRACE", {{"1", [](const Tuning& t) { return t.cuda_trace; }}}, bad_switch},
      {"GSP_CUDA_LOCAL_ROUNDS",
       {{"0", [](const Tuning& t) { return t.cuda_local_rounds == 0; }},
        {"16", [](const Tuning& t) { return t.cuda_local_rounds == 16; }},
        {"1048576", [](const Tuning& t) { return t.cuda_local_rounds == 1048576; }}},
       {"-1", "1048577", "8x"}},
      {"GSP_CUDA_ELL", {{"0", [](const Tuning& t) { return !t.cuda_ell; }}}, bad_switch},
      {"GSP_CUDA_SPEC", {{"0", [](const Tuning& t) { return !t.cuda_spec; }}}, bad_switch},
      {"GSP_CUDA_PERSISTENT_BLOCKS_PER_SM",
       {{"1", [](const Tuning& t) { return t.cuda_persistent_blocks_per_sm == 1; }},
        {"4", [](const Tuning& t) { return t.cuda_persistent_blocks_per_sm == 4; }}},
       {"0", "5"}},
      {"GSP_CUDA_FILTER",
       {{"both", [](const Tuning& t) { return t.cuda_filter == CudaFilter::kBoth; }},
        {"global", [](const Tuning& t) { return t.cuda_filter == CudaFilter::kGlobal; }},
        {"none", [](const Tuning& t) { return t.cuda_filter == CudaFilter::kNone; }}},
       {"local", "Both"}},
      {"GSP_CUDA_BATCH_SOURCES",
       {{"1", [](const Tuning& t) { return t.cuda_batch_sources == 1; }},
        {"2147483647", [](const Tuning& t) { return t.cuda_batch_sources == 2147483647; }}},
       {"0", "-32", "2147483648", "32 "}},
      {"GSP_CUDA_SPMM_HUB_ARCS",
       {{"1", [](const Tuning& t) { return t.cuda_spmm_hub_arcs == 1; }},
        {"2147483647", [](const Tuning& t) { return t.cuda_spmm_hub_arcs == 2147483647; }}},
       {"0", "-4", "2147483648", "1k"}},
      {"GSP_CUDA_INDEX_SWEEP_PER_SM",
       {{"0", [](const Tuning& t) { return t.cuda_index_sweep_per_sm == 0; }},
        {"32", [](const Tuning& t) { return t.cuda_index_sweep_per_sm == 32; }}},
       {"-1", "33", "2x"}},
      {"GSP_MPI_BLOCK_SIZE",
       {{"1", [](const Tuning& t) { return t.mpi_block_size == 1; }},
        {"2048", [](const Tuning& t) { return t.mpi_block_size == 2048; }}},
       {"0", "2049", "64k"}},
      // Kept as text (any): the MPI engine checks it against the number of
      // ranks and fails the call on every rank (tests/mpi/test_mpi_apsp.c).
      {"GSP_MPI_GRID",
       {{"2x2", [](const Tuning& t) { return t.mpi_grid == "2x2"; }},
        {"3by1", [](const Tuning& t) { return t.mpi_grid == "3by1"; }}},
       {}},
      {"GSP_MPI_TRACE", {{"1", [](const Tuning& t) { return t.mpi_trace; }}}, bad_switch},
      {"GSP_MPI_TRANSPORT",
       {{"device", [](const Tuning& t) { return t.mpi_transport == MpiTransport::kDevice; }},
        {"host", [](const Tuning& t) { return t.mpi_transport == MpiTransport::kHost; }},
        {"auto", [](const Tuning& t) { return t.mpi_transport == MpiTransport::kAuto; }}},
       {"nccl", "Host", "1"}},
      {"GSP_MPI_TEST_FAIL_RANK",
       {{"0", [](const Tuning& t) { return t.mpi_test_fail_rank == 0; }},
        {"5", [](const Tuning& t) { return t.mpi_test_fail_rank == 5; }}},
       {"-1", "rank1", "2147483648"}},
      {"GSP_MPI_TEST_FAIL_STEP",
       {{"1", [](const Tuning& t) { return t.mpi_test_fail_step == 1; }},
        {"2147483647", [](const Tuning& t) { return t.mpi_test_fail_step == 2147483647; }}},
       {"0", "-1", "step2", "2147483648"}},
      {"GSP_TEST_FAIL_DEVICE",
       {{"0", [](const Tuning& t) { return t.test_fail_device == 0; }},
        {"3", [](const Tuning& t) { return t.test_fail_device == 3; }}},
       {"-1", "gpu1", "2147483648"}},
      {"GSP_TEST_RESULT_READY_DELAY_MS",
       {{"1", [](const Tuning& t) { return t.test_result_ready_delay_ms == 1; }},
        {"60000", [](const Tuning& t) { return t.test_result_ready_delay_ms == 60000; }}},
       {"0", "-5", "60001", "soon"}},
      {"GSP_TEST_LOCK_PIECE_KB",
       {{"4", [](const Tuning& t) { return t.test_lock_piece_kb == 4; }},
        {"65536", [](const Tuning& t) { return t.test_lock_piece_kb == 65536; }}},
       {"0", "2", "48", "131072", "big"}},
  };
}

void test_knobs() {
  const Tuning defaults;
  std::vector<std::string> ignored;
  CHECK(same(parse({}, &ignored), defaults) && ignored.empty(), "nothing set: the defaults");

  std::set<std::string> covered;
  for (const Case& c : cases()) {
    covered.insert(c.name);
    for (const auto& [text, holds] : c.good) {
      ignored.clear();
      const Tuning t = parse({{c.name, text}}, &ignored);
      CHECK(holds(t) && ignored.empty(), "%s=%s: not taken", c.name, text);
    }
    // A bad value is ignored (and reported), every field keeps its default;
    // GSP_MPI_BLOCK_SIZE also keeps the text for the MPI engine's error.
    for (const char* text : c.bad) {
      ignored.clear();
      Tuning t = parse({{c.name, text}}, &ignored);
      const bool block = std::string(c.name) == "GSP_MPI_BLOCK_SIZE";
      CHECK(!block || t.mpi_block_size_rejected == text, "%s=%s: rejected text '%s'", c.name, text,
            t.mpi_block_size_rejected.c_str());
      t.mpi_block_size_rejected.clear();
      CHECK(same(t, defaults), "%s=%s: a bad value changed the settings", c.name, text);
      CHECK(ignored.size() == 1 && ignored[0] == std::string(c.name) + "=" + text, "%s=%s: not reported as ignored",
            c.name, text);
    }
    // Empty is unset: the default, nothing reported.
    ignored.clear();
    CHECK(same(parse({{c.name, ""}}, &ignored), defaults) && ignored.empty(), "%s empty: not the default", c.name);
  }
  // Every variable the parser reads has a case here.
  for (const std::string& name : gsp::detail::tuning_variables()) {
    CHECK(covered.count(name) == 1, "%s: no test case", name.c_str());
  }
  CHECK(covered.size() == gsp::detail::tuning_variables().size(), "%zu cases for %zu variables", covered.size(),
        gsp::detail::tuning_variables().size());

  // Several at once, one bad: the good ones hold.
  ignored.clear();
  const Tuning t = parse({{"GSP_CUDA_LOCAL_ROUNDS", "8"},
                          {"GSP_APSP_TP_MAX_N", "x"},
                          {"GSP_DENSE_PRED", "pass"},
                          {"GSP_UNKNOWN_KNOB", "1"}},
                         &ignored);
  CHECK(t.cuda_local_rounds == 8 && !t.apsp_tp_max_n && t.dense_pred == DensePred::kPass, "mixed settings");
  CHECK(ignored.size() == 1, "mixed settings: %zu ignored", ignored.size());
}

// tuning() reads the process environment at each call. The one test of the
// path a user takes (the other tests choose variants through the overrides),
// so it sets the variable itself.
void test_environment() {
  unsetenv("GSP_DENSE_PRED");
  CHECK(gsp::detail::tuning().dense_pred == DensePred::kAuto, "unset");
  setenv("GSP_DENSE_PRED", "pass", 1);
  CHECK(gsp::detail::tuning().dense_pred == DensePred::kPass, "set to pass");
  setenv("GSP_DENSE_PRED", "track", 1);
  CHECK(gsp::detail::tuning().dense_pred == DensePred::kTrack, "set to track");
  setenv("GSP_DENSE_PRED", "bogus", 1);
  CHECK(gsp::detail::tuning().dense_pred == DensePred::kAuto, "bogus");
  unsetenv("GSP_DENSE_PRED");
  CHECK(gsp::detail::tuning().dense_pred == DensePred::kAuto, "unset again");
}

// The process environment as tuning() would read it without overrides.
Tuning from_environment() {
  return read_tuning([](const char* name) -> const char* { return std::getenv(name); });
}

// gsp_test_tuning_set() over the environment: the override wins, removing it
// gives the environment's value back (read live, as without overrides).
void test_override_wins() {
  using gsp::detail::tuning;
  gsp_test_tuning_reset();
  setenv("GSP_DENSE_PRED", "track", 1);
  CHECK(tuning().dense_pred == DensePred::kTrack, "environment alone: track");
  CHECK(gsp_test_tuning_set("GSP_DENSE_PRED", "pass") == 0, "override refused");
  CHECK(tuning().dense_pred == DensePred::kPass, "the override does not win over the environment");
  setenv("GSP_DENSE_PRED", "auto", 1);
  CHECK(tuning().dense_pred == DensePred::kPass, "the override does not win over a changed environment");
  CHECK(gsp_test_tuning_set("GSP_DENSE_PRED", "track") == 0, "second override refused");
  CHECK(tuning().dense_pred == DensePred::kTrack, "the second override did not replace the first");
  CHECK(gsp_test_tuning_set("GSP_DENSE_PRED", nullptr) == 0, "removal refused");
  CHECK(tuning().dense_pred == DensePred::kAuto, "removal did not give the environment's value back");
  unsetenv("GSP_DENSE_PRED");
  CHECK(tuning().dense_pred == DensePred::kAuto, "unset and no override: not the default");
  // An override where the environment holds nothing, then removed twice.
  CHECK(gsp_test_tuning_set("GSP_CUDA_LOCAL_ROUNDS", "7") == 0, "override refused");
  CHECK(tuning().cuda_local_rounds == 7, "override of an unset variable not seen");
  CHECK(gsp_test_tuning_set("GSP_CUDA_LOCAL_ROUNDS", nullptr) == 0, "removal refused");
  CHECK(gsp_test_tuning_set("GSP_CUDA_LOCAL_ROUNDS", nullptr) == 0, "removing a knob not set refused");
  CHECK(!tuning().cuda_local_rounds, "removal left a value");
}

// A name the library does not read or a value it would ignore is refused,
// and changes nothing.
void test_override_refusals() {
  using gsp::detail::tuning;
  gsp_test_tuning_reset();
  CHECK(gsp_test_tuning_set("GSP_APSP_TP_MAX_N", "64") == 0, "override refused");
  const Tuning before = tuning();
  const char* const refused[][2] = {
      {"GSP_DENSE_PERD", "pass"},            // misspelt
      {"GSP_UNKNOWN_KNOB", "1"},             // no such knob
      {"gsp_dense_pred", "pass"},            // names are case-sensitive
      {"GSP_DENSE_PRED", "bogus"},           // not one of the words
      {"GSP_DENSE_PRED", ""},                // empty: "unset" to the parser
      {"GSP_APSP_TP_MAX_N", "x"},            // not a number
      {"GSP_CUDA_LOCAL_ROUNDS", "1048577"},  // out of range
      {"GSP_CPU_POOL", "2"},                 // not a switch
      {"GSP_MPI_BLOCK_SIZE", "0"},           // the MPI engine would refuse the call: not through the hook
      {"GSP_TEST_SMALL", "1"},               // a test's own variable, not the library's
  };
  for (const auto& r : refused) {
    CHECK(gsp_test_tuning_set(r[0], r[1]) != 0, "%s=\"%s\": taken", r[0], r[1]);
  }
  CHECK(gsp_test_tuning_set("GSP_DENSE_PERD", nullptr) != 0, "removing a misspelt knob: taken");
  CHECK(gsp_test_tuning_set(nullptr, "1") != 0, "a null name: taken");
  CHECK(same(tuning(), before), "a refused override changed the settings");
  CHECK(tuning().apsp_tp_max_n == 64 && tuning().mpi_block_size_rejected.empty(), "a refusal touched another knob");
  gsp_test_tuning_reset();
}

// Every knob's values through the hook: what the parser takes is taken and
// seen by tuning(), what it ignores is refused.
void test_override_every_knob() {
  gsp_test_tuning_reset();
  const Tuning env = from_environment();
  for (const Case& c : cases()) {
    for (const auto& [text, holds] : c.good) {
      CHECK(gsp_test_tuning_set(c.name, text) == 0, "%s=%s: refused", c.name, text);
      CHECK(holds(gsp::detail::tuning()), "%s=%s: not seen by tuning()", c.name, text);
    }
    CHECK(gsp_test_tuning_set(c.name, nullptr) == 0, "%s: removal refused", c.name);
    for (const char* text : c.bad) {
      CHECK(gsp_test_tuning_set(c.name, text) != 0, "%s=%s: taken", c.name, text);
    }
    CHECK(same(gsp::detail::tuning(), env), "%s: settings left behind", c.name);
  }
}

// Reset removes every override at once.
void test_override_reset() {
  gsp_test_tuning_reset();
  const Tuning env = from_environment();
  CHECK(gsp_test_tuning_set("GSP_DENSE_PRED", "pass") == 0 && gsp_test_tuning_set("GSP_CUDA_LOCAL_ROUNDS", "4") == 0 &&
            gsp_test_tuning_set("GSP_CPU_POOL", "0") == 0 && gsp_test_tuning_set("GSP_CUDA_FILTER", "none") == 0,
        "overrides refused");
  const Tuning t = gsp::detail::tuning();
  CHECK(
      t.dense_pred == DensePred::kPass && t.cuda_local_rounds == 4 && !t.cpu_pool && t.cuda_filter == CudaFilter::kNone,
      "overrides not seen");
  gsp_test_tuning_reset();
  CHECK(same(gsp::detail::tuning(), env), "reset left an override behind");
  gsp_test_tuning_reset();  // twice: nothing to do
  CHECK(same(gsp::detail::tuning(), env), "a second reset changed the settings");
}

// Runs read the overrides while a test changes them on another thread: each
// snapshot holds a value that was set (the environment's or an override's),
// never a torn or freed one. The ThreadSanitizer build checks the locking.
void test_override_threads() {
  gsp_test_tuning_reset();
  setenv("GSP_DENSE_PRED", "track", 1);
  std::atomic<bool> done{false};
  std::atomic<long> bad{0}, reads{0};
  std::thread reader([&] {
    while (!done.load()) {
      const Tuning t = gsp::detail::tuning();
      const bool pred_ok = t.dense_pred == DensePred::kTrack || t.dense_pred == DensePred::kPass;
      const bool filter_ok =
          !t.cuda_filter || *t.cuda_filter == CudaFilter::kBoth || *t.cuda_filter == CudaFilter::kNone;
      if (!pred_ok || !filter_ok) bad++;
      reads++;
    }
  });
  for (int i = 0; i < 20000 || reads.load() < 1000; i++) {
    gsp_test_tuning_set("GSP_DENSE_PRED", i % 2 ? "pass" : nullptr);
    gsp_test_tuning_set("GSP_CUDA_FILTER", i % 3 == 0 ? "both" : i % 3 == 1 ? "none" : nullptr);
    if (i % 1000 == 999) gsp_test_tuning_reset();
  }
  done = true;
  reader.join();
  CHECK(bad.load() == 0, "%ld of %ld snapshots held a value never set", bad.load(), reads.load());
  unsetenv("GSP_DENSE_PRED");
  gsp_test_tuning_reset();
}

// doc/tuning.md has one table row per variable, and none for others.
void test_doc() {
  const char* src = std::getenv("GSP_SOURCE_DIR");
  CHECK(src != nullptr, "GSP_SOURCE_DIR not set");
  if (src == nullptr) return;
  const std::string path = std::string(src) + "/doc/tuning.md";
  std::ifstream in(path);
  CHECK(in.good(), "cannot read %s", path.c_str());
  std::set<std::string> documented;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `GSP_", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) documented.insert(line.substr(3, end - 3));
  }
  const std::vector<std::string> read = gsp::detail::tuning_variables();
  for (const std::string& name : read) CHECK(documented.count(name) == 1, "%s: not in doc/tuning.md", name.c_str());
  for (const std::string& name : documented) {
    bool found = false;
    for (const std::string& r : read) found = found || r == name;
    CHECK(found, "doc/tuning.md lists %s, which the library does not read", name.c_str());
  }
}

}  // namespace

int main() {
  test_knobs();
  test_environment();
  test_override_wins();
  test_override_refusals();
  test_override_every_knob();
  test_override_reset();
  test_override_threads();
  test_doc();
  return t_finish("test_tuning");
}
