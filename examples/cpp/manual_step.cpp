// A C++ host that brings its own threads and time: a manual engine (no threads inside) with a
// manual clock and asynchronous scheduling. The host advances time with tick() and runs
// scheduling passes with step(); here it also replays a node that comes back with a running
// container (recovery), the way an RM restart re-registers NodeManagers.
#include <iostream>

#include "capsched.hpp"

int main() {
    try {
        auto config = capsched::Config::from_pairs({
            {"yarn.scheduler.capacity.root.queues", "a,b"},
            {"yarn.scheduler.capacity.root.a.capacity", "50"},
            {"yarn.scheduler.capacity.root.b.capacity", "50"},
            {"yarn.scheduler.capacity.root.a.maximum-capacity", "100"},
            {"yarn.scheduler.capacity.root.b.maximum-capacity", "100"},
        });
        const capsched::Engine engine(config, capsched::Options().manual().async_scheduling(true).manual_clock(1000));

        uint64_t node = engine.add_node("host0", "/rack", 4096, 4);
        uint64_t app = engine.submit("a", "u");
        engine.add_attempt(app, 1024, 1);

        // Asynchronous scheduling: a heartbeat alone allocates nothing...
        std::cout << "heartbeat allocated " << engine.node_update(node)->allocated << "\n";
        // ...a pass does: each tick runs one (and expiry), as does each step.
        std::cout << "tick allocated " << engine.tick(1100) << "\n";
        std::cout << "step allocated " << engine.step() << "\n";

        capsched_allocate_request req{};
        req.struct_size = sizeof req;
        auto r = engine.allocate(app, req);
        bool am = r->allocated_count == 1 && r->allocated[0].is_am;
        std::cout << "AM container: " << (am ? "yes" : "no") << "\n";

        // Time may not go backwards: the wrapper throws with the library's message.
        try {
            engine.tick(500);
        } catch (const capsched::Error &e) {
            std::cout << "tick back in time: " << e.what() << "\n";
        }

        // A second NodeManager registers with a container the application already runs
        // there (container 7 of the attempt, this RM epoch): the scheduler charges it to the
        // queue again.
        capsched_container_report report{};
        report.app = app;
        report.resource = capsched_resource{2048, 1};
        report.priority = 1;
        report.container_id = 7;
        uint64_t node2 = engine.add_recovered_node("host1", "/rack", 4096, 4, {report});
        auto queues = engine.queues();
        for (size_t i = 0; i < queues->count; i++) {
            const capsched_queue_info &q = queues->queues[i];
            std::cout << capsched::view(q.path) << " used " << q.used.memory_mb << " MB\n";
        }

        // The AM container, never launched, expires ten minutes later.
        engine.tick(1100 + 600001);
        int expired = 0;
        for (const auto &e : engine.poll_events()) expired += e.kind == CAPSCHED_EVENT_EXPIRED;
        std::cout << "expired: " << expired << "\n";
        engine.remove_node(node2);
        std::cout << "nodes: " << engine.cluster_info().num_nodes << "\n";
        std::cout << "done\n";
        return am && expired == 1 ? 0 : 1;
    } catch (const capsched::Error &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
