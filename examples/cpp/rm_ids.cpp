// An RM's ids through the C++ wrapper: the engine started with the RM's cluster timestamp and
// epoch, a NodeManager registered by its NodeId, an application submitted under the RM's own
// ApplicationId, its AM container launched from the AM_CONTAINER_ALLOCATED event, and YARN's
// id strings going both ways.
#include <iostream>

#include "capsched.hpp"

int main() {
    try {
        capsched::check_abi();
        auto config = capsched::Config::from_pairs({{"yarn.scheduler.capacity.root.queues", "default"},
                                                    {"yarn.scheduler.capacity.root.default.capacity", "100"}});
        const int64_t ts = 1410901177871;
        const capsched::Engine engine(
            config, capsched::Options().manual().manual_clock(0).cluster_timestamp(ts).rm_epoch(17));
        uint64_t nm = engine.add_node("nm1.example.com:45454", "/rack1", 8192, 8);
        uint64_t app = engine.submit_with_id("default", "alice", ts, 1);
        engine.add_attempt(app, 1024, 1);
        engine.node_update(nm);

        // The RM launches the AM when the event says it is allocated.
        for (const auto &ev : engine.poll_events()) {
            if (ev.kind == CAPSCHED_EVENT_APP_ACTIVATED)
                std::cout << "activated: " << capsched::format_yarn_id(ev.yarn_id) << "\n";
            if (ev.kind != CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED) continue;
            capsched_container_info am{};
            if (!engine.take_am_container(ev.app, am)) throw std::runtime_error("no AM container to take");
            std::cout << "launch AM " << capsched::format_yarn_id(am.yarn_id) << " on node "
                      << (am.node == engine.find_node("nm1.example.com:45454") ? "nm1" : "?") << "\n";
        }

        // YARN's strings back to the engine's handles.
        capsched_yarn_id parsed = capsched::parse_yarn_id("container_e17_1410901177871_0001_01_000001");
        uint64_t c = engine.find_container(parsed);
        std::cout << "found: app " << (engine.find_app(capsched::parse_yarn_id("application_1410901177871_0001")) == app)
                  << ", container state " << engine.container(c).state << "\n";

        auto report = engine.app_report(app);
        std::cout << "report: " << capsched::format_yarn_id(report.yarn_id) << " in " << report.queue << ", state "
                  << report.state << ", AM " << report.am_used.memory_mb << " MB\n";
        try {
            engine.submit_with_id("default", "bob", ts, 1);
        } catch (const capsched::Rejected &e) {
            std::cout << "duplicate: " << e.what() << "\n";
        }
    } catch (const std::exception &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
