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
 * without a stack trace, if it is the outage's first skip of the application, else at {@code DEBUG} (the count
 * follows at {@code INFO} once a lock is granted again, as for {@link Locked}); the next run tries again.
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
 * <p><b>lockAtMostFor.</b> A run holds the lock for {@code lockAtMostFor} at most, even if the job has not
 * finished, and the job's thread is then interrupted: a hung job does not keep the other nodes out for ever. How the
 * bound is kept depends on the provider:
 * <ul>
 *   <li>With {@link org.lockspi.LockFeature#LEASE_TIME} (Redis, JDBC, in-memory), the run's lease is acquired with
 *       {@code lockAtMostFor} as its {@linkplain org.lockspi.Acquirable#withLeaseTime lease time}: the server frees
 *       the lock by then on its own clock, even if this node is paused or cut off, and the job is interrupted when
 *       the lease turns {@code LOST}, at {@code lockAtMostFor} after the acquisition at the latest (earlier if the
 *       lease is lost otherwise, such as by an outage longer than the provider's lease span).</li>
 *   <li>Without it (the ZooKeeper providers, whose lock lives as long as the session), this node releases the
 *       lease on a timer {@code lockAtMostFor} after the run started: a node paused past that keeps the lock until
 *       it resumes or its session ends.</li>
 * </ul>
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
