// Experiment for results/runtimes-*: on the H200, tile-direct costs 2.13-2.15 us per dispatch in
// native Dawn and 2.75-2.79 us in wgpu (Deno), with the same commands per dispatch (Dispatch + one
// barrier, whose two forms cost the same: vk_dispatch_barrier.c). This program runs the SPIR-V
// modules the two implementations handed the driver (dumped by vk_command_log.c, WGB_VK_DUMP_DIR)
// under identical conditions: tile-direct's binding layout (set 0: binding 0 the input, binding 1
// the output, both storage buffers of 256 tiles x 16x16 f32 = 256 KiB, kernels/technique/
// tile_direct.wgsl; no uniform), N back-to-back dispatches of 256 workgroups in one command buffer
// with Dawn's barrier between them (COMPUTE->COMPUTE, one VkMemoryBarrier SHADER_READ|SHADER_WRITE
// both ways), timed with two timestamps (TOP_OF_PIPE before, BOTTOM_OF_PIPE after). Crossed with
// where the buffers live (--place: each its own allocation, or both in one larger allocation at the
// offsets an implementation used; a memory type; a descriptor offset and range), with the shader
// stage's create flags (--stage-flags: Dawn passes ALLOW_VARYING_SUBGROUP_SIZE, 0x1; wgpu 0) and
// with the barrier (--barrier dawn|wgpu|none; wgpu's: a buffer barrier on the output with graphics
// stages). Every configuration runs once per round, the order reversed every other round; round 0
// is an unreported warm-up. Afterwards each configuration's output is checked against the CPU
// reference (one dispatch over a poisoned output).
//
//   gcc -O2 -o vk_spirv_dispatch vk_spirv_dispatch.c -lvulkan -lm
//   vk_spirv_dispatch --module NAME=FILE[:ENTRY] ... [--place SPEC ...] [--stage-flags LIST]
//                     [--barrier LIST] [--n LIST] [--rounds R] [--groups G] [--features dawn|wgpu]
//                     [--device I] [--raw]
//   --module: a SPIR-V file (ENTRY: its compute entry point, default the first); modules that need
//     what the device lacks (SPIR-V version, VulkanMemoryModel, maximal reconvergence) are skipped.
//   --place NAME[,type=dl|dlhv|hv|INDEX][,block=BYTES][,src=OFF][,dst=OFF][,dsrc=OFF][,ddst=OFF]
//           [,range=exact|whole]
//     type: the memory type (dl: device-local and not host-visible; dlhv: device-local and
//     host-visible; hv: host-visible, not device-local; INDEX: that type), default dl. block: 0
//     (default) gives each buffer its own allocation at offset 0; else one allocation of BYTES holds
//     both, the input bound at src and the output at dst (rounded up to the buffer's alignment).
//     dsrc/ddst: the descriptor's offset inside the buffer (the buffer grows by it); range: the
//     descriptor's range, the data's size (exact, default) or VK_WHOLE_SIZE.
//     Default: one placement, "separate" (each buffer its own device-local allocation).
//   --stage-flags: comma-separated VkPipelineShaderStageCreateFlags (default 0; 0x1 needs
//     subgroupSizeControl). --barrier: comma-separated, default dawn. --n: dispatches per batch,
//     comma-separated (default 1000). --rounds (default 11). --groups (default 256).
//   --features: the device's features as Dawn enables them (default: robustBufferAccess,
//     robustness2, the Vulkan memory model, maximal reconvergence, subgroup size control and full
//     subgroups, where supported) or as wgpu does (robustBufferAccess, robustness2, robust image
//     access, subgroup size control).
// Prints per batch size a table of ns per dispatch (median, min, max over the rounds) per
// configuration, its difference from the first module's row with the same placement, flags and
// barrier, and the output check.
//
// Not part of the product: an instrument for one question.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(x)                                                                                 \
  do {                                                                                           \
    VkResult r_ = (x);                                                                           \
    if (r_ != VK_SUCCESS) {                                                                      \
      fprintf(stderr, "vk_spirv_dispatch: %s failed: %d (line %d)\n", #x, (int)r_, __LINE__);    \
      exit(1);                                                                                   \
    }                                                                                            \
  } while (0)

static void die(const char* what) {
  fprintf(stderr, "vk_spirv_dispatch: %s\n", what);
  exit(2);
}

// ---- SPIR-V modules ---------------------------------------------------------------------------------

enum { kMaxModules = 8, kMaxPlaces = 8, kMaxList = 8 };

typedef struct {
  char name[64];
  char path[512];
  char entry[128];
  uint32_t* words;
  size_t bytes;
  unsigned version;  // 0x10600: 1.6
  int vulkan_memory_model, maximal_reconvergence;
  unsigned local[3];
  VkShaderModule module;
  int usable;
  char why[160];
} Module;

static void load_module(Module* m) {
  FILE* f = fopen(m->path, "rb");
  if (!f) {
    fprintf(stderr, "vk_spirv_dispatch: cannot open %s\n", m->path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size < 20 || size % 4) die("not a SPIR-V file (size)");
  m->words = malloc((size_t)size);
  if (fread(m->words, 1, (size_t)size, f) != (size_t)size) die("short read");
  fclose(f);
  m->bytes = (size_t)size;
  const uint32_t* w = m->words;
  const size_t n = m->bytes / 4;
  if (w[0] != 0x07230203) die("not a SPIR-V file (magic)");
  m->version = w[1] & 0xffff00;
  char first[128] = "";
  for (size_t i = 5; i < n;) {
    uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
    if (!len || i + len > n) break;
    if (op == 17 && len >= 2 && w[i + 1] == 5345) m->vulkan_memory_model = 1;  // OpCapability VulkanMemoryModel
    if (op == 10) {                                                            // OpExtension
      const char* e = (const char*)&w[i + 1];
      if (strstr(e, "maximal_reconvergence")) m->maximal_reconvergence = 1;
    }
    if (op == 15 && len >= 4 && w[i + 1] == 5 && !first[0])  // OpEntryPoint GLCompute
      snprintf(first, sizeof first, "%.*s", (int)strnlen((const char*)&w[i + 3], (len - 3) * 4), (const char*)&w[i + 3]);
    if (op == 16 && len >= 6 && w[i + 2] == 17) m->local[0] = w[i + 3], m->local[1] = w[i + 4], m->local[2] = w[i + 5];
    if (op == 16 && len >= 3 && w[i + 2] == 6023) m->maximal_reconvergence = 1;
    i += len;
  }
  if (!m->entry[0]) snprintf(m->entry, sizeof m->entry, "%s", first);
  if (!m->entry[0]) die("no GLCompute entry point");
}

// ---- placements -----------------------------------------------------------------------------------

typedef struct {
  char name[64];
  char type[16];  // dl, dlhv, hv or an index
  uint64_t block, src, dst, dsrc, ddst;
  int whole;
  // made:
  VkBuffer buf[2];
  VkDeviceMemory mem[2];  // mem[1] == mem[0] when shared
  uint64_t bound[2];      // the offsets actually bound
  uint32_t type_index;
  VkDescriptorSet set;
} Place;

static uint64_t parse_u64(const char* s) { return strtoull(s, NULL, 0); }

static void parse_place(Place* p, const char* spec) {
  memset(p, 0, sizeof *p);
  snprintf(p->type, sizeof p->type, "dl");
  char buf[512];
  snprintf(buf, sizeof buf, "%s", spec);
  char* save = NULL;
  char* tok = strtok_r(buf, ",", &save);
  if (!tok) die("empty --place");
  snprintf(p->name, sizeof p->name, "%s", tok);
  while ((tok = strtok_r(NULL, ",", &save))) {
    char* eq = strchr(tok, '=');
    if (!eq) die("--place: KEY=VALUE expected");
    *eq = 0;
    const char* v = eq + 1;
    if (!strcmp(tok, "type")) snprintf(p->type, sizeof p->type, "%s", v);
    else if (!strcmp(tok, "block")) p->block = parse_u64(v);
    else if (!strcmp(tok, "src")) p->src = parse_u64(v);
    else if (!strcmp(tok, "dst")) p->dst = parse_u64(v);
    else if (!strcmp(tok, "dsrc")) p->dsrc = parse_u64(v);
    else if (!strcmp(tok, "ddst")) p->ddst = parse_u64(v);
    else if (!strcmp(tok, "range")) p->whole = !strcmp(v, "whole");
    else die("--place: unknown key");
  }
}

static int parse_list(const char* s, uint64_t* out, int max) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  int n = 0;
  char* save = NULL;
  for (char* t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) out[n++] = parse_u64(t);
  return n;
}

static VkPhysicalDeviceMemoryProperties mprops;

static uint32_t pick_type(const char* want, uint32_t bits) {
  const VkMemoryPropertyFlags DL = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, HV = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  if (want[0] >= '0' && want[0] <= '9') {
    uint32_t i = (uint32_t)atoi(want);
    if (i < mprops.memoryTypeCount && (bits & (1u << i))) return i;
    fprintf(stderr, "vk_spirv_dispatch: memory type %u not allowed (bits %#x); using the default\n", i, bits);
    want = "dl";
  }
  VkMemoryPropertyFlags need = DL, avoid = HV;
  if (!strcmp(want, "dlhv")) need = DL | HV, avoid = 0;
  if (!strcmp(want, "hv")) need = HV, avoid = DL;
  for (int pass = 0; pass < 3; ++pass)
    for (uint32_t i = 0; i < mprops.memoryTypeCount; ++i) {
      VkMemoryPropertyFlags f = mprops.memoryTypes[i].propertyFlags;
      if (!(bits & (1u << i))) continue;
      if (pass == 0 && (f & need) == need && !(f & avoid)) return i;
      if (pass == 1 && (f & need) == need) return i;
      if (pass == 2) return i;
    }
  die("no memory type");
  return 0;
}

static uint64_t round_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

// ---- reference --------------------------------------------------------------------------------------

static uint32_t hash32(uint32_t x) {  // lowbias32, as src/gpu/hash.hpp
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// tile_input() of src/catalog/technique/reference.cpp (seed 0x5eed0003), zero replaced by 1/256:
// multiples of 1/256 in (0, 1), so every sum of nine is exact.
static float input_value(uint32_t i) {
  uint32_t v = hash32(i ^ 0x5eed0003U) & 255U;
  return (float)(v ? v : 1) * (1.0f / 256.0f);
}

static float reference_value(const float* in, uint32_t cell) {
  const uint32_t base = cell / 256 * 256, x = cell % 16, y = cell % 256 / 16;
  float s = 0.0f;
  for (uint32_t dy = 0; dy < 3; ++dy) {
    const uint32_t row = base + ((y + 15 + dy) & 15) * 16;
    for (uint32_t dx = 0; dx < 3; ++dx) s += in[row + ((x + 15 + dx) & 15)];
  }
  return s * (1.0f / 9.0f);
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

// ---- main ---------------------------------------------------------------------------------------

typedef struct {
  int module, place, barrier;
  uint32_t stage_flags;
  VkPipeline pipe;
  char label[160];
  char check[160];
} Config;

static const char* kBarrierNames[] = {"dawn", "wgpu", "none"};

int main(int argc, char** argv) {
  Module mods[kMaxModules];
  Place places[kMaxPlaces];
  int nmods = 0, nplaces = 0, raw = 0, wgpu_features = 0;
  uint64_t flags_list[kMaxList] = {0}, n_list[kMaxList] = {1000};
  int nflags = 1, nn = 1, barriers[3] = {0}, nbarriers = 1;
  uint32_t device_index = 0, rounds = 11, groups = 256;
  memset(mods, 0, sizeof mods);
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--module") && v) {
      if (nmods == kMaxModules) die("too many modules");
      Module* m = &mods[nmods++];
      const char* eq = strchr(v, '=');
      if (!eq) die("--module NAME=FILE[:ENTRY]");
      snprintf(m->name, sizeof m->name, "%.*s", (int)(eq - v), v);
      snprintf(m->path, sizeof m->path, "%s", eq + 1);
      char* colon = strrchr(m->path, ':');
      if (colon) {
        snprintf(m->entry, sizeof m->entry, "%s", colon + 1);
        *colon = 0;
      }
      ++i;
    } else if (!strcmp(a, "--place") && v) {
      if (nplaces == kMaxPlaces) die("too many placements");
      parse_place(&places[nplaces++], v);
      ++i;
    } else if (!strcmp(a, "--stage-flags") && v) {
      nflags = parse_list(v, flags_list, kMaxList);
      ++i;
    } else if (!strcmp(a, "--n") && v) {
      nn = parse_list(v, n_list, kMaxList);
      ++i;
    } else if (!strcmp(a, "--barrier") && v) {
      char buf[64];
      snprintf(buf, sizeof buf, "%s", v);
      nbarriers = 0;
      char* save = NULL;
      for (char* t = strtok_r(buf, ",", &save); t && nbarriers < 3; t = strtok_r(NULL, ",", &save)) {
        int k = !strcmp(t, "dawn") ? 0 : !strcmp(t, "wgpu") ? 1 : !strcmp(t, "none") ? 2 : -1;
        if (k < 0) die("--barrier: dawn, wgpu or none");
        barriers[nbarriers++] = k;
      }
      ++i;
    } else if (!strcmp(a, "--rounds") && v) {
      rounds = (uint32_t)atoi(v);
      ++i;
    } else if (!strcmp(a, "--groups") && v) {
      groups = (uint32_t)atoi(v);
      ++i;
    } else if (!strcmp(a, "--device") && v) {
      device_index = (uint32_t)atoi(v);
      ++i;
    } else if (!strcmp(a, "--features") && v) {
      wgpu_features = !strcmp(v, "wgpu");
      ++i;
    } else if (!strcmp(a, "--raw")) {
      raw = 1;
    } else {
      fprintf(stderr,
              "usage: %s --module NAME=FILE[:ENTRY] ... [--place SPEC ...] [--stage-flags LIST] [--barrier LIST]\n"
              "       [--n LIST] [--rounds R] [--groups G] [--features dawn|wgpu] [--device I] [--raw]\n",
              argv[0]);
      return 2;
    }
  }
  if (!nmods || rounds < 1 || groups < 1 || !nn || !nflags || !nbarriers) die("nothing to run (see --module)");
  for (int i = 0; i < nn; ++i)
    if (n_list[i] < 2) die("--n: at least 2");
  if (!nplaces) parse_place(&places[nplaces++], "separate");
  for (int i = 0; i < nmods; ++i) load_module(&mods[i]);

  // ---- instance, device, features
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "vk_spirv_dispatch", 1, NULL, 0, VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
  VkInstance inst;
  CHECK(vkCreateInstance(&ici, NULL, &inst));
  uint32_t pdn = 0;
  CHECK(vkEnumeratePhysicalDevices(inst, &pdn, NULL));
  VkPhysicalDevice* pds = calloc(pdn ? pdn : 1, sizeof *pds);
  CHECK(vkEnumeratePhysicalDevices(inst, &pdn, pds));
  for (uint32_t i = 0; i < pdn; ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pds[i], &p);
    printf("device %u: %s%s\n", i, p.deviceName, i == device_index ? "  <- used" : "");
  }
  if (device_index >= pdn) die("no such device");
  VkPhysicalDevice pd = pds[device_index];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  vkGetPhysicalDeviceMemoryProperties(pd, &mprops);

  uint32_t next = 0;
  vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL);
  VkExtensionProperties* exts = calloc(next ? next : 1, sizeof *exts);
  vkEnumerateDeviceExtensionProperties(pd, NULL, &next, exts);
  int has_robustness2 = 0, has_reconvergence = 0;
  for (uint32_t i = 0; i < next; ++i) {
    if (!strcmp(exts[i].extensionName, "VK_EXT_robustness2")) has_robustness2 = 1;
    if (!strcmp(exts[i].extensionName, "VK_KHR_shader_maximal_reconvergence")) has_reconvergence = 1;
  }

  // Supported features (the maximal-reconvergence structure is newer than these headers).
  typedef struct {
    VkStructureType sType;
    void* pNext;
    VkBool32 shaderMaximalReconvergence;
  } Reconvergence;
  Reconvergence rc_sup = {(VkStructureType)1000434000, NULL, 0};
  VkPhysicalDeviceRobustness2FeaturesEXT r2_sup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
                                                    has_reconvergence ? &rc_sup : NULL, 0, 0, 0};
  VkPhysicalDeviceVulkan13Features v13_sup = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .pNext = has_robustness2 ? (void*)&r2_sup : (has_reconvergence ? (void*)&rc_sup : NULL)};
  VkPhysicalDeviceVulkan12Features v12_sup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v13_sup};
  VkPhysicalDeviceFeatures2 f2_sup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v12_sup};
  vkGetPhysicalDeviceFeatures2(pd, &f2_sup);

  Reconvergence rc = {(VkStructureType)1000434000, NULL, 0};
  VkPhysicalDeviceRobustness2FeaturesEXT r2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT, NULL, 0, 0, 0};
  VkPhysicalDeviceVulkan13Features v13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v13};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v12};
  const char* dev_exts[4];
  uint32_t ndev_exts = 0;
  f2.features.robustBufferAccess = f2_sup.features.robustBufferAccess;
  v13.subgroupSizeControl = v13_sup.subgroupSizeControl;
  if (has_robustness2) {
    r2.robustBufferAccess2 = r2_sup.robustBufferAccess2;
    r2.robustImageAccess2 = r2_sup.robustImageAccess2;
    r2.nullDescriptor = wgpu_features ? 0 : r2_sup.nullDescriptor;
    r2.pNext = v13.pNext;
    v13.pNext = &r2;
    dev_exts[ndev_exts++] = "VK_EXT_robustness2";
  }
  if (wgpu_features) {
    v13.robustImageAccess = v13_sup.robustImageAccess;
  } else {
    v13.computeFullSubgroups = v13_sup.computeFullSubgroups;
    v12.vulkanMemoryModel = v12_sup.vulkanMemoryModel;
    v12.vulkanMemoryModelDeviceScope = v12_sup.vulkanMemoryModelDeviceScope;
    v12.vulkanMemoryModelAvailabilityVisibilityChains = v12_sup.vulkanMemoryModelAvailabilityVisibilityChains;
    if (has_reconvergence && rc_sup.shaderMaximalReconvergence) {
      rc.shaderMaximalReconvergence = 1;
      rc.pNext = v13.pNext;
      v13.pNext = &rc;
      dev_exts[ndev_exts++] = "VK_KHR_shader_maximal_reconvergence";
    }
  }
  const unsigned api = props.apiVersion;
  printf("driver version %#x, api %u.%u.%u, timestampPeriod %.3f ns, minStorageBufferOffsetAlignment %" PRIu64 "\n",
         props.driverVersion, VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api), VK_API_VERSION_PATCH(api),
         props.limits.timestampPeriod, (uint64_t)props.limits.minStorageBufferOffsetAlignment);
  printf("features (%s): robustBufferAccess=%u robustBufferAccess2=%u nullDescriptor=%u robustImageAccess=%u "
         "vulkanMemoryModel=%u maximalReconvergence=%u subgroupSizeControl=%u computeFullSubgroups=%u\n",
         wgpu_features ? "as wgpu" : "as Dawn", f2.features.robustBufferAccess, r2.robustBufferAccess2, r2.nullDescriptor,
         v13.robustImageAccess, v12.vulkanMemoryModel, rc.shaderMaximalReconvergence, v13.subgroupSizeControl,
         v13.computeFullSubgroups);
  for (uint32_t i = 0; i < mprops.memoryTypeCount; ++i)
    printf("memory type %u: heap %u flags %#x\n", i, mprops.memoryTypes[i].heapIndex,
           (unsigned)mprops.memoryTypes[i].propertyFlags);

  uint32_t qfn = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &qfn, NULL);
  VkQueueFamilyProperties* qfs = calloc(qfn, sizeof *qfs);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &qfn, qfs);
  uint32_t qf = UINT32_MAX;  // the first family with compute (both implementations use family 0 on NVIDIA)
  for (uint32_t i = 0; i < qfn && qf == UINT32_MAX; ++i)
    if (qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) qf = i;
  if (qf == UINT32_MAX || !qfs[qf].timestampValidBits) die("no compute queue with timestamps");
  const uint64_t ts_mask = qfs[qf].timestampValidBits >= 64 ? ~0ull : (1ull << qfs[qf].timestampValidBits) - 1;

  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, qf, 1, &prio};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2, 0, 1, &qci, 0, NULL, ndev_exts, dev_exts, NULL};
  VkDevice dev;
  CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, qf, 0, &queue);

  // ---- modules: skip what this device cannot run
  for (int i = 0; i < nmods; ++i) {
    Module* m = &mods[i];
    const unsigned need_api = m->version >= 0x10600 ? VK_API_VERSION_1_3 : m->version >= 0x10400 ? VK_API_VERSION_1_2
                                                                                                    : VK_API_VERSION_1_0;
    m->usable = 1;
    if (api < need_api) snprintf(m->why, sizeof m->why, "SPIR-V %u.%u needs a newer Vulkan", m->version >> 16, (m->version >> 8) & 0xff);
    else if (m->vulkan_memory_model && !v12.vulkanMemoryModel) snprintf(m->why, sizeof m->why, "needs vulkanMemoryModel");
    else if (m->maximal_reconvergence && !rc.shaderMaximalReconvergence) snprintf(m->why, sizeof m->why, "needs maximal reconvergence");
    else if (m->local[0] * m->local[1] * m->local[2] != 256) snprintf(m->why, sizeof m->why, "local size %ux%ux%u is not 256 invocations", m->local[0], m->local[1], m->local[2]);
    if (m->why[0]) m->usable = 0;
    printf("module %s: %s, %zu bytes, SPIR-V %u.%u, entry %s, local %ux%ux%u%s%s%s%s\n", m->name, m->path, m->bytes,
           m->version >> 16, (m->version >> 8) & 0xff, m->entry, m->local[0], m->local[1], m->local[2],
           m->vulkan_memory_model ? ", VulkanMemoryModel" : "", m->maximal_reconvergence ? ", maximal reconvergence" : "",
           m->usable ? "" : ": SKIPPED, ", m->why);
    if (!m->usable) continue;
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, m->bytes, m->words};
    CHECK(vkCreateShaderModule(dev, &smci, NULL, &m->module));
  }

  // ---- layout (tile-direct's: two storage buffers, set 0)
  VkDescriptorSetLayoutBinding lb[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
                                        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
  VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 2, lb};
  VkDescriptorSetLayout dsl;
  CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
  VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl, 0, NULL};
  VkPipelineLayout pl;
  CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));
  VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kMaxPlaces};
  VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, kMaxPlaces, 1, &ps};
  VkDescriptorPool dp;
  CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));

  // ---- buffers per placement
  const uint64_t cells = (uint64_t)groups * 256, data = cells * 4;
  const uint64_t salign = props.limits.minStorageBufferOffsetAlignment;
  for (int p = 0; p < nplaces; ++p) {
    Place* pl_ = &places[p];
    if (salign && (pl_->dsrc % salign || pl_->ddst % salign)) die("--place: dsrc/ddst must be multiples of minStorageBufferOffsetAlignment");
    VkMemoryRequirements mr[2];
    for (int k = 0; k < 2; ++k) {
      VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, (k ? pl_->ddst : pl_->dsrc) + data,
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
      CHECK(vkCreateBuffer(dev, &bci, NULL, &pl_->buf[k]));
      vkGetBufferMemoryRequirements(dev, pl_->buf[k], &mr[k]);
    }
    pl_->type_index = pick_type(pl_->type, mr[0].memoryTypeBits & mr[1].memoryTypeBits);
    if (!pl_->block) {
      for (int k = 0; k < 2; ++k) {
        VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, mr[k].size, pl_->type_index};
        CHECK(vkAllocateMemory(dev, &mai, NULL, &pl_->mem[k]));
        pl_->bound[k] = 0;
        CHECK(vkBindBufferMemory(dev, pl_->buf[k], pl_->mem[k], 0));
      }
    } else {
      VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, pl_->block, pl_->type_index};
      CHECK(vkAllocateMemory(dev, &mai, NULL, &pl_->mem[0]));
      pl_->mem[1] = pl_->mem[0];
      for (int k = 0; k < 2; ++k) {
        uint64_t off = round_up(k ? pl_->dst : pl_->src, mr[k].alignment);
        if (off + mr[k].size > pl_->block) die("--place: a buffer does not fit in the block");
        pl_->bound[k] = off;
        CHECK(vkBindBufferMemory(dev, pl_->buf[k], pl_->mem[0], off));
      }
      if (pl_->bound[0] < pl_->bound[1] + mr[1].size && pl_->bound[1] < pl_->bound[0] + mr[0].size)
        die("--place: the two buffers overlap");
    }
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 1, &dsl};
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &pl_->set));
    VkDescriptorBufferInfo dbi[2] = {{pl_->buf[0], pl_->dsrc, pl_->whole ? VK_WHOLE_SIZE : data},
                                     {pl_->buf[1], pl_->ddst, pl_->whole ? VK_WHOLE_SIZE : data}};
    VkWriteDescriptorSet w[2] = {
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, pl_->set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi[0], NULL},
        {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, pl_->set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi[1], NULL}};
    vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
    printf("place %s: memory type %u (flags %#x), %s, input at %" PRIu64 " (+%" PRIu64 " in the buffer), output at %" PRIu64
           " (+%" PRIu64 "), range %s, alignment %" PRIu64 "/%" PRIu64 "\n",
           pl_->name, pl_->type_index, (unsigned)mprops.memoryTypes[pl_->type_index].propertyFlags,
           pl_->block ? "one allocation" : "separate allocations", pl_->bound[0], pl_->dsrc, pl_->bound[1], pl_->ddst,
           pl_->whole ? "WHOLE" : "exact", (uint64_t)mr[0].alignment, (uint64_t)mr[1].alignment);
  }

  // Host-visible staging: the input, and the output read back.
  VkBuffer staging;
  VkDeviceMemory staging_mem;
  {
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, data,
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
    CHECK(vkCreateBuffer(dev, &bci, NULL, &staging));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, staging, &mr);
    uint32_t t = UINT32_MAX;
    for (uint32_t i = 0; i < mprops.memoryTypeCount && t == UINT32_MAX; ++i) {
      const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if ((mr.memoryTypeBits & (1u << i)) && (mprops.memoryTypes[i].propertyFlags & want) == want) t = i;
    }
    if (t == UINT32_MAX) die("no host-visible coherent memory");
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, mr.size, t};
    CHECK(vkAllocateMemory(dev, &mai, NULL, &staging_mem));
    CHECK(vkBindBufferMemory(dev, staging, staging_mem, 0));
  }
  float* host;
  CHECK(vkMapMemory(dev, staging_mem, 0, VK_WHOLE_SIZE, 0, (void**)&host));
  float* input = malloc(data);
  for (uint32_t i = 0; i < cells; ++i) input[i] = input_value(i);
  memcpy(host, input, data);

  VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                 VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, qf};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(dev, &cpi, NULL, &pool));
  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  VkFence fence;
  CHECK(vkCreateFence(dev, &fci, NULL, &fence));
  VkCommandBufferBeginInfo cbbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, NULL};
  VkCommandBuffer once;
  {
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &once));
  }
