// A plain function pointer as an at() closure across ranks
// (detail::encode_remote_function / decode_remote_function): its value is
// an address in the caller's process, which the target's layout does not
// share (PIE and shared objects load at random addresses). It travels as
// the loaded object that holds it (its name as the dynamic loader knows it,
// "" for the main program) and its offset from the object's load address,
// and is translated back on the target, where the same binary has loaded
// the same objects. Both sides look the address up in the objects'
// executable segments (dl_iterate_phdr, which holds the loader's lock).
#include <weft/places.hpp>

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
};

int find_by_address(dl_phdr_info *info, std::size_t, void *arg) {
  auto *q = static_cast<by_address *>(arg);
  if (!executable_segment_holds(info, q->addr))
    return 0;
  q->found = true;
  if (info->dlpi_name)
    q->name = info->dlpi_name;
  q->base = info->dlpi_addr;
  return 1;
}

// The object loaded under `name`, and whether `offset` from its load
// address lies in one of its executable segments.
struct by_name {
  const char *name;
  std::size_t len;
  std::uint64_t offset;
  bool found = false, executable = false;
  std::uintptr_t addr = 0;
};

int find_by_name(dl_phdr_info *info, std::size_t, void *arg) {
  auto *q = static_cast<by_name *>(arg);
  const char *n = info->dlpi_name ? info->dlpi_name : "";
  if (std::strlen(n) != q->len || std::memcmp(n, q->name, q->len) != 0)
    return 0;
  q->found = true;
  q->addr = info->dlpi_addr + q->offset;
  q->executable = executable_segment_holds(info, q->addr);
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
                               const char *why) {
  const dist_ops *d = dist();
  throw std::invalid_argument(
      std::string(call) + ": the closure is a function pointer (offset " +
      hex(q.offset) + " in " + object_name(std::string(q.name, q.len)) +
      " on rank " + std::to_string(from) + ")" + why +
      (d ? " on rank " + std::to_string(d->rank) : std::string()) +
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
  std::string out(sizeof offset + len, '\0');
  std::memcpy(out.data(), &offset, sizeof offset);
  std::memcpy(out.data() + sizeof offset, q.name, len);
  return out;
}

std::uintptr_t decode_remote_function(const char *call, int from,
                                      const void *bytes, std::size_t n) {
  std::uint64_t offset = 0;
  if (n < sizeof offset)
    throw std::invalid_argument(
        std::string(call) + ": a function-pointer closure from rank " +
        std::to_string(from) + " of " + std::to_string(n) + " bytes (corrupt)");
  std::memcpy(&offset, bytes, sizeof offset);
  by_name q{static_cast<const char *>(bytes) + sizeof offset, n - sizeof offset,
            offset};
  dl_iterate_phdr(find_by_name, &q);
  if (!q.found)
    refuse_there(call, from, q, " whose object is not loaded");
  if (!q.executable)
    refuse_there(call, from, q, " that lies outside the code of that object");
  return q.addr;
}

} // namespace weft::detail
