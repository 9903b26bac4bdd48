# SPDX-License-Identifier: MIT
# Run by cpack on the staged files (CPACK_PRE_BUILD_SCRIPTS), before they are packed: what Debian asks of a
# binary package and `cmake --install` does not do. Man pages compressed (gzip -9n: no name, no time), and
# the changelog a native package carries (/usr/share/doc/fputune/changelog.gz), naming the commit.
file(GLOB_RECURSE staged_pages "${CPACK_TEMPORARY_DIRECTORY}/*.[1-9]")
list(FILTER staged_pages INCLUDE REGEX "/man/man[1-9]/[^/]+\\.[1-9]$")
foreach(page IN LISTS staged_pages)
  execute_process(COMMAND gzip -9nf "${page}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed")
  endif()
endforeach()
file(GLOB_RECURSE staged_copyright "${CPACK_TEMPORARY_DIRECTORY}/*/share/doc/fputune/copyright")
if(NOT staged_copyright)
  message(FATAL_ERROR "no staged share/doc/fputune/copyright under ${CPACK_TEMPORARY_DIRECTORY}")
endif()
get_filename_component(doc_dir "${staged_copyright}" DIRECTORY)
string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH is honoured
file(WRITE "${doc_dir}/changelog" "fputune (${CPACK_PACKAGE_VERSION}) unstable; urgency=medium

  * Built from commit ${CPACK_FPUTUNE_COMMIT}.

 -- ${CPACK_PACKAGE_CONTACT}  ${date}
")
execute_process(COMMAND gzip -9nf "${doc_dir}/changelog" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${doc_dir}/changelog failed")
endif()
