package org.lockspi.cli;

import java.util.List;
import java.util.stream.Collectors;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The arguments every command shares: the URI, the provider, the output format. */
final class ConnectionOptions {
    /**
     * The bounds the tool adds to a URI that names none, where the provider accepts them: an operator asking about
     * a lock wants an unreachable or silent server reported in seconds, not after an application's 15 s connect
     * timeout (or, for a ZooKeeper that takes the connection and never answers, its 30 s session).
     */
    static final String CONNECT_TIMEOUT = "connectTimeout";
    /** The connect bound's value. */
    static final String DEFAULT_CONNECT_TIMEOUT = "2s";
    /** ZooKeeper's session timeout; its client gives up on a silent server after two thirds of it. */
    static final String SESSION_TIMEOUT = "sessionTimeout";
    /** The session bound's value: the tool holds no lock, so a short session loses nothing. */
    static final String DEFAULT_SESSION_TIMEOUT = "4s";
    /** A ZooKeeper parameter that must stay below the session timeout: with it, the URI's session is kept. */
    private static final String UNCERTAIN_AFTER = "uncertainAfter";

    @Parameters(index = "0", paramLabel = "<uri>", description = "the lock server, as the application gives it: "
            + "zookeeper://host:port[,host:port...]/path or redis://host:port[/db]; a password is never printed. "
            + "Unless it says otherwise, connectTimeout=" + DEFAULT_CONNECT_TIMEOUT + " (and, on ZooKeeper, "
            + "sessionTimeout=" + DEFAULT_SESSION_TIMEOUT + ") is added where the provider accepts it")
    String uri;

    @Option(names = "--provider", paramLabel = "NAME", description = "the provider to use (default: as "
            + "Locks.open chooses: provider= in the URI, -Dlockspi.provider, else the highest priority)")
    String provider;

    @Option(names = "--json", description = "print JSON instead of text")
    boolean json;

    /** @return a service on the URI, with the tool's bounds; the caller closes it */
    LockService open() {
        String bounded = withBounds(uri, provider, Locks.providers());
        return provider == null ? Locks.open(bounded) : Locks.open(bounded, provider);
    }

    /** @return the URI with its password masked */
    String shownUri() {
        return LockUri.parse(uri).toString();
    }

    /** @return whether the URI is served by ZooKeeper, whose layout keeps a non-reentrant mutex as a semaphore */
    boolean isZooKeeper() {
        return LockUri.parse(uri).scheme().equals("zookeeper");
    }

    /**
     * Adds {@value #CONNECT_TIMEOUT}={@value #DEFAULT_CONNECT_TIMEOUT} and {@value #SESSION_TIMEOUT}=
     * {@value #DEFAULT_SESSION_TIMEOUT} to a URI that names neither, each only if every provider that may serve
     * the URI accepts it (so an addition never turns into an unknown parameter error); the session bound not
     * where the URI names {@value #UNCERTAIN_AFTER}, which must stay below it.
     *
     * @param uri       the URI as given
     * @param pinned    the provider named on the command line, or null
     * @param installed the installed providers
     * @return the URI to open
     * @throws IllegalArgumentException if the URI is malformed
     */
    static String withBounds(String uri, String pinned, List<LockProvider> installed) {
        LockUri parsed = LockUri.parse(uri);
        String name = pinned != null ? pinned : parsed.parameter(Locks.PROVIDER_PARAMETER)
                .orElse(System.getProperty(Locks.PROVIDER_PROPERTY));
        List<LockProvider> candidates = installed.stream()
                .filter(p -> p.schemes().contains(parsed.scheme()))
                .filter(p -> name == null || name.isBlank() || p.name().equals(name.strip()))
                .collect(Collectors.toList());
        StringBuilder added = new StringBuilder();
        if (accepted(CONNECT_TIMEOUT, parsed, candidates)) {
            added.append('&').append(CONNECT_TIMEOUT).append('=').append(DEFAULT_CONNECT_TIMEOUT);
        }
        if (accepted(SESSION_TIMEOUT, parsed, candidates) && parsed.parameter(UNCERTAIN_AFTER).isEmpty()) {
            added.append('&').append(SESSION_TIMEOUT).append('=').append(DEFAULT_SESSION_TIMEOUT);
        }
        if (added.length() == 0) {
            return uri; // nothing to add, or no provider serves it: Locks.open says so
        }
        String stripped = uri.strip();
        return stripped + (stripped.indexOf('?') < 0 ? "?" : "&") + added.substring(1);
    }

    /** @return whether the URI names no such parameter and every candidate provider accepts it */
    private static boolean accepted(String parameter, LockUri uri, List<LockProvider> candidates) {
        return uri.parameter(parameter).isEmpty() && !candidates.isEmpty()
                && candidates.stream().allMatch(p -> p.parameters().contains(parameter));
    }
}
