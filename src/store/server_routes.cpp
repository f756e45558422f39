// The leaderboard server's route table and the router over requests held in memory
// (server_routes.hpp).
#include "store/server_routes.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <regex>

#include "store/html.hpp"
#include "store/server_handlers.hpp"
#include "store/server_http.hpp"

namespace wgb::store {

namespace {

using httplib::Request;
using httplib::Response;

// No script may run and nothing may be fetched from elsewhere: the pages need inline style only.
// (The /run page's answers replace it with their own: server_runner.cpp.)
constexpr const char* kCsp =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'";

// Patterns stay bounded ({1,18}, {1,64}): std::regex matches recursively, and a path may be as
// long as the header cap.
constexpr std::array<Route, 15> kRoutes = {{
    {"GET", "/healthz", "health", health},
    {"POST", "/api/v1/results", "submit", api_submit},
    {"GET", "/api/v1/results", "results", api_results},
    {"GET", R"(/api/v1/results/(\d{1,18}))", "result", api_result},
    {"GET", "/api/v1/leaderboard", "leaderboard api", api_leaderboard},
    {"GET", "/api/v1/benchmarks", "benchmarks", api_benchmarks},
    {"GET", "/api/v1/classes", "classes", api_classes},
    {"GET", "/run", "runner", runner_page},
    {"GET", "/run/", "runner", runner_page},
    {"GET", R"(/run/([A-Za-z0-9_.-]{1,64}))", "runner file", runner_file},
    {"GET", "/", "index", page_index},
    {"GET", "/leaderboard", "leaderboard", page_leaderboard},
    {"GET", "/runs", "runs", page_runs},
    {"GET", R"(/runs/(\d{1,18}))", "run", page_run},
    {"GET", "/compare", "compare", page_compare},
}};

const std::vector<std::regex>& patterns() {
  static const std::vector<std::regex> compiled = [] {
    std::vector<std::regex> out;
    for (const auto& r : kRoutes) out.emplace_back(std::string(r.pattern));
    return out;
  }();
  return compiled;
}

// The methods httplib routes; it answers any other (BREW) with 400 itself.
bool routed_method(std::string_view m) {
  return m == "GET" || m == "HEAD" || m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE" || m == "OPTIONS";
}

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

}  // namespace

std::span<const Route> route_table() { return kRoutes; }

Resolved resolve(std::string_view method, const std::string& path) {
  Resolved r;
  const std::string_view wanted = method == "HEAD" ? "GET" : method;  // HEAD: GET without the body
  std::vector<std::string> others;  // methods of the routes that match the path
  for (std::size_t i = 0; i < kRoutes.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(path, m, patterns()[i])) continue;
    if (kRoutes[i].method == wanted) {
      r.route = &kRoutes[i];
      for (std::size_t g = 1; g < m.size(); ++g) r.captures.push_back(m[g].str());
      return r;
    }
    others.emplace_back(kRoutes[i].method);
    if (kRoutes[i].method == "GET") others.emplace_back("HEAD");
  }
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  r.status = others.empty() ? 404 : 405;
  for (const auto& o : others) r.allow += (r.allow.empty() ? "" : ", ") + o;
  return r;
}

// httplib's request reader and answer writer over a request held in memory, routed through the
// table: GET routes are answered before httplib reads a body; POST routes after, through
// httplib's content reader.
struct Router::Impl : httplib::Server {
  Site& site;

