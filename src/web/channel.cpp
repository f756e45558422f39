// The channel to the device host and the page's imports (channel.hpp).
#include "web/channel.hpp"

#include <atomic>
#include <cstring>

#include "report/page_messages.hpp"
#include "suite/sleep.hpp"

// Imports of module "wgb" (engine-worker.js).
extern "C" {
__attribute__((import_module("wgb"), import_name("call"))) std::int32_t wgb_import_call(const void* frame,
                                                                                        std::int32_t length);
__attribute__((import_module("wgb"), import_name("take"))) void wgb_import_take(void* destination);
__attribute__((import_module("wgb"), import_name("emit"))) void wgb_import_emit(const char* json, std::int32_t length);
__attribute__((import_module("wgb"), import_name("flags"))) std::int32_t wgb_import_flags();
__attribute__((import_module("wgb"), import_name("now_ms"))) double wgb_import_now_ms();
__attribute__((import_module("wgb"), import_name("sleep_ms"))) void wgb_import_sleep_ms(double ms);
}

namespace wgb::web {

namespace {

std::atomic<bool> g_cancel{false};

std::int32_t read_flags() {
  const std::int32_t f = wgb_import_flags();
  if ((f & 1) != 0) g_cancel.store(true);
  return f;
}

ErrorKind kind_of(const std::string& kind) {
  if (kind == "unsupported") return ErrorKind::Skipped;
  if (kind == "compile") return ErrorKind::Compile;
  if (kind == "out-of-memory") return ErrorKind::OutOfMemory;
  if (kind == "lost") return ErrorKind::DeviceLost;
  if (kind == "validation") return ErrorKind::GpuError;
  return ErrorKind::Failed;
}

}  // namespace

Expected<Reply> request(std::string_view op_name, const nlohmann::json& fields, std::span<const std::byte> payload) {
  read_flags();  // every request also notices a Cancel
  const std::string text = report::page_request(op_name, fields).dump();
  // Frame: u32 little-endian JSON length | UTF-8 JSON | binary payload.
  std::vector<std::byte> frame(4 + text.size() + payload.size());
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<std::byte>((n >> (8 * i)) & 0xff);
  std::memcpy(frame.data() + 4, text.data(), text.size());
  if (!payload.empty()) std::memcpy(frame.data() + 4 + text.size(), payload.data(), payload.size());
  const std::int32_t length = wgb_import_call(frame.data(), static_cast<std::int32_t>(frame.size()));
  const std::string op(op_name);
  if (length < 0) return make_error(ErrorKind::DeviceLost, "the page closed the device host's channel");
  if (length < 4) return make_error(ErrorKind::Failed, "the device host answered '" + op + "' with a truncated frame");
  std::vector<std::byte> reply(static_cast<std::size_t>(length));
  wgb_import_take(reply.data());
  std::uint32_t json_length = 0;
  for (int i = 0; i < 4; ++i) json_length |= static_cast<std::uint32_t>(reply[i]) << (8 * i);
  if (json_length > reply.size() - 4) {
    return make_error(ErrorKind::Failed, "the device host answered '" + op + "' with a malformed frame");
  }
  Reply out;
  out.json = nlohmann::json::parse(reinterpret_cast<const char*>(reply.data()) + 4,
                                   reinterpret_cast<const char*>(reply.data()) + 4 + json_length, nullptr, false);
  if (out.json.is_discarded() || !out.json.is_object()) {
    return make_error(ErrorKind::Failed, "the device host answered '" + op + "' with JSON that is not an object");
  }
  if (const auto e = report::read_error_reply(out.json)) return make_error(kind_of(e->kind), e->message);
  out.payload.assign(reply.begin() + 4 + json_length, reply.end());
  return out;
}

void emit(const nlohmann::json& event) {
  const std::string text = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  wgb_import_emit(text.data(), static_cast<std::int32_t>(text.size()));
}

bool cancel_requested() {
  read_flags();
  return g_cancel.load();
}

bool paused() { return (read_flags() & 2) != 0; }

std::atomic<bool>* cancel_flag() { return &g_cancel; }

double now_ms() { return wgb_import_now_ms(); }

void sleep_for_ms(double ms) {
  if (ms > 0) wgb_import_sleep_ms(ms);
}

}  // namespace wgb::web

namespace wgb {

// The timed loop's idling (suite/sleep.hpp): the worker blocks on the page's timer, and every slice
// notices a Cancel.
void sleep_ms(double ms) {
  web::sleep_for_ms(ms);
  web::cancel_requested();
}

}  // namespace wgb
