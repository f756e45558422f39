// Routes of the leaderboard server. The API answers JSON ({"error": reason} on failure), pages
// answer HTML. Submitting: authorisation first, then the size cap, then the document checks
// (submission.hpp), then one transaction; any refusal stores nothing.
#include "store/server.hpp"

#include "store/runtime_filter.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/crypto.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <semaphore>
#include <thread>
#include <unordered_map>

#include "store/html.hpp"
#include "store/rate_limit.hpp"
#include "store/web_assets.hpp"

namespace wgb::store {

namespace {

using httplib::Request;
using httplib::Response;

constexpr const char* kJson = "application/json";
constexpr const char* kHtml = "text/html; charset=utf-8";

// No script may run and nothing may be fetched from elsewhere: the pages need inline style only.
constexpr const char* kCsp =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'";

// The /run page runs scripts and WebAssembly of its own origin and nothing else. Cross-origin
// isolation (COOP + COEP) is what gives it SharedArrayBuffer, which the engine's blocking channel needs.
constexpr const char* kRunCsp =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

void browser_headers(Response& res) {
  res.headers.erase("Content-Security-Policy");
  res.set_header("Content-Security-Policy", kRunCsp);
  res.set_header("Cross-Origin-Opener-Policy", "same-origin");
  res.set_header("Cross-Origin-Embedder-Policy", "require-corp");
  res.set_header("Cross-Origin-Resource-Policy", "same-origin");
}

// The content type of a file of the browser runner, by its extension; nullptr: not served.
const char* web_content_type(std::string_view name) {
  auto ends = [name](std::string_view ext) {
    return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".wasm")) return "application/wasm";
  return nullptr;
}

std::string dump(const nlohmann::json& j) {
  // Reasons can quote bytes of a malformed request: never let invalid UTF-8 throw here.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void api_error(Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(dump({{"error", reason}}), kJson);
}

void page_error(Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(html::error_page(status, reason), kHtml);
}

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  return out;
}

bool parse_i64(const std::string& s, std::int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size();
}

// A query parameter limited to a sane length ("" when absent).
std::string param(const Request& req, const char* name) {
  std::string v = req.has_param(name) ? req.get_param_value(name) : std::string{};
  if (v.size() > 256) v.resize(256);
  return v;
}

// runtime=browser|native|chromium|firefox|deno|safari (absent or empty: all; runtime_filter.hpp).
bool read_runtime(const Request& req, std::string& runtime, std::string& error) {
  runtime = param(req, "runtime");
  if (valid_runtime_filter(runtime)) return true;
  error = runtime_filter_error();
  return false;
}

bool read_filter(const Request& req, RunFilter& f, std::string& error) {
  f.device_class = param(req, "class");
  f.suite = param(req, "suite");
  f.benchmark = param(req, "benchmark");
  f.metric = param(req, "metric");
  if (!read_runtime(req, f.runtime, error)) return false;
  // Times compare as UTC text in the store: accept a date or an RFC 3339 time, refuse the rest.
  for (auto [name, target] : {std::pair{"since", &f.since}, std::pair{"until", &f.until}}) {
    std::string v = param(req, name);
    if (v.empty()) continue;
    if (v.size() == 10) v += "T00:00:00Z";
    auto t = normalize_timestamp(v);
    if (!t) {
      error = fmt::format("{} must be a date (2026-11-30) or an RFC 3339 time (2026-11-30T06:01:17Z)", name);
      return false;
    }
    *target = *t;
  }
  for (auto [name, target, lo, hi] : {std::tuple{"limit", &f.limit, std::int64_t{1}, std::int64_t{1000}},
                                      std::tuple{"offset", &f.offset, std::int64_t{0}, std::int64_t{1} << 40}}) {
    const std::string v = param(req, name);
    if (v.empty()) continue;
    std::int64_t n = 0;
    if (!parse_i64(v, n) || n < lo || n > hi) {
      error = fmt::format("{} must be an integer in [{}, {}]", name, lo, hi);
      return false;
    }
    *target = n;
  }
  return true;
}

nlohmann::json class_json(const DeviceClass& c) {
  return {{"key", c.key},         {"label", c.label},     {"vendor", c.vendor},
          {"architecture", c.architecture}, {"device", c.device}, {"backend", c.backend},
          {"adapter_type", c.adapter_type}, {"variable", c.variable}};
}

nlohmann::json summary_json(const RunSummary& s) {
  return {{"id", s.id},
          {"url", fmt::format("/runs/{}", s.id)},
          {"submitted_at", s.submitted_at},
          {"started_at", s.started_at},
          {"suite", s.suite},
          {"state", s.state},
          {"rows", s.row_count},
          {"ranked", s.unranked_reason.empty()},
          {"unranked_reason", s.unranked_reason},
          {"runtime", s.runtime},
          {"class", class_json(s.device_class)}};
}

// The pages (src/store/html.cpp) show a run's state and, on the leaderboard, each run's suite and
// an "unranked" badge: a run unranked for its options carries the reason in those cells, and its
// rows carry parameters.unranked, so the existing unranked display shows it.
std::string with_reason(const std::string& text, const std::string& reason) {
  return reason.empty() ? text : text + " \u00b7 unranked: " + reason;
}

RunSummary shown(RunSummary s) {
  s.state = with_reason(s.state, s.unranked_reason);
  return s;
}

std::vector<RunSummary> shown(std::vector<RunSummary> runs) {
  for (auto& r : runs) r = shown(std::move(r));
  return runs;
}

