// Experiment for the CUDA write gap (docs/results/h200-2026-11-30-third.md): does CUDA write as
// slowly as WebGPU into memory the Vulkan driver allocated? Allocates two buffers through Vulkan the
// way Dawn allocates a large storage buffer (STORAGE | TRANSFER_SRC | TRANSFER_DST usage, its own
// VkDeviceMemory of the first DEVICE_LOCAL type the buffer allows, ties to the biggest heap:
// ResourceMemoryAllocator::FindBestTypeIndex), exportable as an opaque file descriptor, imports them
// into CUDA (cudaImportExternalMemory) and runs the CUDA reference's write kernel (with its own data,
// the WGSL kernel's data and hashed words) and read kernel on them, interleaved with the same kernels
// on two cudaMalloc buffers in the same process. Every device-local
// memory type the buffer allows is tried. Prints the adapter's memory types and one line per
// measurement; exit 0 when every written buffer verified.
//
// Built and run by bench/h200_vk_import_probe.sh (nvcc; needs Vulkan headers, loads libvulkan.so.1
// at run time). Not part of the product: an instrument for one question.
#define VK_NO_PROTOTYPES
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <cstring>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "support.hpp"

namespace {

using namespace wgbref;

constexpr std::uint64_t kBytes = 1ULL << 30;
constexpr int kSamples = 10, kRounds = 3;

#define VK_FN(name) PFN_##name name = nullptr
struct Vk {
  void* lib = nullptr;
  VK_FN(vkGetInstanceProcAddr);
  VK_FN(vkCreateInstance);
  VK_FN(vkEnumeratePhysicalDevices);
  VK_FN(vkGetPhysicalDeviceProperties2);
  VK_FN(vkGetPhysicalDeviceMemoryProperties);
  VK_FN(vkGetPhysicalDeviceQueueFamilyProperties);
  VK_FN(vkCreateDevice);
  VK_FN(vkGetDeviceProcAddr);
  VK_FN(vkCreateBuffer);
  VK_FN(vkGetBufferMemoryRequirements);
  VK_FN(vkAllocateMemory);
  VK_FN(vkBindBufferMemory);
  VK_FN(vkGetMemoryFdKHR);
  VK_FN(vkDestroyBuffer);
  VK_FN(vkFreeMemory);
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "vk_import_write: %s\n", what.c_str());
  std::exit(2);
}

struct VkFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw VkFailure(std::string(what) + " failed: VkResult " + std::to_string(r));
}

template <class F>
void instance_fn(Vk& vk, F& f, const char* name) {
  f = reinterpret_cast<F>(vk.vkGetInstanceProcAddr(vk.instance, name));
  if (f == nullptr) die(std::string("no ") + name);
}

