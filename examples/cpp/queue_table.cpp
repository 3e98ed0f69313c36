// Loads the capacity-scheduler.xml given on the command line (validated with YARN's rules),
// prints the queue table of a cluster of ten 8 GB nodes, and, given a second file, refreshes
// the queues from it as `yarn rmadmin -refreshQueues` would: a configuration YARN rejects
// leaves the running one in force.
#include <cstdio>
#include <iostream>
#include <string>

#include "capsched.hpp"

namespace {

void print_table(const capsched::Engine &engine) {
    std::printf("%-32s %10s %10s\n", "queue", "capacity", "maximum");
    auto queues = engine.queues();
    for (size_t i = 0; i < queues->count; i++) {
        const capsched_queue_info &q = queues->queues[i];
        std::string path(capsched::view(q.path));
        std::printf("%-32s %9.1f%% %9.1f%%\n", path.c_str(), q.absolute_capacity * 100.0,
                    q.absolute_maximum_capacity * 100.0);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        std::cerr << "usage: " << argv[0] << " capacity-scheduler.xml [refreshed.xml]\n";
        return 2;
    }
    try {
        const capsched::Engine engine(capsched::Config::from_file(argv[1]), capsched::Options().manual());
        for (int i = 0; i < 10; i++) engine.add_node("node" + std::to_string(i), "/rack", 8192, 8);
        print_table(engine);
        if (argc == 3) {
            try {
                engine.refresh_queues(capsched::Config::from_file(argv[2]));
                std::cout << "refreshed\n";
            } catch (const capsched::Error &e) {
                std::cout << "refresh refused: " << e.what() << "\n";
            }
            print_table(engine);
        }
        return 0;
    } catch (const capsched::Error &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
}
