// Experiment for results/runtimes-*: which Vulkan commands does a WebGPU implementation record
// around each compute dispatch, and with which objects? A Vulkan layer that logs, one line each, to
// $WGB_VK_LOG (appended; stderr when unset):
//   - every command that shapes a compute pass: pipeline and descriptor-set binds (a pipeline's bind
//     names its dumped module), push constants and push descriptors, dispatches, pipeline barriers
//     (both kinds, with every memory and buffer barrier's stage and access masks), events,
//     timestamps, query resets and copies, buffer fills, updates and copies, debug labels, command
//     buffers' begin and end, queue submissions;
//   - the objects: the device (its extensions, its enabled features by name, its memory heaps and
//     types), shader modules (SPIR-V version, memory model, entry points, local size, an FNV-1a hash;
//     with WGB_VK_DUMP_DIR set, the code itself as DIR/<pid>-<n>.spv, n counting this process's
//     modules; inline modules of maintenance5 too), compute pipelines (create flags, the stage's
//     flags, entry point, module, layout, cache, pNext chains: required subgroup size, robustness,
//     specialization constants and their values), pipeline layouts (set layouts, push-constant
//     ranges), descriptor set layouts (per binding: type, count, stages, binding flags), descriptor
//     pools and set allocations, descriptor writes (per buffer descriptor: buffer, offset, range)
//     and copies, buffers (size, usage, sharing; destruction), their memory requirements (size,
//     alignment, allowed types, dedicated preference), memory allocations (size, type index with the
//     type's property flags and its heap, allocate flags, dedicated buffer or image, priority; frees)
//     and buffer binds (memory, offset; vkBindBufferMemory and vkBindBufferMemory2), query pools.
// The one-call script that used this layer (`git show d23dcbd:bench/h200_dispatch_trace.sh`)
// summarised such a log: the tile-direct pass, its pipeline,
// module, layouts, and per binding the descriptor, the buffer and the memory it lives in.
//
// A command buffer's lines are kept until vkEndCommandBuffer and then written together, each as
//   [pid] cbID.SEQ vkCmd... arguments
// (ID: this process's count of vkBeginCommandBuffer calls; SEQ: the command's place in it). Runs of
// a repeated block of up to 8 lines (a pass of 1000 dispatches) are written once, followed by
//   [pid] cbID.SEQ..SEQ ^ the previous N line(s) x R more
// unless WGB_VK_LOG_RAW=1. Everything else (submissions, creations) is written at once, as
//   [pid] vkCreate... arguments
// Handles are printed as the driver gives them; a handle freed and reused names its newest object.
//
// Build (needs libvulkan-dev for the headers, 1.3.239 here):
//   gcc -O2 -shared -fPIC -fvisibility=hidden -o libwgb_vk_command_log.so vk_command_log.c -lpthread
// Its manifest, DIR/wgb_vk_command_log.json (library_path: absolute, or relative to the manifest):
//   {"file_format_version": "1.1.2", "layer": {"name": "VK_LAYER_WGB_command_log", "type": "GLOBAL",
//    "library_path": "./libwgb_vk_command_log.so", "api_version": "1.3.239", "implementation_version": "1",
//    "description": "command log", "functions": {"vkGetInstanceProcAddr": "cmdlog_GetInstanceProcAddr",
//    "vkGetDeviceProcAddr": "cmdlog_GetDeviceProcAddr"}}}
// Run any program that uses the Vulkan loader (libvulkan.so.1: native Dawn, Deno's wgpu) with
//   VK_LAYER_PATH=DIR VK_INSTANCE_LAYERS=VK_LAYER_WGB_command_log WGB_VK_LOG=FILE [WGB_VK_DUMP_DIR=DIR]
// (loaders from 1.3.234 also take VK_LOADER_LAYERS_ENABLE=VK_LAYER_WGB_command_log instead of
// VK_INSTANCE_LAYERS). The log's first line per process, "instance ...", says the layer is loaded.
//
// Not part of the product: an instrument for one question.
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define EXPORT __attribute__((visibility("default")))

// ---- output ---------------------------------------------------------------------------------------

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;  // guards the file and the command buffers
static FILE* out_file;

static FILE* out(void) {
  if (!out_file) {
    const char* path = getenv("WGB_VK_LOG");
    out_file = path && *path ? fopen(path, "a") : NULL;
    if (!out_file) out_file = stderr;
    else setvbuf(out_file, NULL, _IOFBF, 1 << 16);
  }
  return out_file;
}

