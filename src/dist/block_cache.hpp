// A per-thread cache of free blocks of one size (issue 13: the arrived
// call's allocation). take() pops a block this thread gave back, else
// allocates one; give() keeps a freed block for this thread's next take()
// (up to N), else frees it. A block may be taken on one thread and given
// back on another (a call received by the progress thread and run by a
// worker): it then serves the giver's next take. No block is shared: the
// cache is the thread's own, so no atomics and no locks; handing a block
// between threads is the caller's synchronisation (the inbox's). At the
// thread's end its cached blocks are freed; a block given back after that
// (during the thread's own exit) is freed at once.
#pragma once

#include <cstddef>
#include <new>

namespace weft::dist {

template <std::size_t Bytes, std::size_t N> class block_cache {
  static_assert(N > 0);

public:
  static void *take() {
    store &s = tl_store_;
    if (s.n)
      return s.blocks[--s.n];
    return ::operator new(Bytes);
  }
  static void give(void *b) {
    store &s = tl_store_;
    if (s.n < N && !s.gone) {
      if (!s.armed) {
        s.armed = true;
        tl_drain_.armed = true; // constructed now: its destructor runs
      }
      s.blocks[s.n++] = b;
      return;
    }
    ::operator delete(b);
  }
  // This thread's cached blocks (for the tests).
  static std::size_t cached() { return tl_store_.n; }

private:
  // Trivially destructible, so valid until the thread's storage is gone;
  // drain empties it at the thread's end.
  struct store {
    void *blocks[N];
    std::size_t n;
    bool gone, armed;
  };
  static inline thread_local store tl_store_{};
  struct drain {
    bool armed = false;
    ~drain() {
      store &s = tl_store_;
      s.gone = true;
      while (s.n)
        ::operator delete(s.blocks[--s.n]);
    }
  };
  static inline thread_local drain tl_drain_;
};

} // namespace weft::dist
