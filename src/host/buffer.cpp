// Buffer: over-map by the alignment, trim both ends, so the start is 2 MiB-aligned.
#include "host/buffer.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace wgb::host {

Expected<Buffer> Buffer::map(std::size_t bytes, bool huge_pages) {
  if (bytes == 0) return make_error(ErrorKind::Usage, "cannot map an empty buffer");
  const std::size_t size = (bytes + 4095) / 4096 * 4096;
  const std::size_t span = size + kBufferAlignment;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    return make_error(ErrorKind::OutOfMemory, fmt::format("mmap of {} bytes failed: {}", span, std::strerror(errno)));
  }
  const auto addr = reinterpret_cast<std::uintptr_t>(raw);
  const auto aligned = (addr + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  if (aligned > addr) munmap(raw, aligned - addr);
  const auto tail = addr + span - (aligned + size);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + size), tail);
  Buffer b;
  b.data_ = reinterpret_cast<void*>(aligned);
  b.size_ = size;
  if (huge_pages) b.huge_ = madvise(b.data_, size, MADV_HUGEPAGE) == 0;
  return b;
}

Buffer::~Buffer() {
  if (data_ != nullptr) munmap(data_, size_);
}

Buffer::Buffer(Buffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), huge_(o.huge_) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    if (data_ != nullptr) munmap(data_, size_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    huge_ = o.huge_;
  }
  return *this;
}

}  // namespace wgb::host