// A line that is not part of a command buffer: written at once (caller holds mu).
static void say_locked(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void say_locked(const char* fmt, ...) {
  FILE* f = out();
  va_list ap;
  va_start(ap, fmt);
  fprintf(f, "[%d] ", (int)getpid());
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
  fflush(f);
}

// A growing string for composing one line.
typedef struct {
  char* s;
  size_t n, cap;
} Str;

static void put(Str* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Str* b, const char* fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->n;
    int k = vsnprintf(b->s ? b->s + b->n : NULL, room, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if ((size_t)k < room) {
      b->n += (size_t)k;
      return;
    }
    b->cap = b->cap * 2 + (size_t)k + 64;
    b->s = realloc(b->s, b->cap);
    if (!b->s) abort();
  }
}

// ---- flag names -------------------------------------------------------------------------------------

typedef struct {
  uint64_t bit;
  const char* name;
} Bit;

static const Bit kStages[] = {
    {0x1, "TOP"}, {0x2, "DRAW_INDIRECT"}, {0x4, "VERTEX_INPUT"}, {0x8, "VERTEX"}, {0x10, "TESS_CTRL"},
    {0x20, "TESS_EVAL"}, {0x40, "GEOMETRY"}, {0x80, "FRAGMENT"}, {0x100, "EARLY_FRAG_TESTS"},
    {0x200, "LATE_FRAG_TESTS"}, {0x400, "COLOR_OUT"}, {0x800, "COMPUTE"}, {0x1000, "TRANSFER"},
    {0x2000, "BOTTOM"}, {0x4000, "HOST"}, {0x8000, "ALL_GRAPHICS"}, {0x10000, "ALL_COMMANDS"},
    {0x100000000ull, "COPY"}, {0x200000000ull, "RESOLVE"}, {0x400000000ull, "BLIT"}, {0x800000000ull, "CLEAR"},
    {0x1000000000ull, "INDEX_INPUT"}, {0x2000000000ull, "VERTEX_ATTRIBUTE_INPUT"},
    {0x4000000000ull, "PRE_RASTERIZATION"}, {0, NULL}};

static const Bit kAccess[] = {
    {0x1, "INDIRECT_READ"}, {0x2, "INDEX_READ"}, {0x4, "VERTEX_ATTR_READ"}, {0x8, "UNIFORM_READ"},
    {0x10, "INPUT_ATTACHMENT_READ"}, {0x20, "SHADER_READ"}, {0x40, "SHADER_WRITE"}, {0x80, "COLOR_READ"},
    {0x100, "COLOR_WRITE"}, {0x200, "DS_READ"}, {0x400, "DS_WRITE"}, {0x800, "TRANSFER_READ"},
    {0x1000, "TRANSFER_WRITE"}, {0x2000, "HOST_READ"}, {0x4000, "HOST_WRITE"}, {0x8000, "MEMORY_READ"},
    {0x10000, "MEMORY_WRITE"}, {0x100000000ull, "SHADER_SAMPLED_READ"}, {0x200000000ull, "SHADER_STORAGE_READ"},
    {0x400000000ull, "SHADER_STORAGE_WRITE"}, {0, NULL}};

static void put_bits(Str* b, uint64_t v, const Bit* names) {
  if (!v) {
    put(b, "0");
    return;
  }
  const char* sep = "";
  for (const Bit* n = names; n->name; ++n) {
    if (v & n->bit) {
      put(b, "%s%s", sep, n->name);
      sep = "|";
      v &= ~n->bit;
    }
  }
  if (v) put(b, "%s%#" PRIx64, sep, v);
}

static void put_size(Str* b, VkDeviceSize s) {
  if (s == VK_WHOLE_SIZE) put(b, "WHOLE");
  else put(b, "%" PRIu64, (uint64_t)s);
}

static void put_queue_families(Str* b, uint32_t src, uint32_t dst) {
  if (src == VK_QUEUE_FAMILY_IGNORED && dst == VK_QUEUE_FAMILY_IGNORED) return;
  put(b, " qf=%d->%d", (int)src, (int)dst);
}

#define H(x) ((uint64_t)(uintptr_t)(x))

// ---- command buffers ----------------------------------------------------------------------------

typedef struct {
  VkCommandBuffer h;  // NULL: free slot
  unsigned id;        // begin count; 0 until begun
  unsigned ended;
  char** lines;
  size_t n, cap;
} Cb;

enum { kSlots = 1 << 14 };
static Cb cbs[kSlots];
static size_t cbs_used;
static unsigned cb_count;

static size_t slot_of(VkCommandBuffer h) { return (size_t)((H(h) >> 4) * 0x9E3779B97F4A7C15ull >> 50) & (kSlots - 1); }

static Cb* cb_find(VkCommandBuffer h, int create) {
  for (size_t i = slot_of(h), k = 0; k < kSlots; ++k, i = (i + 1) & (kSlots - 1)) {
    if (cbs[i].h == h) return &cbs[i];
    if (!cbs[i].h) {
      if (!create) return NULL;
      cbs[i].h = h;
      ++cbs_used;
      return &cbs[i];
    }
  }
  return NULL;
}

// Keeps the table from filling with freed command buffers: entries that are recording, or that
// ended among the last 4096 begun, are kept; the rest are dropped (their submissions then read "?").
static void cb_compact(void) {
  static Cb keep[kSlots];
  size_t n = 0;
  for (size_t i = 0; i < kSlots; ++i) {
    if (cbs[i].h && (!cbs[i].ended || cbs[i].id + 4096 > cb_count)) keep[n++] = cbs[i];
    else free(cbs[i].lines);
  }
  memset(cbs, 0, sizeof cbs);
  cbs_used = 0;
  for (size_t i = 0; i < n; ++i) *cb_find(keep[i].h, 1) = keep[i];
}

static int same_block(char** l, size_t a, size_t b, size_t p) {
  for (size_t i = 0; i < p; ++i)
    if (strcmp(l[a + i], l[b + i])) return 0;
  return 1;
}

// Writes a command buffer's lines, runs of a repeated block folded (caller holds mu).
static void cb_flush(Cb* c) {
  FILE* f = out();
  int pid = (int)getpid();
  const char* raw = getenv("WGB_VK_LOG_RAW");
  int fold = !(raw && *raw == '1');
  size_t i = 0;
  while (i < c->n) {
    size_t best_p = 0, best_r = 1;
    for (size_t p = 1; fold && p <= 8 && i + 2 * p <= c->n; ++p) {
      size_t r = 1;
      while (i + (r + 1) * p <= c->n && same_block(c->lines, i, i + r * p, p)) ++r;
      if (r >= 3 && r * p > best_r * (best_p ? best_p : 1)) best_p = p, best_r = r;
    }
    if (best_p) {
      for (size_t k = 0; k < best_p; ++k) fprintf(f, "[%d] cb%u.%zu %s\n", pid, c->id, i + k, c->lines[i + k]);
      fprintf(f, "[%d] cb%u.%zu..%zu ^ the previous %zu line(s) x %zu more\n", pid, c->id, i + best_p,
              i + best_r * best_p - 1, best_p, best_r - 1);
      i += best_r * best_p;
    } else {
      fprintf(f, "[%d] cb%u.%zu %s\n", pid, c->id, i, c->lines[i]);
      ++i;
    }
  }
  fflush(f);
  for (size_t k = 0; k < c->n; ++k) free(c->lines[k]);
  c->n = 0;
}

// Appends a composed line to a command buffer's record (takes the string).
static void cb_line(VkCommandBuffer h, Str* b) {
  pthread_mutex_lock(&mu);
  Cb* c = cb_find(h, 1);
  if (c) {
    if (c->n == c->cap) {
      c->cap = c->cap ? c->cap * 2 : 256;
      c->lines = realloc(c->lines, c->cap * sizeof *c->lines);
      if (!c->lines) abort();
    }
    c->lines[c->n++] = b->s ? b->s : strdup("");
    b->s = NULL;
  }
  pthread_mutex_unlock(&mu);
  free(b->s);
}

static unsigned cb_id_locked(VkCommandBuffer h) {
  Cb* c = cb_find(h, 0);
  return c ? c->id : 0;
}

// ---- handles named across calls -------------------------------------------------------------------

// A small map from a non-dispatchable handle to a string (a shader module's or a pipeline's dump
// name): the latest value wins, so a handle the driver reuses names its newest object.
typedef struct {
  uint64_t* keys;
  char** vals;
  size_t n, cap;
} Names;

static Names module_names, pipeline_names;

static size_t names_slot(const Names* m, uint64_t k) {
  size_t i = (size_t)((k >> 3) * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
  return i;
}

static void names_set(Names* m, uint64_t k, const char* v) {  // caller holds mu
  if (!k) return;
  if (2 * (m->n + 1) > m->cap) {
    Names g = {calloc(m->cap ? 2 * m->cap : 256, 8), calloc(m->cap ? 2 * m->cap : 256, sizeof(char*)), 0,
               m->cap ? 2 * m->cap : 256};
    if (!g.keys || !g.vals) abort();
    for (size_t i = 0; i < m->cap; ++i)
      if (m->keys[i]) {
        size_t j = names_slot(&g, m->keys[i]);
        g.keys[j] = m->keys[i];
        g.vals[j] = m->vals[i];
        ++g.n;
      }
    free(m->keys);
    free(m->vals);
    *m = g;
  }
  size_t i = names_slot(m, k);
  if (!m->keys[i]) {
    m->keys[i] = k;
    ++m->n;
  } else {
    free(m->vals[i]);
  }
  m->vals[i] = strdup(v ? v : "");
}

static const char* names_get(const Names* m, uint64_t k) {  // caller holds mu
  if (!m->cap || !k) return NULL;
  size_t i = names_slot(m, k);
  return m->keys[i] == k ? m->vals[i] : NULL;
}

// ---- the next layer's functions ---------------------------------------------------------------

static PFN_vkGetInstanceProcAddr next_gipa;
static PFN_vkGetDeviceProcAddr next_gdpa;
static VkInstance instance;

#define NEXT_FUNCTIONS(X)                                                                                  \
  X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets)           \
  X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdDispatchIndirect) X(vkCmdDispatchBase)                     \
  X(vkCmdPipelineBarrier) X(vkCmdPipelineBarrier2) X(vkCmdPipelineBarrier2KHR) X(vkCmdWriteTimestamp)      \
  X(vkCmdWriteTimestamp2) X(vkCmdWriteTimestamp2KHR) X(vkCmdResetQueryPool) X(vkCmdCopyBuffer)             \
  X(vkCmdCopyBuffer2) X(vkCmdCopyBuffer2KHR) X(vkCmdFillBuffer) X(vkCmdUpdateBuffer)                       \
  X(vkCmdCopyQueryPoolResults) X(vkCmdSetEvent) X(vkCmdResetEvent) X(vkCmdWaitEvents) X(vkCmdSetEvent2)    \
  X(vkCmdSetEvent2KHR) X(vkCmdWaitEvents2) X(vkCmdWaitEvents2KHR) X(vkCmdBeginDebugUtilsLabelEXT)          \
  X(vkCmdEndDebugUtilsLabelEXT) X(vkCmdInsertDebugUtilsLabelEXT) X(vkCmdExecuteCommands)                   \
  X(vkQueueSubmit) X(vkQueueSubmit2) X(vkQueueSubmit2KHR) X(vkCreateComputePipelines) X(vkCreateBuffer)    \
  X(vkCreateQueryPool) X(vkUpdateDescriptorSets) X(vkCreateShaderModule) X(vkCreatePipelineLayout)         \
  X(vkCreateDescriptorSetLayout) X(vkCreateDescriptorPool) X(vkAllocateDescriptorSets)                     \
  X(vkUpdateDescriptorSetWithTemplate) X(vkUpdateDescriptorSetWithTemplateKHR) X(vkCmdPushDescriptorSetKHR) \
  X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkGetBufferMemoryRequirements2)                    \
  X(vkGetBufferMemoryRequirements2KHR) X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory)           \
  X(vkBindBufferMemory2) X(vkBindBufferMemory2KHR)

#define DECLARE_NEXT(name) static PFN_##name next_##name;
NEXT_FUNCTIONS(DECLARE_NEXT)

// ---- command wrappers ---------------------------------------------------------------------------

