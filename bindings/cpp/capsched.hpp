// capsched.hpp — a header-only C++17 wrapper over capsched.h: RAII handles (move-only), and
// exceptions carrying the status and the library's message instead of status codes.
//
// Threads: as in C, an Engine's methods may be called from any number of threads at once (they
// are const for that reason); only its destruction must not race with them. Responses the
// library allocates come back as unique_ptrs that free them.
#ifndef CAPSCHED_HPP
#define CAPSCHED_HPP

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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

struct QueueListDeleter {
    void operator()(capsched_queue_list *l) const noexcept { capsched_queue_list_free(l); }
};
struct NodeLabelListDeleter {
    void operator()(capsched_node_label_list *l) const noexcept { capsched_node_label_list_free(l); }
};
struct QueueLabelsDeleter {
    void operator()(capsched_queue_labels *l) const noexcept { capsched_queue_labels_free(l); }
};

using AllocateResponse = std::unique_ptr<capsched_allocate_response, AllocateResponseDeleter>;
using NodeResponse = std::unique_ptr<capsched_node_response, NodeResponseDeleter>;
using QueueList = std::unique_ptr<capsched_queue_list, QueueListDeleter>;
/// The cluster's node labels (`labels[i].name` owned by the list).
using NodeLabelList = std::unique_ptr<capsched_node_label_list, NodeLabelListDeleter>;
/// A queue's accessible labels and default label expression (`default_node_label_expression.ptr`
/// NULL: unset), owned together.
using QueueLabels = std::unique_ptr<capsched_queue_labels, QueueLabelsDeleter>;

/// A node-label expression as the C ABI reads it: none (nullopt, YARN's unset expression: the
/// defaults apply) is a NULL pointer; any value, an empty one too (the default partition),
/// is a non-NULL pointer.
inline capsched_str label_expression(const std::optional<std::string_view> &e) {
    if (!e) return capsched_str{nullptr, 0};
    return capsched_str{e->data() != nullptr ? e->data() : "", e->size()};
}

/// YARN's string form of an id (`application_...`, `appattempt_...`, `container_...`).
inline std::string format_yarn_id(const capsched_yarn_id &id) {
    capsched_owned_str s{};
    check(capsched_yarn_id_format(&id, &s));
    std::string out(s.ptr, s.len);
    capsched_string_free(s);
    return out;
}

/// Parses any of YARN's three id forms; throws on anything else.
inline capsched_yarn_id parse_yarn_id(std::string_view text) {
    capsched_yarn_id id{};
    check(capsched_yarn_id_parse(str(text), &id));
    return id;
}

/// An application's report, its strings copied.
struct AppReport {
    capsched_yarn_id yarn_id{};
    std::string queue, user, diagnostics;
    int32_t priority = 0, state = 0, pending_reason = 0;
    capsched_resource used{}, pending{}, am_used{}, reserved{}, preempted_resource{};
    uint32_t live_containers = 0, reserved_containers = 0, opportunistic_containers = 0, preempted_containers = 0;
    uint64_t am_container = 0;
    int64_t submit_time_ms = 0;
};

/// The optional parts of a submission, named (so a lifetime is never taken for a priority).
struct Submit {
    /// The application's name, for the app-name placement rule ("" ⇒ YARN's "N/A").
    std::string_view app_name{};
    int32_t priority = CAPSCHED_DEFAULT_PRIORITY;
    /// The lifetime asked for, in seconds (0: none; the queue's default and maximum apply).
    int64_t lifetime_s = 0;
    /// The RM's own ApplicationId; sequence 0: the engine mints one.
    int64_t cluster_timestamp = 0;
    int32_t sequence = 0;
    /// The application's node-label expression (its AM's and its unlabelled ANY asks'), and
    /// the AM request's own; nullopt: none ("" names the default partition).
    std::optional<std::string_view> node_label_expression{};
    std::optional<std::string_view> am_node_label_expression{};
};

/// The library's version string ("capsched 0.1.0 (ABI 1)").
inline std::string version() { return capsched_version(); }

