package org.lockspi.tck.redis;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.redis.RedisInspector;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A Redis server of any version in a container, e.g. {@code redis:7.4-alpine} or {@code valkey/valkey:8}, with
 * persistence on ({@code appendonly yes}, {@code appendfsync always}). Capabilities: INSPECT, FORCE_LOSS,
 * OTHER_PROCESSES (the mapped port is on the host) and PARTITION (a proxy on the host reaches that port), not
 * RESTART (a restarted container gets another port).
 */
public final class RedisContainerBackend implements TckBackend {
    private static final int REDIS_PORT = 6379;

    private final GenericContainer<?> container;
    private final String image;
    private final RedisInspector inspector;

    private RedisContainerBackend(GenericContainer<?> container, String image) {
        this.container = container;
        this.image = image;
        this.inspector = new RedisInspector(container.getHost(), container.getMappedPort(REDIS_PORT));
    }

    /**
     * Starts a container; needs a Docker engine.
     *
     * @param image the image, e.g. {@code redis:7.4-alpine}
     * @return the started backend; close it when done
     * @throws IllegalStateException if no Docker engine is available (from Testcontainers)
     */
    @SuppressWarnings("resource") // closed by close()
    public static RedisContainerBackend start(String image) {
        Objects.requireNonNull(image, "image");
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image)
                .asCompatibleSubstituteFor("redis"))
                .withExposedPorts(REDIS_PORT)
                .withCommand("redis-server", "--appendonly", "yes", "--appendfsync", "always")
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1)
                        .withStartupTimeout(Duration.ofSeconds(60)));
        container.start();
        return new RedisContainerBackend(container, image);
    }

    @Override
    public String description() {
        return "Redis " + inspector.info("redis_version") + " (container " + image + ") at " + address();
    }

    private String address() {
        return container.getHost() + ":" + container.getMappedPort(REDIS_PORT);
    }

    @Override
    public String scheme() {
        return "redis";
    }

    @Override
    public String uri() {
        return "redis://" + address();
    }

    @Override
    public String unreachableUri() {
        return "redis://127.0.0.1:" + Ports.freeLoopbackPort();
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.OTHER_PROCESSES,
                Capability.PARTITION, Capability.EMPTY_STATE_REMOVAL, Capability.ENDS_SILENT_SESSIONS);
    }

    @Override
    public List<String> residue(String lockName) {
        return inspector.residue(lockName);
    }

    @Override
    public void forceLoss(String lockName) {
        inspector.forceLoss(lockName);
    }

    /** Deletes the lock's fencing counter, as its expiry does, once nobody holds or waits for the lock. */
    @Override
    public void removeEmptyState(String lockName) {
        inspector.removeEmptyState(lockName);
    }

    @Override
    public void restart() {
        throw new UnsupportedOperationException("a restarted container gets another port; capability RESTART: "
                + image);
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "RedisContainerBackend[" + image + "]";
    }
}
