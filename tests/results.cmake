# bench/RESULTS.md is made by scripts/results.sh from bench/results/*.md
# (one fragment a run of a program, headed by scripts/bench.sh): the
# committed file is what the script makes of the committed fragments, a
# fragment without a header is refused by name, and bench.sh writes and
# publishes fragments (a fake BUILD/bench, published into the build tree,
# never into the source tree). tests/scripts/check_results.sh says more.
foreach(_case current header bench)
  add_test(NAME results_${_case}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_results.sh ${_case} ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/results_${_case})
  set_tests_properties(results_${_case} PROPERTIES LABELS "cpu;nosan")
endforeach()
