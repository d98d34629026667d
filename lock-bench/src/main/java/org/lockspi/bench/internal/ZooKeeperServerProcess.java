package org.lockspi.bench.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.zookeeper.Version;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.ServerProcess;

/**
 * The real ZooKeeper server in a child JVM, so that server and clients do not share a garbage collector or a
 * JIT. The parent reads the server's own request counter through the {@code srvr} four-letter command.
 */
public final class ZooKeeperServerProcess implements AutoCloseable {
    private static final Pattern RECEIVED = Pattern.compile("Received: (\\d+)");
    /**
     * The server's heap. 10,000 waiters of one client arriving at once each list the lock's children once, and a
     * listing of n children is about 60 n bytes: the responses queued for that client add up to gigabytes
     * (1 GB ran out in the virtual-thread scenario).
     */
    static final String HEAP = "-Xmx6g";

    private final Path dir;
    private final int port;
    private final int tickTime;
    private final ServerProcess process;
    private final Thread hook;

    private ZooKeeperServerProcess(Path dir, int port, int tickTime, ServerProcess process) {
        this.dir = dir;
        this.port = port;
        this.tickTime = tickTime;
        this.process = process;
        this.hook = new Thread(process::close, "zookeeper-child-kill");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Child entry point: {@code <config file>}. */
    public static void main(String[] args) throws Exception {
        ChildJvm.exitWhenParentGoes();
        ZooKeeperServerMain.main(args);
    }

    /**
     * Starts the server on a free loopback port with fsync on and waits until it answers {@code ruok}. The child
     * runs through the kit's {@link ServerProcess} (its log in the data directory, SIGKILL on close); it halts by
     * itself when this JVM goes, because its standard input, a pipe this JVM holds, closes.
     *
     * @param tickTime the server's tick in ms; sessions may be 2 to 20 ticks long
     */
    public static ZooKeeperServerProcess start(int tickTime) throws IOException {
        Path dir = Files.createTempDirectory("lock-bench-zk");
        int port = Ports.freeLoopbackPort();
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=" + tickTime,
                "dataDir=" + dir.resolve("data"),
                "clientPort=" + port,
                "clientPortAddress=127.0.0.1",
                "maxClientCnxns=0",
                "minSessionTimeout=" + (2 * tickTime),
                "maxSessionTimeout=" + (20 * tickTime),
                "admin.enableServer=false",
                "4lw.commands.whitelist=srvr,ruok,mntr,cons",
                ""));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", HEAP, "-Djava.awt.headless=true", "-Dzookeeper.forceSync=yes",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                ZooKeeperServerProcess.class.getName(), config.toString());
        ServerProcess process = ServerProcess.command(command).directory(dir).log(dir.resolve("server.log"))
                .startTimeout(Duration.ofSeconds(60)).readyWhen(() -> answers(port));
        ZooKeeperServerProcess server = new ZooKeeperServerProcess(dir, port, tickTime, process);
        try {
            process.start();
        } catch (RuntimeException e) {
            server.close();
            throw new IOException("ZooKeeper child JVM did not answer on port " + port + ": " + e.getMessage(), e);
        }
        return server;
    }

    private static boolean answers(int port) {
        try {
            return fourLetter(port, "ruok").startsWith("imok");
        } catch (IOException notYet) {
            return false;
        }
    }

    public int port() {
        return port;
    }

    public String connectString() {
        return "127.0.0.1:" + port;
    }

    public int tickTime() {
        return tickTime;
    }

    public long pid() {
        return process.pid();
    }

    /** @return a one-line description of the server and its settings */
    public String description() {
        return "ZooKeeper " + Version.getFullVersion().split("[ ,]")[0] + " standalone in a separate JVM ("
                + HEAP + ", pid " + process.pid() + "), tickTime " + tickTime + " ms, forceSync=yes (fsync on every "
                + "transaction), NIO connection factory, loopback port " + port + ", data in " + dir;
    }

    /** @return the server's count of packets received from clients since it started */
    public long packetsReceived() throws IOException {
        String srvr = fourLetter("srvr");
        Matcher m = RECEIVED.matcher(srvr);
        if (!m.find()) {
            throw new IOException("no 'Received:' line in srvr output: " + srvr);
        }
        return Long.parseLong(m.group(1));
    }

    /** Sends a four-letter command and returns the answer. */
    public String fourLetter(String command) throws IOException {
        return fourLetter(port, command);
    }

    /**
     * @return the server's {@code mntr} figure of that name (e.g. {@code zk_znode_count},
     *         {@code zk_approximate_data_size}, {@code zk_num_alive_connections})
     */
    public long monitored(String name) throws IOException {
        String mntr = fourLetter("mntr");
        for (String line : mntr.split("\n")) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2 && kv[0].equals(name)) {
                return Long.parseLong(kv[1]);
            }
        }
        throw new IOException("no " + name + " in mntr output: " + mntr);
    }

    private static String fourLetter(int port, String command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(command.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        process.close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