/// Throws unless the loaded library speaks the ABI this header was written for.
inline void check_abi() {
    if (capsched_abi_version() != CAPSCHED_ABI_VERSION)
        throw std::runtime_error("libcapsched ABI " + std::to_string(capsched_abi_version()) +
                                 ", header ABI " + std::to_string(CAPSCHED_ABI_VERSION));
}

/// Engine options, starting from the library's defaults (threaded, settings from the
/// configuration); the setters chain.
class Options {
public:
    Options() { check(capsched_engine_options_default(&raw_)); }
    Options &manual(bool on = true) {
        raw_.mode = on ? CAPSCHED_MODE_MANUAL : CAPSCHED_MODE_THREADED;
        return *this;
    }
    Options &async_scheduling(bool on) {
        raw_.async_scheduling = on ? 1 : 0;
        return *this;
    }
    Options &preemption(bool on) {
        raw_.preemption = on ? 1 : 0;
        return *this;
    }
    Options &manual_clock(int64_t start_ms) {
        raw_.manual_clock = 1;
        raw_.clock_start_ms = start_ms;
        return *this;
    }
    Options &seed(uint64_t s) {
        raw_.seed = s;
        return *this;
    }
    Options &event_capacity(uint32_t n) {
        raw_.event_capacity = n;
        return *this;
    }
    /// The RM's cluster timestamp, in the application ids the engine mints.
    Options &cluster_timestamp(int64_t ms) {
        raw_.cluster_timestamp = ms;
        return *this;
    }
    /// The RM's epoch, in the container ids the engine mints (`container_e<epoch>_...`).
    Options &rm_epoch(int64_t epoch) {
        raw_.rm_epoch = epoch;
        return *this;
    }
    const capsched_engine_options *get() const noexcept { return &raw_; }

private:
    capsched_engine_options raw_{};
};

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

/// An engine; stopped and freed when it goes out of scope. Its node, application and container
/// ids (uint64_t) are valid only with it: another engine's id, or 0, throws `Error` with
/// CAPSCHED_ERR_UNKNOWN_ID ("... was not issued by this engine"), and 0 in a capsched_event
/// means "none" (see "Ids" in capsched.h).
class Engine {
public:
    explicit Engine(const Config &config, const capsched_engine_options *options = nullptr) {
        capsched_engine *e = nullptr;
        check(capsched_engine_new(config.get(), options, &e));
        handle_.reset(e);
    }
    Engine(const Config &config, const Options &options) : Engine(config, options.get()) {}

