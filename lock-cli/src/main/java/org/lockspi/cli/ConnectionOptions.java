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
     * The connect bound the tool adds to a URI that names none, where the provider accepts it: an operator
     * asking about a lock wants an unreachable server reported in seconds, not after an application's 15 s.
     */
    static final String CONNECT_TIMEOUT = "connectTimeout";
    /** Its value. */
    static final String DEFAULT_CONNECT_TIMEOUT = "2s";

    @Parameters(index = "0", paramLabel = "<uri>", description = "the lock server, as the application gives it: "
            + "zookeeper://host:port[,host:port...]/path or redis://host:port[/db]; a password is never printed. "
            + "Unless it says otherwise, connectTimeout=" + DEFAULT_CONNECT_TIMEOUT + " is added where the "
            + "provider accepts it")
    String uri;

    @Option(names = "--provider", paramLabel = "NAME", description = "the provider to use (default: as "
            + "Locks.open chooses: provider= in the URI, -Dlockspi.provider, else the highest priority)")
    String provider;

    @Option(names = "--json", description = "print JSON instead of text")
    boolean json;

    /** @return a service on the URI, with the tool's connect bound; the caller closes it */
    LockService open() {
        String bounded = withConnectBound(uri, provider, Locks.providers());
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
     * Adds {@value #CONNECT_TIMEOUT}={@value #DEFAULT_CONNECT_TIMEOUT} to a URI that names no connect bound, if
     * every provider that may serve it accepts the parameter (so the addition never turns into an unknown
     * parameter error); else returns the URI unchanged.
     *
     * @param uri       the URI as given
     * @param pinned    the provider named on the command line, or null
     * @param installed the installed providers
     * @return the URI to open
     * @throws IllegalArgumentException if the URI is malformed
     */
    static String withConnectBound(String uri, String pinned, List<LockProvider> installed) {
        LockUri parsed = LockUri.parse(uri);
        if (parsed.parameter(CONNECT_TIMEOUT).isPresent()) {
            return uri;
        }
        String name = pinned != null ? pinned : parsed.parameter(Locks.PROVIDER_PARAMETER)
                .orElse(System.getProperty(Locks.PROVIDER_PROPERTY));
        List<LockProvider> candidates = installed.stream()
                .filter(p -> p.schemes().contains(parsed.scheme()))
                .filter(p -> name == null || name.isBlank() || p.name().equals(name.strip()))
                .collect(Collectors.toList());
        if (candidates.isEmpty() || !candidates.stream().allMatch(p -> p.parameters().contains(CONNECT_TIMEOUT))) {
            return uri; // Locks.open reports a missing provider itself
        }
        String stripped = uri.strip();
        return stripped + (stripped.indexOf('?') < 0 ? "?" : "&") + CONNECT_TIMEOUT + "=" + DEFAULT_CONNECT_TIMEOUT;
    }
}
