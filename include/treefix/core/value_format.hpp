#pragma once
// Values as text: one value per line; integers as integers, float with %.9g, double with %.17g
// (both round-trip).
#include <ostream>
#include <vector>

namespace treefix {

template <class T>
void write_values(std::ostream& out, const std::vector<T>& values);

}  // namespace treefix
