//! The C-visible value types and the helpers that read C arguments safely.

use std::ffi::c_char;

use super::status::{FfiError, FfiResult};
use crate::records::ExecutionType;
use crate::resource::Resource;

/// A borrowed UTF-8 string: pointer and length in bytes (no terminator needed). A NULL
/// pointer with length 0 is the empty string.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct capsched_str {
    pub ptr: *const c_char,
    pub len: usize,
}

impl capsched_str {
    /// The empty string (NULL, 0).
    pub const EMPTY: capsched_str = capsched_str {
        ptr: std::ptr::null(),
        len: 0,
    };
}

/// Memory in MB and virtual cores.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct capsched_resource {
    pub memory_mb: i64,
    pub vcores: i64,
}

impl From<capsched_resource> for Resource {
    fn from(r: capsched_resource) -> Self {
        Resource::new(r.memory_mb, r.vcores)
    }
}

impl From<Resource> for capsched_resource {
    fn from(r: Resource) -> Self {
        capsched_resource {
            memory_mb: r.memory_mb(),
            vcores: r.vcores(),
        }
    }
}

/// `ExecutionType`.
pub const CAPSCHED_GUARANTEED: i32 = 0;
pub const CAPSCHED_OPPORTUNISTIC: i32 = 1;

pub(crate) fn execution_type(v: i32) -> FfiResult<ExecutionType> {
    match v {
        CAPSCHED_GUARANTEED => Ok(ExecutionType::Guaranteed),
        CAPSCHED_OPPORTUNISTIC => Ok(ExecutionType::Opportunistic),
        other => Err(FfiError::invalid(format!(
            "unknown execution type {other} (CAPSCHED_GUARANTEED or CAPSCHED_OPPORTUNISTIC)"
        ))),
    }
}

pub(crate) fn execution_code(t: ExecutionType) -> i32 {
    match t {
        ExecutionType::Guaranteed => CAPSCHED_GUARANTEED,
        ExecutionType::Opportunistic => CAPSCHED_OPPORTUNISTIC,
    }
}

/// Reads a `capsched_str` as UTF-8.
///
/// # Safety
/// `s.ptr` must point to `s.len` readable bytes (or be NULL with `s.len == 0`).
pub(crate) unsafe fn read_str<'a>(s: capsched_str, what: &str) -> FfiResult<&'a str> {
    if s.ptr.is_null() {
        return if s.len == 0 {
            Ok("")
        } else {
            Err(FfiError::null(what))
        };
    }
    check_count::<u8>(s.len, what)?;
    let bytes = std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len);
    std::str::from_utf8(bytes).map_err(|e| {
        FfiError(
            super::status::capsched_status::CAPSCHED_ERR_INVALID_UTF8,
            format!("{what} is not UTF-8: {e}"),
        )
    })
}

/// Reads a `capsched_str` whose absence means something else than the empty string, as
/// YARN's optional strings do (a node-label expression left unset takes a default; an empty
/// one names the default partition): a NULL `ptr` with `len` 0 is `None`, any other pointer
/// (of length 0 too) the string.
///
/// # Safety
/// As [`read_str`].
pub(crate) unsafe fn read_opt_str<'a>(s: capsched_str, what: &str) -> FfiResult<Option<&'a str>> {
    if s.ptr.is_null() && s.len == 0 {
        return Ok(None);
    }
    read_str(s, what).map(Some)
}

/// Reads a C array (`ptr`, `count`); NULL is the empty array only when `count` is 0.
///
/// # Safety
/// `ptr` must point to `count` readable values of `T` (or be NULL with `count == 0`).
pub(crate) unsafe fn read_slice<'a, T>(
    ptr: *const T,
    count: usize,
    what: &str,
) -> FfiResult<&'a [T]> {
    if ptr.is_null() {
        return if count == 0 {
            Ok(&[])
        } else {
            Err(FfiError::null(what))
        };
    }
    check_count::<T>(count, what)?;
    Ok(std::slice::from_raw_parts(ptr, count))
}

