// The shape of a tree of schedulers, written "flat" or "1" (one scheduler)
// or 1xF1x...xFn (one top scheduler with F1 children, each with F2 children,
// ..., n+1 levels in all): the grammar of WEFT_SCHEDULERS (the region layer's
// scheduler tree) and of `weft sim --model myrmics --param schedulers=`. One
// parser for both, each with its own limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

// Limits of a shape; 0: none.
struct tree_shape_limits {
  uint64_t max_fanout;     // each Fi in [1, max_fanout] (required, > 0)
  std::size_t max_levels;  // levels, the top included
  uint64_t max_schedulers; // schedulers in all, the top included
  uint64_t max_leaves;     // schedulers of the lowest level
};

// Parses text into the fan-outs below the top ({} for "flat", "1" and a
// null text). On a bad value returns false with fanouts empty and error set
// to "<name>=<text>: <why> (expected flat, 1, or 1xA[xB...] ...)", where
// name is what the user wrote the value as (an environment variable, a
// command-line parameter).
bool parse_tree_shape(const char *name, const char *text,
                      const tree_shape_limits &limits,
                      std::vector<uint32_t> &fanouts, std::string &error);

} // namespace weft
