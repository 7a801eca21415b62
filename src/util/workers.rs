//! A few worker threads that stay awake between calls: for calls that each last a fraction
//! of a millisecond (a batch step of a few thousand games), where waking a sleeping thread
//! costs as much as the work (about 50 µs a call on the project's virtual machine, against
//! 18 µs for a whole uniform sample of 4,096 games on one thread).
//!
//! A call hands every worker one part (by index) and plays part 0 on the calling thread;
//! it returns when every part is done. A worker spins for [`SPIN`] after its last part
//! (yielding its core between looks after the first 50 µs) before it sleeps. One call at a time: a call made while another runs (from another
//! thread) plays every part on its own thread.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle worker spins before it sleeps.
pub const SPIN: Duration = Duration::from_millis(2);

/// After this long idle a worker yields its core between looks (a thread with work to do,
/// the caller's own or another program's, goes first).
const YIELD_AFTER: Duration = Duration::from_micros(50);

/// The job of a call: the part's index to its work, lifetime erased (the call waits for
/// every worker before its borrow ends).
type Job = *const (dyn Fn(usize) + Sync + 'static);

/// What the caller and the workers share.
struct Shared {
    /// Bumped by each call: a worker that sees it change takes its part.
    generation: AtomicU64,
    /// The call's job, written before `generation` is bumped.
    job: UnsafeCell<Option<Job>>,
    /// Workers done with this call's part.
    done: AtomicUsize,
    /// A worker's part panicked.
    panicked: AtomicBool,
    /// Workers asleep (or about to be) on `wake`.
    sleeping: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
    quit: AtomicBool,
}

// SAFETY: `job` is written only by the caller holding `Workers::call`, before it bumps
// `generation` (release), and read by the workers after they see the bump (acquire); the
// caller does not write it again until every worker has reported `done`.
unsafe impl Sync for Shared {}
// SAFETY: as above; the raw pointer is only dereferenced while the call that set it waits.
unsafe impl Send for Shared {}

/// `count - 1` worker threads beside the calling thread.
pub struct Workers {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    /// One call at a time.
    call: Mutex<()>,
    /// The process that started the workers (a forked child has none of them: its calls
    /// run on the calling thread alone).
    pid: u32,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({} threads)", self.handles.len() + 1)
    }
}

