package org.lockspi.tck.reference;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;

/**
 * The reference lock server: one namespace of in-memory lock queues, kept in a static registry so that every
 * client of the JVM that names the namespace in its URI ({@code mem://local/<namespace>}) shares it. Each lock
 * name has a queue of entries in arrival order, like ZooKeeper's sequential nodes; a central grant step hands
 * the lock to waiters in queue order (FIFO), and waiters sleep on one condition.
 *
 * <p>Every field is guarded by {@link #lock}.
 */
final class MemServer {
    private static final Map<String, MemServer> SERVERS = new ConcurrentHashMap<>();

    final String namespace;
    final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, List<Entry>> queues = new HashMap<>();
    /**
     * Fencing counters per lock name; they outlive the queues, as a zxid outlives its nodes, and start at
     * {@code TckBackend.HIGH_COUNTER_FLOOR} (2^32), as zxids of a later ZooKeeper epoch do.
     */
    private final Map<String, Long> tokens = new HashMap<>();
    private final Set<MemBackend> clients = new CopyOnWriteArraySet<>();
    /** The waiters that wait in I/O ({@link MemBackend#waitsInIo()}), woken with the others. */
    private final List<IoWaker> wakers = new ArrayList<>();
    private long sequence;
    private boolean stopped;

    private MemServer(String namespace) {
        this.namespace = namespace;
    }

    /** @return a new server under a fresh namespace */
    static MemServer start() {
        String namespace = "ns-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
        MemServer server = new MemServer(namespace);
        SERVERS.put(namespace, server);
        return server;
    }

    /** @return the running server of a namespace, or null */
    static MemServer find(String namespace) {
        return SERVERS.get(namespace);
    }

