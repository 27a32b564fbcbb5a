#include "nexus_rtl_engine.hpp"

#include "base/error.hpp"
#include "core/engine_host.hpp"
#include "engines/nexus/nexus_config.hpp"
#include "engines/nexus/nexus_domain.hpp"
#include "engines/nexus/nexus_task_maestro.hpp"
#include "nexus_rtl_port.hpp"
#include "rtl_fork_guard.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {
namespace {

constexpr uint64_t kAddrLimit = uint64_t(1) << 48;
constexpr uint32_t kTagLimit = 1u << 16;
// A task without parameters refused this many times in a row runs without
// the unit (as the nexus engine does: nested programs stay live).
constexpr uint32_t kBypassAfter = 4;
// Back-pressure mode: tasks queued to the server and not yet in the unit
// beyond which submit answers full (the New FIFO's 32 words, in tasks).
constexpr uint64_t kHeldLimit = 32;
// Back-pressure mode: a head blocked this long with no finish arriving is a
// deadlock (a task waiting for children that wait for room) and fatal.
constexpr auto kBlockedLimit = std::chrono::seconds(10);

class nexus_rtl_engine final : public dependency_engine, private nexus_port {
public:
  explicit nexus_rtl_engine(const nexus_config &c)
      : cfg_(c), backpressure_(is_small(c)), unit_(c, *this, !backpressure_),
        rtl_(make_rtl(c)) {}
  ~nexus_rtl_engine() override { stop(); }

  const char *name() const override { return "nexus-rtl"; }

  void start(runtime &rt) override {
    rt_ = &rt;
    if (!server_.joinable()) {
      stop_ = false;
      server_ = std::thread([this] { serve(); });
    }
  }
  void stop() override {
    if (!server_.joinable())
      return;
    {
      std::lock_guard<std::mutex> g(lock_);
      stop_ = true;
    }
    cv_.notify_one();
    server_.join();
  }

  submit_result submit(worker &, task *parent, task *t, const weft_dep *deps,
                       int ndeps) override {
    nexus_descriptor d;
    d.t = t;
    std::vector<nexus_param> spill;
    format(parent, d, deps, ndeps, true, spill);
    if (d.n > rtl_->config().max_params || !unit_.fits_ever(d)) {
      serialized_.fetch_add(1, std::memory_order_relaxed);
      return submit_result::serialize;
    }
    if (backpressure_) {
      if (held_.load(std::memory_order_relaxed) >= kHeldLimit)
        return refused(t, d);
      if (d.dom)
        d.dom->ref();
      held_.fetch_add(1, std::memory_order_relaxed);
      nexus_own_params(d);
      queue(request{d, 0, false});
      return submit_result::pending;
    }
    if (d.dom)
      d.dom->ref(); // the task's, while it is in the unit
    if (unit_.reserve(d) != nexus_refusal::none) {
      if (d.dom)
        d.dom->unref();
      return refused(t, d);
    }
    nexus_own_params(d);
    queue(request{d, 0, false});
    return submit_result::pending;
  }

  void retire(worker &, task *t) override {
    if (t->engine_data == 0)
      return; // run by the core without the engine
    nexus_descriptor none;
    queue(request{none, t->engine_data - 1, true});
  }

  wait_result wait_deps(worker &, task *parent, task *waiter,
                        const weft_dep *deps, int ndeps) override {
    nexus_descriptor d;
    d.t = waiter;
    d.waiter = true;
    std::vector<nexus_param> spill;
    if (!format(parent, d, deps, ndeps, false, spill) || d.n == 0)
      return wait_result::none;
    if (backpressure_ || d.n > rtl_->config().max_params ||
        !unit_.fits_ever(d) || unit_.reserve(d) != nexus_refusal::none) {
      wait_all_.fetch_add(1, std::memory_order_relaxed);
      return wait_result::all;
    }
    d.dom->ref();
    nexus_own_params(d);
    queue(request{d, 0, false});
    return wait_result::waiter; // the server releases it
  }

  void children_done(worker &, task *) override {}
  void task_end(worker &, task *parent) override {
    nexus_domain *d = domain_of(parent);
    parent->domain = nullptr;
    d->unref();
  }
  void task_free(worker &, task *) override {}
  void add_stats(engine_stats &out) const override;

private:
  struct request {
    nexus_descriptor d;
    uint32_t id;
    bool finish;
  };
  struct output {
    task *t;
    bool waiter;
  };

