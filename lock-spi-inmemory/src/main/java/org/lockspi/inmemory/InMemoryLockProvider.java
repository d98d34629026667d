package org.lockspi.inmemory;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.lockspi.LockFeature;
import org.lockspi.inmemory.internal.Conduct;
import org.lockspi.inmemory.internal.Spaces;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * The in-memory provider, {@code inmemory}: locks that live in this JVM, for the unit tests of applications
 * written against {@code lock-api}. It serves the scheme {@code mem} only (priority 0, the only provider of it),
 * so it never competes with a real provider.
 *
 * <h2>URI</h2>
 * {@code mem://<space>[/<path>][?ifExists=true]}. A <em>space</em> is a named set of locks in this JVM, as
 * {@code jdbc:h2:mem:<name>} names a database: two services on the same space are two clients contending for the
 * same locks; services on different spaces never meet. Lock names live under the path, if one is given, as under a
 * ZooKeeper URI's path. A space begins with its first service and ends when its last service closes (its locks
 * and fencing counters with it); {@link InMemoryLocks#newSpace()} gives a URI no other test uses. The name is 1 to
 * 255 characters of {@code [A-Za-z0-9._-]}; a user, password, port or second host is refused with
 * {@code IllegalArgumentException}. Parameter:
 * <ul>
 *   <li>{@code ifExists} (default {@code false}): with {@code true}, {@code open} fails with
 *       {@link org.lockspi.LockConnectionException} unless a service already uses the space, so that a misspelt
 *       space does not silently become a lock of its own.</li>
 * </ul>
 *
 * <h2>Semantics</h2>
 * Each lock has a queue of acquisitions in arrival order: waiters are granted in that order across clients
 * ({@link LockFeature#FAIR}; a waiting writer blocks later readers), and a release wakes only the waiters it
 * grants ({@link LockFeature#HERD_FREE}). Fencing tokens come from a counter per lock that starts above 2^32, so
 * that an application that keeps a token in an {@code int} fails its tests. A lease is lost only when a test says
 * so ({@link InMemoryLocks#expire}); it then turns {@code LOST} and its listeners are told
 * ({@link LockFeature#LOST_NOTIFICATION}). Waiting threads park; nothing polls, and the provider starts no thread
 * of its own.
 *
 * <p>A lease time ({@link LockFeature#LEASE_TIME}) ends a grant at the instant it was made plus the lease time, on
 * {@link System#nanoTime()}'s clock, which the space and the engine share: the lease turns {@code LOST} then, and
 * the space frees the lock when it is next looked at (an acquisition of it, a waiter for it, which wakes at that
 * instant, an inspection), telling the holder's service before it grants the next waiter.
 *
 * <p>A revocation ({@link LockFeature#REVOCATION}) of a lease whose service opted in turns it {@code LOST}, tells its
 * service and grants the next waiters in one step under the space's lock: its bound is the call itself.
 *
 * <h2>Not declared</h2>
 * {@link LockFeature#CRASH_RELEASE} (a holder's process is this JVM; nothing survives its death, and no other
 * process can reach the space), {@link LockFeature#LEASE_RENEWAL} (nothing to renew: a lease is held until it is
 * released, its service closes or a test expires it) and {@link LockFeature#SURVIVES_RESTART} (there is no server
 * to restart).
 */
public final class InMemoryLockProvider implements LockProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "inmemory";
    /** The scheme it serves: {@value}. */
    public static final String SCHEME = "mem";

    private static final Set<LockFeature> FEATURES = Collections.unmodifiableSet(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FAIR, LockFeature.HERD_FREE, LockFeature.FENCING_TOKENS,
            LockFeature.LOST_NOTIFICATION, LockFeature.INSPECTION, LockFeature.LEASE_TIME,
            LockFeature.REVOCATION));
    private static final String VERSION = loadVersion();

    /** For {@link java.util.ServiceLoader}; cheap, begins no space. */
    public InMemoryLockProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public Set<String> schemes() {
        return Set.of(SCHEME);
    }

    @Override
    public Set<LockFeature> features() {
        return FEATURES;
    }

    @Override
    public Set<String> parameters() {
        return Set.of("ifExists");
    }

    /**
     * Connects to the space the URI names, beginning it unless {@code ifExists=true}. Never blocks.
     *
     * @throws IllegalArgumentException             if the URI has a user, password, port or several hosts, or
     *                                              {@code ifExists} is neither {@code true} nor {@code false}
     * @throws org.lockspi.LockConnectionException if {@code ifExists=true} and no service uses the space
     */
    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        Objects.requireNonNull(uri, "uri");
        if (!SCHEME.equals(uri.scheme())) {
            throw new IllegalArgumentException("provider '" + NAME + "' serves " + SCHEME + ", not: " + uri);
        }
        return Spaces.connect(uri, uri.bool("ifExists", false), events, Conduct.STANDARD);
    }

    private static String loadVersion() {
        try (InputStream in = InMemoryLockProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    @Override
    public String toString() {
        return NAME + " " + VERSION;
    }
}
