// The tests' seam into the tuning knobs (tuning.h, doc/tuning.md): a table of
// values that tuning() consults before the environment, set through two C
// functions that tests declare in tests/tuning_hook.h. Compiled into test
// builds only (CMake defines GSP_TEST_HOOKS when the tests are built); the
// library of a -DGSP_BUILD_TESTS=OFF build has neither the functions nor the
// table, and reads the environment alone. Not part of the API.
//
// A test sets a knob for the runs that follow, and removes it to give the
// environment back its say, without changing the process environment (only
// the tests of the environment path itself set variables). Setting
// checks the name and the value with the parser itself (read_tuning), so a
// misspelt knob or a value the library would ignore fails the test instead of
// silently testing the default.
//
// Threads: tuning() may run on any thread while a test sets or removes a knob
// on another. The table is behind a mutex, and tuning_override() answers
// pointers into a pool of values that is only ever added to (at most one copy
// of each distinct text), so a pointer stays valid after the lock is released
// and after the knob is removed or set again.
#if defined(GSP_TEST_HOOKS)

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "core/tuning.h"

extern "C" int gsp_test_tuning_set(const char* name, const char* value);
extern "C" void gsp_test_tuning_reset(void);

namespace gsp::detail {

namespace {

struct Overrides {
  std::mutex mu;
  std::map<std::string, const char*, std::less<>> set;  // knob -> its value, in `texts`
  std::set<std::string> texts;                          // every value ever set; never shrinks
  // set.size(), stored after each change under mu: a call with no knob set
  // (every call but the tests') asks no lock for each of the 35 knobs.
  std::atomic<size_t> count{0};
};

// Built in static storage on first use, without allocating (tests/
// test_faults.cpp fails allocations during runs), and never destroyed: a run
// on another thread may still read it while the process exits.
Overrides& overrides() {
  alignas(Overrides) static unsigned char storage[sizeof(Overrides)];
  static Overrides* const o = new (storage) Overrides;
  return *o;
}

// The name and value takes() shows the parser, as the only variable set.
thread_local const char* t_check_name = nullptr;
thread_local const char* t_check_value = nullptr;

const char* check_lookup(const char* name) { return std::strcmp(name, t_check_name) == 0 ? t_check_value : nullptr; }

bool known(const char* name) {
  const std::vector<std::string> names = tuning_variables();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether the parser takes `value` for the knob `name` (an empty value is
// "unset" to the parser: refused here, remove the knob instead).
bool takes(const char* name, const char* value) {
  if (*value == '\0') return false;
  t_check_name = name;
  t_check_value = value;
  std::vector<std::string> ignored;
  read_tuning(check_lookup, &ignored);
  t_check_name = t_check_value = nullptr;
  return ignored.empty();
}

}  // namespace

const char* tuning_override(const char* name) {
  Overrides& o = overrides();
  if (o.count.load(std::memory_order_acquire) == 0) return nullptr;
  const std::lock_guard<std::mutex> lock(o.mu);
  const auto it = o.set.find(name);
  return it == o.set.end() ? nullptr : it->second;
}

}  // namespace gsp::detail

extern "C" int gsp_test_tuning_set(const char* name, const char* value) {
  namespace d = gsp::detail;
  if (name == nullptr) return 1;
  try {
    if (!d::known(name) || (value != nullptr && !d::takes(name, value))) return 1;
    d::Overrides& o = d::overrides();
    const std::lock_guard<std::mutex> lock(o.mu);
    if (value == nullptr) {
      o.set.erase(std::string(name));
    } else {
      o.set[name] = o.texts.insert(value).first->c_str();
    }
    o.count.store(o.set.size(), std::memory_order_release);
    return 0;
  } catch (...) {  // out of memory: the C caller sees a refusal
    return 1;
  }
}

extern "C" void gsp_test_tuning_reset(void) {
  gsp::detail::Overrides& o = gsp::detail::overrides();
  const std::lock_guard<std::mutex> lock(o.mu);
  o.set.clear();
  o.count.store(0, std::memory_order_release);
}

#endif  // GSP_TEST_HOOKS