  static bool sized(const nexus_config &c, const nexus_rtl::sizes &s) {
    return c.pool == s.pool && c.params == s.params && c.sets == s.sets &&
           c.ways == s.ways && c.kol == s.kol && c.dummy_kol == s.dummy_kol;
  }
  static bool is_small(const nexus_config &c) {
    return sized(c, nexus_rtl::kSmall);
  }
  static std::unique_ptr<nexus_rtl::port> make_rtl(const nexus_config &c) {
    if (is_small(c))
      return nexus_rtl::make_port(nexus_rtl::kSmall);
    const nexus_rtl::sizes &s = nexus_rtl::kTableI;
    const nexus_rtl::sizes &m = nexus_rtl::kSmall;
    if (!sized(c, s))
      fatal("nexus-rtl: only Table I's sizes (WEFT_NEXUS_POOL %u, _PARAMS "
            "%u, _SETS %u, _WAYS %u, _KOL %u, _DUMMY_KOL %u) and the small "
            "unit's (%u, %u, %u, %u, %u, %u) are verilated",
            s.pool, s.params, s.sets, s.ways, s.kol, s.dummy_kol, m.pool,
            m.params, m.sets, m.ways, m.kol, m.dummy_kol);
    return nexus_rtl::make_port(s);
  }

  bool format(task *parent, nexus_descriptor &d, const weft_dep *deps,
              int ndeps, bool create_domain, std::vector<nexus_param> &spill) {
    if (!nexus_prepare(d, parent, deps, ndeps, create_domain, spill, domains_))
      return false;
    if (d.n == 0)
      return true;
    if (d.tag >= kTagLimit)
      fatal("nexus-rtl: dependence domain tag %u does not fit the unit's "
            "16-bit key field",
            d.tag);
    const nexus_param *p = d.params();
    for (uint32_t i = 0; i < d.n; ++i)
      if (p[i].addr >= kAddrLimit)
        fatal("nexus-rtl: dependence address %#lx does not fit the unit's "
              "48-bit key field",
              static_cast<unsigned long>(p[i].addr));
    return true;
  }

  submit_result refused(task *t, const nexus_descriptor &d) {
    if (d.n != 0)
      return submit_result::full;
    thread_local task *last = nullptr;
    thread_local uint32_t count = 0;
    if (last != t) {
      last = t;
      count = 0;
    }
    if (++count < kBypassAfter)
      return submit_result::full;
    last = nullptr;
    bypassed_.fetch_add(1, std::memory_order_relaxed);
    return submit_result::ready;
  }

  void queue(request r) {
    fork_.check("nexus-rtl");
    {
      std::lock_guard<std::mutex> g(lock_);
      queue_.push_back(r);
    }
    cv_.notify_one();
  }

  // nexus_port: the server is the only reader of the model's Ready FIFO.
  uint64_t make_room() override {
    drain_model_ready();
    return 1;
  }
  void ready_written() override { drain_model_ready(); }
  void waiter_released(task *w) override { model_out_.push_back({w, true}); }
  void drain_model_ready() {
    task *t;
    while (unit_.ready_fifo().try_pop(t))
      model_out_.push_back({t, false});
  }

  void serve();
  void run_batch(std::vector<request> &batch);
  // Back-pressure mode: the batch's insertions behind those still held,
  // offered in order until the model refuses one (the unit's blocked head).
  // Returns whether the head is blocked.
  bool insert_held(std::vector<request> &batch);
  void send(const request &r);

  nexus_config cfg_;
  // The small unit: no reservations; the unit's own back-pressure decides
  // (a head that does not fit blocks it until a finish), the model in
  // lockstep refusing the same head.
  bool backpressure_;
  rtl::fork_guard fork_;
  nexus_domains domains_;
  nexus_task_maestro unit_; // the functional model
  std::unique_ptr<nexus_rtl::port> rtl_;
  runtime *rt_ = nullptr;

  std::mutex lock_;
  std::condition_variable cv_;
  std::vector<request> queue_;
  bool stop_ = false;
  std::thread server_;

  // Server only.
  std::vector<output> model_out_;
  std::vector<nexus_rtl::ready_word> rtl_out_;
  std::vector<nexus_rtl::param> params_;
  std::deque<request> held_q_; // back-pressure mode: not yet in the unit
  bool head_sent_ = false;     // held_q_'s front is in the unit, blocked
  std::chrono::steady_clock::time_point blocked_since_;

