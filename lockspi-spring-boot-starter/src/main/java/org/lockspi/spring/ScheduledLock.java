package org.lockspi.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a scheduled job ({@code @Scheduled}) on one node at a time: each run first tries the job's
 * {@linkplain org.lockspi.LockService#nonReentrantMutex(String) non-reentrant mutex} without waiting; a node that
 * finds it held, or gets a lease that is not {@link org.lockspi.LeaseState#HELD} (granted while its connection was
 * suspended), skips that run. A run skipped because the lock is held logs one line at {@code DEBUG}; one skipped
 * because the lock server failed ({@link org.lockspi.LockConnectionException}) logs one line at {@code WARNING},
 * without a stack trace, and the next run tries again.
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 * * * *")
 * @ScheduledLock(name = "hourly-report", lockAtMostFor = "10m", lockAtLeastFor = "30s")
 * public void report() { ... }
 * }</pre>
 *
 * <p><b>lockAtLeastFor.</b> The lease is kept after a job that finished early, and released on a timer thread
 * {@code lockAtLeastFor} after the run started: another node whose clock or schedule is a little off does not
 * run the same period's job again. Its timing is measured on this node's monotonic clock from the moment the
 * lock was acquired; the server holds the lock meanwhile, so no clock is compared across nodes.
 *
 * <p><b>lockAtMostFor.</b> The lease is released {@code lockAtMostFor} after the run started even if the job has
 * not finished, and the job's thread is then interrupted: a hung job does not keep the other nodes out for ever
 * (on ZooKeeper a held lock otherwise lives as long as the session, on Redis as long as the lease is renewed).
 * The job should stop when interrupted; if it does not, it keeps running without the lock. A node that dies
 * holding the lock loses it as the provider's crash release says (session timeout or lease time).
 *
 * <p>The method must return {@code void} (a skipped run returns nothing). Durations: {@code 500ms}, {@code 30s},
 * {@code 10m}, {@code PT1M}. {@code lockAtLeastFor} must not be longer than {@code lockAtMostFor}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScheduledLock {

    /** @return the lock's name, the same on every node that runs the job */
    String name();

    /** @return how long after its start a run's lock is released at the latest (and the job interrupted) */
    String lockAtMostFor();

    /** @return how long after its start a run's lock is released at the earliest; default 0 */
    String lockAtLeastFor() default "0s";
}
