# The layer rules of doc/architecture.md (scripts/check_layers.sh): every
# #include of src/ within its layer, and the check itself trying a small
# tree with wrong includes, each of which it must name.
add_test(NAME layers COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check_layers.sh ${PROJECT_SOURCE_DIR}/src)
set_tests_properties(layers PROPERTIES LABELS "cpu" PASS_REGULAR_EXPRESSION "every include within its layer")

set(_gsp_layers_bad ${CMAKE_CURRENT_BINARY_DIR}/layers_bad)
file(REMOVE_RECURSE ${_gsp_layers_bad})
file(WRITE ${_gsp_layers_bad}/core/contract.h "#include \"core/graph.h\"\n#include \"dispatch/dispatch.h\"\n")
file(WRITE ${_gsp_layers_bad}/dispatch/plan.cpp "#include \"engines/cpu/cpu_backend.h\"\n#include \"engines/cuda/cuda_backend.h\"\n#include \"engines/cpu/common/team.h\"\n")
file(WRITE ${_gsp_layers_bad}/engines/cpu/sssp/y.cpp "#include \"engines/cuda/runtime/device.cuh\"\n")
file(WRITE ${_gsp_layers_bad}/engines/cuda/sssp/x.cu "#include \"runtime/engines.cuh\"\n#include \"dispatch/tuning.h\"\n")
file(WRITE ${_gsp_layers_bad}/cli/main.cpp "#include \"gsp/gsp.h\"\n#include \"core/graph.h\"\n")
add_test(NAME layers_catch_wrong_includes
  COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check_layers.sh ${_gsp_layers_bad})
set_tests_properties(layers_catch_wrong_includes PROPERTIES LABELS "cpu"
  PASS_REGULAR_EXPRESSION "cli/main.cpp:2: includes \"core/graph.h\".*core/contract.h:2: includes \"dispatch/dispatch.h\".*dispatch/plan.cpp:3: includes \"engines/cpu/common/team.h\".*engines/cpu/sssp/y.cpp:1: includes \"engines/cuda/runtime/device.cuh\".*engines/cuda/sssp/x.cu:2: includes \"dispatch/tuning.h\".*5 include\\(s\\) break the layer rules")

# The sources follow .clang-format (scripts/check_format.sh; skipped without
# clang-format 14, which scripts/deps.sh installs).
add_test(NAME format COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check_format.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(format PROPERTIES LABELS "cpu;nosan" SKIP_RETURN_CODE 77)
