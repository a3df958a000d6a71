# run_project.cmake — one ctest test of the vendor's CMake flow: configures a
# project against normgrad in a clean build directory, builds it and runs its
# programs, or checks that the configure or the build fails with a message.
#   -DPROJECT_DIR=<dir>             the project (CMakeLists.txt with find_package(ASC))
#   -DWORK_DIR=<dir>                emptied first; the project builds in WORK_DIR/build
#   -DPREFIX=<dir>                  CMAKE_PREFIX_PATH: normgrad's build tree ...
#   -DINSTALL_FROM=<build dir>      ... or install that build into WORK_DIR/prefix
#                                   (cmake --install) and use the install tree
#   -DARGS=<arg>|<arg>...           more configure arguments (optional)
#   -DBUILD_TYPE, -DCXX_FLAGS, -DLINKER_FLAGS   as normgrad was built (sanitizers)
#   -DEXPECT_CONFIGURE_ERROR=<regex>  the configure must fail with a match
#   -DEXPECT_BUILD_ERROR=<regex>      the build must fail with a match
#   -DPROGRAMS=<name>|<name>...     then run each program of WORK_DIR/build:
#                                   it must exit 0 ...
#   -DOUTPUTS=<regex>|<regex>...    ... and print the match at the same place
# Prints "vendor cmake: ok" at the end, which the test requires.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("$ ${ARGN}\n${out}exit status ${rc}")
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
endfunction()
# Fails the test unless the last run failed (`expect_failure` set) or
# succeeded (unset), and, for a failure, printed a match of `regex` (with
# whitespace runs, newlines too, read as one space).
function(check step expect_failure regex)
  if(expect_failure AND rc EQUAL 0)
    message(FATAL_ERROR "the ${step} succeeded; expected it to fail with: ${regex}")
  elseif(NOT expect_failure AND NOT rc EQUAL 0)
    message(FATAL_ERROR "the ${step} failed (${rc})")
  endif()
  # CMake wraps the lines of its messages: match with whitespace runs as one space.
  string(REGEX REPLACE "[ \n]+" " " flat "${out}")
  if(expect_failure AND NOT flat MATCHES "${regex}")
    message(FATAL_ERROR "the ${step} failed, but its output does not match: ${regex}")
  endif()
endfunction()

if(DEFINED INSTALL_FROM)
  set(PREFIX ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --install ${INSTALL_FROM} --prefix ${PREFIX})
  check(install "" "")
endif()
string(REPLACE "|" ";" args "${ARGS}")
run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${PREFIX}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}" "-DCMAKE_SHARED_LINKER_FLAGS=${LINKER_FLAGS}"
    ${args})
check(configure "${EXPECT_CONFIGURE_ERROR}" "${EXPECT_CONFIGURE_ERROR}")
if(NOT DEFINED EXPECT_CONFIGURE_ERROR)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  check(build "${EXPECT_BUILD_ERROR}" "${EXPECT_BUILD_ERROR}")
endif()

string(REPLACE "|" ";" programs "${PROGRAMS}")
string(REPLACE "|" ";" outputs "${OUTPUTS}")
foreach(program output IN ZIP_LISTS programs outputs)
  run(${WORK_DIR}/build/${program})
  check("program ${program}" "" "")
  if(NOT out MATCHES "${output}")
    message(FATAL_ERROR "the output of ${program} does not match: ${output}")
  endif()
endforeach()
message("vendor cmake: ok")
