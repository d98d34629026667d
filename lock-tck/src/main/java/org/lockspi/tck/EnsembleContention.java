package org.lockspi.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockTimeoutException;

/**
 * The clients of one §19 run and what they saw, on one time line ({@link System#nanoTime()}): every pass
 * through the critical section with the state changes of its lease, the spans in which a lease reported
 * {@link LeaseState#HELD}, and the overlaps the critical section's marker file caught.
 *
 * <p>A pass whose lease comes back other than HELD (lost while it waited) is recorded, released and retried,
 * without entering the critical section. A pass creates the marker file (creation fails if another holder is
 * inside), stays {@value #HOLD_MS} ms, and deletes it (it is gone if another holder deleted it). The pass that is
 * inside when the run is {@linkplain #armKill() armed} stays in instead until {@link #resume(boolean)}, until its
 * lease turned {@link LeaseState#UNCERTAIN} if the failure cut its connection, and until it is no longer
 * UNCERTAIN (each bounded), so one holder holds across the failure.
 */
final class EnsembleContention {
    /** How long an ordinary pass stays in the critical section. */
    static final long HOLD_MS = 20;
    private static final String MARKER = "holder";

    private final Path dir;
    private final Duration settleBound;
    private final List<Pass> passes = new ArrayList<>(); // guarded by itself
    private final List<String> failures = new ArrayList<>(); // guarded by itself
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicReference<CountDownLatch> armed = new AtomicReference<>();
    private volatile Pass heldAcross;
    private final CountDownLatch resume = new CountDownLatch(1);
    private volatile boolean holderCut;
    private volatile String holderNotCut;
    private volatile boolean stop;

    /**
     * @param dir         the directory of the critical section's marker file
     * @param settleBound how long the pass held across the failure waits for its lease to leave UNCERTAIN
     */
    EnsembleContention(Path dir, Duration settleBound) {
        this.dir = dir;
        this.settleBound = settleBound;
    }

    /** One acquisition: its client, when it returned, its state changes and its spans of HELD. */
    static final class Pass implements LeaseListener {
        final String client;
        final long acquired;
        final List<String> changes = new ArrayList<>(); // guarded by this
        final List<Long> changedAt = new ArrayList<>(); // guarded by this
        final List<long[]> held = new ArrayList<>(); // guarded by this
        private long heldSince; // guarded by this; -1 when not HELD
        LeaseState state; // guarded by this

        Pass(String client, long acquired, LeaseState first) {
            this.client = client;
            this.acquired = acquired;
            this.state = first;
            this.heldSince = first == LeaseState.HELD ? acquired : -1;
        }

        @Override
        public synchronized void stateChanged(Lease lease, LeaseState previous, LeaseState current) {
            long now = System.nanoTime();
            changes.add(previous + "->" + current);
            changedAt.add(now);
            state = current;
            if (current == LeaseState.HELD) {
                if (heldSince < 0) {
                    heldSince = now;
                }
            } else {
                end(now);
            }
            notifyAll();
        }

        /** Closes the current span of HELD, if any, at {@code now}. */
        synchronized void end(long now) {
            if (heldSince >= 0) {
                held.add(new long[] {heldSince, now});
                heldSince = -1;
            }
        }

        /** Waits until the lease is not UNCERTAIN, at most {@code max}. */
        synchronized void awaitSettled(Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + max.toNanos();
            while (state == LeaseState.UNCERTAIN) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }

        /** @return whether the lease turned UNCERTAIN at some time, waiting at most {@code max} for it */
        synchronized boolean awaitUncertain(Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + max.toNanos();
            while (!changes.contains("HELD->UNCERTAIN")) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return true;
        }

        synchronized List<long[]> heldSpans() {
            return List.copyOf(held);
        }

        synchronized List<String> changes() {
            return List.copyOf(changes);
        }

        synchronized List<Long> changedAt() {
            return List.copyOf(changedAt);
        }

        @Override
        public synchronized String toString() {
            return client + changes;
        }
    }

    /**
     * A client's loop: acquires, runs a pass, releases, until {@link #stop()} or an interrupt. A failed
     * acquisition or release (the connection is down, or the wait timed out) is recorded and retried.
     *
     * @param client the client's name
     * @param lock   the client's lock
     * @param wait   how long one acquisition waits
     * @return the number of passes
     */
    int hammer(String client, Acquirable lock, Duration wait) throws InterruptedException {
        int count = 0;
        while (!stop) {
            Lease lease;
            try {
                lease = lock.acquire(wait);
            } catch (LockConnectionException | LockTimeoutException e) {
                failure(client + " acquire: " + e);
                Thread.sleep(50); // pace the retries while the connection is down
                continue;
            }
            long acquired = System.nanoTime();
            LeaseState first = lease.state();
            Pass pass = new Pass(client, acquired, first);
            lease.addListener(pass);
            synchronized (passes) {
                passes.add(pass);
                passes.notifyAll();
            }
            if (first != LeaseState.HELD) {
                // a lease may come back already UNCERTAIN or LOST (the session died while it waited): no work
                failure(client + " acquired a lease that is " + first);
                release(client, lease);
                continue;
            }
            try {
                criticalSection(pass);
            } finally {
                pass.end(System.nanoTime());
                release(client, lease);
            }
            count++;
        }
        return count;
    }

