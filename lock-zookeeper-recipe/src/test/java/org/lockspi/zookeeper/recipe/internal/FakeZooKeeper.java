package org.lockspi.zookeeper.recipe.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * A fake of {@link ZkOps} for the recipe's fast tests: an in-memory tree with ZooKeeper's rules as far as the recipe
 * sees them (ephemeral nodes of a session, a sequence number per parent, czxids from one counter, node data with a
 * version, one-shot watches fired on delete, on a data change and on a child's arrival or departure), several clients (sessions) on one tree, and faults on
 * demand: a {@link Hook} runs before each operation of a client and may throw (a lost connection) or change the tree
 * (a race). Not a server: no network, no threads of its own; a watch's callback runs on the thread whose operation
 * fired it, after the tree's lock is released. The real-server tests of the providers stay the proof of the
 * recipe; this is for the logic, fast.
 */
final class FakeZooKeeper {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final TreeMap<String, Entry> tree = new TreeMap<>(); // guarded by lock
    private final AtomicLong zxid = new AtomicLong(0x1_0000_0000L);
    private final AtomicLong sessions = new AtomicLong(1000);

    /**
     * A node: its creation zxid, its owner session (0: persistent), the next sequence number of its children, its data
     * and data version.
     */
    private static final class Entry {
        final long czxid;
        final long owner;
        int nextSequence;
        byte[] data = new byte[0];
        int version;

        Entry(long czxid, long owner) {
            this.czxid = czxid;
            this.owner = owner;
        }
    }

    /** Runs before each operation of a client, with the operation's name and path; may throw or change the tree. */
    @FunctionalInterface
    interface Hook {
        void before(String op, String path) throws KeeperException, InterruptedException;
    }

    FakeZooKeeper() {
        tree.put("/", new Entry(0, 0));
    }

    /** @return a new client, in a session of its own */
    Client client() {
        return new Client();
    }

    // ---- the tree, as another (plain) client sees it ----------------------------------------------------------------

    /** @return the names of {@code path}'s children in creation order; empty if there is no such node */
    List<String> children(String path) {
        lock.lock();
        try {
            return childrenOf(path);
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the node exists */
    boolean exists(String path) {
        lock.lock();
        try {
            return tree.containsKey(path);
        } finally {
            lock.unlock();
        }
    }

    /** @return the node's czxid; -1 if there is no such node */
    long czxid(String path) {
        lock.lock();
        try {
            Entry e = tree.get(path);
            return e == null ? -1 : e.czxid;
        } finally {
            lock.unlock();
        }
    }

    /** Creates a sequential node as a foreign client (of session 1) would, parents as needed; returns its path. */
    String createForeign(String prefix) {
        List<Runnable> fire = new ArrayList<>();
        String path;
        lock.lock();
        try {
            path = create(prefix, 1, true, new byte[0], fire);
        } finally {
            lock.unlock();
        }
        fire.forEach(Runnable::run);
        return path;
    }

    /** @return the node's data, or null if there is no such node */
    byte[] data(String path) {
        lock.lock();
        try {
            Entry e = tree.get(path);
            return e == null ? null : e.data.clone();
        } finally {
            lock.unlock();
        }
    }

    /** Writes a node's data as another client would, any version (its data watches fire); false if it is gone. */
    boolean setDataForeign(String path, byte[] data) {
        List<Runnable> fire = new ArrayList<>();
        lock.lock();
        try {
            Entry e = tree.get(path);
            if (e == null) {
                return false;
            }
            write(path, e, data, fire);
        } finally {
            lock.unlock();
        }
        fire.forEach(Runnable::run);
        return true;
    }

    /** Deletes a node as another client would (its watches fire); no-op if it is gone. */
    void deleteForeign(String path) {
        List<Runnable> fire = new ArrayList<>();
        lock.lock();
        try {
            remove(path, fire);
        } finally {
            lock.unlock();
        }
        fire.forEach(Runnable::run);
    }

    /**
     * Waits until {@code condition} holds. Every change of the tree or of a watch signals, so this waits on that
     * signal, never on a clock alone.
     *
     * @param what      what is awaited, for the failure
     * @param condition read under the tree's lock
     * @throws AssertionError if it does not hold within 10 s
     */
    void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        lock.lock();
        try {
            while (!condition.getAsBoolean()) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("not within 10 s: " + what + "; tree " + tree.keySet());
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- the tree's rules, under lock -------------------------------------------------------------------------------

    private final Map<String, List<Watch>> dataWatches = new HashMap<>();  // guarded by lock
    private final Map<String, List<Watch>> childWatches = new HashMap<>(); // guarded by lock

    private record Watch(Client client, Runnable callback) {
    }

    private List<String> childrenOf(String path) {
        String prefix = path.equals("/") ? "/" : path + "/";
        List<Map.Entry<String, Entry>> found = new ArrayList<>();
        for (Map.Entry<String, Entry> e : tree.tailMap(prefix, false).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                break;
            }
            if (e.getKey().indexOf('/', prefix.length()) < 0) {
                found.add(e);
            }
        }
        found.sort((a, b) -> Long.compare(a.getValue().czxid, b.getValue().czxid));
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, Entry> e : found) {
            names.add(e.getKey().substring(prefix.length()));
        }
        return names;
    }

    private String create(String pathOrPrefix, long owner, boolean sequential, byte[] data, List<Runnable> fire) {
        String parent = Nodes.parentOf(pathOrPrefix);
        for (int slash = parent.indexOf('/', 1); ; slash = parent.indexOf('/', slash + 1)) {
            // missing parents are created, as the ops interface says (as containers; here they simply stay)
            tree.computeIfAbsent(slash < 0 ? parent : parent.substring(0, slash),
                    p -> new Entry(zxid.incrementAndGet(), 0));
            if (slash < 0) {
                break;
            }
        }
        String path = sequential
                ? pathOrPrefix + String.format("%010d", tree.get(parent).nextSequence++) : pathOrPrefix;
        Entry entry = new Entry(zxid.incrementAndGet(), owner);
        entry.data = data.clone();
        tree.put(path, entry);
        take(childWatches, parent, fire);
        changed.signalAll();
        return path;
    }

    private void write(String path, Entry e, byte[] data, List<Runnable> fire) {
        e.data = data.clone();
        e.version++;
        take(dataWatches, path, fire);
        changed.signalAll();
    }

    private boolean remove(String path, List<Runnable> fire) {
        if (tree.remove(path) == null) {
            return false;
        }
        take(dataWatches, path, fire);
        take(childWatches, Nodes.parentOf(path), fire);
        changed.signalAll();
        return true;
    }

    private static void take(Map<String, List<Watch>> watches, String path, List<Runnable> fire) {
        List<Watch> set = watches.remove(path);
        if (set != null) {
            set.forEach(w -> fire.add(w.callback()));
        }
    }

    // ---- one client -------------------------------------------------------------------------------------------------

    /** One client of the tree, in one session at a time. */
    final class Client implements ZkOps {
        private volatile long session = sessions.incrementAndGet();
        private volatile ConnectionListener listener;
        private volatile Hook hook = (op, path) -> { };
        private volatile boolean connected = true;
        private volatile boolean closed;
        private final Map<String, Integer> calls = new HashMap<>(); // guarded by the tree's lock

        /** @param hook what runs before each operation from now on */
        void hook(Hook hook) {
            this.hook = hook;
        }

        /** @return how many times the operation ran (its hook included, whatever it threw) */
        int calls(String op) {
            lock.lock();
            try {
                return calls.getOrDefault(op, 0);
            } finally {
                lock.unlock();
            }
        }

        /** The connection drops (the session lives on): operations fail with a connection loss until it returns. */
        void disconnect() {
            connected = false;
            listener.disconnected();
        }

        /** The connection returns in the same session. */
        void reconnect() {
            connected = true;
            listener.reconnected();
        }

        /** The session expires: its ephemeral nodes and its watches go; a new session follows at once. */
        void expire() {
            endSession();
            session = sessions.incrementAndGet();
            listener.sessionExpired();
            connected = true;
            listener.newSession();
        }

        /** The server ends the session: drops its watches (none of ours fires), then deletes its nodes. */
        private void endSession() {
            List<Runnable> fire = new ArrayList<>();
            lock.lock();
            try {
                dataWatches.values().forEach(l -> l.removeIf(w -> w.client() == this));
                childWatches.values().forEach(l -> l.removeIf(w -> w.client() == this));
                for (String path : new ArrayList<>(tree.keySet())) {
                    if (tree.get(path).owner == session) {
                        remove(path, fire);
                    }
                }
            } finally {
                lock.unlock();
            }
            fire.forEach(Runnable::run); // other clients' watches on our nodes
        }

        /**
         * For a hook: creates a sequential node of this session as {@link #createEphemeralSequential} would, without
         * running the hook, so that the hook can then lose the answer (a lost connection after the create went
         * through).
         *
         * @return the node's path
         */
        String createUnanswered(String pathPrefix) {
            return createUnanswered(pathPrefix, new byte[0]);
        }

        private String createUnanswered(String pathPrefix, byte[] data) {
            List<Runnable> fire = new ArrayList<>();
            String path;
            lock.lock();
            try {
                path = create(pathPrefix, session, true, data, fire);
            } finally {
                lock.unlock();
            }
            fire.forEach(Runnable::run);
            return path;
        }

        /** @return how many watches of this client are set on {@code path} */
        int watches(String path) {
            lock.lock();
            try {
                return (int) (dataWatches.getOrDefault(path, List.of()).stream().filter(w -> w.client() == this).count()
                        + childWatches.getOrDefault(path, List.of()).stream().filter(w -> w.client() == this).count());
            } finally {
                lock.unlock();
            }
        }

        private void enter(String op, String path) throws KeeperException, InterruptedException {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            lock.lock();
            try {
                calls.merge(op, 1, Integer::sum);
            } finally {
                lock.unlock();
            }
            hook.before(op, path);
            if (!connected) {
                throw new KeeperException.ConnectionLossException();
            }
        }

        @Override
        public Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException {
            return createEphemeralSequential(pathPrefix, new byte[0]);
        }

        @Override
        public Node createEphemeralSequential(String pathPrefix, byte[] data) throws KeeperException,
                InterruptedException {
            enter("create", pathPrefix);
            String path = createUnanswered(pathPrefix, data);
            return new Node(path, FakeZooKeeper.this.czxid(path));
        }

        @Override
        public Node createEphemeral(String path) throws KeeperException, InterruptedException {
            return createEphemeral(path, new byte[0]);
        }

        @Override
        public Node createEphemeral(String path, byte[] data) throws KeeperException, InterruptedException {
            enter("create", path);
            List<Runnable> fire = new ArrayList<>();
            lock.lock();
            try {
                if (tree.containsKey(path)) {
                    throw new KeeperException.NodeExistsException(path);
                }
                create(path, session, false, data, fire);
            } finally {
                lock.unlock();
            }
            fire.forEach(Runnable::run);
            return new Node(path, FakeZooKeeper.this.czxid(path));
        }

        @Override
        public NodeData data(String path) throws KeeperException, InterruptedException {
            enter("data", path);
            lock.lock();
            try {
                Entry e = tree.get(path);
                return e == null ? null : new NodeData(e.data.clone(), e.version);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
            enter("setData", path);
            List<Runnable> fire = new ArrayList<>();
            lock.lock();
            try {
                Entry e = tree.get(path);
                if (e == null) {
                    throw new KeeperException.NoNodeException(path);
                }
                if (e.version != version) {
                    throw new KeeperException.BadVersionException(path);
                }
                write(path, e, data, fire);
            } finally {
                lock.unlock();
            }
            fire.forEach(Runnable::run);
        }

        @Override
        public long czxid(String path) throws KeeperException, InterruptedException {
            enter("czxid", path);
            return FakeZooKeeper.this.czxid(path);
        }

        @Override
        public Stat stat(String path) throws KeeperException, InterruptedException {
            enter("stat", path);
            lock.lock();
            try {
                Entry e = tree.get(path);
                if (e == null) {
                    return null;
                }
                Stat stat = new Stat();
                stat.setCzxid(e.czxid);
                stat.setEphemeralOwner(e.owner);
                return stat;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<String> children(String path) throws KeeperException, InterruptedException {
            enter("children", path);
            lock.lock();
            try {
                if (!tree.containsKey(path)) {
                    throw new KeeperException.NoNodeException(path);
                }
                return childrenOf(path);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
            enter("watchNode", path);
            lock.lock();
            try {
                if (!tree.containsKey(path)) {
                    return false;
                }
                dataWatches.computeIfAbsent(path, p -> new ArrayList<>()).add(new Watch(this, onChange));
                changed.signalAll();
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException {
            enter("watchChildren", path);
            lock.lock();
            try {
                if (!tree.containsKey(path)) {
                    throw new KeeperException.NoNodeException(path);
                }
                childWatches.computeIfAbsent(path, p -> new ArrayList<>()).add(new Watch(this, onChange));
                changed.signalAll();
                return childrenOf(path);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void unwatch(String path, Runnable onChange) {
            lock.lock();
            try {
                for (Map<String, List<Watch>> watches : List.of(dataWatches, childWatches)) {
                    List<Watch> set = watches.get(path);
                    if (set != null) {
                        set.removeIf(w -> w.client() == this && w.callback() == onChange);
                    }
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void delete(String path) throws KeeperException, InterruptedException {
            enter("delete", path);
            List<Runnable> fire = new ArrayList<>();
            lock.lock();
            try {
                if (!remove(path, fire)) {
                    throw new KeeperException.NoNodeException(path);
                }
            } finally {
                lock.unlock();
            }
            fire.forEach(Runnable::run);
        }

        @Override
        public void connectionListener(ConnectionListener listener) {
            this.listener = listener;
        }

        @Override
        public String address() {
            return "fake:2181";
        }

        /** Closes the session, as a real client's close does: its nodes go at once. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                endSession();
            }
        }
    }
}
