// The FETCH datapath of the loop scheduler (section V-A): from the bank's
// registers LOOP_START (the next iteration not handed out), LOOP_END and
// LOOP_INCR (the chunk), the next chunk. The unit serves one FETCH at a time,
// so the datapath never overshoots LOOP_END: any end up to 2^64-1 and any
// chunk are exact. Guided (weft's extension) hands out ceil(left / members)
// iterations, never fewer than the chunk, as libgomp does.
#pragma once

#include <cstdint>

namespace weft::hwse {

struct loop_registers {
  uint64_t start; // LOOP_START: advanced by each FETCH
  uint64_t end;   // LOOP_END
  uint64_t incr;  // LOOP_INCR: the chunk (guided: the minimum chunk), >= 1
};

// The next chunk [*b, *e) and the new LOOP_START in r.start, or false (r
// unchanged) when no iteration is left. members: 0 for dynamic chunks, the
// team size for guided ones.
inline bool next_chunk(loop_registers &r, uint64_t members, uint64_t *b,
                       uint64_t *e) {
  if (r.start >= r.end)
    return false;
  const uint64_t left = r.end - r.start;
  uint64_t q = r.incr;
  if (members) {
    uint64_t share = left / members + (left % members != 0);
    if (share > q)
      q = share;
  }
  *b = r.start;
  *e = q >= left ? r.end : r.start + q;
  r.start = *e;
  return true;
}

} // namespace weft::hwse
