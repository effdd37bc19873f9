// Fuzz target: RuleML documents, through both readers: parse_ruleml (the nested tree, in
// memory) and read_ruleml_forest (the file walked straight into the linear layout). Both must
// agree on which documents they accept.
#include "fuzz_support.hpp"
#include "treefix/forest/ruleml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const bool nested = fuzz::expect_refusal(
      [&] { parse_ruleml(std::string(fuzz::as_text(data, size)), "fuzz.xml"); });
  Interner interner;
  const bool linear =
      fuzz::expect_refusal([&] { read_ruleml_forest(fuzz::as_file(data, size), interner, 1); });
  fuzz::require(nested == linear, "both RuleML readers accept the same documents");
  return 0;
}