static VKAPI_ATTR VkResult VKAPI_CALL log_vkBeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* bi) {
  pthread_mutex_lock(&mu);
  if (cbs_used > kSlots / 2) cb_compact();
  Cb* c = cb_find(cb, 1);
  if (c) {
    if (c->n) cb_flush(c);  // begun again without an end: what it had
    c->id = ++cb_count;
    c->ended = 0;
  }
  pthread_mutex_unlock(&mu);
  Str b = {0};
  put(&b, "vkBeginCommandBuffer handle=%#" PRIx64 " flags=%#x", H(cb), bi ? (unsigned)bi->flags : 0u);
  cb_line(cb, &b);
  return next_vkBeginCommandBuffer(cb, bi);
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkEndCommandBuffer(VkCommandBuffer cb) {
  Str b = {0};
  put(&b, "vkEndCommandBuffer");
  cb_line(cb, &b);
  pthread_mutex_lock(&mu);
  Cb* c = cb_find(cb, 0);
  if (c) {
    cb_flush(c);
    c->ended = 1;
  }
  pthread_mutex_unlock(&mu);
  return next_vkEndCommandBuffer(cb);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp, VkPipeline p) {
  Str b = {0};
  put(&b, "vkCmdBindPipeline %s pipeline=%#" PRIx64, bp == VK_PIPELINE_BIND_POINT_COMPUTE ? "compute" : "graphics/other",
      H(p));
  pthread_mutex_lock(&mu);
  const char* spv = names_get(&pipeline_names, H(p));
  if (spv) put(&b, " spv=%s", spv);
  pthread_mutex_unlock(&mu);
  cb_line(cb, &b);
  next_vkCmdBindPipeline(cb, bp, p);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                              VkPipelineLayout layout, uint32_t first, uint32_t n,
                                                              const VkDescriptorSet* sets, uint32_t ndyn,
                                                              const uint32_t* dyn) {
  Str b = {0};
  put(&b, "vkCmdBindDescriptorSets %s layout=%#" PRIx64 " firstSet=%u count=%u sets=",
      bp == VK_PIPELINE_BIND_POINT_COMPUTE ? "compute" : "graphics/other", H(layout), first, n);
  for (uint32_t i = 0; i < n; ++i) put(&b, "%s%#" PRIx64, i ? "," : "", H(sets[i]));
  put(&b, " dynamicOffsets=%u[", ndyn);
  for (uint32_t i = 0; i < ndyn; ++i) put(&b, "%s%u", i ? "," : "", dyn[i]);
  put(&b, "]");
  cb_line(cb, &b);
  next_vkCmdBindDescriptorSets(cb, bp, layout, first, n, sets, ndyn, dyn);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                                         VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                                         const void* values) {
  Str b = {0};
  put(&b, "vkCmdPushConstants layout=%#" PRIx64 " stages=%#x offset=%u size=%u words=", H(layout), (unsigned)stages,
      offset, size);
  const uint32_t* w = values;
  for (uint32_t i = 0; i < size / 4 && i < 8; ++i) put(&b, "%s%u", i ? "," : "", w[i]);
  if (size / 4 > 8) put(&b, ",...");
  cb_line(cb, &b);
  next_vkCmdPushConstants(cb, layout, stages, offset, size, values);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  Str b = {0};
  put(&b, "vkCmdDispatch %u %u %u", x, y, z);
  cb_line(cb, &b);
  next_vkCmdDispatch(cb, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz,
                                                        uint32_t x, uint32_t y, uint32_t z) {
  Str b = {0};
  put(&b, "vkCmdDispatchBase base=%u,%u,%u %u %u %u", bx, by, bz, x, y, z);
  cb_line(cb, &b);
  next_vkCmdDispatchBase(cb, bx, by, bz, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buf, VkDeviceSize off) {
  Str b = {0};
  put(&b, "vkCmdDispatchIndirect buffer=%#" PRIx64 " offset=%" PRIu64, H(buf), (uint64_t)off);
  cb_line(cb, &b);
  next_vkCmdDispatchIndirect(cb, buf, off);
}

// The barriers of vkCmdPipelineBarrier and vkCmdWaitEvents.
static void put_barriers1(Str* b, uint32_t nm, const VkMemoryBarrier* m, uint32_t nb, const VkBufferMemoryBarrier* bb,
                          uint32_t ni, const VkImageMemoryBarrier* im) {
  for (uint32_t i = 0; i < nm; ++i) {
    put(b, " | memory ");
    put_bits(b, m[i].srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, m[i].dstAccessMask, kAccess);
  }
  for (uint32_t i = 0; i < nb; ++i) {
    put(b, " | buffer %#" PRIx64 " off=%" PRIu64 " size=", H(bb[i].buffer), (uint64_t)bb[i].offset);
    put_size(b, bb[i].size);
    put(b, " ");
    put_bits(b, bb[i].srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, bb[i].dstAccessMask, kAccess);
    put_queue_families(b, bb[i].srcQueueFamilyIndex, bb[i].dstQueueFamilyIndex);
  }
  for (uint32_t i = 0; i < ni; ++i) {
    put(b, " | image %#" PRIx64 " ", H(im[i].image));
    put_bits(b, im[i].srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, im[i].dstAccessMask, kAccess);
    put(b, " layout=%d->%d", (int)im[i].oldLayout, (int)im[i].newLayout);
    put_queue_families(b, im[i].srcQueueFamilyIndex, im[i].dstQueueFamilyIndex);
  }
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdPipelineBarrier(VkCommandBuffer cb, VkPipelineStageFlags src,
                                                           VkPipelineStageFlags dst, VkDependencyFlags dep, uint32_t nm,
                                                           const VkMemoryBarrier* m, uint32_t nb,
                                                           const VkBufferMemoryBarrier* bb, uint32_t ni,
                                                           const VkImageMemoryBarrier* im) {
  Str b = {0};
  put(&b, "vkCmdPipelineBarrier ");
  put_bits(&b, src, kStages);
  put(&b, "->");
  put_bits(&b, dst, kStages);
  put(&b, " dep=%#x memory=%u buffer=%u image=%u", (unsigned)dep, nm, nb, ni);
  put_barriers1(&b, nm, m, nb, bb, ni, im);
  cb_line(cb, &b);
  next_vkCmdPipelineBarrier(cb, src, dst, dep, nm, m, nb, bb, ni, im);
}

// A VkDependencyInfo (vkCmdPipelineBarrier2, vkCmdSetEvent2, vkCmdWaitEvents2).
static void put_dependency2(Str* b, const VkDependencyInfo* d) {
  put(b, "dep=%#x memory=%u buffer=%u image=%u", (unsigned)d->dependencyFlags, d->memoryBarrierCount,
      d->bufferMemoryBarrierCount, d->imageMemoryBarrierCount);
  for (uint32_t i = 0; i < d->memoryBarrierCount; ++i) {
    const VkMemoryBarrier2* m = &d->pMemoryBarriers[i];
    put(b, " | memory ");
    put_bits(b, m->srcStageMask, kStages);
    put(b, "->");
    put_bits(b, m->dstStageMask, kStages);
    put(b, " ");
    put_bits(b, m->srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, m->dstAccessMask, kAccess);
  }
  for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; ++i) {
    const VkBufferMemoryBarrier2* m = &d->pBufferMemoryBarriers[i];
    put(b, " | buffer %#" PRIx64 " off=%" PRIu64 " size=", H(m->buffer), (uint64_t)m->offset);
    put_size(b, m->size);
    put(b, " ");
    put_bits(b, m->srcStageMask, kStages);
    put(b, "->");
    put_bits(b, m->dstStageMask, kStages);
    put(b, " ");
    put_bits(b, m->srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, m->dstAccessMask, kAccess);
    put_queue_families(b, m->srcQueueFamilyIndex, m->dstQueueFamilyIndex);
  }
  for (uint32_t i = 0; i < d->imageMemoryBarrierCount; ++i) {
    const VkImageMemoryBarrier2* m = &d->pImageMemoryBarriers[i];
    put(b, " | image %#" PRIx64 " ", H(m->image));
    put_bits(b, m->srcStageMask, kStages);
    put(b, "->");
    put_bits(b, m->dstStageMask, kStages);
    put(b, " ");
    put_bits(b, m->srcAccessMask, kAccess);
    put(b, "->");
    put_bits(b, m->dstAccessMask, kAccess);
    put(b, " layout=%d->%d", (int)m->oldLayout, (int)m->newLayout);
  }
}

static void barrier2(VkCommandBuffer cb, const char* name, const VkDependencyInfo* d) {
  Str b = {0};
  put(&b, "%s ", name);
  put_dependency2(&b, d);
  cb_line(cb, &b);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdPipelineBarrier2(VkCommandBuffer cb, const VkDependencyInfo* d) {
  barrier2(cb, "vkCmdPipelineBarrier2", d);
  next_vkCmdPipelineBarrier2(cb, d);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdPipelineBarrier2KHR(VkCommandBuffer cb, const VkDependencyInfo* d) {
  barrier2(cb, "vkCmdPipelineBarrier2KHR", d);
  next_vkCmdPipelineBarrier2KHR(cb, d);
}

static void timestamp(VkCommandBuffer cb, const char* name, uint64_t stage, VkQueryPool pool, uint32_t q) {
  Str b = {0};
  put(&b, "%s ", name);
  put_bits(&b, stage, kStages);
  put(&b, " pool=%#" PRIx64 " query=%u", H(pool), q);
  cb_line(cb, &b);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWriteTimestamp(VkCommandBuffer cb, VkPipelineStageFlagBits s, VkQueryPool p,
                                                          uint32_t q) {
  timestamp(cb, "vkCmdWriteTimestamp", s, p, q);
  next_vkCmdWriteTimestamp(cb, s, p, q);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWriteTimestamp2(VkCommandBuffer cb, VkPipelineStageFlags2 s, VkQueryPool p,
                                                           uint32_t q) {
  timestamp(cb, "vkCmdWriteTimestamp2", s, p, q);
  next_vkCmdWriteTimestamp2(cb, s, p, q);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWriteTimestamp2KHR(VkCommandBuffer cb, VkPipelineStageFlags2 s, VkQueryPool p,
                                                              uint32_t q) {
  timestamp(cb, "vkCmdWriteTimestamp2KHR", s, p, q);
  next_vkCmdWriteTimestamp2KHR(cb, s, p, q);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdResetQueryPool(VkCommandBuffer cb, VkQueryPool p, uint32_t first, uint32_t n) {
  Str b = {0};
  put(&b, "vkCmdResetQueryPool pool=%#" PRIx64 " first=%u count=%u", H(p), first, n);
  cb_line(cb, &b);
  next_vkCmdResetQueryPool(cb, p, first, n);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdCopyQueryPoolResults(VkCommandBuffer cb, VkQueryPool p, uint32_t first,
                                                                uint32_t n, VkBuffer dst, VkDeviceSize off,
                                                                VkDeviceSize stride, VkQueryResultFlags flags) {
  Str b = {0};
  put(&b, "vkCmdCopyQueryPoolResults pool=%#" PRIx64 " first=%u count=%u dst=%#" PRIx64 " off=%" PRIu64
          " stride=%" PRIu64 " flags=%#x",
      H(p), first, n, H(dst), (uint64_t)off, (uint64_t)stride, (unsigned)flags);
  cb_line(cb, &b);
  next_vkCmdCopyQueryPoolResults(cb, p, first, n, dst, off, stride, flags);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, uint32_t n,
                                                     const VkBufferCopy* r) {
  Str b = {0};
  put(&b, "vkCmdCopyBuffer %#" PRIx64 "->%#" PRIx64, H(src), H(dst));
  for (uint32_t i = 0; i < n; ++i)
    put(&b, " [%" PRIu64 "->%" PRIu64 " %" PRIu64 "]", (uint64_t)r[i].srcOffset, (uint64_t)r[i].dstOffset,
        (uint64_t)r[i].size);
  cb_line(cb, &b);
  next_vkCmdCopyBuffer(cb, src, dst, n, r);
}
static void copy2(VkCommandBuffer cb, const char* name, const VkCopyBufferInfo2* c) {
  Str b = {0};
  put(&b, "%s %#" PRIx64 "->%#" PRIx64, name, H(c->srcBuffer), H(c->dstBuffer));
  for (uint32_t i = 0; i < c->regionCount; ++i)
    put(&b, " [%" PRIu64 "->%" PRIu64 " %" PRIu64 "]", (uint64_t)c->pRegions[i].srcOffset,
        (uint64_t)c->pRegions[i].dstOffset, (uint64_t)c->pRegions[i].size);
  cb_line(cb, &b);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdCopyBuffer2(VkCommandBuffer cb, const VkCopyBufferInfo2* c) {
  copy2(cb, "vkCmdCopyBuffer2", c);
  next_vkCmdCopyBuffer2(cb, c);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdCopyBuffer2KHR(VkCommandBuffer cb, const VkCopyBufferInfo2* c) {
  copy2(cb, "vkCmdCopyBuffer2KHR", c);
  next_vkCmdCopyBuffer2KHR(cb, c);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdFillBuffer(VkCommandBuffer cb, VkBuffer buf, VkDeviceSize off,
                                                     VkDeviceSize size, uint32_t data) {
  Str b = {0};
  put(&b, "vkCmdFillBuffer %#" PRIx64 " off=%" PRIu64 " size=", H(buf), (uint64_t)off);
  put_size(&b, size);
  put(&b, " data=%#x", data);
  cb_line(cb, &b);
  next_vkCmdFillBuffer(cb, buf, off, size, data);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdUpdateBuffer(VkCommandBuffer cb, VkBuffer buf, VkDeviceSize off,
                                                       VkDeviceSize size, const void* data) {
  Str b = {0};
  put(&b, "vkCmdUpdateBuffer %#" PRIx64 " off=%" PRIu64 " size=%" PRIu64, H(buf), (uint64_t)off, (uint64_t)size);
  cb_line(cb, &b);
  next_vkCmdUpdateBuffer(cb, buf, off, size, data);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdSetEvent(VkCommandBuffer cb, VkEvent e, VkPipelineStageFlags s) {
  Str b = {0};
  put(&b, "vkCmdSetEvent %#" PRIx64 " ", H(e));
  put_bits(&b, s, kStages);
  cb_line(cb, &b);
  next_vkCmdSetEvent(cb, e, s);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdResetEvent(VkCommandBuffer cb, VkEvent e, VkPipelineStageFlags s) {
  Str b = {0};
  put(&b, "vkCmdResetEvent %#" PRIx64 " ", H(e));
  put_bits(&b, s, kStages);
  cb_line(cb, &b);
  next_vkCmdResetEvent(cb, e, s);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWaitEvents(VkCommandBuffer cb, uint32_t ne, const VkEvent* e,
                                                     VkPipelineStageFlags src, VkPipelineStageFlags dst, uint32_t nm,
                                                     const VkMemoryBarrier* m, uint32_t nb,
                                                     const VkBufferMemoryBarrier* bb, uint32_t ni,
                                                     const VkImageMemoryBarrier* im) {
  Str b = {0};
  put(&b, "vkCmdWaitEvents events=%u ", ne);
  put_bits(&b, src, kStages);
  put(&b, "->");
  put_bits(&b, dst, kStages);
  put(&b, " memory=%u buffer=%u image=%u", nm, nb, ni);
  put_barriers1(&b, nm, m, nb, bb, ni, im);
  cb_line(cb, &b);
  next_vkCmdWaitEvents(cb, ne, e, src, dst, nm, m, nb, bb, ni, im);
}
static void set_event2(VkCommandBuffer cb, const char* name, VkEvent e, const VkDependencyInfo* d) {
  Str b = {0};
  put(&b, "%s %#" PRIx64 " ", name, H(e));
  put_dependency2(&b, d);
  cb_line(cb, &b);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdSetEvent2(VkCommandBuffer cb, VkEvent e, const VkDependencyInfo* d) {
  set_event2(cb, "vkCmdSetEvent2", e, d);
  next_vkCmdSetEvent2(cb, e, d);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdSetEvent2KHR(VkCommandBuffer cb, VkEvent e, const VkDependencyInfo* d) {
  set_event2(cb, "vkCmdSetEvent2KHR", e, d);
  next_vkCmdSetEvent2KHR(cb, e, d);
}
static void wait_events2(VkCommandBuffer cb, const char* name, uint32_t n, const VkDependencyInfo* d) {
  Str b = {0};
  put(&b, "%s events=%u", name, n);
  for (uint32_t i = 0; i < n; ++i) {
    put(&b, " {");
    put_dependency2(&b, &d[i]);
    put(&b, "}");
  }
  cb_line(cb, &b);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWaitEvents2(VkCommandBuffer cb, uint32_t n, const VkEvent* e,
                                                      const VkDependencyInfo* d) {
  wait_events2(cb, "vkCmdWaitEvents2", n, d);
  next_vkCmdWaitEvents2(cb, n, e, d);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdWaitEvents2KHR(VkCommandBuffer cb, uint32_t n, const VkEvent* e,
                                                         const VkDependencyInfo* d) {
  wait_events2(cb, "vkCmdWaitEvents2KHR", n, d);
  next_vkCmdWaitEvents2KHR(cb, n, e, d);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdBeginDebugUtilsLabelEXT(VkCommandBuffer cb, const VkDebugUtilsLabelEXT* l) {
  Str b = {0};
  put(&b, "vkCmdBeginDebugUtilsLabelEXT \"%s\"", l && l->pLabelName ? l->pLabelName : "");
  cb_line(cb, &b);
  next_vkCmdBeginDebugUtilsLabelEXT(cb, l);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdEndDebugUtilsLabelEXT(VkCommandBuffer cb) {
  Str b = {0};
  put(&b, "vkCmdEndDebugUtilsLabelEXT");
  cb_line(cb, &b);
  next_vkCmdEndDebugUtilsLabelEXT(cb);
}
static VKAPI_ATTR void VKAPI_CALL log_vkCmdInsertDebugUtilsLabelEXT(VkCommandBuffer cb, const VkDebugUtilsLabelEXT* l) {
  Str b = {0};
  put(&b, "vkCmdInsertDebugUtilsLabelEXT \"%s\"", l && l->pLabelName ? l->pLabelName : "");
  cb_line(cb, &b);
  next_vkCmdInsertDebugUtilsLabelEXT(cb, l);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdExecuteCommands(VkCommandBuffer cb, uint32_t n, const VkCommandBuffer* c) {
  Str b = {0};
  put(&b, "vkCmdExecuteCommands");
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < n; ++i) put(&b, " cb%u", cb_id_locked(c[i]));
  pthread_mutex_unlock(&mu);
  cb_line(cb, &b);
  next_vkCmdExecuteCommands(cb, n, c);
}

// ---- queue and object creation --------------------------------------------------------------------

static VKAPI_ATTR VkResult VKAPI_CALL log_vkQueueSubmit(VkQueue q, uint32_t n, const VkSubmitInfo* s, VkFence fence) {
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < n; ++i) {
    Str b = {0};
    put(&b, "vkQueueSubmit queue=%#" PRIx64 " submit %u/%u: commandBuffers=%u [", H(q), i + 1, n,
        s[i].commandBufferCount);
    for (uint32_t k = 0; k < s[i].commandBufferCount; ++k) put(&b, "%scb%u", k ? " " : "", cb_id_locked(s[i].pCommandBuffers[k]));
    put(&b, "] waitSemaphores=%u [", s[i].waitSemaphoreCount);
    for (uint32_t k = 0; k < s[i].waitSemaphoreCount; ++k) {
      if (k) put(&b, " ");
      put_bits(&b, s[i].pWaitDstStageMask ? s[i].pWaitDstStageMask[k] : 0, kStages);
    }
    put(&b, "] signalSemaphores=%u", s[i].signalSemaphoreCount);
    for (const VkBaseInStructure* p = s[i].pNext; p; p = p->pNext) put(&b, " pNext=%d", (int)p->sType);
    put(&b, " fence=%s", fence ? "yes" : "no");
    say_locked("%s", b.s);
    free(b.s);
  }
  if (!n) say_locked("vkQueueSubmit queue=%#" PRIx64 " no submits fence=%s", H(q), fence ? "yes" : "no");
  pthread_mutex_unlock(&mu);
  return next_vkQueueSubmit(q, n, s, fence);
}

static void submit2(const char* name, VkQueue q, uint32_t n, const VkSubmitInfo2* s, VkFence fence) {
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < n; ++i) {
    Str b = {0};
    put(&b, "%s queue=%#" PRIx64 " submit %u/%u: commandBuffers=%u [", name, H(q), i + 1, n, s[i].commandBufferInfoCount);
    for (uint32_t k = 0; k < s[i].commandBufferInfoCount; ++k)
      put(&b, "%scb%u", k ? " " : "", cb_id_locked(s[i].pCommandBufferInfos[k].commandBuffer));
    put(&b, "] waitSemaphores=%u [", s[i].waitSemaphoreInfoCount);
    for (uint32_t k = 0; k < s[i].waitSemaphoreInfoCount; ++k) {
      if (k) put(&b, " ");
      put_bits(&b, s[i].pWaitSemaphoreInfos[k].stageMask, kStages);
    }
    put(&b, "] signalSemaphores=%u fence=%s", s[i].signalSemaphoreInfoCount, fence ? "yes" : "no");
    say_locked("%s", b.s);
    free(b.s);
  }
  if (!n) say_locked("%s queue=%#" PRIx64 " no submits fence=%s", name, H(q), fence ? "yes" : "no");
  pthread_mutex_unlock(&mu);
}
static VKAPI_ATTR VkResult VKAPI_CALL log_vkQueueSubmit2(VkQueue q, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  submit2("vkQueueSubmit2", q, n, s, f);
  return next_vkQueueSubmit2(q, n, s, f);
}
static VKAPI_ATTR VkResult VKAPI_CALL log_vkQueueSubmit2KHR(VkQueue q, uint32_t n, const VkSubmitInfo2* s, VkFence f) {
  submit2("vkQueueSubmit2KHR", q, n, s, f);
  return next_vkQueueSubmit2KHR(q, n, s, f);
}

// ---- devices' memory types ------------------------------------------------------------------------

typedef struct {
  VkDevice d;
  VkPhysicalDeviceMemoryProperties mp;
} DeviceMemory;

enum { kDevices = 32 };
static DeviceMemory devices[kDevices];
static unsigned device_count;

static const VkPhysicalDeviceMemoryProperties* memory_of(VkDevice d) {  // caller holds mu
  for (unsigned i = 0; i < device_count && i < kDevices; ++i)
    if (devices[i].d == d) return &devices[i].mp;
  return device_count ? &devices[(device_count - 1) % kDevices].mp : NULL;
}

static const Bit kMemoryFlags[] = {{0x1, "DEVICE_LOCAL"}, {0x2, "HOST_VISIBLE"}, {0x4, "HOST_COHERENT"},
                                   {0x8, "HOST_CACHED"}, {0x10, "LAZILY_ALLOCATED"}, {0x20, "PROTECTED"},
                                   {0x40, "DEVICE_COHERENT_AMD"}, {0x80, "DEVICE_UNCACHED_AMD"},
                                   {0x100, "RDMA_CAPABLE_NV"}, {0, NULL}};
static const Bit kHeapFlags[] = {{0x1, "DEVICE_LOCAL"}, {0x2, "MULTI_INSTANCE"}, {0, NULL}};

static const Bit kBufferUsage[] = {
    {0x1, "TRANSFER_SRC"}, {0x2, "TRANSFER_DST"}, {0x4, "UNIFORM_TEXEL"}, {0x8, "STORAGE_TEXEL"},
    {0x10, "UNIFORM"}, {0x20, "STORAGE"}, {0x40, "INDEX"}, {0x80, "VERTEX"}, {0x100, "INDIRECT"},
    {0x20000, "DEVICE_ADDRESS"}, {0x200, "CONDITIONAL_RENDERING"}, {0x800, "TRANSFORM_FEEDBACK"},
    {0x1000, "TRANSFORM_FEEDBACK_COUNTER"}, {0x80000, "AS_BUILD_INPUT"}, {0x100000, "AS_STORAGE"},
    {0x400, "SBT"}, {0x200000, "SAMPLER_DESCRIPTOR_BUFFER"}, {0x400000, "RESOURCE_DESCRIPTOR_BUFFER"}, {0, NULL}};

static const Bit kShaderStages[] = {{0x1, "VERTEX"}, {0x2, "TESS_CTRL"}, {0x4, "TESS_EVAL"}, {0x8, "GEOMETRY"},
                                    {0x10, "FRAGMENT"}, {0x20, "COMPUTE"}, {0x40, "TASK"}, {0x80, "MESH"},
                                    {0, NULL}};

static const char* descriptor_type(VkDescriptorType t) {
  switch ((int)t) {
    case 0: return "SAMPLER";
    case 1: return "COMBINED_IMAGE_SAMPLER";
    case 2: return "SAMPLED_IMAGE";
    case 3: return "STORAGE_IMAGE";
    case 4: return "UNIFORM_TEXEL_BUFFER";
    case 5: return "STORAGE_TEXEL_BUFFER";
    case 6: return "UNIFORM_BUFFER";
    case 7: return "STORAGE_BUFFER";
    case 8: return "UNIFORM_BUFFER_DYNAMIC";
    case 9: return "STORAGE_BUFFER_DYNAMIC";
    case 10: return "INPUT_ATTACHMENT";
    case 1000138000: return "INLINE_UNIFORM_BLOCK";
    default: return "OTHER";
  }
}
static int is_buffer_descriptor(VkDescriptorType t) { return t >= 6 && t <= 9; }

// A pNext chain's structure types (the ones this instrument decodes are decoded by the callers).
static void put_chain(Str* b, const char* what, const void* next) {
  for (const VkBaseInStructure* p = next; p; p = p->pNext) put(b, " %s=%d", what, (int)p->sType);
}

// ---- device features ------------------------------------------------------------------------------

static const char* const kCoreFeatures[55] = {
    "robustBufferAccess",
    "fullDrawIndexUint32",
    "imageCubeArray",
    "independentBlend",
    "geometryShader",
    "tessellationShader",
    "sampleRateShading",
    "dualSrcBlend",
    "logicOp",
    "multiDrawIndirect",
    "drawIndirectFirstInstance",
    "depthClamp",
    "depthBiasClamp",
    "fillModeNonSolid",
    "depthBounds",
    "wideLines",
    "largePoints",
    "alphaToOne",
    "multiViewport",
    "samplerAnisotropy",
    "textureCompressionETC2",
    "textureCompressionASTC_LDR",
    "textureCompressionBC",
    "occlusionQueryPrecise",
    "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics",
    "fragmentStoresAndAtomics",
    "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended",
    "shaderStorageImageExtendedFormats",
    "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat",
    "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing",
    "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing",
    "shaderStorageImageArrayDynamicIndexing",
    "shaderClipDistance",
    "shaderCullDistance",
    "shaderFloat64",
    "shaderInt64",
    "shaderInt16",
    "shaderResourceResidency",
    "shaderResourceMinLod",
    "sparseBinding",
    "sparseResidencyBuffer",
    "sparseResidencyImage2D",
    "sparseResidencyImage3D",
    "sparseResidency2Samples",
    "sparseResidency4Samples",
    "sparseResidency8Samples",
    "sparseResidency16Samples",
    "sparseResidencyAliased",
    "variableMultisampleRate",
    "inheritedQueries"};

// Feature structures this instrument names (generated from vulkan_core.h 1.3.239's declarations:
// every member after sType and pNext is a VkBool32, in this order), and two newer ones by number.
typedef struct {
  int stype;
  const char* name;
  int count;
  const char* members;  // space-separated
} FeatureStruct;

static const FeatureStruct kFeatureStructs[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, "Vulkan11Features", 12, "storageBuffer16BitAccess uniformAndStorageBuffer16BitAccess storagePushConstant16 storageInputOutput16 multiview multiviewGeometryShader multiviewTessellationShader variablePointersStorageBuffer variablePointers protectedMemory samplerYcbcrConversion shaderDrawParameters"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, "Vulkan12Features", 47, "samplerMirrorClampToEdge drawIndirectCount storageBuffer8BitAccess uniformAndStorageBuffer8BitAccess storagePushConstant8 shaderBufferInt64Atomics shaderSharedInt64Atomics shaderFloat16 shaderInt8 descriptorIndexing shaderInputAttachmentArrayDynamicIndexing shaderUniformTexelBufferArrayDynamicIndexing shaderStorageTexelBufferArrayDynamicIndexing shaderUniformBufferArrayNonUniformIndexing shaderSampledImageArrayNonUniformIndexing shaderStorageBufferArrayNonUniformIndexing shaderStorageImageArrayNonUniformIndexing shaderInputAttachmentArrayNonUniformIndexing shaderUniformTexelBufferArrayNonUniformIndexing shaderStorageTexelBufferArrayNonUniformIndexing descriptorBindingUniformBufferUpdateAfterBind descriptorBindingSampledImageUpdateAfterBind descriptorBindingStorageImageUpdateAfterBind descriptorBindingStorageBufferUpdateAfterBind descriptorBindingUniformTexelBufferUpdateAfterBind descriptorBindingStorageTexelBufferUpdateAfterBind descriptorBindingUpdateUnusedWhilePending descriptorBindingPartiallyBound descriptorBindingVariableDescriptorCount runtimeDescriptorArray samplerFilterMinmax scalarBlockLayout imagelessFramebuffer uniformBufferStandardLayout shaderSubgroupExtendedTypes separateDepthStencilLayouts hostQueryReset timelineSemaphore bufferDeviceAddress bufferDeviceAddressCaptureReplay bufferDeviceAddressMultiDevice vulkanMemoryModel vulkanMemoryModelDeviceScope vulkanMemoryModelAvailabilityVisibilityChains shaderOutputViewportIndex shaderOutputLayer subgroupBroadcastDynamicId"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, "Vulkan13Features", 15, "robustImageAccess inlineUniformBlock descriptorBindingInlineUniformBlockUpdateAfterBind pipelineCreationCacheControl privateData shaderDemoteToHelperInvocation shaderTerminateInvocation subgroupSizeControl computeFullSubgroups synchronization2 textureCompressionASTC_HDR shaderZeroInitializeWorkgroupMemory dynamicRendering shaderIntegerDotProduct maintenance4"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT, "Robustness2FeaturesEXT", 3, "robustBufferAccess2 robustImageAccess2 nullDescriptor"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT, "PipelineRobustnessFeaturesEXT", 1, "pipelineRobustness"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES, "ImageRobustnessFeatures", 1, "robustImageAccess"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, "SubgroupSizeControlFeatures", 2, "subgroupSizeControl computeFullSubgroups"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, "VulkanMemoryModelFeatures", 3, "vulkanMemoryModel vulkanMemoryModelDeviceScope vulkanMemoryModelAvailabilityVisibilityChains"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, "ShaderFloat16Int8Features", 2, "shaderFloat16 shaderInt8"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, "16BitStorageFeatures", 4, "storageBuffer16BitAccess uniformAndStorageBuffer16BitAccess storagePushConstant16 storageInputOutput16"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, "8BitStorageFeatures", 3, "storageBuffer8BitAccess uniformAndStorageBuffer8BitAccess storagePushConstant8"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES, "ZeroInitializeWorkgroupMemoryFeatures", 1, "shaderZeroInitializeWorkgroupMemory"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, "Maintenance4Features", 1, "maintenance4"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES, "ShaderIntegerDotProductFeatures", 1, "shaderIntegerDotProduct"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES, "ShaderDemoteToHelperInvocationFeatures", 1, "shaderDemoteToHelperInvocation"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES, "ShaderSubgroupExtendedTypesFeatures", 1, "shaderSubgroupExtendedTypes"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES, "DescriptorIndexingFeatures", 20, "shaderInputAttachmentArrayDynamicIndexing shaderUniformTexelBufferArrayDynamicIndexing shaderStorageTexelBufferArrayDynamicIndexing shaderUniformBufferArrayNonUniformIndexing shaderSampledImageArrayNonUniformIndexing shaderStorageBufferArrayNonUniformIndexing shaderStorageImageArrayNonUniformIndexing shaderInputAttachmentArrayNonUniformIndexing shaderUniformTexelBufferArrayNonUniformIndexing shaderStorageTexelBufferArrayNonUniformIndexing descriptorBindingUniformBufferUpdateAfterBind descriptorBindingSampledImageUpdateAfterBind descriptorBindingStorageImageUpdateAfterBind descriptorBindingStorageBufferUpdateAfterBind descriptorBindingUniformTexelBufferUpdateAfterBind descriptorBindingStorageTexelBufferUpdateAfterBind descriptorBindingUpdateUnusedWhilePending descriptorBindingPartiallyBound descriptorBindingVariableDescriptorCount runtimeDescriptorArray"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, "TimelineSemaphoreFeatures", 1, "timelineSemaphore"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, "BufferDeviceAddressFeatures", 3, "bufferDeviceAddress bufferDeviceAddressCaptureReplay bufferDeviceAddressMultiDevice"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, "DynamicRenderingFeatures", 1, "dynamicRendering"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, "Synchronization2Features", 1, "synchronization2"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES, "ShaderAtomicInt64Features", 2, "shaderBufferInt64Atomics shaderSharedInt64Atomics"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT, "ExtendedDynamicStateFeaturesEXT", 1, "extendedDynamicState"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, "DepthClipEnableFeaturesEXT", 1, "depthClipEnable"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, "MultiviewFeatures", 3, "multiview multiviewGeometryShader multiviewTessellationShader"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, "ShaderDrawParametersFeatures", 1, "shaderDrawParameters"},
    {1000434000, "ShaderMaximalReconvergenceFeaturesKHR", 1, "shaderMaximalReconvergence"},
    {1000470000, "Maintenance5FeaturesKHR", 1, "maintenance5"},
};

// The features a device is created with: VkPhysicalDeviceFeatures by name, then every structure of
// the create info's chain that is known above with its enabled members by name (others by sType
// only: their size is not known here). Caller holds mu.
static void say_features(const VkDeviceCreateInfo* ci) {
  const VkPhysicalDeviceFeatures* core = ci->pEnabledFeatures;
  for (const VkBaseInStructure* p = ci->pNext; p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) core = &((const VkPhysicalDeviceFeatures2*)p)->features;
  Str b = {0};
  put(&b, "  features core:");
  if (core) {
    const VkBool32* f = (const VkBool32*)core;
    for (int i = 0; i < 55; ++i)
      if (f[i]) put(&b, " %s", kCoreFeatures[i]);
  } else put(&b, " none");
  say_locked("%s", b.s);
  free(b.s);
  for (const VkBaseInStructure* p = ci->pNext; p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 || p->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO)
      continue;
    const FeatureStruct* fs = NULL;
    for (size_t i = 0; i < sizeof kFeatureStructs / sizeof kFeatureStructs[0]; ++i)
      if (kFeatureStructs[i].stype == (int)p->sType) fs = &kFeatureStructs[i];
    b = (Str){0};
    if (!fs) {
      put(&b, "  device pNext sType=%d (not decoded)", (int)p->sType);
    } else {
      put(&b, "  features %s:", fs->name);
      const VkBool32* f = (const VkBool32*)((const char*)p + sizeof(VkBaseInStructure));
      const char* m = fs->members;
      for (int i = 0; i < fs->count && *m; ++i) {
        size_t len = strcspn(m, " ");
        if (f[i]) put(&b, " %.*s", (int)len, m);
        m += len + (m[len] == ' ');
      }
    }
    say_locked("%s", b.s);
    free(b.s);
  }
}

// ---- shader modules -----------------------------------------------------------------------------

static unsigned module_count;

// What a SPIR-V module is: version, generator, memory model, entry points with their local size,
// capabilities' count, and an FNV-1a hash of the words (equal hashes: the same module).
static void put_spirv(Str* b, const uint32_t* w, size_t bytes) {
  if (!w) bytes = 0;
  size_t n = bytes / 4;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) {
    h ^= ((const unsigned char*)w)[i];
    h *= 0x100000001b3ull;
  }
  if (n < 5 || w[0] != 0x07230203) {
    put(b, " spirv=invalid fnv=%016" PRIx64, h);
    return;
  }
  put(b, " spirv=%u.%u generator=%#x bound=%u fnv=%016" PRIx64, (w[1] >> 16) & 0xff, (w[1] >> 8) & 0xff, w[2], w[3],
      h);
  unsigned caps = 0;
  for (size_t i = 5; i < n;) {
    uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
    if (!len || i + len > n) break;
    if (op == 17) ++caps;                               // OpCapability
    if (op == 14 && len >= 3) put(b, " memoryModel=%u,%u", w[i + 1], w[i + 2]);  // OpMemoryModel
    if (op == 15 && len >= 4) {                         // OpEntryPoint model id "name"
      const char* name = (const char*)&w[i + 3];
      size_t room = (len - 3) * 4;
      put(b, " entry=%u:%.*s", w[i + 1], (int)strnlen(name, room), name);
    }
    if (op == 16 && len >= 6 && w[i + 2] == 17) put(b, " local=%u,%u,%u", w[i + 3], w[i + 4], w[i + 5]);
    if (op == 16 && len >= 3 && w[i + 2] != 17) put(b, " mode=%u", w[i + 2]);
    i += len;
  }
  put(b, " capabilities=%u", caps);
}

// Writes the code to $WGB_VK_DUMP_DIR/<pid>-<n>.spv when that is set; returns the name in `name`
// (the file's name, or <pid>-<n> when nothing is written). Caller holds mu.
static void dump_module(const VkShaderModuleCreateInfo* ci, char* name, size_t room, int* written) {
  unsigned k = module_count++;
  snprintf(name, room, "%d-%u.spv", (int)getpid(), k);
  *written = 0;
  const char* dir = getenv("WGB_VK_DUMP_DIR");
  if (!dir || !*dir || !ci || !ci->pCode) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "wb");
  if (!f) return;
  *written = fwrite(ci->pCode, 1, ci->codeSize, f) == ci->codeSize;
  *written &= fclose(f) == 0;
}

static void log_module(const char* how, uint64_t module, const VkShaderModuleCreateInfo* ci, char* name, size_t room) {
  int written = 0;
  dump_module(ci, name, room, &written);
  Str b = {0};
  put(&b, "%s module=%#" PRIx64 " spv=%s%s bytes=%zu flags=%#x", how, module, name, written ? "" : "(not-written)",
      (size_t)ci->codeSize, (unsigned)ci->flags);
  put_chain(&b, "pNext", ci->pNext);
  put_spirv(&b, ci->pCode, ci->codeSize);
  say_locked("%s", b.s);
  free(b.s);
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateShaderModule(VkDevice d, const VkShaderModuleCreateInfo* ci,
                                                              const VkAllocationCallbacks* a, VkShaderModule* out) {
  VkResult r = next_vkCreateShaderModule(d, ci, a, out);
  pthread_mutex_lock(&mu);
  char name[64];
  log_module("vkCreateShaderModule", r == VK_SUCCESS ? H(*out) : 0, ci, name, sizeof name);
  if (r == VK_SUCCESS) names_set(&module_names, H(*out), name);
  pthread_mutex_unlock(&mu);
  return r;
}

// ---- pipelines ------------------------------------------------------------------------------------

static void put_specialization(Str* b, const VkSpecializationInfo* s) {
  if (!s) return;
  put(b, " specialization=%u[", s->mapEntryCount);
  for (uint32_t k = 0; k < s->mapEntryCount; ++k) {
    const VkSpecializationMapEntry* e = &s->pMapEntries[k];
    put(b, "%sid%u=", k ? " " : "", e->constantID);
    const unsigned char* p = (const unsigned char*)s->pData + e->offset;
    if (e->offset + e->size > s->dataSize) put(b, "?");
    else if (e->size == 4) {
      uint32_t v;
      memcpy(&v, p, 4);
      put(b, "%#x", v);
    } else if (e->size == 8) {
      uint64_t v;
      memcpy(&v, p, 8);
      put(b, "%#" PRIx64, v);
    } else
      for (size_t j = 0; j < e->size; ++j) put(b, "%02x", p[j]);
  }
  put(b, "]");
}

static void put_stage_chain(Str* b, const void* next) {
  for (const VkBaseInStructure* p = next; p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)
      put(b, " stage.requiredSubgroupSize=%u",
          ((const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo*)p)->requiredSubgroupSize);
    else if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) put(b, " stage.inlineModule");
    else put(b, " stage.pNext=%d", (int)p->sType);
  }
}

static void put_pipeline_chain(Str* b, const void* next) {
  for (const VkBaseInStructure* p = next; p; p = p->pNext) {
#ifdef VK_EXT_pipeline_robustness
    if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT) {
      const VkPipelineRobustnessCreateInfoEXT* r = (const VkPipelineRobustnessCreateInfoEXT*)p;
      put(b, " robustness=storage:%d,uniform:%d,vertex:%d,images:%d", (int)r->storageBuffers, (int)r->uniformBuffers,
          (int)r->vertexInputs, (int)r->images);
      continue;
    }
#endif
#ifdef VK_KHR_maintenance5
    if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR) {
      put(b, " flags2=%#" PRIx64, (uint64_t)((const VkPipelineCreateFlags2CreateInfoKHR*)p)->flags);
      continue;
    }
#endif
    if (p->sType == VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO) {
      put(b, " creationFeedback");
      continue;
    }
    put(b, " pNext=%d", (int)p->sType);
  }
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateComputePipelines(VkDevice d, VkPipelineCache c, uint32_t n,
                                                                  const VkComputePipelineCreateInfo* ci,
                                                                  const VkAllocationCallbacks* a, VkPipeline* out) {
  VkResult r = next_vkCreateComputePipelines(d, c, n, ci, a, out);
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < n; ++i) {
    const VkPipelineShaderStageCreateInfo* st = &ci[i].stage;
    char name[64] = "?";
    const char* known = names_get(&module_names, H(st->module));
    if (known) snprintf(name, sizeof name, "%s", known);
    if (!st->module)  // the code inline (maintenance5, graphics pipeline library): dumped here
      for (const VkBaseInStructure* p = st->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
          log_module("inline shader module of the next pipeline:", 0, (const VkShaderModuleCreateInfo*)p, name,
                     sizeof name);
    const uint64_t pipe = r == VK_SUCCESS && out[i] ? H(out[i]) : 0;
    Str b = {0};
    put(&b, "vkCreateComputePipelines %u/%u pipeline=%#" PRIx64 " flags=%#x stage.flags=%#x", i + 1, n, pipe,
        (unsigned)ci[i].flags, (unsigned)st->flags);
    if (st->flags & 0x1) put(&b, "(ALLOW_VARYING_SUBGROUP_SIZE)");
    if (st->flags & 0x2) put(&b, "(REQUIRE_FULL_SUBGROUPS)");
    put(&b, " entry=%s module=%#" PRIx64 " spv=%s layout=%#" PRIx64 " cache=%s base=%#" PRIx64 "/%d",
        st->pName ? st->pName : "?", H(st->module), name, H(ci[i].layout), c ? "yes" : "no",
        H(ci[i].basePipelineHandle), (int)ci[i].basePipelineIndex);
    put_pipeline_chain(&b, ci[i].pNext);
    put_stage_chain(&b, st->pNext);
    put_specialization(&b, st->pSpecializationInfo);
    put(&b, " result=%d", (int)r);
    say_locked("%s", b.s);
    free(b.s);
    if (pipe) names_set(&pipeline_names, pipe, name);
  }
  pthread_mutex_unlock(&mu);
  return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreatePipelineLayout(VkDevice d, const VkPipelineLayoutCreateInfo* ci,
                                                                const VkAllocationCallbacks* a, VkPipelineLayout* out) {
  VkResult r = next_vkCreatePipelineLayout(d, ci, a, out);
  pthread_mutex_lock(&mu);
  Str b = {0};
  put(&b, "vkCreatePipelineLayout layout=%#" PRIx64 " flags=%#x setLayouts=[", r == VK_SUCCESS ? H(*out) : 0,
      (unsigned)ci->flags);
  for (uint32_t i = 0; i < ci->setLayoutCount; ++i) put(&b, "%s%#" PRIx64, i ? "," : "", H(ci->pSetLayouts[i]));
  put(&b, "] pushConstants=[");
  for (uint32_t i = 0; i < ci->pushConstantRangeCount; ++i) {
    put(&b, "%s", i ? " " : "");
    put_bits(&b, ci->pPushConstantRanges[i].stageFlags, kShaderStages);
    put(&b, ":%u+%u", ci->pPushConstantRanges[i].offset, ci->pPushConstantRanges[i].size);
  }
  put(&b, "]");
  put_chain(&b, "pNext", ci->pNext);
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

// ---- descriptors ----------------------------------------------------------------------------------

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateDescriptorSetLayout(VkDevice d,
                                                                     const VkDescriptorSetLayoutCreateInfo* ci,
                                                                     const VkAllocationCallbacks* a,
                                                                     VkDescriptorSetLayout* out) {
  VkResult r = next_vkCreateDescriptorSetLayout(d, ci, a, out);
  pthread_mutex_lock(&mu);
  Str b = {0};
  put(&b, "vkCreateDescriptorSetLayout setLayout=%#" PRIx64 " flags=%#x bindings=%u", r == VK_SUCCESS ? H(*out) : 0,
      (unsigned)ci->flags, ci->bindingCount);
  const VkDescriptorSetLayoutBindingFlagsCreateInfo* bf = NULL;
  for (const VkBaseInStructure* p = ci->pNext; p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
      bf = (const VkDescriptorSetLayoutBindingFlagsCreateInfo*)p;
    else put(&b, " pNext=%d", (int)p->sType);
  }
  for (uint32_t i = 0; i < ci->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding* x = &ci->pBindings[i];
    put(&b, " | binding %u %s x%u ", x->binding, descriptor_type(x->descriptorType), x->descriptorCount);
    put_bits(&b, x->stageFlags, kShaderStages);
    if (x->pImmutableSamplers) put(&b, " immutableSamplers");
    if (bf && i < bf->bindingCount && bf->pBindingFlags[i]) put(&b, " bindingFlags=%#x", (unsigned)bf->pBindingFlags[i]);
  }
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateDescriptorPool(VkDevice d, const VkDescriptorPoolCreateInfo* ci,
                                                                const VkAllocationCallbacks* a, VkDescriptorPool* out) {
  VkResult r = next_vkCreateDescriptorPool(d, ci, a, out);
  pthread_mutex_lock(&mu);
  Str b = {0};
  put(&b, "vkCreateDescriptorPool pool=%#" PRIx64 " flags=%#x maxSets=%u sizes=[", r == VK_SUCCESS ? H(*out) : 0,
      (unsigned)ci->flags, ci->maxSets);
  for (uint32_t i = 0; i < ci->poolSizeCount; ++i)
    put(&b, "%s%s:%u", i ? " " : "", descriptor_type(ci->pPoolSizes[i].type), ci->pPoolSizes[i].descriptorCount);
  put(&b, "]");
  put_chain(&b, "pNext", ci->pNext);
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkAllocateDescriptorSets(VkDevice d, const VkDescriptorSetAllocateInfo* ai,
                                                                  VkDescriptorSet* out) {
  VkResult r = next_vkAllocateDescriptorSets(d, ai, out);
  pthread_mutex_lock(&mu);
  // One line per call (Dawn allocates a pool's sets at once): the sets, then their layouts, a run of
  // the same layout written once.
  Str b = {0};
  put(&b, "vkAllocateDescriptorSets pool=%#" PRIx64 " count=%u sets=", H(ai->descriptorPool), ai->descriptorSetCount);
  for (uint32_t i = 0; i < ai->descriptorSetCount; ++i) put(&b, "%s%#" PRIx64, i ? "," : "", r == VK_SUCCESS ? H(out[i]) : 0);
  put(&b, " setLayouts=");
  for (uint32_t i = 0; i < ai->descriptorSetCount; ++i)
    if (!i || ai->pSetLayouts[i] != ai->pSetLayouts[i - 1]) put(&b, "%s%#" PRIx64, i ? "," : "", H(ai->pSetLayouts[i]));
  put_chain(&b, "pNext", ai->pNext);
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

static void put_writes(Str* b, const VkWriteDescriptorSet* w) {
  put(b, "binding=%u element=%u type=%s count=%u", w->dstBinding, w->dstArrayElement, descriptor_type(w->descriptorType),
      w->descriptorCount);
  if (is_buffer_descriptor(w->descriptorType) && w->pBufferInfo)
    for (uint32_t k = 0; k < w->descriptorCount; ++k) {
      put(b, " [buffer=%#" PRIx64 " off=%" PRIu64 " range=", H(w->pBufferInfo[k].buffer), (uint64_t)w->pBufferInfo[k].offset);
      put_size(b, w->pBufferInfo[k].range);
      put(b, "]");
    }
  put_chain(b, "pNext", w->pNext);
}

static VKAPI_ATTR void VKAPI_CALL log_vkUpdateDescriptorSets(VkDevice d, uint32_t nw, const VkWriteDescriptorSet* w,
                                                            uint32_t nc, const VkCopyDescriptorSet* c) {
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < nw; ++i) {
    Str b = {0};
    put(&b, "vkUpdateDescriptorSets set=%#" PRIx64 " ", H(w[i].dstSet));
    put_writes(&b, &w[i]);
    say_locked("%s", b.s);
    free(b.s);
  }
  for (uint32_t i = 0; i < nc; ++i)
    say_locked("vkUpdateDescriptorSets copy set=%#" PRIx64 " binding=%u -> set=%#" PRIx64 " binding=%u count=%u",
               H(c[i].srcSet), c[i].srcBinding, H(c[i].dstSet), c[i].dstBinding, c[i].descriptorCount);
  pthread_mutex_unlock(&mu);
  next_vkUpdateDescriptorSets(d, nw, w, nc, c);
}

static VKAPI_ATTR void VKAPI_CALL log_vkUpdateDescriptorSetWithTemplate(VkDevice d, VkDescriptorSet s,
                                                                       VkDescriptorUpdateTemplate t, const void* data) {
  pthread_mutex_lock(&mu);
  say_locked("vkUpdateDescriptorSetWithTemplate set=%#" PRIx64 " template=%#" PRIx64 " (not decoded)", H(s), H(t));
  pthread_mutex_unlock(&mu);
  next_vkUpdateDescriptorSetWithTemplate(d, s, t, data);
}
static VKAPI_ATTR void VKAPI_CALL log_vkUpdateDescriptorSetWithTemplateKHR(VkDevice d, VkDescriptorSet s,
                                                                          VkDescriptorUpdateTemplate t, const void* data) {
  pthread_mutex_lock(&mu);
  say_locked("vkUpdateDescriptorSetWithTemplateKHR set=%#" PRIx64 " template=%#" PRIx64 " (not decoded)", H(s), H(t));
  pthread_mutex_unlock(&mu);
  next_vkUpdateDescriptorSetWithTemplateKHR(d, s, t, data);
}

static VKAPI_ATTR void VKAPI_CALL log_vkCmdPushDescriptorSetKHR(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                               VkPipelineLayout layout, uint32_t set, uint32_t n,
                                                               const VkWriteDescriptorSet* w) {
  Str b = {0};
  put(&b, "vkCmdPushDescriptorSetKHR layout=%#" PRIx64 " set=%u", H(layout), set);
  for (uint32_t i = 0; i < n; ++i) {
    put(&b, " | ");
    put_writes(&b, &w[i]);
  }
  cb_line(cb, &b);
  next_vkCmdPushDescriptorSetKHR(cb, bp, layout, set, n, w);
}

// ---- buffers and memory -------------------------------------------------------------------------

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateBuffer(VkDevice d, const VkBufferCreateInfo* ci,
                                                        const VkAllocationCallbacks* a, VkBuffer* out) {
  VkResult r = next_vkCreateBuffer(d, ci, a, out);
  pthread_mutex_lock(&mu);
  Str b = {0};
  put(&b, "vkCreateBuffer buffer=%#" PRIx64 " size=%" PRIu64 " usage=%#x(", r == VK_SUCCESS ? H(*out) : 0,
      (uint64_t)ci->size, (unsigned)ci->usage);
  put_bits(&b, ci->usage, kBufferUsage);
  put(&b, ") flags=%#x sharing=%s", (unsigned)ci->flags, ci->sharingMode == VK_SHARING_MODE_CONCURRENT ? "concurrent" : "exclusive");
  if (ci->sharingMode == VK_SHARING_MODE_CONCURRENT) put(&b, "/%u", ci->queueFamilyIndexCount);
  put_chain(&b, "pNext", ci->pNext);
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

static VKAPI_ATTR void VKAPI_CALL log_vkDestroyBuffer(VkDevice d, VkBuffer buf, const VkAllocationCallbacks* a) {
  pthread_mutex_lock(&mu);
  if (buf) say_locked("vkDestroyBuffer buffer=%#" PRIx64, H(buf));
  pthread_mutex_unlock(&mu);
  next_vkDestroyBuffer(d, buf, a);
}

static void say_requirements(const char* how, VkBuffer buf, const VkMemoryRequirements* m, const void* next) {
  Str b = {0};
  put(&b, "%s buffer=%#" PRIx64 " size=%" PRIu64 " alignment=%" PRIu64 " memoryTypeBits=%#x", how, H(buf),
      (uint64_t)m->size, (uint64_t)m->alignment, m->memoryTypeBits);
  for (const VkBaseInStructure* p = next; p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
      const VkMemoryDedicatedRequirements* q = (const VkMemoryDedicatedRequirements*)p;
      put(&b, " prefersDedicated=%u requiresDedicated=%u", q->prefersDedicatedAllocation, q->requiresDedicatedAllocation);
    } else put(&b, " pNext=%d", (int)p->sType);
  }
  pthread_mutex_lock(&mu);
  say_locked("%s", b.s);
  pthread_mutex_unlock(&mu);
  free(b.s);
}
static VKAPI_ATTR void VKAPI_CALL log_vkGetBufferMemoryRequirements(VkDevice d, VkBuffer buf, VkMemoryRequirements* m) {
  next_vkGetBufferMemoryRequirements(d, buf, m);
  say_requirements("vkGetBufferMemoryRequirements", buf, m, NULL);
}
static VKAPI_ATTR void VKAPI_CALL log_vkGetBufferMemoryRequirements2(VkDevice d, const VkBufferMemoryRequirementsInfo2* i,
                                                                    VkMemoryRequirements2* m) {
  next_vkGetBufferMemoryRequirements2(d, i, m);
  say_requirements("vkGetBufferMemoryRequirements2", i->buffer, &m->memoryRequirements, m->pNext);
}
static VKAPI_ATTR void VKAPI_CALL log_vkGetBufferMemoryRequirements2KHR(VkDevice d,
                                                                       const VkBufferMemoryRequirementsInfo2* i,
                                                                       VkMemoryRequirements2* m) {
  next_vkGetBufferMemoryRequirements2KHR(d, i, m);
  say_requirements("vkGetBufferMemoryRequirements2KHR", i->buffer, &m->memoryRequirements, m->pNext);
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkAllocateMemory(VkDevice d, const VkMemoryAllocateInfo* ai,
                                                          const VkAllocationCallbacks* a, VkDeviceMemory* out) {
  VkResult r = next_vkAllocateMemory(d, ai, a, out);
  pthread_mutex_lock(&mu);
  Str b = {0};
  put(&b, "vkAllocateMemory memory=%#" PRIx64 " size=%" PRIu64 " type=%u", r == VK_SUCCESS ? H(*out) : 0,
      (uint64_t)ai->allocationSize, ai->memoryTypeIndex);
  const VkPhysicalDeviceMemoryProperties* mp = memory_of(d);
  if (mp && ai->memoryTypeIndex < mp->memoryTypeCount) {
    const VkMemoryType* t = &mp->memoryTypes[ai->memoryTypeIndex];
    put(&b, "(");
    put_bits(&b, t->propertyFlags, kMemoryFlags);
    put(&b, ") heap=%u(", t->heapIndex);
    put_bits(&b, mp->memoryHeaps[t->heapIndex].flags, kHeapFlags);
    put(&b, " %" PRIu64 " MiB)", (uint64_t)(mp->memoryHeaps[t->heapIndex].size >> 20));
  }
  for (const VkBaseInStructure* p = ai->pNext; p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO)
      put(&b, " allocateFlags=%#x", (unsigned)((const VkMemoryAllocateFlagsInfo*)p)->flags);
    else if (p->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO)
      put(&b, " dedicated=buffer:%#" PRIx64 ",image:%#" PRIx64, H(((const VkMemoryDedicatedAllocateInfo*)p)->buffer),
          H(((const VkMemoryDedicatedAllocateInfo*)p)->image));
#ifdef VK_EXT_memory_priority
    else if (p->sType == VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT)
      put(&b, " priority=%.2f", (double)((const VkMemoryPriorityAllocateInfoEXT*)p)->priority);
#endif
    else put(&b, " pNext=%d", (int)p->sType);
  }
  put(&b, " result=%d", (int)r);
  say_locked("%s", b.s);
  free(b.s);
  pthread_mutex_unlock(&mu);
  return r;
}

static VKAPI_ATTR void VKAPI_CALL log_vkFreeMemory(VkDevice d, VkDeviceMemory m, const VkAllocationCallbacks* a) {
  pthread_mutex_lock(&mu);
  if (m) say_locked("vkFreeMemory memory=%#" PRIx64, H(m));
  pthread_mutex_unlock(&mu);
  next_vkFreeMemory(d, m, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkBindBufferMemory(VkDevice d, VkBuffer buf, VkDeviceMemory m,
                                                            VkDeviceSize off) {
  VkResult r = next_vkBindBufferMemory(d, buf, m, off);
  pthread_mutex_lock(&mu);
  say_locked("vkBindBufferMemory buffer=%#" PRIx64 " memory=%#" PRIx64 " offset=%" PRIu64 " result=%d", H(buf), H(m),
             (uint64_t)off, (int)r);
  pthread_mutex_unlock(&mu);
  return r;
}
static void bind2(const char* how, uint32_t n, const VkBindBufferMemoryInfo* i, VkResult r) {
  pthread_mutex_lock(&mu);
  for (uint32_t k = 0; k < n; ++k) {
    Str b = {0};
    put(&b, "%s buffer=%#" PRIx64 " memory=%#" PRIx64 " offset=%" PRIu64, how, H(i[k].buffer), H(i[k].memory),
        (uint64_t)i[k].memoryOffset);
    put_chain(&b, "pNext", i[k].pNext);
    put(&b, " result=%d", (int)r);
    say_locked("%s", b.s);
    free(b.s);
  }
  pthread_mutex_unlock(&mu);
}
static VKAPI_ATTR VkResult VKAPI_CALL log_vkBindBufferMemory2(VkDevice d, uint32_t n, const VkBindBufferMemoryInfo* i) {
  VkResult r = next_vkBindBufferMemory2(d, n, i);
  bind2("vkBindBufferMemory2", n, i, r);
  return r;
}
static VKAPI_ATTR VkResult VKAPI_CALL log_vkBindBufferMemory2KHR(VkDevice d, uint32_t n, const VkBindBufferMemoryInfo* i) {
  VkResult r = next_vkBindBufferMemory2KHR(d, n, i);
  bind2("vkBindBufferMemory2KHR", n, i, r);
  return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL log_vkCreateQueryPool(VkDevice d, const VkQueryPoolCreateInfo* ci,
                                                           const VkAllocationCallbacks* a, VkQueryPool* out) {
  VkResult r = next_vkCreateQueryPool(d, ci, a, out);
  pthread_mutex_lock(&mu);
  say_locked("vkCreateQueryPool pool=%#" PRIx64 " type=%d count=%u result=%d", r == VK_SUCCESS ? H(*out) : 0,
             (int)ci->queryType, ci->queryCount, (int)r);
  pthread_mutex_unlock(&mu);
  return r;
}

// ---- dispatch -----------------------------------------------------------------------------------

static void load_next(VkDevice d) {
#define LOAD_NEXT(name) next_##name = (PFN_##name)next_gdpa(d, #name);
  NEXT_FUNCTIONS(LOAD_NEXT)
#undef LOAD_NEXT
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL cmdlog_GetDeviceProcAddr(VkDevice d, const char* name) {
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)cmdlog_GetDeviceProcAddr;
  // Ours only where the next layer has the function: an application tests for NULL.
#define INTERCEPT(fn) \
  if (!strcmp(name, #fn)) return next_##fn ? (PFN_vkVoidFunction)log_##fn : NULL;
  NEXT_FUNCTIONS(INTERCEPT)
#undef INTERCEPT
  return next_gdpa(d, name);
}

static VKAPI_ATTR VkResult VKAPI_CALL cmdlog_CreateInstance(const VkInstanceCreateInfo* ci,
                                                            const VkAllocationCallbacks* a, VkInstance* out) {
  VkLayerInstanceCreateInfo* link = (VkLayerInstanceCreateInfo*)ci->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerInstanceCreateInfo*)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  char exe[512];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[k > 0 ? k : 0] = 0;
  const VkApplicationInfo* app = ci->pApplicationInfo;
  pthread_mutex_lock(&mu);
  say_locked("instance: exe=%s app=%s engine=%s apiVersion=%u.%u layers=%u extensions=%u", exe,
             app && app->pApplicationName ? app->pApplicationName : "-", app && app->pEngineName ? app->pEngineName : "-",
             app ? VK_API_VERSION_MAJOR(app->apiVersion) : 0, app ? VK_API_VERSION_MINOR(app->apiVersion) : 0,
             ci->enabledLayerCount, ci->enabledExtensionCount);
  pthread_mutex_unlock(&mu);
  VkResult r = ((PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance"))(ci, a, out);
  if (r == VK_SUCCESS) instance = *out;
  return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cmdlog_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* ci,
                                                          const VkAllocationCallbacks* a, VkDevice* out) {
  VkLayerDeviceCreateInfo* link = (VkLayerDeviceCreateInfo*)ci->pNext;
  while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
    link = (VkLayerDeviceCreateInfo*)link->pNext;
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkResult r = ((PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice"))(pd, ci, a, out);
  if (r == VK_SUCCESS) load_next(*out);
  PFN_vkGetPhysicalDeviceProperties props =
      (PFN_vkGetPhysicalDeviceProperties)next_gipa(instance, "vkGetPhysicalDeviceProperties");
  VkPhysicalDeviceProperties p;
  memset(&p, 0, sizeof p);
  if (props) props(pd, &p);
  pthread_mutex_lock(&mu);
  say_locked("device: %s driverVersion=%#x extensions=%u synchronization2=%s result=%d", p.deviceName,
             p.driverVersion, ci->enabledExtensionCount, next_vkCmdPipelineBarrier2 ? "core-entry" : "no-core-entry",
             (int)r);
  for (uint32_t i = 0; i < ci->enabledExtensionCount; ++i) say_locked("  extension %s", ci->ppEnabledExtensionNames[i]);
  say_features(ci);
  // The physical device's memory types, for vkAllocateMemory's lines.
  PFN_vkGetPhysicalDeviceMemoryProperties memprops =
      (PFN_vkGetPhysicalDeviceMemoryProperties)next_gipa(instance, "vkGetPhysicalDeviceMemoryProperties");
  if (r == VK_SUCCESS && memprops) {
    DeviceMemory* dm = &devices[device_count++ % kDevices];
    dm->d = *out;
    memprops(pd, &dm->mp);
    for (uint32_t i = 0; i < dm->mp.memoryHeapCount; ++i) {
      Str b = {0};
      put(&b, "  memory heap %u: %" PRIu64 " MiB ", i, (uint64_t)(dm->mp.memoryHeaps[i].size >> 20));
      put_bits(&b, dm->mp.memoryHeaps[i].flags, kHeapFlags);
      say_locked("%s", b.s);
      free(b.s);
    }
    for (uint32_t i = 0; i < dm->mp.memoryTypeCount; ++i) {
      Str b = {0};
      put(&b, "  memory type %u: heap %u ", i, dm->mp.memoryTypes[i].heapIndex);
      put_bits(&b, dm->mp.memoryTypes[i].propertyFlags, kMemoryFlags);
      say_locked("%s", b.s);
      free(b.s);
    }
  }
  pthread_mutex_unlock(&mu);
  return r;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL cmdlog_GetInstanceProcAddr(VkInstance inst, const char* name) {
  if (!strcmp(name, "vkGetInstanceProcAddr")) return (PFN_vkVoidFunction)cmdlog_GetInstanceProcAddr;
  if (!strcmp(name, "vkCreateInstance")) return (PFN_vkVoidFunction)cmdlog_CreateInstance;
  if (!strcmp(name, "vkCreateDevice")) return (PFN_vkVoidFunction)cmdlog_CreateDevice;
  if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)cmdlog_GetDeviceProcAddr;
  return inst && next_gipa ? next_gipa(inst, name) : NULL;
}
