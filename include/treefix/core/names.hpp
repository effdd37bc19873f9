#pragma once
// The words for enum values: one table per enum, read by to_string, by parse and by the
// command line, so a name is spelled in exactly one place. A module declares the table next to
// its enum, inside namespace treefix:
//
//   enum class SortMode { automatic, on, off };
//   TREEFIX_ENUM_NAMES(SortMode, "sort mode",  // "sort mode": the enum's name in messages
//                      {SortMode::on, "on"}, {SortMode::off, "off"}, {SortMode::automatic,
//                      "auto"});
//
//   to_string(SortMode::automatic)  -> "auto"
//   parse<SortMode>("off")          -> SortMode::off
//   parse<SortMode>("maybe")        -> InputError "unknown sort mode 'maybe' (expected on, off or
//                                      auto)"
//   enum_name_map<SortMode>()       -> {"auto": automatic, "off": off, "on": on}, for CLI11's
//                                      CheckedTransformer (apps map option text through it)
//
// An entry may list other accepted spellings after the name: {ValueType::float32, "float",
// "float32"}. The macro only spells out the specialisation of EnumNames<E> (what, entries), which
// may also be written by hand.
#include <map>
#include <string>
#include <string_view>
#include <type_traits>

#include "treefix/core/error.hpp"

namespace treefix {

template <class E>
struct NameEntry {
  E value;
  const char* name;          // what to_string prints
  const char* aliases = "";  // other spellings parse accepts, '|'-separated ("" for none)
};

template <class E>
struct EnumNames;  // specialised next to each enum, by TREEFIX_ENUM_NAMES

#define TREEFIX_ENUM_NAMES(Enum, description, ...)              \
  template <>                                                   \
  struct EnumNames<Enum> {                                      \
    static constexpr const char* what = description;            \
    static constexpr NameEntry<Enum> entries[] = {__VA_ARGS__}; \
  }

namespace detail {
template <class E, class = void>
struct has_enum_names : std::false_type {};
template <class E>
struct has_enum_names<E, std::void_t<decltype(EnumNames<E>::entries)>> : std::true_type {};
template <class E>
using if_named = std::enable_if_t<has_enum_names<E>::value, int>;

bool alias_matches(const char* aliases, std::string_view word);
// "a, b or c"
std::string join_alternatives(const std::string* names, std::size_t count);
}  // namespace detail

template <class E, detail::if_named<E> = 0>
const char* to_string(const E& value) {  // by reference: CLI11's own to_string wins there
  for (const auto& entry : EnumNames<E>::entries)
    if (entry.value == value) return entry.name;
  return "?";
}

// The names of every value, in table order: "on, off or auto".
template <class E, detail::if_named<E> = 0>
std::string enum_names() {
  constexpr std::size_t count = std::size(EnumNames<E>::entries);
  std::string names[count];
  for (std::size_t i = 0; i < count; ++i) names[i] = EnumNames<E>::entries[i].name;
  return detail::join_alternatives(names, count);
}

template <class E, detail::if_named<E> = 0>
E parse(std::string_view word) {
  for (const auto& entry : EnumNames<E>::entries)
    if (word == entry.name || detail::alias_matches(entry.aliases, word)) return entry.value;
  throw InputError(std::string("unknown ") + EnumNames<E>::what + " '" + std::string(word) +
                   "' (expected " + enum_names<E>() + ")");
}

// Every accepted spelling (names and aliases) -> value.
template <class E, detail::if_named<E> = 0>
std::map<std::string, E> enum_name_map() {
  std::map<std::string, E> map;
  for (const auto& entry : EnumNames<E>::entries) {
    map.emplace(entry.name, entry.value);
    std::string_view rest = entry.aliases;
    while (!rest.empty()) {
      auto bar = rest.find('|');
      map.emplace(std::string(rest.substr(0, bar)), entry.value);
      rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    }
  }
  return map;
}

}  // namespace treefix
