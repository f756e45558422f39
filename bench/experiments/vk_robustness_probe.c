// Experiment for docs/implementations.md: what robustness does a WebGPU implementation ask the
// Vulkan driver for? Logs, one line each, every device created (robustBufferAccess, the
// robustness2 and pipelineRobustness features, the extensions) and every compute pipeline (its
// VkPipelineRobustnessCreateInfo, in the pipeline's or the stage's pNext, if any) to
// $WGB_VK_PROBE_LOG (appended; stderr when unset), each line prefixed with the process id.
//
// One source, three builds (needs libvulkan-dev for the headers):
//   gcc -O1 -shared -fPIC -fvisibility=hidden -DWGB_PROBE_LAYER -o libwgb_vk_probe_layer.so vk_robustness_probe.c
//     A Vulkan layer, for programs that use the Vulkan loader (native Dawn). Its manifest, in DIR:
//     {"file_format_version": "1.1.2", "layer": {"name": "VK_LAYER_WGB_robustness_probe", "type": "GLOBAL",
//      "library_path": "ABSOLUTE PATH OF THE .so", "api_version": "1.3.239", "implementation_version": "1",
//      "description": "robustness probe", "functions": {"vkGetInstanceProcAddr": "probe_GetInstanceProcAddr",
//      "vkGetDeviceProcAddr": "probe_GetDeviceProcAddr"}}}
//     Run with VK_LAYER_PATH=DIR VK_INSTANCE_LAYERS=VK_LAYER_WGB_robustness_probe.
//   gcc -O1 -shared -fPIC -fvisibility=hidden -o libwgb_vk_probe_driver.so vk_robustness_probe.c -ldl
//   gcc -O1 -shared -fPIC -fvisibility=hidden -DWGB_PROBE_PRELOAD -o libwgb_vk_probe_preload.so vk_robustness_probe.c -ldl
//     For a program that opens the driver itself, without the loader (Chromium's Dawn opens
//     SwiftShader's libvk_swiftshader.so): with LD_PRELOAD=libwgb_vk_probe_preload.so and
//     WGB_VK_PROBE_DRIVER=<the driver build>, opening libvk_swiftshader.so opens the driver build
//     instead, which forwards everything to the real SwiftShader and logs on the way.
//
// Not part of the product: an instrument for one question.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define EXPORT __attribute__((visibility("default")))

#ifdef WGB_PROBE_PRELOAD
typedef void* (*DlopenFn)(const char*, int);
static DlopenFn real_dlopen(void) {
  static DlopenFn f;
  if (!f) f = (DlopenFn)dlsym(RTLD_NEXT, "dlopen");
  return f;
}
// The driver build opens the real SwiftShader through this, past the redirect below.
EXPORT void* wgb_real_dlopen(const char* file, int flags) { return real_dlopen()(file, flags); }
EXPORT void* dlopen(const char* file, int flags) {
  const char* probe = getenv("WGB_VK_PROBE_DRIVER");
  if (file && probe && strstr(file, "libvk_swiftshader.so")) {
    setenv("WGB_VK_PROBE_REAL_DRIVER", file, 1);
    return real_dlopen()(probe, flags);
  }
  return real_dlopen()(file, flags);
}
#else

static void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char* fmt, ...) {
  const char* path = getenv("WGB_VK_PROBE_LOG");
  FILE* f = path ? fopen(path, "a") : stderr;
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(f, "[%d] ", (int)getpid());
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
  if (f != stderr) fclose(f);
}

static const char* behavior(VkPipelineRobustnessBufferBehaviorEXT b) {
  switch (b) {
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT: return "device-default";
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT: return "disabled";
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_EXT: return "robust-buffer-access";
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT: return "robust-buffer-access-2";
    default: return "?";
  }
}

static void log_pipeline_chain(const char* where, const void* next) {
  for (const VkBaseInStructure* s = next; s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT) {
      const VkPipelineRobustnessCreateInfoEXT* r = (const void*)s;
      say("  %s: VkPipelineRobustnessCreateInfo storageBuffers=%s uniformBuffers=%s", where,
          behavior(r->storageBuffers), behavior(r->uniformBuffers));
    } else {
      say("  %s: pNext sType %d", where, (int)s->sType);
    }
  }
}