    uint64_t add_node(std::string_view host, std::string_view rack, int64_t memory_mb, int64_t vcores) const {
        uint64_t id = 0;
        check(capsched_node_add(handle_.get(), str(host), str(rack), capsched_resource{memory_mb, vcores}, &id));
        return id;
    }
    /// Registers a node that already runs containers (RM restart or NM resync).
    uint64_t add_recovered_node(std::string_view host, std::string_view rack, int64_t memory_mb, int64_t vcores,
                                const std::vector<capsched_container_report> &reports) const {
        uint64_t id = 0;
        check(capsched_node_add_recovered(handle_.get(), str(host), str(rack), capsched_resource{memory_mb, vcores},
                                          reports.data(), reports.size(), &id));
        return id;
    }
    void remove_node(uint64_t node) const { check(capsched_node_remove(handle_.get(), node)); }
    NodeResponse node_update(uint64_t node, const capsched_node_status *status = nullptr) const {
        capsched_node_response *r = nullptr;
        check(capsched_node_update(handle_.get(), node, status, &r));
        return NodeResponse(r);
    }
    /// NODE_RESOURCE_UPDATE; `overcommit_timeout_ms` < 0: containers beyond the new total run
    /// on, 0: killed now, > 0: their AMs told now, killed after the timeout.
    void update_node_resource(uint64_t node, int64_t memory_mb, int64_t vcores,
                              int64_t overcommit_timeout_ms = -1) const {
        check(capsched_node_update_resource(handle_.get(), node, capsched_resource{memory_mb, vcores},
                                            overcommit_timeout_ms));
    }
    /// Graceful decommissioning; `timeout_ms` < 0: none. The node leaves with
    /// CAPSCHED_EVENT_NODE_DECOMMISSIONED.
    void decommission_node(uint64_t node, int64_t timeout_ms = -1) const {
        check(capsched_node_decommission(handle_.get(), node, timeout_ms));
    }
    void recommission_node(uint64_t node) const { check(capsched_node_recommission(handle_.get(), node)); }
    /// The RM kills a container with its own exit status and diagnostics.
    void kill_container(uint64_t container, int32_t exit_status, std::string_view diagnostics) const {
        check(capsched_container_kill(handle_.get(), container, exit_status, str(diagnostics)));
    }
    /// YARN's `checkAccess(user, acl, queue)`: CAPSCHED_ACL_SUBMIT_APPLICATIONS or
    /// CAPSCHED_ACL_ADMINISTER_QUEUE, inherited from ancestors.
    bool check_access(std::string_view user, const std::vector<std::string> &groups, int32_t acl,
                      std::string_view queue) const {
        std::vector<capsched_str> g;
        g.reserve(groups.size());
        for (const auto &x : groups) g.push_back(str(x));
        int32_t allowed = 0;
        check(capsched_check_access(handle_.get(), str(user), g.data(), g.size(), acl, str(queue), &allowed));
        return allowed != 0;
    }
    /// Submission with the user's groups (queue ACLs with `yarn.acl.enable`); throws
    /// `Rejected` with YARN's reason.
    uint64_t submit_as(std::string_view queue, std::string_view user, const std::vector<std::string> &groups,
                       int32_t priority = CAPSCHED_DEFAULT_PRIORITY) const {
        return submit_full(queue, user, groups, priority, 0, 0);
    }
    /// Submission under the RM's own ApplicationId (`application_<cluster_timestamp>_<seq>`);
    /// throws `Rejected` with YARN's reason (a duplicate id too).
    uint64_t submit_with_id(std::string_view queue, std::string_view user, int64_t cluster_timestamp,
                            int32_t sequence, const std::vector<std::string> &groups = {},
                            int32_t priority = CAPSCHED_DEFAULT_PRIORITY) const {
        return submit_full(queue, user, groups, priority, cluster_timestamp, sequence);
    }
    /// Submission with everything a ResourceManager knows of it (`Submit` names each part).
    uint64_t submit(std::string_view queue, std::string_view user, const std::vector<std::string> &groups,
                    const Submit &more) const {
        return submit_full(queue, user, groups, more.priority, more.cluster_timestamp, more.sequence, more.app_name,
                           false, more.lifetime_s, more.node_label_expression, more.am_node_label_expression);
    }
    /// An application the RM re-adds after a work-preserving restart (no submission checks).
    uint64_t recover_app(std::string_view queue, std::string_view user, int64_t cluster_timestamp, int32_t sequence,
                         int32_t priority = CAPSCHED_DEFAULT_PRIORITY) const {
        return submit_full(queue, user, {}, priority, cluster_timestamp, sequence, {}, true);
    }
    /// Its attempt, which asks for no AM container (the AM runs; its NM reports it).
    void recover_attempt(uint64_t app, int64_t am_memory_mb, int64_t am_vcores, bool unmanaged = false) const {
        check(capsched_attempt_recover(handle_.get(), app, capsched_resource{am_memory_mb, am_vcores},
                                       unmanaged ? 1 : 0));
    }
    /// Where the placement rules would send a submission (nothing is submitted): the leaf and
    /// the rule's parent ("" when it names none), or nothing when no rule places it. Throws
    /// `Rejected` with YARN's message when a rule fails it.
    std::optional<std::pair<std::string, std::string>> place(std::string_view queue, std::string_view user,
                                                              const std::vector<std::string> &groups,
                                                              std::string_view app_name = {}) const {
        std::vector<capsched_str> g;
        capsched_submission sub = submission(queue, user, groups, g, CAPSCHED_DEFAULT_PRIORITY, app_name);
        capsched_owned_str q{}, p{};
        check(capsched_app_place(handle_.get(), &sub, &q, &p));
        std::string leaf(q.ptr == nullptr ? "" : std::string(q.ptr, q.len));
        std::string parent(p.ptr == nullptr ? "" : std::string(p.ptr, p.len));
        capsched_string_free(q);
        capsched_string_free(p);
        if (leaf.empty()) return std::nullopt;
        return std::make_pair(leaf, parent);
    }
    /// The application with this YARN id (its attempt and container parts ignored).
    uint64_t find_app(const capsched_yarn_id &id) const {
        uint64_t app = 0;
        check(capsched_app_find(handle_.get(), &id, &app));
        return app;
    }
    /// The live container with this YARN id.
    uint64_t find_container(const capsched_yarn_id &id) const {
        uint64_t c = 0;
        check(capsched_container_find(handle_.get(), &id, &c));
        return c;
    }
    /// The node registered as `address` (`host:port`, or its host).
    uint64_t find_node(std::string_view address) const {
        uint64_t n = 0;
        check(capsched_node_find(handle_.get(), str(address), &n));
        return n;
    }
    /// The RM takes the AM container to launch it (after CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED);
    /// false while there is none to take.
    bool take_am_container(uint64_t app, capsched_container_info &out) const {
        int32_t found = 0;
        check(capsched_am_container_take(handle_.get(), app, &out, &found));
        return found != 0;
    }
    capsched_container_info container(uint64_t container) const {
        capsched_container_info info{};
        check(capsched_container_get(handle_.get(), container, &info));
        return info;
    }
    AppReport app_report(uint64_t app) const {
        capsched_app_report r{};
        check(capsched_app_report_get(handle_.get(), app, &r));
        AppReport out;
        out.yarn_id = r.yarn_id;
        out.queue.assign(r.queue.ptr, r.queue.len);
        out.user.assign(r.user.ptr, r.user.len);
        out.diagnostics.assign(r.diagnostics.ptr, r.diagnostics.len);
        out.priority = r.priority;
        out.state = r.state;
        out.pending_reason = r.pending_reason;
        out.used = r.used;
        out.pending = r.pending;
        out.am_used = r.am_used;
        out.reserved = r.reserved;
        out.preempted_resource = r.preempted_resource;
        out.live_containers = r.live_containers;
        out.reserved_containers = r.reserved_containers;
        out.opportunistic_containers = r.opportunistic_containers;
        out.preempted_containers = r.preempted_containers;
        out.am_container = r.am_container;
        out.submit_time_ms = r.submit_time_ms;
        capsched_app_report_free(&r);
        return out;
    }
    /// Throws `Rejected` with YARN's reason when the scheduler refuses the application (an
    /// empty `user` too: "Null user").
    uint64_t submit(std::string_view queue, std::string_view user, int32_t priority = CAPSCHED_DEFAULT_PRIORITY) const {
        uint64_t app = 0;
        check(capsched_app_submit(handle_.get(), str(queue), str(user), priority, &app));
        return app;
    }
    void add_attempt(uint64_t app, int64_t am_memory_mb, int64_t am_vcores, bool unmanaged = false,
                     bool keep_containers = false) const {
        check(capsched_attempt_add(handle_.get(), app, capsched_resource{am_memory_mb, am_vcores}, unmanaged ? 1 : 0,
                                   keep_containers ? 1 : 0));
    }
    void remove_attempt(uint64_t app, bool keep_containers = false) const {
        check(capsched_attempt_remove(handle_.get(), app, keep_containers ? 1 : 0));
    }
    void remove_app(uint64_t app) const { check(capsched_app_remove(handle_.get(), app)); }
    void move_app(uint64_t app, std::string_view queue) const {
        check(capsched_app_move(handle_.get(), app, str(queue)));
    }
    /// Returns the priority in force (clamped to the cluster maximum).
    int32_t set_app_priority(uint64_t app, int32_t priority) const {
        int32_t effective = 0;
        check(capsched_app_set_priority(handle_.get(), app, priority, &effective));
        return effective;
    }
    void container_expired(uint64_t container) const {
        check(capsched_container_expired(handle_.get(), container));
    }
    AllocateResponse allocate(uint64_t app, const capsched_allocate_request &request) const {
        capsched_allocate_response *r = nullptr;
        check(capsched_allocate(handle_.get(), app, &request, &r));
        return AllocateResponse(r);
    }
    /// `request` with a node-label expression beside each of its asks (`ask_labels[i]` is
    /// `asks[i]`'s; nullopt: none, the application's label then the queue's default apply).
    AllocateResponse allocate(uint64_t app, capsched_allocate_request request,
                              const std::vector<std::optional<std::string_view>> &ask_labels) const {
        std::vector<capsched_str> labels;
        labels.reserve(ask_labels.size());
        for (const auto &l : ask_labels) labels.push_back(label_expression(l));
        request.ask_labels = labels.data();
        request.ask_label_count = labels.size();
        return allocate(app, request);
    }

