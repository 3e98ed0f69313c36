// Node labels through the C++ wrapper: labels added (a refusal as an exception with the label
// manager's words), a NodeManager labelled by its NodeId, the queues' accessible labels (what
// an RM checks requests against), an application whose AM request names the label, asks with
// and without an expression beside them, and a label removed, which sends the node back to
// the default partition with its usage.
#include <iostream>

#include "capsched.hpp"

int main() {
    try {
        capsched::check_abi();
        auto config = capsched::Config::from_pairs({
            {"yarn.node-labels.enabled", "true"},
            {"yarn.scheduler.capacity.root.queues", "ml,etl"},
            {"yarn.scheduler.capacity.root.accessible-node-labels.gpu.capacity", "100"},
            {"yarn.scheduler.capacity.root.ml.capacity", "50"},
            {"yarn.scheduler.capacity.root.ml.maximum-capacity", "100"},
            {"yarn.scheduler.capacity.root.ml.user-limit-factor", "2"},
            {"yarn.scheduler.capacity.root.ml.accessible-node-labels", "gpu"},
            {"yarn.scheduler.capacity.root.ml.accessible-node-labels.gpu.capacity", "100"},
            {"yarn.scheduler.capacity.root.etl.capacity", "50"},
            {"yarn.scheduler.capacity.maximum-am-resource-percent", "1"},
        });
        const capsched::Engine engine(config, capsched::Options().manual().manual_clock(0));
        engine.add_node_labels({{"gpu", true}, {"spare", false}});
        try {
            engine.add_node_labels({{"-gpu", true}});
        } catch (const capsched::Error &e) {
            std::cout << "refused: " << e.what() << "\n";
        }
        uint64_t h1 = engine.add_node("h1:8041", "/r", 8192, 8);
        uint64_t h2 = engine.add_node("h2:8041", "/r", 8192, 8);
        engine.replace_labels_on_nodes({{"h1:8041", "gpu"}});
        auto labels = engine.node_labels();
        for (size_t i = 0; i < labels->count; i++) {
            std::cout << "label " << capsched::view(labels->labels[i].name)
                      << (labels->labels[i].exclusive ? " exclusive" : " shared") << "\n";
        }
        std::cout << "h1 in '" << engine.node_partition(h1) << "', h2 in '" << engine.node_partition(h2) << "'\n";
        // What an RM checks a request's label against (YARN's QueueInfo): etl may use any label.
        for (const char *q : {"ml", "etl"}) {
            auto ql = engine.queue_node_labels(q);
            std::cout << q << " may use";
            for (size_t i = 0; i < ql->accessible_count; i++) std::cout << " " << capsched::view(ql->accessible[i]);
            std::cout << (ql->default_node_label_expression.ptr == nullptr ? ", no default label\n" : ", a default\n");
        }

        // The AM request names gpu; the application itself names nothing.
        capsched::Submit more;
        more.am_node_label_expression = "gpu";
        uint64_t app = engine.submit("ml", "alice", {}, more);
        engine.add_attempt(app, 1024, 1);
        engine.node_update(h2);
        engine.node_update(h1);
        std::cout << "AM in gpu: " << engine.queue_partition_usage("ml", "gpu").am_used.memory_mb << " MB\n";

        // Two asks: one names gpu, one names nothing (the queue's default: no label).
        capsched_ask asks[2] = {};
        for (int i = 0; i < 2; i++) {
            asks[i].priority = i + 1;
            asks[i].resource_name = capsched::str("*");
            asks[i].capability = capsched_resource{2048, 1};
            asks[i].num_containers = 1;
            asks[i].relax_locality = 1;
            asks[i].execution_type = CAPSCHED_GUARANTEED;
        }
        capsched_allocate_request req{};
        req.struct_size = sizeof req;
        req.asks = asks;
        req.ask_count = 2;
        int32_t response_id = engine.allocate(app, req, {"gpu", std::nullopt})->response_id;
        try {
            engine.allocate(app, req, {"gpu"});
        } catch (const capsched::Error &e) {
            std::cout << "mismatched labels: " << e.what() << "\n";
        }
        engine.node_update(h1);
        engine.node_update(h2);
        capsched_allocate_request pull{};
        pull.struct_size = sizeof pull;
        pull.response_id = response_id;
        auto r = engine.allocate(app, pull);
        for (size_t i = 0; i < r->allocated_count; i++) {
            std::cout << "container on " << capsched::view(r->allocated[i].host) << "\n";
        }
        std::cout << "ml in gpu: " << engine.queue_partition_usage("ml", "gpu").used.memory_mb
                  << " MB, default: " << engine.queue_partition_usage("ml").used.memory_mb << " MB\n";

        // A label a queue lists cannot go; one that none lists can, and its nodes fall back.
        try {
            engine.remove_node_labels({"gpu"});
        } catch (const capsched::Error &e) {
            std::cout << "refused: " << e.what() << "\n";
        }
        engine.replace_labels_on_nodes({{"h2", "spare"}});
        engine.remove_node_labels({"spare"});
        std::cout << "h2 back in '" << engine.node_partition(h2) << "', labels left: " << engine.node_labels()->count
                  << "\n";
        engine.check_invariants();
        std::cout << "done\n";
    } catch (const std::exception &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
