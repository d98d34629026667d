package org.lockspi.tck;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.lockspi.tck.support.WireProtocol;

/**
 * A {@link TckBackend} that hands every call to another, for a backend that changes one thing about a server: a
 * server shared by several TCK classes that must not close it, a description of its own, a capability taken away.
 * Subclasses override what they change.
 */
public abstract class ForwardingTckBackend implements TckBackend {
    private final TckBackend server;

    /** @param server the backend every call goes to */
    protected ForwardingTckBackend(TckBackend server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    /** @return the backend every call goes to */
    protected final TckBackend delegate() {
        return server;
    }

    @Override
    public String description() {
        return server.description();
    }

    @Override
    public String scheme() {
        return server.scheme();
    }

    @Override
    public String uri() {
        return server.uri();
    }

    @Override
    public String unreachableUri() {
        return server.unreachableUri();
    }

    @Override
    public Set<Capability> capabilities() {
        return server.capabilities();
    }

    @Override
    public List<String> residue(String lockName) {
        return server.residue(lockName);
    }

    @Override
    public void forceLoss(String lockName) {
        server.forceLoss(lockName);
    }

    @Override
    public void restart() {
        server.restart();
    }

    @Override
    public void stopServer() {
        server.stopServer();
    }

    @Override
    public void startServer() {
        server.startServer();
    }

    @Override
    public void restartWithoutData(Duration downtime) {
        server.restartWithoutData(downtime);
    }

    @Override
    public int wakeupRegistrations(String lockName) {
        return server.wakeupRegistrations(lockName);
    }

    @Override
    public void removeEmptyState(String lockName) {
        server.removeEmptyState(lockName);
    }

    @Override
    public WireProtocol wireProtocol() {
        return server.wireProtocol();
    }

    @Override
    public List<Session> openSessions() {
        return server.openSessions();
    }

    @Override
    public void endSession(Session session) {
        server.endSession(session);
    }

    @Override
    public void close() {
        server.close();
    }
}
