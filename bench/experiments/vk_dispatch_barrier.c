// Experiment for results/runtimes-*: what does the barrier that a WebGPU implementation records
// between two back-to-back compute dispatches cost? Native Dawn and wgpu (Deno) both record one
// pipeline barrier per dispatch in a compute pass (traced with bench/experiments/vk_command_log.c):
//   Dawn:  vkCmdPipelineBarrier(COMPUTE -> COMPUTE, one VkMemoryBarrier
//          SHADER_READ|SHADER_WRITE -> SHADER_READ|SHADER_WRITE)
//   wgpu:  vkCmdPipelineBarrier(TOP|VERTEX|FRAGMENT|COMPUTE -> VERTEX|FRAGMENT|COMPUTE|BOTTOM, one
//          VkBufferMemoryBarrier on the written buffer, whole, SHADER_READ|SHADER_WRITE ->
//          SHADER_READ|SHADER_WRITE, queue families 0 -> 0)
// This program records N dispatches back to back in one command buffer with each pattern (and the
// crossings of its two parts: the barrier's kind and its stage masks, and none at all), times the
// batch with two timestamps (TOP_OF_PIPE before, BOTTOM_OF_PIPE after) and prints the GPU time per
// dispatch, for a dispatch of G workgroups (default 256, like the tile rows) and of 1 workgroup
// (like dispatch-overhead), every pattern once per round, the order reversed every other round.
// The shader: 256 invocations per workgroup, invocation i reads src[i] and writes dst[i] = src[i] *
// 2 + 1 as vec2<f32> (2 KiB written per workgroup: 0.5 MiB for 256); its SPIR-V (assembly below,
// assembled with `spirv-as --target-env vulkan1.1`) is embedded as words.
//
//   gcc -O2 -o vk_dispatch_barrier vk_dispatch_barrier.c -lvulkan
//   vk_dispatch_barrier [--device I] [--n N] [--rounds R] [--groups G] [--raw]
//     --device: index among vkEnumeratePhysicalDevices (default 0); --n: dispatches per batch
//     (1000); --rounds (7); --groups (256); --raw: one line per batch as well.
// Prints, per pattern and dispatch size, the median, min and max over the rounds of
// ns per dispatch, and the median's difference from Dawn's pattern.
//
// Not part of the product: an instrument for one question.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

/* The shader (SPIR-V 1.3):
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 256 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 8
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %src DescriptorSet 0
               OpDecorate %src Binding 0
               OpDecorate %src NonWritable
               OpDecorate %dst DescriptorSet 0
               OpDecorate %dst Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
        %v2f = OpTypeVector %float 2
        %v3u = OpTypeVector %uint 3
     %in_v3u = OpTypePointer Input %v3u
        %gid = OpVariable %in_v3u Input
        %arr = OpTypeRuntimeArray %v2f
        %Buf = OpTypeStruct %arr
     %sb_Buf = OpTypePointer StorageBuffer %Buf
        %src = OpVariable %sb_Buf StorageBuffer
        %dst = OpVariable %sb_Buf StorageBuffer
     %sb_v2f = OpTypePointer StorageBuffer %v2f
     %uint_0 = OpConstant %uint 0
    %float_2 = OpConstant %float 2
    %float_1 = OpConstant %float 1
        %two = OpConstantComposite %v2f %float_2 %float_2
        %one = OpConstantComposite %v2f %float_1 %float_1
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %g = OpLoad %v3u %gid
          %i = OpCompositeExtract %uint %g 0
         %ps = OpAccessChain %sb_v2f %src %uint_0 %i
          %v = OpLoad %v2f %ps
          %m = OpFMul %v2f %v %two
          %r = OpFAdd %v2f %m %one
         %pd = OpAccessChain %sb_v2f %dst %uint_0 %i
               OpStore %pd %r
               OpReturn
               OpFunctionEnd
*/
static const uint32_t kShader[] = {
    0x07230203, 0x00010300, 0x00070000, 0x0000001d, 0x00000000, 0x00020011, 0x00000001, 0x0003000e,
    0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000001, 0x6e69616d, 0x00000000, 0x00000002,
    0x00060010, 0x00000001, 0x00000011, 0x00000100, 0x00000001, 0x00000001, 0x00040047, 0x00000002,
    0x0000000b, 0x0000001c, 0x00040047, 0x00000003, 0x00000006, 0x00000008, 0x00050048, 0x00000004,
    0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000004, 0x00000002, 0x00040047, 0x00000005,
    0x00000022, 0x00000000, 0x00040047, 0x00000005, 0x00000021, 0x00000000, 0x00030047, 0x00000005,
    0x00000018, 0x00040047, 0x00000006, 0x00000022, 0x00000000, 0x00040047, 0x00000006, 0x00000021,
    0x00000001, 0x00020013, 0x00000007, 0x00030021, 0x00000008, 0x00000007, 0x00040015, 0x00000009,
    0x00000020, 0x00000000, 0x00030016, 0x0000000a, 0x00000020, 0x00040017, 0x0000000b, 0x0000000a,
    0x00000002, 0x00040017, 0x0000000c, 0x00000009, 0x00000003, 0x00040020, 0x0000000d, 0x00000001,
    0x0000000c, 0x0004003b, 0x0000000d, 0x00000002, 0x00000001, 0x0003001d, 0x00000003, 0x0000000b,
    0x0003001e, 0x00000004, 0x00000003, 0x00040020, 0x0000000e, 0x0000000c, 0x00000004, 0x0004003b,
    0x0000000e, 0x00000005, 0x0000000c, 0x0004003b, 0x0000000e, 0x00000006, 0x0000000c, 0x00040020,
    0x0000000f, 0x0000000c, 0x0000000b, 0x0004002b, 0x00000009, 0x00000010, 0x00000000, 0x0004002b,
    0x0000000a, 0x00000011, 0x40000000, 0x0004002b, 0x0000000a, 0x00000012, 0x3f800000, 0x0005002c,
    0x0000000b, 0x00000013, 0x00000011, 0x00000011, 0x0005002c, 0x0000000b, 0x00000014, 0x00000012,
    0x00000012, 0x00050036, 0x00000007, 0x00000001, 0x00000000, 0x00000008, 0x000200f8, 0x00000015,
    0x0004003d, 0x0000000c, 0x00000016, 0x00000002, 0x00050051, 0x00000009, 0x00000017, 0x00000016,
    0x00000000, 0x00060041, 0x0000000f, 0x00000018, 0x00000005, 0x00000010, 0x00000017, 0x0004003d,
    0x0000000b, 0x00000019, 0x00000018, 0x00050085, 0x0000000b, 0x0000001a, 0x00000019, 0x00000013,
    0x00050081, 0x0000000b, 0x0000001b, 0x0000001a, 0x00000014, 0x00060041, 0x0000000f, 0x0000001c,
    0x00000006, 0x00000010, 0x00000017, 0x0003003e, 0x0000001c, 0x0000001b, 0x000100fd, 0x00010038,
};

