package org.lockspi.tck.reference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.inmemory.internal.Waiter;
import org.lockspi.spi.Deadline;

/**
 * The wait of a waiter that blocks in I/O instead of parking, as a provider blocked in a socket read does: the
 * waiter selects on the reading end of a pipe, and the space writes a byte to wake it. While it waits its thread
 * is {@code RUNNABLE} in a native method of {@code sun.nio.ch}, not {@code WAITING}.
 */
final class IoWaker implements Waiter {
    private final ReentrantLock spaceLock;
    private final Pipe pipe;
    private final Selector selector;

    IoWaker(ReentrantLock spaceLock) {
        this.spaceLock = spaceLock;
        try {
            pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(false);
            selector = Selector.open();
            pipe.source().register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a wake-up pipe", e);
        }
    }

    /** Wakes the waiter; a full or closed pipe means it is awake or gone already. */
    @Override
    public void wake() {
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            // closed: the waiter has left
        }
    }

    /**
     * Blocks in {@link Selector#select(long)}, without the space's lock, until woken, the time is up or the thread
     * is interrupted; holds the lock again on return.
     *
     * @throws InterruptedException if the thread was interrupted (its flag is cleared)
     */
    @Override
    public void await(Deadline deadline) throws InterruptedException {
        long nanos = deadline.isInfinite() ? 0 : Math.max(1, deadline.remainingNanos());
        spaceLock.unlock();
        try {
            selector.select(nanos == 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
            selector.selectedKeys().clear();
            pipe.source().read(ByteBuffer.allocate(16));
        } catch (IOException e) {
            throw new UncheckedIOException("wake-up pipe failed", e);
        } finally {
            spaceLock.lock();
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting in I/O");
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
            pipe.source().close();
            pipe.sink().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close a wake-up pipe", e);
        }
    }
}
