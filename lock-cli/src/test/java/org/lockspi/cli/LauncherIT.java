package org.lockspi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * Unpacks the distribution the build made ({@code target/lock-cli-<version>-dist.zip}) and runs its
 * {@code bin/lockspi} as an operator would, in a child process, against a real ZooKeeper and a real redis-server:
 * the version, a listing of held locks, each exit code, and how long an unreachable server takes to report.
 * Runs in {@code integration-test}, after {@code package}.
 */
class LauncherIT {
    private static final Duration PROCESS_LIMIT = Duration.ofSeconds(60);
    private static TckBackend zookeeper;
    private static TckBackend redis;
    @TempDir
    static Path dir;
    private static Path home;

    /** One run of the script. */
    record Run(int exit, String out, String err, Duration took) {
        @Override
        public String toString() {
            return "exit " + exit + " after " + took.toMillis() + " ms\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    @BeforeAll
    static void unpackAndStart() throws IOException {
        Path zip = Path.of(System.getProperty("lockspi.cli.dist"));
        assertTrue(Files.isRegularFile(zip), "the build makes the distribution before this test: " + zip);
        unzip(zip, dir);
        home = dir.resolve("lockspi-" + System.getProperty("lockspi.cli.version"));
        assertTrue(Files.isDirectory(home.resolve("lib")), "lib/ in " + home);
        // unzip(1) restores the mode the zip records; java.util.zip does not, so check it and then set it
        assertEquals(0755, unixMode(zip, home.getFileName() + "/bin/lockspi"), "bin/lockspi is 0755 in the zip");
        assertTrue(home.resolve("bin/lockspi").toFile().setExecutable(true));
        zookeeper = EmbeddedZooKeeperBackend.start();
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (zookeeper != null) {
            zookeeper.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static Run lockspi(Map<String, String> env, Path script, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(
                Path.of("/dev/null").toFile()));
        pb.environment().remove("JAVA_OPTS");
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        long start = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(PROCESS_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("bin/lockspi " + String.join(" ", args) + " still ran after " + PROCESS_LIMIT);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err), took);
    }

    private static Run lockspi(String... args) throws IOException, InterruptedException {
        return lockspi(Map.of("JAVA_HOME", System.getProperty("java.home")), home.resolve("bin/lockspi"), args);
    }

    @Test
    void versionIsTheBuildsAndJavaIsFoundByJavaHomeOrPath() throws Exception {
        String version = System.getProperty("lockspi.cli.version");
        Run byHome = lockspi("--version");
        assertEquals(0, byHome.exit(), byHome.toString());
        assertTrue(byHome.out().startsWith("lockspi " + version + "\n"), byHome.toString());
        assertTrue(byHome.out().contains("zookeeper-raw " + version + " (zookeeper)")
                && byHome.out().contains("curator " + version + " (zookeeper)")
                && byHome.out().contains("redis-baseline " + version + " ("), byHome.toString());

        Map<String, String> byPath = new HashMap<>();
        byPath.put("JAVA_HOME", null);
        byPath.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
        Run path = lockspi(byPath, home.resolve("bin/lockspi"), "--version");
        assertEquals(0, path.exit(), path.toString());
        assertEquals(byHome.out(), path.out(), "the same tool, found on the PATH");

        Run badHome = lockspi(Map.of("JAVA_HOME", dir.resolve("no-such-jdk").toString()),
                home.resolve("bin/lockspi"), "--version");
        assertEquals(127, badHome.exit(), badHome.toString());
        assertTrue(badHome.err().contains("JAVA_HOME"), badHome.toString());

        // a symbolic link elsewhere, as an install into /usr/local/bin makes
        Path link = Files.createSymbolicLink(dir.resolve("lockspi-link"), home.resolve("bin/lockspi"));
        Run linked = lockspi(Map.of("JAVA_HOME", System.getProperty("java.home")), link, "--version");
        assertEquals(0, linked.exit(), linked.toString());
        assertEquals(byHome.out(), linked.out());
    }

    @Test
    void listAndHoldersOnRealServersWithEachExitCode() throws Exception {
        for (TckBackend server : List.of(zookeeper, redis)) {
            String base = "launcher/" + ProcessHandle.current().pid() + "-" + System.nanoTime();
            try (LockService app = Locks.open(server.uri());
                 Lease a = app.mutex(base + "/a").acquire(Duration.ofSeconds(10));
                 Lease b = app.semaphore(base + "/b", 3).acquire(Duration.ofSeconds(10))) {
                Run list = lockspi("list", server.uri(), base + "/");
                assertEquals(LockCli.OK, list.exit(), list.toString());
                assertEquals(base + "/a\n" + base + "/b\n", list.out(), list.toString());
                Run held = lockspi("holders", server.uri(), base + "/a");
                assertEquals(LockCli.OK, held.exit(), held.toString());
                assertTrue(held.out().contains("kind:      MUTEX\n") && held.out().contains(" " + a.fencingToken()
                        + " "), held.toString());
                try (Lease scheduled = app.nonReentrantMutex(base + "/scheduled").acquire(Duration.ofSeconds(10))) {
                    Run shown = lockspi("holders", server.uri(), base + "/scheduled");
                    System.out.print("$ lockspi holders " + server.uri() + " " + base + "/scheduled\n" + shown.out());
                    assertEquals(LockCli.OK, shown.exit(), shown.toString());
                    assertTrue(server == zookeeper
                            ? shown.out().contains("kind:      SEMAPHORE  (or a non-reentrant mutex: ")
                            : shown.out().contains("kind:      MUTEX\n"), shown.toString());
                }
            }
            Run free = lockspi("holders", server.uri(), base + "/a");
            assertEquals(LockCli.FREE, free.exit(), free.toString());
            Run none = lockspi("list", server.uri(), base + "/");
            assertEquals(LockCli.FREE, none.exit(), none.toString());
            Run usage = lockspi("holders", server.uri());
            assertEquals(LockCli.USAGE, usage.exit(), usage.toString());

            Run unreachable = lockspi("holders", server.unreachableUri(), "orders");
            System.out.printf("bin/lockspi holders on an unreachable %s: exit %d after %d ms (the whole process)%n",
                    LockUri.parse(server.uri()).scheme(), unreachable.exit(), unreachable.took().toMillis());
            assertEquals(LockCli.UNREACHABLE, unreachable.exit(), unreachable.toString());
            assertTrue(unreachable.err().startsWith("lockspi: "), unreachable.toString());
            assertTrue(unreachable.took().compareTo(Duration.ofSeconds(10)) < 0,
                    "the tool's 2 s connect bound, plus a JVM's start on a loaded machine: " + unreachable);
        }
    }

    /**
     * The Unix mode a zip records for an entry: the high 16 bits of the external attributes in its central
     * directory record (java.util.zip does not expose them).
     */
    private static int unixMode(Path zip, String entry) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(zip)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 46 <= b.limit(); i++) {
            if (b.getInt(i) != 0x02014b50) {
                continue;
            }
            int nameLength = Short.toUnsignedInt(b.getShort(i + 28));
            if (i + 46 + nameLength > b.limit()) {
                continue;
            }
            String name = new String(b.array(), i + 46, nameLength, StandardCharsets.UTF_8);
            if (name.equals(entry)) {
                return (b.getInt(i + 38) >>> 16) & 0777;
            }
        }
        throw new AssertionError("no entry " + entry + " in " + zip);
    }

    private static void unzip(Path zip, Path to) throws IOException {
        try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                Path target = to.resolve(e.getName()).normalize();
                assertTrue(target.startsWith(to), "an entry outside the directory: " + e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(z, target);
                }
            }
        }
    }
}
