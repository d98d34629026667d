package org.lockspi.bench.internal;

/**
 * One thing that takes a lock: a provider through lock-api, a plain library used directly (an anchor), or the
 * bare server calls of one lock cycle (a floor).
 */
public interface Variant {

    enum Backend { ZOOKEEPER, REDIS, JDBC }

    enum Role { FLOOR, ANCHOR, PROVIDER }

    /** @return the name in tables, e.g. {@code zookeeper-raw} or {@code curator InterProcessMutex} */
    String name();

    Backend backend();

    Role role();

    /** @return whether several threads or clients may contend on one lock (floors: no, they only cycle) */
    default boolean contends() {
        return role() != Role.FLOOR;
    }

    /**
     * Opens one client (one session or connection pool).
     *
     * @param scope a short name that keeps this variant's locks apart from the others'
     */
    Client open(String scope) throws Exception;

    /** One client. */
    interface Client extends AutoCloseable {
        /**
         * @param lockName the lock's name
         * @return a lock object; providers return the same object for the same name, the plain libraries a new one
         */
        Locker locker(String lockName) throws Exception;

        /**
         * @param lockName the lock's name
         * @return a non-reentrant lock object (any thread may release; a service's waiters may queue locally)
         * @throws UnsupportedOperationException if this variant has none (the anchors and floors)
         */
        default Locker nonReentrantLocker(String lockName) throws Exception {
            throw new UnsupportedOperationException("no non-reentrant mutex");
        }

        /** @return the ZooKeeper path the lock's nodes live under, for counting waiters; null for Redis and JDBC */
        String zkLockPath(String lockName);

        @Override
        void close();
    }

    /** A lock object. */
    interface Locker {
        /** Acquires, waiting as long as it takes. */
        Held lock() throws Exception;
    }

    /** One acquisition, released by the thread that acquired it. */
    interface Held {
        void release() throws Exception;
    }
}
