//! The engine thread: owns the core, runs commands in arrival order, and ticks.
//!
//! It waits on one wake-or-tick source: the command channel, with the time left until the next
//! tick as its timeout. A command wakes it at once; when the command brought work (any call)
//! and asynchronous scheduling is on, a pass runs right after the batch, as YARN's async thread
//! would find it on its next loop. Under loom there is no timeout to wait with: ticks arrive
//! as `Command::Tick`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::core::EngineCore;
use super::{panic_message, Command, Shared};
use crate::sync::{Arc, Receiver};

/// What woke the loop.
#[cfg_attr(loom, allow(dead_code))]
enum Wake {
    Command(Command),
    Tick,
    Closed,
}

#[cfg(not(loom))]
fn wait(rx: &Receiver<Command>, shared: &Shared, next_tick_ms: i64) -> Wake {
    use crate::sync::Recv;
    let left = (next_tick_ms - shared.clock.now_ms()).max(0) as u64;
    match rx.recv_timeout(std::time::Duration::from_millis(left)) {
        Recv::Got(c) => Wake::Command(c),
        Recv::Timeout => Wake::Tick,
        Recv::Disconnected => Wake::Closed,
    }
}

#[cfg(loom)]
fn wait(rx: &Receiver<Command>, _shared: &Shared, _next_tick_ms: i64) -> Wake {
    match rx.recv() {
        Some(c) => Wake::Command(c),
        None => Wake::Closed,
    }
}

pub(crate) fn run(mut core: EngineCore, rx: Receiver<Command>, shared: Arc<Shared>, tick_ms: i64) {
    let mut next_tick = shared.clock.now_ms() + tick_ms;
    // A panic anywhere below marks the engine failed; dropping `rx` then fails every queued
    // and later call instead of leaving it waiting.
    let mut last_publish: Option<i64> = None;
    let outcome = catch_unwind(AssertUnwindSafe(|| loop {
        // Each tick asked for is one pass; the timer adds one when due.
        let mut ticks = 0u32;
        let mut worked = false;
        let mut shutdown = false;
        let mut next = Some(wait(&rx, &shared, next_tick));
        while let Some(w) = next.take() {
            match w {
                Wake::Command(Command::Call(f)) => {
                    f(&mut core);
                    worked = true;
                }
                Wake::Command(Command::Tick) | Wake::Tick => ticks += 1,
                Wake::Command(Command::Shutdown) | Wake::Closed => shutdown = true,
            }
            // Everything already queued belongs to this batch (also on shutdown: stop drains).
            next = rx.try_recv().map(Wake::Command);
        }
        let now = shared.clock.now_ms();
        if now >= next_tick {
            ticks = ticks.max(1);
            next_tick = now + tick_ms;
        }
        for _ in 0..ticks {
            core.tick(now);
        }
        if ticks == 0 && worked {
            core.schedule(now);
        }
        // Readers get a new snapshot at most once per tick interval (and on stop).
        if shutdown || (ticks > 0 && last_publish.is_none_or(|t| now - t >= tick_ms)) {
            shared.publish(core.snapshot(now, shared.events.dropped()));
            last_publish = Some(now);
        }
        if shutdown {
            return;
        }
    }));
    if let Err(p) = outcome {
        shared.fail(panic_message(&*p));
    }
}
