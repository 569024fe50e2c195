# The distributed engine (include/gsp/gsp_mpi.h, libgsp_mpi.a): the same
# test under mpirun with 1, 4 and 6 ranks (oversubscribed on small machines),
# gsp_mpi.h from pedantic C99, and libgsp_mpi.a's global symbols. Without
# MPI they skip, visibly.
set(_gsp_mpi_counts 1 4 6)
if(NOT TARGET gsp::gsp_mpi)
  foreach(_np ${_gsp_mpi_counts})
    add_test(NAME mpi_apsp_np${_np}
      COMMAND sh -c "echo 'SKIP: MPI not found (apt-get install openmpi-bin libopenmpi-dev; make deps does it as root)'; exit 77")
    set_tests_properties(mpi_apsp_np${_np} PROPERTIES LABELS "cpu;mpi;nosan" SKIP_RETURN_CODE 77)
  endforeach()
  return()
endif()

add_executable(test_mpi_apsp ${CMAKE_CURRENT_SOURCE_DIR}/mpi/test_mpi_apsp.c)
target_include_directories(test_mpi_apsp PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_mpi_apsp PRIVATE gsp::gsp_mpi)
target_compile_options(test_mpi_apsp PRIVATE ${GSP_WARNINGS})

# OpenMPI refuses root and more ranks than cores unless told; keep it on
# shared memory and let idle ranks yield (oversubscribed, they would spin).
set(_gsp_mpi_flags ${MPIEXEC_PREFLAGS})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _gsp_mpiexec_version ERROR_QUIET)
if(_gsp_mpiexec_version MATCHES "Open MPI|OpenRTE")
  list(APPEND _gsp_mpi_flags --oversubscribe)
  execute_process(COMMAND id -u OUTPUT_VARIABLE _gsp_uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_gsp_uid STREQUAL "0")
    list(APPEND _gsp_mpi_flags --allow-run-as-root)
  endif()
endif()
set(_gsp_mpi_env
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
  OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe)
# In a sanitizer build (scripts/check.sh's ASan + UBSan pass) the same runs
# check the library's side with leak detection off: MPI's own allocations
# would be reported as leaks.
set(_gsp_mpi_labels "cpu;mpi;nosan")
set(_gsp_mpi_test_env ${_gsp_mpi_env})
if(GSP_SANITIZE MATCHES "address")
  set(_gsp_mpi_labels "cpu;mpi")
  list(APPEND _gsp_mpi_test_env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0)
endif()
foreach(_np ${_gsp_mpi_counts})
  add_test(NAME mpi_apsp_np${_np}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${_np} ${_gsp_mpi_flags}
            $<TARGET_FILE:test_mpi_apsp> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(mpi_apsp_np${_np} PROPERTIES LABELS "${_gsp_mpi_labels}" TIMEOUT 300
    ENVIRONMENT "${_gsp_mpi_test_env}" PASS_REGULAR_EXPRESSION "0 failed" FAIL_REGULAR_EXPRESSION "[1-9][0-9]* failed"
    RUN_SERIAL TRUE)
endforeach()

# The same suite with every rank's blocks on a CUDA device (ranks of a node
# share its devices); skipped, visibly, where a rank has none.
foreach(_np 1 2 4)
  add_test(NAME mpi_apsp_cuda_np${_np}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${_np} ${_gsp_mpi_flags}
            $<TARGET_FILE:test_mpi_apsp> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(mpi_apsp_cuda_np${_np} PROPERTIES LABELS "gpu;mpi;nosan" TIMEOUT 300
    ENVIRONMENT "${_gsp_mpi_env};GSP_TEST_MPI_BACKEND=cuda" SKIP_REGULAR_EXPRESSION "SKIP:"
    PASS_REGULAR_EXPRESSION "0 failed" FAIL_REGULAR_EXPRESSION "[1-9][0-9]* failed" RUN_SERIAL TRUE)
endforeach()

add_executable(header_mpi_c99 ${CMAKE_CURRENT_SOURCE_DIR}/mpi/header_mpi.c)
set_target_properties(header_mpi_c99 PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(header_mpi_c99 PRIVATE -Wall -Wextra -pedantic -Werror)
target_link_libraries(header_mpi_c99 PRIVATE gsp::gsp_mpi)
add_test(NAME header_mpi_c99 COMMAND header_mpi_c99)

add_test(NAME archive_symbols_mpi
  COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DARCHIVE=${GSP_MPI_ARCHIVE} -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_symbols.cmake)
set_tests_properties(header_mpi_c99 archive_symbols_mpi PROPERTIES LABELS "cpu;mpi")
