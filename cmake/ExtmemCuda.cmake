# ExtmemCuda.cmake: CUDA sources compiled by clang with no CUDA toolkit, run on extmem.
#
#   find_package(extmem)                       # or, inside extmem's own tree, nothing
#   extmem_add_cuda_executable(saxpy saxpy.cu host.cpp)
#   extmem_add_cuda_library(kernels STATIC kernels.cu)
#   extmem_target_cuda_sources(existing_target more.cu)
#
# Each .cu file is compiled twice by clang (docs/runtime.md says why):
#   1. the device side to PTX (--cuda-device-only -S): no ptxas or fatbinary is needed, since
#      the software device runs PTX;
#   2. the host side (--cuda-host-only) with that PTX embedded as the "GPU binary"
#      (-fcuda-include-gpubinary): clang's start-up code hands it to __cudaRegisterFatBinary,
#      NUL-terminated, and extmem's runtime loads it as PTX on first use.
# Both sides see extmem's headers instead of a CUDA installation (-nocudainc -nocudalib), with
# extmem/cuda_runtime.h included first, and <cuda_runtime.h> / <cuda.h> resolving to extmem's.
# The objects join the target like any other, which then links extmem.
#
# Relocatable device code (clang -fgpu-rdc, nvcc -rdc=true: extern __device__ functions and
# variables across .cu files and static libraries) where the target has CMake's own
# CUDA_SEPARABLE_COMPILATION property ON, as NVIDIA's samples set it (read when the build runs,
# so it may be set before or after the call). clang then registers each unit through a function
# named after it (__cudaRegisterLinkedBinary__nv_<id>, which nvcc's device link would make); a
# small C++ file per unit, made from the object's undefined symbols (nm), defines it and hands
# the unit's PTX to extmem's runtime, which links the program's units with cuLinkCreate on first
# use. No CUDA toolkit (nvlink, fatbinary) is needed.
#
# Settings (cache variables):
#   EXTMEM_CUDA_CLANG        clang++ used for .cu files (found on PATH)
#   EXTMEM_CUDA_ARCH         the virtual architecture compiled for (sm_80)
#   EXTMEM_CUDA_PTX_FEATURE  the PTX ISA version clang may use: with no CUDA installation to
#                            read it from, clang assumes an old one (+ptx70: PTX ISA 7.0)
#   EXTMEM_CUDA_FLAGS        extra flags for both sides (a list; -std=c++17 -O2 by default)
include_guard(GLOBAL)
# Where the helper scripts are, for every folder that calls the functions (a global property: a
# variable set here would reach only the folder that included this file first).
set_property(GLOBAL PROPERTY EXTMEM_CUDA_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})
# Ninja reads the depfiles below as written (absolute paths); functions keep this setting.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

find_program(EXTMEM_CUDA_CLANG NAMES clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14 clang
  DOC "clang++ compiling CUDA sources for extmem")
set(EXTMEM_CUDA_ARCH "sm_80" CACHE STRING "Virtual GPU architecture of extmem's CUDA sources")
set(EXTMEM_CUDA_PTX_FEATURE "+ptx70" CACHE STRING "PTX ISA version clang may emit for extmem's CUDA sources")
set(EXTMEM_CUDA_FLAGS "-std=c++17;-O2" CACHE STRING "Flags for both sides of extmem's CUDA sources")

