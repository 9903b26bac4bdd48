# SPDX-License-Identifier: MIT
# The kernel tree behind the linux provider: where it is, which version, and which of its x86 crypto asm
# files assemble with our shim (kernels/linux/shim). Used by kernels/linux/CMakeLists.txt, and in script
# mode by tests/linux/tree_test.cmake on fake trees. Nothing here copies kernel code into the repository:
# an archive is unpacked into the build directory, and only arch/x86/crypto and the top Makefile of it.

# One unit per asm file: id | path in the tree | entry points the glue calls (all must be defined)
# [| a unit the glue also calls, listed before it].
# A .pl file is run through perl first, as the kernel's Makefile does (cmd_perlasm: `$(PERL) $< > $@`).
set(FPUTUNE_LINUX_UNITS
  "sha1_ssse3|arch/x86/crypto/sha1_ssse3_asm.S|sha1_transform_ssse3 sha1_transform_avx"
  "sha1_avx2|arch/x86/crypto/sha1_avx2_x86_64_asm.S|sha1_transform_avx2|sha1_ssse3"
  "sha1_ni|arch/x86/crypto/sha1_ni_asm.S|sha1_ni_transform"
  "sha256_ssse3|arch/x86/crypto/sha256-ssse3-asm.S|sha256_transform_ssse3"
  "sha256_avx|arch/x86/crypto/sha256-avx-asm.S|sha256_transform_avx"
  "sha256_avx2|arch/x86/crypto/sha256-avx2-asm.S|sha256_transform_rorx"
  "sha256_ni|arch/x86/crypto/sha256_ni_asm.S|sha256_ni_transform"
  "sha512_ssse3|arch/x86/crypto/sha512-ssse3-asm.S|sha512_transform_ssse3"
  "sha512_avx|arch/x86/crypto/sha512-avx-asm.S|sha512_transform_avx"
  "sha512_avx2|arch/x86/crypto/sha512-avx2-asm.S|sha512_transform_rorx"
  "sm3_avx|arch/x86/crypto/sm3-avx-asm_64.S|sm3_transform_avx"
  "crc32c_pcl|arch/x86/crypto/crc32c-pcl-intel-asm_64.S|crc_pcl"
  "crc32_pclmul|arch/x86/crypto/crc32-pclmul_asm.S|crc32_pclmul_le_16"
  "crct10dif_pcl|arch/x86/crypto/crct10dif-pcl-asm_64.S|crc_t10dif_pcl"
  "ghash_clmulni|arch/x86/crypto/ghash-clmulni-intel_asm.S|clmul_ghash_mul clmul_ghash_update"
  "polyval_clmulni|arch/x86/crypto/polyval-clmulni_asm.S|clmul_polyval_mul clmul_polyval_update"
  "nh_sse2|arch/x86/crypto/nh-sse2-x86_64.S|nh_sse2"
  "nh_avx2|arch/x86/crypto/nh-avx2-x86_64.S|nh_avx2"
  "blake2s|arch/x86/crypto/blake2s-core.S|blake2s_compress_ssse3 blake2s_compress_avx512"
  "chacha_ssse3|arch/x86/crypto/chacha-ssse3-x86_64.S|chacha_block_xor_ssse3 chacha_4block_xor_ssse3"
  "chacha_avx2|arch/x86/crypto/chacha-avx2-x86_64.S|chacha_2block_xor_avx2 chacha_4block_xor_avx2 chacha_8block_xor_avx2|chacha_ssse3"
  "chacha_avx512vl|arch/x86/crypto/chacha-avx512vl-x86_64.S|chacha_2block_xor_avx512vl chacha_4block_xor_avx512vl chacha_8block_xor_avx512vl"
  "poly1305|arch/x86/crypto/poly1305-x86_64-cryptogams.pl|poly1305_init_x86_64 poly1305_blocks_x86_64 poly1305_emit_x86_64 poly1305_blocks_avx poly1305_blocks_avx2 poly1305_blocks_avx512 poly1305_emit_avx"
  "aesni|arch/x86/crypto/aesni-intel_asm.S|aesni_set_key aesni_enc aesni_xts_enc aesni_ctr_enc"
  "aes_ctr_by8|arch/x86/crypto/aes_ctrby8_avx-x86_64.S|aes_ctr_enc_128_avx_by8 aes_ctr_enc_256_avx_by8|aesni"
  "aes_xts_avx|arch/x86/crypto/aes-xts-avx-x86_64.S|aes_xts_encrypt_iv aes_xts_encrypt_aesni_avx aes_xts_encrypt_vaes_avx2 aes_xts_encrypt_vaes_avx10_512|aesni"
  "aes_gcm_aesni|arch/x86/crypto/aes-gcm-aesni-x86_64.S|aes_gcm_precompute_aesni aes_gcm_aad_update_aesni aes_gcm_enc_update_aesni aes_gcm_enc_final_aesni aes_gcm_precompute_aesni_avx aes_gcm_aad_update_aesni_avx aes_gcm_enc_update_aesni_avx aes_gcm_enc_final_aesni_avx|aesni"
  "aes_gcm_avx10|arch/x86/crypto/aes-gcm-avx10-x86_64.S|aes_gcm_precompute_vaes_avx10_512 aes_gcm_aad_update_vaes_avx10 aes_gcm_enc_update_vaes_avx10_512 aes_gcm_enc_final_vaes_avx10|aesni")

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
      message(NOTICE "fputune linux: unpacking arch/x86/crypto and the Makefile from ${src} (xz: about a minute)")
      file(REMOVE_RECURSE "${work_dir}/tree")
      file(MAKE_DIRECTORY "${work_dir}/tree")
      execute_process(COMMAND ${FPUTUNE_TAR} -xf "${src}" -C "${work_dir}/tree" --wildcards --no-wildcards-match-slash
                              "*/Makefile" "*/arch/x86/crypto/*"
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        string(REGEX REPLACE "\n.*" "" err "${err}")
        message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: could not unpack the kernel's Makefile and arch/x86/crypto from it (tar: ${err}); ${hint}")
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
  if(NOT EXISTS "${root}/Makefile" OR NOT IS_DIRECTORY "${root}/arch/x86/crypto")
    message(FATAL_ERROR "FPUTUNE_LINUX_SRC=${src}: not a Linux source tree (no Makefile and arch/x86/crypto at its top); ${hint}")
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
  set(${out_root} "${root}" PARENT_SCOPE)
  set(${out_version} "${version}" PARENT_SCOPE)
endfunction()

# Tries every unit: present in the tree, through perl if it is a .pl, assembles with the shim, defines
# its entry points. Each unit that fails gets one line (NOTICE: shown by `make` too) saying why and is left out; none is fatal.
# out_units: ids that passed; out_sources: the .S files to build for them (generated ones in gen_dir).
function(fputune_linux_probe root shim_dir gen_dir compiler nm out_units out_sources)
  fputune_linux_asm_flags("${shim_dir}" flags)
  find_program(FPUTUNE_PERL perl)
  file(MAKE_DIRECTORY "${gen_dir}/probe")
  set(units "")
  set(sources "")
  set(skipped 0)
  foreach(entry IN LISTS FPUTUNE_LINUX_UNITS)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 id)
    list(GET fields 1 path)
    list(GET fields 2 symbols)
    separate_arguments(symbols UNIX_COMMAND "${symbols}")
    set(needs "")
    list(LENGTH fields nfields)
    if(nfields GREATER 3)
      list(GET fields 3 needs)
    endif()
    set(why "")
    set(src "${root}/${path}")
    if(NOT EXISTS "${src}")
      set(why "not in this tree")
    elseif(needs AND NOT needs IN_LIST units)
      set(why "its glue also calls ${needs}, which did not build")
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
          if(NOT CMAKE_SCRIPT_MODE_FILE)
            set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${root}/${path}")
          endif()
        endif()
      endif()
    endif()
    if(NOT why)
      set(obj "${gen_dir}/probe/${id}.o")
      file(REMOVE "${obj}")
      execute_process(COMMAND ${compiler} ${flags} -c -x assembler-with-cpp "${src}" -o "${obj}"
                      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
      if(NOT rc EQUAL 0)
        string(REGEX MATCH "[^\n]*(Error|error)[^\n]*" first "${err}")
        if(NOT first)
          string(REGEX REPLACE "\n.*" "" first "${err}")
        endif()
        set(why "does not assemble with the shim: ${first}")
      else()
        execute_process(COMMAND ${nm} -g --defined-only "${obj}" OUTPUT_VARIABLE defined RESULT_VARIABLE rc)
        set(missing "")
        foreach(sym IN LISTS symbols)
          if(NOT defined MATCHES "[0-9a-f]+ T ${sym}\n")
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
      message(NOTICE "fputune linux: skipping ${id} (${path}): ${why}")
      math(EXPR skipped "${skipped} + 1")
    else()
      list(APPEND units ${id})
      list(APPEND sources "${src}")
    endif()
  endforeach()
  set(${out_units} "${units}" PARENT_SCOPE)
  set(${out_sources} "${sources}" PARENT_SCOPE)
endfunction()