impl Workers {
    /// `count` threads in all: the caller and `count - 1` workers (none for 0 or 1).
    pub fn new(count: usize) -> std::io::Result<Workers> {
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            job: UnsafeCell::new(None),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            sleeping: AtomicUsize::new(0),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            quit: AtomicBool::new(false),
        });
        let mut handles = Vec::new();
        for index in 1..count.max(1) {
            let theirs = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("shashki-batch-{index}"))
                .spawn(move || work_loop(&theirs, index));
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    let workers = Workers {
                        shared,
                        handles,
                        call: Mutex::new(()),
                        pid: std::process::id(),
                    };
                    drop(workers); // stops the ones started
                    return Err(e);
                }
            }
        }
        Ok(Workers {
            shared,
            handles,
            call: Mutex::new(()),
            pid: std::process::id(),
        })
    }

    /// The threads of a call: the workers and the caller.
    pub fn count(&self) -> usize {
        self.handles.len() + 1
    }

    /// `work(i)` for every part `i` in `0..count()`: part 0 on the calling thread, part
    /// `i` on worker `i`. Returns when all are done; a part's panic is raised here then.
    pub fn run(&self, work: &(dyn Fn(usize) + Sync)) {
        let parts = self.count();
        if self.pid != std::process::id() {
            (0..parts).for_each(work); // a forked child: the workers stayed in the parent
            return;
        }
        let Ok(_call) = self.call.try_lock() else {
            (0..parts).for_each(work); // another call is running: this one alone
            return;
        };
        if parts == 1 {
            work(0);
            return;
        }
        let shared = &*self.shared;
        // SAFETY: the lifetime is erased only for the workers' sake; `Wait` below keeps this
        // call (and so the borrow of `work`) alive until every worker has finished with it.
        let job: Job = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), Job>(work) };
        // SAFETY: no worker reads `job` now (all reported `done` for the last call).
        unsafe { *shared.job.get() = Some(job) };
        shared.done.store(0, Ordering::Relaxed);
        shared.generation.fetch_add(1, Ordering::SeqCst);
        if shared.sleeping.load(Ordering::SeqCst) > 0 {
            let _guard = shared.sleep.lock().unwrap_or_else(|e| e.into_inner());
            shared.wake.notify_all();
        }
        /// Waits for every worker's part, even while the caller's own part unwinds.
        struct Wait<'a>(&'a Shared, usize);
        impl Drop for Wait<'_> {
            fn drop(&mut self) {
                while self.0.done.load(Ordering::Acquire) < self.1 {
                    std::hint::spin_loop();
                }
            }
        }
        let wait = Wait(shared, parts - 1);
        work(0);
        drop(wait);
        if shared.panicked.swap(false, Ordering::Relaxed) {
            panic!("a batch worker's part panicked");
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if self.pid != std::process::id() {
            return; // a forked child: nothing to stop or join
        }
        self.shared.quit.store(true, Ordering::SeqCst);
        {
            let _guard = self.shared.sleep.lock().unwrap_or_else(|e| e.into_inner());
            self.shared.wake.notify_all();
        }
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

/// A worker: wait for a call (spinning, then asleep), play its part, report, again.
fn work_loop(shared: &Shared, index: usize) {
    // The generation the workers were made at (not a load: a call made before this thread
    // first ran must still be seen as new).
    let mut seen = 0;
    loop {
        let mut idle_since = Instant::now();
        let mut spins = 0u32;
        loop {
            if shared.quit.load(Ordering::Relaxed) {
                return;
            }
            let now = shared.generation.load(Ordering::Acquire);
            if now != seen {
                seen = now;
                break;
            }
            spins = spins.wrapping_add(1);
            if spins % 256 != 0 {
                std::hint::spin_loop();
                continue;
            }
            let idle = idle_since.elapsed();
            if idle < SPIN {
                if idle > YIELD_AFTER {
                    std::thread::yield_now(); // a thread with work to do goes first
                }
                continue;
            }
            let mut guard = shared.sleep.lock().unwrap_or_else(|e| e.into_inner());
            shared.sleeping.fetch_add(1, Ordering::SeqCst);
            while shared.generation.load(Ordering::SeqCst) == seen
                && !shared.quit.load(Ordering::SeqCst)
            {
                guard = shared.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            shared.sleeping.fetch_sub(1, Ordering::SeqCst);
            drop(guard);
            idle_since = Instant::now();
        }
        // SAFETY: the call that bumped `generation` wrote `job` before it and waits for this
        // worker's `done` before its borrow ends.
        if let Some(job) = unsafe { *shared.job.get() } {
            // SAFETY: as above: the job outlives this use.
            let work = unsafe { &*job };
            if catch_unwind(AssertUnwindSafe(|| work(index))).is_err() {
                shared.panicked.store(true, Ordering::Relaxed);
            }
        }
        shared.done.fetch_add(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_on_each_call() {
        let workers = Workers::new(3).unwrap();
        for _ in 0..1000 {
            let counts: Vec<AtomicUsize> = (0..3).map(|_| AtomicUsize::new(0)).collect();
            workers.run(&|i| {
                counts[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn a_sleeping_worker_wakes_for_the_next_call() {
        let workers = Workers::new(2).unwrap();
        let total = AtomicUsize::new(0);
        workers.run(&|i| {
            total.fetch_add(i + 1, Ordering::Relaxed);
        });
        std::thread::sleep(SPIN * 3);
        workers.run(&|i| {
            total.fetch_add(i + 1, Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), 6);
    }

    #[test]
    fn a_panicking_part_is_raised_after_every_part_is_done() {
        let workers = Workers::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            workers.run(&|i| {
                if i == 1 {
                    panic!("part 1");
                }
                finished.fetch_add(1, Ordering::Relaxed);
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(finished.load(Ordering::Relaxed), 1);
        // The workers still serve calls after it.
        let count = AtomicUsize::new(0);
        workers.run(&|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 2);
    }
}
