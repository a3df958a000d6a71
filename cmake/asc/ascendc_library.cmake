# ascendc_library.cmake — the vendor's CMake commands for kernel libraries,
# on normgrad (included by ASCConfig.cmake; they need project(... LANGUAGES
# ASC ...)):
#
#   ascendc_library(<target> [STATIC | SHARED] <source>...)
#
# builds a library of kernels from the sources (compiled as ASC by
# normgrad-cc, whatever their extension) and generates, for every kernel they
# define, the header aclrtlaunch_<kernel>.h with aclrtlaunch_<kernel>(blocks,
# stream, args...) and ACLRT_LAUNCH_KERNEL(<kernel>). Host code that links the
# target finds those headers (in the build tree, <build>/ascendc_library/
# <target>/include; installed, include/<target>). Without STATIC or SHARED,
# BUILD_SHARED_LIBS decides, as for add_library. A program linking the static
# library is linked by normgrad-cc (the language ASC propagates), which adds
# normgrad's runtime; the shared library carries the runtime's libraries in its
# link interface, so a host-only program (linked by the C++ compiler) gets the
# runtime once, in the program. `cmake --install` installs the library into lib
# and its headers into include/<target>.
#
#   ascendc_compile_definitions(<target> [PRIVATE] <definition>...)
#   ascendc_compile_options(<target> PRIVATE <option>... [-forward-options-to-host-compiler <option>...])
#   ascendc_include_directories(<target> [PRIVATE] <dir>...)
#
# add definitions, options and include directories to the target's sources.
# normgrad compiles the host and the device code of a source in one compile,
# so options after -forward-options-to-host-compiler go there too. The
# definitions HAVE_WORKSPACE and HAVE_TILING (the framework shifts the
# kernel's workspace argument past the system workspace) are not emulated and
# are refused, as is ascendc_fatbin_library() (a device binary for the kernel
# loading interfaces: there is none on the CPU).
include_guard(GLOBAL)

# Fails unless the language ASC is enabled; `command` names the caller.
function(ascendc_require_language command)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "ASC" IN_LIST languages)
    message(FATAL_ERROR "${command}: needs the language ASC: write find_package(ASC) and then "
                        "project(<name> LANGUAGES ASC CXX)")
  endif()
endfunction()

function(ascendc_library target)
  ascendc_require_language("ascendc_library(${target})")
  set(sources ${ARGN})
  set(type)
  list(GET sources 0 first)
  if(first STREQUAL "STATIC" OR first STREQUAL "SHARED")
    set(type ${first})
    list(POP_FRONT sources)
  endif()
  if(NOT sources)
    message(FATAL_ERROR "ascendc_library(${target}): no kernel source files")
  endif()

  set(work_dir ${CMAKE_CURRENT_BINARY_DIR}/ascendc_library/${target})
  set(header_dir ${work_dir}/include)
  file(MAKE_DIRECTORY ${header_dir})
  set(stamps)
  set(paths)
  foreach(source IN LISTS sources)
    get_filename_component(path ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    # The rewrite's output only marks the headers as made; the library
    # compiles the source itself.
    file(RELATIVE_PATH relative ${CMAKE_CURRENT_SOURCE_DIR} ${path})
    string(REGEX REPLACE "^(\\.\\./)+" "" relative "${relative}")
    set(stamp ${work_dir}/rewrite/${relative}.cpp)
    get_filename_component(stamp_dir ${stamp} DIRECTORY)
    file(MAKE_DIRECTORY ${stamp_dir})
    add_custom_command(OUTPUT ${stamp}
      COMMAND ${CMAKE_ASC_COMPILER} --rewrite-only ${path} -o ${stamp} --launch-headers ${header_dir}
      DEPENDS ${path} ${CMAKE_ASC_COMPILER}
      COMMENT "ascendc_library(${target}): launch headers of ${source}"
      VERBATIM)
    list(APPEND stamps ${stamp})
    list(APPEND paths ${path})
  endforeach()
  set_source_files_properties(${paths} PROPERTIES LANGUAGE ASC)
  add_custom_target(${target}_launch_headers DEPENDS ${stamps})

  add_library(${target} ${type} ${paths})
  add_dependencies(${target} ${target}_launch_headers)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${header_dir}> $<INSTALL_INTERFACE:include/${target}>)
  get_target_property(built_type ${target} TYPE)
  if(built_type STREQUAL "SHARED_LIBRARY")
    target_link_libraries(${target} INTERFACE ${ASC_NORMGRAD_RUNTIME})
  endif()
  install(TARGETS ${target} ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
  install(DIRECTORY ${header_dir}/ DESTINATION include/${target})
endfunction()

# The scope keyword of an ascendc_* command: PRIVATE when `first` is none.
# Sets `scope` and `rest` (the arguments after the keyword) in the caller.
macro(ascendc_split_scope)
  set(rest ${ARGN})
  set(scope PRIVATE)
  list(GET rest 0 first)
  if(first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    set(scope ${first})
    list(POP_FRONT rest)
  endif()
endmacro()

function(ascendc_compile_definitions target)
  ascendc_split_scope(${ARGN})
  foreach(definition IN LISTS rest)
    if(definition MATCHES "^(HAVE_WORKSPACE|HAVE_TILING)(=.*)?$")
      message(FATAL_ERROR "ascendc_compile_definitions(${target}): ${CMAKE_MATCH_1} is not "
                          "supported by normgrad (the framework's shift of the workspace argument "
                          "past the system workspace is not emulated); leave it out and call "
                          "AscendC::GetUserWorkspace(workspace) in the kernel")
    endif()
  endforeach()
  target_compile_definitions(${target} ${scope} ${rest})
endfunction()

function(ascendc_compile_options target)
  ascendc_split_scope(${ARGN})
  list(REMOVE_ITEM rest -forward-options-to-host-compiler)
  target_compile_options(${target} ${scope} ${rest})
endfunction()

function(ascendc_include_directories target)
  ascendc_split_scope(${ARGN})
  target_include_directories(${target} ${scope} ${rest})
endfunction()

function(ascendc_fatbin_library target)
  message(FATAL_ERROR "ascendc_fatbin_library(${target}): not supported by normgrad: it builds "
                      "a device binary for the kernel loading interfaces, and normgrad runs "
                      "kernels as host code; use ascendc_library(${target} STATIC ...) instead")
endfunction()
