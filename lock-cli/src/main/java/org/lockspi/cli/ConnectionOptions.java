package org.lockspi.cli;

import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockUri;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The arguments every command shares: the URI, the provider, the output format. */
final class ConnectionOptions {
    @Parameters(index = "0", paramLabel = "<uri>", description = "the lock server, as the application gives it: "
            + "zookeeper://host:port[,host:port...]/path or redis://host:port[/db]; a password is never printed")
    String uri;

    @Option(names = "--provider", paramLabel = "NAME", description = "the provider to use (default: as "
            + "Locks.open chooses: provider= in the URI, -Dlockspi.provider, else the highest priority)")
    String provider;

    @Option(names = "--json", description = "print JSON instead of text")
    boolean json;

    /** @return a service on the URI; the caller closes it */
    LockService open() {
        return provider == null ? Locks.open(uri) : Locks.open(uri, provider);
    }

    /** @return the URI with its password masked */
    String shownUri() {
        return LockUri.parse(uri).toString();
    }
}
