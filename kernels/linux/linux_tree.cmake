# SPDX-License-Identifier: MIT
# The kernel tree behind the linux provider: where it is, which version, which layout, and which of its x86
# crypto asm files assemble with our shim (kernels/linux/shim). Used by kernels/linux/CMakeLists.txt, and in
# script mode by tests/linux/tree_test.cmake on fake trees. Nothing here copies kernel code into the
# repository: an archive is unpacked into the build directory, and only the asm folders and the top Makefile.
#
# Two layouts (docs/linux-provider-layouts.md): up to 6.14 every asm file is in arch/x86/crypto ("arch");
# from 6.15 the library algorithms move out, to arch/x86/lib (6.15-6.16) and then lib/crypto/x86 and
# lib/crc/x86 (6.17 on), with the AES modes left in arch/x86/crypto ("lib"). The layout is read from the
# folders present; the Makefile's version is reported beside it and checked against it.

# The folders that may hold a unit, relative to the tree's top (also what is unpacked from an archive).
set(FPUTUNE_LINUX_ASM_DIRS arch/x86/crypto arch/x86/lib arch/x86/lib/crypto lib/crypto/x86 lib/crc/x86)

# One unit per asm file: id | the file's path in each layout, the first present wins | entry points the glue
# calls (all must be defined) [| a unit the glue also calls, listed before it [| a regex the file must match:
# the struct offsets the glue's layout assumes, where the asm defines them]]. A unit keeps its id, and
# the variants its id, where a later kernel moved the same function to another file.
# A .pl file is run through perl first, as the kernel's Makefile does (cmd_perlasm: `$(PERL) $< > $@`).
# A .h file is a table of constants in C (crc-pclmul-consts.h): our linux_crc_consts.c includes it and
# hands its addresses to the glue (the kernel's glue passes them to the asm the same way).
set(FPUTUNE_LINUX_UNITS
  "sha1_ssse3|arch/x86/crypto/sha1_ssse3_asm.S lib/crypto/x86/sha1-ssse3-and-avx.S|sha1_transform_ssse3 sha1_transform_avx"
  "sha1_avx2|arch/x86/crypto/sha1_avx2_x86_64_asm.S lib/crypto/x86/sha1-avx2-asm.S|sha1_transform_avx2|sha1_ssse3"
  "sha1_ni|arch/x86/crypto/sha1_ni_asm.S lib/crypto/x86/sha1-ni-asm.S|sha1_ni_transform"
  "sha256_ssse3|arch/x86/crypto/sha256-ssse3-asm.S lib/crypto/x86/sha256-ssse3-asm.S|sha256_transform_ssse3"
  "sha256_avx|arch/x86/crypto/sha256-avx-asm.S lib/crypto/x86/sha256-avx-asm.S|sha256_transform_avx"
  "sha256_avx2|arch/x86/crypto/sha256-avx2-asm.S lib/crypto/x86/sha256-avx2-asm.S|sha256_transform_rorx"
  "sha256_ni|arch/x86/crypto/sha256_ni_asm.S lib/crypto/x86/sha256-ni-asm.S|sha256_ni_transform"
  "sha256_ni_2x|lib/crypto/x86/sha256-ni-asm.S|sha256_ni_finup2x"
  "sha512_ssse3|arch/x86/crypto/sha512-ssse3-asm.S lib/crypto/x86/sha512-ssse3-asm.S|sha512_transform_ssse3"
  "sha512_avx|arch/x86/crypto/sha512-avx-asm.S lib/crypto/x86/sha512-avx-asm.S|sha512_transform_avx"
  "sha512_avx2|arch/x86/crypto/sha512-avx2-asm.S lib/crypto/x86/sha512-avx2-asm.S|sha512_transform_rorx"
  "sm3_avx|arch/x86/crypto/sm3-avx-asm_64.S lib/crypto/x86/sm3-avx-asm_64.S|sm3_transform_avx"
  "crc32c_pcl|arch/x86/crypto/crc32c-pcl-intel-asm_64.S|crc_pcl"
  "crc32c_3way|lib/crc/x86/crc32c-3way.S arch/x86/lib/crc32c-3way.S|crc32c_x86_3way"
  "crc32_pclmul|arch/x86/crypto/crc32-pclmul_asm.S|crc32_pclmul_le_16"
  "crct10dif_pcl|arch/x86/crypto/crct10dif-pcl-asm_64.S|crc_t10dif_pcl"
  "crc_consts|lib/crc/x86/crc-pclmul-consts.h arch/x86/lib/crc-pclmul-consts.h|fputune_linux_crc32_lsb_consts fputune_linux_crc16_msb_consts fputune_linux_crc64_lsb_consts"
  "crc32_lsb|lib/crc/x86/crc32-pclmul.S arch/x86/lib/crc32-pclmul.S|crc32_lsb_pclmul_sse crc32_lsb_vpclmul_avx2 crc32_lsb_vpclmul_avx512|crc_consts"
  "crc16_msb|lib/crc/x86/crc16-msb-pclmul.S arch/x86/lib/crc16-msb-pclmul.S|crc16_msb_pclmul_sse crc16_msb_vpclmul_avx2 crc16_msb_vpclmul_avx512|crc_consts"
  "crc64_lsb|lib/crc/x86/crc64-pclmul.S arch/x86/lib/crc64-pclmul.S|crc64_lsb_pclmul_sse crc64_lsb_vpclmul_avx2 crc64_lsb_vpclmul_avx512|crc_consts"
  "ghash_clmulni|arch/x86/crypto/ghash-clmulni-intel_asm.S|clmul_ghash_mul clmul_ghash_update"
  "polyval_clmulni|arch/x86/crypto/polyval-clmulni_asm.S|clmul_polyval_mul clmul_polyval_update"
  "nh_sse2|arch/x86/crypto/nh-sse2-x86_64.S lib/crypto/x86/nh-sse2.S|nh_sse2"
  "nh_avx2|arch/x86/crypto/nh-avx2-x86_64.S lib/crypto/x86/nh-avx2.S|nh_avx2"
  "blake2s|arch/x86/crypto/blake2s-core.S arch/x86/lib/crypto/blake2s-core.S lib/crypto/x86/blake2s-core.S|blake2s_compress_ssse3 blake2s_compress_avx512"
  "chacha_ssse3|arch/x86/crypto/chacha-ssse3-x86_64.S arch/x86/lib/crypto/chacha-ssse3-x86_64.S lib/crypto/x86/chacha-ssse3-x86_64.S|chacha_block_xor_ssse3 chacha_4block_xor_ssse3"
  "chacha_avx2|arch/x86/crypto/chacha-avx2-x86_64.S arch/x86/lib/crypto/chacha-avx2-x86_64.S lib/crypto/x86/chacha-avx2-x86_64.S|chacha_2block_xor_avx2 chacha_4block_xor_avx2 chacha_8block_xor_avx2|chacha_ssse3"
  "chacha_avx512vl|arch/x86/crypto/chacha-avx512vl-x86_64.S arch/x86/lib/crypto/chacha-avx512vl-x86_64.S lib/crypto/x86/chacha-avx512vl-x86_64.S|chacha_2block_xor_avx512vl chacha_4block_xor_avx512vl chacha_8block_xor_avx512vl"
  "poly1305|arch/x86/crypto/poly1305-x86_64-cryptogams.pl arch/x86/lib/crypto/poly1305-x86_64-cryptogams.pl lib/crypto/x86/poly1305-x86_64-cryptogams.pl|poly1305_init_x86_64 poly1305_blocks_x86_64 poly1305_emit_x86_64 poly1305_blocks_avx poly1305_blocks_avx2 poly1305_blocks_avx512 poly1305_emit_avx"
  "aesni|arch/x86/crypto/aesni-intel_asm.S|aesni_set_key aesni_enc aesni_xts_enc aesni_ctr_enc"
  "aes_ctr_by8|arch/x86/crypto/aes_ctrby8_avx-x86_64.S|aes_ctr_enc_128_avx_by8 aes_ctr_enc_256_avx_by8|aesni"
  "aes_xts_avx|arch/x86/crypto/aes-xts-avx-x86_64.S|aes_xts_encrypt_iv aes_xts_encrypt_aesni_avx aes_xts_encrypt_vaes_avx2 aes_xts_encrypt_vaes_avx10_512|aesni"
  "aes_gcm_aesni|arch/x86/crypto/aes-gcm-aesni-x86_64.S|aes_gcm_precompute_aesni aes_gcm_aad_update_aesni aes_gcm_enc_update_aesni aes_gcm_enc_final_aesni aes_gcm_precompute_aesni_avx aes_gcm_aad_update_aesni_avx aes_gcm_enc_update_aesni_avx aes_gcm_enc_final_aesni_avx|aesni"
  "aes_gcm_avx10|arch/x86/crypto/aes-gcm-avx10-x86_64.S|aes_gcm_precompute_vaes_avx10_512 aes_gcm_aad_update_vaes_avx10 aes_gcm_enc_update_vaes_avx10_512 aes_gcm_enc_final_vaes_avx10|aesni"
  "aes_gcm_vaes_avx2|arch/x86/crypto/aes-gcm-vaes-avx2.S|aes_gcm_precompute_vaes_avx2 aes_gcm_aad_update_vaes_avx2 aes_gcm_enc_update_vaes_avx2 aes_gcm_enc_final_vaes_avx2||#define OFFSETOF_AESKEYLEN[ \t]+0\n#define OFFSETOF_AESROUNDKEYS[ \t]+16\n#define OFFSETOF_H_POWERS[ \t]+288\n")

