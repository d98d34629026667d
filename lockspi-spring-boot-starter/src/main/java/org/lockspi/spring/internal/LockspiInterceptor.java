package org.lockspi.spring.internal;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.lockspi.Lease;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.StopWork;
import org.lockspi.spring.LockTemplate;
import org.lockspi.spring.Locked;
import org.lockspi.spring.ScheduledLock;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Runs {@link Locked} and {@link ScheduledLock} methods under their locks. The beans it needs are looked up at the
 * first call, so the post-processor that installs it does not start them early.
 */
final class LockspiInterceptor implements MethodInterceptor, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LockspiInterceptor.class.getName());

    private final BeanFactory beans;
    private final LockNames names = new LockNames();
    private final Map<Method, Durations> durations = new ConcurrentHashMap<>();
    private final Set<ScheduledRun> pending = ConcurrentHashMap.newKeySet(); // kept for lock-at-least-for
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lockspi-scheduled-lock");
        t.setDaemon(true);
        return t;
    });

    LockspiInterceptor(BeanFactory beans) {
        this.beans = beans;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        if (invocation.getThis() != null) {
            method = AopUtils.getMostSpecificMethod(method, AopUtils.getTargetClass(invocation.getThis()));
        }
        ScheduledLock scheduled = AnnotatedElementUtils.findMergedAnnotation(method, ScheduledLock.class);
        if (scheduled != null) {
            return scheduled(invocation, method, scheduled);
        }
        Locked locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
        return locked == null ? invocation.proceed() : locked(invocation, method, locked);
    }

    // ---- @Locked --------------------------------------------------------------------------------------------

    private Object locked(MethodInvocation invocation, Method method, Locked locked) throws Throwable {
        LockTemplate template = beans.getBean(LockTemplate.class);
        String name = names.name(locked.value(), method, invocation.getArguments(), invocation.getThis());
        Duration wait = locked.waitFor().isEmpty() ? template.defaultWait() : parse(locked.waitFor(), "waitFor");
        Optional<Lease> acquired;
        try {
            acquired = template.service().mutex(name).tryAcquire(wait);
        } catch (InterruptedException e) {
            if (Arrays.asList(method.getExceptionTypes()).contains(InterruptedException.class)) {
                throw e;
            }
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for lock '" + name + "' of " + method, e);
        }
        if (acquired.isEmpty()) {
            if (locked.ifLocked() == Locked.IfLocked.THROW) {
                throw new LockTimeoutException(name, wait);
            }
            return skipped(method, name);
        }
        try (Lease lease = acquired.get()) {
            lease.checkValid();
            return proceed(invocation, lease, locked.stopWork());
        }
    }

    /** Runs the method under the policy; what it throws comes out as it is (LeaseLostException when stopped). */
    private static Object proceed(MethodInvocation invocation, Lease lease, StopWork stop) throws Throwable {
        if (stop == StopWork.NEVER) {
            return invocation.proceed();
        }
        try {
            return stop.call(lease, l -> {
                try {
                    return invocation.proceed();
                } catch (Exception e) {
                    throw e;
                } catch (Throwable t) { // an Error, or a Throwable the method declares: carried out as it is
                    throw new Carrier(t);
                }
            });
        } catch (Carrier c) {
            throw c.getCause();
        }
    }

    /** Carries a method's Throwable that is not an Exception through {@link StopWork#call}. */
    private static final class Carrier extends Exception {
        private static final long serialVersionUID = 1L;

        Carrier(Throwable cause) {
            super(cause);
        }
    }

    private static Object skipped(Method method, String name) {
        Class<?> type = method.getReturnType();
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type.isPrimitive() && type != void.class) {
            throw new IllegalStateException("lock '" + name + "' is held elsewhere and " + method
                    + " returns " + type + ", which SKIP cannot return");
        }
        return null;
    }

    // ---- @ScheduledLock -------------------------------------------------------------------------------------

    /** The two bounds of a scheduled lock, checked once per method. */
    private record Durations(Duration atMost, Duration atLeast) {
    }

    private Object scheduled(MethodInvocation invocation, Method method, ScheduledLock scheduled) throws Throwable {
        Durations bounds = durations.computeIfAbsent(method, m -> {
            Duration atMost = parse(scheduled.lockAtMostFor(), "lockAtMostFor");
            Duration atLeast = parse(scheduled.lockAtLeastFor(), "lockAtLeastFor");
            if (atMost.isZero() || atMost.isNegative() || atLeast.isNegative() || atLeast.compareTo(atMost) > 0) {
                throw new IllegalStateException("@ScheduledLock of " + m + " needs 0 <= lockAtLeastFor <= "
                        + "lockAtMostFor and lockAtMostFor > 0: " + atLeast + ", " + atMost);
            }
            return new Durations(atMost, atLeast);
        });
        LockService service = beans.getBean(LockService.class);
        Optional<Lease> acquired = service.nonReentrantMutex(scheduled.name()).tryAcquire();
        if (acquired.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "skipped {0}: lock ''{1}'' is held", method, scheduled.name());
            return null;
        }
        ScheduledRun run = new ScheduledRun(acquired.get(), Thread.currentThread(), scheduled.name());
        if (!acquired.get().isHeld()) { // granted while the connection was suspended: not a lock to run under
            LOG.log(System.Logger.Level.WARNING, "skipped {0}: lock ''{1}'' granted {2}", method, scheduled.name(),
                    acquired.get().state());
            run.release();
            return null;
        }
        ScheduledFuture<?> expiry;
        try {
            expiry = timer.schedule(run::expire, bounds.atMost().toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            run.release(); // the application is stopping: no run without its at-most bound
            return null;
        }
        try {
            return invocation.proceed();
        } finally {
            expiry.cancel(false);
            long left = bounds.atLeast().toNanos() - (System.nanoTime() - run.startNanos());
            if (run.finish() && left > 0) {
                releaseLater(run, left);
            } else {
                run.release();
            }
        }
    }

    private static Duration parse(String text, String what) {
        try {
            return DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not a duration (500ms, 5s, PT1M): '" + text + "'", e);
        }
    }

    /** Releases after lock-at-least-for, or at once when the interceptor is closing. */
    private void releaseLater(ScheduledRun run, long delayNanos) {
        pending.add(run);
        try {
            timer.schedule(() -> {
                pending.remove(run);
                run.release();
            }, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            pending.remove(run);
            run.release(); // closing: the node leaves, its locks go
        }
    }

    /**
     * Stops the timer and releases at once the leases kept for lock-at-least-for: the application is stopping
     * (its LockService, closed before or after this, frees them on the server anyway).
     */
    @Override
    public void close() {
        timer.shutdownNow();
        for (ScheduledRun run : pending) {
            pending.remove(run);
            run.release();
        }
    }
}
