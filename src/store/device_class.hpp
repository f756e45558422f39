// Device classes: which runs are compared with each other on the leaderboard. A class is
// vendor + architecture + device + backend, normalised so that two runs of the same part through
// the same API land together however the driver spells them. The rules are in docs/store.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report/files.hpp"
#include "report/host_section.hpp"
#include "webgpu_bench/expected.hpp"

namespace wgb::store {

struct DeviceClass {
  std::string key;           // "nvidia/hopper/nvidia-h200/vulkan": stable, URL-safe, the grouping key
  std::string label;         // "NVIDIA H200 · nvidia hopper · vulkan": for people, as reported
  std::string vendor;        // normalised parts of the key, before slugging
  std::string architecture;
  std::string device;
  std::string backend;
  std::string adapter_type;  // "discrete-gpu", "integrated-gpu", "cpu", "unknown", "host"
  // Integrated GPUs, CPU adapters and the host CPU reach memory that the rest of the system shares
  // (and whose configuration varies from machine to machine): their class is marked variable.
  bool variable = false;
};

// The class of a result document's machine, read by the reporting module (report::read_document
// refused fields of another type): machine.adapter when present (a CPU adapter adds the host's
// identity below); for documents of the host suite without an adapter, machine.host (the CPU as a
// device: its model and topology). Usage error naming the field when neither is there.
Expected<DeviceClass> device_class_of(const report::Document& document);

// The class of one adapter (vendor, architecture, device, description, backend, adapter type and
// PCI vendor id as machine.adapter records them).
Expected<DeviceClass> adapter_class(const report::AdapterIdentity& adapter);

// "Intel(R) Xeon(R) Processor (1 socket, 16 cores, 16 threads)": the CPU model with its sockets,
// physical cores (when known) and logical CPUs, from machine.host. Two hosts are comparable only when
// all of these agree. Usage error naming the field when cpu_model, sockets or logical_cpus is missing.
Expected<std::string> host_identity(const report::HostDescriptionRecord& host);

// What the pages show people (never the key): the device as reported ("NVIDIA H200"; "" for a
// class read back without one: then its label) and a line with the vendor and architecture, the API
// and the kind of adapter in their usual spelling ("NVIDIA hopper · Vulkan · discrete GPU").
std::string display_name(const DeviceClass& c);
std::string display_detail(const DeviceClass& c);

// Lower-case, collapse every run of characters other than [a-z0-9._+] into one '-', trim '-'.
// "" stays "" (the key then shows "-" for that part).
std::string slug(std::string_view text);

// Trim and collapse internal whitespace to one space (what a label shows).
std::string tidy(std::string_view text);

}  // namespace wgb::store
