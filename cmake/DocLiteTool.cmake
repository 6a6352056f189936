# The command-line tool: target `doclite-tool`, installed as `doclite` (the
# library target is `doclite`). swift-argument-parser is built from its
# sources (1.8.2, a version Package.swift accepts), fetched with git; its own CMake
# project is not added, so none of its options, tests or install rules apply.
include(FetchContent)
FetchContent_Declare(swift_argument_parser
  GIT_REPOSITORY https://github.com/apple/swift-argument-parser.git
  GIT_TAG 1.8.2)
FetchContent_GetProperties(swift_argument_parser)
if(NOT swift_argument_parser_POPULATED)
  FetchContent_Populate(swift_argument_parser)
endif()
file(GLOB_RECURSE ARGUMENT_PARSER_TOOL_INFO_SOURCES ${swift_argument_parser_SOURCE_DIR}/Sources/ArgumentParserToolInfo/*.swift)
add_library(ArgumentParserToolInfo STATIC ${ARGUMENT_PARSER_TOOL_INFO_SOURCES})
file(GLOB_RECURSE ARGUMENT_PARSER_SOURCES ${swift_argument_parser_SOURCE_DIR}/Sources/ArgumentParser/*.swift)
add_library(ArgumentParser STATIC ${ARGUMENT_PARSER_SOURCES})
set_target_properties(ArgumentParserToolInfo ArgumentParser PROPERTIES Swift_LANGUAGE_VERSION 5)
target_link_libraries(ArgumentParser PRIVATE ArgumentParserToolInfo)
target_compile_options(ArgumentParser PRIVATE -suppress-warnings)   # third-party deprecation notes

# The conformance-corpus runner the tool's `conformance` command uses.
file(GLOB DOCLITE_CONFORMANCE_SOURCES CONFIGURE_DEPENDS Sources/DocLiteConformance/*.swift)
add_library(DocLiteConformance STATIC ${DOCLITE_CONFORMANCE_SOURCES})
target_compile_options(DocLiteConformance PRIVATE -package-name DocLite)
target_link_libraries(DocLiteConformance PUBLIC DocLiteCore)

file(GLOB DOCLITE_TOOL_SOURCES CONFIGURE_DEPENDS Sources/doclite/*.swift)
add_executable(doclite-tool ${DOCLITE_TOOL_SOURCES})
set_target_properties(doclite-tool PROPERTIES OUTPUT_NAME doclite INSTALL_RPATH "${SWIFT_RUNTIME_DIR}")
target_compile_options(doclite-tool PRIVATE -package-name DocLite -parse-as-library)
target_link_libraries(doclite-tool PRIVATE DocLiteCore DocLiteConformance ArgumentParser)
install(TARGETS doclite-tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
