# Runs a CUDA test program and compares its standard output with the expected file.
#   cmake -DPROGRAM=<exe> -DEXPECTED=<file> [-DLIBRARY_PATH=<dir>] -P compare_output.cmake
# LIBRARY_PATH goes first on LD_LIBRARY_PATH: the folder of extmem's libcudart.so.13 for the
# programs nvcc built with -cudart shared.
if(LIBRARY_PATH)
  set(ENV{LD_LIBRARY_PATH} "${LIBRARY_PATH}:$ENV{LD_LIBRARY_PATH}")
endif()
execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
file(READ ${EXPECTED} expected)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
# KNOWN: a file of line prefixes ("3d wrap linear 0:"), one a line, '#' for comments: lines of
# both outputs that start with one are dropped before the comparison (results the software device
# is documented not to reproduce bit for bit).
if(KNOWN)
  file(STRINGS ${KNOWN} _known_lines)
  set(_dropped 0)
  foreach(_k ${_known_lines})
    if(_k MATCHES "^#" OR _k STREQUAL "")
      continue()
    endif()
    string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _re "${_k}")
    string(REGEX REPLACE "(^|\n)${_re}[^\n]*\n" "\\1" out "${out}")
    string(REGEX REPLACE "(^|\n)${_re}[^\n]*\n" "\\1" expected "${expected}")
    math(EXPR _dropped "${_dropped} + 1")
  endforeach()
  message(STATUS "${PROGRAM}: ${_dropped} lines listed in ${KNOWN} left out of the comparison")
endif()
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM}: the output differs from ${EXPECTED}\ngot:\n${out}\nexpected:\n${expected}\nstderr:\n${err}")
endif()
message(STATUS "${PROGRAM}: output as expected")
