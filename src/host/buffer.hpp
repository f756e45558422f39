// Memory for host kernels: anonymous mmap, 2 MiB-aligned, never touched here. Pages are placed
// by whoever touches them first (Linux first-touch), which is why the kernels' threads initialise
// their own blocks (docs/method.md#host-protocol, step 1; a serial first touch would put every
// page on one NUMA node).
#pragma once

#include <cstddef>
#include <cstdint>

#include "webgpu_bench/expected.hpp"

namespace wgb::host {

inline constexpr std::size_t kBufferAlignment = std::size_t{2} << 20;

class Buffer {
 public:
  Buffer() = default;
  // huge_pages: madvise(MADV_HUGEPAGE) (transparent huge pages where the system allows them).
  static Expected<Buffer> map(std::size_t bytes, bool huge_pages);
  ~Buffer();
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool huge_pages() const noexcept { return huge_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  bool huge_ = false;
};

}  // namespace wgb::host
