#pragma once
// The library's central choice: a rootfix combines every vertex's weight with its ancestors'
// (root to vertex), a leaffix with its descendants' (vertex's subtree). The name a command, a
// bench table or a file uses for each is "rootfix" or "leaffix".
#include <string>

#include "treefix/core/error.hpp"

namespace treefix {

enum class Fix { root, leaf };

inline const char* to_string(Fix fix) { return fix == Fix::root ? "rootfix" : "leaffix"; }

// "rootfix" or "leaffix"; InputError naming `text` otherwise.
inline Fix parse_fix(const std::string& text) {
  if (text == "rootfix") return Fix::root;
  if (text == "leaffix") return Fix::leaf;
  throw InputError("'" + text + "' is not rootfix or leaffix");
}

}  // namespace treefix
