#include "core/engine_host.hpp"

#include "core/runtime.hpp"

namespace weft::engine_host {

void ready(runtime &rt, task *t) { rt.engine_ready(t); }

bool wake(runtime &rt, int id) {
  if (id < 0 || id >= rt.nthreads())
    return false;
  return rt.try_wake(rt.worker_at(id));
}

int workers(const runtime &rt) { return rt.nthreads(); }

worker *current_worker() { return tl_worker; }

void release_block(worker &w, void *block, uint16_t owner) {
  w.side_pool().release(block, owner, w.rt().side_pools());
}

} // namespace weft::engine_host
