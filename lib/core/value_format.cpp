// Values as text (treefix/core/value_format.hpp).
#include "treefix/core/value_format.hpp"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <type_traits>

namespace treefix {

template <class T>
void write_values(std::ostream& out, const std::vector<T>& values) {
  std::string text;
  char buf[40];
  for (const T& v : values) {
    int len;
    if constexpr (std::is_same_v<T, float>)
      len = std::snprintf(buf, sizeof buf, "%.9g\n", v);
    else if constexpr (std::is_same_v<T, double>)
      len = std::snprintf(buf, sizeof buf, "%.17g\n", v);
    else
      len = std::snprintf(buf, sizeof buf, "%" PRId64 "\n", static_cast<std::int64_t>(v));
    text.append(buf, len);
    if (text.size() > (1 << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

template void write_values<std::int32_t>(std::ostream&, const std::vector<std::int32_t>&);
template void write_values<std::int64_t>(std::ostream&, const std::vector<std::int64_t>&);
template void write_values<float>(std::ostream&, const std::vector<float>&);
template void write_values<double>(std::ostream&, const std::vector<double>&);

}  // namespace treefix
