# make uninstall: removes every file that the last `make install` (cmake
# --install) wrote, as listed in BUILD/install_manifest.txt, then the
# directories of libgsp's own that are left empty.
#   cmake -DMANIFEST=build/install_manifest.txt -P cmake/uninstall.cmake
if(NOT MANIFEST OR NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "no install manifest '${MANIFEST}': run 'make install' first (with the same BUILD)")
endif()
file(STRINGS "${MANIFEST}" _files)
set(_dirs "")
foreach(_f IN LISTS _files)
  if(EXISTS "${_f}" OR IS_SYMLINK "${_f}")
    message(STATUS "Removing ${_f}")
    file(REMOVE "${_f}")
  endif()
  # Parents named after gsp (include/gsp, lib/cmake/gsp, share/doc/gsp, the Python package).
  get_filename_component(_d "${_f}" DIRECTORY)
  while(_d MATCHES "gsp")
    list(APPEND _dirs "${_d}")
    get_filename_component(_d "${_d}" DIRECTORY)
  endwhile()
endforeach()
list(REMOVE_DUPLICATES _dirs)
list(SORT _dirs ORDER DESCENDING)  # children before parents
foreach(_d IN LISTS _dirs)
  file(GLOB _left "${_d}/*")
  if(IS_DIRECTORY "${_d}" AND NOT _left)
    file(REMOVE_RECURSE "${_d}")
  endif()
endforeach()