#define SUBMIT_AND_WAIT(cb)                                                                  \
  do {                                                                                       \
    VkSubmitInfo si_ = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &(cb), 0, NULL}; \
    CHECK(vkResetFences(dev, 1, &fence));                                                    \
    CHECK(vkQueueSubmit(queue, 1, &si_, fence));                                             \
    CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));                             \
  } while (0)

  // Upload the input to every placement; poison the outputs (-1.0f).
  const uint32_t kPoison = 0xbf800000u;
  CHECK(vkBeginCommandBuffer(once, &cbbi));
  for (int p = 0; p < nplaces; ++p) {
    VkBufferCopy c = {0, places[p].dsrc, data};
    vkCmdCopyBuffer(once, staging, places[p].buf[0], 1, &c);
    vkCmdFillBuffer(once, places[p].buf[1], places[p].ddst, data, kPoison);
  }
  VkMemoryBarrier to_compute = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(once, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &to_compute,
                       0, NULL, 0, NULL);
  CHECK(vkEndCommandBuffer(once));
  SUBMIT_AND_WAIT(once);

  // ---- configurations: module x placement x stage flags x barrier
  const int max_configs = kMaxModules * kMaxPlaces * kMaxList * 3;
  Config* cfg = calloc((size_t)max_configs, sizeof *cfg);
  int ncfg = 0;
  for (int b = 0; b < nbarriers; ++b)
    for (int f = 0; f < nflags; ++f)
      for (int p = 0; p < nplaces; ++p)
        for (int m = 0; m < nmods; ++m) {
          if (!mods[m].usable) continue;
          const uint32_t sf = (uint32_t)flags_list[f];
          if ((sf & 0x3) && !v13.subgroupSizeControl) {
            printf("stage flags %#x skipped: no subgroupSizeControl\n", sf);
            continue;
          }
          Config* c = &cfg[ncfg++];
          c->module = m, c->place = p, c->barrier = barriers[b], c->stage_flags = sf;
          snprintf(c->label, sizeof c->label, "%.60s/%.60s/flags=%#x/barrier=%s", mods[m].name, places[p].name, sf,
                   kBarrierNames[barriers[b]]);
          VkComputePipelineCreateInfo cpci = {
              VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
              {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, sf, VK_SHADER_STAGE_COMPUTE_BIT,
               mods[m].module, mods[m].entry, NULL},
              pl, VK_NULL_HANDLE, -1};
          CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &c->pipe));
        }
  if (!ncfg) die("no configuration can run");

  // One command buffer per (configuration, batch size), recorded once, submitted once per round.
  const int nbatches = ncfg * nn;
  VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, NULL, 0, VK_QUERY_TYPE_TIMESTAMP,
                                (uint32_t)(2 * nbatches), 0};
  VkQueryPool qp;
  CHECK(vkCreateQueryPool(dev, &qpci, NULL, &qp));
  VkCommandBuffer* cbs = calloc((size_t)nbatches, sizeof *cbs);
  VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, (uint32_t)nbatches};
  CHECK(vkAllocateCommandBuffers(dev, &cbai, cbs));
  const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  const VkPipelineStageFlags CS = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  const VkPipelineStageFlags WGPU_SRC = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                                        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | CS;
  const VkPipelineStageFlags WGPU_DST = VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | CS |
                                        VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  for (int c = 0; c < ncfg; ++c)
    for (int s = 0; s < nn; ++s) {
      const int b = c * nn + s;
      VkCommandBuffer cb = cbs[b];
      const Place* p = &places[cfg[c].place];
      CHECK(vkBeginCommandBuffer(cb, &cbbi));
      vkCmdResetQueryPool(cb, qp, 2 * b, 2);
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 2 * b);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, cfg[c].pipe);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &p->set, 0, NULL);
      VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, rw, rw};
      VkBufferMemoryBarrier bb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, NULL, rw, rw, qf, qf, p->buf[1], 0, VK_WHOLE_SIZE};
      for (uint64_t i = 0; i < n_list[s]; ++i) {
        if (i > 0 && cfg[c].barrier == 0) vkCmdPipelineBarrier(cb, CS, CS, 0, 1, &mb, 0, NULL, 0, NULL);
        if (i > 0 && cfg[c].barrier == 1) vkCmdPipelineBarrier(cb, WGPU_SRC, WGPU_DST, 0, 0, NULL, 1, &bb, 0, NULL);
        vkCmdDispatch(cb, groups, 1, 1);
      }
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 2 * b + 1);
      CHECK(vkEndCommandBuffer(cb));
    }

  double* ns = calloc((size_t)nbatches * rounds, sizeof *ns);
  printf("%d configuration(s) x %d batch size(s), %u rounds (round 0 unreported warm-up), %u workgroups of 256 per dispatch\n",
         ncfg, nn, rounds, groups);
  fflush(stdout);
  for (uint32_t r = 0; r <= rounds; ++r) {
    for (int k = 0; k < nbatches; ++k) {
      const int b = (r % 2) ? nbatches - 1 - k : k;
      SUBMIT_AND_WAIT(cbs[b]);
      uint64_t t[2];
      CHECK(vkGetQueryPoolResults(dev, qp, 2 * b, 2, sizeof t, t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      const uint64_t n = n_list[b % nn];
      const double v = (double)((t[1] - t[0]) & ts_mask) * props.limits.timestampPeriod / (double)n;
      if (r == 0) continue;
      ns[(size_t)b * rounds + (r - 1)] = v;
      if (raw) printf("raw round=%u config=%s n=%" PRIu64 " ns_per_dispatch=%.1f\n", r, cfg[b / nn].label, n, v);
    }
  }

  // ---- output check: one dispatch of each configuration over a poisoned output
  float* want = malloc(data);
  for (uint32_t i = 0; i < cells; ++i) want[i] = reference_value(input, i);
  for (int c = 0; c < ncfg; ++c) {
    const Place* p = &places[cfg[c].place];
    CHECK(vkResetCommandBuffer(once, 0));
    CHECK(vkBeginCommandBuffer(once, &cbbi));
    VkMemoryBarrier to_transfer = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, rw, VK_ACCESS_TRANSFER_WRITE_BIT};
    vkCmdPipelineBarrier(once, CS, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &to_transfer, 0, NULL, 0, NULL);
    vkCmdFillBuffer(once, p->buf[1], p->ddst, data, kPoison);
    vkCmdPipelineBarrier(once, VK_PIPELINE_STAGE_TRANSFER_BIT, CS, 0, 1, &to_compute, 0, NULL, 0, NULL);
    vkCmdBindPipeline(once, VK_PIPELINE_BIND_POINT_COMPUTE, cfg[c].pipe);
    vkCmdBindDescriptorSets(once, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &p->set, 0, NULL);
    vkCmdDispatch(once, groups, 1, 1);
    VkMemoryBarrier to_copy = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
    vkCmdPipelineBarrier(once, CS, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &to_copy, 0, NULL, 0, NULL);
    VkBufferCopy cp = {p->ddst, 0, data};
    vkCmdCopyBuffer(once, p->buf[1], staging, 1, &cp);
    VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(once, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
    CHECK(vkEndCommandBuffer(once));
    SUBMIT_AND_WAIT(once);
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < cells; ++i)
      if (fabsf(host[i] - want[i]) > 1e-6f * fabsf(want[i]) + 1e-7f) {
        if (!bad) first = i;
        ++bad;
      }
    if (!bad) snprintf(cfg[c].check, sizeof cfg[c].check, "ok");
    else
      snprintf(cfg[c].check, sizeof cfg[c].check, "WRONG: %" PRIu64 " of %" PRIu64 " cells (first %" PRIu64 ": %g, want %g)",
               bad, cells, first, (double)host[first], (double)want[first]);
  }

  // ---- report
  for (int s = 0; s < nn; ++s) {
    printf("\n%" PRIu64 " dispatches per batch, ns per dispatch over %u rounds:\n", n_list[s], rounds);
    printf("  %-44s %9s %9s %9s %9s  %s\n", "module/place/stage flags/barrier", "median", "min", "max", "-module0",
           "output");
    double* med = calloc((size_t)ncfg, sizeof *med);
    for (int c = 0; c < ncfg; ++c) {
      double* v = &ns[(size_t)(c * nn + s) * rounds];
      double* sorted = malloc(rounds * sizeof *sorted);
      memcpy(sorted, v, rounds * sizeof *sorted);
      qsort(sorted, rounds, sizeof *sorted, cmp_double);
      med[c] = rounds % 2 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
      // The first usable module's row with the same placement, flags and barrier.
      double base = med[c];
      for (int o = 0; o <= c; ++o)
        if (cfg[o].place == cfg[c].place && cfg[o].stage_flags == cfg[c].stage_flags && cfg[o].barrier == cfg[c].barrier) {
          base = med[o];
          break;
        }
      printf("  %-44s %9.1f %9.1f %9.1f %+9.1f  %s\n", cfg[c].label, med[c], sorted[0], sorted[rounds - 1], med[c] - base,
             cfg[c].check);
      free(sorted);
    }
    free(med);
  }

  vkDeviceWaitIdle(dev);
  vkDestroyQueryPool(dev, qp, NULL);
  vkDestroyFence(dev, fence, NULL);
  vkDestroyCommandPool(dev, pool, NULL);
  for (int c = 0; c < ncfg; ++c) vkDestroyPipeline(dev, cfg[c].pipe, NULL);
  for (int m = 0; m < nmods; ++m)
    if (mods[m].module) vkDestroyShaderModule(dev, mods[m].module, NULL);
  for (int p = 0; p < nplaces; ++p) {
    for (int k = 0; k < 2; ++k) vkDestroyBuffer(dev, places[p].buf[k], NULL);
    vkFreeMemory(dev, places[p].mem[0], NULL);
    if (places[p].mem[1] != places[p].mem[0]) vkFreeMemory(dev, places[p].mem[1], NULL);
  }
  vkUnmapMemory(dev, staging_mem);
  vkDestroyBuffer(dev, staging, NULL);
  vkFreeMemory(dev, staging_mem, NULL);
  vkDestroyDescriptorPool(dev, dp, NULL);
  vkDestroyPipelineLayout(dev, pl, NULL);
  vkDestroyDescriptorSetLayout(dev, dsl, NULL);
  vkDestroyDevice(dev, NULL);
  vkDestroyInstance(inst, NULL);
  return 0;
}
