package org.lockspi.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method of a Spring bean holding a reentrant {@linkplain org.lockspi.LockService#mutex(String)
 * mutex} of the application's {@link org.lockspi.LockService}, released when the method returns or throws.
 *
 * <pre>{@code
 * @Locked("orders/#{#order.id}")
 * public Invoice bill(Order order) { ... }
 * }</pre>
 *
 * <p><b>Name.</b> {@link #value()} is a template: literal text with SpEL expressions in {@code #{...}}, evaluated
 * against the method's arguments, by parameter name ({@code #order}, when compiled with {@code -parameters}, as
 * Spring Boot's build plugins do) or position ({@code #p0}, {@code #a0}); {@code #root.method} and
 * {@code #root.target} are there too. A plain string is a fixed name. An expression that evaluates to null (as
 * {@code #order} does when the class was compiled without {@code -parameters}) or an empty name fails with
 * {@link IllegalArgumentException}, the method not run.
 *
 * <p><b>Not acquired.</b> If the lock is not acquired within {@link #waitFor()}: {@link IfLocked#THROW} (the
 * default) throws {@link org.lockspi.LockTimeoutException} and the method does not run; {@link IfLocked#SKIP}
 * does not run it and returns null ({@code Optional.empty()} for an {@code Optional}); a method returning a
 * primitive cannot be skipped ({@link IllegalStateException} at the call). {@code SKIP} without a
 * {@link #waitFor()} tries once without waiting, as a scheduler lock does; with one it waits that long. An
 * interrupt while waiting throws {@link InterruptedException} if the method declares it; otherwise the interrupt
 * flag is set again and {@link org.lockspi.LockException} (unchecked) is thrown with the interrupt as its cause.
 * Connection failures throw as the lock does ({@link org.lockspi.LockConnectionException}) under {@code THROW};
 * under {@code SKIP} the call is skipped as above. The first such skip of an outage logs one line at
 * {@code WARNING} (no stack trace), the next ones (of any {@code @Locked} or {@link ScheduledLock} method of the
 * application) at {@code DEBUG}, and the first acquisition granted after them logs their count at
 * {@code INFO}: a scheduled method does not flood the log during a lock server outage. A skip because the lock is
 * held logs at {@code DEBUG}.
 *
 * <p><b>Stopped on loss.</b> With {@link #stopWork()} {@link org.lockspi.StopWork#WHEN_LOST WHEN_LOST} (or
 * {@code WHEN_NOT_HELD}) the method's thread is interrupted when the lock's lease turns {@code LOST} (or
 * {@code UNCERTAIN}), and the call ends with {@link org.lockspi.LeaseLostException} once the method has returned or
 * thrown (its exception suppressed in it), the interrupt taken back; the method must wait interruptibly or look at
 * the interrupt flag, as {@link org.lockspi.StopWork} says. The default, {@code NEVER}, lets it run to its end.
 *
 * <p>The method runs on the calling thread; calls from inside the same bean are not intercepted (Spring AOP
 * proxies).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

    /** @return the lock name template: text with {@code #{...}} SpEL expressions over the arguments */
    String value();

    /**
     * @return how long to wait for the lock: {@code 500ms}, {@code 5s}, {@code PT1M}; empty (the default):
     *         under {@link IfLocked#THROW} {@code lockspi.locked.wait-for} (5 s unless set), under
     *         {@link IfLocked#SKIP} no wait (one try)
     */
    String waitFor() default "";

    /** @return what to do when the lock is not acquired in time */
    IfLocked ifLocked() default IfLocked.THROW;

    /** @return whether the method is stopped (its thread interrupted) when the lease is lost; never by default */
    org.lockspi.StopWork stopWork() default org.lockspi.StopWork.NEVER;

    /** What a {@link Locked} method does when its lock is not acquired in time. */
    enum IfLocked {
        /** Throw {@link org.lockspi.LockTimeoutException}; the method does not run. */
        THROW,
        /** Return null (or {@code Optional.empty()}) without running the method. */
        SKIP
    }
}
