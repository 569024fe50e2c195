# make install: what lands where (README "What is installed"), and the files
# that let consumers find it: gsp.pc, the exported CMake package, the Python
# package, the man page and the HTML docs. Included by the top CMakeLists.txt.

# Libraries, exported as gsp::gsp_static and gsp::gsp_shared (gspTargets.cmake);
# gspConfig.cmake adds gsp::gsp, which is one of them.
install(TARGETS gsp_static EXPORT gspTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(GSP_BUILD_SHARED)
  install(TARGETS gsp_shared EXPORT gspTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The public headers: gsp.h and the parts it includes (gsp_algorithms.h, gsp_options.h, gsp_table.h,
# gsp_device.h, gsp_search.h, gsp_index.h);
# gsp_mpi.h only when MPI is built (cmake/mpi.cmake installs it).
install(DIRECTORY include/gsp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "gsp_mpi.h" EXCLUDE)

# gsp.pc is written at install time (cmake/gsp_pc.cmake), for the prefix of
# that install (`cmake --install --prefix` changes it after configuring):
# libdir=${prefix}/lib, no `..` and no `//`. (GSP_PC_PREFIX_FROM_PCDIR is
# for cmake/gsp_mpi.pc.in, which still finds its prefix from ${pcfiledir}.)
file(RELATIVE_PATH GSP_PC_PREFIX_FROM_PCDIR "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
# The build tree's gsp.pc, for the configured prefix (scripts/demo.sh uses it).
execute_process(COMMAND ${CMAKE_COMMAND} -DCMAKE_INSTALL_PREFIX=${CMAKE_INSTALL_PREFIX}
  -DGSP_PC_IN=${PROJECT_SOURCE_DIR}/cmake/gsp.pc.in -DGSP_PC_OUT=${CMAKE_CURRENT_BINARY_DIR}/gsp.pc
  -DGSP_PC_LIBDIR_REL=${CMAKE_INSTALL_LIBDIR} -DGSP_PC_INCLUDEDIR_REL=${CMAKE_INSTALL_INCLUDEDIR}
  -DPROJECT_VERSION=${PROJECT_VERSION} "-DGSP_PC_LIBS_PRIVATE=${GSP_PC_LIBS_PRIVATE}"
  -P ${PROJECT_SOURCE_DIR}/cmake/gsp_pc.cmake COMMAND_ERROR_IS_FATAL ANY)
install(CODE "
  set(GSP_PC_IN \"${PROJECT_SOURCE_DIR}/cmake/gsp.pc.in\")
  set(GSP_PC_WORK_DIR \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig\")
  set(GSP_PC_LIBDIR_REL \"${CMAKE_INSTALL_LIBDIR}\")
  set(GSP_PC_INCLUDEDIR_REL \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(GSP_PC_LIBS_PRIVATE \"${GSP_PC_LIBS_PRIVATE}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/gsp_pc.cmake\")")

# The CMake package: targets exported by install(EXPORT), no CUDA lookup.
include(CMakePackageConfigHelpers)
set(GSP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gsp)
install(EXPORT gspTargets NAMESPACE gsp:: DESTINATION ${GSP_CMAKE_DIR})
configure_package_config_file(cmake/gspConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/gspConfig.cmake
  INSTALL_DESTINATION ${GSP_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gspConfigVersion.cmake
  COMPATIBILITY ${GSP_VERSION_COMPATIBILITY})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gspConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/gspConfigVersion.cmake
  DESTINATION ${GSP_CMAKE_DIR})

# The Python package (pure Python over libgsp.so): PREFIX/lib/python3/site-packages/gsp;
# it finds libgsp.so in PREFIX/lib by itself. `pip install ./bindings/python` is the other way.
set(GSP_PYTHON_DIR ${CMAKE_INSTALL_LIBDIR}/python3/site-packages CACHE STRING
  "Where make install puts the Python package, relative to the prefix")
if(GSP_BUILD_SHARED)
  install(DIRECTORY bindings/python/gsp DESTINATION ${GSP_PYTHON_DIR}
    PATTERN "__pycache__" EXCLUDE PATTERN "*.pyc" EXCLUDE)
endif()

# The man page, and the HTML reference when `make docs` has run.
install(FILES doc/gsp.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/doc/html/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/html OPTIONAL)
install(FILES README.md CHANGELOG.md LICENSE LICENSE-MIT LICENSE-APACHE DESTINATION ${CMAKE_INSTALL_DOCDIR})
