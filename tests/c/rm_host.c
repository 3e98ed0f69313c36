/* A C host that plays a Hadoop ResourceManager against the engine, through the header alone:
 * NodeManagers registered by their host:port NodeIds, applications submitted under the RM's
 * own ApplicationIds (cluster timestamp and epoch given at start), the AM launched from the
 * AM_CONTAINER_ALLOCATED event, the AM's allocate loop with its response ids (replay and the
 * invalid-id error), completions, the RM's own kill, a node resized below its use and a node
 * decommissioned, an ACL refusal, and every id and report checked against YARN's formats and
 * values. Prints "rm host: all N checks passed" and exits 0, or names the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsched.h"

static int checks = 0;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "check %d failed at line %d: %s: ", checks, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, " (last error: %s)\n", capsched_last_error());                 \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#define OK(call) CHECK((call) == CAPSCHED_OK, "%s", #call)

static capsched_str cs(const char *s) {
    capsched_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

static const int64_t TS = 1410901177871;
static const int64_t EPOCH = 17;

/* YARN's string form of an id, in a static buffer (the next call overwrites it). */
static const char *yarn(capsched_yarn_id id) {
    static char buf[128];
    capsched_owned_str s = {0};
    OK(capsched_yarn_id_format(&id, &s));
    snprintf(buf, sizeof buf, "%s", s.ptr);
    capsched_string_free(s);
    return buf;
}

/* The events since the last drain. */
static capsched_event events[256];
static size_t event_count = 0;

static void drain(const capsched_engine *e) {
    OK(capsched_poll_events(e, events, 256, &event_count, NULL));
}

/* The first drained event of `kind` (NULL when none). */
static const capsched_event *find(int32_t kind, uint64_t container) {
    for (size_t i = 0; i < event_count; i++)
        if (events[i].kind == kind && (container == 0 || events[i].container == container)) return &events[i];
    return NULL;
}

static capsched_node_response *heartbeat(const capsched_engine *e, uint64_t node, const uint64_t *launched,
                                         size_t launched_count, const capsched_completed_container *completed,
                                         size_t completed_count) {
    capsched_node_status st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.launched = launched;
    st.launched_count = launched_count;
    st.completed = completed;
    st.completed_count = completed_count;
    capsched_node_response *r = NULL;
    OK(capsched_node_update(e, node, &st, &r));
    return r;
}

static capsched_submission submission(const char *queue, const char *user, int32_t seq) {
    capsched_submission s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    s.queue = cs(queue);
    s.user = cs(user);
    s.priority = CAPSCHED_DEFAULT_PRIORITY;
    s.application_id.cluster_timestamp = TS;
    s.application_id.application = seq;
    return s;
}

