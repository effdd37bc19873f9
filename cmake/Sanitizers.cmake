# Sanitizer and fuzzing builds (tests/sanitize.sh drives both; the default build has neither).
#
#   TREEFIX_SANITIZE  every target of the project built with AddressSanitizer and UBSan; UBSan
#                     halts at its first report (-fno-sanitize-recover) so that a test fails
#                     instead of printing and going on.
#   TREEFIX_FUZZ      also the libFuzzer targets of the readers (tests/fuzz/). Clang only (GCC has
#                     no libFuzzer); implies TREEFIX_SANITIZE. Every object gets libFuzzer's
#                     coverage hooks (-fsanitize=fuzzer-no-link), so one build serves the
#                     sanitized program and tests and the fuzzers: the library is compiled once.
#                     Programs that do not link libFuzzer resolve the hooks to the sanitizer
#                     runtime's empty defaults.
# Must be included before the first target is defined: the options apply to every target.
option(TREEFIX_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(TREEFIX_FUZZ "Build the libFuzzer targets of the readers (Clang; implies TREEFIX_SANITIZE)"
       OFF)

if(TREEFIX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TREEFIX_FUZZ needs Clang with libFuzzer (Debian: clang-14 and "
                        "libclang-rt-14-dev), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  set(TREEFIX_SANITIZE ON)
endif()

if(TREEFIX_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "TREEFIX_SANITIZE needs GCC or Clang")
  endif()
  # Line tables only: reports name file:line at a fraction of the compile time of full -g.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer $<IF:$<CXX_COMPILER_ID:GNU>,-g1,-gline-tables-only>)
  add_link_options(-fsanitize=address,undefined)
endif()

if(TREEFIX_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
