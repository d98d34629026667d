package org.lockspi.inmemory.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockUri;

/**
 * The spaces of this JVM by name. A space begins when its first user (a service, or a {@link #pin}) arrives and
 * ends when its last one leaves; a later user of the same name gets a new, empty space.
 */
public final class Spaces {
    /** What a space's name may be: the host of a {@code mem://} URI. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,255}");

    private static final Map<String, Space> SPACES = new HashMap<>();

    private Spaces() {
    }

    /**
     * Connects a client to the space a URI names, {@code mem://<space>[/<path>]}: lock names live under the path.
     *
     * @param uri      the URI; its parameters are the caller's
     * @param ifExists whether the space must be in use already; otherwise it is begun if need be
     * @param events   where the client reports events
     * @param conduct  how the space treats the client's acquisitions
     * @return the connected client
     * @throws IllegalArgumentException if the URI has a user or password, several hosts, a port or a bad name
     * @throws LockConnectionException  if {@code ifExists} and no space of that name is in use
     */
    public static SpaceClient connect(LockUri uri, boolean ifExists, BackendEvents events, Conduct conduct) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(conduct, "conduct");
        String name = spaceName(uri, ifExists);
        Space space = attach(name, !ifExists);
        if (space == null) {
            throw new LockConnectionException(notInUse(name, uri));
        }
        SpaceClient client = new SpaceClient(space, uri.path().isEmpty() ? "" : uri.path().substring(1), events,
                conduct);
        space.connect(client);
        return client;
    }

    /**
     * The space's name, the URI's host. Checked in this order: credentials and several hosts are refused; then a
     * space that must exist and does not is reported as unreachable (whatever else the URI says, as a server that
     * does not answer is); then a port is refused.
     */
    private static String spaceName(LockUri uri, boolean ifExists) {
        if (uri.user().isPresent() || uri.password().isPresent()) {
            throw new IllegalArgumentException("an in-memory space takes no user or password: " + uri);
        }
        if (uri.hosts().size() != 1) {
            throw new IllegalArgumentException("an in-memory URI names one space, mem://<space>: " + uri);
        }
        String host = uri.hosts().get(0);
        int colon = host.startsWith("[") ? -1 : host.indexOf(':');
        String name = colon < 0 ? host : host.substring(0, colon);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("an in-memory space's name is 1 to 255 characters of "
                    + "[A-Za-z0-9._-]: '" + name + "' in " + uri);
        }
        if (ifExists && find(name) == null) {
            throw new LockConnectionException(notInUse(name, uri));
        }
        if (colon >= 0) {
            throw new IllegalArgumentException("an in-memory URI names a space, not a port: mem://" + name
                    + ", not " + uri);
        }
        return name;
    }

    /**
     * Takes a lock of the space a URI names from its holders, as {@link Space#expire(String)} does.
     *
     * @param uri      {@code mem://<space>[/<path>]}, parameters ignored
     * @param lockName the lock's name as the services of that URI give it
     * @return how many leases were taken; 0 if no space of that name is in use
     * @throws IllegalArgumentException if the URI is not such a URI
     */
    public static int expire(LockUri uri, String lockName) {
        Objects.requireNonNull(lockName, "lockName");
        if (!uri.scheme().equals("mem")) {
            throw new IllegalArgumentException("not an in-memory URI, mem://<space>: " + uri);
        }
        Space space = find(spaceName(uri, false));
        return space == null ? 0 : space.expire(uri.path().isEmpty() ? lockName : uri.path().substring(1) + "/"
                + lockName);
    }

    private static String notInUse(String name, LockUri uri) {
        return "no in-memory space '" + name + "' is in use in this JVM (ifExists=true): " + uri;
    }

    /**
     * @param name a space's name
     * @return the space of that name in use now, or null
     */
    public static synchronized Space find(String name) {
        Space space = SPACES.get(name);
        return space == null || space.isEnded() ? null : space;
    }

    /**
     * Keeps a space in use, begun if need be, until {@link #unpin}: for a test backend that outlives its clients.
     *
     * @param name the space's name
     * @return the space
     * @throws IllegalArgumentException if the name is not one of {@link #NAME}
     */
    public static Space pin(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("an in-memory space's name is 1 to 255 characters of "
                    + "[A-Za-z0-9._-]: '" + name + "'");
        }
        return attach(name, true);
    }

    /**
     * Lets a pinned space go: it ends if nothing else uses it.
     *
     * @param space a space returned by {@link #pin}, once
     */
    public static void unpin(Space space) {
        detach(space);
    }

    private static synchronized Space attach(String name, boolean create) {
        Space space = SPACES.get(name);
        if (space == null || space.isEnded()) { // a space shut down while pinned is not handed out again
            if (!create) {
                return null;
            }
            space = new Space(name);
            SPACES.put(name, space);
        }
        space.users++;
        return space;
    }

    static synchronized void detach(Space space) {
        if (--space.users == 0) {
            SPACES.remove(space.name(), space);
            space.end();
        }
    }
}
