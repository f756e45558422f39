// Host plumbing of the CUDA reference: checked CUDA calls, owning device buffers, event timing,
// optional NVML clock readings (loaded at run time, never required), statistics and JSON text.
#pragma once

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

// An owning device allocation of n elements of T.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) { WGB_CK(cudaMalloc(reinterpret_cast<void**>(&p_), bytes())); }
  ~DeviceArray() {
    if (p_ != nullptr) cudaFree(p_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(o.n_) {}

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
