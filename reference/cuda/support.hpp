// Host plumbing of the CUDA reference: checked CUDA calls, owning device buffers, event timing,
// optional NVML clock readings (loaded at run time, never required), statistics and JSON text.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace wgbref {

// A CUDA call failed. Carries the call, the place and CUDA's own name and text for the error.
struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) {
    throw CudaFailure(std::string(what) + " at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorName(e) +
                      " (" + cudaGetErrorString(e) + ")");
  }
}

// Every CUDA runtime call goes through WGB_CK; every launch is followed by WGB_CK_LAUNCH, which
// catches configuration errors at once (asynchronous faults surface at the next synchronization,
// itself checked).
#define WGB_CK(call) ::wgbref::check((call), #call, __FILE__, __LINE__)
#define WGB_CK_LAUNCH(name) ::wgbref::check(cudaGetLastError(), "launch of " name, __FILE__, __LINE__)

// Where a DeviceArray's memory comes from. Plain: cudaMalloc. Vmm: the virtual-memory driver API
// (cuMemCreate + cuMemMap), no compression. Compressible: the same with generic compression asked
// for (CU_MEM_ALLOCATION_COMP_GENERIC) and checked as granted. Vmm and Compressible exist for the
// experiments that ask whether the way a Vulkan driver allocates memory explains a gap to CUDA.
enum class Memory { Plain, Vmm, Compressible };

inline const char* memory_name(Memory m) {
  switch (m) {
    case Memory::Plain: return "cudaMalloc";
    case Memory::Vmm: return "cuMemCreate (no compression)";
    case Memory::Compressible: return "cuMemCreate with CU_MEM_ALLOCATION_COMP_GENERIC (granted)";
  }
  return "?";
}

// The GPU or driver cannot give what a probe needs: the probe is reported as skipped with the reason.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The driver API calls the Vmm/Compressible allocations need, reached through the runtime's
// cudaGetDriverEntryPointByVersion, so the program links only the runtime (libcuda is the driver's).
class DriverApi {
 public:
  static const DriverApi& get() {
    static const DriverApi api;
    return api;
  }
  void check(CUresult r, const char* what) const {
    if (r == CUDA_SUCCESS) return;
    const char* name = "?";
    if (error_name != nullptr) error_name(r, &name);
    throw CudaFailure(std::string(what) + ": " + name);
  }
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) address_free = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) set_access = nullptr;
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&cuMemGetAllocationPropertiesFromHandle) properties = nullptr;
  decltype(&cuDeviceGetAttribute) attribute = nullptr;
  decltype(&cuGetErrorName) error_name = nullptr;

 private:
  DriverApi() {
    resolve("cuMemCreate", create);
    resolve("cuMemRelease", release);
    resolve("cuMemAddressReserve", reserve);
    resolve("cuMemAddressFree", address_free);
    resolve("cuMemMap", map);
    resolve("cuMemUnmap", unmap);
    resolve("cuMemSetAccess", set_access);
    resolve("cuMemGetAllocationGranularity", granularity);
    resolve("cuMemGetAllocationPropertiesFromHandle", properties);
    resolve("cuDeviceGetAttribute", attribute);
    resolve("cuGetErrorName", error_name);
  }
  template <class F>
  static void resolve(const char* symbol, F& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || p == nullptr) {
      cudaGetLastError();
      throw Unsupported(std::string("the driver does not provide ") + symbol);
    }
    fn = reinterpret_cast<F>(p);
  }
};

// One cuMemCreate allocation mapped read-write for the current device.
struct VmmAllocation {
  CUdeviceptr ptr = 0;
  std::size_t size = 0;
  CUmemGenericAllocationHandle handle = 0;

  static VmmAllocation create(std::size_t bytes, bool compressible) {
    const DriverApi& api = DriverApi::get();
    int device = 0;
    WGB_CK(cudaGetDevice(&device));
    if (compressible) {
      int supported = 0;
      api.check(api.attribute(&supported, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, device),
                "cuDeviceGetAttribute(GENERIC_COMPRESSION_SUPPORTED)");
      if (supported == 0) throw Unsupported("the device does not support generic compression");
    }
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.allocFlags.compressionType = compressible ? CU_MEM_ALLOCATION_COMP_GENERIC : CU_MEM_ALLOCATION_COMP_NONE;
    std::size_t granularity = 0;
    api.check(api.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
              "cuMemGetAllocationGranularity");
    VmmAllocation a;
    a.size = (bytes + granularity - 1) / granularity * granularity;
    api.check(api.create(&a.handle, a.size, &prop, 0), "cuMemCreate");
    CUmemAllocationProp got{};
    if (const CUresult r = api.properties(&got, a.handle); r != CUDA_SUCCESS) {
      api.release(a.handle);
      api.check(r, "cuMemGetAllocationPropertiesFromHandle");
    }
    if (compressible && got.allocFlags.compressionType != CU_MEM_ALLOCATION_COMP_GENERIC) {
      api.release(a.handle);
      throw Unsupported("the driver did not grant compressible memory for the allocation");
    }
    if (const CUresult r = api.reserve(&a.ptr, a.size, granularity, 0, 0); r != CUDA_SUCCESS) {
      api.release(a.handle);
      api.check(r, "cuMemAddressReserve");
    }
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CUresult r = api.map(a.ptr, a.size, 0, a.handle, 0);
    if (r == CUDA_SUCCESS) r = api.set_access(a.ptr, a.size, &access, 1);
    if (r != CUDA_SUCCESS) {
      a.free();
      api.check(r, "cuMemMap/cuMemSetAccess");
    }
    return a;
  }
  void free() {
    if (size == 0) return;
    const DriverApi& api = DriverApi::get();
    api.unmap(ptr, size);
    api.address_free(ptr, size);
    api.release(handle);
    size = 0;
  }
};