  // Written by the server, read by add_stats.
  std::atomic<uint64_t> batches_{0}, max_batch_{0}, sim_ns_{0}, server_ns_{0};
  std::atomic<uint64_t> model_insert_cycles_{0}, model_finish_cycles_{0};
  std::atomic<uint64_t> rtl_cycles_{0}, rtl_insert_cycles_{0},
      rtl_finish_cycles_{0}, rtl_inserts_{0}, rtl_finishes_{0};
  std::atomic<uint64_t> serialized_{0}, wait_all_{0}, bypassed_{0};
  std::atomic<uint64_t> held_{0}, blocked_batches_{0}, blocked_cycles_{0};
};

void nexus_rtl_engine::serve() {
  std::vector<request> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> g(lock_);
      if (head_sent_) {
        if (!cv_.wait_until(g, blocked_since_ + kBlockedLimit,
                            [this] { return stop_ || !queue_.empty(); }))
          fatal("nexus-rtl: the unit's head has been blocked for %lld s "
                "with no task finishing (a task that waits for children "
                "which wait for room in the unit: the small unit's "
                "back-pressure mode needs flat task graphs)",
                static_cast<long long>(kBlockedLimit.count()));
      } else {
        cv_.wait(g, [this] { return stop_ || !queue_.empty(); });
      }
      if (queue_.empty())
        return; // stopping, nothing left
      batch.swap(queue_);
    }
    run_batch(batch);
    batch.clear();
  }
}

void nexus_rtl_engine::run_batch(std::vector<request> &batch) {
  auto start = std::chrono::steady_clock::now();
  model_out_.clear();
  rtl_out_.clear();
  // Finishes first, in order, then insertions, in order: the order the
  // unit takes them (it serves its Finished FIFO before its Task Buffer).
  uint64_t c0 = unit_.stats().cycles.get();
  for (const request &r : batch)
    if (r.finish) {
      unit_.finish(r.id);
      rtl_->finish(r.id);
    }
  uint64_t c1 = unit_.stats().cycles.get();
  bool blocked = false;
  if (backpressure_)
    blocked = insert_held(batch);
  else
    for (request &r : batch)
      if (!r.finish) {
        if (unit_.insert(r.d) != nexus_refusal::none)
          fatal("nexus-rtl: the model refused a task whose room was reserved");
        send(r);
        nexus_free_params(r.d);
      }
  uint64_t c2 = unit_.stats().cycles.get();
  drain_model_ready();

  auto t0 = std::chrono::steady_clock::now();
  rtl_->run(rtl_out_);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - t0)
                .count();

  if (rtl_->error())
    fatal("nexus-rtl: the unit raised err_o (a finished id that is not a "
          "live task, or a finished task's key missing from its table)");
  if (rtl_->blocked() != blocked)
    fatal(blocked ? "nexus-rtl: the model refused the head, the unit took it"
                  : "nexus-rtl: the unit keeps a task blocked that the model "
                    "took");
  if (rtl_out_.size() != model_out_.size())
    fatal("nexus-rtl: the unit made %zu tasks ready, the model %zu",
          rtl_out_.size(), model_out_.size());
  for (std::size_t i = 0; i < rtl_out_.size(); ++i) {
    const output &m = model_out_[i];
    if (rtl_out_[i].waiter != m.waiter ||
        rtl_out_[i].id != m.t->engine_data - 1)
      fatal("nexus-rtl: ready word %zu of a batch: the unit says id %u%s, "
            "the model id %u%s",
            i, rtl_out_[i].id, rtl_out_[i].waiter ? " (waiter)" : "",
            m.t->engine_data - 1, m.waiter ? " (waiter)" : "");
  }
  for (const output &m : model_out_)
    engine_host::ready(*rt_, m.t);
  auto busy = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  nexus_rtl::counters k = rtl_->stats();
  auto relaxed = std::memory_order_relaxed;
  batches_.fetch_add(1, relaxed);
  if (batch.size() > max_batch_.load(relaxed))
    max_batch_.store(batch.size(), relaxed);
  sim_ns_.fetch_add(static_cast<uint64_t>(ns), relaxed);
  server_ns_.fetch_add(static_cast<uint64_t>(busy), relaxed);
  model_finish_cycles_.fetch_add(c1 - c0, relaxed);
  model_insert_cycles_.fetch_add(c2 - c1, relaxed);
  rtl_cycles_.store(k.cycles, relaxed);
  rtl_insert_cycles_.store(k.insert_cycles, relaxed);
  rtl_finish_cycles_.store(k.finish_cycles, relaxed);
  rtl_inserts_.store(k.inserts, relaxed);
  rtl_finishes_.store(k.finishes, relaxed);
  blocked_cycles_.store(k.blocked_cycles, relaxed);
  if (blocked)
    blocked_batches_.fetch_add(1, relaxed);
}