// The Vulkan device whose UUID is CUDA device 0's.
void open_vulkan(Vk& vk, const cudaDeviceProp& prop) {
  vk.lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (vk.lib == nullptr) die("cannot load libvulkan.so.1");
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(vk.lib, "vkGetInstanceProcAddr"));
  if (vk.vkGetInstanceProcAddr == nullptr) die("no vkGetInstanceProcAddr");
  instance_fn(vk, vk.vkCreateInstance, "vkCreateInstance");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vk_import_write";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  check(vk.vkCreateInstance(&ici, nullptr, &vk.instance), "vkCreateInstance");
  instance_fn(vk, vk.vkEnumeratePhysicalDevices, "vkEnumeratePhysicalDevices");
  instance_fn(vk, vk.vkGetPhysicalDeviceProperties2, "vkGetPhysicalDeviceProperties2");
  instance_fn(vk, vk.vkGetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties");
  instance_fn(vk, vk.vkGetPhysicalDeviceQueueFamilyProperties, "vkGetPhysicalDeviceQueueFamilyProperties");
  instance_fn(vk, vk.vkCreateDevice, "vkCreateDevice");
  instance_fn(vk, vk.vkGetDeviceProcAddr, "vkGetDeviceProcAddr");
  std::uint32_t n = 0;
  check(vk.vkEnumeratePhysicalDevices(vk.instance, &n, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(n);
  check(vk.vkEnumeratePhysicalDevices(vk.instance, &n, devices.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &id;
    vk.vkGetPhysicalDeviceProperties2(d, &p2);
    if (std::memcmp(id.deviceUUID, prop.uuid.bytes, VK_UUID_SIZE) == 0) {
      vk.physical = d;
      std::printf("vulkan device: %s, driver version 0x%x (UUID matches CUDA device 0)\n", p2.properties.deviceName,
                  p2.properties.driverVersion);
    }
  }
  if (vk.physical == VK_NULL_HANDLE) die("no Vulkan device has CUDA device 0's UUID");
  vk.vkGetPhysicalDeviceMemoryProperties(vk.physical, &vk.memory);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = 0;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &q;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = extensions;
  check(vk.vkCreateDevice(vk.physical, &dci, nullptr, &vk.device), "vkCreateDevice");
  auto device_fn = [&](auto& f, const char* name) {
    f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(vk.vkGetDeviceProcAddr(vk.device, name));
    if (f == nullptr) die(std::string("no ") + name);
  };
  device_fn(vk.vkCreateBuffer, "vkCreateBuffer");
  device_fn(vk.vkGetBufferMemoryRequirements, "vkGetBufferMemoryRequirements");
  device_fn(vk.vkAllocateMemory, "vkAllocateMemory");
  device_fn(vk.vkBindBufferMemory, "vkBindBufferMemory");
  device_fn(vk.vkGetMemoryFdKHR, "vkGetMemoryFdKHR");
  device_fn(vk.vkDestroyBuffer, "vkDestroyBuffer");
  device_fn(vk.vkFreeMemory, "vkFreeMemory");
}

std::string flags_text(VkMemoryPropertyFlags f) {
  std::string s;
  auto add = [&](VkMemoryPropertyFlags bit, const char* name) {
    if (f & bit) s += (s.empty() ? "" : "|") + std::string(name);
  };
  add(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "DEVICE_LOCAL");
  add(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "HOST_VISIBLE");
  add(VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "HOST_COHERENT");
  add(VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "HOST_CACHED");
  add(VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "LAZILY_ALLOCATED");
  return s.empty() ? "0" : s;
}

// A storage buffer as Dawn makes one, in memory of type `type`, imported into CUDA.
struct VkBufferInCuda {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  cudaExternalMemory_t external = nullptr;
  uint4* ptr = nullptr;
};

VkBuffer make_buffer(Vk& vk) {
  VkExternalMemoryBufferCreateInfo ext{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.pNext = &ext;
  bci.size = kBytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer b = VK_NULL_HANDLE;
  check(vk.vkCreateBuffer(vk.device, &bci, nullptr, &b), "vkCreateBuffer");
  return b;
}

VkBufferInCuda import_buffer(Vk& vk, std::uint32_t type) {
  VkBufferInCuda out;
  out.buffer = make_buffer(vk);
  VkMemoryRequirements req{};
  vk.vkGetBufferMemoryRequirements(vk.device, out.buffer, &req);
  VkExportMemoryAllocateInfo exp{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exp.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.pNext = &exp;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  check(vk.vkAllocateMemory(vk.device, &mai, nullptr, &out.memory), "vkAllocateMemory");
  check(vk.vkBindBufferMemory(vk.device, out.buffer, out.memory, 0), "vkBindBufferMemory");
  VkMemoryGetFdInfoKHR gfi{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  gfi.memory = out.memory;
  gfi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(vk.vkGetMemoryFdKHR(vk.device, &gfi, &fd), "vkGetMemoryFdKHR");
  cudaExternalMemoryHandleDesc hd{};
  hd.type = cudaExternalMemoryHandleTypeOpaqueFd;
  hd.handle.fd = fd;  // CUDA owns the descriptor from here on
  hd.size = req.size;
  WGB_CK(cudaImportExternalMemory(&out.external, &hd));
  cudaExternalMemoryBufferDesc bd{};
  bd.offset = 0;
  bd.size = kBytes;
  void* p = nullptr;
  WGB_CK(cudaExternalMemoryGetMappedBuffer(&p, out.external, &bd));
  out.ptr = static_cast<uint4*>(p);
  return out;
}

// Median and best GB/s of kSamples single launches (behind a spin kernel, as the reference times),
// alternating between a and b.
struct Rate {
  double median, best;
};
template <class Launch>
Rate time_launches(EventTimer& timer, Launch&& launch) {
  launch(0);
  launch(1);
  WGB_CK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int i = 0; i < kSamples; ++i) {
    spin_kernel<<<1, 1>>>(100000);
    ms.push_back(timer.time_ms([&] { launch(i); }));
  }
  const double best = *std::min_element(ms.begin(), ms.end());
  return {kBytes / (median_of(ms) * 1e-3) / 1e9, kBytes / (best * 1e-3) / 1e9};
}

}  // namespace

int main() {
  try {
    WGB_CK(cudaSetDevice(0));
    cudaDeviceProp prop{};
    WGB_CK(cudaGetDeviceProperties(&prop, 0));
    Vk vk;
    open_vulkan(vk, prop);
    // Which types a storage buffer allows, and the one Dawn picks.
    VkBuffer probe = make_buffer(vk);
    VkMemoryRequirements req{};
    vk.vkGetBufferMemoryRequirements(vk.device, probe, &req);
    vk.vkDestroyBuffer(vk.device, probe, nullptr);
    int dawn_pick = -1;
    std::vector<std::uint32_t> device_local;
    for (std::uint32_t i = 0; i < vk.memory.memoryTypeCount; ++i) {
      const auto& t = vk.memory.memoryTypes[i];
      const bool allowed = (req.memoryTypeBits >> i) & 1U;
      std::printf("memory type %u: heap %u (%.1f GiB) %s%s\n", i, t.heapIndex,
                  vk.memory.memoryHeaps[t.heapIndex].size / double(1ULL << 30), flags_text(t.propertyFlags).c_str(),
                  allowed ? "" : " (not allowed for the buffer)");
      if (!allowed) continue;
      const bool local = t.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      if (local) device_local.push_back(i);
      if (dawn_pick < 0) {
        dawn_pick = static_cast<int>(i);
        continue;
      }
      const auto& best = vk.memory.memoryTypes[dawn_pick];
      const bool best_local = best.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      if (local != best_local) {
        if (local) dawn_pick = static_cast<int>(i);
        continue;
      }
      if (vk.memory.memoryHeaps[t.heapIndex].size > vk.memory.memoryHeaps[best.heapIndex].size) {
        dawn_pick = static_cast<int>(i);
      }
    }
    std::printf("Dawn's choice for a storage buffer (FindBestTypeIndex): type %d\n", dawn_pick);

    EventTimer timer;
    const std::uint32_t count = kBytes / 16;
    const unsigned blocks = (count / 4 + kBlock - 1) / kBlock;
    const std::uint32_t threads = blocks * kBlock;
    DeviceArray<uint4> ca(count), cb(count), sink(256);
    auto fill = [&](uint4* p, std::uint32_t seed) {
      fill_hashed_kernel<<<4096, kBlock>>>(reinterpret_cast<std::uint32_t*>(p), std::uint64_t{count} * 4, seed);
      WGB_CK(cudaGetLastError());
    };
    // Writes of each data pattern (CUDA's, the WGSL kernel's, hashed words): compressible memory
    // writes CUDA's pattern faster and hashed words slower than plain memory (h200_data_probe.sh).
    auto write_rate = [&](uint4* a, uint4* b, auto kernel) {
      return time_launches(timer, [&](int i) {
        kernel<<<blocks, kBlock>>>(i % 2 ? a : b, count, threads, i % 2 ? kSeedWriteA : kSeedWriteB);
        WGB_CK(cudaGetLastError());
      });
    };
    auto measure = [&](const char* what, uint4* a, uint4* b) {
      fill(a, kSeedA);
      fill(b, kSeedB);
      WGB_CK(cudaMemset(sink.get(), 0, 256 * 16));
      const Rate w = write_rate(a, b, write_kernel);
      const Rate ww = write_rate(a, b, write_data_kernel<WriteData::Wgsl>);
      const Rate wh = write_rate(a, b, write_data_kernel<WriteData::Hashed>);
      fill(a, kSeedA);
      fill(b, kSeedB);
      const Rate r = time_launches(timer, [&](int i) {
        read_kernel<<<blocks, kBlock>>>(i % 2 ? b : a, sink.get(), count, threads, kMagic0, kMagic1);
        WGB_CK(cudaGetLastError());
      });
      // The last write launches left both buffers with the written pattern; check it after the reads
      // would have been too late, so write once more and verify.
      write_kernel<<<blocks, kBlock>>>(a, count, threads, kSeedWriteA);
      std::vector<unsigned long long> init{0ULL, ~0ULL};
      DeviceArray<unsigned long long> verdict(2);
      verdict.upload(init);
      verify_kernel<<<4096, kBlock>>>(reinterpret_cast<const std::uint32_t*>(a), std::uint64_t{count} * 4,
                                      kSeedWriteA, WriteData::Index, verdict.get(), verdict.get() + 1);
      WGB_CK(cudaGetLastError());
      const auto v = verdict.download(0, 2);
      std::printf("%-40s write (CUDA / WGSL / hashed data) median %7.1f / %7.1f / %7.1f GB/s | read median %7.1f "
                  "GB/s | %s\n",
                  what, w.median, ww.median, wh.median, r.median, v[0] == 0 ? "verified" : "WRONG DATA");
      std::fflush(stdout);
      return v[0] == 0;
    };
    std::vector<std::pair<std::string, std::pair<VkBufferInCuda, VkBufferInCuda>>> imported;
    for (std::uint32_t type : device_local) {
      try {
        auto a = import_buffer(vk, type);
        auto b = import_buffer(vk, type);
        imported.push_back({"Vulkan memory type " + std::to_string(type) +
                                (static_cast<int>(type) == dawn_pick ? " (Dawn's)" : "") + ", imported",
                            {a, b}});
      } catch (const std::runtime_error& e) {  // VkFailure or CudaFailure: this type cannot be shared
        std::printf("memory type %u: not imported: %s\n", type, e.what());
        cudaGetLastError();
      }
    }
    if (imported.empty()) die("no device-local memory type could be exported to CUDA");
    bool ok = true;
    for (int round = 0; round < kRounds; ++round) {
      ok = measure("cudaMalloc", ca.get(), cb.get()) && ok;
      for (auto& [name, pair] : imported) ok = measure(name.c_str(), pair.first.ptr, pair.second.ptr) && ok;
    }
    return ok ? 0 : 1;
  } catch (const std::runtime_error& e) {  // CudaFailure, or a VkFailure while opening the device
    std::fprintf(stderr, "vk_import_write: %s\n", e.what());
    return 4;
  }
}
