//! The only file that names `std::sync`, `parking_lot`, `crossbeam_channel` or `loom`.
//!
//! Everything the runtime synchronises on comes from here: a mutex, a condition variable,
//! atomics, channels and threads. Under `cfg(loom)` the same API is backed by loom's models, so
//! `tests/loom_*.rs` explore every interleaving of the runtime's handoffs. Loom cannot model a
//! timeout, so a channel's `recv_timeout` is only available outside loom; the engine's loop
//! waits on [`WakeOrTick`] instead, which under loom is driven by explicit ticks.
//!
//! `Arc` is always std's: it shares immutable data (configurations, snapshots, host names) and
//! is not a point loom needs to explore.

pub use std::sync::Arc;

/// A mutex for process-wide `static`s (the C ABI's pool of engine tags): parking_lot's, under
/// loom too. Loom's types cannot live in a `static`, and no engine handoff goes through it —
/// it is taken only while an engine is created or freed — so there is nothing for loom to
/// explore.
pub type StaticMutex<T> = parking_lot::Mutex<T>;

#[cfg(not(loom))]
mod imp {
    pub use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
    pub use std::thread;
    pub use std::thread_local;

    /// A mutex whose `lock` cannot fail (parking_lot does not poison).
    #[derive(Debug, Default)]
    pub struct Mutex<T>(parking_lot::Mutex<T>);

    pub type MutexGuard<'a, T> = parking_lot::MutexGuard<'a, T>;

    impl<T> Mutex<T> {
        pub fn new(v: T) -> Self {
            Mutex(parking_lot::Mutex::new(v))
        }
        pub fn lock(&self) -> MutexGuard<'_, T> {
            self.0.lock()
        }
    }

    pub struct Sender<T>(crossbeam_channel::Sender<T>);
    pub struct Receiver<T>(crossbeam_channel::Receiver<T>);

    impl<T> Clone for Sender<T> {
        fn clone(&self) -> Self {
            Sender(self.0.clone())
        }
    }

    /// An unbounded channel (the engine's command queue).
    pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
        let (s, r) = crossbeam_channel::unbounded();
        (Sender(s), Receiver(r))
    }

    /// A one-slot channel (a call's reply).
    pub fn oneshot<T>() -> (Sender<T>, Receiver<T>) {
        let (s, r) = crossbeam_channel::bounded(1);
        (Sender(s), Receiver(r))
    }

    impl<T> Sender<T> {
        /// `Err` when the receiver is gone.
        pub fn send(&self, v: T) -> Result<(), T> {
            self.0.send(v).map_err(|e| e.into_inner())
        }
    }

    /// What waiting on a receiver gave.
    pub enum Recv<T> {
        Got(T),
        Timeout,
        Disconnected,
    }

    impl<T> Receiver<T> {
        /// `None` when every sender is gone.
        pub fn recv(&self) -> Option<T> {
            self.0.recv().ok()
        }
        pub fn try_recv(&self) -> Option<T> {
            self.0.try_recv().ok()
        }
        /// Polls for up to `spin` before parking: a reply or command that arrives within a
        /// few microseconds is taken without the cost of waking a parked thread.
        pub fn recv_spinning(&self, spin: std::time::Duration) -> Option<T> {
            let start = std::time::Instant::now();
            loop {
                match self.0.try_recv() {
                    Ok(v) => return Some(v),
                    Err(crossbeam_channel::TryRecvError::Disconnected) => return None,
                    Err(crossbeam_channel::TryRecvError::Empty) => {}
                }
                if start.elapsed() >= spin {
                    return self.recv();
                }
                std::hint::spin_loop();
            }
        }

        pub fn recv_timeout(&self, d: std::time::Duration) -> Recv<T> {
            match self.0.recv_timeout(d) {
                Ok(v) => Recv::Got(v),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => Recv::Timeout,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Recv::Disconnected,
            }
        }
    }
}

#[cfg(loom)]
mod imp {
    pub use loom::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
    pub use loom::thread;
    // Loom runs its threads on one OS thread: per-thread state must be loom's.
    pub use loom::thread_local;

    #[derive(Debug)]
    pub struct Mutex<T>(loom::sync::Mutex<T>);

    pub type MutexGuard<'a, T> = loom::sync::MutexGuard<'a, T>;

    impl<T> Mutex<T> {
        pub fn new(v: T) -> Self {
            Mutex(loom::sync::Mutex::new(v))
        }
        pub fn lock(&self) -> MutexGuard<'_, T> {
            self.0.lock().unwrap_or_else(|p| p.into_inner())
        }
    }

    impl<T: Default> Default for Mutex<T> {
        fn default() -> Self {
            Mutex::new(T::default())
        }
    }

    pub struct Sender<T>(loom::sync::mpsc::Sender<T>);
    pub struct Receiver<T>(loom::sync::mpsc::Receiver<T>);

    impl<T> Clone for Sender<T> {
        fn clone(&self) -> Self {
            Sender(self.0.clone())
        }
    }

    pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
        let (s, r) = loom::sync::mpsc::channel();
        (Sender(s), Receiver(r))
    }

    pub fn oneshot<T>() -> (Sender<T>, Receiver<T>) {
        channel()
    }

    impl<T> Sender<T> {
        pub fn send(&self, v: T) -> Result<(), T> {
            self.0.send(v).map_err(|e| e.0)
        }
    }

    impl<T> Receiver<T> {
        pub fn recv(&self) -> Option<T> {
            self.0.recv().ok()
        }
        pub fn try_recv(&self) -> Option<T> {
            self.0.try_recv().ok()
        }
        pub fn recv_spinning(&self, _spin: std::time::Duration) -> Option<T> {
            self.recv()
        }
    }
}

pub use imp::*;
