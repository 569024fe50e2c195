/* The tests' check macro and closing line, shared by the C tests (through
 * testing.h) and the C++ tests of internal pieces (tests/internal/).
 * Header-only, C99 and C++. */
#ifndef GSP_TESTS_CHECKS_H
#define GSP_TESTS_CHECKS_H

#include <stdio.h>

static int t_checks __attribute__((unused)) = 0, t_failures __attribute__((unused)) = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    t_checks++;                                                                \
    if (!(cond)) {                                                             \
      t_failures++;                                                            \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

/* Prints the closing line CI reads and returns the exit code. */
static __attribute__((unused)) int t_finish(const char* name) {
  printf("%s: %d checks\n", name, t_checks);
  printf("%d passed, %d failed\n", t_checks - t_failures, t_failures);
  return t_failures == 0 ? 0 : 1;
}

#endif
