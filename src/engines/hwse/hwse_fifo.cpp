#include "hwse_fifo.hpp"

#include "base/error.hpp"

namespace weft::hwse {

fifo::fifo(uint32_t depth) : depth_(static_cast<uint16_t>(depth)) {
  if (depth != 32 && depth != 64 && depth != 128)
    fatal("hwse: a FIFO of %u entries (the unit has 32, 64 or 128)", depth);
  slot_ = std::make_unique<void *[]>(depth);
}

} // namespace weft::hwse
