// Several host threads against one engine, in C++: two NodeManager threads heartbeat their
// nodes and four AM threads each run an application (ask, receive, have the NM side finish the
// containers, unregister). Events arrive through a callback counting them with atomics; the
// engine itself needs no locking by the host.
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "capsched.hpp"

namespace {

constexpr int kNodes = 4;
constexpr int kAms = 4;
constexpr int kTasks = 6;

// Containers the AMs launched, for their node's NM thread to finish. The host's own
// bookkeeping has its own lock.
struct Mailbox {
    std::mutex lock;
    std::vector<std::pair<uint64_t, uint64_t>> launched;  // (node, container)

    std::vector<uint64_t> take(uint64_t node) {
        std::lock_guard<std::mutex> g(lock);
        std::vector<uint64_t> out;
        for (auto it = launched.begin(); it != launched.end();) {
            if (it->first == node) {
                out.push_back(it->second);
                it = launched.erase(it);
            } else {
                ++it;
            }
        }
        return out;
    }
};

void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

}  // namespace

int main() {
    try {
        capsched::check_abi();
        auto config = capsched::Config::from_pairs({
            {"yarn.scheduler.capacity.root.queues", "a,b"},
            {"yarn.scheduler.capacity.root.a.capacity", "50"},
            {"yarn.scheduler.capacity.root.b.capacity", "50"},
            {"yarn.scheduler.capacity.root.a.maximum-capacity", "100"},
            {"yarn.scheduler.capacity.root.b.maximum-capacity", "100"},
            {"yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"},
        });
        // Declared before the engine, so they outlive it and the callback that counts into them.
        std::atomic<int> accepted_events{0}, allocated_events{0};
        const capsched::Engine engine(config);
        engine.on_event([&](const capsched_event &e) {
            if (e.kind == CAPSCHED_EVENT_ACCEPTED) accepted_events++;
            if (e.kind == CAPSCHED_EVENT_ALLOCATED) allocated_events++;
        });

        std::vector<uint64_t> nodes;
        for (int n = 0; n < kNodes; n++) nodes.push_back(engine.add_node("host" + std::to_string(n), "/rack", 8192, 8));

        Mailbox mailbox;
        std::atomic<int> ams_done{0};
        std::mutex out_lock;

        auto nm = [&](int first) {
            while (ams_done.load() < kAms) {
                for (int n = first; n < kNodes; n += 2) {
                    std::vector<capsched_completed_container> done;
                    for (uint64_t c : mailbox.take(nodes[n])) done.push_back({c, 0, capsched::str("")});
                    capsched_node_status st{};
                    st.struct_size = sizeof st;
                    st.completed = done.data();
                    st.completed_count = done.size();
                    engine.node_update(nodes[n], &st);
                }
                nap();
            }
        };

        auto am = [&](int me) {
            uint64_t app = engine.submit(me % 2 ? "b" : "a", "user");
            engine.add_attempt(app, 1024, 1);
            capsched_ask ask{};
            ask.priority = 1;
            ask.resource_name = capsched::str("*");
            ask.capability = capsched_resource{1024, 1};
            ask.num_containers = kTasks;
            ask.relax_locality = 1;
            ask.execution_type = CAPSCHED_GUARANTEED;
            capsched_allocate_request req{};
            req.struct_size = sizeof req;
            bool am_running = false, asked = false;
            int received = 0, finished = 0;
            while (finished < kTasks) {
                bool ask_now = am_running && !asked;
                req.asks = ask_now ? &ask : nullptr;
                req.ask_count = ask_now ? 1 : 0;
                asked = asked || ask_now;
                auto r = engine.allocate(app, req);
                req.response_id = r->response_id;
                for (size_t i = 0; i < r->allocated_count; i++) {
                    const capsched_container &c = r->allocated[i];
                    if (c.is_am) {
                        am_running = true;
                    } else {
                        received++;
                        std::lock_guard<std::mutex> g(mailbox.lock);
                        mailbox.launched.emplace_back(c.node, c.id);
                    }
                }
                for (size_t i = 0; i < r->completed_count; i++) finished += r->completed[i].exit_status == 0;
                nap();
            }
            engine.remove_app(app);
            {
                std::lock_guard<std::mutex> g(out_lock);
                std::cout << "am " << me << ": " << received << " containers received, " << finished << " finished\n";
            }
            ams_done++;
        };

        std::vector<std::thread> threads;
        for (int i = 0; i < 2; i++) threads.emplace_back(nm, i);
        for (int i = 0; i < kAms; i++) threads.emplace_back(am, i);
        for (auto &t : threads) t.join();

        engine.check_invariants();
        auto info = engine.cluster_info();
        std::cout << "applications left: " << info.num_applications << ", containers left: " << info.num_containers
                  << "\n";
        // Every application accepted and every container handed out (four AMs and their
        // tasks) reached the callback.
        std::cout << "accepted events: " << accepted_events.load() << ", allocated events: " << allocated_events.load()
                  << "\n";
        return info.num_containers == 0 ? 0 : 1;
    } catch (const capsched::Error &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
