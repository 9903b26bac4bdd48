# SPDX-License-Identifier: MIT
# The *-linux variants through the whole chain, unchanged: a short sweep, its fit (the model file keeps the
# provider with its version), recommend from both with a header, check of
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
# The units of the tree that did not build, with why: every real tree lacks the other layout's files.
if(NOT out MATCHES "\nlinux [0-9][^,]*, layout (arch|lib) \\([^)]*\\): [0-9]+ units of the tree not built:\n  [a-z0-9_]+: [^:]+: [^\n]+\n")
  message(FATAL_ERROR "list: no list of the tree's units that did not build:\n${out}")
endif()
# crc32c-pclmul-linux is in both layouts (6.12 crc_pcl, 6.15+ crc32c_x86_3way); the second family: poly1305
# where the tree has its perl (6.12), else the CRC template's crc32.
if(out MATCHES "poly1305-avx2-linux")
  set(second "poly1305-*-linux")
  set(macros FPUTUNE_POLY1305_AVX2_LINUX_FPU_BYTES FPUTUNE_POLY1305_FPU_BYTES)
else()
  set(second "crc32-pclmul-linux")
  set(macros FPUTUNE_CRC32_PCLMUL_LINUX_FPU_BYTES FPUTUNE_CRC32_FPU_BYTES)
endif()
run("sweep" sweep --quick --time-budget 3 -k crc32c-pclmul-linux -k "${second}" -o ${WORK}/sweep.json)
run("fit" fit ${WORK}/sweep.json -o ${WORK}/model.json)
run("recommend" recommend --from ${WORK}/sweep.json ${WORK}/model.json --budget 30us --min-freq 1GHz --header ${WORK}/limits.h)
file(READ ${WORK}/limits.h header)
foreach(macro FPUTUNE_CRC32C_PCLMUL_LINUX_FPU_BYTES ${macros})
  if(NOT header MATCHES "#define ${macro} [0-9]+U")
    message(FATAL_ERROR "recommend: no ${macro} in the header:\n${header}")
  endif()
endforeach()
# The files hold provider "linux <version>": the published JSON Schemas take it.
execute_process(COMMAND python3 -c [=[
import json, sys, jsonschema
for doc, schema in ((sys.argv[1], "sweep"), (sys.argv[2], "model")):
    jsonschema.validate(json.load(open(doc)), json.load(open(f"{sys.argv[3]}/{schema}.schema.json")))
]=] ${WORK}/sweep.json ${WORK}/model.json ${SCHEMAS} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the sweep or model file of the linux variants does not validate against ${SCHEMAS}:\n${err}")
endif()
run("check" check ${WORK}/limits.h --budget 30us --min-freq 1GHz --from ${WORK}/sweep.json)
message(STATUS "sweep, fit, recommend, header and check: the linux variants went through")