StoredRun shown(StoredRun run) {
  if (!run.summary.unranked_reason.empty()) {
    if (auto rows = run.document.find("rows"); rows != run.document.end() && rows->is_array()) {
      for (auto& r : *rows) {
        if (r.is_object() && (!r.contains("parameters") || r["parameters"].is_object())) {
          r["parameters"]["unranked"] = true;
        }
      }
    }
  }
  run.summary = shown(std::move(run.summary));
  return run;
}

Leaderboard shown(Leaderboard board) {
  for (auto& c : board.classes) {
    for (auto& e : c.entries) e.suite = with_reason(e.suite, e.unranked_reason);
  }
  return board;
}

// ---- the transport ------------------------------------------------------------------------------
// cpp-httplib parses, routes and formats; it never touches a socket here. The event thread below
// hands it one complete request in memory and takes back the answer's bytes.

using Clock = std::chrono::steady_clock;

class MemoryStream final : public httplib::Stream {
 public:
  MemoryStream(std::string_view in, const std::string& ip, int port) : in_(in), ip_(ip), port_(port) {}
  bool is_readable() const override { return pos_ < in_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, in_.size() - pos_);
    std::memcpy(ptr, in_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = ip_;
    port = port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string& out() { return out_; }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
  std::string ip_;
  int port_;
  std::string out_;
};

// httplib's router over a request held in memory.
class Router : public httplib::Server {
 public:
  // The answer's bytes; `keep` false when the connection must close after them.
  std::string handle(std::string_view request, const std::string& ip, int port, bool& keep) {
    MemoryStream strm(request, ip, port);
    bool closed = false;
    const bool ok = process_request(strm, false, closed, nullptr);
    std::string out = std::move(strm.out());
    // The event thread already answered "Expect: 100-continue" before the body arrived.
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    if (std::string_view(out).substr(0, kContinue.size()) == kContinue) out.erase(0, kContinue.size());
    const auto head = std::string_view(out).substr(0, out.find("\r\n\r\n"));
    keep = ok && !closed && head.find("\r\nConnection: close") == std::string_view::npos;
    return out;
  }
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// What the event thread needs from a request's head; the rest is httplib's.
struct Head {
  int status = 0;      // non-zero: refuse with this status and `reason`
  std::string reason;
  std::string method, target;
  std::size_t body = 0;
  bool expect_continue = false;
  bool close = false;  // Connection: close or HTTP/1.0 without keep-alive
};

bool token_char(unsigned char c) {
  return std::isalnum(c) || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

// The request line and header lines (without the final empty line). Strict where ambiguity could
// let a request be read two ways: one Content-Length (repeats must agree), no Transfer-Encoding.
Head parse_head(std::string_view text, const ServerOptions& o) {
  Head h;
  auto refuse = [&h](int status, std::string reason) {
    h.status = status;
    h.reason = std::move(reason);
    return h;
  };
  const auto eol = text.find("\r\n");
  const std::string_view line = text.substr(0, eol);
  const auto sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return refuse(400, "malformed request line");
  h.method = std::string(line.substr(0, sp1));
  h.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  const std::string_view version = line.substr(sp2 + 1);
  if (h.method.empty() || h.target.empty() || h.target.find(' ') != std::string::npos) {
    return refuse(400, "malformed request line");
  }
  for (unsigned char c : h.method) {
    if (!token_char(c)) return refuse(400, "malformed request method");
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return refuse(505, "only HTTP/1.0 and HTTP/1.1 are spoken here");
  bool keep_alive_header = false, close_header = false, chunked = false;
  std::optional<std::uint64_t> length;
  std::size_t count = 0;
  std::size_t at = eol == std::string_view::npos ? text.size() : eol + 2;
  while (at < text.size()) {
    auto end = text.find("\r\n", at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(at, end - at);
    at = end + 2;
    if (++count > o.max_headers) return refuse(431, fmt::format("more than {} header lines", o.max_headers));
    const auto colon = l.find(':');
    if (colon == 0 || colon == std::string_view::npos) return refuse(400, "a header line without a name");
    const std::string_view name = l.substr(0, colon);
    for (unsigned char c : name) {
      if (!token_char(c)) return refuse(400, "a header name with a space or a control character");
    }
    const std::string_view value = trim(l.substr(colon + 1));
    for (unsigned char c : value) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) return refuse(400, "a control character in a header value");
    }
    if (iequals(name, "Content-Length")) {
      std::uint64_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (value.empty() || ec != std::errc{} || p != value.data() + value.size()) {
        return refuse(400, "Content-Length is not a number");
      }
      if (length && *length != n) return refuse(400, "two different Content-Length headers");
      length = n;
    } else if (iequals(name, "Transfer-Encoding")) {
      chunked = true;
    } else if (iequals(name, "Expect")) {
      if (!iequals(value, "100-continue")) return refuse(417, "only Expect: 100-continue is understood");
      h.expect_continue = true;
    } else if (iequals(name, "Connection")) {
      if (iequals(value, "close")) close_header = true;
      if (iequals(value, "keep-alive")) keep_alive_header = true;
    }
  }
  if (chunked && length) return refuse(400, "both Transfer-Encoding and Content-Length");
  if (chunked) return refuse(411, "a chunked body is not accepted: send Content-Length");
  if (length && *length > o.max_body_bytes) return refuse(413, fmt::format("the body exceeds {} bytes", o.max_body_bytes));
  h.body = length ? static_cast<std::size_t>(*length) : 0;
  h.close = close_header || (version == "HTTP/1.0" && !keep_alive_header);
  return h;
}

const char* status_text(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 417: return "Expectation Failed";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
  }
}

// An answer the event thread writes itself: a refusal ({"error": reason}, connection closed) or
// the health check.
std::string direct_answer(int status, const std::string& body, const char* type, bool close) {
  return fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n{}{}\r\n{}",
                     status, status_text(status), type, body.size(), close ? "Connection: close\r\n" : "",
                     status == 429 || status == 503 ? "Retry-After: 1\r\n" : "", body);
}

std::string refusal(int status, const std::string& reason) {
  return direct_answer(status, dump({{"error", reason}}) , kJson, true);
}

// One client connection, owned by the event thread.
struct Conn {
  std::uint64_t id = 0;
  int fd = -1;
  std::string ip;
  int port = 0;
  // Draining: answered and half-closed; what the client still sends is read and dropped for a
  // moment, so that closing does not reset the connection before the client read the answer.
  enum class State { Reading, Working, Writing, Draining } state = State::Reading;
  std::string in;              // the request being received (and any bytes pipelined after it)
  std::size_t head_end = std::string::npos;  // offset of the body, once the head is complete
  std::size_t body = 0;        // the body's declared length
  std::size_t reserved = 0;    // body bytes reserved in the global budget
  bool started = false;        // a byte of the current request has arrived
  bool continued = false;      // "100 Continue" sent
  bool close_after = false;
  Head head;
  std::string out;
  std::size_t out_at = 0;
  Clock::time_point deadline;
  int requests = 0;
};

struct Job {
  std::uint64_t conn = 0;
  std::string request, ip;
  int port = 0;
  bool close = false;
};

struct Done {
  std::uint64_t conn = 0;
  std::string answer;
  bool keep = false;
};

}  // namespace

