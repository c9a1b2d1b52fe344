# extmem_spirv_header(<out-var> <shader.comp> <c-name> [DEPENDS files...]): compiles a GLSL
# compute shader to SPIR-V at build time (glslangValidator, Debian's glslang-tools) as a C
# header that defines `const uint32_t <c-name>[]`; <out-var> receives the header's path (add
# it to the target's sources and its folder to the include path). Include each such header in
# one C file only: in C the array has external linkage.
find_program(EXTMEM_GLSLANG_VALIDATOR glslangValidator)

function(extmem_spirv_header out src name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  get_filename_component(base ${src} NAME)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  set(header ${dir}/${base}.spv.h)
  add_custom_command(OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${EXTMEM_GLSLANG_VALIDATOR} -V --target-env vulkan1.1 --quiet --vn ${name} -o ${header} ${src}
    MAIN_DEPENDENCY ${src}
    DEPENDS ${ARG_DEPENDS}
    COMMENT "Compiling ${base} to SPIR-V"
    VERBATIM)
  set(${out} ${header} PARENT_SCOPE)
endfunction()
