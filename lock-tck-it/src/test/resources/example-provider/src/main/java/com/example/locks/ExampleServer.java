package com.example.locks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.spi.Deadline;

/**
 * The example's lock server, kept in this JVM: one holder per lock name, waiters parked until it is free, and one
 * counter for fencing tokens, above 2^32 from the start. Found by its port (a number, no socket).
 */
public final class ExampleServer {
    private static final Map<Integer, ExampleServer> SERVERS = new ConcurrentHashMap<>();

    private final int port;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, ExampleLease> holders = new HashMap<>(); // guarded by lock
    private final Map<String, Integer> waiters = new HashMap<>(); // guarded by lock
    private final Set<ExampleBackend> clients = ConcurrentHashMap.newKeySet();
    private long counter = 1L << 32; // guarded by lock

    private ExampleServer(int port) {
        this.port = port;
    }

    /** @return a new server at a port no other server of this JVM has */
    public static ExampleServer start() {
        while (true) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            ExampleServer server = new ExampleServer(port);
            if (SERVERS.putIfAbsent(port, server) == null) {
                return server;
            }
        }
    }

    /**
     * @param port a port
     * @return the server there, or null
     */
    public static ExampleServer at(int port) {
        return SERVERS.get(port);
    }

    /** @return a port where no server is */
    public static int freePort() {
        while (true) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            if (!SERVERS.containsKey(port)) {
                return port;
            }
        }
    }

    /** @return its port */
    public int port() {
        return port;
    }

    void connected(ExampleBackend client) {
        clients.add(client);
    }

    /** Acquires for a client, waiting until the deadline; null if it passed first. */
    ExampleLease acquire(ExampleBackend client, String name, Deadline deadline) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            waiters.merge(name, 1, Integer::sum);
            try {
                while (true) {
                    if (client.isClosed()) {
                        throw new IllegalStateException("the lock service is closed");
                    }
                    if (!holders.containsKey(name)) {
                        ExampleLease lease = new ExampleLease(client, name, ++counter);
                        holders.put(name, lease);
                        return lease;
                    }
                    long left = deadline.remainingNanos();
                    if (left <= 0) {
                        return null;
                    }
                    changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(60)));
                }
            } finally {
                waiters.computeIfPresent(name, (n, count) -> count == 1 ? null : count - 1);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Frees the lock if this lease still holds it: a later holder is never touched. */
    void release(ExampleLease lease) {
        lock.lock();
        try {
            holders.remove(lease.name(), lease);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends a client's session: its leases are freed and its waiters woken to see it closed. */
    void disconnected(ExampleBackend client) {
        clients.remove(client);
        lock.lock();
        try {
            holders.values().removeIf(lease -> lease.client() == client);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Takes a lock from its holder, as a session expiry would, and tells the holder's client. */
    public void forceLoss(String name) {
        ExampleLease lost;
        lock.lock();
        try {
            lost = holders.remove(name);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (lost != null) {
            lost.lose();
        }
    }

    /** @return the holder and the waiters of a lock, as entries under its name, sorted; empty if nobody holds or waits */
    public List<String> residue(String name) {
        lock.lock();
        try {
            List<String> entries = new ArrayList<>();
            ExampleLease holder = holders.get(name);
            if (holder != null) {
                entries.add(name + "/holder-" + holder.fencingToken());
            }
            for (int i = 0; i < waiters.getOrDefault(name, 0); i++) {
                entries.add(name + "/waiter-" + i);
            }
            return entries;
        } finally {
            lock.unlock();
        }
    }

    /** Tells every client its connection is down. */
    public void suspendClients() {
        clients.forEach(ExampleBackend::suspended);
    }

    /** Tells every client its connection is back, its session alive. */
    public void restoreClients() {
        clients.forEach(ExampleBackend::restored);
    }

    /** Removes the server: no client finds it any more. */
    public void stop() {
        SERVERS.remove(port, this);
    }
}