struct Server::Impl {
  Store& store;
  ServerOptions options;
  Router http;
  int port = 0;
  std::mutex stop_mutex;
  bool stopped = false;
  std::counting_semaphore<256> submissions{2};
  SubmissionLimiter limiter{1, std::chrono::seconds(1)};  // set from the options in start()

  // Event thread state (owned by it, except where a mutex says otherwise).
  int listen_fd = -1, epoll_fd = -1, wake_fd = -1;
  std::thread loop_thread;
  std::atomic<bool> running{false}, stopping{false};
  std::unordered_map<std::uint64_t, std::unique_ptr<Conn>> conns;
  std::unordered_map<std::string, int> per_address;
  std::uint64_t next_id = 16;  // ids below are the listener and the wake-up descriptor
  std::size_t buffered = 0;    // body bytes reserved over all connections
  std::size_t budget = 0;

  // Workers.
  std::vector<std::thread> workers;
  std::mutex jobs_mutex;
  std::condition_variable jobs_ready;
  std::deque<Job> jobs;
  bool workers_stop = false;
  std::mutex done_mutex;
  std::deque<Done> done;

  Impl(Store& s, ServerOptions o)
      : store(s), options(std::move(o)), submissions(std::clamp(options.max_parallel_submissions, 1, 256)) {}

  bool authorised(const Request& req) const {
    if (options.token.empty()) return true;
    const std::string expected = "Bearer " + options.token;
    const std::string got = req.get_header_value("Authorization");
    return got.size() == expected.size() && CRYPTO_memcmp(got.data(), expected.data(), got.size()) == 0;
  }

  void submit(const Request& req, Response& res, const httplib::ContentReader& reader) {
    const bool with_token = !options.token.empty() && authorised(req);
    if (!authorised(req) && !options.open_submissions) {
      res.set_header("WWW-Authenticate", "Bearer");
      return api_error(res, 401, "a valid bearer token is required to submit to this server");
    }
    if (options.open_submissions && !with_token) {
      const auto wait = limiter.admit(limit_key(req.remote_addr), SubmissionLimiter::Clock::now());
      if (wait > 0) {
        res.set_header("Retry-After", std::to_string(wait));
        return api_error(res, 429,
                         fmt::format("more than {} submissions from this address in {} s: try again in {} s",
                                     options.open_submissions_per_window,
                                     options.open_submissions_window.count(), wait));
      }
    }
    std::string body;
    bool too_big = false;
    const bool complete = reader([&](const char* data, std::size_t n) {
      if (body.size() + n > options.max_body_bytes) {
        too_big = true;
        return false;  // stop reading: the rest is never buffered
      }
      body.append(data, n);
      return true;
    });
    if (too_big) {
      res.set_header("Connection", "close");
      return api_error(res, 413, fmt::format("the body exceeds {} bytes", options.max_body_bytes));
    }
    if (!complete) {
      res.set_header("Connection", "close");
      return api_error(res, 400, "the request body was not received completely");
    }
    // Parsing a document can take many times its size in memory: a few at a time, the rest wait.
    submissions.acquire();
    struct Release {
      std::counting_semaphore<256>& s;
      ~Release() { s.release(); }
    } release{submissions};
    auto sub = parse_submission(body);
    if (!sub) {
      // Malformed JSON is a bad request; a well-formed document the server will not take, 422.
      const bool malformed = sub.error().message.find("not valid JSON") != std::string::npos;
      return api_error(res, malformed ? 400 : 422, sub.error().message);
    }
    auto outcome = store.insert(*sub);
    if (!outcome) return api_error(res, 500, "the store failed: " + outcome.error().message);
    res.status = outcome->duplicate ? 200 : 201;
    res.set_header("Location", fmt::format("/api/v1/results/{}", outcome->id));
    res.set_content(dump({{"id", outcome->id},
                          {"url", fmt::format("/runs/{}", outcome->id)},
                          {"duplicate", outcome->duplicate},
                          {"ranked", sub->unranked_reason.empty()},
                          {"unranked_reason", sub->unranked_reason},
                          {"class", class_json(sub->device_class)}}),
                    kJson);
  }


