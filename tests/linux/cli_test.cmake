# SPDX-License-Identifier: MIT
# The *-linux variants through the whole chain, unchanged: a short sweep, recommend with a header, check of
# that header against the same sweep. Driver: cmake -DFPUTUNE=<binary> -DWORK=<dir> -P this.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run what)
  execute_process(COMMAND ${FPUTUNE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: fputune ${ARGN} exited ${rc}:\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("list" list -k "*-linux")
if(NOT out MATCHES "crc32c-pclmul-linux +crc32c +pclmul +linux [0-9]")
  message(FATAL_ERROR "list: no crc32c-pclmul-linux with provider linux <version>:\n${out}")
endif()
run("sweep" sweep --quick --time-budget 3 -k crc32c-pclmul-linux -k "poly1305-*-linux" -o ${WORK}/sweep.json)
run("recommend" recommend --from ${WORK}/sweep.json --budget 30us --min-freq 1GHz --header ${WORK}/limits.h)
file(READ ${WORK}/limits.h header)
foreach(macro FPUTUNE_CRC32C_PCLMUL_LINUX_FPU_BYTES FPUTUNE_POLY1305_AVX2_LINUX_FPU_BYTES FPUTUNE_POLY1305_FPU_BYTES)
  if(NOT header MATCHES "#define ${macro} [0-9]+U")
    message(FATAL_ERROR "recommend: no ${macro} in the header:\n${header}")
  endif()
endforeach()
run("check" check ${WORK}/limits.h --budget 30us --min-freq 1GHz --from ${WORK}/sweep.json)
message(STATUS "sweep, recommend, header and check: the linux variants went through")
