package org.lockspi.tck.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.Lease;
import org.lockspi.LeaseState;

/**
 * Asks leases for their {@link Lease#state() state} every {@value #STEP_MS} ms on a thread of its own, as a careful
 * holder checks before each use, and notes when each was first seen {@code UNCERTAIN}, {@code LOST} or otherwise
 * not {@code HELD} ({@link System#nanoTime()}); every time a lease is seen to move between HELD and not HELD it
 * calls the {@link Changed} callback (the fault contracts close or open its interval in the
 * {@link FencedRegister} there).
 *
 * <p>It also notices when it was not scheduled for longer than the jump threshold (the process was stopped, or
 * the machine slept): the first state it sees after the longest such gap, before any other check, is kept as
 * {@link #afterJump()}.
 *
 * <p>Thread-safe; {@link #close()} ends the thread, idempotent.
 */
public final class HoldWatch implements AutoCloseable {
    static final long STEP_MS = 2;

    /** Told when a watched lease is seen not HELD after HELD, or HELD after not HELD. */
    @FunctionalInterface
    public interface Changed {
        /**
         * @param client the name given to {@link #watch}
         * @param token  the token given to {@link #watch}
         * @param state  the state it was seen in
         */
        void changed(String client, long token, LeaseState state);
    }

    /** What is known of one watched lease; times are {@code nanoTime}, 0 while not seen. */
    public static final class Seen {
        final String client;
        final long token;
        final Lease lease;
        volatile long uncertainAt;
        volatile long lostAt;
        volatile long notHeldAt;
        boolean held = true; // watch thread only

        Seen(String client, long token, Lease lease) {
            this.client = client;
            this.token = token;
            this.lease = lease;
        }

        /** @return when the lease was first seen UNCERTAIN, 0 if never */
        public long uncertainAt() {
            return uncertainAt;
        }

        /** @return when the lease was first seen LOST, 0 if never */
        public long lostAt() {
            return lostAt;
        }

        /** @return when the lease was first seen not HELD, 0 if never */
        public long notHeldAt() {
            return notHeldAt;
        }
    }

    private final Changed changed;
    private final long jumpNanos;
    private final Map<Lease, Seen> watched = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile String afterJump;
    private long longestGap; // watch thread only
    private volatile boolean stop;

    /**
     * @param changed told when a lease is seen to move between HELD and not HELD
     * @param jumpMs  a gap between two checks longer than this counts as a jump
     */
    public HoldWatch(Changed changed, long jumpMs) {
        this.changed = changed;
        this.jumpNanos = jumpMs * 1_000_000;
        thread = new Thread(this::run, "lockspi-tck-hold-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Watches a lease that is HELD now.
     *
     * @param client a name for the holder
     * @param token  its token
     * @param lease  the lease
     * @return what will be known of it
     */
    public Seen watch(String client, long token, Lease lease) {
        Seen seen = new Seen(client, token, lease);
        watched.put(lease, seen);
        return seen;
    }

    /**
     * @return {@code "<gap ms> <state>"}: the longest gap so far over the jump threshold and the state of the
     *         first lease checked after it, or null if there was no such gap
     */
    public String afterJump() {
        return afterJump;
    }

    private void run() {
        long last = System.nanoTime();
        while (!stop) {
            long now = System.nanoTime();
            long gap = now - last;
            boolean jumped = gap > jumpNanos && gap > longestGap;
            if (jumped) {
                longestGap = gap;
            }
            last = now;
            List<Seen> all = new ArrayList<>(watched.values());
            for (Seen seen : all) {
                LeaseState state = seen.lease.state();
                long at = System.nanoTime();
                if (jumped) {
                    afterJump = gap / 1_000_000 + " " + state;
                    jumped = false;
                }
                if (state == LeaseState.UNCERTAIN && seen.uncertainAt == 0) {
                    seen.uncertainAt = at;
                }
                if (state == LeaseState.LOST && seen.lostAt == 0) {
                    seen.lostAt = at;
                }
                if (state != LeaseState.HELD && seen.notHeldAt == 0) {
                    seen.notHeldAt = at;
                }
                if (seen.held != (state == LeaseState.HELD)) {
                    seen.held = state == LeaseState.HELD;
                    changed.changed(seen.client, seen.token, state);
                }
                // a lease that ended stays watched: a pause that struck between this loop's start and its check
                // has its jump taken by the next loop, which must still find a lease to report after it
            }
            try {
                Thread.sleep(STEP_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
