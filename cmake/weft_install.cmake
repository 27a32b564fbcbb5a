# What `cmake --install` (and `make install PREFIX=...`) puts under the
# prefix, laid out as the build tree is, so that `weft` finds the rest from
# its own location (tools/paths.cpp):
#   bin/weft                       the command
#   lib/libweft.so*                the library
#   lib/libweft_dist.so*           places across MPI ranks (weft/dist.hpp),
#                                  when Open MPI was found
#   lib/gomp/libgomp.so.1          -> ../libweft.so.<version>, for `weft run`
#   include/weft/*.h, *.hpp        the public headers
#   share/weft/plots/*.py          the scripts of weft sim and weft mtt
#   lib/cmake/weft/                find_package(weft) -> weft::weft
#   lib/pkgconfig/weft.pc          pkg-config --cflags --libs weft
include(CMakePackageConfigHelpers)

set_target_properties(weft_cli PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")

install(TARGETS weft EXPORT weftTargets
        LIBRARY DESTINATION lib NAMELINK_COMPONENT Runtime
        INCLUDES DESTINATION include)
install(TARGETS weft_cli RUNTIME DESTINATION bin)
if(TARGET weft_dist)
  install(TARGETS weft_dist LIBRARY DESTINATION lib NAMELINK_COMPONENT Runtime)
endif()
# The symlink that the build made (src/CMakeLists.txt), kept a symlink.
install(DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/gomp DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/weft DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/plots/ DESTINATION share/weft/plots
        FILES_MATCHING PATTERN "*.py")

install(EXPORT weftTargets NAMESPACE weft:: DESTINATION lib/cmake/weft)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/weftConfig.cmake.in
  ${CMAKE_BINARY_DIR}/weftConfig.cmake INSTALL_DESTINATION lib/cmake/weft)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/weftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/weftConfig.cmake
              ${CMAKE_BINARY_DIR}/weftConfigVersion.cmake
        DESTINATION lib/cmake/weft)

# weft.pc names the prefix it is installed under (relocatable: computed
# from the .pc file's own folder, as pkg-config's ${pcfiledir} allows).
set(WEFT_PC_PREFIX "\${pcfiledir}/../..")
configure_file(${CMAKE_CURRENT_LIST_DIR}/weft.pc.in ${CMAKE_BINARY_DIR}/weft.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/weft.pc DESTINATION lib/pkgconfig)

# The Debian package (`make package`): the same tree under /usr.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "weft developers <weft@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "task-dataflow runtime for C/C++: native API, libgomp drop-in, traces, simulator")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # weft_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# libc, libstdc++, libgcc, libprotobuf from the binaries (dpkg-shlibdeps);
# python3 and matplotlib for the plots of weft sim and weft mtt.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-matplotlib")
include(CPack)
