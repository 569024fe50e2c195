# Hardening checks outside the sanitizer builds (issue 9):
# - valgrind memcheck over the gsp command: generate a small grid, then
#   sssp, apsp and path on it; any invalid access, use of uninitialised
#   memory or definite/indirect leak fails the test (exit 1). Skipped (77)
#   when valgrind is not installed, and not registered in sanitizer builds
#   (valgrind cannot run ASan/TSan binaries); labelled "nosan" as well.
# - scripts/lint.sh (clang-tidy + cppcheck over src/), label "lint".
# Included by tests/CMakeLists.txt.

if(TARGET gsp_cli AND NOT GSP_SANITIZE)
  set(_vg_dir ${CMAKE_CURRENT_BINARY_DIR}/valgrind)
  set(_vg_script ${CMAKE_CURRENT_BINARY_DIR}/gsp_valgrind.cmake)
  file(WRITE ${_vg_script} [=[
find_program(VALGRIND valgrind REQUIRED)
file(MAKE_DIRECTORY "${DIR}")
# definite and indirect leaks are errors; "possible" ones are not (thread
# stacks and TLS of worker threads that glibc keeps look like them).
set(_vg ${VALGRIND} --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
        --show-leak-kinds=definite,indirect --track-origins=yes --quiet)
foreach(_cmd
    "generate|grid|--vertices|100|--seed|3|-o|${DIR}/g.gr"
    "info|${DIR}/g.gr"
    "sssp|${DIR}/g.gr|--source|0|--to|99|--backend|cpu|--check"
    "sssp|${DIR}/g.gr|--source|5|--backend|cpu|--algorithm|delta-stepping"
    "sssp|${DIR}/g.gr|--source|5|--backend|cpu|--algorithm|bellman-ford"
    "apsp|${DIR}/g.gr|--backend|cpu|--out|${DIR}/rows.txt"
    "apsp|${DIR}/g.gr|--backend|cpu|--algorithm|floyd-warshall|--sources|0-9|--out|${DIR}/rows_fw.txt"
    "path|${DIR}/g.gr|--from|0|--to|99|--backend|cpu")
  string(REPLACE "|" ";" _args "${_cmd}")
  execute_process(COMMAND ${_vg} ${GSP} ${_args} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("$ valgrind gsp ${_args}\n${_err}(exit ${_rc})")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "valgrind gsp ${_args}: exit ${_rc}\n${_out}")
  endif()
endforeach()
]=])
  # The shell wrapper answers 77 (skipped) when valgrind is absent.
  add_test(NAME valgrind_cli
    COMMAND sh -c "command -v valgrind >/dev/null 2>&1 || exit 77; exec \"$0\" -DGSP=\"$1\" -DDIR=\"$2\" -P \"$3\""
            ${CMAKE_COMMAND} $<TARGET_FILE:gsp_cli> ${_vg_dir} ${_vg_script})
  set_tests_properties(valgrind_cli PROPERTIES LABELS "cpu;nosan;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

# Static analysis: needs a compile_commands.json, which this build dir has
# only with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; scripts/lint.sh skips (77)
# when clang-tidy or cppcheck is missing. clang-tidy over the 20 host
# sources takes 8-10 minutes on 2 busy cores (2026-11-24), hence 1200 s.
add_test(NAME lint
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/lint.sh ${CMAKE_BINARY_DIR}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(lint PROPERTIES LABELS "lint;nosan" SKIP_RETURN_CODE 77 TIMEOUT 1200)

# The CPU thread pool's test again with fresh threads per run (GSP_CPU_POOL=0,
# the behaviour before the pool), so both ways stay correct.
add_test(NAME test_thread_pool_unpooled COMMAND test_thread_pool)
set_tests_properties(test_thread_pool_unpooled PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77
  ENVIRONMENT "GSP_CPU_POOL=0;GSP_TEST_SMALL=1")
