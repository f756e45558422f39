// Pins the result document's key structure and value types (not volatile values such as times,
// timestamps or the host): a renamed, removed or retyped field fails here, and the schema
// document (docs/results-schema.md) must change with it.
#include "report/document.hpp"
#include "tests/golden/golden.hpp"
#include "tests/golden/synthetic.hpp"

namespace wgb::report {
namespace {

// Every scalar becomes its type name; objects keep their keys; an array whose elements all have
// the same shape becomes [that shape]. machine.host is opaque (it describes the machine running
// the test: caches and /etc/os-release differ between machines).
nlohmann::json shape(const nlohmann::json& j, const std::string& path) {
  if (path == "machine.host") return "object (host description)";
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : j.items()) out[k] = shape(v, path.empty() ? k : path + "." + k);
    return out;
  }
  if (j.is_array()) {
    if (j.empty()) return nlohmann::json::array();
    std::vector<nlohmann::json> shapes;
    for (const auto& v : j) shapes.push_back(shape(v, path + "[]"));
    bool same = true;
    for (const auto& s : shapes) same = same && s == shapes.front();
    return same ? nlohmann::json::array({shapes.front()}) : nlohmann::json(shapes);
  }
  if (j.is_boolean()) return "boolean";
  if (j.is_number()) return "number";
  if (j.is_string()) return "string";
  return "null";
}

TEST(GoldenJson, DocumentShape) {
  auto doc = test::synthetic_document();
  auto second = test::synthetic_rows();
  apply_test_perturbation(second[1], {"read-linear", 1.5});
  doc.set_repro(apply_repro(doc.rows(), to_report_rows(second), 0.01),
                {.command = {"run", "--json", "/tmp/x.json"},
                 .exec = {"/proc/self/exe", "run", "--json", "/tmp/x.json"},
                 .started_at = "2026-12-04T20:00:00Z",
                 .finished_at = "2026-12-04T20:01:00Z",
                 .exit_code = 0,
                 .state = "complete",
                 .rows = second.size()});
  test::expect_golden("result_shape.json", shape(doc.json(), "").dump(2) + "\n");
}

TEST(GoldenJson, HostDescriptionHasTheDocumentedKeys) {
  const auto host = test::synthetic_document().json()["machine"]["host"];
  for (const char* k : {"cpu_model", "logical_cpus", "cores_per_socket", "sockets", "base_khz", "max_khz",
                        "scaling_governor", "observed_mhz", "observed_mhz_at_finish", "vector_isa", "caches",
                        "memory_bytes", "numa_nodes", "numa_placement", "distribution"}) {
    EXPECT_TRUE(host.contains(k)) << k;
  }
  for (const auto& c : host["caches"]) {
    for (const char* k : {"level", "type", "size", "size_bytes", "ways_of_associativity", "line_size", "shared_cpu_list", "shared"}) {
      EXPECT_TRUE(c.contains(k)) << k;
    }
  }
}

}  // namespace
}  // namespace wgb::report
