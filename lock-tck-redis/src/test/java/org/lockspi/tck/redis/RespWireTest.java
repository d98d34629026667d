package org.lockspi.tck.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.support.WirePassage;
import org.lockspi.tck.support.WireProtocol;

/** {@link RespWire} on bytes, and on a real client's traffic to the embedded Redis through the kit's proxy. */
@Timeout(60)
class RespWireTest {
    private static EmbeddedRedisBackend backend;

    @BeforeAll
    static void start() {
        backend = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    private static byte[] command(String... args) {
        StringBuilder out = new StringBuilder("*" + args.length + "\r\n");
        for (String arg : args) {
            out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                    .append("\r\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aMessageIsWholeOnlyWithItsLastByte() {
        WireProtocol.Conversation c = new RespWire().newConversation();
        byte[] set = command("SET", "k", "v");
        for (int end = 0; end < set.length; end++) {
            assertEquals(-1, c.frameLength(WireMessage.Direction.REQUEST, set, 0, end), "whole at " + end);
        }
        assertEquals(set.length, c.frameLength(WireMessage.Direction.REQUEST, set, 0, set.length));
        byte[] reply = "*2\r\n$3\r\nabc\r\n:5\r\n+OK\r\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(reply.length - 5, c.frameLength(WireMessage.Direction.RESPONSE, reply, 0, reply.length));
        byte[] map = "%1\r\n+a\r\n*-1\r\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(map.length, c.frameLength(WireMessage.Direction.RESPONSE, map, 0, map.length), "RESP3 map");
    }

    @Test
    void namesCommandsAndMatchesRepliesAndPushes() throws Exception {
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend.uri(), backend.wireProtocol());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            client.setSoTimeout(5_000);
            call(client, command("SET", "wire:k", "v"), 1);
            call(client, command("EVAL", "return redis.call('GET', KEYS[1])", "1", "wire:k"), 1);
            call(client, command("GET"), 1); // an error: wrong number of arguments
            call(client, command("SUBSCRIBE", "wire:a", "wire:b"), 2);
            backend.command("PUBLISH", "wire:b", "hello");
            read(client, 1);
            call(client, command("PING"), 1);
            List<WirePassage> log = proxy.traffic();
            List<String> seen = log.stream().map(p -> (p.message().direction() == WireMessage.Direction.REQUEST
                    ? "> " : "< ") + p.message().operation() + (p.message().traits().isEmpty() ? ""
                    : " " + p.message().traits())).collect(Collectors.toList());
            String eval = "EVAL " + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1")
                    .digest("return redis.call('GET', KEYS[1])".getBytes(StandardCharsets.UTF_8)));
            assertEquals(List.of("> SET [WRITE]", "< SET", "> " + eval + " [WRITE]", "< " + eval, "> GET",
                    "< GET [ERROR]", "> SUBSCRIBE [WAKEUP]", "< SUBSCRIBE", "< SUBSCRIBE", "< message [PUSH]",
                    "> PING [KEEPALIVE]", "< PING [KEEPALIVE]"), seen, String.join("\n", seen));
            assertEquals("wire:b", log.get(9).message().detail());
        }
    }

    @Test
    void listsTheConnectionsOfAClientAndEndsThem() throws Exception {
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend.uri());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            client.setSoTimeout(5_000);
            call(client, command("PING"), 1);
            List<TckBackend.Session> mine = backend.openSessions().stream()
                    .filter(s -> proxy.upstreamAddresses().contains(s.peer())).collect(Collectors.toList());
            assertEquals(1, mine.size(), backend.openSessions() + " from " + proxy.upstreamAddresses());
            backend.endSession(mine.get(0));
            assertEquals(-1, client.getInputStream().read(), "the killed connection is closed");
            assertFalse(backend.openSessions().contains(mine.get(0)), "and gone");
            assertTrue(backend.openSessions().stream().noneMatch(s -> s.peer().isEmpty()), "every one has a peer");
        }
    }

    private static void call(Socket client, byte[] request, int replies) throws IOException {
        client.getOutputStream().write(request);
        client.getOutputStream().flush();
        read(client, replies);
    }

    /** Reads whole replies, as many as asked. */
    private static void read(Socket client, int replies) throws IOException {
        InputStream in = client.getInputStream();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int at = 0;
        for (int done = 0; done < replies; ) {
            byte[] have = bytes.toByteArray();
            int end = RespWire.Values.end(have, at, have.length);
            if (end > 0) {
                at = end;
                done++;
                continue;
            }
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + bytes);
            }
            bytes.write(b);
        }
    }
}
