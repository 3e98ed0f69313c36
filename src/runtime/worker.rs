//! The engine thread: owns the core, runs commands in arrival order, and ticks.
//!
//! It waits on one wake-or-tick source: the command channel, with the time left until the next
//! tick as its timeout. A command wakes it at once; when the command brought work (any call)
//! and asynchronous scheduling is on, a pass runs right after the batch, as YARN's async thread
//! would find it on its next loop. Under loom there is no timeout to wait with, and under a
//! manual clock nothing to wait for: ticks arrive as `Command::Tick`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::core::EngineCore;
use super::error::panic_message;
use super::shared::{Command, Shared};
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
    // Under the host's clock time moves only with `tick_at`, which sends its tick: waiting on
    // wall time would run passes and expiry the host's time has not reached.
    if shared.manual_clock.is_some() {
        return match rx.recv() {
            Some(c) => Wake::Command(c),
            None => Wake::Closed,
        };
    }
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

#[cfg(not(loom))]
type WallTime = std::time::Instant;
#[cfg(not(loom))]
fn wall_now() -> WallTime {
    std::time::Instant::now()
}
#[cfg(not(loom))]
fn wall_elapsed(at: WallTime) -> i64 {
    at.elapsed().as_millis() as i64
}
/// Loom cannot model time: there every explicit tick publishes.
#[cfg(loom)]
type WallTime = ();
#[cfg(loom)]
fn wall_now() -> WallTime {}
#[cfg(loom)]
fn wall_elapsed(_: WallTime) -> i64 {
    i64::MAX
}

/// Commands run in one batch at most, so a steady stream of calls cannot hold off ticks.
const MAX_BATCH: usize = 1024;

pub(crate) fn run(mut core: EngineCore, rx: Receiver<Command>, shared: Arc<Shared>, tick_ms: i64) {
    // A panic anywhere below marks the engine failed; dropping `rx` then fails every queued
    // and later call instead of leaving it waiting.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut next_tick = shared.clock.now_ms().saturating_add(tick_ms);
        let mut last_publish: Option<(i64, WallTime)> = None;
        loop {
            // Each tick asked for is one pass; the timer adds one when due.
            let (mut asked, mut timer, mut worked, mut shutdown) = (0u32, false, false, false);
            let mut taken = 0usize;
            let mut next = Some(wait(&rx, &shared, next_tick));
            while let Some(w) = next.take() {
                match w {
                    Wake::Command(Command::Call(f, work)) => {
                        f(&mut core);
                        worked |= work;
                    }
                    Wake::Command(Command::Tick) => asked += 1,
                    Wake::Tick => timer = true,
                    Wake::Command(Command::Shutdown) | Wake::Closed => shutdown = true,
                }
                taken += 1;
                // What is already queued belongs to this batch (all of it on shutdown: stop
                // drains), up to the batch limit.
                if shutdown || taken < MAX_BATCH {
                    next = rx.try_recv().map(Wake::Command);
                }
            }
            let now = shared.clock.now_ms();
            if now >= next_tick {
                timer = true;
            }
            if timer {
                next_tick = now.saturating_add(tick_ms);
            }
            let passes = asked + u32::from(timer);
            for _ in 0..passes {
                core.tick(now);
            }
            if passes == 0 && worked {
                core.schedule(now);
            }
            core.flush_notices();
            // Readers get a new snapshot at most once per tick interval — of the engine's
            // clock, or of wall time for a clock the host holds still — and on stop.
            let due = last_publish.is_none_or(|(t, at)| {
                now.saturating_sub(t) >= tick_ms || wall_elapsed(at) >= tick_ms
            });
            if shutdown || ((timer || asked > 0) && due) {
                shared.publish(core.snapshot(now, shared.events.dropped()));
                last_publish = Some((now, wall_now()));
            }
            if shutdown {
                return;
            }
        }
    }));
    if let Err(p) = outcome {
        shared.fail(panic_message(&*p));
    }
}
