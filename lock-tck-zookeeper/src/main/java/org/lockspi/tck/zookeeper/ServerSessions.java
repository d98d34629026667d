package org.lockspi.tck.zookeeper;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.server.ServerCnxn;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.lockspi.tck.TckBackend;

/**
 * The sessions of an in-process ZooKeeper server as the kit sees them ({@link TckBackend#openSessions()},
 * {@link TckBackend#endSession(TckBackend.Session)}): every session its tracker keeps, with the address of the
 * connection that serves it now, if any.
 */
final class ServerSessions {
    private ServerSessions() {
    }

    /**
     * @param server  the running server
     * @param factory its connection factory
     * @return every session the tracker keeps; a session without a connection now has the peer {@code ""}
     */
    static List<TckBackend.Session> list(ZooKeeperServer server, ServerCnxnFactory factory) {
        Map<Long, String> peers = new LinkedHashMap<>();
        for (Set<Long> sessions : server.getSessionTracker().getSessionExpiryMap().values()) {
            for (long session : sessions) {
                peers.putIfAbsent(session, "");
            }
        }
        for (ServerCnxn cnxn : factory.getConnections()) {
            long session = cnxn.getSessionId();
            InetSocketAddress remote = cnxn.getRemoteSocketAddress();
            if (session != 0 && remote != null) {
                peers.put(session, remote.getAddress().getHostAddress() + ":" + remote.getPort());
            }
        }
        List<TckBackend.Session> found = new ArrayList<>();
        peers.forEach((session, peer) -> found.add(new TckBackend.Session(id(session), peer)));
        return found;
    }

    /**
     * @param session a session of {@link #list}
     * @return its number
     * @throws IllegalArgumentException if its id is no ZooKeeper session id
     */
    static long number(TckBackend.Session session) {
        String id = session.id();
        if (!id.startsWith("0x")) {
            throw new IllegalArgumentException("not a ZooKeeper session id: " + id);
        }
        return Long.parseUnsignedLong(id.substring(2), 16);
    }

    /**
     * Expires a session as the session tracker does when it times out: the server closes it, deletes its
     * ephemeral nodes and drops its connection; its client learns on reconnecting that it expired. The close goes
     * through the server's pipeline: the caller waits for the ephemeral nodes to go if it must.
     *
     * @param server  the running server
     * @param session the session's number
     */
    static void expire(ZooKeeperServer server, long session) {
        server.getSessionTracker().setSessionClosing(session);
        server.expire(session);
    }

    private static String id(long session) {
        return "0x" + Long.toHexString(session);
    }
}
