// Cancellation (OMP_CANCELLATION): cancel and cancellation points for
// parallel, worksharing loops, sections and taskgroups. With cancellation
// off, both are no-ops that report false, as OpenMP requires.
#include "gomp.hpp"

namespace weft::gomp {
namespace {

bool is_cancelled(context &c, int which) {
  if (which & (kCancelLoop | kCancelSections)) {
    if (work_share *ws = c.m().ws)
      if (ws->cancelled.load(std::memory_order_acquire))
        return true;
  } else if (which & kCancelTaskgroup) {
    // Our taskgroup, or the worksharing taskgroup's enclosing one.
    for (taskgroup_state *g = innermost_group(c.w->current()); g;
         g = g->outer) {
      if (g->cancelled.load(std::memory_order_acquire))
        return true;
      break;
    }
  }
  return c.g->cancelled.load(std::memory_order_acquire);
}

} // namespace
} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

WEFT_GOMP_API bool GOMP_cancellation_point(int which) {
  if (!icv_global().cancellation)
    return false;
  context c = ctx();
  return is_cancelled(c, which);
}

WEFT_GOMP_API bool GOMP_cancel(int which, bool do_cancel) {
  if (!icv_global().cancellation)
    return false;
  context c = ctx();
  if (!do_cancel)
    return is_cancelled(c, which);
  if (which & (kCancelLoop | kCancelSections)) {
    if (work_share *ws = c.m().ws)
      ws->cancelled.store(true, std::memory_order_release);
    return true;
  }
  if (which & kCancelTaskgroup) {
    if (taskgroup_state *g = innermost_group(c.w->current()))
      g->cancelled.store(true, std::memory_order_release);
    return true;
  }
  if (which & kCancelParallel) {
    c.g->cancelled.store(true, std::memory_order_release);
    c.t->wake_all(nullptr); // members in a cancellable barrier leave it
    return true;
  }
  return false;
}
