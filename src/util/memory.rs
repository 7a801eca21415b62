//! Memory for the hash tables (search and perft): allocated fallibly, zeroed, with its pages
//! touched before use.
//!
//! A table larger than the memory the machine has free is refused with a
//! [`TableAllocError`] instead of aborting the process (or being killed later by the
//! kernel's out-of-memory killer when its pages are first written). Every page is touched
//! when the table is made, so a search does not pay for page faults mid-search (a time
//! limit holds from the first search of a fresh engine).

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// A hash table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub requested_mb: usize,
    /// The memory the machine reported free, in MiB, when that is known.
    pub available_mb: Option<usize>,
}

impl fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate a {} MB hash table", self.requested_mb)?;
        match self.available_mb {
            Some(free) => write!(f, " ({free} MB of memory available)"),
            None => f.write_str(" (out of memory)"),
        }
    }
}

impl std::error::Error for TableAllocError {}

/// One table slot: two 64-bit words.
pub(crate) type Slot = [AtomicU64; 2];

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
const PAGE: usize = 4096;
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const HUGE_PAGE: usize = 2 << 20;

/// Memory the system can give without swapping, in bytes, if it can be told.
pub fn available_memory() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb.saturating_mul(1024))
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        // SAFETY: sysconf has no memory effects.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            Some((pages as usize).saturating_mul(size as usize))
        } else {
            None
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// `len` zeroed slots, 64-byte aligned (2 MiB aligned with huge pages on Linux).
pub(crate) struct Slots {
    ptr: NonNull<Slot>,
    len: usize,
    mapped: Option<(*mut libc::c_void, usize)>,
    layout: Layout,
}

// SAFETY: the slots are atomics; the memory is owned and freed once, in Drop.
unsafe impl Send for Slots {}
unsafe impl Sync for Slots {}

impl Slots {
    /// Allocate `len` slots (at least one), refusing more than the free memory.
    pub(crate) fn new(len: usize) -> Result<Slots, TableAllocError> {
        let len = len.max(1);
        let bytes = len.checked_mul(SLOT_BYTES);
        let available = available_memory();
        let refuse = || TableAllocError {
            requested_mb: bytes.unwrap_or(usize::MAX) >> 20,
            available_mb: available.map(|a| a >> 20),
        };
        let bytes = bytes.ok_or_else(refuse)?;
        if available.is_some_and(|free| bytes > free) {
            return Err(refuse());
        }
        let layout = Layout::from_size_align(bytes, 64).map_err(|_| refuse())?;
        let slots = Self::map(len, bytes, layout).or_else(|| {
            // SAFETY: the layout has a non-zero size; a zeroed AtomicU64 is a valid 0.
            let raw = unsafe { alloc_zeroed(layout) };
            NonNull::new(raw as *mut Slot).map(|ptr| Slots {
                ptr,
                len,
                mapped: None,
                layout,
            })
        });
        let slots = slots.ok_or_else(refuse)?;
        slots.touch_pages();
        Ok(slots)
    }

    /// An anonymous mapping with transparent huge pages asked for before any page is
    /// touched (a large table probed at random otherwise spends its time in TLB misses).
    #[cfg(target_os = "linux")]
    fn map(len: usize, bytes: usize, layout: Layout) -> Option<Slots> {
        if bytes < HUGE_PAGE {
            return None;
        }
        let total = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping; checked for failure below.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let aligned = ((raw as usize + HUGE_PAGE - 1) & !(HUGE_PAGE - 1)) as *mut libc::c_void;
        // SAFETY: advice on memory this struct owns; failure only loses the hint.
        unsafe {
            libc::madvise(aligned, bytes, libc::MADV_HUGEPAGE);
        }
        Self::from_mapping(raw, total, aligned, len, layout)
    }

    /// Slots at `start` inside the mapping `raw` of `total` bytes (unmapped when dropped, or
    /// now if `start` is null).
    #[cfg(unix)]
    fn from_mapping(
        raw: *mut libc::c_void,
        total: usize,
        start: *mut libc::c_void,
        len: usize,
        layout: Layout,
    ) -> Option<Slots> {
        match NonNull::new(start as *mut Slot) {
            Some(ptr) => Some(Slots {
                ptr,
                len,
                mapped: Some((raw, total)),
                layout,
            }),
            None => {
                // SAFETY: the caller's mapping, unmapped once.
                unsafe { libc::munmap(raw, total) };
                None
            }
        }
    }

    /// `len` slots in the file at `path`, mapped shared: every process that maps the same
    /// file (of the same length) reads and writes the same slots, as threads of one process
    /// do. The file is made (zero-filled, so empty) if it does not exist; a file of another
    /// length is refused. Meant for a file in memory (`/dev/shm` on Linux); the caller
    /// removes it when done (the mapping stays valid until dropped).
    #[cfg(unix)]
    pub(crate) fn shared(path: &std::path::Path, len: usize) -> std::io::Result<Slots> {
        use std::os::unix::io::AsRawFd;
        let len = len.max(1);
        let bytes = len
            .checked_mul(SLOT_BYTES)
            .ok_or_else(|| std::io::Error::other("table too large"))?;
        if available_memory().is_some_and(|free| bytes > free) {
            return Err(std::io::Error::other(format!(
                "a {} MB table is more than the free memory",
                bytes >> 20
            )));
        }
        let layout = Layout::from_size_align(bytes, 64).map_err(std::io::Error::other)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let have = file.metadata()?.len();
        if have == 0 {
            // Several processes may do this at once: the same length, still zero-filled.
            file.set_len(bytes as u64)?;
        } else if have != bytes as u64 {
            return Err(std::io::Error::other(format!(
                "{} holds a table of {have} bytes, not {bytes}",
                path.display()
            )));
        }
        // SAFETY: a shared mapping of a file this process opened for reading and writing,
        // checked for failure below; the slots are atomics, so concurrent writers (threads
        // or other processes) are defined behaviour.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        #[cfg(target_os = "linux")]
        // SAFETY: advice on the mapping just made; failure only loses the hint.
        unsafe {
            libc::madvise(raw, bytes, libc::MADV_HUGEPAGE);
        }
        Self::from_mapping(raw, bytes, raw, len, layout)
            .ok_or_else(|| std::io::Error::other("mmap returned a null pointer"))
    }

    #[cfg(not(target_os = "linux"))]
    fn map(_len: usize, _bytes: usize, _layout: Layout) -> Option<Slots> {
        None
    }

    /// Write one word of every page, so the system maps them all now.
    fn touch_pages(&self) {
        for slot in self.iter().step_by(PAGE / SLOT_BYTES) {
            slot[0].store(0, Ordering::Relaxed);
        }
    }

    /// Zero every slot.
    pub(crate) fn clear(&self) {
        for s in self.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }
}

impl std::ops::Deref for Slots {
    type Target = [Slot];
    fn deref(&self) -> &Self::Target {
        // SAFETY: ptr points to `len` zero-initialised slots owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        match self.mapped {
            // SAFETY: the mapping made in Slots::map, unmapped once.
            Some((raw, total)) => unsafe {
                libc::munmap(raw, total);
            },
            // SAFETY: allocated in Slots::new with this layout.
            None => unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) },
        }
    }
}

