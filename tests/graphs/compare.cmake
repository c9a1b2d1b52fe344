# Runs the differential program and compares its standard output with what NVIDIA's driver
# printed; on a difference it fails with `diff -u expected actual`.
#   cmake -DPROGRAM=<exe> -DEXPECTED=<file> -DACTUAL=<file to write> -P compare.cmake
execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE rc OUTPUT_FILE ${ACTUAL} ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}\nstderr:\n${err}")
endif()
execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL} RESULT_VARIABLE differ OUTPUT_VARIABLE diff_out)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "${PROGRAM}: the output differs from NVIDIA's (${EXPECTED}; this run's: ${ACTUAL})\n"
                      "${diff_out}\nstderr:\n${err}")
endif()
message(STATUS "${PROGRAM}: the output is NVIDIA's")
