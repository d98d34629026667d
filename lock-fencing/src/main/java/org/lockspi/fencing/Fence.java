package org.lockspi.fencing;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-memory fence for a store the application wraps: per resource, the highest fencing token accepted, and a
 * write that runs only with a token at least that high.
 *
 * <pre>{@code
 * Fence fence = new Fence();                                      // one per store, shared by its writers
 * fence.write("reports/daily", lease.fencingToken(), () -> files.replace(path, report));   // or StaleTokenException
 * }</pre>
 *
 * <p>{@link #write} checks the token and runs the write as one step per resource: a holder whose token passed
 * holds the resource's local lock until its write returns, so a newer holder's write waits for it instead of being
 * overtaken by it, and once the newer token is accepted the older one is refused. Different resources do not wait
 * for each other. Equal tokens are accepted (one holder writes many times).
 *
 * <p>The fence lives in this JVM: put it where the writes are applied (the service in front of the store), not in
 * the lock holders. It keeps one entry per resource seen, for as long as it lives. Thread-safe.
 */
public final class Fence {
    /** One resource: the highest token accepted, guarded by its lock; writes run holding it. */
    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        long highest; // guarded by lock; meaningful once seen
        boolean seen; // guarded by lock
    }

    /** A write to the fenced store, run while the resource's fence is held. */
    @FunctionalInterface
    public interface Write<T, X extends Exception> {
        /**
         * @return what the write returns, handed back by {@link Fence#write}
         * @throws X what the write throws, handed on by {@link Fence#write}
         */
        T run() throws X;
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    private Entry entry(String resource) {
        return entries.computeIfAbsent(checkResource(resource), r -> new Entry());
    }

    static String checkResource(String resource) {
        Objects.requireNonNull(resource, "resource is null");
        if (resource.isEmpty()) {
            throw new IllegalArgumentException("resource is empty");
        }
        return resource;
    }

    /**
     * Accepts {@code token} for {@code resource} if no higher one was accepted, and remembers it.
     *
     * @param resource what is written to, e.g. {@code stock/1}
     * @param token    the writer's fencing token
     * @return true if accepted, false if a higher token was accepted before
     * @throws NullPointerException     if {@code resource} is null
     * @throws IllegalArgumentException if {@code resource} is empty
     */
    public boolean tryAdvance(String resource, long token) {
        Entry entry = entry(resource);
        entry.lock.lock();
        try {
            return advance(entry, token);
        } finally {
            entry.lock.unlock();
        }
    }

    /** Caller holds the entry's lock. */
    private static boolean advance(Entry entry, long token) {
        if (entry.seen && token < entry.highest) {
            return false;
        }
        entry.highest = token;
        entry.seen = true;
        return true;
    }

    /**
     * Runs {@code write} if {@code token} is accepted for {@code resource}; the check and the write are one step
     * for that resource (see the class comment). A write that throws has still advanced the fence: its token was a
     * current holder's.
     *
     * @param resource what is written to
     * @param token    the writer's fencing token
     * @param write    the write
     * @param <T>      what the write returns
     * @param <X>      what the write may throw
     * @return what the write returned
     * @throws StaleTokenException      if a higher token was accepted before; the write did not run
     * @throws X                        what the write threw
     * @throws NullPointerException     if {@code resource} or {@code write} is null
     * @throws IllegalArgumentException if {@code resource} is empty
     */
    public <T, X extends Exception> T write(String resource, long token, Write<T, X> write) throws X {
        Objects.requireNonNull(write, "write is null");
        Entry entry = entry(resource);
        entry.lock.lock();
        try {
            if (!advance(entry, token)) {
                throw new StaleTokenException(resource, token, entry.highest);
            }
            return write.run();
        } finally {
            entry.lock.unlock();
        }
    }

    /**
     * @param resource a resource
     * @return the highest token accepted for it, or empty if none was
     * @throws NullPointerException     if {@code resource} is null
     * @throws IllegalArgumentException if {@code resource} is empty
     */
    public OptionalLong highest(String resource) {
        Entry entry = entries.get(checkResource(resource));
        if (entry == null) {
            return OptionalLong.empty();
        }
        entry.lock.lock();
        try {
            return entry.seen ? OptionalLong.of(entry.highest) : OptionalLong.empty();
        } finally {
            entry.lock.unlock();
        }
    }
}
