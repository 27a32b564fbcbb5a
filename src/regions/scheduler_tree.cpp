#include "scheduler_tree.hpp"

#include "base/check.hpp"
#include "base/env.hpp"
#include "base/error.hpp"

#include <algorithm>
#include <cstring>

namespace weft::regions {

namespace {
constexpr uint64_t kMaxFanout = 64;
constexpr std::size_t kMaxSchedulers = 4096;
} // namespace

bool scheduler::is_ancestor_of(const scheduler &s) const {
  for (const scheduler *x = &s; x; x = x->parent)
    if (x == this)
      return true;
  return false;
}

bool parse_scheduler_shape(const char *text, std::vector<int> &fanouts,
                           std::string &error) {
  fanouts.clear();
  if (!text || !std::strcmp(text, "flat") || !std::strcmp(text, "1"))
    return true;
  auto bad = [&](const char *why) {
    error = std::string("WEFT_SCHEDULERS=") + text + ": " + why +
            " (expected flat, 1, or 1xA[xB...] such as 1x2, 1x4, 1x2x2: one "
            "top scheduler, then the fan-out of each level, in [1, 64])";
    fanouts.clear();
    return false;
  };
  std::string_view rest(text);
  if (rest.substr(0, 2) != "1x")
    return bad("the top level must be one scheduler");
  rest.remove_prefix(2);
  std::size_t total = 1, at_level = 1;
  while (true) {
    std::size_t x = rest.find('x');
    std::string part(rest.substr(0, x));
    uint64_t f;
    if (!env::parse_uint(part.c_str(), 1, kMaxFanout, f))
      return bad(part.empty() ? "an empty fan-out"
                              : "a fan-out not in [1, 64]");
    fanouts.push_back(int(f));
    if (fanouts.size() > 15)
      return bad("more than 16 levels");
    at_level *= f;
    total += at_level;
    if (total > kMaxSchedulers)
      return bad("more than 4096 schedulers");
    if (x == std::string_view::npos)
      return true;
    rest.remove_prefix(x + 1);
  }
}

scheduler_tree::scheduler_tree() {
  const char *v = env::get("WEFT_SCHEDULERS");
  std::vector<int> fanouts;
  std::string error;
  if (!parse_scheduler_shape(v, fanouts, error))
    fatal("%s", error.c_str());
  build(fanouts);
  if (v)
    shape_ = v;
}

scheduler_tree::scheduler_tree(const std::vector<int> &fanouts) {
  build(fanouts);
  if (!fanouts.empty()) {
    shape_.clear();
    shape_ = "1";
    for (int f : fanouts)
      shape_ += "x" + std::to_string(f);
  }
}

scheduler_tree::~scheduler_tree() {
  for (scheduler *s : all_)
    delete s;
}

void scheduler_tree::build(const std::vector<int> &fanouts) {
  levels_ = int(fanouts.size()) + 1;
  // Pre-order numbering: an ancestor's id is below its descendants'.
  auto make = [&](auto &self, scheduler *parent, int level) -> void {
    auto *s = new scheduler;
    s->id = int(all_.size());
    s->level = level;
    s->parent = parent;
    all_.push_back(s);
    if (parent)
      parent->children.push_back(s);
    if (level < int(fanouts.size()))
      for (int i = 0; i < fanouts[std::size_t(level)]; ++i)
        self(self, s, level + 1);
  };
  make(make, nullptr, 0);
}

scheduler &scheduler_tree::lca(scheduler &a, scheduler &b) {
  scheduler *x = &a, *y = &b;
  while (x->level > y->level)
    x = x->parent;
  while (y->level > x->level)
    y = y->parent;
  while (x != y) {
    x = x->parent;
    y = y->parent;
  }
  return *x;
}

scheduler &scheduler_tree::place_region(scheduler &parent_owner,
                                        int level_hint) {
  scheduler *s = &parent_owner;
  while (s->level < level_hint && !s->children.empty())
    s = *std::min_element(s->children.begin(), s->children.end(),
                          [](auto *a, auto *b) {
                            return a->regions.load(std::memory_order_relaxed) <
                                   b->regions.load(std::memory_order_relaxed);
                          });
  for (scheduler *x = s; x; x = x->parent)
    x->regions.fetch_add(1, std::memory_order_relaxed);
  return *s;
}

void scheduler_tree::unplace_region(scheduler &owner) {
  for (scheduler *x = &owner; x; x = x->parent)
    x->regions.fetch_sub(1, std::memory_order_relaxed);
}

sched_locks::~sched_locks() {
  for (auto it = held_.rbegin(); it != held_.rend(); ++it)
    (*it)->lock.unlock();
}

bool sched_locks::holds(const scheduler &s) const {
  return std::find(held_.begin(), held_.end(), &s) != held_.end();
}

void sched_locks::take_top(scheduler &s) {
  WEFT_CHECK(held_.empty(), "a scheduler lock taken as a top while holding "
                            "others (lock order)");
  s.lock.lock();
  held_.push_back(&s);
}

void sched_locks::extend_to(scheduler &s) {
  scheduler *path[64];
  int n = 0;
  scheduler *x = &s;
  while (!holds(*x)) {
    WEFT_CHECK(x->parent && n < 64,
               "extend_to: scheduler %d is not below "
               "the held ones",
               s.id);
    path[n++] = x;
    x = x->parent;
  }
  while (n > 0) {
    scheduler *y = path[--n];
    y->lock.lock();
    held_.push_back(y);
  }
}

void sched_locks::extend_subtree(scheduler &s) {
  for (scheduler *c : s.children) {
    if (!holds(*c)) {
      c->lock.lock();
      held_.push_back(c);
    }
    extend_subtree(*c);
  }
}

} // namespace weft::regions