  explicit Impl(Site& s) : site(s) {
    const ServerOptions& o = site.options;
    set_payload_max_length(o.max_body_bytes);
    set_default_headers({{"Content-Security-Policy", kCsp},
                         {"X-Content-Type-Options", "nosniff"},
                         {"Referrer-Policy", "no-referrer"},
                         {"Cache-Control", "no-store"}});
    for (const Route& route : kRoutes) {
      if (route.method != "POST") continue;
      Post(std::string(route.pattern), [this, &route](const Request& req, Response& res,
                                                      const httplib::ContentReader& reader) {
        Exchange ex{req, res, {}, &reader};
        for (std::size_t g = 1; g < req.matches.size(); ++g) ex.captures.push_back(req.matches[g].str());
        route.handler(site, ex);
      });
    }
    set_pre_routing_handler([this](const Request& req, Response& res) { return before_routing(req, res); });
    set_error_handler([](const Request& req, Response& res) { explain(req, res); });
    set_exception_handler([this](const Request& req, Response& res, std::exception_ptr ep) {
      std::string what = "unknown";
      try {
        if (ep) std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      if (site.options.log) {
        site.options.log(fmt::format("internal error on {} {}: {}", req.method, http::printable(req.path), what));
      }
      api_error(res, 500, "internal error");
    });
    if (o.log) {
      set_logger([this](const Request& req, const Response& res) {
        site.options.log(fmt::format("{} {} {}", http::printable(req.method), http::printable(req.path), res.status));
      });
    }
  }

  HandlerResponse before_routing(const Request& req, Response& res) {
    const std::size_t max_body = site.options.max_body_bytes;
    // Compressed bodies could expand past the cap after it was checked: refuse them outright.
    const std::string enc = req.get_header_value("Content-Encoding");
    if (!enc.empty() && enc != "identity") {
      res.set_header("Connection", "close");
      api_error(res, 415, "Content-Encoding is not accepted; send the document uncompressed");
      return HandlerResponse::Handled;
    }
    // A form upload is not a result document: say so instead of failing to read it.
    const std::string type = req.get_header_value("Content-Type");
    if (type.size() >= 10 && http::iequals(std::string_view(type).substr(0, 10), "multipart/")) {
      res.set_header("Connection", "close");
      api_error(res, 415, "a multipart body is not accepted; send the document as application/json");
      return HandlerResponse::Handled;
    }
    // A declared length over the cap is refused before a byte of the body is read.
    if (req.has_header("Content-Length")) {
      std::int64_t n = 0;
      if (!http::parse_i64(req.get_header_value("Content-Length"), n) || n < 0 ||
          static_cast<std::uint64_t>(n) > max_body) {
        res.set_header("Connection", "close");
        api_error(res, 413, fmt::format("the body exceeds {} bytes", max_body));
        return HandlerResponse::Handled;
      }
    }
    if (!routed_method(req.method)) return HandlerResponse::Unhandled;
    Resolved r = resolve(req.method, req.path);
    if (r.route != nullptr && r.route->method == "POST") return HandlerResponse::Unhandled;  // after the body
    if (r.route == nullptr) {
      res.status = r.status;  // explained by the error handler
      if (r.status == 405) res.set_header("Allow", r.allow);
      return HandlerResponse::Handled;
    }
    Exchange ex{req, res, std::move(r.captures)};
    r.route->handler(site, ex);
    return HandlerResponse::Handled;
  }

  // An error answer without a body gets one: JSON under /api/, an HTML page elsewhere.
  static void explain(const Request& req, Response& res) {
    if (!res.body.empty()) return;  // a handler already explained itself
    std::string reason = res.status == 404 ? "not found" : fmt::format("HTTP {}", res.status);
    if (res.status == 405) {
      reason = fmt::format("{} is not allowed here; allowed: {}", http::printable(req.method),
                           res.get_header_value("Allow"));
    }
    if (req.path.rfind("/api/", 0) == 0) {
      res.set_content(http::json_text({{"error", reason}}), kJson);
    } else {
      res.set_content(html::error_page(res.status, reason), kHtml);
    }
  }

  std::string handle(std::string_view request, const std::string& ip, int port, bool& keep) {
    MemoryStream strm(request, ip, port);
    bool closed = false;
    const bool ok = process_request(strm, false, closed, nullptr);
    std::string out = std::move(strm.out());
    // The event thread already answered "Expect: 100-continue" before the body arrived.
    if (std::string_view(out).substr(0, http::kContinue.size()) == http::kContinue) {
      out.erase(0, http::kContinue.size());
    }
    const auto head = std::string_view(out).substr(0, out.find("\r\n\r\n"));
    keep = ok && !closed && head.find("\r\nConnection: close") == std::string_view::npos;
    return out;
  }
};

Router::Router(Site& site) : impl_(std::make_unique<Impl>(site)) {}

Router::~Router() = default;

std::string Router::handle(std::string_view request, const std::string& ip, int port, bool& keep) {
  return impl_->handle(request, ip, port, keep);
}

}  // namespace wgb::store
