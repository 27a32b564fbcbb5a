// The places of this process: one arena each, made on first use (from
// WEFT_PLACES and WEFT_PLACE_BYTES) or by places_init.
#pragma once

#include "arena.hpp"

#include <memory>
#include <vector>

namespace weft::places {

struct place_set {
  std::vector<std::unique_ptr<arena>> arenas;
};

// The running set (made on first use).
place_set &current_places();
// The arena of place p; throws std::invalid_argument naming call and p.
arena &arena_of_place(const char *call, int p);
// The arena whose range holds ptr, or nullptr.
arena *arena_holding(const void *ptr);

} // namespace weft::places
