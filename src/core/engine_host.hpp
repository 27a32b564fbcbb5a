// What an engine may call back into the core. engines/engine.hpp is what the
// core calls in an engine; this header is the other direction, and the only
// part of the core an engine includes besides the task descriptor
// (core/task.hpp), the worker it is handed (core/worker.hpp: id(),
// make_ready(), help_once(), release_ref(), pool()) and its per-worker
// tables (core/per_worker_table.hpp). Engines never include runtime.hpp.
#pragma once

#include "base/backoff.hpp"
#include "core/task.hpp"
#include "core/worker.hpp"

#include <cstdint>

namespace weft {

class runtime;

// A submit answered "full" with no other work to run: spin, yield, then give
// up (the core serializes the task, submit_result::serialize). An engine
// waiting for room on behalf of a waiter follows the same policy. Few
// yields: on a loaded machine each one can give away a whole time slice, and
// a deep recursion with dependences under a tiny unit comes here for most of
// its tasks (docs/engines.md, "Serialized tasks").
inline constexpr backoff_policy kFullBackoff{63, 8};

namespace engine_host {

// From any thread (an engine's manager thread too): t is ready. It is queued
// in its own team and a member is woken, or, a TASK_WAITER, its waiting
// thread resumes.
void ready(runtime &rt, task *t);

// Wakes worker id if it sleeps (any thread); true if it did. An id of a
// worker that does not exist (yet) is ignored.
bool wake(runtime &rt, int id);

// The team t runs in (that of the worker that spawned it).
inline team *home_team(const task *t) { return t->home->owner; }

// Workers that exist; they only ever grow in number.
int workers(const runtime &rt);

// The calling thread's worker; nullptr for threads weft does not know.
worker *current_worker();

// Returns a block the engine took from w's side pool (or another worker's,
// worker::side_pool) to the side pool it came from (`owner`, as
// task::owner); w is the calling worker.
void release_block(worker &w, void *block, uint16_t owner);

} // namespace engine_host
} // namespace weft
