package org.lockspi.tck.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.lockspi.tck.EnsembleBackend;
import org.lockspi.tck.internal.Failures;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.TempDir;
import org.lockspi.tck.support.ChildJvm;

/**
 * A real ZooKeeper ensemble of three servers (the version on the class path), each a {@link ChildJvm} running
 * {@link EnsemblePeerMain}, on free ports of {@code 127.0.0.1} with their data in a temporary directory.
 * Capabilities: {@link Capability#ENSEMBLE}, {@link Capability#INSPECT} (through a plain client, after a
 * {@code sync}) and {@link Capability#OTHER_PROCESSES}.
 *
 * <p>The members run with a fast tick ({@value #TICK_MS} ms, initLimit 10 and syncLimit 5 ticks), so an
 * election after a leader's death takes about a second; sessions from 1 s to 60 s; admin server off; of the
 * four-letter words only {@code srvr}. Each member reports its role changes as lines, so the backend knows the
 * leader without asking the network. Clients use the chroot {@value #ROOT}, which the backend creates.
 *
 * <pre>{@code
 * try (ZooKeeperEnsembleBackend zk = ZooKeeperEnsembleBackend.start()) {
 *     zk.killLeader();
 *     zk.awaitQuorum();
 *     zk.restartKilled();
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class ZooKeeperEnsembleBackend implements EnsembleBackend {

    /** The chroot clients work under: {@value}. */
    public static final String ROOT = "/tck";
    /** The members' tick in milliseconds. */
    public static final int TICK_MS = 200;
    /** How long start-up, {@link #awaitQuorum()} and {@link #restartKilled()} wait at most. */
    public static final Duration QUORUM_BOUND = Duration.ofSeconds(30);
    private static final int SIZE = 3;

    private final TempDir dir;
    private final Member[] members = new Member[SIZE];
    private boolean closed; // guarded by this

    /** One server: its ports, its process and what it last reported. Fields guarded by the backend. */
    private final class Member {
        final int id;
        final int clientPort;
        final String spec;
        ChildJvm jvm;
        boolean alive;
        String state = "NONE";
        boolean serving;
        /** The last answer to {@code sessions}, and how many answers came. */
        Set<Long> sessions = Set.of();
        int answers;
        final List<String> lines = new ArrayList<>();

        Member(int id, int clientPort, int quorumPort, int electionPort) {
            this.id = id;
            this.clientPort = clientPort;
            this.spec = clientPort + ":" + quorumPort + ":" + electionPort;
        }

        String address() {
            return "127.0.0.1:" + clientPort;
        }

        boolean serves(String role) {
            return alive && serving && state.equals(role);
        }
    }

    private ZooKeeperEnsembleBackend(TempDir dir) {
        this.dir = dir;
        Set<Integer> ports = new HashSet<>();
        while (ports.size() < 3 * SIZE) {
            ports.add(Ports.freeLoopbackPort());
        }
        List<Integer> p = new ArrayList<>(ports);
        for (int i = 0; i < SIZE; i++) {
            members[i] = new Member(i + 1, p.get(3 * i), p.get(3 * i + 1), p.get(3 * i + 2));
        }
    }

    /**
     * Starts three members, waits until all of them serve, and creates the chroot {@value #ROOT}.
     *
     * @return the started ensemble; close it when done
     * @throws IllegalStateException if they do not all serve within {@link #QUORUM_BOUND} (the message quotes
     *                               their output), or the thread is interrupted
     */
    public static ZooKeeperEnsembleBackend start() {
        ZooKeeperEnsembleBackend backend = new ZooKeeperEnsembleBackend(TempDir.create());
        try {
            synchronized (backend) {
                for (Member m : backend.members) {
                    backend.launch(m);
                }
                backend.awaitServing(SIZE, "all " + SIZE + " members to serve");
            }
            PlainClient.run(backend.connectString(), backend.description(), zk -> {
                try {
                    zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException e) {
                    // already there
                }
            });
            return backend;
        } catch (RuntimeException | Error e) {
            try {
                backend.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    @Override
    public String description() {
        return "ZooKeeper " + Version.getVersion() + " ensemble of " + SIZE + " at " + connectString();
    }

    @Override
    public String scheme() {
        return "zookeeper";
    }

    @Override
    public String uri() {
        return "zookeeper://" + connectString() + ROOT;
    }

    @Override
    public String unreachableUri() {
        return "zookeeper://127.0.0.1:" + Ports.freeLoopbackPort() + ROOT;
    }

    /** @return every member's client address, {@code 127.0.0.1:<port>}, comma-separated */
    public String connectString() {
        List<String> hosts = new ArrayList<>();
        for (Member m : members) {
            hosts.add(m.address());
        }
        return String.join(",", hosts);
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.ENSEMBLE, Capability.INSPECT, Capability.OTHER_PROCESSES,
                Capability.ENDS_SILENT_SESSIONS);
    }

    /**
     * The lock and lease nodes below the lock's path, read by a plain client after a {@code sync} with the
     * leader: every ephemeral node and every node whose name ends with a sequence number, at any depth.
     *
     * @return full server paths (with the chroot), sorted
     */
    @Override
    public List<String> residue(String lockName) {
        String path = lockPath(lockName);
        List<String> found = new ArrayList<>();
        PlainClient.run(connectString(), description(), zk -> {
            sync(zk);
            PlainClient.lockNodes(zk, path, found);
        });
        found.sort(null);
        return found;
    }

    /** @throws UnsupportedOperationException always: the ensemble lacks {@link Capability#FORCE_LOSS} */
    @Override
    public void forceLoss(String lockName) {
        throw new UnsupportedOperationException("forceLoss: " + description() + " lacks " + Capability.FORCE_LOSS);
    }

    /** @throws UnsupportedOperationException always: the ensemble lacks {@link Capability#RESTART} */
    @Override
    public void restart() {
        throw new UnsupportedOperationException("restart: " + description() + " lacks " + Capability.RESTART);
    }

    /**
     * @return the client address of the member that serves as leader
     * @throws IllegalStateException if none does within {@link #QUORUM_BOUND}
     */
    public synchronized String leaderAddress() {
        awaitQuorum();
        for (Member m : members) {
            if (m.serves(LEADING)) {
                return m.address();
            }
        }
        throw new IllegalStateException("no leader after the quorum: " + report()); // awaitQuorum saw one
    }

    @Override
    public synchronized Killed killLeader() {
        return kill(LEADING, true);
    }

    @Override
    public synchronized Killed killFollower() {
        return kill(FOLLOWING, false);
    }

    /**
     * Kills a follower that a client of the lock is connected to, preferring the holder's: the session owning
     * the lock node with the lowest sequence number. Kills any follower if no client of the lock is connected to
     * one (they all talk to the leader).
     */
    @Override
    public synchronized Killed killFollower(String lockName) {
        checkOpen();
        awaitQuorum();
        List<String> nodes = new ArrayList<>();
        List<Long> owners = new ArrayList<>();
        PlainClient.run(connectString(), description(), zk -> {
            sync(zk);
            PlainClient.lockNodes(zk, lockPath(lockName), nodes);
            nodes.sort(Comparator.comparing(n -> n.substring(Math.max(0, n.length() - 10))));
            for (String node : nodes) {
                Stat stat = zk.exists(node, false);
                if (stat != null && stat.getEphemeralOwner() != 0) {
                    owners.add(stat.getEphemeralOwner());
                }
            }
        });
        Member best = null;
        int bestRank = Integer.MAX_VALUE;
        for (Member m : members) {
            if (m.serves(FOLLOWING)) {
                Set<Long> connected = sessionsOf(m);
                for (int rank = 0; rank < owners.size() && rank < bestRank; rank++) {
                    if (connected.contains(owners.get(rank))) {
                        best = m;
                        bestRank = rank;
                    }
                }
            }
        }
        return best == null ? kill(FOLLOWING, false) : kill(best, bestRank == 0);
    }

    /** Asks the member which sessions are connected to it. Holds the monitor. */
    private Set<Long> sessionsOf(Member m) {
        int before = m.answers;
        m.jvm.send("sessions");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (m.answers == before) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !m.alive) {
                throw new IllegalStateException("member " + m.id + " did not list its sessions within 10 s; "
                        + report());
            }
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking member " + m.id + " for sessions", e);
            }
        }
        return m.sessions;
    }

    private static Set<Long> parseSessions(String hexList) {
        Set<Long> ids = new HashSet<>();
        for (String id : hexList.split(",")) {
            if (!id.isBlank()) {
                ids.add(Long.parseUnsignedLong(id.strip(), 16));
            }
        }
        return ids;
    }

    private static final String LEADING = "LEADING";
    private static final String FOLLOWING = "FOLLOWING";

    private Killed kill(String role, boolean holderCut) {
        checkOpen();
        for (Member m : members) {
            if (!m.alive) {
                throw new IllegalStateException("member " + m.id + " is down already; restartKilled() first");
            }
        }
        awaitQuorum();
        for (Member m : members) {
            if (m.serves(role)) {
                return kill(m, holderCut);
            }
        }
        throw new IllegalStateException("no member serves as " + role + ": " + report());
    }

    private Killed kill(Member m, boolean holderCut) {
        m.alive = false;
        long at = System.nanoTime();
        m.jvm.kill();
        return new Killed(m.address(), holderCut, at);
    }

    @Override
    public synchronized void restartKilled() {
        checkOpen();
        for (Member m : members) {
            if (!m.alive) {
                ChildJvm old = m.jvm;
                m.jvm = null;
                old.close();
                launch(m);
                awaitServing(SIZE, "member " + m.id + " to rejoin");
            }
        }
    }

    @Override
    public synchronized void awaitQuorum() {
        checkOpen();
        awaitServing(SIZE / 2 + 1, "a leader and a majority to serve");
    }

    @Override
    public Duration quorumBound() {
        return QUORUM_BOUND;
    }

    /** Waits until a leader serves and {@code count} members serve in all. Holds the monitor. */
    private void awaitServing(int count, String what) {
        long deadline = System.nanoTime() + QUORUM_BOUND.toNanos();
        while (true) {
            long leaders = 0;
            long serving = 0;
            for (Member m : members) {
                leaders += m.serves(LEADING) ? 1 : 0;
                serving += m.serves(LEADING) || m.serves(FOLLOWING) ? 1 : 0;
            }
            if (leaders == 1 && serving >= count) {
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no quorum: waited " + QUORUM_BOUND + " for " + what + "; "
                        + report());
            }
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /** Starts the member's JVM and the thread that follows its reports. Holds the monitor. */
    private void launch(Member m) {
        ChildJvm jvm = ChildJvm.start(EnsemblePeerMain.class, Integer.toString(m.id),
                dir.path().resolve("server" + m.id).toString(), Integer.toString(TICK_MS),
                members[0].spec, members[1].spec, members[2].spec);
        m.jvm = jvm;
        m.alive = true;
        m.state = "NONE";
        m.serving = false;
        Thread reader = new Thread(() -> follow(m, jvm), "lockspi-ensemble-member-" + m.id);
        reader.setDaemon(true);
        reader.start();
    }

    /** Reads the member's role lines until its output ends. */
    private void follow(Member m, ChildJvm jvm) {
        while (true) {
            String line;
            try {
                line = jvm.awaitLine(Duration.ofDays(1), "STATE ", "SERVING ", "SESSIONS ", "ERROR ");
            } catch (AssertionError | IllegalStateException e) {
                synchronized (this) {
                    if (m.jvm == jvm) {
                        m.alive = false;
                        m.lines.add("(output ended)");
                        notifyAll();
                    }
                }
                return;
            }
            synchronized (this) {
                if (m.jvm != jvm) {
                    return;
                }
                if (line.startsWith("SESSIONS ")) {
                    m.sessions = parseSessions(line.substring("SESSIONS ".length()));
                    m.answers++;
                    notifyAll();
                    continue;
                }
                m.lines.add(line);
                if (m.lines.size() > 20) {
                    m.lines.remove(0);
                }
                if (line.startsWith("STATE ")) {
                    m.state = line.substring("STATE ".length());
                    m.serving = false;
                } else if (line.startsWith("SERVING ")) {
                    m.state = line.substring("SERVING ".length());
                    m.serving = true;
                }
                notifyAll();
            }
        }
    }

    /** @return each member's state and recent lines, and the end of its standard error. Holds the monitor. */
    private String report() {
        return java.util.Arrays.stream(members).map(m -> "\nmember " + m.id + " at " + m.address()
                + (m.alive ? "" : " (down)") + ": " + m.state + (m.serving ? " serving" : "") + ", lines "
                + m.lines + (m.jvm == null ? "" : m.jvm.stderrTail())).collect(Collectors.joining());
    }

    /** Brings the client's server up to date with the leader, so that its reads are current. */
    private void sync(ZooKeeper zk) throws InterruptedException {
        CountDownLatch synced = new CountDownLatch(1);
        zk.sync(ROOT, (rc, p, ctx) -> synced.countDown(), null);
        if (!synced.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no answer to sync from " + description() + " within 10 s");
        }
    }

    /** Kills every member and deletes the data. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (Member m : members) {
            if (m.jvm != null) {
                ChildJvm jvm = m.jvm;
                m.jvm = null;
                m.alive = false;
                try {
                    jvm.close();
                } catch (RuntimeException e) {
                    failure = Failures.chain(failure, e);
                }
            }
        }
        notifyAll();
        try {
            dir.close();
        } catch (RuntimeException e) {
            failure = Failures.chain(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return description();
    }

    private String lockPath(String lockName) {
        if (lockName == null || lockName.isEmpty() || lockName.startsWith("/") || lockName.endsWith("/")) {
            throw new IllegalArgumentException("not a lock name: " + lockName);
        }
        return ROOT + "/" + lockName;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend closed: " + description());
        }
    }
}
