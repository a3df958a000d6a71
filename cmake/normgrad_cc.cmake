# normgrad_cc.cmake — normgrad-cc's launch rewrite as CMake build rules.
# Included by normgradConfig.cmake (after find_package(normgrad)) and by
# normgrad's own build (the CLI's operator sample, tests).
#
#   normgrad_add_ascendc_executable(<target> SOURCES a.asc b.cpp ... [PROFILE a2|310p|950])
#
# builds an executable from Ascend C sources the way normgrad-cc does. Each
# .asc/.cpp/.cc/.cxx source is rewritten by normgrad_ascendc_rewrite() into
# ${CMAKE_CURRENT_BINARY_DIR}/<target>.normgrad-cc/, and the rewritten files
# are compiled as an ordinary C++ executable linking normgrad::ascendc;
# "..." includes still search the original file's directory. Other sources
# (headers, objects) are added unchanged. As with normgrad-cc, the sources
# are compiled with -fno-strict-aliasing and __NPU_ARCH__ defined for the
# product profile (PROFILE, default a2: 2201; 310p: 2002; 950: 3510), and a
# generated source records the profile as the program's default (an explicit
# NORMGRAD_PROFILE at run time still wins). The target is an ordinary
# executable: add compile options, definitions and libraries as usual (a
# later -fstrict-aliasing wins). Every source may #include
# "aclrtlaunch_<kernel>.h" for a kernel declared or defined in any source of
# the target: the rewrite writes those headers into
# ${CMAKE_CURRENT_BINARY_DIR}/<target>.normgrad-cc/launch, which the target
# searches, and every source compiles after every rewrite.
#
#   normgrad_ascendc_rewrite(<source> <output> [LAUNCH_HEADERS <dir>])
#
# is the rule under it: <output> is made from <source> by
# `normgrad-cc --rewrite-only` (launches `k<<<…>>>(…)` become
# normgrad_ascendc::LaunchKernel calls, lines kept with #line so errors point
# at the original file), again whenever the source or the driver changes;
# with LAUNCH_HEADERS it also writes the source's aclrtlaunch_<kernel>.h
# headers into <dir>.
# Use it to compile a rewritten source into a target of your own, e.g. by
# #including it.
include_guard(GLOBAL)

function(normgrad_ascendc_rewrite source output)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "LAUNCH_HEADERS" "")
  set(headers)
  if(arg_LAUNCH_HEADERS)
    set(headers --launch-headers ${arg_LAUNCH_HEADERS})
  endif()
  if(NOT TARGET normgrad::cc)
    message(FATAL_ERROR "normgrad_ascendc_rewrite(${source}): needs the target normgrad::cc "
                        "(build normgrad with NORMGRAD_BUILD_TOOLS=ON)")
  endif()
  # The driver as a dependency: the real target inside normgrad's build, the
  # executable file when it is imported.
  get_target_property(driver normgrad::cc ALIASED_TARGET)
  if(NOT driver)
    set(driver $<TARGET_FILE:normgrad::cc>)
  endif()
  get_filename_component(source_path ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  get_filename_component(output_dir ${output} DIRECTORY)
  file(MAKE_DIRECTORY ${output_dir})
  add_custom_command(OUTPUT ${output}
    COMMAND $<TARGET_FILE:normgrad::cc> --rewrite-only ${source_path} -o ${output} ${headers}
    DEPENDS ${source_path} ${driver}
    COMMENT "normgrad-cc: rewriting kernel launches in ${source}"
    VERBATIM)
endfunction()

function(normgrad_add_ascendc_executable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PROFILE" "SOURCES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "normgrad_add_ascendc_executable(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "normgrad_add_ascendc_executable(${target}): no SOURCES")
  endif()
  if(NOT TARGET normgrad::cc OR NOT TARGET normgrad::ascendc)
    message(FATAL_ERROR "normgrad_add_ascendc_executable(${target}): needs the targets normgrad::cc "
                        "and normgrad::ascendc (build normgrad with NORMGRAD_BUILD_TOOLS=ON)")
  endif()

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.normgrad-cc)
  file(MAKE_DIRECTORY ${out_dir}/launch)
  set(sources)
  set(rewritten_sources)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(path ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT path MATCHES "\\.(asc|cpp|cc|cxx)$")
      list(APPEND sources ${path})
      continue()
    endif()
    # Keep the relative path in the output name, so a/k.asc and b/k.asc differ.
    file(RELATIVE_PATH relative ${CMAKE_CURRENT_SOURCE_DIR} ${path})
    string(REGEX REPLACE "^(\\.\\./)+" "" relative "${relative}")
    set(rewritten ${out_dir}/${relative}.cpp)
    normgrad_ascendc_rewrite(${path} ${rewritten} LAUNCH_HEADERS ${out_dir}/launch)
    get_filename_component(source_dir ${path} DIRECTORY)
    set_source_files_properties(${rewritten} PROPERTIES COMPILE_OPTIONS "-iquote;${source_dir}")
    list(APPEND sources ${rewritten})
    list(APPEND rewritten_sources ${rewritten})
  endforeach()
  # A source may include the launch header another source's rewrite writes.
  set_source_files_properties(${rewritten_sources} PROPERTIES OBJECT_DEPENDS "${rewritten_sources}")

  set(profile a2)
  if(DEFINED arg_PROFILE)
    string(TOLOWER "${arg_PROFILE}" profile)
  endif()
  # __NPU_ARCH__ per profile, as the device compiler defines it (the arch
  # column of normgrad_ascendc/runtime/profile.h's table).
  set(arch_a2 2201)
  set(arch_310p 2002)
  set(arch_950 3510)
  if(NOT DEFINED arch_${profile})
    message(FATAL_ERROR "normgrad_add_ascendc_executable(${target}): PROFILE '${arg_PROFILE}' "
                        "is not a profile (valid: a2, 310p, 950)")
  endif()
  set(profile_source ${out_dir}/normgrad-profile.cpp)
  file(WRITE ${profile_source}.in
    "// Generated by normgrad_add_ascendc_executable: the product profile the program was\n"
    "// compiled for, its default profile (an explicit NORMGRAD_PROFILE wins).\n"
    "extern \"C\" const char* const normgrad_compiled_profile = \"${profile}\";\n")
  configure_file(${profile_source}.in ${profile_source} COPYONLY)
  list(APPEND sources ${profile_source})

  add_executable(${target} ${sources})
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_compile_options(${target} PRIVATE -fno-strict-aliasing)
  target_include_directories(${target} PRIVATE ${out_dir}/launch)
  target_compile_definitions(${target} PRIVATE __NPU_ARCH__=${arch_${profile}})
  target_link_libraries(${target} PRIVATE normgrad::ascendc)
endfunction()
