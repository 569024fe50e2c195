# Tests of internal pieces that the public API cannot reach: the test
# compiles the library source it tests (from src/) into itself instead of
# linking libgsp.a, whose internal symbols are local. Included by
# tests/CMakeLists.txt.
# - test_tuning: the GSP_* environment parser (src/core/tuning.cpp), the
#   tests' overrides (src/core/tuning_override.cpp, tests/tuning_hook.h)
#   and doc/tuning.md's list of variables.
# - test_row_merger: rows of parts run side by side to one sink
#   (src/core/row_merger.cpp), with no device.
# - test_point_to_point: the table engine's point-to-point search through
#   cpu::table, with the settle budget that only AUTO's device bet sets
#   (src/engines/cpu/apsp_sparse/); it links every library object, since
#   the table engine reaches most of core/.
# - test_table_paths: a table row's paths as one tree of chains
#   (src/core/table_paths.cpp): random predecessor trees read back as their
#   walks, heavy-path reads, broken chains refused.
# - test_graph_build: graphs of 2^22 arcs and more, built on several
#   threads (src/core/graph_build.cpp, graph.cpp), equal the sequential
#   counting sort's, and their errors name the first bad index.

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

add_executable(test_table_paths ${CMAKE_CURRENT_SOURCE_DIR}/internal/test_table_paths.cpp
  ${PROJECT_SOURCE_DIR}/src/core/table_paths.cpp)
target_include_directories(test_table_paths PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(test_table_paths PRIVATE ${GSP_WARNINGS})
add_test(NAME test_table_paths COMMAND test_table_paths)
set_tests_properties(test_table_paths PROPERTIES LABELS "cpu" TIMEOUT 60)

add_executable(test_graph_build ${CMAKE_CURRENT_SOURCE_DIR}/internal/test_graph_build.cpp
  ${PROJECT_SOURCE_DIR}/src/core/graph_build.cpp ${PROJECT_SOURCE_DIR}/src/core/graph.cpp
  ${PROJECT_SOURCE_DIR}/src/core/hop_depth.cpp ${PROJECT_SOURCE_DIR}/src/core/host_memory.cpp
  ${PROJECT_SOURCE_DIR}/src/core/parallel_copy.cpp)
target_include_directories(test_graph_build PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(test_graph_build PRIVATE ${GSP_WARNINGS})
target_link_libraries(test_graph_build PRIVATE Threads::Threads)
add_test(NAME test_graph_build COMMAND test_graph_build)
set_tests_properties(test_graph_build PROPERTIES LABELS "cpu" TIMEOUT 120)

add_executable(test_point_to_point ${CMAKE_CURRENT_SOURCE_DIR}/internal/test_point_to_point.cpp $<TARGET_OBJECTS:gsp_objects>)
target_include_directories(test_point_to_point PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(test_point_to_point PRIVATE ${GSP_WARNINGS})
target_link_libraries(test_point_to_point PRIVATE ZLIB::ZLIB Threads::Threads)
if(GSP_WITH_CUDA)
  target_link_libraries(test_point_to_point PRIVATE CUDA::cudart_static)
endif()
add_test(NAME test_point_to_point COMMAND test_point_to_point)
set_tests_properties(test_point_to_point PROPERTIES LABELS "cpu" TIMEOUT 120)