    private void release(String client, Lease lease) {
        try {
            lease.release();
        } catch (LockConnectionException e) {
            failure(client + " release: " + e);
        }
    }

    private void criticalSection(Pass pass) throws InterruptedException {
        Path marker = dir.resolve(MARKER);
        boolean mine;
        try {
            Files.createFile(marker);
            mine = true;
        } catch (FileAlreadyExistsException e) {
            overlaps.incrementAndGet();
            mine = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CountDownLatch kill = armed.getAndSet(null);
        if (kill != null) {
            heldAcross = pass;
            kill.countDown();
            // this pass holds across the failure
            if (!resume.await(settleBound.toMillis() * 3, TimeUnit.MILLISECONDS)) {
                failure(pass.client + " was never resumed");
            }
            if (holderCut && !pass.awaitUncertain(settleBound)) {
                holderNotCut = pass.client + "'s connection was cut, but its lease did not turn UNCERTAIN within "
                        + settleBound + ": " + pass;
            }
            pass.awaitSettled(settleBound);
        } else {
            Thread.sleep(HOLD_MS);
        }
        if (mine) {
            try {
                Files.delete(marker);
            } catch (NoSuchFileException e) {
                overlaps.incrementAndGet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** @return a latch that the next pass to enter the critical section counts down, and stays in */
    CountDownLatch armKill() {
        CountDownLatch latch = new CountDownLatch(1);
        armed.set(latch);
        return latch;
    }

    /**
     * Lets the pass that stayed in the critical section leave once its lease settles.
     *
     * @param cut whether the failure cut the holder's connection: then it first waits for its lease to turn
     *            UNCERTAIN, and {@link #holderNotCut()} says if it did not
     */
    void resume(boolean cut) {
        holderCut = cut;
        resume.countDown();
    }

    /** @return null, or what went wrong when the holder's connection was cut and its lease did not notice */
    String holderNotCut() {
        return holderNotCut;
    }

    /** Makes every client's loop end after its current pass. */
    void stop() {
        stop = true;
    }

    private void failure(String what) {
        synchronized (failures) {
            failures.add(what);
        }
    }

    /** @return every pass so far */
    List<Pass> passes() {
        synchronized (passes) {
            return List.copyOf(passes);
        }
    }

    /** @return the pass that stayed in the critical section across the failure, or null */
    Pass heldAcross() {
        return heldAcross;
    }

    /**
     * Waits until {@code count} passes have been acquired at or after {@code since}, by as many clients if
     * {@code distinct}.
     *
     * @throws AssertionError if they were not within {@code max}
     */
    void awaitPasses(int count, boolean distinct, long since, Duration max, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (passes) {
            while (passes.stream().filter(p -> p.acquired - since >= 0).map(p -> distinct ? p.client : p)
                    .distinct().count() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("fewer than " + count + (distinct ? " clients passed " : " passes ")
                            + what + " within " + max + "; retried failures: " + failures());
                }
                passes.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** @return the failed acquisitions and releases, retried */
    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** @return how many times a holder found another one inside the critical section */
    int overlaps() {
        return overlaps.get();
    }

    /**
     * @param spans  spans of HELD, {@code [from, to]} in {@link System#nanoTime()}
     * @param owners the client of each span
     * @return null if no two spans of different clients overlap, else which two do and for how long
     */
    static String twoHeld(List<long[]> spans, List<String> owners) {
        for (int i = 0; i < spans.size(); i++) {
            for (int j = i + 1; j < spans.size(); j++) {
                long[] a = spans.get(i);
                long[] b = spans.get(j);
                if (!owners.get(i).equals(owners.get(j)) && a[0] - b[1] < 0 && b[0] - a[1] < 0) {
                    long both = Math.min(a[1] - a[0], Math.min(b[1] - b[0], Math.min(a[1] - b[0], b[1] - a[0])));
                    return owners.get(i) + " and " + owners.get(j) + " both reported HELD for "
                            + TimeUnit.NANOSECONDS.toMicros(both) + " µs";
                }
            }
        }
        return null;
    }

    /**
     * @param spans spans of HELD, {@code [from, to]} in {@link System#nanoTime()}
     * @param from  where to start looking
     * @return the longest time after {@code from} covered by no span, up to the end of the last span
     */
    static long longestGap(List<long[]> spans, long from) {
        List<long[]> sorted = new ArrayList<>(spans);
        sorted.sort((a, b) -> Long.compare(a[0] - from, b[0] - from));
        long covered = from;
        long gap = 0;
        for (long[] span : sorted) {
            if (span[1] - covered <= 0) {
                continue;
            }
            gap = Math.max(gap, span[0] - covered);
            covered = span[1];
        }
        return gap;
    }
}
