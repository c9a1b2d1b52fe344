# ExtmemCudaLinkStub.cmake: the registration function of one clang -fgpu-rdc unit (run by
# ExtmemCuda.cmake as `cmake -DNM=... -DOBJECT=... -DOUTPUT=... -DRDC=0|1 -P`).
#
# With -fgpu-rdc clang's start-up code calls __cudaRegisterLinkedBinary__nv_<id>(callback,
# wrapper, id, dummy) instead of registering its fat binary itself: nvcc's device link
# (crt/link.stub) would define that function. This defines it from the object's undefined
# symbols: it registers a copy of the unit's wrapper marked as relocatable (version 2, with no
# list of units: extmem's runtime adds it to the program's link of relocatable units; clang
# writes version 1 for it), lets the unit register its kernels and variables, and unregisters it
# at exit. Without relocatable device code the file defines nothing.
set(_text "// Made by ExtmemCudaLinkStub.cmake from ${OBJECT}: do not edit.\n")
if(RDC)
  execute_process(COMMAND ${NM} -P ${OBJECT} OUTPUT_VARIABLE _symbols RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${NM} -P ${OBJECT} failed (${_rc})")
  endif()
  string(REGEX MATCHALL "__cudaRegisterLinkedBinary[A-Za-z0-9_]* U" _found "${_symbols}")
  string(APPEND _text "extern \"C\" {\nvoid **__cudaRegisterFatBinary(void *wrapper);\n"
    "void __cudaRegisterFatBinaryEnd(void **handle);\nvoid __cudaUnregisterFatBinary(void **handle);\n"
    "int atexit(void (*)(void));\n"
    "struct extmem_wrapper { int magic, version; const void *data; const void *units; };\n")
  set(_n 0)
  foreach(_sym ${_found})
    string(REPLACE " U" "" _sym "${_sym}")
    string(APPEND _text "static void **extmem_handle_${_n};\n"
      "static struct extmem_wrapper extmem_wrapper_${_n};\n"
      "static void extmem_unregister_${_n}(void) { __cudaUnregisterFatBinary(extmem_handle_${_n}); }\n"
      "void ${_sym}(void (*callback)(void **), void *wrapper, void *, void (*)(void *))\n{\n"
      "    const struct extmem_wrapper *w = (const struct extmem_wrapper *)wrapper;\n"
      "    extmem_wrapper_${_n}.magic = w->magic;\n"
      "    extmem_wrapper_${_n}.version = 2;\n"
      "    extmem_wrapper_${_n}.data = w->data;\n"
      "    extmem_wrapper_${_n}.units = 0;\n"
      "    extmem_handle_${_n} = __cudaRegisterFatBinary(&extmem_wrapper_${_n});\n"
      "    callback(extmem_handle_${_n});\n"
      "    __cudaRegisterFatBinaryEnd(extmem_handle_${_n});\n"
      "    atexit(extmem_unregister_${_n});\n}\n")
    math(EXPR _n "${_n} + 1")
  endforeach()
  string(APPEND _text "}\n")
endif()
# Rewrite only when it changes, so the stub is not compiled again for nothing.
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} _old)
  if(_old STREQUAL _text)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${_text}")
