// Output that fits the terminal, as a user meets it (the built binary): `list` and `devices` laid out
// for COLUMNS, no line wider than it (the only exception: a single word longer than a line), and
// nothing cut: every id, and with -v every word of every description, is there.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>

#include "tests/golden/process.hpp"

namespace wgb {
namespace {

using test::quoted;
using test::run_command;

std::string bin() { return quoted(WGB_CLI_BIN); }

// Lines wider than `width` that contain a space (a line of one unbreakable word may be wider).
std::vector<std::string> too_wide(const std::string& text, std::size_t width) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(' ');
    const bool one_word = first == std::string::npos || line.find(' ', first) == std::string::npos;
    if (line.size() > width && !one_word) out.push_back(line);
  }
  return out;
}

TEST(CliWidth, ListFitsTheTerminalAndCutsNothing) {
  test::TempFolder dir("cli-width-list");
  auto catalog = run_command(fmt::format("{} list --json", bin()), dir);
  ASSERT_EQ(catalog.exit_code, 0) << catalog.err;
  const auto entries = nlohmann::json::parse(catalog.out);
  ASSERT_GT(entries.size(), 10u);
  for (int width : {80, 100, 160}) {
    auto r = run_command(fmt::format("COLUMNS={} {} list -v", width, bin()), dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(too_wide(r.out, width), std::vector<std::string>{}) << "at " << width;
    for (const auto& e : entries) {
      EXPECT_NE(r.out.find(e["id"].get<std::string>()), std::string::npos) << e["id"];
      std::istringstream words(e["description"].get<std::string>());
      std::string word;
      while (words >> word) EXPECT_NE(r.out.find(word), std::string::npos) << word << " at " << width;
    }
  }
  // Without -v each description is its first sentence, still whole (ends with its full stop).
  auto r = run_command(fmt::format("COLUMNS=100 {} list --filter read-linear", bin()), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("buffer_bytes say what was used)."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("..."), std::string::npos) << r.out;
  // A pipe without COLUMNS gets 100 columns.
  r = run_command(fmt::format("env -u COLUMNS {} list -v", bin()), dir);
  EXPECT_EQ(too_wide(r.out, 100), std::vector<std::string>{});
}

TEST(CliWidth, DevicesWrapsItsLists) {
  test::TempFolder dir("cli-width-devices");
  auto r = run_command(fmt::format("COLUMNS=100 {} devices", bin()), dir);
  if (r.exit_code == 3 && std::getenv("WGB_REQUIRE_ADAPTER") == nullptr) GTEST_SKIP() << "no adapter: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(too_wide(r.out, 100), std::vector<std::string>{});
  EXPECT_NE(r.out.find("adapter features (offered):"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace wgb
