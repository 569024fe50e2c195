# libgsp_mpi.a: all of libgsp plus the distributed all-pairs engine of
# include/gsp/gsp_mpi.h, in one relocatable object with only gsp_* global
# (the same partial link + objcopy as libgsp.a, CUDA runtime included, see the top CMakeLists.txt). Consumers link it
# instead of libgsp.a, plus MPI. Built only when CMake finds MPI for C.
# Included by the top CMakeLists.txt. Its sources: the C ABI
# (src/api/api_mpi.cpp, which libgsp.a's glob leaves out) and the engine
# (src/engines/mpi/; its CPU blocks are src/engines/cpu/apsp_dense/block_fw_cpu.h).
# The benchmark driver (bench/mpi/) is built by bench/CMakeLists.txt.
find_package(MPI COMPONENTS C QUIET)
if(NOT MPI_C_FOUND)
  message(STATUS "gsp: MPI not found; libgsp_mpi.a is not built (Debian: apt-get install libopenmpi-dev openmpi-bin)")
  return()
endif()

file(GLOB GSP_MPI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/engines/mpi/*.cpp)
list(APPEND GSP_MPI_SOURCES ${PROJECT_SOURCE_DIR}/src/api/api_mpi.cpp)
add_library(gsp_mpi_objects OBJECT ${GSP_MPI_SOURCES})
target_include_directories(gsp_mpi_objects PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_options(gsp_mpi_objects PRIVATE ${GSP_WARNINGS})
target_compile_definitions(gsp_mpi_objects PRIVATE GSP_BUILDING=1 OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
# Test hooks (GSP_MPI_TEST_FAIL_RANK, fw_mpi.cpp), as for libgsp: only when the tests are built.
target_compile_definitions(gsp_mpi_objects PRIVATE $<$<BOOL:${GSP_BUILD_TESTS}>:GSP_TEST_HOOKS=1>)
target_link_libraries(gsp_mpi_objects PRIVATE MPI::MPI_C Threads::Threads)
# As for libgsp.a: inline statics as plain weak symbols, which objcopy can make local.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(gsp_mpi_objects PRIVATE -fno-gnu-unique)
endif()

set(GSP_MPI_ARCHIVE ${PROJECT_BINARY_DIR}/libgsp_mpi.a)
set(GSP_MPI_ALL_OBJECT ${PROJECT_BINARY_DIR}/gsp_mpi_all.o)
add_custom_command(
  OUTPUT ${GSP_MPI_ARCHIVE}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${GSP_MPI_ARCHIVE} ${GSP_MPI_ALL_OBJECT}
  COMMAND ${GSP_LD_BFD} -r --force-group-allocation -o ${GSP_MPI_ALL_OBJECT}
          $<TARGET_OBJECTS:gsp_objects> $<TARGET_OBJECTS:gsp_mpi_objects> ${GSP_CUDART_ARCHIVE}
  COMMAND ${CMAKE_OBJCOPY} --wildcard --keep-global-symbol=gsp_* ${GSP_MPI_ALL_OBJECT}
  COMMAND ${CMAKE_AR} rcs ${GSP_MPI_ARCHIVE} ${GSP_MPI_ALL_OBJECT}
  DEPENDS gsp_objects gsp_mpi_objects $<TARGET_OBJECTS:gsp_objects> $<TARGET_OBJECTS:gsp_mpi_objects>
  COMMAND_EXPAND_LISTS
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  COMMENT "Archiving libgsp_mpi.a (gsp_* only)")
add_custom_target(gsp_mpi_archive ALL DEPENDS ${GSP_MPI_ARCHIVE})

# In-tree consumers (the MPI tests, benchmarks) link it through gsp::gsp_mpi.
add_library(gsp_mpi_static STATIC IMPORTED GLOBAL)
set_target_properties(gsp_mpi_static PROPERTIES IMPORTED_LOCATION ${GSP_MPI_ARCHIVE})
target_include_directories(gsp_mpi_static INTERFACE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(gsp_mpi_static INTERFACE MPI::MPI_C ${GSP_LINK_DEPS})
add_dependencies(gsp_mpi_static gsp_mpi_archive)
add_library(gsp::gsp_mpi ALIAS gsp_mpi_static)

# pkg-config: MPI, then what libgsp.a needs (the CUDA runtime is inside).
set(GSP_MPI_PC_CFLAGS "")
foreach(_dir ${MPI_C_INCLUDE_DIRS})
  string(APPEND GSP_MPI_PC_CFLAGS " -I${_dir}")
endforeach()
set(_mpi_libs "")
foreach(_lib ${MPI_C_LIBRARIES})
  string(APPEND _mpi_libs " ${_lib}")
endforeach()
set(GSP_MPI_PC_LIBS "${_mpi_libs} ${GSP_PC_LIBS_PRIVATE}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/gsp_mpi.pc.in ${PROJECT_BINARY_DIR}/gsp_mpi.pc @ONLY)

install(FILES ${GSP_MPI_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/gsp/gsp_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gsp)
install(FILES ${PROJECT_BINARY_DIR}/gsp_mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
