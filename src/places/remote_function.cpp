// A plain function pointer as an at() closure across ranks
// (detail::encode_remote_function / decode_remote_function): its value is
// an address in the caller's process, which the target's layout does not
// share (PIE and shared objects load at random addresses). It travels as
// the loaded object that holds it (its name as the dynamic loader knows it,
// "" for the main program), the object's GNU build-id and its offset from
// the object's load address, and is translated back on the target, where
// the same binary has loaded the same objects. Both sides look the address
// up in the objects' executable segments (dl_iterate_phdr, which holds the
// loader's lock); the target refuses an object whose build-id differs from
// the caller's (another build under the same name), and an offset outside
// its code.
//
// The wire: the offset (8 bytes, host order), the build-id's length (1
// byte, 0 for an object without one) and its bytes, then the name.
#include "dist_seam.hpp"
#include "fnv1a.hpp"

#include <weft/places.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <link.h>
#include <stdexcept>
#include <string>

namespace weft::detail {

namespace {

std::string hex(std::uintptr_t v) {
  char s[2 + 16 + 1];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

std::string object_name(const std::string &name) {
  return name.empty() ? std::string("the main program") : name;
}

// An object's GNU build-id (the NT_GNU_BUILD_ID note of a PT_NOTE segment;
// the linkers write 8-20 bytes), at most kMaxBuildId bytes kept: a longer
// one is cut there, the same on every rank. len 0: the object has none.
constexpr std::size_t kMaxBuildId = 32;
struct build_id {
  std::uint8_t len = 0;
  unsigned char bytes[kMaxBuildId] = {};
};

std::string id_text(const unsigned char *bytes, std::size_t len) {
  if (len == 0)
    return "none";
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < len; ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

// Reads the note from the object's program headers (its PT_NOTE segments
// are mapped, inside its first PT_LOAD).
void read_build_id(const dl_phdr_info *info, build_id &out) {
  out.len = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    // Notes in a segment aligned to 8 are padded to 8, else to 4.
    const std::size_t align = ph.p_align == 8 ? 8 : 4;
    auto pad = [align](std::size_t n) {
      return (n + align - 1) & ~(align - 1);
    };
    const auto *seg =
        reinterpret_cast<const unsigned char *>(info->dlpi_addr + ph.p_vaddr);
    std::size_t at = 0;
    while (ph.p_memsz - at >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) n;
      std::memcpy(&n, seg + at, sizeof n);
      const std::size_t name = at + sizeof n;
      const std::size_t desc = name + pad(n.n_namesz);
      const std::size_t next = desc + pad(n.n_descsz);
      if (next > ph.p_memsz)
        break; // a malformed note: no id read from this segment
      if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 &&
          std::memcmp(seg + name, "GNU", 4) == 0) {
        out.len = std::uint8_t(std::min<std::size_t>(n.n_descsz, kMaxBuildId));
        std::memcpy(out.bytes, seg + desc, out.len);
        return;
      }
      at = next;
    }
  }
}

// The build-ids of the objects this thread looked up last, by their
// program headers' address, valid while no object has been loaded or
// unloaded since (the loader's dlpi_adds/dlpi_subs counters): a call reads
// an object's notes once. Per thread, so no lock.
struct build_id_cache {
  static constexpr int kEntries = 4;
  unsigned long long adds = 0, subs = 0;
  int used = 0, next = 0;
  const void *phdr[kEntries] = {};
  build_id id[kEntries];
};
constinit thread_local build_id_cache tl_build_ids;

constexpr std::size_t kWithCounters =
    offsetof(dl_phdr_info, dlpi_subs) + sizeof(dl_phdr_info::dlpi_subs);

// A miss: the counters moved (every entry dropped) or the object is not
// among the entries (it takes the oldest one's place).
[[gnu::noinline]] const build_id &read_into_cache(const dl_phdr_info *info,
                                                  std::size_t size) {
  build_id_cache &c = tl_build_ids;
  if (size < kWithCounters) { // no counters: nothing cached
    read_build_id(info, c.id[0]);
    c.used = 0;
    return c.id[0];
  }
  if (c.adds != info->dlpi_adds || c.subs != info->dlpi_subs) {
    c.adds = info->dlpi_adds;
    c.subs = info->dlpi_subs;
    c.used = c.next = 0;
  }
  const int slot = c.next;
  c.next = (c.next + 1) % build_id_cache::kEntries;
  c.used = std::max(c.used, slot + 1);
  c.phdr[slot] = info->dlpi_phdr;
  read_build_id(info, c.id[slot]);
  return c.id[slot];
}

const build_id &object_build_id(const dl_phdr_info *info, std::size_t size) {
  build_id_cache &c = tl_build_ids;
  if (size >= kWithCounters && c.adds == info->dlpi_adds &&
      c.subs == info->dlpi_subs)
    for (int i = 0; i < c.used; ++i)
      if (c.phdr[i] == info->dlpi_phdr)
        return c.id[i];
  return read_into_cache(info, size);
}

bool executable_segment_holds(const dl_phdr_info *info, std::uintptr_t addr) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
      continue;
    std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (addr >= start && addr - start < ph.p_memsz)
      return true;
  }
  return false;
}

