package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.lockspi.LockFeature;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.report.NotApplicable;

/** Bounds and small assertions shared by the contracts. */
public final class Checks {
    /**
     * The slack allowed on top of a timeout, and the time an operation that must not wait may take: a few server
     * round trips on a loaded two-core machine.
     */
    public static final Duration BOUND = Duration.ofSeconds(2);
    /**
     * The timeout of the rules that bound how far a timed acquisition overshoots (§5.2, §5.3, §5.9): 100 ms. Short,
     * so that a wait that looks at its deadline only between the rounds of a one-second poll ends 900 ms late.
     */
    public static final Duration TIMED = Duration.ofMillis(100);
    /**
     * How far past its {@link #TIMED} timeout a timed acquisition of a held lock may return: 700 ms. The real
     * providers overshoot by a few milliseconds on a quiet machine, and by at most about 580 ms (single samples;
     * medians stay under 40 ms) on a two-core machine loaded six times over; a wait that looks at its deadline
     * only between the rounds of a one-second poll returns 900 ms late, and fails.
     */
    public static final Duration OVERSHOOT = Duration.ofMillis(700);
    /** How long an acquisition that must succeed may wait for a lock about to be released. */
    public static final Duration WAIT = Duration.ofSeconds(10);
    /** A short timeout for acquisitions that must time out. */
    public static final Duration SHORT = Duration.ofMillis(300);

    private Checks() {
    }

    /** A body that may throw anything, for timing. */
    @FunctionalInterface
    public interface Body {
        /** @throws Exception anything */
        void run() throws Exception;
    }

    /**
     * Runs a body and returns how long it took; what it throws is rethrown.
     *
     * @param body the body
     * @return the elapsed time
     * @throws Exception what the body threw
     */
    public static Duration time(Body body) throws Exception {
        long start = System.nanoTime();
        body.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Runs a body that must throw {@code type} within {@code max}.
     *
     * @param type the expected exception type
     * @param max  the longest it may take
     * @param what what is being done, for the message
     * @param body the body
     * @param <X>  the exception type
     * @return the exception
     */
    public static <X extends Throwable> X throwsWithin(Class<X> type, Duration max, String what, Body body) {
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            body.run();
        } catch (Throwable t) {
            thrown = t;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        if (thrown == null) {
            fail(what + ": expected " + type.getSimpleName() + " but nothing was thrown");
        }
        if (!type.isInstance(thrown)) {
            throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + thrown, thrown);
        }
        assertTrue(took.compareTo(max) <= 0, what + ": " + type.getSimpleName() + " came after " + took.toMillis()
                + " ms, expected at once (within " + max.toMillis() + " ms)");
        return type.cast(thrown);
    }

    /**
     * @param duration a duration
     * @param atLeast  lower bound, with 20 ms of clock tolerance
     * @param atMost   upper bound
     * @param what     what took that long
     */
    public static void assertBetween(Duration duration, Duration atLeast, Duration atMost, String what) {
        assertTrue(duration.compareTo(atLeast.minusMillis(20)) >= 0,
                what + " took " + duration.toMillis() + " ms, less than " + atLeast.toMillis() + " ms");
        assertTrue(duration.compareTo(atMost) <= 0,
                what + " took " + duration.toMillis() + " ms, more than " + atMost.toMillis() + " ms");
    }

    /**
     * Asserts that a message names a value.
     *
     * @param e     the exception
     * @param value the value its message must contain
     */
    public static void assertNames(Throwable e, String value) {
        String message = String.valueOf(e.getMessage());
        assertTrue(message.contains(value), "message of " + e.getClass().getSimpleName() + " should name '" + value
                + "': " + message);
    }

    /**
     * Asserts that a secret appears nowhere in an exception: not in its message, its {@code toString()}, its stack
     * trace print-out, its causes or its suppressed exceptions.
     *
     * @param e      the exception
     * @param secret the secret
     */
    public static void assertNoSecret(Throwable e, String secret) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        assertFalse(out.toString().contains(secret), "the password appears in " + e.getClass().getName()
                + ":\n" + out);
    }

    /**
     * Puts a user and password into a URI's authority, replacing any that are there.
     *
     * @param uri      {@code scheme://[userinfo@]hosts[/path][?query]}
     * @param user     the user
     * @param password the password
     * @return the URI with credentials
     */
    public static String withCredentials(String uri, String user, String password) {
        int start = uri.indexOf("://") + 3;
        int end = start;
        while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
            end++;
        }
        String authority = uri.substring(start, end);
        int at = authority.lastIndexOf('@');
        String hosts = at < 0 ? authority : authority.substring(at + 1);
        return uri.substring(0, start) + user + ":" + password + "@" + hosts + uri.substring(end);
    }

    /**
     * Adds a query parameter to a URI.
     *
     * @param uri       the URI
     * @param parameter {@code key=value}
     * @return the URI with the parameter
     */
    public static String withParameter(String uri, String parameter) {
        return uri + (uri.indexOf('?') < 0 ? '?' : '&') + parameter;
    }

    /**
     * A client URI whose acquisitions wait out an outage up to their own deadlines: {@code failFast=1m}, for the
     * rules that follow a waiter through a restart, a failover or a dropped connection (with the default, 250 ms,
     * such a waiter fails fast, spec §16.3, which §16.3 itself checks).
     *
     * @param uri the client URI
     * @return the URI with {@code failFast=1m}
     */
    public static String waitingOutOutages(String uri) {
        return withParameter(uri, org.lockspi.Locks.FAIL_FAST_PARAMETER + "=1m");
    }

    /**
     * Skips the calling test, with the reason "declares X", if the provider declares the feature: for tests of
     * what happens when a feature is absent.
     *
     * @param provider the provider
     * @param feature  the feature
     */
    public static void requireAbsent(LockProvider provider, LockFeature feature) {
        if (provider.features().contains(feature)) {
            throw new NotApplicable("provider '" + provider.name() + "' declares " + feature);
        }
    }

    /**
     * Skips the calling test unless the provider declares at least one of the kinds.
     *
     * @param provider the provider
     * @return the kinds it declares, at least one
     */
    public static List<Kind> requireSomeKind(LockProvider provider) {
        List<Kind> kinds = Kind.supported(provider.features());
        if (kinds.isEmpty()) {
            throw new NotApplicable("provider '" + provider.name() + "' declares none of REENTRANT_MUTEX, "
                    + "NON_REENTRANT_MUTEX, READ_WRITE, SEMAPHORE");
        }
        return kinds;
    }

    /**
     * Calls a body and returns its result, turning a checked exception into an assertion failure.
     *
     * @param what what is being done
     * @param body the body
     * @param <T>  the result
     * @return the result
     */
    public static <T> T call(String what, Callable<T> body) {
        try {
            return body.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(what + " failed: " + e, e);
        }
    }
}
