# SPDX-License-Identifier: MIT
# Script-mode test of kernels/linux/linux_tree.cmake on fake kernel trees of both layouts (no kernel code: small
# files written here that define the entry points): the version is read from the Makefile and the layout from
# the folders present; a unit that is missing, does not assemble, lacks its entry point or whose perl fails is
# skipped with one line, never fatally, as unpacked tree and as archive, and listed in linux_config.h; the
# units of a 7.1 tree (lib/crypto/x86, lib/crc/x86 and the CRC template's constants) assemble, and link with
# a driver that calls them; a path that is no kernel tree is one clear fatal error.
# Driver: cmake -DCC=.. -DNM=.. -DWORK=.. -DTREE_CMAKE=.. -DSHIM=.. -P this.
cmake_minimum_required(VERSION 3.25)  # script mode: the policies of the project (IN_LIST)
include(${TREE_CMAKE})

if(MODE STREQUAL "probe")  # the child: resolve SRC, probe it, print what came out
  fputune_linux_tree("${SRC}" "${WORK}/unpack" root version)
  fputune_linux_probe("${root}" "${SHIM}" "${WORK}/gen" "${CC}" "${NM}" units sources skipped)
  fputune_linux_config("${WORK}/linux_config.h" "${SRC}" "${version}" "${FPUTUNE_LINUX_LAYOUT}" "${units}" "${skipped}")
  list(LENGTH sources nsources)
  message(STATUS "RESULT version=${version} layout=${FPUTUNE_LINUX_LAYOUT} units=${units}")
  message(STATUS "SOURCES ${nsources}: ${sources}")
  message(STATUS "CONSTS ${FPUTUNE_LINUX_CONSTS_DIR}")
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
expect("tree" "${text}" "RESULT version=9\\.9\\.0-rc1 layout=arch units=sha256_avx2\n")
expect("tree" "${text}" "skipping sha1_ni \\(arch/x86/crypto/sha1_ni_asm\\.S\\): does not assemble with the shim: [^\n]*not_an_instruction")
expect("tree" "${text}" "skipping nh_sse2 \\([^)]*\\): defines no nh_sse2 \\(a different kernel version\\?\\)")
expect("tree" "${text}" "skipping sha1_avx2 \\([^)]*\\): its glue also calls sha1_ssse3, which did not build")
expect("tree" "${text}" "skipping poly1305 \\([^)]*\\): perl failed: no flavour today")
expect("tree" "${text}" "skipping blake2s \\(arch/x86/crypto/blake2s-core\\.S or [^)]*lib/crypto/x86/blake2s-core\\.S\\): not in this tree")
string(REGEX MATCHALL "skipping" skips "${text}")
list(LENGTH skips nskips)
list(LENGTH FPUTUNE_LINUX_UNITS nunits)
math(EXPR nskipped "${nunits} - 1")  # every unit but sha256_avx2
expect("one line per skipped unit" "${nskips}" "^${nskipped}$")
file(READ ${WORK}/run/linux_config.h config)
expect("config" "${config}" "#define FPUTUNE_LINUX_SHA256_AVX2 1\n")
expect("config" "${config}" "#define FPUTUNE_LINUX_LAYOUT \"arch\"")
expect("config lists the skipped" "${config}" "\"sha1_ni: arch/x86/crypto/sha1_ni_asm\\.S: does not assemble with the shim: [^\n]*\",")

# The same tree as an archive with one top directory, as kernel.org and Debian ship it.
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cJf ${WORK}/linux-9.9.tar.xz linux-9.9 WORKING_DIRECTORY ${WORK}/src)
run_probe(${WORK}/linux-9.9.tar.xz rc text)
expect("archive" "${rc}" "^0$")
expect("archive" "${text}" "RESULT version=9\\.9\\.0-rc1 layout=arch units=sha256_avx2\n")

# Not a kernel tree: one clear error that says what to give instead.
run_probe(${WORK}/nowhere rc text)
expect_error("missing path" "${rc}" "${text}" "FPUTUNE_LINUX_SRC=[^ ]*/nowhere: no such file or directory; give an unpacked Linux source tree")
run_probe(${WORK}/src rc text)
expect_error("not a tree" "${rc}" "${text}" "not a Linux source tree \\(no Makefile and arch/x86/crypto or lib/crypto/x86 at its top\\)")
run_probe(${tree}/Makefile rc text)
expect_error("a plain file" "${rc}" "${text}" "neither a directory nor a \\.tar")
file(WRITE ${WORK}/broken.tar.xz "not xz")
run_probe(${WORK}/broken.tar.xz rc text)
expect_error("a broken archive" "${rc}" "${text}" "could not unpack the kernel's Makefile and asm folders from it")

