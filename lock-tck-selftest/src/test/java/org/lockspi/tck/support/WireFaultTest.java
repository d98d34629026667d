package org.lockspi.tck.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy with a wire protocol, in front of a line echo server: each request is a line {@code <op> <arg>}, its
 * answer the same line echoed ({@code create} writes; an answer with {@code err} in it is an error; a line
 * {@code !!!} is no message of the protocol).
 */
class WireFaultTest {
    private EchoServer echo;
    private final List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The toy protocol. */
    static final class Lines implements WireProtocol {
        @Override
        public String name() {
            return "lines";
        }

        @Override
        public Conversation newConversation() {
            Deque<WireMessage> pending = new ArrayDeque<>();
            return new Conversation() {
                @Override
                public int frameLength(WireMessage.Direction direction, byte[] bytes, int from, int to) {
                    for (int i = from; i < to; i++) {
                        if (bytes[i] == '\n') {
                            return i + 1 - from;
                        }
                    }
                    return -1;
                }

                @Override
                public synchronized WireMessage describe(WireMessage.Direction direction, byte[] bytes, int from,
                                                         int length) {
                    String line = new String(bytes, from, length - 1, StandardCharsets.US_ASCII);
                    if (line.equals("!!!")) {
                        throw new IllegalArgumentException("not a line of the toy protocol");
                    }
                    if (direction == WireMessage.Direction.REQUEST) {
                        String op = line.split(" ")[0];
                        WireMessage m = op.equals("create") ? WireMessage.request(op, line, WireMessage.Trait.WRITE)
                                : WireMessage.request(op, line);
                        pending.add(m);
                        return m;
                    }
                    WireMessage request = pending.poll();
                    return line.contains("err") ? WireMessage.response(request, line, WireMessage.Trait.ERROR)
                            : WireMessage.response(request, line);
                }
            };
        }
    }

    @BeforeEach
    void startEcho() throws IOException {
        echo = new EchoServer(heard::add);
    }

    @AfterEach
    void stopEcho() throws IOException, InterruptedException {
        echo.close();
    }

    private TcpProxy proxy() {
        return TcpProxy.inFrontOf("lines://127.0.0.1:" + echo.port(), new Lines());
    }

