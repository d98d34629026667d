package org.lockspi.zookeeper.recipe.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The last confirmed contact of one ZooKeeper client with its session, and the heartbeat that keeps it fresh
 * while leases are held; written once for every ZooKeeper provider (the recipe's and Curator's).
 *
 * <p><b>What is confirmed.</b> {@link #confirmed(long)} takes the {@link System#nanoTime()} read <em>before</em>
 * a request of the current session was sent, once it was answered successfully: the server heard from the
 * session no earlier than that, so it does not expire the session before that instant plus the session timeout.
 * From it: {@link #confirmedUntilNanos()} = last sent + {@code uncertainAfter} (then the lease is UNCERTAIN) and
 * {@link #validUntilNanos()} = last sent + negotiated session timeout × (1 - {@value #DRIFT_MARGIN}) (then
 * LOST: another client may hold the lock).
 *
 * <p><b>Heartbeat.</b> One thread per client sends the probe (a cheap read such as {@code exists} on the root)
 * every {@code uncertainAfter / 2} while {@code active} says leases are held, and at once after
 * {@link #wakeUp()} (a reconnection); it is joined by {@link #close()}. After a probe that confirms anew once the
 * previous confirmation had run out, {@code onRecovered} runs (the backend tells the engine).
 *
 * <p>Thread-safe; the getters read one volatile field.
 */
public final class ZkContact implements AutoCloseable {
    /** The share of the session timeout kept back for clock drift and scheduling: {@value}. */
    public static final double DRIFT_MARGIN = 0.1;
    /** The share of the negotiated session timeout a lease stays valid after its last confirmation: {@value}. */
    public static final String DRIFT_MARGIN_TEXT = "90 %";
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** How far in the past "never confirmed" lies (2^62 ns, 146 years: far, yet safe from overflow). */
    private static final long NEVER = 1L << 62;

    /** A cheap request of the current session; returns normally only if the server answered it successfully. */
    @FunctionalInterface
    public interface Probe {
        /** @throws Exception any failure: no confirmation then */
        void run() throws Exception;
    }

    private final long uncertainAfterNanos;
    private final IntSupplier sessionTimeoutMillis;
    private final Probe probe;
    private final BooleanSupplier active;
    private final Runnable onRecovered;
    private final Thread thread;
    private final ReentrantLock signal = new ReentrantLock();
    private final Condition signalled = signal.newCondition();
    private static final VarHandle LAST_SENT;

    static {
        try {
            LAST_SENT = MethodHandles.lookup().findVarHandle(ZkContact.class, "lastSent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private volatile long lastSent;
    private boolean wake;    // guarded by signal
    private boolean closed;  // guarded by signal

    /**
     * Starts the heartbeat thread.
     *
     * @param name                 what the thread's name says (the server address), never credentials
     * @param uncertainAfter       the confirmation threshold, {@code 0 < uncertainAfter}
     * @param sessionTimeoutMillis the negotiated session timeout now, {@code <= 0} if not known yet
     * @param fallbackSession      the session timeout asked for, used while the negotiated one is unknown
     * @param probe                the cheap request
     * @param active               whether leases are held (no probes otherwise)
     * @param onRecovered          runs after a probe confirmed anew once the confirmation had run out; never blocks
     */
    public ZkContact(String name, Duration uncertainAfter, IntSupplier sessionTimeoutMillis, Duration fallbackSession,
                     Probe probe, BooleanSupplier active, Runnable onRecovered) {
        this.uncertainAfterNanos = uncertainAfter.toNanos();
        if (uncertainAfterNanos <= 0) {
            throw new IllegalArgumentException("uncertainAfter <= 0: " + uncertainAfter);
        }
        long fallback = fallbackSession.toMillis();
        this.sessionTimeoutMillis = () -> {
            int negotiated = sessionTimeoutMillis.getAsInt();
            return negotiated > 0 ? negotiated : (int) Math.min(Integer.MAX_VALUE, fallback);
        };
        this.probe = Objects.requireNonNull(probe, "probe");
        this.active = Objects.requireNonNull(active, "active");
        this.onRecovered = Objects.requireNonNull(onRecovered, "onRecovered");
        this.lastSent = System.nanoTime() - NEVER; // nothing confirmed yet: each acquisition confirms its own
        this.thread = new Thread(this::beat, "lockspi-zk-heartbeat-" + THREADS.incrementAndGet() + "-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Records a confirmed contact.
     *
     * @param sentNanos {@link System#nanoTime()} read before the answered request was sent
     */
    public void confirmed(long sentNanos) {
        // every acquisition calls this: a compare-and-set loop, no monitor for its (virtual) thread to block on
        long before = (long) LAST_SENT.getVolatile(this);
        while (sentNanos - before > 0 && !LAST_SENT.compareAndSet(this, before, sentNanos)) {
            before = (long) LAST_SENT.getVolatile(this);
        }
    }

    /** @return the instant after which the leases of this client are UNCERTAIN unless confirmed again */
    public long confirmedUntilNanos() {
        long valid = validSpanNanos();
        return lastSent + Math.min(uncertainAfterNanos, valid);
    }

    /** @return the instant after which another client may hold this client's locks */
    public long validUntilNanos() {
        return lastSent + validSpanNanos();
    }

    private long validSpanNanos() {
        return (long) (TimeUnit.MILLISECONDS.toNanos(sessionTimeoutMillis.getAsInt()) * (1 - DRIFT_MARGIN));
    }

    /** Sends a probe now (after a reconnection, so that the leases turn HELD without waiting a period). */
    public void wakeUp() {
        signal.lock();
        try {
            wake = true;
            signalled.signalAll();
        } finally {
            signal.unlock();
        }
    }

    private void beat() {
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), uncertainAfterNanos / 2);
        while (true) {
            signal.lock();
            try {
                long until = System.nanoTime() + period;
                try {
                    while (!closed && !wake) {
                        long left = until - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        signalled.awaitNanos(left);
                    }
                } catch (InterruptedException e) {
                    return; // only close() interrupts
                }
                if (closed) {
                    return;
                }
                wake = false;
            } finally {
                signal.unlock();
            }
            if (!active.getAsBoolean()) {
                continue;
            }
            long sent = System.nanoTime();
            boolean overdue = sent - confirmedUntilNanos() >= 0;
            try {
                probe.run();
            } catch (InterruptedException e) {
                return;
            } catch (Exception | Error e) {
                continue; // not confirmed: the deadlines run on
            }
            confirmed(sent);
            if (overdue) {
                onRecovered.run();
            }
        }
    }

    /**
     * Ends the heartbeat thread and waits for it, at most 5 s: a probe in flight (which may wait for a dead
     * server) is interrupted, so that close() never waits for the network. Idempotent.
     */
    @Override
    public void close() {
        signal.lock();
        try {
            closed = true;
            signalled.signalAll();
        } finally {
            signal.unlock();
        }
        if (Thread.currentThread() == thread) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