    /** Stops the server: its clients' waiting acquisitions fail, and the namespace is forgotten. */
    void stop() {
        SERVERS.remove(namespace, this);
        for (MemBackend client : clients) {
            client.close();
        }
        lock.lock();
        try {
            stopped = true;
            queues.clear();
            signal();
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@link #stop()} was called */
    boolean isStopped() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
    }

    void connect(MemBackend client) {
        clients.add(client);
    }

    /** The server side of {@link MemBackend#acquire}. */
    Entry acquire(MemBackend client, AcquireRequest request, Deadline deadline, Defect defect)
            throws InterruptedException {
        lock.lock();
        try {
            checkUsable(client);
            List<Entry> queue = queues.computeIfAbsent(request.name(), n -> new ArrayList<>());
            Entry entry = new Entry(client, request, ++sequence);
            queue.add(entry);
            if (request.heldWrite() != null || defect == Defect.GRANT_ALL) {
                grant(entry); // a downgrade is granted at once, though our own write is ahead
            } else {
                promote(request.name(), defect);
            }
            while (true) {
                if (client.isClosed() || stopped) {
                    remove(entry, defect);
                    throw new IllegalStateException("mem client closed while acquiring " + request);
                }
                if (entry.granted) {
                    return entry;
                }
                if (deadline.hasExpired()) {
                    if (defect != Defect.LEAK_ON_TIMEOUT) {
                        remove(entry, defect);
                    }
                    return null;
                }
                try {
                    if (client.waitsInIo()) {
                        awaitInIo(deadline);
                    } else if (deadline.isInfinite()) {
                        changed.await();
                    } else {
                        changed.awaitNanos(deadline.remainingNanos());
                    }
                } catch (InterruptedException e) {
                    if (defect != Defect.LEAK_ON_INTERRUPT) {
                        remove(entry, defect);
                    }
                    throw e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the next change blocked in I/O, without the lock; the caller holds it before and after. */
    private void awaitInIo(Deadline deadline) throws InterruptedException {
        try (IoWaker waker = new IoWaker()) {
            wakers.add(waker);
            lock.unlock();
            try {
                waker.await(deadline.isInfinite() ? 0 : Math.max(1, deadline.remainingNanos()));
            } finally {
                lock.lock();
                wakers.remove(waker);
            }
        }
    }

    /** Wakes every waiter. Caller holds the lock. */
    private void signal() {
        changed.signalAll();
        wakers.forEach(IoWaker::wake);
    }

    private void checkUsable(MemBackend client) {
        if (client.isClosed()) {
            throw new IllegalStateException("mem client is closed: " + client);
        }
        if (stopped) {
            throw new IllegalStateException("mem server stopped: " + namespace);
        }
    }

    /** Grants waiting entries of one lock that may hold it now, in queue order (or its reverse, for LIFO). */
    private void promote(String name, Defect defect) {
        List<Entry> queue = queues.get(name);
        if (queue == null) {
            return;
        }
        List<Entry> order = new ArrayList<>(queue);
        if (defect == Defect.LIFO) {
            java.util.Collections.reverse(order);
        }
        boolean any = false;
        for (Entry e : order) {
            if (e.granted) {
                continue;
            }
            if (defect != Defect.GRANT_ALL && !grantable(queue, e)) {
                break; // strict queue order: whoever is blocked blocks those behind it
            }
            grant(e);
            any = true;
        }
        if (any) {
            signal();
        }
    }

    private static boolean grantable(List<Entry> queue, Entry e) {
        List<Entry> holders = queue.stream().filter(x -> x.granted).collect(Collectors.toList());
        switch (e.kind) {
            case READ:
                return holders.stream().noneMatch(h -> h.kind == LockKind.WRITE);
            case SEMAPHORE:
                return holders.size() < e.permits;
            default:
                return holders.isEmpty();
        }
    }

    private void grant(Entry e) {
        e.granted = true;
        e.token = tokens.merge(e.name, (1L << 32) + 1, (old, first) -> old + 1);
    }

    /** Removes an entry (if still there) and lets the queue move on. Caller holds the lock. */
    private void remove(Entry e, Defect defect) {
        List<Entry> queue = queues.get(e.name);
        if (queue != null && queue.remove(e)) {
            if (queue.isEmpty()) {
                queues.remove(e.name);
            }
            promote(e.name, defect);
        }
        signal();
    }

    void release(Entry e) {
        lock.lock();
        try {
            remove(e, e.client.defect());
        } finally {
            lock.unlock();
        }
    }

    /** Removes every entry of a closing client, held or waiting, and wakes its waiters. */
    void disconnect(MemBackend client) {
        clients.remove(client);
        lock.lock();
        try {
            for (List<Entry> queue : new ArrayList<>(queues.values())) {
                for (Entry e : new ArrayList<>(queue)) {
                    if (e.client == client) {
                        remove(e, client.defect());
                    }
                }
            }
            signal();
        } finally {
            lock.unlock();
        }
    }

    /** @return the entries of one lock, held and waiting, as sorted strings */
    List<String> residue(String name) {
        lock.lock();
        try {
            return queues.getOrDefault(name, List.of()).stream().map(Entry::toString).sorted()
                    .collect(Collectors.toList());
        } finally {
            lock.unlock();
        }
    }

    /** Takes a lock from every holder, as a session expiry would, and tells their clients. */
    void forceLoss(String name) {
        List<Entry> lost = new ArrayList<>();
        lock.lock();
        try {
            for (Entry e : new ArrayList<>(queues.getOrDefault(name, List.of()))) {
                if (e.granted) {
                    e.lost = true;
                    lost.add(e);
                    remove(e, e.client.defect());
                }
            }
        } finally {
            lock.unlock();
        }
        for (Entry e : lost) {
            e.client.events().leaseLost(e);
        }
    }

    /** Drops an empty lock's queue; its fencing counter stays. */
    void removeEmptyParents(String name) {
        lock.lock();
        try {
            List<Entry> queue = queues.get(name);
            if (queue != null && queue.isEmpty()) {
                queues.remove(name);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Tells every client its connection was suspended, as a stopped server does; they still reach its state. */
    void suspendAll() {
        for (MemBackend client : clients) {
            client.events().connectionSuspended();
        }
    }

    /** Tells every client its connection was restored, as a server started again does. */
    void restoreAll() {
        for (MemBackend client : clients) {
            client.events().connectionRestored();
        }
    }

    /**
     * Tells every client its connection was suspended and then restored, as a server restart does.
     *
     * @param sessionsDie whether held locks are lost meanwhile, as on a server whose sessions die with it
     */
    void restart(boolean sessionsDie) {
        for (MemBackend client : clients) {
            client.events().connectionSuspended();
        }
        if (sessionsDie) {
            List<String> names;
            lock.lock();
            try {
                names = new ArrayList<>(queues.keySet());
            } finally {
                lock.unlock();
            }
            names.forEach(this::forceLoss);
        }
        for (MemBackend client : clients) {
            client.events().connectionRestored();
        }
    }

    /** One acquisition, held or waiting: the server state and the backend lease at once. */
    final class Entry implements BackendLease {
        final MemBackend client;
        final String name;
        final LockKind kind;
        final int permits;
        final long seq;
        boolean granted;
        long token = -1;
        volatile boolean lost;

        Entry(MemBackend client, AcquireRequest request, long seq) {
            this.client = client;
            this.name = request.name();
            this.kind = request.kind();
            this.permits = request.permits();
            this.seq = seq;
        }

        @Override
        public long fencingToken() {
            lock.lock();
            try {
                return token;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean isLost() {
            return lost;
        }

        @Override
        public void release() {
            MemServer.this.release(this);
        }

        @Override
        public String toString() {
            return name + "/" + kind + "-" + String.format("%010d", seq);
        }
    }
}