int main(void) {
    if (capsched_abi_version() != CAPSCHED_ABI_VERSION) {
        fprintf(stderr, "ABI mismatch\n");
        return 1;
    }
    /* Queue a (alice only, AM limit one 1 GB AM) and b; ACLs on, root's narrowed. */
    capsched_str keys[] = {cs("yarn.scheduler.capacity.root.queues"),
                           cs("yarn.scheduler.capacity.root.a.capacity"),
                           cs("yarn.scheduler.capacity.root.b.capacity"),
                           cs("yarn.scheduler.capacity.root.a.maximum-am-resource-percent"),
                           cs("yarn.scheduler.capacity.root.acl_submit_applications"),
                           cs("yarn.scheduler.capacity.root.acl_administer_queue"),
                           cs("yarn.scheduler.capacity.root.a.acl_submit_applications"),
                           cs("yarn.acl.enable")};
    capsched_str values[] = {cs("a,b"), cs("50"), cs("50"), cs("0.05"), cs(" "), cs(" "), cs("alice"), cs("true")};
    capsched_config *config = NULL;
    OK(capsched_config_from_pairs(keys, values, 8, &config));
    capsched_engine_options o;
    OK(capsched_engine_options_default(&o));
    o.mode = CAPSCHED_MODE_MANUAL;
    o.manual_clock = 1;
    o.clock_start_ms = 1000;
    o.cluster_timestamp = TS;
    o.rm_epoch = EPOCH;
    capsched_engine *e = NULL;
    OK(capsched_engine_new(config, &o, &e));

    /* NodeManagers by their NodeIds. */
    uint64_t nm1 = 0, nm2 = 0, found = 0;
    OK(capsched_node_add(e, cs("nm1.example.com:45454"), cs("/r1"), (capsched_resource){8192, 8}, &nm1));
    OK(capsched_node_add(e, cs("nm2.example.com:45454"), cs("/r1"), (capsched_resource){8192, 8}, &nm2));
    OK(capsched_node_find(e, cs("nm1.example.com:45454"), &found));
    CHECK(found == nm1, "node by NodeId");
    OK(capsched_node_find(e, cs("nm2.example.com"), &found));
    CHECK(found == nm2, "node by host");
    CHECK(capsched_node_find(e, cs("nm3.example.com:45454"), &found) == CAPSCHED_ERR_UNKNOWN_ID, "no nm3");
    /* A second NodeManager on nm1's host (as MiniYARNCluster runs them): its own node; the
       bare host then names neither. */
    uint64_t nm1b = 0;
    OK(capsched_node_add(e, cs("nm1.example.com:45455"), cs("/r1"), (capsched_resource){8192, 8}, &nm1b));
    CHECK(nm1b != nm1, "a node of its own");
    CHECK(capsched_node_find(e, cs("nm1.example.com"), &found) == CAPSCHED_ERR_UNKNOWN_ID, "ambiguous host");
    CHECK(capsched_node_add(e, cs("nm1.example.com:45455"), cs("/r1"), (capsched_resource){8192, 8}, &found) ==
              CAPSCHED_ERR_INVALID_ARGUMENT,
          "the same NodeId twice");
    CHECK(strcmp(capsched_last_error(), "node nm1.example.com:45455 is already registered") == 0, "says so");
    OK(capsched_node_remove(e, nm1b));
    OK(capsched_node_find(e, cs("nm1.example.com"), &found));
    CHECK(found == nm1, "the host names nm1 again");

    /* ACLs: alice may submit to a, bob may not. */
    int32_t allowed = 7;
    OK(capsched_check_access(e, cs("alice"), NULL, 0, CAPSCHED_ACL_SUBMIT_APPLICATIONS, cs("root.a"), &allowed));
    CHECK(allowed == 1, "alice may submit to a");
    OK(capsched_check_access(e, cs("bob"), NULL, 0, CAPSCHED_ACL_SUBMIT_APPLICATIONS, cs("a"), &allowed));
    CHECK(allowed == 0, "bob may not");
    uint64_t app1 = 0, app2 = 0, refused = 0;
    capsched_submission s = submission("a", "bob", 3);
    CHECK(capsched_app_submit_as(e, &s, &refused) == CAPSCHED_ERR_REJECTED, "bob's submission");
    CHECK(strcmp(capsched_last_error(),
                 "User bob does not have permission to submit application_1410901177871_0003 to queue root.a") == 0,
          "YARN's ACL message");

    /* app1 under the RM's id. */
    s = submission("a", "alice", 1);
    OK(capsched_app_submit_as(e, &s, &app1));
    CHECK(capsched_app_submit_as(e, &s, &refused) == CAPSCHED_ERR_REJECTED, "a duplicate id");
    CHECK(strcmp(capsched_last_error(), "Application with id application_1410901177871_0001 is already present! "
                                        "Cannot add a duplicate!") == 0,
          "YARN's duplicate message");
    capsched_yarn_id app1_id = {TS, 1, 0, 0};
    OK(capsched_app_find(e, &app1_id, &found));
    CHECK(found == app1, "app by YARN id");
    drain(e);
    const capsched_event *ev = find(CAPSCHED_EVENT_ACCEPTED, 0);
    CHECK(ev && ev->app == app1 && strcmp(yarn(ev->yarn_id), "application_1410901177871_0001") == 0, "ACCEPTED");

    /* The attempt activates; a heartbeat allocates the AM container, which the RM takes. */
    OK(capsched_attempt_add(e, app1, (capsched_resource){1024, 1}, 0, 0));
    drain(e);
    ev = find(CAPSCHED_EVENT_APP_ACTIVATED, 0);
    CHECK(ev && ev->app == app1 && strcmp(yarn(ev->yarn_id), "appattempt_1410901177871_0001_000001") == 0,
          "APP_ACTIVATED names the attempt");
    capsched_node_response *nr = heartbeat(e, nm1, NULL, 0, NULL, 0);
    CHECK(nr->allocated == 1 && nr->allocated_container_count == 1, "the AM container in the node's response");
    capsched_container am = nr->allocated_containers[0];
    CHECK(am.is_am == 1 && am.node == nm1 && am.resource.memory_mb == 1024 && am.priority == 0 &&
              am.locality == CAPSCHED_OFF_SWITCH && am.execution_type == CAPSCHED_GUARANTEED,
          "the AM container's fields");
    CHECK(strncmp(am.host.ptr, "nm1.example.com:45454", am.host.len) == 0 && am.host.len == 21, "its NodeId");
    CHECK(strcmp(yarn(am.yarn_id), "container_e17_1410901177871_0001_01_000001") == 0, "YARN's ContainerId: %s",
          yarn(am.yarn_id));
    capsched_node_response_free(nr);
    drain(e);
    ev = find(CAPSCHED_EVENT_AM_CONTAINER_ALLOCATED, am.id);
    CHECK(ev && ev->app == app1 && ev->node == nm1 && ev->yarn_id.container_id == am.yarn_id.container_id,
          "AM_CONTAINER_ALLOCATED");
    capsched_container_info info;
    int32_t took = 0;
    OK(capsched_am_container_take(e, app1, &info, &took));
    CHECK(took == 1 && info.id == am.id && info.state == CAPSCHED_CONTAINER_ACQUIRED && info.acquired_ms == 1000,
          "the RM takes the AM container");
    OK(capsched_am_container_take(e, app1, &info, &took));
    CHECK(took == 0, "only once");
    capsched_yarn_id parsed;
    OK(capsched_yarn_id_parse(cs("container_e17_1410901177871_0001_01_000001"), &parsed));
    CHECK(memcmp(&parsed, &am.yarn_id, sizeof parsed) == 0, "the string form round-trips");
    OK(capsched_container_find(e, &parsed, &found));
    CHECK(found == am.id, "container by YARN id");

    /* The NodeManager launches the AM. */
    nr = heartbeat(e, nm1, &am.id, 1, NULL, 0);
    CHECK(nr->allocated == 0, "nothing asked yet");
    capsched_node_response_free(nr);
    OK(capsched_container_get(e, am.id, &info));
    CHECK(info.state == CAPSCHED_CONTAINER_RUNNING && info.launched_ms == 1000 && info.is_am == 1, "AM running");

    /* The AM's allocate loop: three 2 GB tasks. */
    capsched_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.priority = 1;
    ask.resource_name = cs("*");
    ask.capability = (capsched_resource){2048, 1};
    ask.num_containers = 3;
    ask.relax_locality = 1;
    capsched_allocate_request rq;
    memset(&rq, 0, sizeof rq);
    rq.struct_size = sizeof rq;
    rq.asks = &ask;
    rq.ask_count = 1;
    capsched_allocate_response *r = NULL;
    OK(capsched_allocate(e, app1, &rq, &r));
    CHECK(r->response_id == 1 && r->allocated_count == 0, "the first response: id 1, the AM container not in it");
    capsched_allocate_response_free(r);
    OK(capsched_allocate(e, app1, &rq, &r));
    CHECK(r->response_id == 1, "a repeated id gets the last response again");
    capsched_allocate_response_free(r);
    rq.response_id = 5;
    CHECK(capsched_allocate(e, app1, &rq, &r) == CAPSCHED_ERR_REFUSED, "a wrong id");
    CHECK(strcmp(capsched_last_error(), "Invalid responseId in AllocateRequest from application attempt: "
                                        "appattempt_1410901177871_0001_000001 expect responseId to be 1 but get 5") ==
              0,
          "YARN's message");

    /* nm2's heartbeats allocate the tasks. */
    /* One off-switch assignment a heartbeat (YARN's default maximum-offswitch-assignments). */
    uint64_t task[3];
    for (int i = 0; i < 3; i++) {
        nr = heartbeat(e, nm2, NULL, 0, NULL, 0);
        CHECK(nr->allocated == 1 && nr->allocated_container_count == 1, "one task on nm2 in heartbeat %d", i);
        capsched_container c = nr->allocated_containers[0];
        task[i] = c.id;
        char want[64];
        snprintf(want, sizeof want, "container_e17_1410901177871_0001_01_%06d", i + 2);
        CHECK(strcmp(yarn(c.yarn_id), want) == 0, "task %d is %s, not %s", i, yarn(c.yarn_id), want);
        CHECK(c.priority == 1 && c.resource.memory_mb == 2048 && c.is_am == 0 && c.node == nm2 &&
                  c.locality == CAPSCHED_OFF_SWITCH,
              "task %d's fields", i);
        capsched_node_response_free(nr);
    }
    rq.response_id = 1;
    rq.ask_count = 0;
    OK(capsched_allocate(e, app1, &rq, &r));
    CHECK(r->response_id == 2 && r->allocated_count == 3, "the AM gets its tasks");
    capsched_allocate_response_free(r);
    drain(e);
    CHECK(find(CAPSCHED_EVENT_ALLOCATED, task[2]) != NULL, "ALLOCATED");

    capsched_app_report rep;
    OK(capsched_app_report_get(e, app1, &rep));
    CHECK(rep.state == CAPSCHED_APP_RUNNING && rep.pending_reason == CAPSCHED_PENDING_NONE, "app1 running");
    CHECK(strcmp(rep.queue.ptr, "root.a") == 0 && strcmp(rep.user.ptr, "alice") == 0, "queue and user");
    CHECK(rep.used.memory_mb == 1024 + 3 * 2048 && rep.am_used.memory_mb == 1024 && rep.live_containers == 4 &&
              rep.am_container == am.id && rep.submit_time_ms == 1000,
          "app1's usage");
    CHECK(strcmp(yarn(rep.yarn_id), "appattempt_1410901177871_0001_000001") == 0, "the report's attempt");
    capsched_app_report_free(&rep);
    capsched_app_report_free(&rep);

    /* app2 waits on a's AM limit. */
    s = submission("a", "alice", 2);
    OK(capsched_app_submit_as(e, &s, &app2));
    OK(capsched_attempt_add(e, app2, (capsched_resource){1024, 1}, 0, 0));
    drain(e);
    ev = find(CAPSCHED_EVENT_APP_PENDING, 0);
    CHECK(ev && ev->app == app2 && ev->code == CAPSCHED_PENDING_AM_LIMIT, "APP_PENDING on the AM limit");
    OK(capsched_app_report_get(e, app2, &rep));
    CHECK(rep.state == CAPSCHED_APP_ACCEPTED && rep.pending_reason == CAPSCHED_PENDING_AM_LIMIT &&
              strstr(rep.diagnostics.ptr, "Queue's AM resource limit exceeded") != NULL,
          "app2's report says why");
    capsched_app_report_free(&rep);

    /* Task 0 finishes; the RM kills task 1; nm2 shrinks below task 2 and kills it. */
    capsched_completed_container done;
    memset(&done, 0, sizeof done);
    done.container = task[0];
    done.exit_status = 0;
    done.diagnostics = cs("");
    nr = heartbeat(e, nm2, task, 3, &done, 1);
    capsched_node_response_free(nr);
    drain(e);
    ev = find(CAPSCHED_EVENT_CONTAINER_COMPLETED, task[0]);
    CHECK(ev && ev->app == app1 && ev->code == 0 &&
              strcmp(yarn(ev->yarn_id), "container_e17_1410901177871_0001_01_000002") == 0,
          "CONTAINER_COMPLETED");
    OK(capsched_container_kill(e, task[1], -106, cs("Container killed by the ResourceManager")));
    drain(e);
    ev = find(CAPSCHED_EVENT_CONTAINER_COMPLETED, task[1]);
    CHECK(ev && ev->code == -106, "the RM's kill, with its status");
    OK(capsched_node_update_resource(e, nm2, (capsched_resource){1024, 8}, 0));
    drain(e);
    CHECK(find(CAPSCHED_EVENT_PREEMPTED, task[2]) != NULL, "PREEMPTED first");
    ev = find(CAPSCHED_EVENT_CONTAINER_COMPLETED, task[2]);
    CHECK(ev && ev->code == -102 && ev->app == app1, "then its completion, -102");
    CHECK(capsched_container_get(e, task[2], &info) == CAPSCHED_ERR_UNKNOWN_ID, "gone");
    rq.response_id = 2;
    OK(capsched_allocate(e, app1, &rq, &r));
    CHECK(r->completed_count == 3, "the AM hears of the three");
    int statuses_ok = 1;
    for (size_t i = 0; i < r->completed_count; i++) {
        capsched_container_status c = r->completed[i];
        if (c.container == task[0]) statuses_ok &= c.exit_status == 0 && c.yarn_id.container_id == (EPOCH << 40) + 2;
        if (c.container == task[2]) statuses_ok &= c.exit_status == -102;
    }
    CHECK(statuses_ok, "with their YARN ids and statuses");
    capsched_allocate_response_free(r);
    OK(capsched_app_report_get(e, app1, &rep));
    CHECK(rep.preempted_containers == 1 && rep.preempted_resource.memory_mb == 2048 && rep.live_containers == 1,
          "app1 counts its preempted container");
    capsched_app_report_free(&rep);

    /* nm1 is decommissioned with a 10 s timeout: it keeps the AM until then. */
    OK(capsched_node_decommission(e, nm1, 10000));
    nr = heartbeat(e, nm1, NULL, 0, NULL, 0);
    CHECK(nr->decommissioned == 0 && nr->allocated == 0, "decommissioning: running, nothing new");
    capsched_node_response_free(nr);
    uint32_t n = 0;
    OK(capsched_engine_tick(e, 12000, &n));
    drain(e);
    ev = find(CAPSCHED_EVENT_NODE_DECOMMISSIONED, 0);
    CHECK(ev && ev->node == nm1, "NODE_DECOMMISSIONED at the timeout");
    ev = find(CAPSCHED_EVENT_CONTAINER_COMPLETED, am.id);
    CHECK(ev && ev->code == -100, "the AM container lost with it");
    CHECK(capsched_node_find(e, cs("nm1.example.com:45454"), &found) == CAPSCHED_ERR_UNKNOWN_ID, "nm1 gone");

    /* The RM ends app1's attempt; app2 activates. */
    OK(capsched_attempt_remove(e, app1, 0));
    drain(e);
    ev = find(CAPSCHED_EVENT_APP_ACTIVATED, 0);
    CHECK(ev && ev->app == app2 && strcmp(yarn(ev->yarn_id), "appattempt_1410901177871_0002_000001") == 0,
          "app2 activated");
    OK(capsched_app_remove(e, app1));
    CHECK(capsched_app_find(e, &app1_id, &found) == CAPSCHED_ERR_UNKNOWN_ID, "app1 removed");
    OK(capsched_engine_check_invariants(e));

    /* The RM restarts (epoch 18): app2 and its attempt are recovered first, then nm2 comes
     * back with app2's AM container. No second AM container is asked for meanwhile. */
    capsched_engine_free(e);
    o.rm_epoch = EPOCH + 1;
    OK(capsched_engine_new(config, &o, &e));
    OK(capsched_node_add(e, cs("nm3.example.com:45454"), cs("/r1"), (capsched_resource){8192, 8}, &found));
    uint64_t nm3 = found;
    s = submission("a", "alice", 2);
    uint64_t back = 0;
    OK(capsched_app_submit_as(e, &s, &back));
    CHECK(capsched_attempt_recover(e, 0, (capsched_resource){1024, 1}, 0) == CAPSCHED_ERR_UNKNOWN_ID, "app 0");
    OK(capsched_attempt_recover(e, back, (capsched_resource){1024, 1}, 0));
    CHECK(capsched_attempt_recover(e, back, (capsched_resource){1024, 1}, 0) == CAPSCHED_ERR_REFUSED,
          "a second live attempt: %s", capsched_last_error());
    nr = heartbeat(e, nm3, NULL, 0, NULL, 0);
    CHECK(nr->allocated == 0, "no AM container for a recovered attempt");
    capsched_node_response_free(nr);
    capsched_container_report running;
    memset(&running, 0, sizeof running);
    running.app = back;
    running.resource = (capsched_resource){1024, 1};
    running.container_id = (EPOCH << 40) | 1;
    running.is_am = 1;
    uint64_t nm2b = 0;
    OK(capsched_node_add_recovered(e, cs("nm2.example.com:45454"), cs("/r2"), (capsched_resource){8192, 8}, &running, 1,
                                   &nm2b));
    OK(capsched_app_report_get(e, back, &rep));
    CHECK(rep.live_containers == 1 && rep.used.memory_mb == 1024 && rep.pending.memory_mb == 0, "its AM is back");
    capsched_app_report_free(&rep);
    capsched_yarn_id am_back;
    OK(capsched_yarn_id_parse(cs("container_e17_1410901177871_0002_01_000001"), &am_back));
    OK(capsched_container_find(e, &am_back, &found));
    OK(capsched_container_get(e, found, &info));
    CHECK(info.node == nm2b && info.state == CAPSCHED_CONTAINER_RUNNING, "running on nm2, by its old id");
    OK(capsched_engine_check_invariants(e));

    capsched_engine_free(e);
    capsched_config_free(config);
    printf("rm host: all %d checks passed\n", checks);
    return 0;
}
