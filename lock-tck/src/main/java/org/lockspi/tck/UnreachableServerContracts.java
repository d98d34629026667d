package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;

/**
 * §15 Unreachable servers: opening a service against an address where nothing listens fails with
 * {@link LockConnectionException} within the connect timeout plus a bound, never hangs, names the address and
 * never shows a password; a host name no resolver knows fails at once. The provider's parameters are those of {@link TckContext#clientUri()}.
 */
@Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = {ONE_WAITER,
        SEVERAL_WAITERS, MIXED_KINDS}, reason = "the service cannot open: no lock of any kind is asked for")
public interface UnreachableServerContracts extends TckContext {

    /**
     * Opens the backend's {@code unreachableUri()} (a local port where nothing listens) with the client URI's
     * parameters: {@code LockConnectionException} within the larger of {@link #crashReleaseBound()} and 10 s, plus 5 s,
     * whose message names the address {@code host:port}.
     */
    @Test
    @Diagnosis("LockProvider.open must give up at its connect timeout with LockConnectionException naming the "
            + "address: look for a retry policy around the connect that loops past it, a client left reconnecting "
            + "forever, or the library's exception passed on unwrapped.")
    @Covers(kinds = {})
    @DisplayName("§15.1 opening against an unreachable server fails with LockConnectionException naming the "
            + "address, within the bound")
    default void unreachableServerFailsFast() {
        String uri = backend().unreachableUri() + query(clientUri());
        String address = LockUri.parse(uri).hostList();
        Duration bound = connectBound();
        long start = System.nanoTime();
        LockConnectionException e = assertTimeoutPreemptively(bound,
                () -> assertThrows(LockConnectionException.class, () -> open(uri)),
                () -> "Locks.open(" + uri + ") still runs after " + bound);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertNotNull(e.getMessage(), "a message");
        assertTrue(e.getMessage().contains(address), "the message names the address " + address + ": "
                + e.getMessage() + " (after " + took.toMillis() + " ms)");
    }

    /**
     * As §15.1 with a user and password in the URI: the open fails within the same bound with
     * {@code LockConnectionException} (or {@code IllegalArgumentException} if the provider refuses credentials), and
     * the password appears in no message or {@code toString()} of the exception, its causes or their suppressed
     * exceptions.
     */
    @Test
    @Diagnosis("Look at the messages LockProvider.open builds when the connect fails: the raw URI, the client "
            + "library's connection string or its exception (which may quote user:password) must not be passed on; "
            + "name the hosts from LockUri.hostList().")
    @Covers(kinds = {})
    @DisplayName("§15.2 the failure to reach a server never shows the URI's password")
    default void unreachableServerHidesPassword() {
        String password = "Tck-s3cret-pw";
        LockUri unreachable = LockUri.parse(backend().unreachableUri());
        String uri = unreachable.scheme() + "://tck-user:" + password + "@" + unreachable.hostList()
                + unreachable.path() + query(clientUri());
        Duration bound = connectBound();
        // a provider may refuse credentials it cannot use (IllegalArgumentException) or fail to connect
        RuntimeException e = assertTimeoutPreemptively(bound,
                () -> assertThrows(RuntimeException.class, () -> open(uri)),
                () -> "Locks.open with credentials still runs after " + bound);
        assertTrue(e instanceof LockException || e instanceof IllegalArgumentException,
                "LockConnectionException or IllegalArgumentException, not " + e);
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t).contains(password), "the password shows in " + t);
            for (Throwable s : t.getSuppressed()) {
                assertFalse(String.valueOf(s).contains(password), "the password shows in " + s);
            }
        }
    }

    /**
     * Opens a URI whose host is {@code lockspi-tck-no-such-host.invalid}, which never resolves:
     * {@code LockConnectionException} within 2 s, whose message names the host.
     */
    @Test
    @Diagnosis("LockProvider.open must fail at once on an unknown host rather than retry the resolution until its "
            + "connect timeout (ZooKeeper's client retries unresolvable hosts in its connection loop): resolve the "
            + "hosts first and throw LockConnectionException naming the host.")
    @Covers(kinds = {})
    @DisplayName("§15.3 opening against a host name no resolver knows fails at once with LockConnectionException "
            + "naming the host")
    default void unresolvableHostFailsAtOnce() {
        LockUri unreachable = LockUri.parse(backend().unreachableUri());
        String host = "lockspi-tck-no-such-host.invalid"; // RFC 2606: never resolves
        String uri = unreachable.scheme() + "://" + host + ":2181" + unreachable.path() + query(clientUri());
        Duration bound = Checks.BOUND;
        long start = System.nanoTime();
        LockConnectionException e = assertTimeoutPreemptively(connectBound(),
                () -> assertThrows(LockConnectionException.class, () -> open(uri)),
                () -> "Locks.open(" + uri + ") still runs after " + connectBound());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(bound) <= 0, "an unknown host fails within " + bound + ", took " + took);
        assertTrue(String.valueOf(e.getMessage()).contains(host), "the message names the host: " + e.getMessage());
    }

    /** Opens a service with the provider under test, closing it should it open after all. */
    private void open(String uri) {
        LockService service = Locks.open(uri, provider());
        service.close();
    }

    /**
     * How long an open against an unreachable server may take: the crash-release bound (a session timeout plus
     * a margin, no shorter than a connect timeout in any sane configuration), at least 10 s, plus 5 s.
     */
    private Duration connectBound() {
        Duration base = crashReleaseBound();
        if (base.compareTo(Duration.ofSeconds(10)) < 0) {
            base = Duration.ofSeconds(10);
        }
        return base.plusSeconds(5);
    }

    /** @return {@code "?query"} of {@code uri}, or {@code ""} */
    private static String query(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? "" : uri.substring(q);
    }
}
