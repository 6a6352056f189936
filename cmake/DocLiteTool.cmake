# The command-line tool: target `doclite-tool`, installed as `doclite` (the
# library target is `doclite`), from Tools/ (a package of its own, so that the
# library's users never resolve swift-argument-parser). swift-argument-parser is
# built from the checkout SwiftPM resolved for Tools/Package.swift (resolved here
# when it has not been), so both builds compile the same code and that manifest
# holds the only pin. Its own CMake project is not added, so none of its options, tests or
# install rules apply.
set(ARGUMENT_PARSER_DIR ${CMAKE_CURRENT_SOURCE_DIR}/Tools/.build/checkouts/swift-argument-parser)
if(NOT EXISTS ${ARGUMENT_PARSER_DIR}/Sources/ArgumentParser)
  find_program(SWIFT_PROGRAM swift HINTS ${SWIFT_BIN_DIR} REQUIRED)
  execute_process(COMMAND ${SWIFT_PROGRAM} package resolve
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/Tools RESULT_VARIABLE DOCLITE_RESOLVE_RESULT)
  if(NOT DOCLITE_RESOLVE_RESULT EQUAL 0 OR NOT EXISTS ${ARGUMENT_PARSER_DIR}/Sources/ArgumentParser)
    message(FATAL_ERROR "swift package resolve did not check out swift-argument-parser in ${ARGUMENT_PARSER_DIR}")
  endif()
endif()
file(GLOB_RECURSE ARGUMENT_PARSER_TOOL_INFO_SOURCES CONFIGURE_DEPENDS ${ARGUMENT_PARSER_DIR}/Sources/ArgumentParserToolInfo/*.swift)
add_library(ArgumentParserToolInfo STATIC ${ARGUMENT_PARSER_TOOL_INFO_SOURCES})
file(GLOB_RECURSE ARGUMENT_PARSER_SOURCES CONFIGURE_DEPENDS ${ARGUMENT_PARSER_DIR}/Sources/ArgumentParser/*.swift)
add_library(ArgumentParser STATIC ${ARGUMENT_PARSER_SOURCES})
set_target_properties(ArgumentParserToolInfo ArgumentParser PROPERTIES Swift_LANGUAGE_VERSION 5)
target_link_libraries(ArgumentParser PRIVATE ArgumentParserToolInfo)
target_compile_options(ArgumentParser PRIVATE -suppress-warnings)   # third-party deprecation notes

file(GLOB DOCLITE_TOOL_SOURCES CONFIGURE_DEPENDS Tools/Sources/doclite/*.swift)
add_executable(doclite-tool ${DOCLITE_TOOL_SOURCES})
set_target_properties(doclite-tool PROPERTIES OUTPUT_NAME doclite INSTALL_RPATH "${SWIFT_RUNTIME_DIR}"
  BUILD_WITH_INSTALL_RPATH ON)   # (no empty RUNPATH entries: see libdoclite)
target_compile_options(doclite-tool PRIVATE -package-name DocLite -parse-as-library)
target_link_libraries(doclite-tool PRIVATE DocLiteCore DocLiteConformance ArgumentParser)
install(TARGETS doclite-tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
