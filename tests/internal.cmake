# Tests of internal pieces that the public API cannot reach: the test
# compiles the library source it tests (from src/) into itself instead of
# linking libgsp.a, whose internal symbols are local. Included by
# tests/CMakeLists.txt.
# - test_tuning: the GSP_* environment parser (src/core/tuning.cpp), the
#   tests' overrides (src/core/tuning_override.cpp, tests/tuning_hook.h)
#   and doc/tuning.md's list of variables.
# - test_row_merger: rows of parts run side by side to one sink
#   (src/core/row_merger.cpp), with no device.

add_executable(test_tuning ${CMAKE_CURRENT_SOURCE_DIR}/internal/test_tuning.cpp ${PROJECT_SOURCE_DIR}/src/core/tuning.cpp
  ${PROJECT_SOURCE_DIR}/src/core/tuning_override.cpp)
target_include_directories(test_tuning PRIVATE ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(test_tuning PRIVATE GSP_TEST_HOOKS=1)
target_compile_options(test_tuning PRIVATE ${GSP_WARNINGS})
target_link_libraries(test_tuning PRIVATE Threads::Threads)
add_test(NAME test_tuning COMMAND test_tuning)
set_tests_properties(test_tuning PROPERTIES LABELS "cpu" ENVIRONMENT "GSP_SOURCE_DIR=${PROJECT_SOURCE_DIR}")

add_executable(test_row_merger ${CMAKE_CURRENT_SOURCE_DIR}/internal/test_row_merger.cpp
  ${PROJECT_SOURCE_DIR}/src/core/row_merger.cpp ${PROJECT_SOURCE_DIR}/src/core/parallel_copy.cpp)
target_include_directories(test_row_merger PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(test_row_merger PRIVATE ${GSP_WARNINGS})
target_link_libraries(test_row_merger PRIVATE Threads::Threads)
add_test(NAME test_row_merger COMMAND test_row_merger)
set_tests_properties(test_row_merger PROPERTIES LABELS "cpu" TIMEOUT 60)