# Asm files of a 6.15+ tree that fputune knows and has no glue for yet: path | why. Listed (configure time and
# `fputune list`) when the tree has them, so that nothing it holds is left out without a word.
set(FPUTUNE_LINUX_UNGLUED
  "lib/crypto/x86/ghash-pclmul.S|GHASH's 7.1 interface (gf128hash.h) is not wired into fputune's glue yet"
  "lib/crypto/x86/polyval-pclmul-avx.S|POLYVAL's 6.17+ interface (polyval.h) is not wired into fputune's glue yet"
  "arch/x86/crypto/aes-gcm-vaes-avx512.S|the 6.19 rename of the AVX10 GCM code (*_vaes_avx512) is not wired into fputune's glue yet"
  "arch/x86/crypto/aes-ctr-avx-x86_64.S|the 6.15 VAES CTR rewrite is not wired into fputune's glue yet")

# How every unit is assembled, at probe time and in the build: the shim first on the include path,
# kernel-assembler defines (CONFIG_AS_AVX512: binutils >= 2.26 has AVX-512; CONFIG_AS_VAES and
# CONFIG_AS_VPCLMULQDQ: binutils >= 2.30 has them, as the kernel's Kconfig finds), and a non-executable stack note (the kernel's objects need none; a user-space link does).
function(fputune_linux_asm_flags shim_dir out)
  set(${out} -D__ASSEMBLY__ -DCONFIG_X86_64 -DCONFIG_AS_AVX512 -DCONFIG_AS_VAES -DCONFIG_AS_VPCLMULQDQ -Wa,--noexecstack -I${shim_dir} PARENT_SCOPE)
