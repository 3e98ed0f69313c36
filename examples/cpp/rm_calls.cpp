// The ResourceManager's own calls from C++: a node resized below what it runs (killing what
// is over at once), graceful decommissioning until the node leaves, the RM killing a
// container with its own status, and queue ACLs with yarn.acl.enable.
#include <iostream>

#include "capsched.hpp"

// One 1 GB container per heartbeat until `n` run on `node`; returns their ids.
static std::vector<uint64_t> run_containers(const capsched::Engine &engine, uint64_t app, uint64_t node, int n,
                                            int32_t &response_id) {
    capsched_ask ask{};
    ask.priority = 1;
    ask.resource_name = capsched::str("*");
    ask.capability = capsched_resource{1024, 1};
    ask.num_containers = n;
    ask.relax_locality = 1;
    ask.execution_type = CAPSCHED_GUARANTEED;
    capsched_allocate_request req{};
    req.struct_size = sizeof req;
    req.asks = &ask;
    req.ask_count = 1;
    req.response_id = response_id;
    response_id = engine.allocate(app, req)->response_id;
    for (int i = 0; i < n; i++) engine.node_update(node);
    capsched_allocate_request empty{};
    empty.struct_size = sizeof empty;
    empty.response_id = response_id;
    auto r = engine.allocate(app, empty);
    response_id = r->response_id;
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < r->allocated_count; i++) ids.push_back(r->allocated[i].id);
    capsched_node_status status{};
    status.struct_size = sizeof status;
    status.launched = ids.data();
    status.launched_count = ids.size();
    engine.node_update(node, &status);
    return ids;
}

int main() {
    try {
        auto config = capsched::Config::from_pairs({
            {"yarn.scheduler.capacity.root.queues", "a,b"},
            {"yarn.scheduler.capacity.root.a.capacity", "50"},
            {"yarn.scheduler.capacity.root.b.capacity", "50"},
            {"yarn.scheduler.capacity.root.a.maximum-capacity", "100"},
            {"yarn.scheduler.capacity.root.a.user-limit-factor", "2"},
            {"yarn.scheduler.capacity.root.acl_submit_applications", " "},
            {"yarn.scheduler.capacity.root.acl_administer_queue", " "},
            {"yarn.scheduler.capacity.root.a.acl_submit_applications", "alice"},
            {"yarn.acl.enable", "true"},
        });
        const capsched::Engine engine(config, capsched::Options().manual().manual_clock(0));
        uint64_t h1 = engine.add_node("h1", "/r", 8192, 8);
        engine.add_node("h2", "/r", 8192, 8);

        // ACLs: alice may submit to a (its own ACL), bob may not (root's is nobody's).
        std::cout << "alice on a: " << engine.check_access("alice", {}, CAPSCHED_ACL_SUBMIT_APPLICATIONS, "root.a")
                  << ", bob on a: " << engine.check_access("bob", {"eng"}, CAPSCHED_ACL_SUBMIT_APPLICATIONS, "a")
                  << "\n";
        try {
            engine.submit_as("a", "bob", {"eng"});
        } catch (const capsched::Rejected &e) {
            std::cout << "bob rejected: " << e.what() << "\n";
        }
        uint64_t app = engine.submit_as("a", "alice", {});
        engine.add_attempt(app, 0, 0, /*unmanaged=*/true);
        int32_t response_id = 0;
        auto running = run_containers(engine, app, h1, 6, response_id);
        std::cout << "running on h1: " << running.size() << "\n";

        // h1 shrinks to 4 GB with an overcommit timeout of 0: the two newest are killed.
        engine.update_node_resource(h1, 4096, 8, 0);
        int killed = 0;
        for (const auto &e : engine.poll_events()) killed += e.kind == CAPSCHED_EVENT_PREEMPTED;
        std::cout << "killed by the shrink: " << killed << ", NM told: " << engine.node_update(h1)->to_kill_count
                  << "\n";

        // The RM kills one more with its own status.
        engine.kill_container(running[0], -106, "Killed by RM to simulate an AM container failure");

        // Decommissioning: nothing new goes to h1; when what runs there is done and the
        // application has finished, h1 leaves.
        engine.decommission_node(h1, 60000);
        std::vector<capsched_completed_container> done;
        for (size_t i = 1; i < 4; i++) done.push_back(capsched_completed_container{running[i], 0, capsched::str("")});
        capsched_node_status status{};
        status.struct_size = sizeof status;
        status.completed = done.data();
        status.completed_count = done.size();
        std::cout << "decommissioned while the app runs: " << engine.node_update(h1, &status)->decommissioned << "\n";
        engine.remove_app(app);
        std::cout << "decommissioned after: " << engine.node_update(h1)->decommissioned << "\n";
        int left = 0;
        for (const auto &e : engine.poll_events()) left += e.kind == CAPSCHED_EVENT_NODE_DECOMMISSIONED;
        std::cout << "nodes: " << engine.cluster_info().num_nodes << ", decommission events: " << left << "\n";
        engine.check_invariants();

        // Queue placement: the RM asks where an application goes before submitting it, with the
        // user's groups and the application's name, as YARN's PlacementManager answers.
        const capsched::Config placing = capsched::Config::from_pairs({
            {"yarn.scheduler.capacity.root.queues", "a,b"},
            {"yarn.scheduler.capacity.root.a.capacity", "50"},
            {"yarn.scheduler.capacity.root.b.capacity", "50"},
            {"yarn.scheduler.capacity.queue-mappings", "u:alice:b,g:eng:a"},
            {"yarn.scheduler.queue-placement-rules", "app-name,user-group"},
            {"yarn.scheduler.queue-placement-rules.app-name", "etl:b"},
        });
        const capsched::Engine placer(placing, capsched::Options().manual().manual_clock(0));
        auto alice = placer.place("default", "alice", {});
        auto bob = placer.place("default", "bob", {"eng"});
        auto named = placer.place("default", "carol", {"staff"}, "etl");
        auto nowhere = placer.place("default", "carol", {"staff"}, "other");
        std::cout << "placed: alice " << alice->second << "." << alice->first << ", bob " << bob->second << "."
                  << bob->first << ", etl " << named->first << ", other " << (nowhere ? "somewhere" : "nowhere")
                  << "\n";
        capsched::Submit etl_job;
        etl_job.app_name = "etl";
        uint64_t etl = placer.submit("default", "carol", {"staff"}, etl_job);
        std::cout << "etl runs in " << placer.app_report(etl).queue << "\n";

        // After an RM restart the RM re-adds what ran (unplaced: it keeps its queue) and its
        // attempt, which asks for no AM container: its AM runs and comes back with its NM.
        uint64_t back = placer.recover_app("a", "alice", 1410901177871, 40);
        placer.recover_attempt(back, 1024, 1);
        auto report = placer.app_report(back);
        std::cout << "recovered in " << report.queue << ", pending " << report.pending.memory_mb << " MB\n";

        // An application asking for a 30 s lifetime: at its deadline the engine tells the RM
        // (once), which kills it.
        capsched::Submit brief_one;
        brief_one.app_name = "brief";
        brief_one.lifetime_s = 30;
        uint64_t brief = placer.submit("a", "bob", {"eng"}, brief_one);
        placer.tick(29000);
        placer.tick(30000);
        int told = 0;
        for (const auto &e : placer.poll_events()) told += e.kind == CAPSCHED_EVENT_APP_LIFETIME_EXPIRED && e.app == brief;
        std::cout << "lifetime ended: " << told << "\n";
        std::cout << "done\n";
        return killed == 2 && left == 1 ? 0 : 1;
    } catch (const capsched::Error &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
