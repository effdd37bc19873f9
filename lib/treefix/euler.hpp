#pragma once
// Internal to the treefix module: the Euler-tour method, called by the dispatch in treefix.cpp.
#include "treefix/treefix/treefix.hpp"

namespace treefix::detail {

using Fix = treefix::Fix;  // treefix/treefix/fix.hpp

// result = rootfix or leaffix of weights over tree's Euler tour (built on first use). The caller
// has checked the arrays and the operator.
template <class T>
void euler_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                   DeviceArray<T>& result, const TreefixOptions& options, Fix fix);

}  // namespace treefix::detail
