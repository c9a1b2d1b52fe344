# EXTMEM_SANITIZE=address,undefined (or thread) instruments every target of the build.
if(EXTMEM_SANITIZE)
  set(_san "-fsanitize=${EXTMEM_SANITIZE}" -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
