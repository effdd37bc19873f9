// Helpers of the enum name tables (treefix/core/names.hpp).
#include "treefix/core/names.hpp"

namespace treefix::detail {

bool alias_matches(const char* aliases, std::string_view word) {
  std::string_view rest = aliases;
  while (!rest.empty()) {
    auto bar = rest.find('|');
    if (rest.substr(0, bar) == word) return true;
    if (bar == std::string_view::npos) break;
    rest = rest.substr(bar + 1);
  }
  return false;
}

std::string join_alternatives(const std::string* names, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += i + 1 == count ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace treefix::detail
