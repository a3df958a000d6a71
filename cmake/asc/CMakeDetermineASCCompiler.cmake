# CMakeDetermineASCCompiler.cmake — the language ASC (Ascend C sources, .asc),
# step 1 of 4: project(... LANGUAGES ASC) runs it once per build tree to find
# the compiler, normgrad-cc, and records what it found in
# CMakeFiles/<version>/CMakeASCCompiler.cmake (from CMakeASCCompiler.cmake.in).
# find_package(ASC) (ASCConfig.cmake) puts this directory on CMAKE_MODULE_PATH
# and names the compiler; -DCMAKE_ASC_COMPILER=<path> chooses another.
if(NOT CMAKE_ASC_COMPILER)
  if(NOT ASC_NORMGRAD_CC)
    message(FATAL_ERROR "the language ASC needs find_package(ASC) before "
                        "project(<name> LANGUAGES ASC ...), or -DCMAKE_ASC_COMPILER=<normgrad-cc>")
  endif()
  set(CMAKE_ASC_COMPILER "${ASC_NORMGRAD_CC}" CACHE FILEPATH "The Ascend C compiler (normgrad-cc)")
endif()
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "CMAKE_ASC_COMPILER '${CMAKE_ASC_COMPILER}': no such file")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)

# Static libraries of ASC objects are archived with ar (CMAKE_ASC_COMPILER_AR
# replaces it); a project of ASC alone has no other language to find it.
if(NOT CMAKE_AR)
  find_program(CMAKE_AR NAMES ar)
endif()
if(NOT CMAKE_RANLIB)
  find_program(CMAKE_RANLIB NAMES ranlib)
endif()

configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
