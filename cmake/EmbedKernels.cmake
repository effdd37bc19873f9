# treefix_embed_kernels(OUTPUT file.cpp ROOT kernels/ SOURCES a.cl b.clh ...)
# Generates, at build time, a C++ file holding every kernel source as a raw string literal, so the
# library never needs the source tree at run time (the CLBlast way). Re-runs when a kernel changes.
set(TREEFIX_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_kernels_script.cmake)
function(treefix_embed_kernels)
  cmake_parse_arguments(ARG "" "OUTPUT;ROOT" "SOURCES" ${ARGN})
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DROOT=${ARG_ROOT} "-DSOURCES=${ARG_SOURCES}"
            -P ${TREEFIX_EMBED_SCRIPT}
    DEPENDS ${ARG_SOURCES} ${TREEFIX_EMBED_SCRIPT}
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()
