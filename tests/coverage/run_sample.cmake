# run_sample.cmake — the probe checker's own test (coverage.sample): builds the
# probes of a sample ledger, which must fail at exactly the rows marked
# "(wrong)" and at no other row.
#   -DBUILD_DIR=<dir> -DCONFIG=<config>   the build tree and its configuration
#   -DLEDGER=<file>                       the sample ledger
#   -DTARGETS=<a>|<b>                     the probe libraries, built one by one
string(REPLACE "|" ";" targets "${TARGETS}")
get_filename_component(ledger_name ${LEDGER} NAME)
set(output "")
foreach(target IN LISTS targets)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --config ${CONFIG} --target ${target}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${target} built, but the sample ledger has a wrong row on each side:\n${out}")
  endif()
  string(APPEND output "${out}")
endforeach()

file(STRINGS ${LEDGER} lines)
set(number 0)
foreach(line IN LISTS lines)
  math(EXPR number "${number} + 1")
  string(FIND "${output}" "${ledger_name}:${number}:" at)
  if(line MATCHES "\\(wrong\\)")
    if(at EQUAL -1)
      message(FATAL_ERROR "row ${number} of ${ledger_name} is wrong but no error names it:\n${output}")
    endif()
  elseif(NOT at EQUAL -1)
    message(FATAL_ERROR "row ${number} of ${ledger_name} is right but an error names it:\n${output}")
  endif()
endforeach()
message(STATUS "every wrong row of ${ledger_name}, and only those, failed")
