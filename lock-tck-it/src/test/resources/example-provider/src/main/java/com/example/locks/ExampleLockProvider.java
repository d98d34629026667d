package com.example.locks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.EnumSet;
import java.util.Set;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * A small lock provider, scheme {@code example}: a mutex with fencing tokens and lost-lease notification (the
 * kit's minimum profile, CORE) on an {@link ExampleServer}, which keeps its locks in this JVM and is found by its
 * address, {@code example://127.0.0.1:<port>}. The engine of lock-api gives it reentrancy, ownership, deadlines
 * and lease states; it implements the primitives.
 */
public final class ExampleLockProvider implements LockProvider {
    private static final Set<LockFeature> FEATURES = Set.copyOf(EnumSet.of(LockFeature.REENTRANT_MUTEX,
            LockFeature.FENCING_TOKENS, LockFeature.LOST_NOTIFICATION));

    @Override
    public String name() {
        return "example";
    }

    @Override
    public String version() {
        return "1.0";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("example");
    }

    @Override
    public Set<LockFeature> features() {
        return FEATURES;
    }

    @Override
    public Set<String> parameters() {
        return Set.of();
    }

    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        String address = uri.hosts().get(0);
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("example URI needs host:port: " + uri);
        }
        String host = address.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number: " + address, e);
        }
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new LockConnectionException("unknown host " + host, e);
        }
        ExampleServer server = ExampleServer.at(port);
        if (server == null) {
            throw new LockConnectionException("no example lock server at " + host + ":" + port);
        }
        return new ExampleBackend(server, events);
    }
}
