// capsched.hpp — a header-only C++17 wrapper over capsched.h: RAII handles (move-only), and
// exceptions carrying the status and the library's message instead of status codes.
#ifndef CAPSCHED_HPP
#define CAPSCHED_HPP

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capsched.h"

namespace capsched {

/// A failed call: the status and `capsched_last_error()` at the time.
class Error : public std::runtime_error {
public:
    Error(capsched_status status, const std::string &message)
        : std::runtime_error(std::string(capsched_status_name(status)) + ": " + message),
          status_(status) {}
    capsched_status status() const noexcept { return status_; }

private:
    capsched_status status_;
};

/// Submission refused by the scheduler (YARN's reason in `what()`).
class Rejected : public Error {
public:
    using Error::Error;
};

inline void check(capsched_status s) {
    if (s == CAPSCHED_OK) return;
    std::string message = capsched_last_error();
    if (s == CAPSCHED_ERR_REJECTED) throw Rejected(s, message);
    throw Error(s, message);
}

inline capsched_str str(std::string_view s) { return capsched_str{s.data(), s.size()}; }
inline std::string_view view(capsched_str s) { return std::string_view(s.ptr, s.len); }

struct ConfigDeleter {
    void operator()(capsched_config *c) const noexcept { capsched_config_free(c); }
};
struct EngineDeleter {
    void operator()(capsched_engine *e) const noexcept { capsched_engine_free(e); }
};
struct AllocateResponseDeleter {
    void operator()(capsched_allocate_response *r) const noexcept { capsched_allocate_response_free(r); }
};
struct NodeResponseDeleter {
    void operator()(capsched_node_response *r) const noexcept { capsched_node_response_free(r); }
};

using AllocateResponse = std::unique_ptr<capsched_allocate_response, AllocateResponseDeleter>;
using NodeResponse = std::unique_ptr<capsched_node_response, NodeResponseDeleter>;

/// A validated configuration.
class Config {
public:
    static Config from_xml(std::string_view xml) {
        capsched_config *c = nullptr;
        check(capsched_config_from_xml(str(xml), &c));
        return Config(c);
    }
    static Config from_file(std::string_view path) {
        capsched_config *c = nullptr;
        check(capsched_config_from_file(str(path), &c));
        return Config(c);
    }
    static Config from_pairs(const std::vector<std::pair<std::string, std::string>> &pairs) {
        std::vector<capsched_str> keys, values;
        for (const auto &p : pairs) {
            keys.push_back(str(p.first));
            values.push_back(str(p.second));
        }
        capsched_config *c = nullptr;
        check(capsched_config_from_pairs(keys.data(), values.data(), keys.size(), &c));
        return Config(c);
    }
    const capsched_config *get() const noexcept { return handle_.get(); }

private:
    explicit Config(capsched_config *c) : handle_(c) {}
    std::unique_ptr<capsched_config, ConfigDeleter> handle_;
};

/// An engine; stopped and freed when it goes out of scope.
class Engine {
public:
    explicit Engine(const Config &config, const capsched_engine_options *options = nullptr) {
        capsched_engine *e = nullptr;
        check(capsched_engine_new(config.get(), options, &e));
        handle_.reset(e);
    }

    uint64_t add_node(std::string_view host, std::string_view rack, int64_t memory_mb, int64_t vcores) {
        uint64_t id = 0;
        check(capsched_node_add(handle_.get(), str(host), str(rack), capsched_resource{memory_mb, vcores}, &id));
        return id;
    }
    void remove_node(uint64_t node) { check(capsched_node_remove(handle_.get(), node)); }
    NodeResponse node_update(uint64_t node, const capsched_node_status *status = nullptr) {
        capsched_node_response *r = nullptr;
        check(capsched_node_update(handle_.get(), node, status, &r));
        return NodeResponse(r);
    }
    /// Throws `Rejected` with YARN's reason when the scheduler refuses the application.
    uint64_t submit(std::string_view queue, std::string_view user, int32_t priority = CAPSCHED_DEFAULT_PRIORITY) {
        uint64_t app = 0;
        check(capsched_app_submit(handle_.get(), str(queue), str(user), priority, &app));
        return app;
    }
    void add_attempt(uint64_t app, int64_t am_memory_mb, int64_t am_vcores, bool unmanaged = false) {
        check(capsched_attempt_add(handle_.get(), app, capsched_resource{am_memory_mb, am_vcores}, unmanaged ? 1 : 0, 0));
    }
    void remove_app(uint64_t app) { check(capsched_app_remove(handle_.get(), app)); }
    AllocateResponse allocate(uint64_t app, const capsched_allocate_request &request) {
        capsched_allocate_response *r = nullptr;
        check(capsched_allocate(handle_.get(), app, &request, &r));
        return AllocateResponse(r);
    }
    uint32_t tick(int64_t now_ms = -1) {
        uint32_t n = 0;
        check(capsched_engine_tick(handle_.get(), now_ms, &n));
        return n;
    }
    uint32_t step(uint32_t passes = 1) {
        uint32_t n = 0;
        check(capsched_engine_step(handle_.get(), passes, &n));
        return n;
    }
    std::string scheduler_json() {
        capsched_owned_str s{};
        check(capsched_engine_scheduler_json(handle_.get(), &s));
        std::string out(s.ptr, s.len);
        capsched_string_free(s);
        return out;
    }
    std::vector<capsched_event> poll_events(size_t max = 1024) {
        std::vector<capsched_event> events(max);
        size_t n = 0;
        check(capsched_poll_events(handle_.get(), events.data(), events.size(), &n, nullptr));
        events.resize(n);
        return events;
    }
    void stop() { check(capsched_engine_stop(handle_.get())); }
    capsched_engine *get() const noexcept { return handle_.get(); }

private:
    std::unique_ptr<capsched_engine, EngineDeleter> handle_;
};

}  // namespace capsched

#endif  // CAPSCHED_HPP