#define CHECK(x)                                                                  \
  do {                                                                            \
    VkResult r_ = (x);                                                            \
    if (r_ != VK_SUCCESS) {                                                       \
      fprintf(stderr, "vk_dispatch_barrier: %s failed: %d (line %d)\n", #x, (int)r_, __LINE__); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

enum Kind { kNone, kMemory, kBuffer };

typedef struct {
  const char* name;
  const char* what;
  enum Kind kind;
  VkPipelineStageFlags src, dst;
  int queue_family_zero;  // buffer barrier with queue families 0 -> 0 (as wgpu), else IGNORED
} Pattern;

#define WGPU_SRC (VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | \
                  VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)
#define WGPU_DST (VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | \
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT)
#define CS VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT

static const Pattern kPatterns[] = {
    {"dawn", "memory barrier, COMPUTE->COMPUTE (native Dawn)", kMemory, CS, CS, 0},
    {"wgpu", "buffer barrier, TOP|VS|FS|CS->VS|FS|CS|BOTTOM, qf 0->0 (wgpu)", kBuffer, WGPU_SRC, WGPU_DST, 1},
    {"buffer-cs", "buffer barrier, COMPUTE->COMPUTE, qf 0->0", kBuffer, CS, CS, 1},
    {"memory-wgpu-stages", "memory barrier, TOP|VS|FS|CS->VS|FS|CS|BOTTOM", kMemory, WGPU_SRC, WGPU_DST, 0},
    {"memory-top-bottom", "memory barrier, TOP|CS->CS|BOTTOM", kMemory,
     VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | CS, CS | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0},
    {"memory-graphics", "memory barrier, VS|FS|CS->VS|FS|CS", kMemory,
     WGPU_SRC & ~VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, WGPU_DST & ~VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0},
    {"wgpu-qf-ignored", "as wgpu, queue families IGNORED", kBuffer, WGPU_SRC, WGPU_DST, 0},
    {"none", "no barrier (races; the floor)", kNone, 0, 0, 0},
};
enum { kPatternCount = sizeof kPatterns / sizeof kPatterns[0] };

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static uint32_t memory_type(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if (bits & (1u << i)) return i;
  fprintf(stderr, "vk_dispatch_barrier: no memory type\n");
  exit(1);
}

int main(int argc, char** argv) {
  uint32_t device_index = 0, n = 1000, rounds = 7, groups = 256;
  int raw = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--device") && i + 1 < argc) device_index = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--groups") && i + 1 < argc) groups = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--raw")) raw = 1;
    else {
      fprintf(stderr, "usage: %s [--device I] [--n N] [--rounds R] [--groups G] [--raw]\n", argv[0]);
      return 2;
    }
  }
  if (n < 2 || rounds < 1 || groups < 1) return 2;

  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "vk_dispatch_barrier", 1, NULL, 0, VK_API_VERSION_1_1};
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
  if (device_index >= pdn) {
    fprintf(stderr, "vk_dispatch_barrier: no device %u (%u found)\n", device_index, pdn);
    return 1;
  }
  VkPhysicalDevice pd = pds[device_index];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  uint32_t qfn = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &qfn, NULL);
  VkQueueFamilyProperties* qfs = calloc(qfn, sizeof *qfs);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &qfn, qfs);
  uint32_t qf = UINT32_MAX;  // the first family with compute (graphics+compute on NVIDIA: family 0, as both implementations use)
  for (uint32_t i = 0; i < qfn && qf == UINT32_MAX; ++i)
    if (qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) qf = i;
  if (qf == UINT32_MAX || !qfs[qf].timestampValidBits) {
    fprintf(stderr, "vk_dispatch_barrier: no compute queue with timestamps\n");
    return 1;
  }
  uint64_t ts_mask = qfs[qf].timestampValidBits >= 64 ? ~0ull : (1ull << qfs[qf].timestampValidBits) - 1;
  printf("driver version %#x, api %u.%u.%u, queue family %u (flags %#x), timestampPeriod %.3f ns\n",
         props.driverVersion, VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
         VK_API_VERSION_PATCH(props.apiVersion), qf, (unsigned)qfs[qf].queueFlags, props.limits.timestampPeriod);

  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, qf, 1, &prio};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 0, NULL, NULL};
  VkDevice dev;
  CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
  VkQueue queue;
  vkGetDeviceQueue(dev, qf, 0, &queue);

  // Two storage buffers of groups * 256 vec2<f32>, device-local.
  const VkDeviceSize size = (VkDeviceSize)groups * 256 * 8;
  VkBuffer bufs[2];
  VkDeviceMemory mems[2];
  for (int i = 0; i < 2; ++i) {
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, size,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                              VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
    CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[i]));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, bufs[i], &mr);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, mr.size,
                                memory_type(pd, mr.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    CHECK(vkAllocateMemory(dev, &mai, NULL, &mems[i]));
    CHECK(vkBindBufferMemory(dev, bufs[i], mems[i], 0));
  }

  VkDescriptorSetLayoutBinding lb[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
  VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 2, lb};
  VkDescriptorSetLayout dsl;
  CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
  VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl, 0, NULL};
  VkPipelineLayout pl;
  CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));
  VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps};
  VkDescriptorPool dp;
  CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
  VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 1, &dsl};
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
  VkDescriptorBufferInfo dbi[2] = {{bufs[0], 0, VK_WHOLE_SIZE}, {bufs[1], 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet w[2] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi[0], NULL},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi[1], NULL}};
  vkUpdateDescriptorSets(dev, 2, w, 0, NULL);

  VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, sizeof kShader, kShader};
  VkShaderModule sm;
  CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
  VkComputePipelineCreateInfo cpci = {
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", NULL},
      pl, VK_NULL_HANDLE, 0};
  VkPipeline pipe;
  CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));

  // One command buffer per (pattern, size), recorded once, submitted once per round.
  const uint32_t sizes[2] = {groups, 1};
  enum { kBatches = kPatternCount * 2 };
  VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, NULL, 0, VK_QUERY_TYPE_TIMESTAMP, 2 * kBatches, 0};
  VkQueryPool qp;
  CHECK(vkCreateQueryPool(dev, &qpci, NULL, &qp));
  VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, qf};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(dev, &cpi, NULL, &pool));
  VkCommandBuffer cbs[kBatches + 1];
  VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, kBatches + 1};
  CHECK(vkAllocateCommandBuffers(dev, &cbai, cbs));
  VkCommandBufferBeginInfo cbbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, NULL};

  // cbs[kBatches]: zero the buffers once.
  CHECK(vkBeginCommandBuffer(cbs[kBatches], &cbbi));
  vkCmdFillBuffer(cbs[kBatches], bufs[0], 0, VK_WHOLE_SIZE, 0);
  vkCmdFillBuffer(cbs[kBatches], bufs[1], 0, VK_WHOLE_SIZE, 0);
  VkMemoryBarrier fill_done = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cbs[kBatches], VK_PIPELINE_STAGE_TRANSFER_BIT, CS, 0, 1, &fill_done, 0, NULL, 0, NULL);
  CHECK(vkEndCommandBuffer(cbs[kBatches]));

  const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  for (int p = 0; p < kPatternCount; ++p) {
    for (int s = 0; s < 2; ++s) {
      const int b = p * 2 + s;
      const Pattern* pt = &kPatterns[p];
      VkCommandBuffer cb = cbs[b];
      CHECK(vkBeginCommandBuffer(cb, &cbbi));
      vkCmdResetQueryPool(cb, qp, 2 * b, 2);
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 2 * b);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &set, 0, NULL);
      VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, rw, rw};
      uint32_t fam = pt->queue_family_zero ? qf : VK_QUEUE_FAMILY_IGNORED;
      VkBufferMemoryBarrier bb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, NULL, rw, rw, fam, fam, bufs[1], 0, VK_WHOLE_SIZE};
      for (uint32_t i = 0; i < n; ++i) {
        if (i > 0 && pt->kind == kMemory) vkCmdPipelineBarrier(cb, pt->src, pt->dst, 0, 1, &mb, 0, NULL, 0, NULL);
        if (i > 0 && pt->kind == kBuffer) vkCmdPipelineBarrier(cb, pt->src, pt->dst, 0, 0, NULL, 1, &bb, 0, NULL);
        vkCmdDispatch(cb, sizes[s], 1, 1);
      }
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 2 * b + 1);
      CHECK(vkEndCommandBuffer(cb));
    }
  }

  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  VkFence fence;
  CHECK(vkCreateFence(dev, &fci, NULL, &fence));
  VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cbs[kBatches], 0, NULL};
  CHECK(vkQueueSubmit(queue, 1, &si, fence));
  CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));

  double* ns = calloc((size_t)kBatches * rounds, sizeof *ns);
  printf("%u dispatches per batch, %u rounds (round 0 unreported warm-up); shader: 256 invocations per workgroup, "
         "8 B read + 8 B written each\n",
         n, rounds);
  for (uint32_t r = 0; r <= rounds; ++r) {
    for (int k = 0; k < kBatches; ++k) {
      const int b = (r % 2) ? kBatches - 1 - k : k;
      CHECK(vkResetFences(dev, 1, &fence));
      si.pCommandBuffers = &cbs[b];
      CHECK(vkQueueSubmit(queue, 1, &si, fence));
      CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
      uint64_t t[2];
      CHECK(vkGetQueryPoolResults(dev, qp, 2 * b, 2, sizeof t, t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      const double v = (double)((t[1] - t[0]) & ts_mask) * props.limits.timestampPeriod / n;
      if (r == 0) continue;
      ns[(size_t)b * rounds + (r - 1)] = v;
      if (raw) printf("raw round=%u pattern=%s groups=%u ns_per_dispatch=%.1f\n", r, kPatterns[b / 2].name, sizes[b % 2], v);
    }
  }

  double dawn_median[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    printf("\n%u workgroup(s) per dispatch, ns per dispatch over %u rounds:\n", sizes[s], rounds);
    printf("  %-20s %9s %9s %9s %9s  %s\n", "pattern", "median", "min", "max", "-dawn", "barrier between dispatches");
    for (int p = 0; p < kPatternCount; ++p) {
      double* v = &ns[(size_t)(p * 2 + s) * rounds];
      double sorted[rounds];
      memcpy(sorted, v, sizeof sorted);
      qsort(sorted, rounds, sizeof *sorted, cmp_double);
      const double med = rounds % 2 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
      if (p == 0) dawn_median[s] = med;
      printf("  %-20s %9.1f %9.1f %9.1f %+9.1f  %s\n", kPatterns[p].name, med, sorted[0], sorted[rounds - 1],
             med - dawn_median[s], kPatterns[p].what);
    }
  }

  vkDestroyFence(dev, fence, NULL);
  vkDestroyCommandPool(dev, pool, NULL);
  vkDestroyQueryPool(dev, qp, NULL);
  vkDestroyPipeline(dev, pipe, NULL);
  vkDestroyShaderModule(dev, sm, NULL);
  vkDestroyDescriptorPool(dev, dp, NULL);
  vkDestroyPipelineLayout(dev, pl, NULL);
  vkDestroyDescriptorSetLayout(dev, dsl, NULL);
  for (int i = 0; i < 2; ++i) {
    vkDestroyBuffer(dev, bufs[i], NULL);
    vkFreeMemory(dev, mems[i], NULL);
  }
  vkDestroyDevice(dev, NULL);
  vkDestroyInstance(inst, NULL);
  free(ns);
  free(qfs);
  free(pds);
  return 0;
}
