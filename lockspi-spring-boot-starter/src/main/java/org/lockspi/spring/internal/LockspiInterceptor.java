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
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.LockFeature;
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
    private final OutageSkips outageSkips = new OutageSkips();
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
        boolean skip = locked.ifLocked() == Locked.IfLocked.SKIP;
        // SKIP without a waitFor: one try that does not wait, as a scheduler lock skips; else the wait
        Duration wait = !locked.waitFor().isEmpty() ? parse(locked.waitFor(), "waitFor")
                : skip ? Duration.ZERO : template.defaultWait();
        Optional<Lease> acquired;
        try {
            acquired = wait.isZero() ? template.service().mutex(name).tryAcquire()
                    : template.service().mutex(name).tryAcquire(wait);
        } catch (LockConnectionException e) {
            if (!skip) {
                throw e;
            }
            outageSkips.skipped(shortName(method), name, oneLine(e));
            return skipped(method, name);
        } catch (InterruptedException e) {
            if (Arrays.asList(method.getExceptionTypes()).contains(InterruptedException.class)) {
                throw e;
            }
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for lock '" + name + "' of " + method, e);
        }
        if (acquired.isEmpty()) {
            if (!skip) {
                throw new LockTimeoutException(name, wait);
            }
            LOG.log(System.Logger.Level.DEBUG, "skipped {0}: lock ''{1}'' is held", shortName(method), name);
            return skipped(method, name);
        }
        outageSkips.granted();
        Lease lease = acquired.get();
        try {
            lease.checkValid();
            return proceed(invocation, lease, locked.stopWork());
        } finally {
            release(lease, name);
        }
    }

    /**
     * Releases a {@code @Locked} method's lease. A release the server could not be told of (an outage that began while
     * the method ran) neither replaces the method's result nor hides what it threw: the lease is released here, and
     * the server frees the lock when its session or lease ends, so it is logged in one line, as a scheduled run's is.
     */
    private static void release(Lease lease, String name) {
        try {
            lease.release();
        } catch (LockConnectionException e) {
            LOG.log(System.Logger.Level.WARNING, "release of lock ''{0}'' failed, the server frees it when the "
                    + "session or lease ends: {1}", name, oneLine(e));
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
        // Where the provider has it, lockAtMostFor is the lease's own lease time: the server frees the lock then by
        // its own clock, however this node fares; the job is interrupted when the lease turns LOST (at that end at
        // the latest). Elsewhere this node's timer alone releases the lease at lockAtMostFor.
        boolean serverBound = service.features().contains(LockFeature.LEASE_TIME);
        boolean toldOfLoss = serverBound && service.features().contains(LockFeature.LOST_NOTIFICATION);
        Optional<Lease> acquired;
        try {
            AsyncAcquirable mutex = service.nonReentrantMutex(scheduled.name());
            acquired = (serverBound ? mutex.withLeaseTime(bounds.atMost()) : mutex).tryAcquire();
        } catch (LockConnectionException e) { // an outage: this run is skipped, the next one tries again
            outageSkips.skipped(shortName(method), scheduled.name(), oneLine(e));
            return null;
        }
        if (acquired.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "skipped {0}: lock ''{1}'' is held", shortName(method),
                    scheduled.name());
            return null;
        }
        outageSkips.granted();
        ScheduledRun run = new ScheduledRun(acquired.get(), Thread.currentThread(), scheduled.name());
        if (!acquired.get().isHeld()) { // granted while the connection was suspended: not a lock to run under
            LOG.log(System.Logger.Level.WARNING, "skipped {0}: lock ''{1}'' granted {2}", shortName(method),
                    scheduled.name(), acquired.get().state());
            run.release();
            return null;
        }
        ScheduledFuture<?> expiry = null;
        LeaseListener onLost = null;
        if (toldOfLoss) {
            onLost = (lease, from, to) -> {
                if (to == LeaseState.LOST) {
                    try {
                        timer.execute(() -> run.expire("lost its lease (lockAtMostFor " + bounds.atMost()
                                + " ends it at the latest)")); // not on the service's event thread: release does I/O
                    } catch (RejectedExecutionException stopping) {
                        // the application is stopping: its service's close frees the lock
                    }
                }
            };
            acquired.get().addListener(onLost);
        } else {
            try {
                expiry = timer.schedule(() -> run.expire("outlived lockAtMostFor " + bounds.atMost()),
                        bounds.atMost().toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                run.release(); // the application is stopping: no run without its at-most bound
                return null;
            }
        }
        try {
            return invocation.proceed();
        } finally {
            if (expiry != null) {
                expiry.cancel(false);
            }
            if (onLost != null) {
                acquired.get().removeListener(onLost);
            }
            long left = bounds.atLeast().toNanos() - (System.nanoTime() - run.startNanos());
            if (run.finish() && left > 0) {
                releaseLater(run, left);
            } else {
                run.release();
            }
        }
    }

    /** @return {@code Class.method} without the package and parameters, for a log line */
    private static String shortName(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    /**
     * A failure in one log line, without its stack: an outage makes one per run and node, and its stack says no
     * more than its message and its cause's.
     */
    static String oneLine(Throwable e) {
        String text = e.getClass().getSimpleName() + ": " + e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text += " (cause: " + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")";
        }
        return text.replace('\n', ' ').replace('\r', ' ');
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
