package org.capsched;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A native handle that may be used from many threads and closed from any of them: calls hold
 * the read lock while they use the handle, close takes the write lock, so it waits for the
 * calls in flight, frees the handle once, and every later call throws IllegalStateException
 * instead of touching freed memory.
 */
abstract class NativeHandle implements AutoCloseable {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private long handle;
    private final String what;

    NativeHandle(long handle, String what) {
        this.handle = handle;
        this.what = what;
    }

    /** A native call on the live handle. */
    interface Call<T> {
        T apply(long handle);
    }

    final <T> T with(Call<T> call) {
        lock.readLock().lock();
        try {
            if (handle == 0) throw new IllegalStateException(what + " is closed");
            return call.apply(handle);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** A native call on the live handle that returns nothing. */
    final void run(java.util.function.LongConsumer call) {
        with(h -> {
            call.accept(h);
            return null;
        });
    }

    public final boolean isClosed() {
        lock.readLock().lock();
        try {
            return handle == 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    abstract void free(long handle);

    /** Frees the native object; idempotent. */
    @Override
    public final void close() {
        lock.writeLock().lock();
        try {
            if (handle != 0) {
                free(handle);
                handle = 0;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