    @Test
    void logsWholeMessagesAndTheRequestEachAnswers() throws IOException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            send(client, "create a\nget b\n");
            assertEquals("create a\nget b\n", read(client, 15));
            List<WirePassage> log = proxy.traffic();
            // in order each way; the two ways interleave as the server answers (the first answer may be logged
            // before the second request)
            List<WirePassage> requests = log.stream()
                    .filter(p -> p.message().direction() == WireMessage.Direction.REQUEST).collect(Collectors.toList());
            List<WirePassage> responses = log.stream()
                    .filter(p -> p.message().direction() == WireMessage.Direction.RESPONSE).collect(Collectors.toList());
            assertEquals(List.of("REQUEST create create a [WRITE]", "REQUEST get get b"),
                    requests.stream().map(p -> p.message().toString()).collect(Collectors.toList()), log.toString());
            assertEquals(List.of("RESPONSE create create a", "RESPONSE get get b"),
                    responses.stream().map(p -> p.message().toString()).collect(Collectors.toList()), log.toString());
            assertEquals(4, log.size(), log.toString());
            assertSame(requests.get(0).message(), responses.get(0).message().request());
            assertSame(requests.get(1).message(), responses.get(1).message().request());
            assertTrue(log.stream().allMatch(p -> p.fate() == WirePassage.Fate.FORWARDED && p.connection() == 1));
            assertEquals(1, proxy.upstreamAddresses().size(), "one upstream connection: " + proxy.upstreamAddresses());
        }
    }

    @Test
    void aDroppedRequestNeverReachesTheServerAndEndsItsConnection() throws IOException, InterruptedException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            WireFault fault = proxy.arm(WireFault.dropRequest("get", 2));
            send(client, "get 1\n");
            assertEquals("get 1\n", read(client, 6));
            send(client, "get 2\n");
            assertEquals(-1, client.getInputStream().read(), "the connection is closed after the dropped request");
            assertTrue(fault.awaitStruck(Duration.ofSeconds(1)));
            assertEquals("REQUEST get get 2", fault.message().toString());
            assertEquals(List.of("get 1"), heard, "the server never got the second");
            try (Socket again = connect(proxy)) {
                send(again, "get 3\n");
                assertEquals("get 3\n", read(again, 6), "a new connection is carried, the fault has struck");
            }
        }
    }

    @Test
    void aDroppedAnswerCountsOnlyAnswersWithoutAnError() throws IOException, InterruptedException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            WireFault fault = proxy.arm(WireFault.dropResponse("create", 1));
            send(client, "create err\n");
            assertEquals("create err\n", read(client, 11), "an error answer is not the one chosen");
            send(client, "create ok\n");
            assertEquals(-1, client.getInputStream().read(), "the answer is dropped, the connection closed");
            assertTrue(fault.awaitStruck(Duration.ofSeconds(1)));
            assertEquals(List.of("create err", "create ok"), heard, "the server got the request");
        }
    }

    @Test
    void aDelayedAnswerComesLateAndThenEverythingIsCut() throws IOException, InterruptedException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            WireFault fault = proxy.arm(WireFault.delayResponseThenCut("get", 1, Duration.ofMillis(400)));
            client.setSoTimeout(2_000);
            long sent = System.nanoTime();
            send(client, "get late\n");
            assertEquals("get late\n", read(client, 9));
            long late = (System.nanoTime() - sent) / 1_000_000;
            assertTrue(late >= 380, "the answer came after " + late + " ms, not 400 ms late");
            assertTrue(fault.deliveredAt() - fault.struckAt() >= 380_000_000L, fault.toString());
            client.setSoTimeout(300);
            send(client, "get after\n");
            assertThrows(SocketTimeoutException.class, () -> read(client, 10), "everything after it is dropped");
            assertFalse(heard.contains("get after"), "the request after it never reached the server");
            proxy.heal();
            try (Socket again = connect(proxy)) {
                send(again, "get healed\n");
                assertEquals("get healed\n", read(again, 11));
            }
        }
    }

    @Test
    void theDelayFromTheServerHoldsBackWholeMessages() throws IOException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            assertEquals("get 1\n", roundTrip(client, "get 1\n"));
            proxy.delayFromServer(Duration.ofMillis(400));
            long sent = System.nanoTime();
            assertEquals("get 2\nget 3\n", roundTrip(client, "get 2\nget 3\n"), "answers come, in order");
            long late = (System.nanoTime() - sent) / 1_000_000;
            assertTrue(late >= 380, "the answers came after " + late + " ms, before the 400 ms delay");
            proxy.delayFromServer(Duration.ZERO);
            assertEquals("get 4\n", roundTrip(client, "get 4\n"));
            assertEquals(8, proxy.traffic().size(), "every message logged: " + proxy.traffic());
            assertTrue(proxy.traffic().stream().allMatch(p -> p.fate() == WirePassage.Fate.FORWARDED),
                    proxy.traffic().toString());
        }
    }

    @Test
    void bytesOfAnotherProtocolAreCarriedUnframed() throws IOException {
        try (TcpProxy proxy = proxy(); Socket client = connect(proxy)) {
            send(client, "!!!\nget x\n");
            assertEquals("!!!\nget x\n", read(client, 10));
            assertTrue(proxy.traffic().get(0).message().operation().startsWith("(unframed)"), proxy.traffic().toString());
        }
    }

    private static Socket connect(TcpProxy proxy) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(2_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    private static String roundTrip(Socket socket, String text) throws IOException {
        send(socket, text);
        return read(socket, text.length());
    }

    private static String read(Socket socket, int n) throws IOException {
        return new String(socket.getInputStream().readNBytes(n), StandardCharsets.US_ASCII);
    }
}
