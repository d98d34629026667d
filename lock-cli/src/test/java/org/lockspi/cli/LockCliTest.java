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
            assertTrue(json.out().contains("\"own\":false}],\"waiters\":1,\"permitsInUse\":0,"
                    + "\"mayBeNonReentrantMutex\":false}"), json.toString());
        }
        for (Thread t : threads) {
            t.join(10_000); // the waiter acquires and releases
        }
        Run after = run("holders", uri, name);
        assertEquals(LockCli.FREE, after.exit(), "a released lock has no state: " + after);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void holdersOfAFreeLockExitsOne(String server) {
        Run run = run("holders", backend(server).uri(), name("free"));
        assertEquals(LockCli.FREE, run.exit(), run.toString());
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
            assertTrue(sem.out().contains("kind:      SEMAPHORE") && sem.out().contains(
                    "\nholders:   1  (permits in use: 1)\n"), sem.toString());
        }
        Run empty = run("list", uri, base + "/");
        assertEquals(LockCli.FREE, empty.exit(), empty.toString());
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
    void anUnreachableServerExitsThreeWithinTheToolsConnectBoundWithoutThePassword(String server) {
        String uri = backend(server).unreachableUri().replace("://", "://operator:" + SECRET + "@");
        long start = System.nanoTime();
        Run run = run("holders", uri, "orders");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("unreachable %s (%s): exit %d after %d ms%n", server, org.lockspi.spi.LockUri.parse(uri), run.exit(),
                took.toMillis());
        assertEquals(LockCli.UNREACHABLE, run.exit(), run.toString());
        assertTrue(run.err().startsWith("lockspi: "), run.toString());
        assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "the password was printed: " + run);
        // the tool's 2 s connect bound, not the providers' 15 s; the margin is for a loaded machine
        assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "took " + took + ": " + run);
        if (server.equals("zookeeper")) {
            assertTrue(run.err().contains("within 2000 ms"), run.toString());
        }
    }

    /** A server that takes the TCP connection and never answers: the tool's bound still holds. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aSilentServerExitsThreeWithinTheToolsBound(String server) throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> taken = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        taken.add(silent.accept()); // read nothing, answer nothing
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            }, "cli-test-silent-server");
            acceptor.setDaemon(true);
            acceptor.start();
            String uri = server + "://127.0.0.1:" + silent.getLocalPort() + (server.equals("zookeeper") ? "/app" : "");
            long start = System.nanoTime();
            Run run = run("holders", uri, "orders");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("silent %s (%s): exit %d after %d ms%n", server, uri, run.exit(), took.toMillis());
            assertEquals(LockCli.UNREACHABLE, run.exit(), run.toString());
            assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "took " + took + ": " + run);
            silent.close();
            acceptor.join(10_000);
            for (java.net.Socket s : taken) {
                s.close();
            }
        }
    }

    @Test
    void theToolsBoundsAreAddedOnlyWhereTheUriNamesNoneAndEveryCandidateAcceptsThem() {
        List<org.lockspi.spi.LockProvider> installed = Locks.providers();
        assertEquals("zookeeper://h:2181/app?connectTimeout=2s&sessionTimeout=4s",
                ConnectionOptions.withBounds("zookeeper://h:2181/app", null, installed));
        assertEquals("zookeeper://h:2181/app?connectTimeout=2s&sessionTimeout=4s",
                ConnectionOptions.withBounds("zookeeper://h:2181/app", "curator", installed));
        // Redis has no session: the connect bound alone
        assertEquals("redis://h:6379?leaseTime=5s&connectTimeout=2s",
                ConnectionOptions.withBounds("redis://h:6379?leaseTime=5s", null, installed));
        // the URI's own values are kept; uncertainAfter must stay below the session timeout, so that one is kept
        assertEquals("zookeeper://h:2181/app?connectTimeout=9s&sessionTimeout=4s",
                ConnectionOptions.withBounds("zookeeper://h:2181/app?connectTimeout=9s", null, installed));
        assertEquals("zookeeper://h:2181/app?sessionTimeout=60s&connectTimeout=2s",
                ConnectionOptions.withBounds("zookeeper://h:2181/app?sessionTimeout=60s", null, installed));
        assertEquals("zookeeper://h:2181/app?uncertainAfter=10s&connectTimeout=2s",
                ConnectionOptions.withBounds("zookeeper://h:2181/app?uncertainAfter=10s", null, installed));
        assertEquals("redis://h:6379?connectTimeout=1s",
                ConnectionOptions.withBounds("redis://h:6379?connectTimeout=1s", null, installed));
        // no provider serves the scheme: unchanged, and Locks.open says so
        assertEquals("nope://h:1", ConnectionOptions.withBounds("nope://h:1", null, installed));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aConnectTimeoutInTheUriIsKept(String server) {
        String uri = backend(server).unreachableUri() + "?connectTimeout=200ms";
        long start = System.nanoTime();
        Run run = run("list", uri);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("unreachable %s (%s): exit %d after %d ms%n", server, uri, run.exit(), took.toMillis());
        assertEquals(LockCli.UNREACHABLE, run.exit(), run.toString());
        if (server.equals("zookeeper")) {
            assertTrue(run.err().contains("within 200 ms"), "the URI's bound, not the tool's: " + run);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aNonReentrantMutexShowsAsItsLayoutSaysAndZooKeepersAmbiguityIsSpelledOut(String server)
            throws InterruptedException {
        String uri = backend(server).uri();
        String name = name("scheduled");
        boolean zk = server.equals("zookeeper");
        try (Lease lease = open(uri).nonReentrantMutex(name).acquire(Duration.ofSeconds(10))) {
            Run text = run("holders", uri, name);
            assertEquals(LockCli.OK, text.exit(), text.toString());
            Run json = run("holders", uri, name, "--json");
            if (zk) {
                // Curator's semaphore-mutex: one lease of a semaphore, as a one-permit semaphore is
                assertTrue(text.out().contains("kind:      SEMAPHORE  (or a non-reentrant mutex: ZooKeeper keeps one "
                        + "as a semaphore of one permit, and the layout does not say which)\n"), text.toString());
                assertTrue(json.out().contains("\"kind\":\"SEMAPHORE\""), json.toString());
            } else {
                assertTrue(text.out().contains("kind:      MUTEX\n"), text.toString());
                assertTrue(json.out().contains("\"kind\":\"MUTEX\""), json.toString());
            }
            assertTrue(json.out().endsWith(",\"mayBeNonReentrantMutex\":" + zk + "}\n"), json.toString());
        }
        String sem = name("two-permits");
        LockService app = open(uri);
        try (Lease a = app.semaphore(sem, 2).acquire(Duration.ofSeconds(10));
             Lease b = app.semaphore(sem, 2).acquire(Duration.ofSeconds(10))) {
            Run two = run("holders", uri, sem);
            assertTrue(two.out().contains("kind:      SEMAPHORE\nholders:   2  (permits in use: 2)\n"), two.toString());
            Run json = run("holders", uri, sem, "--json");
            assertTrue(json.out().endsWith(",\"mayBeNonReentrantMutex\":false}\n"), json.toString());
        }
    }

    @Test
    void aPasswordInTheUriIsMaskedInTheOutput() {
        String uri = zookeeper.uri().replace("://", "://operator:" + SECRET + "@");
        Run run = run("holders", uri, name("masked"));
        assertEquals(LockCli.FREE, run.exit(), run.toString());
        assertTrue(run.out().contains("server:    zookeeper://operator:***@"), run.toString());
        assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "the password was printed: " + run);
    }

    @Test
    void usageErrorsExitTwo() {
        Run none = run();
        assertEquals(LockCli.USAGE, none.exit(), none.toString());
        assertTrue(none.err().contains("a command is required"), none.toString());
        Run missing = run("holders", zookeeper.uri());
        assertEquals(LockCli.USAGE, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("<name>"), missing.toString());
        Run unknownOption = run("list", zookeeper.uri(), "--colour");
        assertEquals(LockCli.USAGE, unknownOption.exit(), unknownOption.toString());
        Run badName = run("holders", zookeeper.uri(), "");
        assertEquals(LockCli.USAGE, badName.exit(), badName.toString());
        assertTrue(badName.err().contains("lock name is empty"), badName.toString());
        Run badUri = run("holders", "zookeeper:/no-host", "orders");
        assertEquals(LockCli.USAGE, badUri.exit(), badUri.toString());
        assertTrue(badUri.err().contains("malformed lock URI"), badUri.toString());
        Run unknownParameter = run("list", redis.uri() + "?colour=blue");
        assertEquals(LockCli.USAGE, unknownParameter.exit(), unknownParameter.toString());
        assertTrue(unknownParameter.err().contains("colour"), unknownParameter.toString());
        Run anyName = run("holders", zookeeper.uri(), "a//b");   // any string is a name: no state, exit 1
        assertEquals(LockCli.FREE, anyName.exit(), anyName.toString());
        assertTrue(anyName.out().contains("kind:      NONE"), anyName.toString());
        Run badProvider = run("list", zookeeper.uri(), "--provider", "nope");
        assertEquals(LockCli.USAGE, badProvider.exit(), badProvider.toString());
        assertTrue(badProvider.err().contains("nope"), badProvider.toString());
    }

    @Test
    void helpListsEveryExitCode() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"holders", "--help"},
                new String[] {"list", "--help"})) {
            Run help = run(args);
            assertEquals(LockCli.OK, help.exit(), help.toString());
            assertTrue(help.out().matches("(?s).*Exit codes:\\n +0 +held: .*\\n +1 +free: .*\\n +2 +usage error: .*"
                    + "\\n +3 +unreachable: .*\\n +4 +any other error.*"), help.toString());
        }
    }

    @Test
    void otherFailuresExitFour() {
        // no installed provider lacks inspection, and no server here fails otherwise: the mapping itself
        assertEquals(LockCli.FAILURE, LockCli.exitCode(new UnsupportedOperationException("no INSPECTION")));
        assertEquals(LockCli.FAILURE, LockCli.exitCode(new org.lockspi.LockException("server said no")));
        assertEquals(LockCli.FAILURE, LockCli.exitCode(new IllegalStateException("closed")));
        assertEquals(LockCli.UNREACHABLE, LockCli.exitCode(new org.lockspi.LockConnectionException("down")));
        assertEquals(LockCli.USAGE, LockCli.exitCode(new IllegalArgumentException("bad")));
    }

    @Test
    void versionIsTheBuildsEverywhere() {
        String expected = System.getProperty("lockspi.cli.version");
        assertTrue(expected != null && !expected.isBlank() && !expected.contains("${"),
                "the build passes lockspi.cli.version: " + expected);
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"holders", "--version"},
                new String[] {"list", "--version"})) {
            Run version = run(args);
            assertEquals(LockCli.OK, version.exit(), version.toString());
            assertTrue(version.out().startsWith("lockspi " + expected + "\n"), version.toString());
            String providers = version.out().lines().filter(l -> l.startsWith("providers: ")).findFirst()
                    .orElseThrow();
            for (org.lockspi.spi.LockProvider p : Locks.providers()) {
                assertEquals(expected, p.version(), p.name());
                assertTrue(providers.contains(p.name() + " " + expected + " ("), version.toString());
            }
        }
    }
}
