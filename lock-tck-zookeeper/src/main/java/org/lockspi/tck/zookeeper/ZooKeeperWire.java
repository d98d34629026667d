package org.lockspi.tck.zookeeper;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.Request;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.support.WireMessage.Direction;
import org.lockspi.tck.support.WireMessage.Trait;
import org.lockspi.tck.support.WireProtocol;

/**
 * The ZooKeeper client protocol as a {@link WireProtocol}: every message either way is a 4-byte big-endian length
 * and a jute record of that length. A connection opens with a ConnectRequest and its ConnectResponse (operation
 * {@code connect}; the detail names the session); after that each request is a RequestHeader ({@code xid},
 * {@code type}: the operation, named as {@link Request#op2String(int)} names {@link OpCode}s) and its body, and each
 * reply a ReplyHeader ({@code xid}, {@code zxid}, {@code err}) and its body. A reply answers the request with its
 * xid (the client's pings all have xid -2, its auth packets -4, its re-registered watches -8; the server answers a
 * connection's requests in order); xid -1 is a watch notification, answering nothing.
 *
 * <p>Traits: {@code create}, {@code create2}, {@code createContainer}, {@code createTTL}, {@code delete},
 * {@code setData}, {@code setACL}, {@code multi}, {@code reconfig} and {@code deleteContainer} may write;
 * {@code exists}, {@code getData}, {@code getChildren} and {@code getChildren2} with their watch flag set,
 * {@code addWatch}, {@code setWatches} and {@code setWatches2} register wake-ups; {@code ping} keeps alive; a reply
 * whose {@code err} is not 0 is an error (its detail names the code).
 */
public final class ZooKeeperWire implements WireProtocol {
    /** ZooKeeper's own limit on a packet ({@code jute.maxbuffer}, 1 MB by default) with room to spare. */
    private static final int MAX_PACKET = 16 << 20;
    private static final int NOTIFICATION_XID = -1;

    @Override
    public String name() {
        return "ZooKeeper client protocol (jute)";
    }

    @Override
    public WireProtocol.Conversation newConversation() {
        return new Conversation();
    }

    /** One connection: its opening, and the requests not yet answered by xid. */
    private static final class Conversation implements WireProtocol.Conversation {
        private final Map<Integer, Deque<WireMessage>> pending = new HashMap<>(); // guarded by this
        private WireMessage connect; // guarded by this; the opening request, until answered
        private boolean opened;      // guarded by this: the opening request was seen
        private boolean answered;    // guarded by this: its answer was seen

        @Override
        public int frameLength(Direction direction, byte[] bytes, int from, int to) {
            if (to - from < 4) {
                return -1;
            }
            int length = ByteBuffer.wrap(bytes, from, 4).getInt();
            if (length < 0 || length > MAX_PACKET) {
                throw new IllegalArgumentException("not a ZooKeeper packet: length " + length);
            }
            return to - from >= 4 + length ? 4 + length : -1;
        }

        @Override
        public synchronized WireMessage describe(Direction direction, byte[] bytes, int from, int length) {
            ByteBuffer in = ByteBuffer.wrap(bytes, from + 4, length - 4);
            try {
                return direction == Direction.REQUEST ? request(in) : response(in);
            } catch (BufferUnderflowException e) {
                throw new IllegalArgumentException("a ZooKeeper " + direction.name().toLowerCase(java.util.Locale.ROOT)
                        + " of " + length + " bytes ended early", e);
            }
        }

        private WireMessage request(ByteBuffer in) {
            if (!opened) {
                // ConnectRequest: protocolVersion, lastZxidSeen, timeOut, sessionId, passwd, [readOnly]
                opened = true;
                in.getInt();
                in.getLong();
                int timeout = in.getInt();
                long session = in.getLong();
                connect = WireMessage.request("connect", (session == 0 ? "new session" : "session 0x"
                        + Long.toHexString(session)) + ", timeout " + timeout + " ms");
                return connect;
            }
            int xid = in.getInt();
            int type = in.getInt();
            String op = Request.op2String(type);
            WireMessage m;
            switch (type) {
                case OpCode.create:
                case OpCode.create2:
                case OpCode.createContainer:
                case OpCode.createTTL:
                case OpCode.delete:
                case OpCode.setData:
                case OpCode.setACL:
                case OpCode.deleteContainer:
                    m = WireMessage.request(op, path(in), Trait.WRITE);
                    break;
                case OpCode.multi:
                case OpCode.reconfig:
                    m = WireMessage.request(op, "", Trait.WRITE);
                    break;
                case OpCode.exists:
                case OpCode.getData:
                case OpCode.getChildren:
                case OpCode.getChildren2: {
                    String path = path(in);
                    boolean watch = in.get() != 0;
                    m = watch ? WireMessage.request(op, path + " watch", Trait.WAKEUP) : WireMessage.request(op, path);
                    break;
                }
                case OpCode.addWatch:
                    m = WireMessage.request(op, path(in), Trait.WAKEUP);
                    break;
                case OpCode.setWatches:
                case OpCode.setWatches2:
                    m = WireMessage.request(op, "", Trait.WAKEUP);
                    break;
                case OpCode.ping:
                    m = WireMessage.request(op, "", Trait.KEEPALIVE);
                    break;
                case OpCode.sync:
                case OpCode.getACL:
                case OpCode.check:
                case OpCode.removeWatches:
                case OpCode.checkWatches:
                case OpCode.getEphemerals:
                case OpCode.getAllChildrenNumber:
                    m = WireMessage.request(op, path(in));
                    break;
                default:
                    m = WireMessage.request(op, "");
                    break;
            }
            pending.computeIfAbsent(xid, x -> new ArrayDeque<>()).add(m);
            return m;
        }

        private WireMessage response(ByteBuffer in) {
            if (!answered) {
                // ConnectResponse: protocolVersion, timeOut, sessionId, passwd, [readOnly]; timeOut 0: expired
                answered = true;
                in.getInt();
                int timeout = in.getInt();
                long session = in.getLong();
                WireMessage opening = connect != null ? connect : WireMessage.request("connect", "(not seen)");
                connect = null;
                return timeout <= 0 ? WireMessage.response(opening, "session expired", Trait.ERROR)
                        : WireMessage.response(opening, "session 0x" + Long.toHexString(session) + ", timeout "
                                + timeout + " ms");
            }
            int xid = in.getInt();
            in.getLong(); // zxid
            int err = in.getInt();
            if (xid == NOTIFICATION_XID) {
                // WatcherEvent: type, state, path
                int type = in.getInt();
                in.getInt();
                return WireMessage.push("notification", Watcher.Event.EventType.fromInt(type) + " " + path(in));
            }
            Deque<WireMessage> waiting = pending.get(xid);
            WireMessage request = waiting == null ? null : waiting.poll();
            if (request == null) {
                return WireMessage.push("reply", "xid " + xid + " answers no request seen");
            }
            if (waiting.isEmpty()) {
                pending.remove(xid);
            }
            if (err != 0) {
                return WireMessage.response(request, KeeperException.Code.get(err) + "", Trait.ERROR);
            }
            return request.is(Trait.KEEPALIVE) ? WireMessage.response(request, "", Trait.KEEPALIVE)
                    : WireMessage.response(request, "");
        }

        /** A jute ustring: a 4-byte length (-1 for null) and that many UTF-8 bytes. */
        private static String path(ByteBuffer in) {
            int length = in.getInt();
            if (length < 0) {
                return "(null)";
            }
            if (length > in.remaining()) {
                throw new BufferUnderflowException();
            }
            String path = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
            in.position(in.position() + length);
            return path;
        }
    }
}
