//! What the host's threads and the engine's own share (`Shared`): the mode, the clock, the
//! events, the published snapshot, the failure, and the way onto the core — the engine
//! thread's command channel, or the core itself in manual mode; a call run there under the
//! re-entrancy flag, its panic caught and made the engine's failure.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::clock::{Clock, ManualClock};
use super::core::EngineCore;
use super::error::{panic_message, EngineError};
use super::events::EventQueue;
use super::options::Mode;
use super::snapshot::EngineSnapshot;
use crate::preempt::policy::PreemptionPolicy;
use crate::sync::{oneshot, Arc, AtomicBool, AtomicU64, Mutex, Ordering, Sender};

pub(super) type Call = Box<dyn FnOnce(&mut EngineCore) + Send>;

// Loom's `thread_local!` takes no `const` initialiser; std's would prefer one.
#[allow(clippy::missing_const_for_thread_local)]
mod inside {
    crate::sync::thread_local! {
        /// Set while this thread runs a call on the core: a call from inside one would wait on
    /// itself, so it is refused instead.
        pub(super) static INSIDE_ENGINE: std::cell::Cell<bool> = std::cell::Cell::new(false);
    }
}
use inside::INSIDE_ENGINE;

pub(super) fn inside_engine() -> bool {
    INSIDE_ENGINE.with(|f| f.get())
}

/// Runs `f` with the re-entrancy flag set.
pub(crate) fn as_engine<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            INSIDE_ENGINE.with(|f| f.set(self.0));
        }
    }
    let _reset = Reset(INSIDE_ENGINE.with(|f| f.replace(true)));
    f()
}

pub(super) fn reentrant() -> EngineError {
    EngineError::InvalidArgument(
        "the engine was called from inside one of its own calls; that would wait on itself"
            .to_string(),
    )
}

/// How long a caller polls for its reply before parking: most calls take a few microseconds
/// on the engine thread, far less than waking a parked thread costs.
pub(super) const REPLY_SPIN: std::time::Duration = std::time::Duration::from_micros(50);

pub(crate) enum Command {
    /// A call, and whether it may bring work for the asynchronous pass (reads do not).
    Call(Call, bool),
    /// An explicit tick (manual clocks, and loom models that cannot wait with a timeout).
    Tick,
    Shutdown,
}

pub(crate) struct Shared {
    pub(super) mode: Mode,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) events: Arc<EventQueue>,
    pub(super) snapshot: Mutex<Arc<EngineSnapshot>>,
    pub(super) failed: Mutex<Option<String>>,
    pub(super) stopped: AtomicBool,
    /// Callers waiting for a reply right now (only the first polls).
    pub(super) spinners: AtomicU64,
    /// Threaded mode: the engine thread's command queue.
    pub(super) commands: Mutex<Option<Sender<Command>>>,
    /// Manual mode: the core itself.
    pub(super) manual: Mutex<Option<EngineCore>>,
    /// The preemption policy and when it last ran, when the host runs rounds (manual mode, a
    /// manual clock, and loom models); the monitor thread owns its own otherwise.
    pub(super) manual_policy: Mutex<Option<(PreemptionPolicy, i64)>>,
    pub(super) monitor_interval_ms: i64,
    pub(super) manual_clock: Option<Arc<ManualClock>>,
}

impl Shared {
    pub(super) fn fail(&self, message: String) {
        let mut f = self.failed.lock();
        if f.is_none() {
            *f = Some(message);
        }
    }

    pub(super) fn error_now(&self) -> EngineError {
        match self.failed.lock().clone() {
            Some(m) => EngineError::Failed(m),
            None => EngineError::Stopped,
        }
    }

    /// Runs `f` on the core and returns its result: through the engine thread, or here.
    /// `work`: whether the call may give the asynchronous pass something to do.
    pub(super) fn call<R: Send + 'static>(
        &self,
        work: bool,
        f: impl FnOnce(&mut EngineCore) -> R + Send + 'static,
    ) -> Result<R, EngineError> {
        if inside_engine() {
            return Err(reentrant());
        }
        if let Some(m) = self.failed.lock().clone() {
            return Err(EngineError::Failed(m));
        }
        match self.mode {
            Mode::Manual => {
                let mut core = self.manual.lock();
                // A panic on another thread may have retired the core meanwhile.
                let c = core.as_mut().ok_or_else(|| self.error_now())?;
                let run = || {
                    let r = f(c);
                    c.flush_notices();
                    r
                };
                match catch_unwind(AssertUnwindSafe(|| as_engine(run))) {
                    Ok(r) => Ok(r),
                    Err(p) => {
                        // The core may be half-changed: it is not used again.
                        *core = None;
                        self.fail(panic_message(&*p));
                        Err(self.error_now())
                    }
                }
            }
            Mode::Threaded => {
                let (tx, rx) = oneshot::<Result<R, String>>();
                let call: Call = Box::new(move |core| {
                    let run = || {
                        let r = f(core);
                        core.flush_notices();
                        r
                    };
                    match catch_unwind(AssertUnwindSafe(|| as_engine(run))) {
                        Ok(r) => {
                            let _ = tx.send(Ok(r));
                        }
                        Err(p) => {
                            // Tell the caller why, then let the engine thread die with it.
                            let _ = tx.send(Err(panic_message(&*p)));
                            std::panic::resume_unwind(p);
                        }
                    }
                });
                {
                    let commands = self.commands.lock();
                    let sender = commands.as_ref().ok_or(EngineError::Stopped)?;
                    if sender.send(Command::Call(call, work)).is_err() {
                        return Err(self.error_now());
                    }
                }
                // The reply sender is dropped unanswered only if the engine thread died or
                // stopped before running the call.
                // One caller at a time polls; the others park, so spinning never starves the
                // engine thread of a core (hosts run many more threads than cores).
                let spin = self.spinners.fetch_add(1, Ordering::SeqCst) == 0;
                let reply = if spin {
                    rx.recv_spinning(REPLY_SPIN)
                } else {
                    rx.recv()
                };
                self.spinners.fetch_sub(1, Ordering::SeqCst);
                match reply {
                    Some(Ok(r)) => Ok(r),
                    Some(Err(message)) => {
                        self.fail(message);
                        Err(self.error_now())
                    }
                    None => Err(self.error_now()),
                }
            }
        }
    }

    /// Publishes `snapshot` unless a newer one is already out (snapshots are numbered in the
    /// order the core made them), and returns what is published now.
    pub(super) fn publish(&self, snapshot: EngineSnapshot) -> Arc<EngineSnapshot> {
        let mut slot = self.snapshot.lock();
        if snapshot.sequence >= slot.sequence {
            *slot = Arc::new(snapshot);
        }
        slot.clone()
    }
}
