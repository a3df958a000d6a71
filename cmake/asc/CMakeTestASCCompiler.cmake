# CMakeTestASCCompiler.cmake — the language ASC, step 4 of 4: checks once per
# build tree that the compiler builds a kernel, so that a broken normgrad
# (headers or runtime missing) stops the configure with the compiler's words.
if(NOT CMAKE_ASC_COMPILER_WORKS)
  set(test_dir ${CMAKE_PLATFORM_INFO_DIR}/CMakeTmp/asc)
  file(WRITE ${test_dir}/test_asc.asc
    "#include \"kernel_operator.h\"\n"
    "extern \"C\" __global__ __aicore__ void test_asc_kernel(GM_ADDR x) { (void)x; }\n")
  message(CHECK_START "Check for working ASC compiler: ${CMAKE_ASC_COMPILER}")
  execute_process(
    COMMAND ${CMAKE_ASC_COMPILER} -c ${test_dir}/test_asc.asc -o ${test_dir}/test_asc.o
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(CHECK_FAIL "broken")
    message(FATAL_ERROR "the ASC compiler ${CMAKE_ASC_COMPILER} cannot compile a kernel "
                        "(exit status ${result}):\n${output}")
  endif()
  message(CHECK_PASS "works")
  set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "normgrad-cc compiles a kernel")
endif()
