# Runs the whole corpus under both kernel tiers (docs/kernels.md, "The native tier") and checks
# that they agree bit for bit: the native tier against the recorded GPU results, then both
# tiers' outputs recorded and compared file by file. Called by ctest as
#   cmake -DRUNNER=... -DPTX=... -DEXPECTED=... -DOUT=... -DCACHE=... -P tiers.cmake
# The cache folder is under the build tree, so a second run compiles nothing.
foreach(_v RUNNER PTX EXPECTED OUT CACHE)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "tiers.cmake: -D${_v}= is missing")
  endif()
endforeach()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/portable ${OUT}/native ${CACHE})
set(ENV{EXTMEM_CACHE_DIR} ${CACHE})
# A loaded 2-core CI machine running other tests beside this one can take longer than the
# compiler's default limit of 60 s for the corpus's largest modules; the limit is not what
# these tests are about (kernel_native_trust_test tests it).
set(ENV{EXTMEM_CC_TIMEOUT} 600)

set(ENV{EXTMEM_JIT} native)
execute_process(COMMAND ${RUNNER} --check ${EXPECTED} --ptx ${PTX} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the native tier does not give the GPU's results (corpus_runner: ${_rc})")
endif()
foreach(_tier portable native)
  set(ENV{EXTMEM_JIT} ${_tier})
  execute_process(COMMAND ${RUNNER} --record ${OUT}/${_tier} --ptx ${PTX} RESULT_VARIABLE _rc OUTPUT_QUIET)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "recording the ${_tier} tier failed (corpus_runner: ${_rc})")
  endif()
endforeach()
file(GLOB _outputs RELATIVE ${OUT}/portable ${OUT}/portable/*.bin)
list(LENGTH _outputs _n)
if(_n EQUAL 0)
  message(FATAL_ERROR "the portable tier recorded nothing")
endif()
set(_differ "")
foreach(_f ${_outputs})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/portable/${_f} ${OUT}/native/${_f} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    list(APPEND _differ ${_f})
  endif()
endforeach()
if(_differ)
  message(FATAL_ERROR "the tiers differ in: ${_differ}")
endif()
message(STATUS "${_n} cases: the native and portable tiers agree bit for bit")
