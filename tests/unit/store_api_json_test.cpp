// The server's API answers are written and read in one place: what the server answers a
// submission, --submit reads back; an error's reason likewise.
#include <gtest/gtest.h>

#include "store/api_json.hpp"

namespace wgb::store {
namespace {

TEST(StoreApiJson, TheSubmitAnswerIsReadBackAsWritten) {
  SubmitAnswer a{.id = 42, .url = "/runs/42", .duplicate = true, .unranked_reason = "a sweep"};
  a.device_class.key = "nvidia/hopper/nvidia-h200/vulkan";
  const std::string body = submit_answer_json(a).dump();
  auto back = read_submit_answer(body);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->id, 42);
  EXPECT_EQ(back->url, "/runs/42");
  EXPECT_TRUE(back->duplicate);
  EXPECT_EQ(back->unranked_reason, "a sweep");
  EXPECT_EQ(back->device_class.key, a.device_class.key);
  EXPECT_EQ(nlohmann::json::parse(body).at("ranked"), false);
}

TEST(StoreApiJson, AnUnreadableAnswerSaysWhatIsMissing) {
  EXPECT_NE(read_submit_answer("<html>").error().message.find("not a JSON object"), std::string::npos);
  EXPECT_NE(read_submit_answer(R"({"url":"/runs/1"})").error().message.find("\"id\""), std::string::npos);
  EXPECT_NE(read_submit_answer(R"({"id":"1","url":"/runs/1"})").error().message.find("\"id\""), std::string::npos);
  EXPECT_NE(read_submit_answer(R"({"id":1})").error().message.find("\"url\""), std::string::npos);
}

TEST(StoreApiJson, ErrorReasons) {
  EXPECT_EQ(read_error_reason(error_json("too large").dump()), "too large");
  EXPECT_FALSE(read_error_reason(R"({"error":5})"));
  EXPECT_FALSE(read_error_reason("busy"));
}

TEST(StoreApiJson, ALeaderboardClassWithoutRankedRunsHasNoSpread) {
  Leaderboard board{.benchmark = "read-linear", .unit = "B", .lower_is_better = false, .classes = {}};
  ClassStanding none;
  none.device_class.key = "k";
  board.classes.push_back(none);
  const auto j = leaderboard_json(board);
  const auto& c = j.at("classes").at(0);
  EXPECT_TRUE(c.at("rank").is_null());
  EXPECT_FALSE(c.contains("median"));
  EXPECT_EQ(c.at("class").at("key"), "k");
}

}  // namespace
}  // namespace wgb::store