// The object whose executable segment holds `addr`.
struct by_address {
  std::uintptr_t addr;
  bool found = false;
  const char *name = ""; // the loader's own string, live while loaded
  std::uintptr_t base = 0;
  const build_id *id = nullptr; // this thread's cache entry
};

int find_by_address(dl_phdr_info *info, std::size_t size, void *arg) {
  auto *q = static_cast<by_address *>(arg);
  if (!executable_segment_holds(info, q->addr))
    return 0;
  q->found = true;
  if (info->dlpi_name)
    q->name = info->dlpi_name;
  q->base = info->dlpi_addr;
  q->id = &object_build_id(info, size);
  return 1;
}

// The object loaded under `name`, its build-id, and whether `offset` from
// its load address lies in one of its executable segments.
struct by_name {
  const char *name;
  std::size_t len;
  std::uint64_t offset;
  const unsigned char *sent_id; // the caller's object's build-id
  std::size_t sent_id_len;
  bool found = false, executable = false;
  std::uintptr_t addr = 0;
  const build_id *id = nullptr; // this thread's cache entry
};

int find_by_name(dl_phdr_info *info, std::size_t size, void *arg) {
  auto *q = static_cast<by_name *>(arg);
  const char *n = info->dlpi_name ? info->dlpi_name : "";
  if (std::strlen(n) != q->len || std::memcmp(n, q->name, q->len) != 0)
    return 0;
  q->found = true;
  q->addr = info->dlpi_addr + q->offset;
  q->executable = executable_segment_holds(info, q->addr);
  q->id = &object_build_id(info, size);
  return 1;
}

// The error messages are built only on the error paths (a call pays the two
// object walks, not the strings).
[[noreturn]] void refuse_here(const char *call, int target, std::uintptr_t fn,
                              const char *why) {
  throw std::invalid_argument(
      std::string(call) + ": the closure sent to place " +
      std::to_string(target) + " on another rank, function pointer " + hex(fn) +
      why);
}

[[noreturn]] void refuse_there(const char *call, int from, const by_name &q,
                               const char *why, bool ids = false) {
  const dist_ops *d = dist();
  const std::string here =
      d ? "rank " + std::to_string(d->rank) : std::string("this rank");
  throw std::invalid_argument(
      std::string(call) + ": the closure is a function pointer (offset " +
      hex(q.offset) + " in " + object_name(std::string(q.name, q.len)) +
      " on rank " + std::to_string(from) + ")" + why + " on " + here +
      (ids ? " (build-id " + id_text(q.sent_id, q.sent_id_len) + " on rank " +
                 std::to_string(from) + ", " + id_text(q.id->bytes, q.id->len) +
                 " on " + here + ")"
           : std::string()) +
      (q.found ? ": do the ranks run the same binary?"
               : ": load it on every rank (link it, or dlopen it before the "
                 "call)"));
}

} // namespace

