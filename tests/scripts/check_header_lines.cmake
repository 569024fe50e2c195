# Fails when a public header (DIR/*.h, DIR = include/gsp) has more than 600
# lines (issue 22): a section that outgrows gsp.h moves into a part that gsp.h
# includes at its end, as gsp_table.h and gsp_device.h.
#   cmake -DDIR=include/gsp -P check_header_lines.cmake
file(GLOB _headers "${DIR}/*.h")
if(NOT _headers)
  message(FATAL_ERROR "no headers in ${DIR}")
endif()
set(_bad "")
foreach(_h ${_headers})
  file(READ ${_h} _text)
  string(REGEX MATCHALL "\n" _newlines "${_text}")
  list(LENGTH _newlines _n)
  get_filename_component(_name ${_h} NAME)
  message("${_name}: ${_n} lines")
  if(_n GREATER 600)
    list(APPEND _bad "${_name} (${_n})")
  endif()
endforeach()
if(_bad)
  message(FATAL_ERROR "over 600 lines: ${_bad}")
endif()