static void log_device(const VkDeviceCreateInfo* ci) {
  int robust = ci->pEnabledFeatures ? (int)ci->pEnabledFeatures->robustBufferAccess : -1;
  for (const VkBaseInStructure* s = ci->pNext; s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
      robust = (int)((const VkPhysicalDeviceFeatures2*)(const void*)s)->features.robustBufferAccess;
    } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT) {
      const VkPhysicalDeviceRobustness2FeaturesEXT* r = (const void*)s;
      say("device: robustness2 robustBufferAccess2=%u robustImageAccess2=%u", r->robustBufferAccess2,
          r->robustImageAccess2);
    } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT) {
      say("device: pipelineRobustness=%u",
          ((const VkPhysicalDevicePipelineRobustnessFeaturesEXT*)(const void*)s)->pipelineRobustness);
    }
  }
  say("device: robustBufferAccess=%d, %u extensions", robust, ci->enabledExtensionCount);
  for (uint32_t i = 0; i < ci->enabledExtensionCount; ++i) say("  extension %s", ci->ppEnabledExtensionNames[i]);
}

static void log_compute_pipelines(uint32_t n, const VkComputePipelineCreateInfo* ci) {
  for (uint32_t i = 0; i < n; ++i) {
    say("compute pipeline %u (flags %#x)", i, (unsigned)ci[i].flags);
    log_pipeline_chain("pipeline", ci[i].pNext);
    log_pipeline_chain("stage", ci[i].stage.pNext);
  }
}

// One device at a time is enough for a benchmark process: the next functions are kept globally.
static PFN_vkGetInstanceProcAddr next_gipa;
static PFN_vkGetDeviceProcAddr next_gdpa;
static PFN_vkCreateComputePipelines next_create_compute;

static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateComputePipelines(VkDevice d, VkPipelineCache c, uint32_t n,
                                                                   const VkComputePipelineCreateInfo* ci,
                                                                   const VkAllocationCallbacks* a, VkPipeline* out) {
  log_compute_pipelines(n, ci);
  return next_create_compute(d, c, n, ci, a, out);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL probe_GetDeviceProcAddr(VkDevice d, const char* name) {
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)probe_GetDeviceProcAddr;
  if (!strcmp(name, "vkCreateComputePipelines")) {
    if (!next_create_compute) next_create_compute = (PFN_vkCreateComputePipelines)next_gdpa(d, name);
    return (PFN_vkVoidFunction)probe_CreateComputePipelines;
  }
  return next_gdpa(d, name);
}

#ifdef WGB_PROBE_LAYER
static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateInstance(const VkInstanceCreateInfo* ci,
                                                           const VkAllocationCallbacks* a, VkInstance* out) {
  VkLayerInstanceCreateInfo* link = (VkLayerInstanceCreateInfo*)ci->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerInstanceCreateInfo*)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  return ((PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance"))(ci, a, out);
}

static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* ci,
                                                         const VkAllocationCallbacks* a, VkDevice* out) {
  VkLayerDeviceCreateInfo* link = (VkLayerDeviceCreateInfo*)ci->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerDeviceCreateInfo*)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  next_create_compute = NULL;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  log_device(ci);
  return ((PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice"))(pd, ci, a, out);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL probe_GetInstanceProcAddr(VkInstance inst, const char* name) {
  if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)probe_GetInstanceProcAddr;
  if (!strcmp(name, "vkCreateInstance")) return (PFN_vkVoidFunction)probe_CreateInstance;
  if (!strcmp(name, "vkCreateDevice")) return (PFN_vkVoidFunction)probe_CreateDevice;
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)probe_GetDeviceProcAddr;
  return inst && next_gipa ? next_gipa(inst, name) : NULL;
}

#else  // the driver stand-in

static PFN_vkCreateDevice next_create_device;

static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* ci,
                                                         const VkAllocationCallbacks* a, VkDevice* out) {
  log_device(ci);
  next_create_compute = NULL;
  return next_create_device(pd, ci, a, out);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance inst, const char* name) {
  if (!next_gipa) {
    void* (*open)(const char*, int) = (void* (*)(const char*, int))dlsym(RTLD_DEFAULT, "wgb_real_dlopen");
    const char* path = getenv("WGB_VK_PROBE_REAL_DRIVER");
    void* h = open && path ? open(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h) {
      say("probe: cannot open the real driver %s", path ? path : "(WGB_VK_PROBE_REAL_DRIVER unset)");
      return NULL;
    }
    next_gipa = (PFN_vkGetInstanceProcAddr)dlsym(h, "vkGetInstanceProcAddr");
    say("probe: driver %s", path);
  }
  if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)vkGetInstanceProcAddr;
  if (inst && !strcmp(name, "vkCreateDevice")) {
    next_create_device = (PFN_vkCreateDevice)next_gipa(inst, name);
    return (PFN_vkVoidFunction)probe_CreateDevice;
  }
  if (inst && !strcmp(name, "vkGetDeviceProcAddr")) {
    next_gdpa = (PFN_vkGetDeviceProcAddr)next_gipa(inst, name);
    return (PFN_vkVoidFunction)probe_GetDeviceProcAddr;
  }
  return next_gipa(inst, name);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance inst, const char* name) {
  return vkGetInstanceProcAddr(inst, name);
}
#endif
#endif