// An owning device allocation of n elements of T.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n, Memory kind = Memory::Plain) : n_(n) {
    if (kind == Memory::Plain) {
      WGB_CK(cudaMalloc(reinterpret_cast<void**>(&p_), bytes()));
    } else {
      vmm_ = VmmAllocation::create(bytes(), kind == Memory::Compressible);
      p_ = reinterpret_cast<T*>(vmm_.ptr);
    }
  }
  ~DeviceArray() {
    if (p_ == nullptr) return;
    if (vmm_.size != 0) {
      cudaDeviceSynchronize();
      vmm_.free();
    } else {
      cudaFree(p_);
    }
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(o.n_), vmm_(std::exchange(o.vmm_, VmmAllocation{})) {}

  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  void upload(const std::vector<T>& v) {
    if (v.size() > n_) throw std::logic_error("upload larger than the device array");
    WGB_CK(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(std::size_t offset, std::size_t count) const {
    std::vector<T> v(count);
    WGB_CK(cudaMemcpy(v.data(), p_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  void zero() { WGB_CK(cudaMemset(p_, 0, bytes())); }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
  VmmAllocation vmm_;
};

// Times whatever `enqueue` launches on the default stream with a pair of events around it.
class EventTimer {
 public:
  EventTimer() {
    WGB_CK(cudaEventCreate(&start_));
    WGB_CK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  template <class F>
  double time_ms(F&& enqueue) {
    WGB_CK(cudaEventRecord(start_));
    enqueue();
    WGB_CK(cudaEventRecord(stop_));
    WGB_CK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    WGB_CK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

// NVML through dlopen: the SM clock and the clock-event (throttle) reasons, when the driver's
// library is there. Nothing depends on it; every reading is -1 when it is not available.
class Nvml {
 public:
  explicit Nvml(const std::string& pci_bus_id) {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib_ == nullptr) return;
    auto init = reinterpret_cast<int (*)()>(dlsym(lib_, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<int (*)(const char*, void**)>(dlsym(lib_, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(lib_, "nvmlDeviceGetClockInfo"));
    reasons_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(
        dlsym(lib_, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (reasons_ == nullptr) {
      reasons_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(
          dlsym(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    }
    shutdown_ = reinterpret_cast<int (*)()>(dlsym(lib_, "nvmlShutdown"));
    if (init == nullptr || by_bus == nullptr || clock_ == nullptr || init() != 0) return;
    initialized_ = true;
    ok_ = by_bus(pci_bus_id.c_str(), &device_) == 0;
  }
  ~Nvml() {
    if (initialized_ && shutdown_ != nullptr) shutdown_();
    if (lib_ != nullptr) dlclose(lib_);
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool available() const { return ok_; }
  int sm_clock_mhz() const {
    unsigned mhz = 0;
    constexpr int kNvmlClockSm = 1;
    return ok_ && clock_(device_, kNvmlClockSm, &mhz) == 0 ? static_cast<int>(mhz) : -1;
  }
  long long clock_event_reasons() const {
    unsigned long long r = 0;
    return ok_ && reasons_ != nullptr && reasons_(device_, &r) == 0 ? static_cast<long long>(r) : -1;
  }

 private:
  void* lib_ = nullptr;
  void* device_ = nullptr;
  int (*clock_)(void*, int, unsigned*) = nullptr;
  int (*reasons_)(void*, unsigned long long*) = nullptr;
  int (*shutdown_)() = nullptr;
  bool initialized_ = false;
  bool ok_ = false;
};

// Median of the sample times (the mean of the two middle ones for an even count).
inline double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double cv_percent(const std::vector<double>& v) {
  if (v.size() < 2) return NAN;
  double mean = 0.0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double var = 0.0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= static_cast<double>(v.size() - 1);
  return mean > 0.0 ? 100.0 * std::sqrt(var) / mean : NAN;
}

// JSON text helpers.
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.10g", v);
  return buf;
}

inline std::string json_int(long long v) { return std::to_string(v); }

}  // namespace wgbref
