# run_install.cmake — normgrad-cc and normgrad_add_ascendc_executable() from
# an install tree: installs the build in BUILD_DIR to WORK_DIR/prefix, then
#   1. compiles PROGRAMS/launch_variants.asc with the installed normgrad-cc
#      (which must use the installed headers) and runs it;
#   2. builds the project in PROJECT_DIR against the prefix with
#      find_package(normgrad) and runs its programs.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("$ ${ARGN}\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(expect_output regex)
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR "the output does not match: ${regex}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

run(${prefix}/bin/normgrad-cc -v ${PROGRAMS}/launch_variants.asc -o ${WORK_DIR}/launch_variants)
expect_output("-I ${prefix}/include/ascendc ")
run(${WORK_DIR}/launch_variants)
expect_output("launch variants: ok")

run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DPROGRAMS=${PROGRAMS}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/launch_variants)
expect_output("launch variants: ok")
run(${WORK_DIR}/build/profile)
expect_output("profile: 310p")
message("normgrad-cc install tree: ok")