  // ---- event thread ------------------------------------------------------------------------------
  void log_line(const std::string& line) const {
    if (options.log) options.log(line);
  }

  void watch(Conn& c, std::uint32_t events) const {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = c.id;
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c.fd, &ev);
  }

  void close_conn(std::uint64_t id) {
    auto it = conns.find(id);
    if (it == conns.end()) return;
    Conn& c = *it->second;
    buffered -= c.reserved;
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    if (auto a = per_address.find(c.ip); a != per_address.end() && --a->second <= 0) per_address.erase(a);
    conns.erase(it);
  }

  // Starts writing `answer`; the connection closes after it when `close`.
  void answer(Conn& c, std::string answer, bool close) {
    c.state = Conn::State::Writing;
    c.out = std::move(answer);
    c.out_at = 0;
    c.close_after = close || c.close_after;
    c.deadline = Clock::now() + options.write_timeout;
    write_some(c);
  }

  void refuse(Conn& c, int status, const std::string& reason) {
    log_line(fmt::format("{} {} {} ({})", printable(c.head.method.empty() ? "-" : c.head.method),
                         printable(c.head.target.empty() ? "-" : c.head.target), status, reason));
    answer(c, refusal(status, reason), true);
  }

  void write_some(Conn& c) {
    while (c.out_at < c.out.size()) {
      const auto n = ::send(c.fd, c.out.data() + c.out_at, c.out.size() - c.out_at, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_at += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        watch(c, EPOLLOUT);
        return;
      }
      if (n < 0 && errno == EINTR) continue;
      return close_conn(c.id);  // the client went away
    }
    if (c.close_after) {
      ::shutdown(c.fd, SHUT_WR);
      c.state = Conn::State::Draining;
      c.in.clear();
      c.in.shrink_to_fit();
      c.deadline = Clock::now() + std::chrono::seconds(2);
      watch(c, EPOLLIN | EPOLLRDHUP);
      return;
    }
    next_request(c);
  }

  // After an answer on a kept connection: wait for the next request (it may already be buffered).
  void next_request(Conn& c) {
    c.state = Conn::State::Reading;
    c.out.clear();
    c.out.shrink_to_fit();
    c.head = Head{};
    c.head_end = std::string::npos;
    c.body = 0;
    c.continued = false;
    c.started = !c.in.empty();
    c.deadline = Clock::now() + (c.started ? options.request_timeout : options.keep_alive_timeout);
    watch(c, EPOLLIN | EPOLLRDHUP);
    if (c.started) examine(c);
  }

  void on_readable(Conn& c) {
    // Never buffer more than the current request can be: its head, or its head and declared body.
    for (int rounds = 0; rounds < 64 && c.state == Conn::State::Reading; ++rounds) {
      const std::size_t limit = c.head_end == std::string::npos ? options.max_header_bytes + 4 : c.head_end + c.body;
      if (c.in.size() >= limit) break;
      const std::size_t want = std::min<std::size_t>(limit - c.in.size(), 64 * 1024);
      const std::size_t old = c.in.size();
      c.in.resize(old + want);
      const auto n = ::recv(c.fd, c.in.data() + old, want, 0);
      c.in.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
      if (n == 0) return close_conn(c.id);  // the client closed; a partial request is dropped
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        if (errno == EINTR) continue;
        return close_conn(c.id);
      }
      if (!c.started) {
        c.started = true;
        c.deadline = Clock::now() + options.request_timeout;
      }
      const std::uint64_t id = c.id;
      examine(c);
      if (!conns.count(id)) return;
    }
  }

  // Has the request arrived whole? Then hand it to a worker (or answer it here).
  void examine(Conn& c) {
    if (c.state != Conn::State::Reading) return;
    if (c.head_end == std::string::npos) {
      const auto end = c.in.find("\r\n\r\n");
      if (end == std::string::npos || end + 4 > options.max_header_bytes + 4) {
        if (c.in.size() > options.max_header_bytes) {
          return refuse(c, 431, fmt::format("the request line and headers exceed {} bytes", options.max_header_bytes));
        }
        return;  // more to come
      }
      c.head = parse_head(std::string_view(c.in).substr(0, end), options);
      if (c.head.status != 0) return refuse(c, c.head.status, c.head.reason);
      c.head_end = end + 4;
      c.body = c.head.body;
      if (buffered + c.body > budget) {
        return refuse(c, 503, "the server is receiving too many documents at once; retry in a moment");
      }
      c.reserved = c.body;
      buffered += c.reserved;
      if (c.head.method == "GET" && (c.head.target == "/healthz" || c.head.target.rfind("/healthz?", 0) == 0) &&
          c.body == 0) {
        // Answered here, never queued behind workers: a health check answers at once.
        c.in.erase(0, c.head_end);
        buffered -= c.reserved;
        c.reserved = 0;
        return answer(c, direct_answer(200, "ok\n", "text/plain", c.head.close), c.head.close);
      }
    }
    if (c.in.size() < c.head_end + c.body) {
      if (c.head.expect_continue && !c.continued) {
        c.continued = true;
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)::send(c.fd, kContinue.data(), kContinue.size(), MSG_NOSIGNAL);
      }
      return;
    }
    Job job;
    job.conn = c.id;
    job.request = c.in.substr(0, c.head_end + c.body);
    c.in.erase(0, c.head_end + c.body);
    job.ip = c.ip;
    job.port = c.port;
    job.close = c.head.close || ++c.requests >= 100;
    c.close_after = job.close;
    c.state = Conn::State::Working;
    watch(c, EPOLLRDHUP);
    {
      std::lock_guard lock(jobs_mutex);
      jobs.push_back(std::move(job));
    }
    jobs_ready.notify_one();
  }

  void accept_all() {
    for (int i = 0; i < 256; ++i) {
      sockaddr_storage addr{};
      socklen_t len = sizeof(addr);
      const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;
      char host[INET6_ADDRSTRLEN] = "?";
      int port_no = 0;
      if (addr.ss_family == AF_INET) {
        const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
        port_no = ntohs(a->sin_port);
      } else if (addr.ss_family == AF_INET6) {
        const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
        port_no = ntohs(a->sin6_port);
      }
      const int yes = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
      int& from_here = per_address[host];
      const bool too_many_here = from_here >= options.max_connections_per_address;
      const bool too_many = static_cast<int>(conns.size()) >= options.max_connections;
      if (too_many_here || too_many) {
        if (from_here == 0) per_address.erase(host);
        // One short answer, best effort, then closed: the connection never reaches the loop.
        const std::string a = too_many_here
                                  ? refusal(429, fmt::format("more than {} connections from {}",
                                                             options.max_connections_per_address, host))
                                  : refusal(503, "the server has too many open connections; retry in a moment");
        (void)::send(fd, a.data(), a.size(), MSG_NOSIGNAL);
        ::shutdown(fd, SHUT_WR);
        char sink[4096];
        (void)::recv(fd, sink, sizeof(sink), 0);
        ::close(fd);
        log_line(fmt::format("refused a connection from {}: {}", host, too_many_here ? 429 : 503));
        continue;
      }
      ++from_here;
      auto c = std::make_unique<Conn>();
      c->id = next_id++;
      c->fd = fd;
      c->ip = host;
      c->port = port_no;
      c->deadline = Clock::now() + options.request_timeout;
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP;
      ev.data.u64 = c->id;
      epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev);
      conns.emplace(c->id, std::move(c));
    }
  }

  void finish_jobs() {
    std::deque<Done> ready;
    {
      std::lock_guard lock(done_mutex);
      ready.swap(done);
    }
    for (auto& d : ready) {
      auto it = conns.find(d.conn);
      if (it == conns.end()) continue;  // the client left meanwhile
      Conn& c = *it->second;
      buffered -= c.reserved;
      c.reserved = 0;
      if (d.answer.empty()) {
        close_conn(c.id);
        continue;
      }
      answer(c, std::move(d.answer), !d.keep);
    }
  }

  void expire(Clock::time_point now) {
    std::vector<std::uint64_t> late;
    for (const auto& [id, c] : conns) {
      if (c->state != Conn::State::Working && now >= c->deadline) late.push_back(id);
    }
    for (auto id : late) {
      Conn& c = *conns.at(id);
      if (c.state == Conn::State::Reading && c.started) {
        // Best effort: the client may be too slow to read it; the connection closes either way.
        const std::string a = refusal(
            408, fmt::format("the request did not arrive whole within {} ms", options.request_timeout.count()));
        (void)::send(c.fd, a.data(), a.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        log_line(fmt::format("{} {} 408 (request deadline)", printable(c.head.method.empty() ? "-" : c.head.method),
                             printable(c.head.target.empty() ? "-" : c.head.target)));
      }
      close_conn(id);
    }
  }

  void loop() {
    std::array<epoll_event, 64> events{};
    Clock::time_point stop_deadline{};
    auto last_sweep = Clock::now();
    while (true) {
      if (stopping && listen_fd >= 0) {
        // Stop accepting; let the requests in flight finish (bounded by the write deadline).
        epoll_ctl(epoll_fd, EPOLL_CTL_DEL, listen_fd, nullptr);
        ::close(listen_fd);
        listen_fd = -1;
        stop_deadline = Clock::now() + options.write_timeout;
        std::vector<std::uint64_t> idle;
        for (const auto& [id, c] : conns) {
          if (c->state == Conn::State::Reading) idle.push_back(id);
        }
        for (auto id : idle) close_conn(id);
      }
      if (stopping) {
        std::vector<std::uint64_t> idle;
        for (const auto& [id, c] : conns) {
          if (c->state == Conn::State::Reading || c->state == Conn::State::Draining) idle.push_back(id);
        }
        for (auto id : idle) close_conn(id);
        if (conns.empty() || Clock::now() >= stop_deadline) break;
      }
      const int n = epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()), 100);
      for (int i = 0; i < n; ++i) {
        const auto id = events[static_cast<std::size_t>(i)].data.u64;
        const auto ev = events[static_cast<std::size_t>(i)].events;
        if (id == 1) {
          std::uint64_t v = 0;
          (void)::read(wake_fd, &v, sizeof(v));
          continue;
        }
        if (id == 0) {
          if (listen_fd >= 0) accept_all();
          continue;
        }
        auto it = conns.find(id);
        if (it == conns.end()) continue;
        Conn& c = *it->second;
        if (c.state == Conn::State::Working) {
          if ((ev & (EPOLLHUP | EPOLLERR)) != 0) {
            close_conn(id);  // the client is gone: the answer has nowhere to go
          } else if ((ev & EPOLLRDHUP) != 0) {
            watch(c, 0);  // it half-closed after its request: answer, then close
            c.close_after = true;
          }
          continue;
        }
        if ((ev & (EPOLLHUP | EPOLLERR)) != 0) {
          close_conn(id);
          continue;
        }
        if (c.state == Conn::State::Draining) {
          char sink[16384];
          const auto got = ::recv(c.fd, sink, sizeof(sink), 0);
          if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) close_conn(id);
          continue;
        }
        if (c.state == Conn::State::Writing && (ev & EPOLLOUT) != 0) {
          write_some(c);
        } else if (c.state == Conn::State::Reading && (ev & (EPOLLIN | EPOLLRDHUP)) != 0) {
          on_readable(c);
        }
      }
      finish_jobs();
      const auto now = Clock::now();
      if (now - last_sweep >= std::chrono::milliseconds(50)) {
        expire(now);
        last_sweep = now;
      }
    }
    std::vector<std::uint64_t> all;
    for (const auto& [id, c] : conns) all.push_back(id);
    for (auto id : all) close_conn(id);
  }

  void work() {
    while (true) {
      Job job;
      {
        std::unique_lock lock(jobs_mutex);
        jobs_ready.wait(lock, [this] { return workers_stop || !jobs.empty(); });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      Done d;
      d.conn = job.conn;
      try {
        d.answer = http.handle(job.request, job.ip, job.port, d.keep);
      } catch (...) {
        d.answer = refusal(500, "internal error");
        d.keep = false;
      }
      d.keep = d.keep && !job.close;
      {
        std::lock_guard lock(done_mutex);
        done.push_back(std::move(d));
      }
      const std::uint64_t one = 1;
      (void)::write(wake_fd, &one, sizeof(one));
    }
  }

  void routes() {
    auto& s = http;
    s.Get("/healthz", [](const Request&, Response& res) { res.set_content("ok\n", "text/plain"); });

    s.Post("/api/v1/results",
           [this](const Request& req, Response& res, const httplib::ContentReader& reader) { submit(req, res, reader); });

    s.Get("/api/v1/results", [this](const Request& req, Response& res) {
      RunFilter f;
      std::string error;
      if (!read_filter(req, f, error)) return api_error(res, 400, error);
      auto runs = store.list(f);
      auto total = store.count(f);
      if (!runs || !total) return api_error(res, 500, (!runs ? runs.error() : total.error()).message);
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : *runs) list.push_back(summary_json(r));
      res.set_content(dump({{"total", *total}, {"offset", f.offset}, {"limit", f.limit}, {"runs", list}}), kJson);
    });

    s.Get(R"(/api/v1/results/(\d{1,18}))", [this](const Request& req, Response& res) {
      std::int64_t id = 0;
      if (!parse_i64(req.matches[1].str(), id)) return api_error(res, 404, "no such run");
      auto run = store.get(id);
      if (!run) return api_error(res, 500, run.error().message);
      if (!*run) return api_error(res, 404, fmt::format("no run {}", id));
      auto j = summary_json((*run)->summary);
      j["document"] = (*run)->document;
      res.set_content(dump(j), kJson);
    });

    s.Get("/api/v1/leaderboard", [this](const Request& req, Response& res) {
      const std::string bench = param(req, "benchmark");
      if (bench.empty()) return api_error(res, 400, "benchmark= is required (a benchmark id or memory phase)");
      std::string runtime, error;
      if (!read_runtime(req, runtime, error)) return api_error(res, 400, error);
      auto board = store.leaderboard(bench, runtime);
      if (!board) return api_error(res, 500, board.error().message);
      nlohmann::json classes = nlohmann::json::array();
      for (const auto& c : board->classes) {
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& e : c.entries) {
          runs.push_back({{"id", e.run_id},
                          {"value", e.value},
                          {"status", e.status},
                          {"ranked", e.ranked},
                          {"unranked_reason", e.unranked_reason},
                          {"started_at", e.started_at},
                          {"suite", e.suite},
                          {"runtime", e.runtime}});
        }
        nlohmann::json cj = {{"class", class_json(c.device_class)}, {"ranked_runs", c.ranked}, {"runs", runs}};
        cj["rank"] = c.rank > 0 ? nlohmann::json(c.rank) : nlohmann::json(nullptr);
        if (c.ranked > 0) {
          cj["median"] = c.median;
          cj["q1"] = c.q1;
          cj["q3"] = c.q3;
          cj["min"] = c.min;
          cj["max"] = c.max;
        }
        classes.push_back(std::move(cj));
      }
      res.set_content(dump({{"benchmark", board->benchmark},
                            {"unit", board->unit},
                            {"lower_is_better", board->lower_is_better},
                            {"classes", classes}}),
                      kJson);
    });

    s.Get("/api/v1/benchmarks", [this](const Request&, Response& res) {
      auto list = store.benchmarks();
      if (!list) return api_error(res, 500, list.error().message);
      nlohmann::json out = nlohmann::json::array();
      for (const auto& b : *list) out.push_back({{"id", b.id}, {"suite", b.suite}, {"unit", b.unit}, {"runs", b.runs}});
      res.set_content(dump(out), kJson);
    });

    s.Get("/api/v1/classes", [this](const Request&, Response& res) {
      auto list = store.classes();
      if (!list) return api_error(res, 500, list.error().message);
      nlohmann::json out = nlohmann::json::array();
      for (const auto& c : *list) {
        auto j = class_json(c.device_class);
        j["runs"] = c.runs;
        out.push_back(std::move(j));
      }
      res.set_content(dump(out), kJson);
    });

    // --- the browser runner (web/, embedded) ---
    auto web = [](const std::string& name, Response& res) {
      browser_headers(res);
      const char* type = web_content_type(name);
      const std::string_view bytes = type != nullptr ? web::find(name) : std::string_view{};
      if (bytes.empty()) {
        res.status = 404;
        const bool engine = name == "webgpu-bench-engine.wasm";
        res.set_content(engine ? "this program was built without the browser engine (webgpu-bench-engine.wasm)\n"
                               : "no such file\n",
                        "text/plain; charset=utf-8");
        return;
      }
      res.set_content(std::string(bytes), type);
    };
    s.Get("/run", [web](const Request&, Response& res) { web("run.html", res); });
    s.Get("/run/", [web](const Request&, Response& res) { web("run.html", res); });
    s.Get(R"(/run/([A-Za-z0-9_.-]{1,64}))", [web](const Request& req, Response& res) { web(req.matches[1].str(), res); });

    // --- pages ---
    s.Get("/", [this](const Request&, Response& res) {
      auto benches = store.benchmarks();
      auto classes = store.classes();
      RunFilter recent;
      recent.limit = 20;
      auto runs = store.list(recent);
      auto totals = store.totals();
      if (!benches || !classes || !runs || !totals) return page_error(res, 500, "the store failed");
      std::vector<Leaderboard> boards;  // the top of each headline benchmark
      for (const auto& id : html::headline_benchmarks(*benches)) {
        auto board = store.leaderboard(id);
        if (!board) return page_error(res, 500, board.error().message);
        boards.push_back(std::move(*board));
      }
      res.set_content(html::index_page(*benches, *classes, shown(std::move(*runs)), totals->first, boards), kHtml);
    });

    s.Get("/leaderboard", [this](const Request& req, Response& res) {
      const std::string bench = param(req, "benchmark");
      if (bench.empty()) return page_error(res, 400, "choose a benchmark: /leaderboard?benchmark=<id>");
      std::string runtime, error;
      if (!read_runtime(req, runtime, error)) return page_error(res, 400, error);
      auto board = store.leaderboard(bench, runtime);
      if (!board) return page_error(res, 500, board.error().message);
      res.set_content(html::leaderboard_page(shown(std::move(*board)), runtime), kHtml);
    });

    s.Get("/runs", [this](const Request& req, Response& res) {
      RunFilter f;
      std::string error;
      if (!read_filter(req, f, error)) return page_error(res, 400, error);
      auto runs = store.list(f);
      auto total = store.count(f);
      if (!runs || !total) return page_error(res, 500, "the store failed");
      res.set_content(html::runs_page(shown(std::move(*runs)), f, *total), kHtml);
    });

    s.Get(R"(/runs/(\d{1,18}))", [this](const Request& req, Response& res) {
      std::int64_t id = 0;
      if (!parse_i64(req.matches[1].str(), id)) return page_error(res, 404, "no such run");
      auto run = store.get(id);
      if (!run) return page_error(res, 500, run.error().message);
      if (!*run) return page_error(res, 404, fmt::format("no run {}", id));
      const auto& key = (*run)->summary.device_class.key;
      auto dist = store.class_distributions(key);
      RunFilter f;
      f.device_class = key;
      f.limit = 50;
      auto others = store.list(f);
      if (!dist || !others) return page_error(res, 500, "the store failed");
      res.set_content(html::run_page(shown(std::move(**run)), *dist, shown(std::move(*others))), kHtml);
    });

    s.Get("/compare", [this](const Request& req, Response& res) {
      std::int64_t a = 0, b = 0;
      if (!parse_i64(param(req, "a"), a) || !parse_i64(param(req, "b"), b)) {
        return page_error(res, 400, "compare needs two run numbers: /compare?a=<id>&b=<id>");
      }
      auto ra = store.get(a);
      auto rb = store.get(b);
      if (!ra || !rb) return page_error(res, 500, "the store failed");
      if (!*ra || !*rb) return page_error(res, 404, fmt::format("no run {}", !*ra ? a : b));
      res.set_content(html::compare_page(shown(std::move(**ra)), shown(std::move(**rb))), kHtml);
    });

    s.set_error_handler([](const Request& req, Response& res) {
      if (!res.body.empty()) return;  // a handler already explained itself
      const std::string reason = res.status == 404 ? "not found" : fmt::format("HTTP {}", res.status);
      if (req.path.rfind("/api/", 0) == 0) {
        res.set_content(dump({{"error", reason}}), kJson);
      } else {
        res.set_content(html::error_page(res.status, reason), kHtml);
      }
    });
    s.set_exception_handler([this](const Request& req, Response& res, std::exception_ptr ep) {
      std::string what = "unknown";
      try {
        if (ep) std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      if (options.log) options.log(fmt::format("internal error on {} {}: {}", req.method, printable(req.path), what));
      api_error(res, 500, "internal error");
    });
    s.set_pre_routing_handler([this](const Request& req, Response& res) {
      // Compressed bodies could expand past the cap after it was checked: refuse them outright.
      const std::string enc = req.get_header_value("Content-Encoding");
      if (!enc.empty() && enc != "identity") {
        res.set_header("Connection", "close");
        api_error(res, 415, "Content-Encoding is not accepted; send the document uncompressed");
        return httplib::Server::HandlerResponse::Handled;
      }
      // A form upload is not a result document: say so instead of failing to read it.
      const std::string type = req.get_header_value("Content-Type");
      if (type.size() >= 10 && iequals(std::string_view(type).substr(0, 10), "multipart/")) {
        res.set_header("Connection", "close");
        api_error(res, 415, "a multipart body is not accepted; send the document as application/json");
        return httplib::Server::HandlerResponse::Handled;
      }
      // A declared length over the cap is refused before a byte of the body is read.
      if (req.has_header("Content-Length")) {
        std::int64_t n = 0;
        if (!parse_i64(req.get_header_value("Content-Length"), n) || n < 0 ||
            static_cast<std::uint64_t>(n) > options.max_body_bytes) {
          res.set_header("Connection", "close");
          api_error(res, 413, fmt::format("the body exceeds {} bytes", options.max_body_bytes));
          return httplib::Server::HandlerResponse::Handled;
        }
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    if (options.log) {
      s.set_logger([this](const Request& req, const Response& res) {
        options.log(fmt::format("{} {} {}", printable(req.method), printable(req.path), res.status));
      });
    }
  }
};

Expected<ListenAddress> parse_listen(const std::string& text) {
  ListenAddress a;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected [ipv6]:port", text));
    }
    a.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected host:port", text));
    }
    a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (a.host.empty()) a.host = "127.0.0.1";
  std::int64_t p = -1;
  if (!parse_i64(port, p) || p < 0 || p > 65535) {
    return make_error(ErrorKind::Usage, fmt::format("--listen {}: the port must be 0..65535", text));
  }
  a.port = static_cast<int>(p);
  return a;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { stop(); }

namespace {

// The listening socket, without SO_REUSEPORT (cpp-httplib sets it by default, which let a second
// server share the port with the first and split its requests). SO_REUSEADDR lets a restarted
// server bind while old connections sit in TIME_WAIT; on Linux it never lets two sockets listen on
// one address.
Expected<int> listen_on(const std::string& host, int port, int& bound_port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list); rc != 0) {
    return make_error(ErrorKind::Io, fmt::format("cannot listen on {}:{}: {}", host, port, gai_strerror(rc)));
  }
  std::string reason = "no address";
  int fd = -1;
  for (addrinfo* a = list; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      reason = std::strerror(errno);
      continue;
    }
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    if (a->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof(yes));
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 512) != 0) {
      reason = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(list);
  if (fd < 0) return make_error(ErrorKind::Io, fmt::format("cannot listen on {}:{}: {}", host, port, reason));
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  bound_port = ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                                : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return fd;
}

}  // namespace

