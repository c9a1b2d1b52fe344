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
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM}: the output differs from ${EXPECTED}\ngot:\n${out}\nexpected:\n${expected}\nstderr:\n${err}")
endif()
message(STATUS "${PROGRAM}: output as expected")