/// Issue 36.18: `count` elements of `T` must fit in what one allocation may span
/// (`isize::MAX` bytes), which `slice::from_raw_parts` requires; a count past it (SIZE_MAX)
/// cannot describe a real array, and is refused before any slice or vector is formed.
pub(crate) fn check_count<T>(count: usize, what: &str) -> FfiResult {
    let fits = count
        .checked_mul(std::mem::size_of::<T>().max(1))
        .is_some_and(|bytes| bytes <= isize::MAX as usize);
    if fits {
        Ok(())
    } else {
        Err(FfiError::invalid(format!(
            "{what}: a count of {count} is more elements than any array can hold"
        )))
    }
}

/// Checks a growable input struct's `struct_size` against the size of its first version.
pub(crate) fn check_struct_size(size: u32, first_version: usize, what: &str) -> FfiResult {
    if (size as usize) < first_version {
        return Err(FfiError(
            super::status::capsched_status::CAPSCHED_ERR_STRUCT_SIZE,
            format!("{what}.struct_size is {size}, at least {first_version} expected (set it to sizeof({what}))"),
        ));
    }
    Ok(())
}

/// Reads a growable input struct (its first field is `struct_size`): checks the size, then
/// copies the fields the host's version of the struct has over `defaults`, so a host built
/// against an earlier header (a smaller struct) gets the defaults for the fields it lacks.
///
/// # Safety
/// `p` NULL or valid for reading its `struct_size` bytes.
pub(crate) unsafe fn read_growable<T: Copy>(
    p: *const T,
    first_version: usize,
    mut defaults: T,
    arg: &str,
    what: &str,
) -> FfiResult<T> {
    if p.is_null() {
        return Err(FfiError::null(arg));
    }
    let size = p.cast::<u32>().read();
    check_struct_size(size, first_version, what)?;
    let n = (size as usize).min(std::mem::size_of::<T>());
    std::ptr::copy_nonoverlapping(p.cast::<u8>(), (&mut defaults as *mut T).cast::<u8>(), n);
    Ok(defaults)
}

/// Writes an out-parameter, or reports it NULL.
///
/// # Safety
/// `out` must be NULL or valid for writing one `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T, what: &str) -> FfiResult {
    if out.is_null() {
        return Err(FfiError::null(what));
    }
    out.write(value);
    Ok(())
}

/// Checks that an out-parameter is not NULL before any work is done.
pub(crate) fn need_out<T>(out: *mut T, what: &str) -> FfiResult {
    if out.is_null() {
        Err(FfiError::null(what))
    } else {
        Ok(())
    }
}

/// A library-owned array handed to C: leaked as a boxed slice, freed with [`free_array`].
pub(crate) fn give_array<T>(v: Vec<T>) -> (*mut T, usize) {
    if v.is_empty() {
        return (std::ptr::null_mut(), 0);
    }
    let b = v.into_boxed_slice();
    let n = b.len();
    (Box::into_raw(b).cast::<T>(), n)
}

/// Frees an array made by [`give_array`].
///
/// # Safety
/// `(ptr, len)` must come from `give_array` and not have been freed.
pub(crate) unsafe fn free_array<T>(ptr: *mut T, len: usize) {
    if !ptr.is_null() {
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)));
    }
}

/// A library-owned string handed to C (NUL-terminated too, for convenience).
#[repr(C)]
#[derive(Debug)]
pub struct capsched_owned_str {
    pub ptr: *mut c_char,
    pub len: usize,
}

impl Default for capsched_owned_str {
    fn default() -> Self {
        capsched_owned_str {
            ptr: std::ptr::null_mut(),
            len: 0,
        }
    }
}

pub(crate) fn give_string(s: &str) -> capsched_owned_str {
    let c = std::ffi::CString::new(s.replace('\0', "\\0")).unwrap_or_default();
    let len = c.as_bytes().len();
    capsched_owned_str {
        ptr: c.into_raw(),
        len,
    }
}

/// Frees a string the library handed out (NULL is fine).
///
/// # Safety
/// `s.ptr` must come from this library and not have been freed.
#[no_mangle]
pub unsafe extern "C" fn capsched_string_free(s: capsched_owned_str) {
    if !s.ptr.is_null() {
        drop(std::ffi::CString::from_raw(s.ptr));
    }
}
