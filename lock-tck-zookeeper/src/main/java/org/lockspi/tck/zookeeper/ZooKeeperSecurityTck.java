package org.lockspi.tck.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.assertNoSecret;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.support.ChildJvm;

/**
 * ACLs and TLS of a ZooKeeper provider, on real servers: an {@link EmbeddedZooKeeperBackend} for the ACLs and a
 * {@link SecureZooKeeperBackend} (TLS only, client certificates required, certificates made for the run) for TLS.
 * A provider's test class extends it and names the provider. These are the ZooKeeper providers' own checks of
 * their {@code acl} and {@code tls} parameters, not rules of {@code docs/spec.md}.
 *
 * <p>What it holds the provider to:
 * <ul>
 *   <li>With credentials in the URI, every node the provider creates (lock and lease nodes, the parents it creates)
 *       carries {@code CREATOR_ALL_ACL}: all permissions to that identity, none to others.</li>
 *   <li>Another identity, and an anonymous client, can neither delete a holder's node nor acquire past it: a plain
 *       client's delete fails with {@code NoAuth}; a lock service's acquisition fails at once with a
 *       {@link LockException} that names the refusal ({@code NOAUTH}), never a timeout and never a lease. Waiting
 *       would be wrong: the refusal is not going away when the holder releases.</li>
 *   <li>Services with the same credentials exclude each other and hand the lock on as without ACLs.</li>
 *   <li>The credentials go on every new session: after a session expiry the service creates its nodes with the
 *       same ACL.</li>
 *   <li>No password reaches the logs of a client JVM whose every logger is at {@code debug}.</li>
 *   <li>TLS is configured per client from the URI: two services with it exclude each other over TLS; a client
 *       without TLS, one that does not trust the server's certificate, and one without a client certificate are
 *       refused ({@link LockConnectionException} within the connect timeout); a store that cannot be read fails
 *       {@code open} at once; no password shows in messages or {@code toString()}.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class ZooKeeperSecurityTck {
    private static final String ALICE = "alice";
    private static final String MALLORY = "mallory";
    /** How long a refused TLS client may try before {@code open} gives up. */
    private static final Duration CONNECT = Duration.ofSeconds(2);

    private final String run = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    private final String alicePassword = "pw-" + run;
    private EmbeddedZooKeeperBackend zk;
    private SecureZooKeeperBackend tls;
    private final List<LockService> services = new ArrayList<>();

    /** @return the provider under test */
    protected abstract LockProvider provider();

    @BeforeAll
    void startServers() {
        zk = EmbeddedZooKeeperBackend.start();
        tls = SecureZooKeeperBackend.start();
    }

    @AfterAll
    void stopServers() {
        for (LockService s : services) {
            s.close();
        }
        if (tls != null) {
            tls.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    // ---- ACLs ----------------------------------------------------------------------------------------------

    @Test
    @DisplayName("with credentials, every node the provider creates carries CREATOR_ALL_ACL for that identity")
    void nodesBelongToTheirCreator() throws Exception {
        String base = "/tck/acl-nodes-" + run;
        LockService alice = open(uri(ALICE + ":" + alicePassword, base, ""));
        try (Lease mutex = alice.mutex("orders/1").acquire(WAIT);
             Lease read = alice.readWriteLock("config").readLock().acquire(WAIT);
             Lease slot = alice.semaphore("exports", 2).acquire(WAIT)) {
            List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL, digestId(ALICE, alicePassword)));
            List<String> nodes = new ArrayList<>();
            withClient(ALICE + ":" + alicePassword, c -> collect(c, base, nodes));
            assertTrue(nodes.size() >= 7, "the base, 3 lock paths and their nodes: " + nodes);
            List<String> checked = new ArrayList<>();
            withClient(ALICE + ":" + alicePassword, c -> {
                for (String node : nodes) {
                    try {
                        assertEquals(expected, c.getACL(node, new Stat()), "ACL of " + node);
                        checked.add(node);
                    } catch (KeeperException.NoNodeException reaped) {
                        // an empty container (the semaphore's internal lock path) the server's reaper removed
                        // between the walk and this read: it has no ACL left to be wrong
                    }
                }
            });
            assertTrue(checked.size() >= 6, "the ACLs of the base, the lock paths and their held nodes: " + checked);
            assertTrue(mutex.state() == LeaseState.HELD && read.state() == LeaseState.HELD
                    && slot.state() == LeaseState.HELD);
        }
    }

    @Test
    @DisplayName("another identity can neither delete a held lock's node nor acquire past it: NoAuth, at once")
    void anotherIdentityIsRefused() throws Exception {
        String base = "/tck/acl-other-" + run;
        LockService alice = open(uri(ALICE + ":" + alicePassword, base, ""));
        DistributedLock guarded = alice.mutex("guarded");
        try (Lease held = guarded.acquire(WAIT)) {
            String node = onlyChild(ALICE + ":" + alicePassword, base + "/guarded");
            // a plain client of another identity: no delete, no listing, no node of its own in the queue
            withClient(MALLORY + ":other", c -> {
                assertThrows(KeeperException.NoAuthException.class, () -> c.delete(node, -1), "delete " + node);
                assertThrows(KeeperException.NoAuthException.class, () -> c.getChildren(base + "/guarded", false));
                assertThrows(KeeperException.NoAuthException.class, () -> c.create(base + "/guarded/x", new byte[0],
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, org.apache.zookeeper.CreateMode.EPHEMERAL));
            });
            // a lock service of another identity: refused at once, with the reason
            LockService mallory = open(uri(MALLORY + ":other", base, ""));
            assertRefused(throwsWithin(LockException.class, BOUND, "acquire as another identity",
                    () -> mallory.mutex("guarded").acquire(Duration.ofSeconds(5))));
            assertRefused(throwsWithin(LockException.class, BOUND, "tryAcquire as another identity",
                    () -> mallory.mutex("guarded").tryAcquire()));
            assertRefused(throwsWithin(LockException.class, BOUND, "a new lock under the base",
                    () -> mallory.mutex("elsewhere").tryAcquire()));
            // the holder still holds
            assertEquals(LeaseState.HELD, held.state());
            withClient(ALICE + ":" + alicePassword, c -> assertNotNull(c.exists(node, false), node));
        }
        assertEquals(List.of(), children(ALICE + ":" + alicePassword, base + "/guarded"), "released");
    }

    @Test
    @DisplayName("an anonymous client can neither delete a held lock's node nor acquire past it")
    void anonymousIsRefused() throws Exception {
        String base = "/tck/acl-anonymous-" + run;
        LockService alice = open(uri(ALICE + ":" + alicePassword, base, ""));
        try (Lease held = alice.mutex("guarded").acquire(WAIT)) {
            String node = onlyChild(ALICE + ":" + alicePassword, base + "/guarded");
            withClient(null, c -> {
                assertThrows(KeeperException.NoAuthException.class, () -> c.delete(node, -1), "delete " + node);
                assertThrows(KeeperException.NoAuthException.class, () -> c.getChildren(base + "/guarded", false));
            });
            LockService anonymous = open(uri(null, base, ""));
            assertRefused(throwsWithin(LockException.class, BOUND, "acquire without credentials",
                    () -> anonymous.mutex("guarded").acquire(Duration.ofSeconds(5))));
            assertRefused(throwsWithin(LockException.class, BOUND, "a semaphore without credentials",
                    () -> anonymous.semaphore("pool", 3).tryAcquire()));
            assertEquals(LeaseState.HELD, held.state());
        }
    }

    @Test
    @DisplayName("services with the same credentials exclude each other and hand the lock on")
    void sameIdentitySharesTheLock() throws Exception {
        String base = "/tck/acl-same-" + run;
        String credentials = ALICE + ":" + alicePassword;
        LockService first = open(uri(credentials, base, ""));
        LockService second = open(uri(credentials, base, ""));
        Lease held = first.nonReentrantMutex("shared").acquire(WAIT);
        assertTrue(second.nonReentrantMutex("shared").tryAcquire().isEmpty(), "excluded while the first holds");
        CountDownLatch waiting = new CountDownLatch(1);
        Lease[] next = new Lease[1];
        Exception[] failure = new Exception[1];
        Thread waiter = new Thread(() -> {
            try {
                waiting.countDown();
                next[0] = second.nonReentrantMutex("shared").acquire(WAIT);
            } catch (Exception e) {
                failure[0] = e; // handed to the test thread below
            }
        }, "same-identity-waiter");
        waiter.start();
        assertTrue(waiting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        long token = held.fencingToken();
        held.release();
        waiter.join(WAIT.toMillis() * 2);
        assertFalse(waiter.isAlive(), "the waiter did not get the lock");
        assertNull(failure[0], () -> "the waiter failed: " + failure[0]);
        assertTrue(next[0].fencingToken() > token, "tokens grow across holders");
        next[0].release();
    }

    @Test
    @DisplayName("the credentials go on every new session: after an expiry the same identity still creates its nodes")
    void credentialsSurviveASessionExpiry() throws Exception {
        String base = "/tck/acl-expiry-" + run;
        String credentials = ALICE + ":" + alicePassword;
        LockService alice = open(uri(credentials, base, "sessionTimeout=4s"));
        Lease before = alice.nonReentrantMutex("before").acquire(WAIT);
        CountDownLatch lost = new CountDownLatch(1);
        before.addListener((lease, previous, current) -> {
            if (current == LeaseState.LOST) {
                lost.countDown();
            }
        });
        zk.expireAllSessions(); // the client learns it on reconnecting and opens a new session
        assertTrue(lost.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the session expired: " + before.state());
        before.release(); // harmless on a lost lease
        try (Lease after = alice.mutex("after").acquire(WAIT)) {
            String node = onlyChild(credentials, base + "/after");
            List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL, digestId(ALICE, alicePassword)));
            withClient(credentials, c -> assertEquals(expected, c.getACL(node, new Stat()), "ACL of " + node));
            assertEquals(LeaseState.HELD, after.state());
        }
    }

    @Test
    @DisplayName("acl=open keeps nodes open with credentials; acl=creator needs a user; other values are refused")
    void aclParameter() throws Exception {
        String base = "/tck/acl-open-" + run;
        LockService open = open(uri(ALICE + ":" + alicePassword, base, "acl=open"));
        try (Lease held = open.mutex("public").acquire(WAIT)) {
            assertEquals(1, children(MALLORY + ":other", base + "/public").size(), "open to everyone");
            assertEquals(LeaseState.HELD, held.state());
        }
        IllegalArgumentException noUser = throwsWithin(IllegalArgumentException.class, BOUND, "acl=creator, no user",
                () -> Locks.open(uri(null, base, "acl=creator"), provider()).close());
        assertNames(noUser, "acl");
        IllegalArgumentException bogus = throwsWithin(IllegalArgumentException.class, BOUND, "acl=everyone",
                () -> Locks.open(uri(ALICE + ":" + alicePassword, base, "acl=everyone"), provider()).close());
        assertNames(bogus, "everyone");
        assertNoSecret(bogus, alicePassword);
    }

    // ---- TLS -----------------------------------------------------------------------------------------------

    @Test
    @DisplayName("TLS from URI parameters: two services exclude each other and hand the lock on")
    void tlsClientsExclude() throws Exception {
        String uri = tls.uri() + "?" + tls.tlsParameters() + "&connectTimeout=10s";
        LockService first;
        LockService second;
        try {
            first = open(uri);
            second = open(uri);
        } catch (LockConnectionException e) {
            throw new IllegalStateException("no TLS connection; the server says: " + tls.serverLog(), e);
        }
        assertFalse(first.toString().contains(tls.storePassword()), first.toString());
        Lease held = first.mutex("tls-orders").acquire(WAIT);
        assertTrue(second.mutex("tls-orders").tryAcquire().isEmpty(), "excluded over TLS");
        long token = held.fencingToken();
        held.release();
        try (Lease next = second.mutex("tls-orders").acquire(WAIT)) {
            assertTrue(next.fencingToken() > token);
        }
        // the configuration was this client's own: no ZooKeeper TLS system property was set
        assertNull(System.getProperty(ZKClientConfig.SECURE_CLIENT));
        assertNull(System.getProperty("zookeeper.ssl.trustStore.location"));
        // and a plain service in the same JVM still works beside it
        try (Lease plain = open(zk.uri()).mutex("beside-tls-" + run).acquire(WAIT)) {
            assertEquals(LeaseState.HELD, plain.state());
        }
    }

    @Test
    @DisplayName("TLS: a client without TLS, one that does not trust the server, one without a certificate are refused")
    void tlsRefusals() {
        String timeout = "connectTimeout=" + CONNECT.toMillis() + "ms";
        Duration limit = CONNECT.plus(BOUND).plus(BOUND);
        throwsWithin(LockConnectionException.class, limit, "a plain client on the TLS port",
                () -> Locks.open(tls.uri() + "?" + timeout, provider()).close());
        String pw = tls.storePassword();
        LockConnectionException untrusted = throwsWithin(LockConnectionException.class, limit,
                "a client that trusts another certificate", () -> Locks.open(tls.uri() + "?" + timeout
                        + "&tls=true&trustStore=" + tls.strangerTrustStore() + "&trustStorePassword=" + pw
                        + "&keyStore=" + tls.clientKeyStore() + "&keyStorePassword=" + pw, provider()).close());
        assertNoSecret(untrusted, pw);
        LockConnectionException noCertificate = throwsWithin(LockConnectionException.class, limit,
                "a client without a certificate", () -> Locks.open(tls.uri() + "?" + timeout
                        + "&tls=true&trustStore=" + tls.clientTrustStore() + "&trustStorePassword=" + pw,
                        provider()).close());
        assertNoSecret(noCertificate, pw);
        LockConnectionException unknownCertificate = throwsWithin(LockConnectionException.class, limit,
                "a client whose certificate the server does not trust", () -> Locks.open(tls.uri() + "?" + timeout
                        + "&tls=true&trustStore=" + tls.clientTrustStore() + "&trustStorePassword=" + pw
                        + "&keyStore=" + tls.strangerKeyStore() + "&keyStorePassword=" + pw, provider()).close());
        assertNoSecret(unknownCertificate, pw);
    }

    @Test
    @DisplayName("TLS: a store that cannot be read fails open at once, naming it, never showing a password")
    void tlsStoreErrors() {
        String secret = "Wr0ng" + run;
        String base = tls.uri() + "?tls=true&keyStore=" + tls.clientKeyStore() + "&keyStorePassword="
                + tls.storePassword();
        IllegalArgumentException wrongPassword = throwsWithin(IllegalArgumentException.class, BOUND,
                "a wrong trust store password", () -> Locks.open(base + "&trustStore=" + tls.clientTrustStore()
                        + "&trustStorePassword=" + secret, provider()).close());
        assertNoSecret(wrongPassword, secret);
        assertNoSecret(wrongPassword, tls.storePassword());
        IllegalArgumentException missing = throwsWithin(IllegalArgumentException.class, BOUND, "a missing store",
                () -> Locks.open(base + "&trustStore=/no/such/store.p12&trustStorePassword=" + secret,
                        provider()).close());
        assertNames(missing, "/no/such/store.p12");
        assertNoSecret(missing, secret);
        IllegalArgumentException withoutTls = throwsWithin(IllegalArgumentException.class, BOUND,
                "a trust store without tls=true", () -> Locks.open(tls.uri() + "?trustStore="
                        + tls.clientTrustStore() + "&trustStorePassword=" + secret, provider()).close());
        assertNames(withoutTls, "tls=true");
        assertNoSecret(withoutTls, secret);
        IllegalArgumentException passwordAlone = throwsWithin(IllegalArgumentException.class, BOUND,
                "a key store password without a key store", () -> Locks.open(tls.uri()
                        + "?tls=true&keyStorePassword=" + secret, provider()).close());
        assertNames(passwordAlone, "keyStore");
        assertNoSecret(passwordAlone, secret);
    }

    // ---- secrets in logs -----------------------------------------------------------------------------------

    @Test
    @Timeout(150)
    @DisplayName("no password in the logs: credentials and store passwords, with every logger at debug")
    void noSecretInLogs() throws IOException {
        String credentials = ALICE + ":" + alicePassword;
        // a child JVM logging at debug that starts a TLS session is slow on a loaded machine: this is about what
        // the logs say, not how fast, so its connection has time
        String uri = tls.uri().replace("zookeeper://", "zookeeper://" + credentials + "@") + "?" + tls.tlsParameters()
                + "&connectTimeout=30s";
        String wrong = "Wr0ngLog" + run;
        String refused = uri.replace("trustStorePassword=" + tls.storePassword(), "trustStorePassword=" + wrong);
        Path log = Files.createTempFile("lockspi-secret-probe-", ".log");
        try {
            try (ChildJvm child = ChildJvm.start(SecretProbeMain.class, log.toString(), provider().name(), uri,
                    refused)) {
                String end = child.awaitLine(Duration.ofSeconds(120), "DONE", "ERROR ");
                assertEquals("DONE", end, () -> "the probe failed: " + end + "\n" + tail(log));
            }
            String text = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(text.contains("DEBUG") && text.contains("service: ") && text.contains("lease: ")
                    && text.contains("IllegalArgumentException"), () -> "the probe logged at debug: " + tail(log));
            for (String secret : List.of(alicePassword, tls.storePassword(), wrong)) {
                assertFalse(text.contains(secret), () -> "a password appears in the log:\n" + text);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static void assertRefused(LockException e) {
        assertFalse(e instanceof LockTimeoutException, () -> "a refusal, not a timeout: " + e);
        boolean noAuth = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            noAuth |= t instanceof KeeperException.NoAuthException;
        }
        assertTrue(noAuth, () -> "the cause is ZooKeeper's NoAuth: " + e);
        assertNames(e, "NOAUTH");
    }

    private LockService open(String uri) {
        LockService s = Locks.open(uri, provider());
        synchronized (services) {
            services.add(s);
        }
        return s;
    }

    private String uri(String credentials, String path, String parameters) {
        return "zookeeper://" + (credentials == null ? "" : credentials + "@") + zk.address() + path
                + "?connectTimeout=5s" + (parameters.isEmpty() ? "" : "&" + parameters);
    }

    private static Id digestId(String user, String password) throws NoSuchAlgorithmException {
        return new Id("digest", DigestAuthenticationProvider.generateDigest(user + ":" + password));
    }

    private String onlyChild(String credentials, String path) {
        List<String> children = children(credentials, path);
        assertEquals(1, children.size(), () -> "one lock node below " + path + ": " + children);
        return path + "/" + children.get(0);
    }

    private List<String> children(String credentials, String path) {
        List<String> found = new ArrayList<>();
        withClient(credentials, c -> found.addAll(c.getChildren(path, false)));
        return found;
    }

    private static void collect(ZooKeeper c, String path, List<String> into)
            throws KeeperException, InterruptedException {
        into.add(path);
        for (String child : c.getChildren(path, false)) {
            collect(c, path + "/" + child, into);
        }
    }

    /** Work done with a plain client. */
    private interface Work {
        void run(ZooKeeper zk) throws KeeperException, InterruptedException;
    }

    /** Runs {@code work} with a new plain client of the embedded server, authenticated if credentials are given. */
    private void withClient(String credentials, Work work) {
        CountDownLatch connected = new CountDownLatch(1);
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        ZooKeeper c = null;
        try {
            c = new ZooKeeper(zk.address(), 10_000, e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            }, config);
            if (credentials != null) {
                c.addAuthInfo("digest", credentials.getBytes(StandardCharsets.UTF_8));
            }
            assertTrue(connected.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "a plain client connects");
            work.run(c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (KeeperException e) {
            throw new IllegalStateException("plain client work failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
