/* How a test chooses an engine variant: the tuning knobs of doc/tuning.md
 * (GSP_DENSE_PRED, GSP_CUDA_SPEC, ...) set inside the process, for the runs
 * that follow, without touching the environment. The functions are compiled
 * into libgsp only when the tests are built (GSP_TEST_HOOKS,
 * src/core/tuning_override.cpp); this header is not installed and not
 * part of the API. Users set the environment variables instead.
 *
 * The library reads a knob from here first, then from the environment: a
 * value set here wins over the variable, and removing it gives the variable
 * (or the default) back. Safe to call while runs are in flight on other
 * threads; a run uses the values as they were when it started. Knobs read
 * once per process keep the value of their first run. C99 and C++. */
#ifndef GSP_TESTS_TUNING_HOOK_H
#define GSP_TESTS_TUNING_HOOK_H

#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sets knob `name` to `value` (NULL: removes the setting). Returns 0, or
 * non-zero (and changes nothing) when `name` is not a knob the library reads
 * or `value` is one it would ignore (malformed, out of range or empty). */
int gsp_test_tuning_set(const char* name, const char* value);

/* Removes every setting. */
void gsp_test_tuning_reset(void);

#ifdef __cplusplus
}
#endif

/* gsp_test_tuning_set() for tests: a refusal (a misspelt knob, a bad
 * value) ends the test with exit status 1, since it would otherwise test
 * the default while claiming a variant. */
#if defined(__GNUC__)
__attribute__((unused))
#endif
static void
t_tuning(const char* name, const char* value) {
  if (gsp_test_tuning_set(name, value) != 0) {
    fprintf(stderr, "gsp_test_tuning_set(\"%s\", %s%s%s) refused: not a knob, or a value it does not take\n", name,
            value ? "\"" : "", value ? value : "NULL", value ? "\"" : "");
    exit(1);
  }
}

#endif /* GSP_TESTS_TUNING_HOOK_H */
