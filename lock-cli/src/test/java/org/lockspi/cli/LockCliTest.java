package org.lockspi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** Runs the tool's main entry against a real embedded ZooKeeper and a real redis-server, with a held lock. */
class LockCliTest {
    private static final String SECRET = "cli-s3cret-pw";
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static TckBackend zookeeper;
    private static TckBackend redis;
    private final List<LockService> services = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /** What one run printed, and its exit code. */
    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    @BeforeAll
    static void startServers() {
        zookeeper = EmbeddedZooKeeperBackend.start();
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (zookeeper != null) {
            zookeeper.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void closeServices() throws InterruptedException {
        services.forEach(LockService::close);
        for (Thread t : threads) {
            t.join(10_000);
        }
    }

    static Stream<String> servers() {
        return Stream.of("zookeeper", "redis");
    }

    private static TckBackend backend(String server) {
        return server.equals("zookeeper") ? zookeeper : redis;
    }

    private LockService open(String uri) {
        LockService service = Locks.open(uri);
        services.add(service);
        return service;
    }

    private static String name(String base) {
        return "cli/" + base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = LockCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Starts a client that waits for the lock, and returns once the server shows it waiting. */
    private void startWaiter(String uri, String name, LockService observer) {
        LockService client = open(uri);
        Thread t = new Thread(() -> {
            try (Lease lease = client.mutex(name).acquire(Duration.ofSeconds(30))) {
                // got it after the holder let go
            } catch (InterruptedException | RuntimeException e) {
                // closed by the test's clean-up
            }
        }, "cli-test-waiter");
        t.setDaemon(true);
        t.start();
        threads.add(t);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (observer.inspect(name).waiters() < 1) {
            assertTrue(System.nanoTime() < deadline, "the waiter never showed on the server");
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void holdersPrintsTheHolderItsTokenAndTheWaiters(String server) throws InterruptedException {
        String uri = backend(server).uri();
        String name = name("held");
        LockService app = open(uri);
        try (Lease lease = app.mutex(name).acquire(Duration.ofSeconds(10))) {
            startWaiter(uri, name, app);
            Run text = run("holders", uri, name);
            assertEquals(LockCli.OK, text.exit(), text.toString());
            assertTrue(text.out().contains("lock:      " + name + "\n"), text.toString());
            assertTrue(text.out().contains("kind:      MUTEX\n"), text.toString());
            assertTrue(text.out().contains("holders:   1\n"), text.toString());
            assertTrue(text.out().contains("waiters:   1\n"), text.toString());
            assertTrue(text.out().matches("(?s).*\\n  EXCLUSIVE +" + lease.fencingToken() + " +\\d{4}-.*"),
                    "a holder line with the token: " + text);
            Run json = run("holders", uri, name, "--json");
            assertEquals(LockCli.OK, json.exit(), json.toString());
            assertTrue(json.out().startsWith("{\"name\":\"" + name + "\",\"provider\":\""), json.toString());
            assertTrue(json.out().contains("\"kind\":\"MUTEX\",\"holders\":[{\"mode\":\"EXCLUSIVE\",\"fencingToken\":"
                    + lease.fencingToken() + ",\"since\":\""), json.toString());
            assertTrue(json.out().contains("\"own\":false}],\"waiters\":1,\"permitsInUse\":0}"), json.toString());
        }
        for (Thread t : threads) {
            t.join(10_000); // the waiter acquires and releases
        }
        Run after = run("holders", uri, name);
        assertEquals(LockCli.NOT_FOUND, after.exit(), "a released lock has no state: " + after);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void holdersOfAFreeLockExitsOne(String server) {
        Run run = run("holders", backend(server).uri(), name("free"));
        assertEquals(LockCli.NOT_FOUND, run.exit(), run.toString());
        assertTrue(run.out().contains("kind:      NONE  (no state on the server"), run.toString());
        assertTrue(run.out().contains("holders:   0\n"), run.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void listPrintsTheHeldLocksUnderThePrefix(String server) throws InterruptedException {
        String uri = backend(server).uri();
        String base = name("list");
        LockService app = open(uri);
        try (Lease a = app.mutex(base + "/a").acquire(Duration.ofSeconds(10));
             Lease b = app.semaphore(base + "/b", 2).acquire(Duration.ofSeconds(10))) {
            Run run = run("list", uri, base + "/");
            assertEquals(LockCli.OK, run.exit(), run.toString());
            assertEquals(base + "/a\n" + base + "/b\n", run.out(), run.toString());
            Run json = run("list", uri, base + "/", "--json");
            assertEquals("[\"" + base + "/a\",\"" + base + "/b\"]\n", json.out(), json.toString());
            Run sem = run("holders", uri, base + "/b");
            assertTrue(sem.out().contains("kind:      SEMAPHORE\nholders:   1  (permits in use: 1)\n"), sem.toString());
        }
        Run empty = run("list", uri, base + "/");
        assertEquals(LockCli.NOT_FOUND, empty.exit(), empty.toString());
        assertEquals("", empty.out(), empty.toString());
    }

    @Test
    void theProviderOptionPicksTheProvider() throws InterruptedException {
        String uri = zookeeper.uri();
        String name = name("curator");
        try (Lease lease = open(uri).mutex(name).acquire(Duration.ofSeconds(10))) {
            Run run = run("holders", uri, name, "--provider", "curator");
            assertEquals(LockCli.OK, run.exit(), run.toString());
            assertTrue(run.out().contains("(provider curator)"), run.toString());
            assertTrue(run.out().contains(" " + lease.fencingToken() + " "), "the same token through Curator: " + run);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anUnreachableServerExitsTwoWithoutThePassword(String server) {
        String unreachable = backend(server).unreachableUri();
        String uri = unreachable.replace("://", "://operator:" + SECRET + "@")
                + (server.equals("zookeeper") ? "?connectTimeout=1s" : "?connectTimeout=1s");
        Run run = run("holders", uri, "orders");
        assertEquals(LockCli.CONNECTION_FAILURE, run.exit(), run.toString());
        assertTrue(run.err().startsWith("lockspi: "), run.toString());
        assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "the password was printed: " + run);
    }

    @Test
    void aPasswordInTheUriIsMaskedInTheOutput() {
        String uri = zookeeper.uri().replace("://", "://operator:" + SECRET + "@");
        Run run = run("holders", uri, name("masked"));
        assertEquals(LockCli.NOT_FOUND, run.exit(), run.toString());
        assertTrue(run.out().contains("server:    zookeeper://operator:***@"), run.toString());
        assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "the password was printed: " + run);
    }

    @Test
    void usageErrorsExitOne() {
        Run none = run();
        assertEquals(LockCli.NOT_FOUND, none.exit(), none.toString());
        assertTrue(none.err().contains("a command is required"), none.toString());
        Run missing = run("holders", zookeeper.uri());
        assertEquals(LockCli.NOT_FOUND, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("<name>"), missing.toString());
        Run badName = run("holders", zookeeper.uri(), "");
        assertEquals(LockCli.NOT_FOUND, badName.exit(), badName.toString());
        assertTrue(badName.err().contains("lock name is empty"), badName.toString());
        Run anyName = run("holders", zookeeper.uri(), "a//b");   // any string is a name: no state, exit 1
        assertEquals(LockCli.NOT_FOUND, anyName.exit(), anyName.toString());
        assertTrue(anyName.out().contains("kind:      NONE"), anyName.toString());
        Run badProvider = run("list", zookeeper.uri(), "--provider", "nope");
        assertEquals(LockCli.NOT_FOUND, badProvider.exit(), badProvider.toString());
        assertTrue(badProvider.err().contains("nope"), badProvider.toString());
        Run help = run("--help");
        assertEquals(LockCli.OK, help.exit(), help.toString());
        assertTrue(help.out().contains("Exit codes:"), help.toString());
    }
}
