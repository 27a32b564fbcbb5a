#include "base/tree_shape.hpp"

#include "base/env.hpp"

#include <cstring>
#include <string_view>

namespace weft {

bool parse_tree_shape(const char *name, const char *text,
                      const tree_shape_limits &limits,
                      std::vector<uint32_t> &fanouts, std::string &error) {
  fanouts.clear();
  if (!text || !std::strcmp(text, "flat") || !std::strcmp(text, "1"))
    return true;
  auto bad = [&](const std::string &why) {
    error = std::string(name) + "=" + text + ": " + why +
            " (expected flat, 1, or 1xA[xB...] such as 1x2, 1x4, 1x2x2: one "
            "top scheduler, then the fan-out of each level, in [1, " +
            std::to_string(limits.max_fanout) + "])";
    fanouts.clear();
    return false;
  };
  std::string_view rest(text);
  if (rest.substr(0, 2) != "1x")
    return bad("the top level must be one scheduler");
  rest.remove_prefix(2);
  uint64_t total = 1, at_level = 1;
  for (;;) {
    std::size_t x = rest.find('x');
    std::string part(rest.substr(0, x));
    uint64_t f;
    if (!env::parse_uint(part.c_str(), 1, limits.max_fanout, f))
      return bad("'" + part + "' is not a fan-out in [1, " +
                 std::to_string(limits.max_fanout) + "]");
    fanouts.push_back(uint32_t(f));
    if (limits.max_levels && fanouts.size() + 1 > limits.max_levels)
      return bad("more than " + std::to_string(limits.max_levels) + " levels");
    at_level *= f;
    total += at_level;
    if (limits.max_schedulers && total > limits.max_schedulers)
      return bad("more than " + std::to_string(limits.max_schedulers) +
                 " schedulers");
    // Each level is at least as wide as the one above: a level too wide
    // means leaves too many (and the product cannot overflow).
    if (limits.max_leaves && at_level > limits.max_leaves)
      return bad("more than " + std::to_string(limits.max_leaves) +
                 " leaf schedulers");
    if (x == std::string_view::npos)
      return true;
    rest.remove_prefix(x + 1);
  }
}

} // namespace weft
