// Fuzz target: any XML document as a tree (parse_xml_tree), weighted by text length and by an
// attribute. An accepted document gives a forest of one root with a name per element.
#include "fuzz_support.hpp"
#include "treefix/forest/xml_tree.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  XmlTreeOptions options[2];
  options[0].weight = XmlWeight::text_length;
  options[1].weight = XmlWeight::attribute;
  options[1].attribute = "w";
  for (const XmlTreeOptions& option : options) {
    XmlTree tree;
    if (fuzz::expect_refusal(
            [&] { tree = parse_xml_tree(fuzz::as_text(data, size), "fuzz.xml", option); })) {
      validate_parent_array(tree.parent);
      fuzz::require(tree.names.size() == tree.size() && tree.weight.size() == tree.size(),
                    "a name and a weight per element");
    }
  }
  return 0;
}
