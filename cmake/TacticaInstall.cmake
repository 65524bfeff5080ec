# `cmake --install` and `cpack -G DEB` (issue 12): a working tree under the prefix —
#   bin/                      tactica, tactica-agent, the static agents and the baselines
#   lib/tactica/plugins/      the strategy modules (where the loader looks beside bin/)
#   share/tactica/configs/    the shipped configs and suites
#   share/tactica/source/     core/include and plugins/, what `tactica fuse` inlines
#   share/doc/tactica/        README.md and docs/
install(TARGETS tactica tactica-agent RUNTIME DESTINATION bin)
get_property(_install_plugins GLOBAL PROPERTY TACTICA_PLUGINS)
foreach(p IN LISTS _install_plugins)
  install(TARGETS tactica_${p} LIBRARY DESTINATION lib/tactica/plugins)
endforeach()
if(TACTICA_STATIC_AGENT_TARGETS)
  install(TARGETS ${TACTICA_STATIC_AGENT_TARGETS} RUNTIME DESTINATION bin)
endif()
if(TACTICA_BASELINE_TARGETS)
  install(TARGETS ${TACTICA_BASELINE_TARGETS} RUNTIME DESTINATION bin)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION share/tactica/configs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/ DESTINATION share/tactica/source/core/include)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/plugins/ DESTINATION share/tactica/source/plugins
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/tactica)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/tactica)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tactica)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Write, compare, tune and submit game-playing agents for Hanpang and Icebreaking")
set(CPACK_PACKAGE_CONTACT "Tactica developers <tactica@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # the runtime libraries' packages, from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, parallel")  # fuse's output is compiled; tune --sshlogin
include(CPack)
