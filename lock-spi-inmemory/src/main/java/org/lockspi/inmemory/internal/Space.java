package org.lockspi.inmemory.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.lockspi.LockInfo;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;

/**
 * One named space of locks in this JVM, the in-memory provider's server: every client connected to it contends
 * for the same locks. Each lock key has a queue of entries in arrival order, as ZooKeeper has sequential nodes; a
 * grant step hands the lock to waiting entries in queue order (FIFO), a blocked entry blocking those behind it,
 * and wakes only the entries it grants (herd-free). Fencing tokens come from a counter per key that outlives its
 * queue and starts above 2^32.
 *
 * <p>Every field is guarded by {@link #lock}, but {@link #clients} (a concurrent set) and {@link #ended}.
 */
public final class Space {
    /** The first fencing token of every lock: 2^32 + 1, so that a token cut to 32 bits shows at once. */
    static final long FIRST_TOKEN = (1L << 32) + 1;

    private final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, List<Entry>> queues = new HashMap<>();
    private final Map<String, Long> tokens = new HashMap<>();
    private final Set<SpaceClient> clients = new CopyOnWriteArraySet<>();
    private long sequence;
    private volatile boolean ended;
    /** Services and pins using the space; guarded by {@link Spaces}' monitor. */
    int users;

    Space(String name) {
        this.name = name;
    }

    /** @return the space's name, the host of its URIs */
    public String name() {
        return name;
    }

    /** @return whether the space has ended: its last user left, or {@link #shutDown()} ended it */
    public boolean isEnded() {
        return ended;
    }

    /** @return the clients connected now */
    public Set<SpaceClient> clients() {
        return Set.copyOf(clients);
    }

    void connect(SpaceClient client) {
        clients.add(client);
    }

    void end() {
        ended = true;
    }

