# SPDX-License-Identifier: MIT
# Included by cpack (CPACK_PROJECT_CONFIG_FILE): the package's description names the commit the binary
# was built from, read from the version.cpp the build generated (formats/version.cmake).
set(CPACK_FPUTUNE_COMMIT unknown)
if(EXISTS "${CPACK_FPUTUNE_VERSION_CPP}")
  file(READ "${CPACK_FPUTUNE_VERSION_CPP}" version_cpp)
  if(version_cpp MATCHES "tool_commit\\(\\) noexcept { return \"([^\"]*)\"")
    set(CPACK_FPUTUNE_COMMIT "${CMAKE_MATCH_1}")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "limits for kernel_fpu_begin()/end() sections of SIMD crypto code
fputune measures SIMD hash, MAC and cipher kernels inside emulated
kernel_fpu_begin()/kernel_fpu_end() sections, fits cost models, and
recommends how many bytes each may process per section for a time budget
at a minimum CPU frequency, as a table, JSON and a C header. A fleet run
(fputune fleet, with Ansible) merges sweeps of many machines into one
header.
.
Built from commit ${CPACK_FPUTUNE_COMMIT}.")
