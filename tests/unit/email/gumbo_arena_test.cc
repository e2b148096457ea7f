// GumboArena: Gumbo's memory for one parse. The tree it builds there must be
// the tree Gumbo builds with malloc, and nothing may leak (the sanitizer
// builds check the latter).
#include "email/gumbo_arena.h"

#include <doctest/doctest.h>
#include <gumbo.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace scamcheck::internal;

namespace {

// The tree as text: element tags, attributes (name=value) and text nodes,
// in document order.
void dump(const GumboNode* node, std::string& out) {
  switch (node->type) {
    case GUMBO_NODE_DOCUMENT:
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE: {
      const GumboVector& children =
          node->type == GUMBO_NODE_DOCUMENT ? node->v.document.children : node->v.element.children;
      if (node->type != GUMBO_NODE_DOCUMENT) {
        out += '<';
        out += gumbo_normalized_tagname(node->v.element.tag);
        const GumboVector& attrs = node->v.element.attributes;
        for (unsigned i = 0; i < attrs.length; ++i) {
          const auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
          out += ' ';
          out += a->name;
          out += '=';
          out += a->value;
        }
        out += '>';
      }
      for (unsigned i = 0; i < children.length; ++i) {
        dump(static_cast<const GumboNode*>(children.data[i]), out);
      }
      out += "</>";
      break;
    }
    default:
      out += '[';
      out += node->v.text.text;
      out += ']';
  }
}

std::string parse_with_malloc(const std::string& html) {
  GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::string tree;
  dump(output->document, tree);
  gumbo_destroy_output(&kGumboDefaultOptions, output);
  return tree;
}

std::string parse_in_arena(const std::string& html) {
  GumboArena arena;
  GumboOptions options = arena.options(kGumboDefaultOptions);
  GumboOutput* output = gumbo_parse_with_options(&options, html.data(), html.size());
  std::string tree;
  dump(output->document, tree);
  return tree;  // the arena frees the output
}

}  // namespace

TEST_CASE("blocks are aligned, distinct and writable; large ones can be freed early") {
  GumboArena arena;
  std::vector<char*> blocks;
  std::set<char*> seen;
  for (std::size_t size : {0, 1, 7, 16, 100, 1023, 1024, 5000, 70000, 3, 200000, 64}) {
    auto* p = static_cast<char*>(arena.allocate(size));
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % 16 == 0);
    CHECK(seen.insert(p).second);
    std::memset(p, 0xAB, size);
    blocks.push_back(p);
  }
  // Freeing a large block returns it at once; freeing a small one is a
  // no-op; the rest goes with the arena.
  arena.deallocate(blocks[5]);
  arena.deallocate(blocks[10]);
  arena.deallocate(blocks[2]);
  arena.deallocate(nullptr);
  // Many small blocks span several chunks.
  for (int i = 0; i < 10000; ++i) std::memset(arena.allocate(40), i & 0xFF, 40);
}

TEST_CASE("Gumbo builds the same tree in the arena as with malloc") {
  std::vector<std::string> pages = {
      "",
      "plain text & more &amp; &copy2024 &#104;&#x74;",
      "<html><head><title>t</title><style>p{color:red}</style></head><body><p>Hi <b>you"
      "<table><tr><td>cell<td>two</table><form action=/x><input type=password></form>"
      "<!-- note --><a href='https://example.com/?a=1&b=2'>link</a></body></html>",
      "<div><div><span>unclosed<p>para<li>item</ul></td></svg><math><mi>x</mi></math>"
      "<template><p>in template</template><select><option>o<option>p</select>",
      "<table>foster <b>parented</b><tr>text</table><frameset><frame></frameset>",
  };
  // Long and deep: buffers and vectors that grow past the large-block size.
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "<div class=\"c" + std::to_string(i) + "\">";
  deep += std::string(50000, 'x');
  pages.push_back(deep);
  std::mt19937 rng(22);
  const std::string alphabet = "<>/=\"' &#;abpdivtrscript-!\n\xC3\xA4";
  for (int n = 0; n < 200; ++n) {
    std::string s;
    const int len = static_cast<int>(rng() % 400);
    for (int i = 0; i < len; ++i) s += alphabet[rng() % alphabet.size()];
    pages.push_back(s);
  }
  for (const std::string& html : pages) {
    CAPTURE(html.substr(0, 80));
    CHECK(parse_in_arena(html) == parse_with_malloc(html));
  }
}