# ---- A 7.1 tree: lib/crypto/x86, lib/crc/x86, the AES modes in arch/x86/crypto ---------------------------------
set(tree7 ${WORK}/src/linux-7.1)
file(MAKE_DIRECTORY ${tree7}/lib/crypto/x86 ${tree7}/lib/crc/x86 ${tree7}/arch/x86/crypto)
file(WRITE ${tree7}/Makefile "VERSION = 7\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION = -rc2\n")
function(fake_asm path)  # a file that defines each name as a function returning its first argument
  set(text "#include <linux/linkage.h>\n.text\n")
  foreach(name IN LISTS ARGN)
    string(APPEND text "SYM_FUNC_START(${name})\n\tmov %rdi, %rax\n\tRET\nSYM_FUNC_END(${name})\n")
  endforeach()
  file(WRITE ${tree7}/${path} "${text}")
endfunction()
# sha256-ni-asm.S holds two units (the one-stream transform and the two-message finup): built once.
fake_asm(lib/crypto/x86/sha256-ni-asm.S sha256_ni_transform sha256_ni_finup2x)
fake_asm(lib/crypto/x86/sha512-avx2-asm.S sha512_transform_rorx)
fake_asm(lib/crypto/x86/ghash-pclmul.S ghash_blocks_pclmul)  # known, no glue yet: listed
fake_asm(lib/crc/x86/crc32-pclmul.S crc32_lsb_pclmul_sse crc32_lsb_vpclmul_avx2 crc32_lsb_vpclmul_avx512)
fake_asm(lib/crc/x86/crc16-msb-pclmul.S crc16_msb_pclmul_sse)  # lacks the two wider functions
fake_asm(arch/x86/crypto/aes-xts-avx-x86_64.S aes_xts_encrypt_iv aes_xts_encrypt_aesni_avx aes_xts_encrypt_vaes_avx2
         aes_xts_encrypt_vaes_avx10_512)  # its glue needs aesni-intel_asm.S, absent
# Defines the VAES-AVX2 GCM functions, but with a key layout other than the one the glue fills.
fake_asm(arch/x86/crypto/aes-gcm-vaes-avx2.S aes_gcm_precompute_vaes_avx2 aes_gcm_aad_update_vaes_avx2
         aes_gcm_enc_update_vaes_avx2 aes_gcm_enc_final_vaes_avx2)
file(READ ${tree7}/arch/x86/crypto/aes-gcm-vaes-avx2.S text)
file(WRITE ${tree7}/arch/x86/crypto/aes-gcm-vaes-avx2.S
     "#define OFFSETOF_AESKEYLEN\t480\n#define OFFSETOF_AESROUNDKEYS\t0\n#define OFFSETOF_H_POWERS\t496\n${text}")
file(WRITE ${tree7}/lib/crc/x86/crc32c-3way.S "#include <linux/linkage.h>\nSYM_FUNC_START(crc32c_x86_3way)\n\tnot_an_instruction\n")
# The constants header as the kernel's generator writes it, in shape: one struct per CRC, u8/u64 fields.
set(consts "")
foreach(crc crc16_msb_0x8bb7 crc32_lsb_0xedb88320 crc64_lsb_0x9a6c9329ac4bc9b5)
  string(APPEND consts "static const struct {\n\tu8 shuf_table[48];\n\tu64 fold_across_128_bits_consts[2];\n} "
                       "${crc}_consts ____cacheline_aligned __maybe_unused = {\n\t.shuf_table = {-1, 0, 1},\n"
                       "\t.fold_across_128_bits_consts = {0x1111, 0x2222},\n};\n")
endforeach()
file(WRITE ${tree7}/lib/crc/x86/crc-pclmul-consts.h "${consts}")