endfunction()

# Resolves FPUTUNE_LINUX_SRC (an unpacked tree, or a tar archive unpacked into work_dir) to the tree's
# root, and reads its version from the top Makefile. A path that is not a kernel tree is a usage error.
function(fputune_linux_tree src work_dir out_root out_version)
  set(hint "give an unpacked Linux source tree or its tar archive, e.g. -DFPUTUNE_LINUX_SRC=/usr/src/linux-source-6.12.tar.xz (Debian: apt-get install linux-source-6.12)")
  if(NOT EXISTS "${src}")
    message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: no such file or directory; ${hint}")
  endif()
  get_filename_component(src "${src}" ABSOLUTE)
  if(IS_DIRECTORY "${src}")
    set(root "${src}")
  elseif(src MATCHES "\\.(tar|tar\\.xz|txz|tar\\.gz|tgz|tar\\.bz2|tbz2|tar\\.zst)$")
    # Unpack only the top Makefile and arch/x86/crypto (GNU tar: '*' stops at '/', so the patterns
    # match one leading directory, as every kernel archive has). Again only when the archive changed.
    file(TIMESTAMP "${src}" stamp "%s" UTC)
    file(SIZE "${src}" size)
    set(stamp "${src} ${size} ${stamp}")
    set(stamp_file "${work_dir}/unpacked.stamp")
    if(NOT CMAKE_SCRIPT_MODE_FILE)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")  # a new archive: unpack again
    endif()
    set(old_stamp "")
    if(EXISTS "${stamp_file}")
      file(READ "${stamp_file}" old_stamp)
    endif()
    if(NOT old_stamp STREQUAL stamp)
      find_program(FPUTUNE_TAR NAMES tar gtar)
      if(NOT FPUTUNE_TAR)
        message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: unpacking it needs GNU tar, which is not installed; unpack it yourself and give the directory")
      endif()
      message(NOTICE "fputune linux: unpacking the asm folders and the Makefile from ${src} (xz: about a minute)")
      file(REMOVE_RECURSE "${work_dir}/tree")
      file(MAKE_DIRECTORY "${work_dir}/tree")
      set(patterns "*/Makefile")
      foreach(dir IN LISTS FPUTUNE_LINUX_ASM_DIRS)
        list(APPEND patterns "*/${dir}/*")
      endforeach()
      execute_process(COMMAND ${FPUTUNE_TAR} -xf "${src}" -C "${work_dir}/tree" --wildcards --no-wildcards-match-slash
                              ${patterns}
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      # A folder of the other layout is not in the archive: tar says so for each such pattern and exits 2.
      # Only other complaints are errors.
      string(REGEX REPLACE "[^\n]*: Not found in archive\n?" "" err "${err}")
      string(REGEX REPLACE "[^\n]*Exiting with failure status due to previous errors\n?" "" err "${err}")
      string(STRIP "${err}" err)
      if(NOT rc EQUAL 0 AND NOT (rc EQUAL 2 AND err STREQUAL ""))
        string(REGEX REPLACE "\n.*" "" err "${err}")
        message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: could not unpack the kernel's Makefile and asm folders from it (tar: ${err}); ${hint}")
      endif()
      file(WRITE "${stamp_file}" "${stamp}")
    endif()
    file(GLOB tops LIST_DIRECTORIES true "${work_dir}/tree/*")
    list(LENGTH tops ntops)
    if(NOT ntops EQUAL 1)
      message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: expected one top directory in the archive, found ${ntops}; ${hint}")
    endif()
    set(root "${tops}")
  else()
    message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: neither a directory nor a .tar(.xz|.gz|.bz2|.zst) archive; ${hint}")
  endif()
  set(dirs "")
  foreach(dir IN LISTS FPUTUNE_LINUX_ASM_DIRS)
    if(IS_DIRECTORY "${root}/${dir}")
      list(APPEND dirs "${dir}")
    endif()
  endforeach()
  if(NOT EXISTS "${root}/Makefile" OR NOT dirs)
    message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: not a Linux source tree (no Makefile and arch/x86/crypto or lib/crypto/x86 at its top); ${hint}")
  endif()
  file(STRINGS "${root}/Makefile" head LIMIT_COUNT 12)
  set(parts "")
  foreach(var VERSION PATCHLEVEL SUBLEVEL EXTRAVERSION)
    set(${var} "")
    foreach(line IN LISTS head)
      if(line MATCHES "^${var} *= *([^ ]*)")
        set(${var} "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
  if(NOT VERSION MATCHES "^[0-9]+$" OR NOT PATCHLEVEL MATCHES "^[0-9]+$")
    message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: ${root}/Makefile does not start with VERSION = and PATCHLEVEL = as a kernel's does; ${hint}")
  endif()
  set(version "${VERSION}.${PATCHLEVEL}")
  if(SUBLEVEL MATCHES "^[0-9]+$")
    string(APPEND version ".${SUBLEVEL}")
  endif()
  string(APPEND version "${EXTRAVERSION}")
  # The layout, from the folders present; the version only to say when the two disagree (a tree unpacked
  # in part, or a vendor's backport).
  if("lib/crypto/x86" IN_LIST dirs OR "lib/crc/x86" IN_LIST dirs OR "arch/x86/lib/crypto" IN_LIST dirs)
    set(layout "lib")
  else()
    set(layout "arch")
  endif()
  list(JOIN dirs ", " dir_list)
  math(EXPR numeric "${VERSION} * 1000 + ${PATCHLEVEL}")
  if(layout STREQUAL "arch" AND numeric GREATER_EQUAL 6017)
    message(NOTICE "fputune linux: the Makefile says ${version}, but the tree has only ${dir_list}: a ${VERSION}.${PATCHLEVEL} tree keeps its library asm in lib/crypto/x86 and lib/crc/x86 (unpacked in part?)")
  elseif(layout STREQUAL "lib" AND numeric LESS 6015)
    message(NOTICE "fputune linux: the Makefile says ${version}, but the tree has ${dir_list}, which 6.15 introduced (a backport?)")
  endif()
  set(${out_root} "${root}" PARENT_SCOPE)
  set(${out_version} "${version}" PARENT_SCOPE)
  set(FPUTUNE_LINUX_LAYOUT "${layout}" PARENT_SCOPE)
  set(FPUTUNE_LINUX_LAYOUT_DIRS "${dir_list}" PARENT_SCOPE)
endfunction()

# Tries every unit: present in the tree (the first of its paths that is), through perl if it is a .pl,
# assembles with the shim (a .h: our linux_crc_consts.c compiles with it), defines its entry points. Each
# unit that fails gets one line (NOTICE: shown by `make` too) saying why and is left out; none is fatal.
# So does each file of FPUTUNE_LINUX_UNGLUED the tree has.
# out_units: ids that passed; out_sources: the files to build for them (generated ones in gen_dir, each once);
# out_skipped: "id|path|why" per unit left out. FPUTUNE_LINUX_CONSTS_DIR (parent scope): the folder of the
# constants header, when crc_consts passed.
function(fputune_linux_probe root shim_dir gen_dir compiler nm out_units out_sources out_skipped)
  fputune_linux_asm_flags("${shim_dir}" flags)
  get_filename_component(consts_c "${shim_dir}/../linux_crc_consts.c" ABSOLUTE)
  find_program(FPUTUNE_PERL perl)
  file(MAKE_DIRECTORY "${gen_dir}/probe")
  set(units "")
  set(sources "")
  set(skipped "")
  foreach(entry IN LISTS FPUTUNE_LINUX_UNITS)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 id)
    list(GET fields 1 paths)
    list(GET fields 2 symbols)
    separate_arguments(paths UNIX_COMMAND "${paths}")
    separate_arguments(symbols UNIX_COMMAND "${symbols}")
    set(needs "")
    set(layout_regex "")
    list(LENGTH fields nfields)
    if(nfields GREATER 3)
      list(GET fields 3 needs)
    endif()
    if(nfields GREATER 4)
      list(GET fields 4 layout_regex)
    endif()
    set(why "")
    set(path "")
    foreach(candidate IN LISTS paths)
      if(NOT path AND EXISTS "${root}/${candidate}")
        set(path "${candidate}")
      endif()
    endforeach()
    if(NOT path)
      list(JOIN paths " or " path)
      set(why "not in this tree")
    endif()
    set(src "${root}/${path}")
    set(compile_src "${src}")
    set(lang_flags ${flags} -x assembler-with-cpp)
    if(why)
    elseif(needs AND NOT needs IN_LIST units)
      set(why "its glue also calls ${needs}, which did not build")
    elseif(layout_regex)
      file(READ "${src}" text)
      if(NOT text MATCHES "${layout_regex}")
        string(REGEX REPLACE "[\n\t]+" " " shown "${layout_regex}")
        set(why "its struct offsets are not the ones fputune's glue lays out (it lacks: ${shown})")
      endif()
    elseif(path MATCHES "\\.h$")
      get_filename_component(consts_dir "${src}" DIRECTORY)
      set(compile_src "${consts_c}")
      set(lang_flags -x c -I${consts_dir})
    elseif(path MATCHES "\\.pl$")
      get_filename_component(name "${path}" NAME_WE)
      set(generated "${gen_dir}/${name}.S")
      if(NOT FPUTUNE_PERL)
        set(why "needs perl to generate it, and perl is not installed")
      else()
        execute_process(COMMAND ${FPUTUNE_PERL} "${src}" OUTPUT_FILE "${generated}.tmp"
                        RESULT_VARIABLE rc ERROR_VARIABLE err)
        if(NOT rc EQUAL 0)
          string(REGEX REPLACE "\n.*" "" err "${err}")
          set(why "perl failed: ${err}")
        else()
          # Rewritten only when it changed, so that a reconfigure does not rebuild it.
          file(COPY_FILE "${generated}.tmp" "${generated}" ONLY_IF_DIFFERENT)
          set(src "${generated}")
          set(compile_src "${generated}")
          if(NOT CMAKE_SCRIPT_MODE_FILE)
            set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${root}/${path}")
          endif()
        endif()
      endif()
    endif()
    if(NOT why)
      set(obj "${gen_dir}/probe/${id}.o")
      file(REMOVE "${obj}")
      execute_process(COMMAND ${compiler} ${lang_flags} -c "${compile_src}" -o "${obj}"
                      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
      if(NOT rc EQUAL 0)
        string(REGEX MATCH "[^\n]*(Error|error)[^\n]*" first "${err}")
        if(NOT first)
          string(REGEX REPLACE "\n.*" "" first "${err}")
        endif()
        set(why "does not assemble with the shim: ${first}")
        if(path MATCHES "\\.h$")
          set(why "does not compile as our constants table expects: ${first}")
        endif()
      else()
        execute_process(COMMAND ${nm} -g --defined-only "${obj}" OUTPUT_VARIABLE defined RESULT_VARIABLE rc)
        set(missing "")
        foreach(sym IN LISTS symbols)
          if(NOT defined MATCHES "[0-9a-f]+ [TRD] ${sym}\n")
            list(APPEND missing ${sym})
          endif()
        endforeach()
        if(missing)
          list(JOIN missing ", " missing)
          set(why "defines no ${missing} (a different kernel version?)")
        endif()
      endif()
    endif()
    if(why)
      string(REPLACE ";" "," why "${why}")
      message(NOTICE "fputune linux: skipping ${id} (${path}): ${why}")
      list(APPEND skipped "${id}|${path}|${why}")
    else()
      list(APPEND units ${id})
      if(path MATCHES "\\.h$")
        set(FPUTUNE_LINUX_CONSTS_DIR "${consts_dir}" PARENT_SCOPE)
      endif()
      if(NOT compile_src IN_LIST sources)  # two units of one file (sha256_ni, sha256_ni_2x): built once
        list(APPEND sources "${compile_src}")
      endif()
    endif()
  endforeach()
  foreach(entry IN LISTS FPUTUNE_LINUX_UNGLUED)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 path)
    list(GET fields 1 why)
    if(EXISTS "${root}/${path}")
      get_filename_component(id "${path}" NAME_WE)
      string(REPLACE "-" "_" id "${id}")
      message(NOTICE "fputune linux: skipping ${id} (${path}): ${why}")
      list(APPEND skipped "${id}|${path}|${why}")
    endif()
  endforeach()
  set(${out_units} "${units}" PARENT_SCOPE)
  set(${out_sources} "${sources}" PARENT_SCOPE)
  set(${out_skipped} "${skipped}" PARENT_SCOPE)
endfunction()

# linux_config.h, what the glue may register: the version, the layout, one FPUTUNE_LINUX_<UNIT> per unit that
# built, and the units left out with why (FPUTUNE_LINUX_SKIPPED_UNITS: `fputune list` prints them).
function(fputune_linux_config out_file src version layout built skipped)
  set(config "// Generated by kernels/linux/linux_tree.cmake from ${src}\n#pragma once\n")
  string(APPEND config "#define FPUTUNE_LINUX_PROVIDER \"linux ${version}\"\n")
  string(APPEND config "#define FPUTUNE_LINUX_LAYOUT \"${layout}\"\n")
  foreach(unit IN LISTS built)
    string(TOUPPER "${unit}" unit)
    string(APPEND config "#define FPUTUNE_LINUX_${unit} 1\n")
  endforeach()
  string(APPEND config "#define FPUTUNE_LINUX_SKIPPED_UNITS")
  foreach(entry IN LISTS skipped)
    string(REPLACE "\\" "\\\\" entry "${entry}")
    string(REPLACE "\"" "\\\"" entry "${entry}")
    string(REPLACE "|" ": " entry "${entry}")
    string(APPEND config " \\\n    \"${entry}\",")
  endforeach()
  string(APPEND config "\n")
  file(CONFIGURE OUTPUT "${out_file}" CONTENT "${config}" @ONLY)
endfunction()