/// The number of slots of a table of about `mb` MiB: the largest power of two that fits
/// (at least one).
pub(crate) fn slots_for_mb(mb: usize) -> usize {
    let wanted = (mb.min(1 << 20) << 20) / SLOT_BYTES;
    if wanted <= 1 {
        1
    } else if wanted.is_power_of_two() {
        wanted
    } else {
        wanted.next_power_of_two() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_larger_than_memory_is_refused() {
        let too_big = usize::MAX / SLOT_BYTES / 2;
        let err = Slots::new(too_big).err();
        assert!(err.is_some());
        let text = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(text.contains("cannot allocate"), "{text}");
    }

    #[test]
    fn tables_are_zeroed() {
        let slots = Slots::new(slots_for_mb(3)).expect("3 MB");
        assert_eq!(slots.len(), slots_for_mb(3));
        assert!(slots
            .iter()
            .all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0));
        assert_eq!(slots_for_mb(0), 1);
        assert_eq!(slots_for_mb(1), (1 << 20) / 16);
        assert_eq!(slots_for_mb(3), (2 << 20) / 16);
    }

    #[cfg(unix)]
    #[test]
    fn shared_slots_are_seen_by_every_mapping() {
        let path = std::env::temp_dir().join(format!("shashki-slots-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let a = Slots::shared(&path, 1024).expect("map");
        let b = Slots::shared(&path, 1024).expect("map again");
        assert!(a.iter().all(|s| s[0].load(Ordering::Relaxed) == 0));
        a[77][1].store(12345, Ordering::Relaxed);
        assert_eq!(b[77][1].load(Ordering::Relaxed), 12345);
        assert!(
            Slots::shared(&path, 2048).is_err(),
            "another length is refused"
        );
        drop(a);
        drop(b);
        let _ = std::fs::remove_file(&path);
    }
}
