# Writes and installs gsp.pc at install time (install(CODE) in
# cmake/install.cmake), when the prefix is known: `cmake --install --prefix P`
# and `make install PREFIX=P` change it after configuring. libdir and
# includedir come out as clean paths: ${prefix}/lib where the directory is
# under the prefix, else absolute; never `//`, `.` or `..` (issue: gsp.pc's
# libdir expanded to .../lib/pkgconfig/../..//lib).
# In: CMAKE_INSTALL_PREFIX (install time), GSP_PC_IN, GSP_PC_WORK_DIR or GSP_PC_OUT,
#     GSP_PC_LIBDIR_REL, GSP_PC_INCLUDEDIR_REL (CMAKE_INSTALL_LIBDIR and
#     CMAKE_INSTALL_INCLUDEDIR, relative or absolute), PROJECT_VERSION,
#     GSP_PC_LIBS_PRIVATE.

# A normal absolute path: no `//`, `.`, `..` or trailing `/` (but "/").
function(gsp_pc_clean out path)
  if(NOT IS_ABSOLUTE "${path}")
    get_filename_component(path "${path}" ABSOLUTE)  # relative to the working directory
  endif()
  cmake_path(SET path NORMALIZE "${path}")
  string(REGEX REPLACE "(.)/+$" "\\1" path "${path}")
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

# ${prefix}/REST when DIR is under PREFIX, else DIR itself.
function(gsp_pc_dir out prefix dir)
  if(NOT IS_ABSOLUTE "${dir}")
    set(dir "${prefix}/${dir}")
  endif()
  gsp_pc_clean(dir "${dir}")
  if(NOT prefix STREQUAL "/" AND dir MATCHES "^${prefix_regex}/(.+)$")
    set(dir "\${prefix}/${CMAKE_MATCH_1}")
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

gsp_pc_clean(GSP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" prefix_regex "${GSP_PC_PREFIX}")
gsp_pc_dir(GSP_PC_LIBDIR "${GSP_PC_PREFIX}" "${GSP_PC_LIBDIR_REL}")
gsp_pc_dir(GSP_PC_INCLUDEDIR "${GSP_PC_PREFIX}" "${GSP_PC_INCLUDEDIR_REL}")
foreach(_v GSP_PC_PREFIX GSP_PC_LIBDIR GSP_PC_INCLUDEDIR)
  if(${_v} MATCHES "//|/\\./|/\\.\\./|/\\.?\\.?$" AND NOT ${_v} STREQUAL "/")
    message(FATAL_ERROR "gsp.pc: ${_v} is not a clean path: ${${_v}}")
  endif()
endforeach()

# GSP_PC_OUT (configure time): the build tree's gsp.pc, for the configured
# prefix (scripts/demo.sh points its libdir and includedir at the tree);
# nothing is installed.
if(GSP_PC_OUT)
  configure_file("${GSP_PC_IN}" "${GSP_PC_OUT}" @ONLY)
  return()
endif()
# One file per prefix, so that installs of one build into several prefixes
# at once (the tests do) never write the same file.
string(MD5 _hash "${GSP_PC_PREFIX}")
set(_out "${GSP_PC_WORK_DIR}/${_hash}/gsp.pc")
configure_file("${GSP_PC_IN}" "${_out}" @ONLY)
# The pkgconfig directory under the libdir, as install(FILES) would put it
# (file(INSTALL) adds DESTDIR and records the file in install_manifest.txt).
if(IS_ABSOLUTE "${GSP_PC_LIBDIR_REL}")
  gsp_pc_clean(_dest "${GSP_PC_LIBDIR_REL}/pkgconfig")
else()
  gsp_pc_clean(_dest "${GSP_PC_PREFIX}/${GSP_PC_LIBDIR_REL}/pkgconfig")
endif()
file(INSTALL DESTINATION "${_dest}" TYPE FILE FILES "${_out}")
