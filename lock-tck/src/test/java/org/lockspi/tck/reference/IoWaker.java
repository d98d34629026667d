package org.lockspi.tck.reference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

/**
 * One wait of a waiter that blocks in I/O instead of parking, as a provider blocked in a socket read does: the
 * waiter selects on the reading end of a pipe, and the server writes a byte to wake it. While it waits its thread
 * is {@code RUNNABLE} in a native method of {@code sun.nio.ch}, not {@code WAITING}.
 */
final class IoWaker implements AutoCloseable {
    private final Pipe pipe;
    private final Selector selector;

    IoWaker() {
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
    void wake() {
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            // closed: the waiter has left
        }
    }

    /**
     * Blocks in {@link Selector#select(long)} until woken, the time is up or the thread is interrupted.
     *
     * @param nanos how long at most; 0 for no limit
     * @throws InterruptedException if the thread was interrupted (its flag is cleared)
     */
    void await(long nanos) throws InterruptedException {
        try {
            selector.select(nanos == 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
        } catch (IOException e) {
            throw new UncheckedIOException("wake-up pipe failed", e);
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
