// The event thread and the workers of the leaderboard server (server_connections.hpp): every
// socket, every per-connection limit and deadline, and the hand-off of whole requests.
#include "store/server_connections.hpp"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "store/server_http.hpp"
#include "store/server_socket.hpp"

namespace wgb::store {

namespace {

using Clock = std::chrono::steady_clock;
using http::direct_answer;
using http::printable;
using http::refusal;

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
  std::size_t reserved = 0;    // body bytes reserved in the global budget
  bool started = false;        // a byte of the current request has arrived
  bool continued = false;      // "100 Continue" sent
  bool close_after = false;
  http::Head head;
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

struct Connections::Impl {
  ServerOptions options;
  http::Limits limits;
  RequestHandler handler;
  int port = 0;
  std::mutex stop_mutex;
  bool stopped = false;

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

  Impl(const ServerOptions& o, RequestHandler h)
      : options(o),
        limits{o.max_header_bytes, o.max_headers, o.max_body_bytes},
        handler(std::move(h)),
        budget(o.max_buffered_body_bytes != 0 ? std::max(o.max_buffered_body_bytes, o.max_body_bytes)
                                              : std::max<std::size_t>(4 * o.max_body_bytes, 64u << 20)) {}

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
    c.head = http::Head{};
    c.head_end = std::string::npos;
    c.continued = false;
    c.started = !c.in.empty();
    c.deadline = Clock::now() + (c.started ? options.request_timeout : options.keep_alive_timeout);
    watch(c, EPOLLIN | EPOLLRDHUP);
    if (c.started) examine(c);
  }

  void on_readable(Conn& c) {
    // Never buffer more than the current request can be: its head, or its head and declared body.
    for (int rounds = 0; rounds < 64 && c.state == Conn::State::Reading; ++rounds) {
      const std::size_t limit = c.head_end == std::string::npos ? options.max_header_bytes + 4 : c.head.size();
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
      auto head = http::read_head(c.in, limits);
      if (!head) return;  // more to come
      c.head = std::move(*head);
      if (c.head.refused()) return refuse(c, c.head.status, c.head.reason);
      c.head_end = c.head.head_bytes;
      if (buffered + c.head.body > budget) {
        return refuse(c, 503, "the server is receiving too many documents at once; retry in a moment");
      }
      c.reserved = c.head.body;
      buffered += c.reserved;
      if (c.head.method == "GET" && (c.head.target == "/healthz" || c.head.target.rfind("/healthz?", 0) == 0) &&
          c.head.body == 0) {
        // Answered here, never queued behind workers: a health check answers at once.
        c.in.erase(0, c.head_end);
        buffered -= c.reserved;
        c.reserved = 0;
        return answer(c, direct_answer(200, "ok\n", "text/plain", c.head.close), c.head.close);
      }
    }
    if (c.in.size() < c.head.size()) {
      if (c.head.expect_continue && !c.continued) {
        c.continued = true;
        (void)::send(c.fd, http::kContinue.data(), http::kContinue.size(), MSG_NOSIGNAL);
      }
      return;
    }
    Job job;
    job.conn = c.id;
    job.request = c.in.substr(0, c.head.size());
    c.in.erase(0, c.head.size());
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
      auto client = accept_client(listen_fd);
      if (!client) return;
      const std::string& host = client->ip;
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
        answer_and_close(client->fd, a);
        log_line(fmt::format("refused a connection from {}: {}", host, too_many_here ? 429 : 503));
        continue;
      }
      ++from_here;
      auto c = std::make_unique<Conn>();
      c->id = next_id++;
      c->fd = client->fd;
      c->ip = host;
      c->port = client->port;
      c->deadline = Clock::now() + options.request_timeout;
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP;
      ev.data.u64 = c->id;
      epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &ev);
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
        d.answer = handler(job.request, job.ip, job.port, d.keep);
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
};

Connections::Connections(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Connections::~Connections() { stop(); }

Expected<std::unique_ptr<Connections>> Connections::start(const ServerOptions& options, RequestHandler handler) {
  auto impl = std::make_unique<Impl>(options, std::move(handler));
  auto fd = listen_on(options.host, options.port, impl->port);
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
  for (int i = 0; i < options.threads; ++i) raw->workers.emplace_back([raw] { raw->work(); });
  raw->running = true;
  // The socket listens from here on: connections wait in the backlog until the loop accepts them.
  raw->loop_thread = std::thread([raw] {
    raw->loop();
    raw->running = false;
  });
  return std::unique_ptr<Connections>(new Connections(std::move(impl)));
}

int Connections::port() const { return impl_->port; }

bool Connections::running() const { return impl_->running; }

void Connections::stop() {
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
