# Warnings for extmem's own targets; EXTMEM_WERROR turns them into errors.
function(extmem_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4)
    if(EXTMEM_WERROR)
      target_compile_options(${target} PRIVATE /WX)
    endif()
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wpointer-arith
      $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes -Wmissing-prototypes>)
    # gcc's -Wmaybe-uninitialized at -O3 (the Release build scripts/demo.sh makes) flags out
    # parameters that every failing path returns before reading, across the whole tree; it is
    # off in optimised builds above -O2, where it says nothing -O2 and clang's analyses miss.
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-Wno-maybe-uninitialized>)
    endif()
    if(EXTMEM_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
