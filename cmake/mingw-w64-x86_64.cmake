# Cross-compiling extmem for 64-bit Windows with Debian's mingw-w64 (apt: mingw-w64), and
# running what it builds under wine (apt: wine64). scripts/test-windows.sh uses it:
#   cmake -S . -B build/mingw -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
#
# The posix thread model of the compilers (x86_64-w64-mingw32-gcc-posix) is the one whose
# libstdc++ has std::thread and std::mutex, which GoogleTest wants; extmem's own C code calls
# the Win32 API directly (src/win32/thread.c) and does not use winpthreads.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(EXTMEM_MINGW_PREFIX x86_64-w64-mingw32)

find_program(CMAKE_C_COMPILER NAMES ${EXTMEM_MINGW_PREFIX}-gcc-posix ${EXTMEM_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${EXTMEM_MINGW_PREFIX}-g++-posix ${EXTMEM_MINGW_PREFIX}-g++ REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${EXTMEM_MINGW_PREFIX}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${EXTMEM_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The GCC runtime (libgcc, libstdc++, winpthreads) is linked in statically, so the programs
# need no DLL besides extmem's own and the system's: they run under wine, or when copied to a
# Windows machine, without a WINEPATH or a PATH pointing into the mingw installation.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static")

# ctest and gtest_discover_tests run the programs through wine. Debian's wine64 package puts
# the loader in /usr/lib/wine (the `wine` package adds /usr/bin/wine, a wrapper).
find_program(EXTMEM_WINE NAMES wine64 wine PATHS /usr/lib/wine /usr/lib64/wine)
if(EXTMEM_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${EXTMEM_WINE})
endif()