    // ---- node labels (the RM's label manager) ----

    /// `addToCluserNodeLabels`: (name, exclusive) pairs. Throws `Error` (CAPSCHED_ERR_REFUSED,
    /// the label manager's words) and adds nothing when one is refused.
    void add_node_labels(const std::vector<std::pair<std::string, bool>> &labels) const {
        std::vector<capsched_node_label> l;
        l.reserve(labels.size());
        for (const auto &x : labels) l.push_back(capsched_node_label{str(x.first), x.second ? 1 : 0});
        check(capsched_node_labels_add(handle_.get(), l.data(), l.size()));
    }
    /// `removeFromClusterNodeLabels`; refused while a queue lists a label.
    void remove_node_labels(const std::vector<std::string> &names) const {
        std::vector<capsched_str> n;
        n.reserve(names.size());
        for (const auto &x : names) n.push_back(str(x));
        check(capsched_node_labels_remove(handle_.get(), n.data(), n.size()));
    }
    /// `replaceLabelsOnNode`: (node, label) pairs, a node being a host or `host:port`, the
    /// label "" for none. Running containers stay; their usage moves with the node.
    void replace_labels_on_nodes(const std::vector<std::pair<std::string, std::string>> &mapping) const {
        std::vector<capsched_node_label_mapping> m;
        m.reserve(mapping.size());
        for (const auto &x : mapping) m.push_back(capsched_node_label_mapping{str(x.first), str(x.second)});
        check(capsched_node_labels_replace(handle_.get(), m.data(), m.size()));
    }
    /// The cluster's labels, in the order they were added.
    NodeLabelList node_labels() const {
        capsched_node_label_list *l = nullptr;
        check(capsched_node_labels_get(handle_.get(), &l));
        return NodeLabelList(l);
    }
    /// The node's partition: its label, or "" for the default partition.
    std::string node_partition(uint64_t node) const {
        capsched_owned_str s{};
        check(capsched_node_partition(handle_.get(), node, &s));
        std::string out(s.ptr, s.len);
        capsched_string_free(s);
        return out;
    }
    /// A queue's used, reserved, pending and AM resources in one partition ("" the default).
    capsched_partition_usage queue_partition_usage(std::string_view queue, std::string_view label = {}) const {
        capsched_partition_usage u{};
        check(capsched_queue_partition_usage(handle_.get(), str(queue), str(label), &u));
        return u;
    }
    /// YARN's `QueueInfo` view of a queue's labels: the accessible ones (`*` alone for any)
    /// and the default label expression, which an RM checks requests against.
    QueueLabels queue_node_labels(std::string_view queue) const {
        capsched_queue_labels *l = nullptr;
        check(capsched_queue_node_labels(handle_.get(), str(queue), &l));
        return QueueLabels(l);
    }
    uint32_t tick(int64_t now_ms = -1) const {
        uint32_t n = 0;
        check(capsched_engine_tick(handle_.get(), now_ms, &n));
        return n;
    }
    uint32_t step(uint32_t passes = 1) const {
        uint32_t n = 0;
        check(capsched_engine_step(handle_.get(), passes, &n));
        return n;
    }
    /// Replaces the queue configuration (YARN's `refreshQueues`); a rejected one leaves the
    /// running configuration in force.
    void refresh_queues(const Config &config) const {
        check(capsched_engine_refresh_queues(handle_.get(), config.get()));
    }
    /// Throws `Error` (CAPSCHED_ERR_INVARIANT, the violations in `what()`) if the scheduler's
    /// state breaks an invariant; for tests and audits.
    void check_invariants() const { check(capsched_engine_check_invariants(handle_.get())); }
    capsched_cluster_info cluster_info() const {
        capsched_cluster_info info{};
        check(capsched_engine_cluster_info(handle_.get(), &info));
        return info;
    }
    /// Every queue in pre-order (root first).
    QueueList queues() const {
        capsched_queue_list *l = nullptr;
        check(capsched_engine_queues(handle_.get(), &l));
        return QueueList(l);
    }
    std::string scheduler_json() const {
        capsched_owned_str s{};
        check(capsched_engine_scheduler_json(handle_.get(), &s));
        std::string out(s.ptr, s.len);
        capsched_string_free(s);
        return out;
    }
    std::vector<capsched_event> poll_events(size_t max = 1024) const {
        std::vector<capsched_event> events(max);
        size_t n = 0;
        check(capsched_poll_events(handle_.get(), events.data(), events.size(), &n, nullptr));
        events.resize(n);
        return events;
    }
    /// Every later event goes to `callback` instead of the queue `poll_events` drains. It runs
    /// on the thread that produced the event (the engine thread, in threaded mode) and must not
    /// call the engine. The engine owns the callback and destroys it when replaced or freed.
    void on_event(std::function<void(const capsched_event &)> callback) const {
        using Callback = std::function<void(const capsched_event &)>;
        auto *owned = new Callback(std::move(callback));
        capsched_status s = capsched_engine_set_event_callback(
            handle_.get(),
            [](const capsched_event *e, void *user) {
                // No exception may unwind into the library.
                try {
                    (*static_cast<Callback *>(user))(*e);
                } catch (...) {
                }
            },
            owned, [](void *user) { delete static_cast<Callback *>(user); });
        if (s != CAPSCHED_OK) {
            delete owned;
            check(s);
        }
    }
    /// Events go back to the queue that `poll_events` drains.
    void clear_on_event() const { check(capsched_engine_set_event_callback(handle_.get(), nullptr, nullptr, nullptr)); }
    void stop() const { check(capsched_engine_stop(handle_.get())); }
    capsched_engine *get() const noexcept { return handle_.get(); }

private:
    /// A submission over the caller's strings; `g` holds the groups' views while it is used.
    static capsched_submission submission(std::string_view queue, std::string_view user,
                                          const std::vector<std::string> &groups, std::vector<capsched_str> &g,
                                          int32_t priority, std::string_view app_name) {
        g.clear();
        g.reserve(groups.size());
        for (const auto &x : groups) g.push_back(str(x));
        capsched_submission sub{};
        sub.struct_size = sizeof sub;
        sub.queue = str(queue);
        sub.user = str(user);
        sub.groups = g.data();
        sub.group_count = g.size();
        sub.priority = priority;
        sub.app_name = str(app_name);
        return sub;
    }
    /// `capsched_app_submit_as` with everything; sequence 0: the engine mints the id.
    uint64_t submit_full(std::string_view queue, std::string_view user, const std::vector<std::string> &groups,
                         int32_t priority, int64_t cluster_timestamp, int32_t sequence,
                         std::string_view app_name = {}, bool recovering = false, int64_t lifetime_s = 0,
                         const std::optional<std::string_view> &node_label_expression = std::nullopt,
                         const std::optional<std::string_view> &am_node_label_expression = std::nullopt) const {
        std::vector<capsched_str> g;
        capsched_submission sub = submission(queue, user, groups, g, priority, app_name);
        sub.application_id.cluster_timestamp = cluster_timestamp;
        sub.application_id.application = sequence;
        sub.recovering = recovering ? 1 : 0;
        sub.lifetime_s = lifetime_s;
        sub.node_label_expression = label_expression(node_label_expression);
        sub.am_node_label_expression = label_expression(am_node_label_expression);
        uint64_t app = 0;
        check(capsched_app_submit_as(handle_.get(), &sub, &app));
        return app;
    }

    std::unique_ptr<capsched_engine, EngineDeleter> handle_;
};

}  // namespace capsched

#endif  // CAPSCHED_HPP