void nexus_rtl_engine::send(const request &r) {
  const nexus_param *p = r.d.params();
  params_.resize(r.d.n);
  for (uint32_t i = 0; i < r.d.n; ++i)
    params_[i] = {uint64_t(r.d.tag) << 48 | p[i].addr,
                  static_cast<uint8_t>(p[i].acc)};
  rtl_->insert(params_.data(), r.d.n, r.d.waiter);
}

bool nexus_rtl_engine::insert_held(std::vector<request> &batch) {
  bool finishes = false;
  for (request &r : batch)
    if (!r.finish)
      held_q_.push_back(r);
    else
      finishes = true;
  while (!held_q_.empty()) {
    request &r = held_q_.front();
    const bool refused = unit_.insert(r.d) != nexus_refusal::none;
    const bool was_blocked = head_sent_;
    if (!was_blocked)
      send(r); // the unit retries a blocked head itself after a finish
    head_sent_ = refused;
    if (refused) {
      if (!was_blocked || finishes) // since the last finish
        blocked_since_ = std::chrono::steady_clock::now();
      return true;
    }
    nexus_free_params(r.d);
    held_q_.pop_front();
    held_.fetch_sub(1, std::memory_order_relaxed);
  }
  return false;
}

void nexus_rtl_engine::add_stats(engine_stats &out) const {
  auto relaxed = std::memory_order_relaxed;
  const nexus_stats &s = unit_.stats();
  out.deps_submitted += s.deps.get();
  out.edges += s.kol_appends.get();
  if (s.peak_table.get() > out.peak_map_entries)
    out.peak_map_entries = s.peak_table.get();
  out.modelled_cycles += s.cycles.get();
  out.add("nexus_rtl.inserts", rtl_inserts_.load(relaxed));
  out.add("nexus_rtl.finishes", rtl_finishes_.load(relaxed));
  out.add("nexus_rtl.insert.rtl_cycles", rtl_insert_cycles_.load(relaxed));
  out.add("nexus_rtl.insert.model_cycles", model_insert_cycles_.load(relaxed));
  out.add("nexus_rtl.finish.rtl_cycles", rtl_finish_cycles_.load(relaxed));
  out.add("nexus_rtl.finish.model_cycles", model_finish_cycles_.load(relaxed));
  out.add("nexus_rtl.rtl_cycles", rtl_cycles_.load(relaxed));
  out.add("nexus_rtl.model_cycles", s.cycles.get());
  out.add("nexus_rtl.deps", s.deps.get());
  out.add("nexus_rtl.batches", batches_.load(relaxed));
  out.add("nexus_rtl.max_batch", max_batch_.load(relaxed));
  out.add("nexus_rtl.sim_ns", sim_ns_.load(relaxed));
  out.add("nexus_rtl.server_ns", server_ns_.load(relaxed));
  out.add("nexus_rtl.serialized", serialized_.load(relaxed));
  out.add("nexus_rtl.wait_all", wait_all_.load(relaxed));
  out.add("nexus_rtl.bypassed", bypassed_.load(relaxed));
  out.add("nexus_rtl.blocked_batches", blocked_batches_.load(relaxed));
  out.add("nexus_rtl.blocked_cycles", blocked_cycles_.load(relaxed));
  out.add("nexus_rtl.kol.dummy_allocs", s.dummy_kol_allocs.get());
  out.add("nexus_rtl.pool.dummy_entries", s.dummy_entries.get());
  out.add("nexus_rtl.peak.pool", s.peak_pool.get());
}

} // namespace

std::unique_ptr<dependency_engine> make_nexus_rtl_engine() {
  return std::make_unique<nexus_rtl_engine>(nexus_config::from_env());
}

} // namespace weft