run_probe(${tree7} rc text)
expect("7.1 tree" "${rc}" "^0$")
expect("7.1 tree" "${text}" "RESULT version=7\\.1\\.0-rc2 layout=lib units=sha256_ni;sha256_ni_2x;sha512_avx2;crc_consts;crc32_lsb\n")
expect("7.1 tree: one source per file" "${text}" "SOURCES 4: [^\n]*sha256-ni-asm\\.S;[^\n]*sha512-avx2-asm\\.S;[^\n]*linux_crc_consts\\.c;[^\n]*crc32-pclmul\\.S\n")
expect("7.1 tree" "${text}" "CONSTS [^\n]*/linux-7\\.1/lib/crc/x86\n")
expect("7.1 tree" "${text}" "skipping sha1_ni \\(arch/x86/crypto/sha1_ni_asm\\.S or lib/crypto/x86/sha1-ni-asm\\.S\\): not in this tree")
expect("7.1 tree" "${text}" "skipping crc16_msb \\(lib/crc/x86/crc16-msb-pclmul\\.S\\): defines no crc16_msb_vpclmul_avx2, crc16_msb_vpclmul_avx512")
expect("7.1 tree" "${text}" "skipping crc32c_3way \\(lib/crc/x86/crc32c-3way\\.S\\): does not assemble with the shim")
expect("7.1 tree" "${text}" "skipping aes_xts_avx \\(arch/x86/crypto/aes-xts-avx-x86_64\\.S\\): its glue also calls aesni, which did not build")
expect("7.1 tree" "${text}" "skipping aes_gcm_vaes_avx2 \\(arch/x86/crypto/aes-gcm-vaes-avx2\\.S\\): its struct offsets are not the ones fputune's glue lays out \\(it lacks: #define OFFSETOF_AESKEYLEN")
expect("7.1 tree" "${text}" "skipping ghash_pclmul \\(lib/crypto/x86/ghash-pclmul\\.S\\): GHASH's 7\\.1 interface")
file(READ ${WORK}/run/linux_config.h config)
foreach(unit SHA256_NI SHA256_NI_2X SHA512_AVX2 CRC_CONSTS CRC32_LSB)
  expect("7.1 config" "${config}" "#define FPUTUNE_LINUX_${unit} 1\n")
endforeach()
expect("7.1 config" "${config}" "#define FPUTUNE_LINUX_LAYOUT \"lib\"")
expect("7.1 config" "${config}" "\"crc16_msb: lib/crc/x86/crc16-msb-pclmul\\.S: defines no [^\n]*\",")

# The units build into objects that link: a driver calls the fake finup and CRC through the constants.
file(WRITE ${WORK}/driver.c "#include <stdint.h>\n#include <stddef.h>\n"
     "extern const void *const fputune_linux_crc32_lsb_consts;\n"
     "uint32_t crc32_lsb_pclmul_sse(uint32_t crc, const uint8_t *p, size_t len, const void *consts);\n"
     "void sha256_ni_finup2x(const void *ctx, const uint8_t *a, const uint8_t *b, int len, uint8_t *o1, uint8_t *o2);\n"
     "int main(void) {\n\tconst uint64_t *c = fputune_linux_crc32_lsb_consts;\n\tuint8_t d[16] = {0};\n"
     "\tsha256_ni_finup2x(0, d, d, 16, d, d);\n"
     "\treturn !(c[0] == 0x1111 && c[1] == 0x2222 && crc32_lsb_pclmul_sse(7, d, 16, c) == 7);\n}\n")
execute_process(COMMAND ${CC} -o ${WORK}/driver ${WORK}/driver.c ${WORK}/run/gen/probe/sha256_ni_2x.o
                        ${WORK}/run/gen/probe/crc_consts.o ${WORK}/run/gen/probe/crc32_lsb.o
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("7.1 units link" "${rc}${err}" "^0$")
execute_process(COMMAND ${WORK}/driver RESULT_VARIABLE rc)
expect("7.1 units run: the constants reach the asm" "${rc}" "^0$")

# The same tree as an archive: the folders of the other layout are absent, which is no error.
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cJf ${WORK}/linux-7.1.tar.xz linux-7.1 WORKING_DIRECTORY ${WORK}/src)
run_probe(${WORK}/linux-7.1.tar.xz rc text)
expect("7.1 archive" "${rc}" "^0$")
expect("7.1 archive" "${text}" "RESULT version=7\\.1\\.0-rc2 layout=lib units=sha256_ni;sha256_ni_2x;sha512_avx2;crc_consts;crc32_lsb\n")

# A Makefile of 7.1 over the 6.12 layout: built as what it holds, with a line that says the two disagree.
file(WRITE ${tree}/Makefile "VERSION = 7\nPATCHLEVEL = 1\nSUBLEVEL = 0\n")
run_probe(${tree} rc text)
expect("mismatch" "${rc}" "^0$")
expect("mismatch" "${text}" "the Makefile says 7\\.1\\.0, but the tree has only arch/x86/crypto")
expect("mismatch" "${text}" "RESULT version=7\\.1\\.0 layout=arch units=sha256_avx2\n")
message(STATUS "linux tree probing: all cases passed")
