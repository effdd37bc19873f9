#pragma once
// What a refusal says: the message of the error a call raises, for the tests that check it.
#include <doctest/doctest.h>

#include <string>

#include "treefix/core/error.hpp"

namespace treefix::test {

// The message of the treefix::Error (InputError, CapacityError, ...) that `run` raises; a test
// failure when it raises none.
template <class Run>
std::string error_of(Run run) {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("expected an error");
  return "";
}

}  // namespace treefix::test
