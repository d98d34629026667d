package org.lockspi.inmemory;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.lockspi.inmemory.internal.Spaces;
import org.lockspi.spi.LockUri;

/**
 * What a test needs besides the lock API: a space of its own, and a lease lost on purpose.
 *
 * <pre>{@code
 * String uri = InMemoryLocks.newSpace();                 // mem://space-17-k3v9q, used by no other test
 * try (LockService app = Locks.open(uri); LockService other = Locks.open(uri)) {
 *     Lease lease = app.mutex("jobs/report").acquire(Duration.ofSeconds(1));
 *     InMemoryLocks.expire(uri, "jobs/report");          // as if the session had expired
 *     assertEquals(LeaseState.LOST, lease.state());      // listeners were told
 * }
 * }</pre>
 */
public final class InMemoryLocks {
    private static final AtomicLong SPACES = new AtomicLong();
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);

    private InMemoryLocks() {
    }

    /**
     * A URI of a space that no other caller of this method gets: {@code mem://space-<n>-<random>}. The space
     * begins with the first service opened on it and ends when the last one closes.
     *
     * @return the URI, without parameters
     */
    public static String newSpace() {
        return "mem://space-" + SPACES.incrementAndGet() + "-" + RUN;
    }

    /**
     * Takes a lock from its holders, as a server does when their sessions or leases expire: every lease that holds
     * it turns {@code LOST} (its listeners are told), and the lock passes to its next waiters, with a greater
     * fencing token. The holders' services stay open; their later release of the lost lease does nothing.
     *
     * @param uri      the URI the services were opened with, {@code mem://<space>[/<path>]} (parameters ignored)
     * @param lockName the lock's name, as given to the service
     * @return how many leases were taken: 0 if nobody held the lock or no service uses the space
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code uri} is not a {@code mem://} URI of a space
     */
    public static int expire(String uri, String lockName) {
        return Spaces.expire(LockUri.parse(uri), lockName);
    }
}
