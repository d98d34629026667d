package org.lockspi.spring.internal;

import org.lockspi.Lease;

/**
 * One run of a scheduled job holding its lease: released once, by the job's end (after lock-at-least-for), or by
 * the lock-at-most-for timer or the lease's loss (where lock-at-most-for is the lease's lease time), which also
 * interrupt the job.
 */
final class ScheduledRun {
    private static final System.Logger LOG = System.getLogger(ScheduledRun.class.getName());

    private final Lease lease;
    private final Thread job;
    private final String name;
    private final long startNanos = System.nanoTime();
    private boolean finished; // guarded by this
    private boolean expired; // guarded by this
    private boolean released; // guarded by this

    ScheduledRun(Lease lease, Thread job, String name) {
        this.lease = lease;
        this.job = job;
        this.name = name;
    }

    long startNanos() {
        return startNanos;
    }

    /**
     * The at-most deadline passed, or the lease it bounds turned LOST: release, and interrupt a job still running.
     *
     * @param why what happened, for the log: "outlived lockAtMostFor 10m", "lost its lease ..."
     */
    void expire(String why) {
        synchronized (this) {
            if (finished) {
                return;
            }
            expired = true;
            job.interrupt(); // under the monitor: once finish() ran, no interrupt reaches the pooled thread
        }
        LOG.log(System.Logger.Level.WARNING, "scheduled job under lock ''{0}'' {2}: lock released, {1} "
                + "interrupted", name, job.getName(), why);
        release();
    }

    /**
     * The job returned or threw; called on the job's thread.
     *
     * @return whether the lease is still held by this run (false once the at-most timer released it)
     */
    boolean finish() {
        boolean wasExpired;
        synchronized (this) {
            finished = true;
            wasExpired = expired;
        }
        if (wasExpired) {
            Thread.interrupted(); // the timer's interrupt, not to be left on a pooled scheduler thread
        }
        return !wasExpired;
    }

    /** Releases the lease once; a failure is logged (the server frees the lock when the session or lease ends). */
    void release() {
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
        }
        try {
            lease.release();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "release of scheduled lock ''{0}'' failed, the server frees it "
                    + "when the session or lease ends: {1}", name, LockspiInterceptor.oneLine(e));
        }
    }
}