    /** The server side of {@link SpaceClient#acquire}; see {@code LockBackend.acquire} for the contract. */
    Entry acquire(SpaceClient client, String key, AcquireRequest request, Deadline deadline)
            throws InterruptedException {
        Conduct conduct = client.conduct();
        lock.lock();
        try {
            checkUsable(client);
            Entry entry = new Entry(this, client, key, request, ++sequence);
            queues.computeIfAbsent(key, k -> new ArrayList<>()).add(entry);
            if (request.heldWrite() != null) {
                grant(entry); // a downgrade is granted at once, though our own write is ahead of it
            } else {
                promote(key, conduct);
            }
            try {
                while (true) {
                    endLeaseTimes(key, conduct);
                    if (client.isClosed() || ended) {
                        remove(entry, conduct);
                        throw new IllegalStateException("in-memory client closed while acquiring " + request
                                + ": " + client);
                    }
                    if (entry.granted) {
                        return entry;
                    }
                    if (deadline.hasExpired()) {
                        if (!conduct.leavesEntryOnTimeout()) {
                            remove(entry, conduct);
                        }
                        return null;
                    }
                    if (entry.waiter == null) {
                        entry.waiter = conduct.newWaiter(lock);
                    }
                    try {
                        entry.waiter.await(deadline.earliest(nextEnd(key)));
                    } catch (InterruptedException e) {
                        if (!conduct.leavesEntryOnInterrupt()) {
                            remove(entry, conduct);
                        }
                        throw e;
                    }
                }
            } finally {
                if (entry.waiter != null) {
                    entry.waiter.close();
                    entry.waiter = null;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkUsable(SpaceClient client) {
        if (client.isClosed()) {
            throw new IllegalStateException("in-memory client is closed: " + client);
        }
        if (ended) {
            throw new IllegalStateException("in-memory space has ended: " + name);
        }
    }

    /** Grants the waiting entries of one key that may hold it now, in the conduct's order. Caller holds the lock. */
    private void promote(String key, Conduct conduct) {
        List<Entry> queue = queues.get(key);
        if (queue == null) {
            return;
        }
        for (Entry e : conduct.grantOrder(new ArrayList<>(queue))) {
            if (e.granted) {
                continue;
            }
            if (!conduct.grantable(mayHold(queue, e))) {
                break; // strict queue order: whoever is blocked blocks those behind it
            }
            grant(e);
        }
    }

    /** @return whether the rules of its kind let a waiting entry hold the lock beside the current holders */
    private static boolean mayHold(List<Entry> queue, Entry e) {
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
        e.since = Instant.now();
        if (e.leaseTimeNanos > 0) {
            e.endNanos = System.nanoTime() + e.leaseTimeNanos;
        }
        e.token = tokens.merge(e.key, FIRST_TOKEN, (old, first) -> old + 1);
        e.wake();
    }

    /**
     * Ends the grants of one key whose lease time has run out, as a server expires a key: each turns lost, its
     * client is told, and only then are the next waiters granted, so that the holder's listeners hear of the loss
     * before another client holds. Called whenever the key is looked at (an acquisition, a waiter waking at the
     * end, an inspection): expired state is freed when it is next asked for. Caller holds the lock; the client is
     * told under it, which is safe because the engine never calls into the space while it holds its own guard.
     */
    private void endLeaseTimes(String key, Conduct conduct) {
        List<Entry> queue = queues.get(key);
        if (queue == null) {
            return;
        }
        long now = System.nanoTime();
        List<Entry> ended = new ArrayList<>(0);
        for (Entry e : queue) {
            if (e.endedBy(now)) {
                ended.add(e);
            }
        }
        if (ended.isEmpty()) {
            return;
        }
        for (Entry e : ended) {
            e.lost = true;
            queue.remove(e);
            e.client.events().leaseLost(e, "its lease time of " + java.time.Duration.ofNanos(e.leaseTimeNanos)
                    + " ran out in the in-memory space");
        }
        if (queue.isEmpty()) {
            queues.remove(key);
        } else {
            promote(key, conduct);
        }
    }

    /** @return a deadline at the first end of a lease time among the key's holders, or none. Caller holds the lock. */
    private Deadline nextEnd(String key) {
        long next = Long.MAX_VALUE;
        for (Entry e : queues.getOrDefault(key, List.of())) {
            long end = e.granted ? e.endNanos : Long.MAX_VALUE;
            if (end != Long.MAX_VALUE && (next == Long.MAX_VALUE || end - next < 0)) {
                next = end;
            }
        }
        return next == Long.MAX_VALUE ? Deadline.none()
                : Deadline.after(java.time.Duration.ofNanos(Math.max(0, next - System.nanoTime())));
    }

    /** {@link #endLeaseTimes} for every key. Caller holds the lock. */
    private void endAllLeaseTimes() {
        for (String key : new ArrayList<>(queues.keySet())) {
            List<Entry> queue = queues.get(key);
            endLeaseTimes(key, queue.get(0).client.conduct());
        }
    }

    /** Removes an entry, if it is still there, and lets its queue move on. Caller holds the lock. */
    private void remove(Entry e, Conduct conduct) {
        List<Entry> queue = queues.get(e.key);
        if (queue != null && queue.remove(e)) {
            if (queue.isEmpty()) {
                queues.remove(e.key);
            }
            promote(e.key, conduct);
        }
    }

    void release(Entry e) {
        lock.lock();
        try {
            remove(e, e.client.conduct());
        } finally {
            lock.unlock();
        }
    }

    /** Removes every entry of a closing client, held or waiting, and wakes its waiting threads. */
    void disconnect(SpaceClient client) {
        clients.remove(client);
        lock.lock();
        try {
            List<Entry> own = new ArrayList<>();
            queues.values().forEach(q -> q.stream().filter(e -> e.client == client).forEach(own::add));
            for (Entry e : own) {
                remove(e, client.conduct());
                e.wake();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a lock from every holder, as a server does when their sessions expire: each holder's lease turns
     * lost (its client is told), its entry is removed, and the next waiters are granted.
     *
     * @param key the lock's key in the space
     * @return how many leases were taken
     */
    public int expire(String key) {
        List<Entry> lost = new ArrayList<>();
        lock.lock();
        try {
            // the holders now, not the waiters that removing them lets in
            queues.getOrDefault(key, List.of()).stream().filter(e -> e.granted).forEach(lost::add);
            for (Entry e : lost) {
                e.lost = true;
                remove(e, e.client.conduct());
            }
        } finally {
            lock.unlock();
        }
        for (Entry e : lost) {
            e.client.events().leaseLost(e, "its lease was ended in the in-memory space");
        }
        return lost.size();
    }

    /**
     * The server side of {@code LockBackend.revoke}: the holder with the token turns lost and its client is told,
     * and only then is its entry removed and the next waiters granted, all under the space's lock, so no other
     * client holds before the holder's lease reads {@code LOST}. Safe to tell the client under the lock, as in
     * {@link #endLeaseTimes}.
     *
     * @return whether a holder had the token
     * @throws IllegalStateException if that holder is not revocable, or the asker's client is closed
     */
    boolean revoke(SpaceClient asker, String key, long token, String requestedBy) {
        lock.lock();
        try {
            checkUsable(asker);
            endLeaseTimes(key, asker.conduct());
            Entry holder = queues.getOrDefault(key, List.of()).stream().filter(e -> e.granted && e.token == token)
                    .findFirst().orElse(null);
            if (holder == null) {
                return false;
            }
            if (!holder.revocable) {
                throw new IllegalStateException("the holder with token " + token + " does not accept revocation: "
                        + "its service was opened without " + org.lockspi.Locks.REVOCABLE_PARAMETER + "=true");
            }
            holder.lost = true;
            holder.client.events().leaseLost(holder, "revoked at the request of " + requestedBy);
            remove(holder, holder.client.conduct());
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * @param key a lock's key in the space
     * @return its entries, held and waiting, as {@code <key>/<KIND>-<sequence>}, sorted
     */
    public List<String> residue(String key) {
        lock.lock();
        try {
            endAllLeaseTimes();
            return queues.getOrDefault(key, List.of()).stream().map(Entry::toString).sorted()
                    .collect(Collectors.toList());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The server's view of one lock, for {@code LockBackend.inspect}.
     *
     * @param asker the client asking, whose own entries are marked {@code own}
     * @param key   the lock's key in the space
     * @param name  the name the view is given
     * @return the holders in queue order and the number of waiting entries
     */
    LockInfo inspect(SpaceClient asker, String key, String name) {
        lock.lock();
        try {
            endAllLeaseTimes();
            List<Entry> queue = queues.getOrDefault(key, List.of());
            if (queue.isEmpty()) {
                return LockInfo.empty(name);
            }
            List<LockInfo.Holder> holders = new ArrayList<>();
            int waiters = 0;
            for (Entry e : queue) {
                if (e.granted) {
                    holders.add(new LockInfo.Holder(mode(e.kind), OptionalLong.of(e.token), Optional.of(e.since),
                            e.client == asker));
                } else {
                    waiters++;
                }
            }
            return new LockInfo(name, kind(queue.get(0).kind), holders, waiters);
        } finally {
            lock.unlock();
        }
    }

    private static LockInfo.Mode mode(LockKind kind) {
        switch (kind) {
            case READ:
                return LockInfo.Mode.READ;
            case WRITE:
                return LockInfo.Mode.WRITE;
            case SEMAPHORE:
                return LockInfo.Mode.PERMIT;
            default:
                return LockInfo.Mode.EXCLUSIVE;
        }
    }

    private static LockInfo.Kind kind(LockKind kind) {
        switch (kind) {
            case READ:
            case WRITE:
                return LockInfo.Kind.READ_WRITE;
            case SEMAPHORE:
                return LockInfo.Kind.SEMAPHORE;
            default:
                return LockInfo.Kind.MUTEX;
        }
    }

    /** @return the keys that have entries now */
    public List<String> keys() {
        lock.lock();
        try {
            endAllLeaseTimes();
            return new ArrayList<>(queues.keySet());
        } finally {
            lock.unlock();
        }
    }

    /** Ends the space at once: every client is closed (its waiting acquisitions fail), every entry dropped. */
    public void shutDown() {
        ended = true;
        clients().forEach(SpaceClient::close);
        lock.lock();
        try {
            queues.values().forEach(q -> q.forEach(Entry::wake));
            queues.clear();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Space[" + name + (ended ? ", ended" : "") + "]";
    }
}
