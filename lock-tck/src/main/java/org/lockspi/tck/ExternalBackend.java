package org.lockspi.tck;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.support.Ports;

/**
 * A server someone else runs, given by URI, for example with {@code -Dlockspi.tck.uri=zookeeper://zk1:2181/tck}.
 * It offers none of the {@link Capability capabilities} that look behind the provider's back (those contracts
 * are skipped), only {@link Capability#OTHER_PROCESSES}; the other contracts run as against an embedded server.
 * Closing it leaves the server alone.
 *
 * <p>Use a path (ZooKeeper) or database (Redis) reserved for the TCK: the contracts create and delete locks there.
 */
public final class ExternalBackend implements TckBackend {

    /** The system property that names the external server: {@value}. */
    public static final String URI_PROPERTY = "lockspi.tck.uri";

    private final String raw;
    private final LockUri uri;

    private ExternalBackend(String raw, LockUri uri) {
        this.raw = raw;
        this.uri = uri;
    }

    /**
     * @param uri the server's URI, without query parameters
     * @return a backend for it
     * @throws NullPointerException     if {@code uri} is null
     * @throws IllegalArgumentException if it is malformed or has query parameters
     */
    public static ExternalBackend of(String uri) {
        LockUri parsed = LockUri.parse(Objects.requireNonNull(uri, "uri"));
        if (!parsed.parameters().isEmpty()) {
            throw new IllegalArgumentException("external TCK URI must have no parameters (the provider's are added"
                    + " by the TCK): " + parsed);
        }
        return new ExternalBackend(uri.strip(), parsed);
    }

    /**
     * @return a backend for the URI in the system property {@value #URI_PROPERTY}
     * @throws IllegalStateException    if the property is not set
     * @throws IllegalArgumentException as {@link #of(String)}
     */
    public static ExternalBackend fromSystemProperty() {
        String value = System.getProperty(URI_PROPERTY);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + URI_PROPERTY + " is not set");
        }
        return of(value);
    }

    /**
     * The external server if {@value #URI_PROPERTY} is set, else the given embedded one, so one TCK class runs
     * against either:
     * <pre>{@code
     * protected TckBackend startBackend() {
     *     return ExternalBackend.fromSystemPropertyOr(EmbeddedZooKeeperBackend::start);
     * }
     * }</pre>
     *
     * @param embedded starts the backend to use when the property is not set
     * @return the backend
     * @throws IllegalArgumentException as {@link #of(String)}
     */
    public static TckBackend fromSystemPropertyOr(Supplier<? extends TckBackend> embedded) {
        Objects.requireNonNull(embedded, "embedded");
        String value = System.getProperty(URI_PROPERTY);
        return value == null || value.isBlank() ? embedded.get() : of(value);
    }

    /** @return the description, with any password masked */
    @Override
    public String description() {
        return "external server at " + uri;
    }

    @Override
    public String scheme() {
        return uri.scheme();
    }

    @Override
    public String uri() {
        return raw;
    }

    @Override
    public String unreachableUri() {
        return uri.scheme() + "://127.0.0.1:" + Ports.freeLoopbackPort() + uri.path();
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.OTHER_PROCESSES);
    }

    @Override
    public List<String> residue(String lockName) {
        throw unsupported(Capability.INSPECT);
    }

    @Override
    public void forceLoss(String lockName) {
        throw unsupported(Capability.FORCE_LOSS);
    }

    @Override
    public void restart() {
        throw unsupported(Capability.RESTART);
    }

    /** Does nothing: the server is not ours. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return description();
    }

    private UnsupportedOperationException unsupported(Capability capability) {
        return new UnsupportedOperationException("an external backend lacks capability " + capability + ": "
                + uri);
    }
}
