# tactica_options: the common interface target every project target links.
# C++20, warnings on, optional sanitizers; nothing is set globally.
add_library(tactica_options INTERFACE)
add_library(tactica::options ALIAS tactica_options)
target_compile_features(tactica_options INTERFACE cxx_std_20)
target_compile_options(tactica_options INTERFACE -Wall -Wextra)
target_compile_definitions(tactica_options INTERFACE BOOST_DLL_USE_STD_FS)
if(TACTICA_SANITIZE)
  target_compile_options(tactica_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(tactica_options INTERFACE -fsanitize=address,undefined)
endif()

# tactica_add_subdirectories(): add_subdirectory() for every folder of the current source folder
# that has a CMakeLists.txt (plugins/, tests/: a new one is picked up without other edits). A
# macro, so the folders are added from the caller's scope.
macro(tactica_add_subdirectories)
  file(GLOB _tactica_subdirs LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(_tactica_dir IN LISTS _tactica_subdirs)
    if(IS_DIRECTORY ${_tactica_dir} AND EXISTS ${_tactica_dir}/CMakeLists.txt)
      add_subdirectory(${_tactica_dir})
    endif()
  endforeach()
endmacro()

# tactica_add_plugin(NAME SOURCES impl.cpp... EXPORT plugin.cpp)
#   tactica_<name>_impl: the strategy as a static library (PIC), for static links, the arena
#                        and fuse; tactica_<name>: the module build/<preset>/plugins/libtactica_<name>.so,
#                        hidden visibility except the Boost.DLL exports in plugin.cpp.
function(tactica_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT" "SOURCES")
  # One unity translation unit, sources in name order, as `tactica fuse` puts them in main.cpp:
  # helpers of two files that clash there (same names in anonymous namespaces) fail here.
  list(SORT arg_SOURCES)
  add_library(tactica_${name}_impl STATIC ${arg_SOURCES})
  target_link_libraries(tactica_${name}_impl PUBLIC tactica::core tactica::options)
  target_include_directories(tactica_${name}_impl PUBLIC ${PROJECT_SOURCE_DIR}/plugins)
  set_target_properties(tactica_${name}_impl PROPERTIES
    POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)

  add_library(tactica_${name} MODULE ${arg_EXPORT})
  target_link_libraries(tactica_${name} PRIVATE tactica_${name}_impl tactica::plugin_export)
  set_target_properties(tactica_${name} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME tactica_${name}
    LIBRARY_OUTPUT_DIRECTORY ${TACTICA_PLUGIN_OUTPUT_DIR}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  set_property(GLOBAL APPEND PROPERTY TACTICA_PLUGINS ${name})
endfunction()
