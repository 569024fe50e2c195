# Tests of the library's packaging: the header (pedantic C99 and C++,
# included twice; each part it includes compiling alone; at most 600 lines
# each), the global symbols of libgsp.a and the dynamic ones of
# libgsp.so (nm -D: gsp_* only), README's example.

# name: a test program compiled pedantically as C99 or C++11, warnings as errors.
function(gsp_header_test name source)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/header/${source})
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
                                           CXX_STANDARD 11 CXX_EXTENSIONS OFF)
  target_compile_options(${name} PRIVATE -Wall -Wextra -pedantic -Werror)
  target_link_libraries(${name} PRIVATE gsp::gsp)
  add_test(NAME ${name} COMMAND ${name})
endfunction()

gsp_header_test(header_c99 header_twice.c)
gsp_header_test(header_cxx header_twice.cpp)
# The parts gsp.h includes (gsp_table.h, gsp_device.h, gsp_search.h), each included first.
gsp_header_test(header_parts_c99 header_parts.c)
gsp_header_test(header_parts_cxx header_parts.cpp)

add_test(NAME header_lines
  COMMAND ${CMAKE_COMMAND} -DDIR=${PROJECT_SOURCE_DIR}/include/gsp -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_header_lines.cmake)

add_test(NAME archive_symbols
  COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DARCHIVE=$<TARGET_FILE:gsp_static> -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_symbols.cmake)

if(TARGET gsp_shared)
  add_test(NAME shared_symbols
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DDYNAMIC=ON -DARCHIVE=$<TARGET_FILE:gsp_shared>
            -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_symbols.cmake)
  set_tests_properties(shared_symbols PROPERTIES LABELS "cpu;nosan")
endif()

add_executable(readme_example ${PROJECT_SOURCE_DIR}/doc/examples/readme_example.c)
target_link_libraries(readme_example PRIVATE gsp::gsp)
add_test(NAME readme_example COMMAND readme_example)
set_tests_properties(readme_example PROPERTIES PASS_REGULAR_EXPRESSION "path: 0 2 3 4")

set_tests_properties(header_c99 header_cxx header_parts_c99 header_parts_cxx header_lines archive_symbols
  readme_example PROPERTIES LABELS "cpu")
