# SPDX-License-Identifier: MIT
# `make deb`: a Debian package (CPack's DEB generator) of what `cmake --install` installs, plus the
# Debian files a binary package carries (copyright, changelog, man page compressed). The version is the
# project's (project(VERSION) in CMakeLists.txt); the commit is read at packaging time from the same
# generated version.cpp that `fputune --version` prints, so package and binary cannot disagree.
install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/fputune)

set(FPUTUNE_DEB_MAINTAINER "the fputune authors <fputune-authors@users.noreply.github.com>"
    CACHE STRING "the Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fputune)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${FPUTUNE_DEB_MAINTAINER})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fputune_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The dependencies are the libraries the binary really links (dpkg-shlibdeps), not a list kept by hand.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# report draws its charts with gnuplot; fleet runs ansible-playbook on the controller.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox, ansible-core")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Read by cpack (package-time.cmake, package-stage.cmake): where the commit is, and the maintainer line.
set(CPACK_FPUTUNE_VERSION_CPP ${CMAKE_BINARY_DIR}/formats/version.cpp)
set(CPACK_FPUTUNE_MAN_SECTION ${CMAKE_INSTALL_MANDIR})
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/package-time.cmake)
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/package-stage.cmake)
include(CPack)