function(extmem_target_cuda_sources target)
  # The headers: extmem's own tree when built inside it, the package's otherwise. Decided here,
  # not at include time: include_guard(GLOBAL) runs the file once, and a variable it set would
  # reach only the folder that included it first.
  if(TARGET extmem)
    set(_extmem_cuda_target extmem)
  else()
    set(_extmem_cuda_target extmem::extmem)
  endif()
  if(NOT EXTMEM_CUDA_CLANG)
    message(FATAL_ERROR "extmem_target_cuda_sources(${target}): no clang++ found: install clang (Debian: "
                        "apt install clang) or set EXTMEM_CUDA_CLANG")
  endif()
  set(_incs "$<TARGET_PROPERTY:${_extmem_cuda_target},INTERFACE_INCLUDE_DIRECTORIES>")
  set(_own "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(_defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  # A nonexistent CUDA path keeps clang from reading a toolkit it happens to find: the result
  # is the same on every machine (clang then uses the legacy launch ABI, which extmem has).
  set(_common -x cuda --cuda-gpu-arch=${EXTMEM_CUDA_ARCH} -nocudainc -nocudalib
    --cuda-path=${CMAKE_BINARY_DIR}/extmem-no-cuda-toolkit
    "$<$<BOOL:${_incs}>:-I$<JOIN:${_incs},$<SEMICOLON>-I>>"
    "$<$<BOOL:${_incs}>:-I$<JOIN:${_incs},/extmem$<SEMICOLON>-I>/extmem>"
    "$<$<BOOL:${_own}>:-I$<JOIN:${_own},$<SEMICOLON>-I>>"
    "$<$<BOOL:${_defs}>:-D$<JOIN:${_defs},$<SEMICOLON>-D>>"
    -include extmem/cuda_runtime.h ${EXTMEM_CUDA_FLAGS}
    "$<$<BOOL:$<TARGET_PROPERTY:${target},CUDA_SEPARABLE_COMPILATION>>:-fgpu-rdc>")
  set(_rdc "$<BOOL:$<TARGET_PROPERTY:${target},CUDA_SEPARABLE_COMPILATION>>")
  get_property(_cmake_dir GLOBAL PROPERTY EXTMEM_CUDA_CMAKE_DIR)
  foreach(src IN LISTS ARGN)
    get_filename_component(_abs ${src} ABSOLUTE)
    if(NOT _abs MATCHES "\\.cu$")
      target_sources(${target} PRIVATE ${_abs})
      continue()
    endif()
    get_filename_component(_name ${src} NAME)
    set(_out ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.cuda)
    file(MAKE_DIRECTORY ${_out})
    set(_ptx ${_out}/${_name}.ptx)
    set(_obj ${_out}/${_name}${CMAKE_CXX_OUTPUT_EXTENSION})
    # Header dependencies: DEPFILE works with Ninja, and with the other generators from 3.20.
    set(_depfile_ptx "")
    set(_depfile_obj "")
    if(CMAKE_GENERATOR MATCHES "Ninja" OR NOT CMAKE_VERSION VERSION_LESS 3.20)
      set(_depfile_ptx DEPFILE ${_ptx}.d)
      set(_depfile_obj DEPFILE ${_obj}.d)
    endif()
    add_custom_command(OUTPUT ${_ptx}
      COMMAND ${EXTMEM_CUDA_CLANG} ${_common} --cuda-device-only -S -O3
              -Xclang -target-feature -Xclang ${EXTMEM_CUDA_PTX_FEATURE}
              -MD -MF ${_ptx}.d -o ${_ptx} ${_abs}
      DEPENDS ${_abs}
      ${_depfile_ptx}
      COMMAND_EXPAND_LISTS
      COMMENT "CUDA device side of ${_name} to PTX"
      VERBATIM)
    add_custom_command(OUTPUT ${_obj}
      COMMAND ${EXTMEM_CUDA_CLANG} ${_common} --cuda-host-only -fPIC -g
              -Xclang -fcuda-include-gpubinary -Xclang ${_ptx}
              -MD -MF ${_obj}.d -c -o ${_obj} ${_abs}
      DEPENDS ${_abs} ${_ptx}
      ${_depfile_obj}
      COMMAND_EXPAND_LISTS
      COMMENT "CUDA host side of ${_name}"
      VERBATIM)
    target_sources(${target} PRIVATE ${_obj})
    set_source_files_properties(${_obj} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    # The unit's registration function under relocatable device code (nothing otherwise).
    set(_stub ${_out}/${_name}.link.cpp)
    add_custom_command(OUTPUT ${_stub}
      COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DOBJECT=${_obj} -DOUTPUT=${_stub} -DRDC=${_rdc}
              -P ${_cmake_dir}/ExtmemCudaLinkStub.cmake
      DEPENDS ${_obj} ${_cmake_dir}/ExtmemCudaLinkStub.cmake
      COMMENT "CUDA registration of ${_name}'s relocatable device code"
      VERBATIM)
    target_sources(${target} PRIVATE ${_stub})
    set_source_files_properties(${_stub} PROPERTIES GENERATED TRUE)
  endforeach()
  target_link_libraries(${target} PRIVATE ${_extmem_cuda_target})
  # clang's objects need the C++ runtime whatever the target's own sources are.
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()

function(extmem_add_cuda_executable name)
  add_executable(${name})
  extmem_target_cuda_sources(${name} ${ARGN})
endfunction()

function(extmem_add_cuda_library name type)
  add_library(${name} ${type})
  extmem_target_cuda_sources(${name} ${ARGN})
endfunction()