Expected<std::unique_ptr<Server>> Server::start(Store& store, ServerOptions options) {
  if (options.max_body_bytes == 0) return make_error(ErrorKind::Usage, "the body limit must be positive");
  auto impl = std::make_unique<Impl>(store, std::move(options));
  auto& o = impl->options;
  o.threads = std::clamp(o.threads, 2, 256);
  o.max_connections = std::clamp(o.max_connections, 1, 100000);
  o.max_connections_per_address = std::clamp(o.max_connections_per_address, 1, o.max_connections);
  o.max_header_bytes = std::clamp<std::size_t>(o.max_header_bytes, 1024, 1u << 20);
  impl->budget = o.max_buffered_body_bytes != 0 ? std::max(o.max_buffered_body_bytes, o.max_body_bytes)
                                                : std::max<std::size_t>(4 * o.max_body_bytes, 64u << 20);
  o.open_submissions_per_window = std::max(1, o.open_submissions_per_window);
  o.open_submissions_window = std::max(o.open_submissions_window, std::chrono::seconds(1));
  impl->limiter = SubmissionLimiter(o.open_submissions_per_window, o.open_submissions_window);
  auto& http = impl->http;
  http.set_payload_max_length(o.max_body_bytes);
  http.set_default_headers({{"Content-Security-Policy", kCsp},
                            {"X-Content-Type-Options", "nosniff"},
                            {"Referrer-Policy", "no-referrer"},
                            {"Cache-Control", "no-store"}});
  impl->routes();

  auto fd = listen_on(o.host, o.port, impl->port);
  if (!fd) return fd.error();
  impl->listen_fd = *fd;
  impl->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  impl->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (impl->epoll_fd < 0 || impl->wake_fd < 0) {
    const std::string reason = std::strerror(errno);
    for (int f : {impl->listen_fd, impl->epoll_fd, impl->wake_fd}) {
      if (f >= 0) ::close(f);
    }
    return make_error(ErrorKind::Io, "cannot start the server: " + reason);
  }
  for (auto [f, id] : {std::pair{impl->listen_fd, std::uint64_t{0}}, std::pair{impl->wake_fd, std::uint64_t{1}}}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = id;
    epoll_ctl(impl->epoll_fd, EPOLL_CTL_ADD, f, &ev);
  }
  Impl* raw = impl.get();
  for (int i = 0; i < o.threads; ++i) raw->workers.emplace_back([raw] { raw->work(); });
  raw->running = true;
  // The socket listens from here on: connections wait in the backlog until the loop accepts them.
  raw->loop_thread = std::thread([raw] {
    raw->loop();
    raw->running = false;
  });
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

int Server::port() const { return impl_->port; }

std::string Server::url() const {
  const auto& h = impl_->options.host;
  return h.find(':') != std::string::npos ? fmt::format("http://[{}]:{}", h, impl_->port)
                                          : fmt::format("http://{}:{}", h, impl_->port);
}

bool Server::running() const { return impl_->running; }

void Server::stop() {
  if (!impl_) return;
  std::lock_guard lock(impl_->stop_mutex);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->stopping = true;
  const std::uint64_t one = 1;
  (void)::write(impl_->wake_fd, &one, sizeof(one));
  if (impl_->loop_thread.joinable()) impl_->loop_thread.join();
  {
    std::lock_guard jobs_lock(impl_->jobs_mutex);
    impl_->workers_stop = true;
  }
  impl_->jobs_ready.notify_all();
  for (auto& t : impl_->workers) t.join();
  for (int f : {impl_->listen_fd, impl_->epoll_fd, impl_->wake_fd}) {
    if (f >= 0) ::close(f);
  }
  impl_->listen_fd = impl_->epoll_fd = impl_->wake_fd = -1;
}

}  // namespace wgb::store
