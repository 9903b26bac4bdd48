# SPDX-License-Identifier: MIT
# Script-mode test of kernels/linux/linux_tree.cmake on fake kernel trees (no kernel code): the version is
# read from the Makefile, a unit that is missing, does not assemble, lacks its entry point or whose perl
# fails is skipped with one line, never fatally, as unpacked tree and as archive; a path that is no kernel
# tree is one clear fatal error. Driver: cmake -DCC=.. -DNM=.. -DWORK=.. -DTREE_CMAKE=.. -DSHIM=.. -P this.
cmake_minimum_required(VERSION 3.25)  # script mode: the policies of the project (IN_LIST)
include(${TREE_CMAKE})

if(MODE STREQUAL "probe")  # the child: resolve SRC, probe it, print what came out
  fputune_linux_tree("${SRC}" "${WORK}/unpack" root version)
  fputune_linux_probe("${root}" "${SHIM}" "${WORK}/gen" "${CC}" "${NM}" units sources)
  message(STATUS "RESULT version=${version} units=${units}")
  return()
endif()

function(expect what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected output matching '${regex}', got:\n${text}")
  endif()
endfunction()

# CMake wraps the text of a fatal error: compare it with the white space collapsed.
function(expect_error what rc text regex)
  expect("${what}" "${rc}" "^[1-9]")
  string(REGEX REPLACE "[ \n]+" " " text "${text}")
  expect("${what}" "${text}" "${regex}")
endfunction()

function(run_probe src out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -DMODE=probe -DSRC=${src} -DCC=${CC} -DNM=${NM} -DWORK=${WORK}/run
                          -DTREE_CMAKE=${TREE_CMAKE} -DSHIM=${SHIM} -P ${CMAKE_CURRENT_LIST_FILE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(tree ${WORK}/src/linux-9.9)
set(crypto ${tree}/arch/x86/crypto)
file(MAKE_DIRECTORY ${crypto})
file(WRITE ${tree}/Makefile "# SPDX-License-Identifier: GPL-2.0\nVERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 0\nEXTRAVERSION = -rc1\nNAME = Test\n")
# Assembles and defines its entry point with the macros the kernel's files use.
file(WRITE ${crypto}/sha256-avx2-asm.S "#include <linux/linkage.h>\n#include <linux/cfi_types.h>\n#include <asm/frame.h>\n.text\nSYM_TYPED_FUNC_START(sha256_transform_rorx)\n\tFRAME_BEGIN\n\tENDBR\n\tFRAME_END\n\tRET\nSYM_FUNC_END(sha256_transform_rorx)\n")
# Does not assemble.
file(WRITE ${crypto}/sha1_ni_asm.S "#include <linux/linkage.h>\nSYM_FUNC_START(sha1_ni_transform)\n\tnot_an_instruction %rax\n")
# Assembles, but defines another name (as a later kernel might).
file(WRITE ${crypto}/nh-sse2-x86_64.S "#include <linux/linkage.h>\nSYM_FUNC_START(nh_sse2_renamed)\n\tRET\nSYM_FUNC_END(nh_sse2_renamed)\n")
# Assembles, but its glue also needs sha1_ssse3, which this tree lacks.
file(WRITE ${crypto}/sha1_avx2_x86_64_asm.S "#include <linux/linkage.h>\nSYM_FUNC_START(sha1_transform_avx2)\n\tRET\nSYM_FUNC_END(sha1_transform_avx2)\n")
# A perl generator that fails.
file(WRITE ${crypto}/poly1305-x86_64-cryptogams.pl "die \"no flavour today\\n\";\n")

run_probe(${tree} rc text)
expect("tree" "${rc}" "^0$")
expect("tree" "${text}" "RESULT version=9\\.9\\.0-rc1 units=sha256_avx2\n")
expect("tree" "${text}" "skipping sha1_ni \\(arch/x86/crypto/sha1_ni_asm\\.S\\): does not assemble with the shim: [^\n]*not_an_instruction")
expect("tree" "${text}" "skipping nh_sse2 \\([^)]*\\): defines no nh_sse2 \\(a different kernel version\\?\\)")
expect("tree" "${text}" "skipping sha1_avx2 \\([^)]*\\): its glue also calls sha1_ssse3, which did not build")
expect("tree" "${text}" "skipping poly1305 \\([^)]*\\): perl failed: no flavour today")
expect("tree" "${text}" "skipping blake2s \\(arch/x86/crypto/blake2s-core\\.S\\): not in this tree")
string(REGEX MATCHALL "skipping" skips "${text}")
list(LENGTH skips nskips)
list(LENGTH FPUTUNE_LINUX_UNITS nunits)
math(EXPR nskipped "${nunits} - 1")  # every unit but sha256_avx2
expect("one line per skipped unit" "${nskips}" "^${nskipped}$")

# The same tree as an archive with one top directory, as kernel.org and Debian ship it.
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cJf ${WORK}/linux-9.9.tar.xz linux-9.9 WORKING_DIRECTORY ${WORK}/src)
run_probe(${WORK}/linux-9.9.tar.xz rc text)
expect("archive" "${rc}" "^0$")
expect("archive" "${text}" "RESULT version=9\\.9\\.0-rc1 units=sha256_avx2\n")

# Not a kernel tree: one clear error that says what to give instead.
run_probe(${WORK}/nowhere rc text)
expect_error("missing path" "${rc}" "${text}" "FPUTUNE_LINUX_SRC=[^ ]*/nowhere: no such file or directory; give an unpacked Linux source tree")
run_probe(${WORK}/src rc text)
expect_error("not a tree" "${rc}" "${text}" "not a Linux source tree \\(no Makefile and arch/x86/crypto at its top\\)")
run_probe(${tree}/Makefile rc text)
expect_error("a plain file" "${rc}" "${text}" "neither a directory nor a \\.tar")
file(WRITE ${WORK}/broken.tar.xz "not xz")
run_probe(${WORK}/broken.tar.xz rc text)
expect_error("a broken archive" "${rc}" "${text}" "could not unpack the kernel's Makefile and arch/x86/crypto from it")
message(STATUS "linux tree probing: all cases passed")
