#pragma once
// Values as text, one per line: integers as integers, float and double in the shortest form that
// reads back to the same value (std::to_chars, so "0.1" and not "0.10000000000000001"). Large
// arrays are formatted on every host core, a slice per core at a time, and written in order.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace treefix {

template <class T>
void write_values(std::ostream& out, const T* values, std::size_t count);
template <class T>
void write_values(std::ostream& out, const std::vector<T>& values) {
  write_values(out, values.data(), values.size());
}

// Text made a slice at a time on every host core and written in slice order: format(text, s)
// appends the text of slice s < slices to an empty string. Two slices per thread at a time bound
// the text held in memory. write_values and the graph writers are made of it.
void write_slices(std::ostream& out, std::size_t slices,
                  const std::function<void(std::string& text, std::size_t slice)>& format);

// Appends values[0 .. count) to `text`, one per line (what write_values does per slice).
template <class T>
void format_values(std::string& text, const T* values, std::size_t count);

}  // namespace treefix
