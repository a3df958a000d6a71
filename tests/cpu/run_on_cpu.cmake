# Runs one command under qemu-x86_64 with a given CPU model and checks that it
# exits 0 and that its output names the instruction set expected on that CPU
# (the dispatch line NORMGRAD_VERBOSE=1 prints), so a build that crashes, or
# that picks an instruction set the CPU lacks, fails.
# cmake -DQEMU=... -DCPU=... -DEXPECT_ISA=... -DCOMMAND="prog|arg|..." -P run_on_cpu.cmake
set(ENV{NORMGRAD_VERBOSE} 1)
string(REPLACE "|" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${QEMU} -cpu ${CPU} ${COMMAND}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "on CPU model ${CPU}: exit status ${rc}\n${out}\n${err}")
endif()
if(NOT "${out}${err}" MATCHES ":${EXPECT_ISA} threads=")
  message(FATAL_ERROR "on CPU model ${CPU}: expected instruction set "
    "${EXPECT_ISA} in the dispatch lines\n${out}\n${err}")
endif()
