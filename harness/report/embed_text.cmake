# cmake -DIN=page.html -DOUT=page.cpp -DNAME=kSymbol -P embed_text.cmake
# Writes a C++ file defining `const std::string_view tactica::report::NAME` holding the bytes of
# IN as a raw string literal, so the page can be edited as HTML and still ship inside `tactica`.
file(READ "${IN}" content)
set(delim "tactica_embed")
string(FIND "${content}" ")${delim}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )${delim}\"")
endif()
get_filename_component(name "${IN}" NAME)
file(WRITE "${OUT}.tmp"
  "// Generated from ${name} by embed_text.cmake at build time; edit ${name}, not this file.\n"
  "#include <string_view>\n"
  "namespace tactica::report {\n"
  "extern const std::string_view ${NAME};\n"
  "const std::string_view ${NAME} = R\"${delim}(${content})${delim}\";\n"
  "}  // namespace tactica::report\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
