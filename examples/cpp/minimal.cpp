// The minimal host in C++ through bindings/cpp/capsched.hpp: RAII handles and exceptions.
#include <cstring>
#include <iostream>

#include "capsched.hpp"

int main() {
    try {
        auto config = capsched::Config::from_pairs({
            {"yarn.scheduler.capacity.root.queues", "default"},
            {"yarn.scheduler.capacity.root.default.capacity", "100"},
        });
        capsched::Engine engine(config);
        uint64_t nodes[] = {engine.add_node("host1", "/rack1", 8192, 8), engine.add_node("host2", "/rack1", 8192, 8)};

        try {
            engine.submit("no-such-queue", "bob");
            std::cerr << "a submission to an unknown queue was accepted\n";
            return 1;
        } catch (const capsched::Rejected &e) {
            std::cout << "rejected: " << e.what() << "\n";
        }

        uint64_t app = engine.submit("default", "alice");
        engine.add_attempt(app, 1024, 1);

        // Ids belong to the engine that issued them: another engine's first application has
        // the same slot as this one's, but its id carries the other engine's tag.
        {
            capsched::Engine other(config);
            uint64_t theirs = other.submit("default", "carol");
            try {
                engine.remove_app(theirs);
                std::cerr << "another engine's application id was accepted\n";
                return 1;
            } catch (const capsched::Error &e) {
                std::cout << "another engine's id: " << e.what() << "\n";
            }
        }

        capsched_ask ask{};
        ask.priority = 1;
        ask.resource_name = capsched::str("*");
        ask.capability = capsched_resource{1024, 1};
        ask.num_containers = 4;
        ask.relax_locality = 1;
        ask.execution_type = CAPSCHED_GUARANTEED;

        capsched_allocate_request req{};
        req.struct_size = sizeof req;
        int got = 0;
        bool am = false, asked = false;
        for (int round = 0; round < 50 && got < 4; round++) {
            for (uint64_t n : nodes) engine.node_update(n);
            // The asks go once, after the AM container arrived; the table stays in the RM.
            bool ask_now = am && !asked;
            req.asks = ask_now ? &ask : nullptr;
            req.ask_count = ask_now ? 1 : 0;
            asked = asked || ask_now;
            auto r = engine.allocate(app, req);
            req.response_id = r->response_id;
            for (size_t i = 0; i < r->allocated_count; i++) {
                if (r->allocated[i].is_am) {
                    am = true;
                } else {
                    got++;
                }
            }
        }
        std::cout << "containers: " << got << "\n";
        std::cout << "events: " << engine.poll_events().size() << "\n";
        std::cout << "json ok: " << (engine.scheduler_json().find("\"queueName\":\"default\"") != std::string::npos) << "\n";
        engine.stop();
        try {
            engine.submit("default", "alice");
        } catch (const capsched::Error &e) {
            std::cout << "after stop: " << capsched_status_name(e.status()) << "\n";
        }
        return got == 4 ? 0 : 1;
    } catch (const capsched::Error &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