std::string encode_remote_function(const char *call, int target,
                                   std::uintptr_t fn) {
  if (fn == 0)
    refuse_here(call, target, fn, ", is null");
  by_address q{fn};
  dl_iterate_phdr(find_by_address, &q);
  if (!q.found)
    refuse_here(call, target, fn,
                ", lies in no loaded object's code (generated at run time?): "
                "only a function of the program or of a shared object it "
                "loaded can be carried to another rank");
  const std::uint64_t offset = fn - q.base;
  const std::size_t len = std::strlen(q.name);
  const std::size_t id_len = q.id->len;
  std::string out(sizeof offset + 1 + id_len + len, '\0');
  char *p = out.data();
  std::memcpy(p, &offset, sizeof offset);
  p[sizeof offset] = char(id_len);
  std::memcpy(p + sizeof offset + 1, q.id->bytes, id_len);
  std::memcpy(p + sizeof offset + 1 + id_len, q.name, len);
  return out;
}

std::uintptr_t decode_remote_function(const char *call, int from,
                                      const void *bytes, std::size_t n) {
  const auto *p = static_cast<const unsigned char *>(bytes);
  std::uint64_t offset = 0;
  const std::size_t id_len = n > sizeof offset ? p[sizeof offset] : 0;
  const std::size_t head = sizeof offset + 1 + id_len;
  if (n < head || id_len > kMaxBuildId)
    throw std::invalid_argument(
        std::string(call) + ": a function-pointer closure from rank " +
        std::to_string(from) + " of " + std::to_string(n) + " bytes (corrupt)");
  std::memcpy(&offset, p, sizeof offset);
  by_name q{reinterpret_cast<const char *>(p + head), n - head, offset,
            p + sizeof offset + 1, id_len};
  dl_iterate_phdr(find_by_name, &q);
  if (!q.found)
    refuse_there(call, from, q, " whose object is not loaded");
  // Another build under the same name: the ids differ, or one side has
  // none. Neither has one: only the offset check below.
  if (q.sent_id_len != q.id->len ||
      std::memcmp(q.sent_id, q.id->bytes, id_len) != 0)
    refuse_there(call, from, q, " whose object is another build", true);
  if (!q.executable)
    refuse_there(call, from, q, " that lies outside the code of that object");
  return q.addr;
}

namespace {

// The build-ids of the main program (dl_iterate_phdr's first object) and of
// the objects whose code holds the given addresses, folded in the loader's
// order (the same on every rank of one build).
struct identity_walk {
  const void *const *code;
  std::size_t ncode;
  build_id main;
  std::uint64_t digest = kFnv1aStart;
  bool first = true;
};

void fold(std::uint64_t &h, const build_id &id) {
  fnv1a_mix(h, &id.len, 1);
  fnv1a_mix(h, id.bytes, id.len);
}

int identity_of(dl_phdr_info *info, std::size_t, void *arg) {
  auto &w = *static_cast<identity_walk *>(arg);
  if (w.first) {
    w.first = false;
    read_build_id(info, w.main);
    fold(w.digest, w.main);
  }
  for (std::size_t k = 0; k < w.ncode; ++k)
    if (executable_segment_holds(info,
                                 reinterpret_cast<std::uintptr_t>(w.code[k]))) {
      build_id id;
      read_build_id(info, id);
      fold(w.digest, id);
    }
  return 0;
}

} // namespace

build_identity program_build_identity(const void *const *code, std::size_t n) {
  identity_walk w{code, n, {}};
  dl_iterate_phdr(identity_of, &w);
  return {w.digest, id_text(w.main.bytes, w.main.len)};
}

} // namespace weft::detail
