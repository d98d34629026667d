package org.lockspi.tck.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy in front of a small echo server. */
class TcpProxyTest {
    private EchoServer echo;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new EchoServer(line -> { });
    }

    @AfterEach
    void stopEcho() throws IOException, InterruptedException {
        echo.close();
    }

    @Test
    void rewritesTheAuthorityOnly() {
        try (TcpProxy proxy = TcpProxy.inFrontOf("zookeeper://127.0.0.1:" + echo.port() + "/tck")) {
            String at = "127.0.0.1:" + proxy.port();
            assertEquals("zookeeper://" + at + "/tck?sessionTimeout=4s",
                    proxy.rewrite("zookeeper://127.0.0.1:" + echo.port() + "/tck?sessionTimeout=4s"));
            assertEquals("redis://u:p@" + at + "?leaseTime=3s",
                    proxy.rewrite("redis://u:p@127.0.0.1:" + echo.port() + "?leaseTime=3s"));
        }
        assertThrows(IllegalArgumentException.class, () -> TcpProxy.inFrontOf("zookeeper://a:1,b:2/x"));
        assertThrows(IllegalArgumentException.class, () -> TcpProxy.inFrontOf("no uri"));
    }

    @Test
    void forwardsDropsWhileCutAndHeals() throws IOException {
        try (TcpProxy proxy = TcpProxy.inFrontOf("redis://127.0.0.1:" + echo.port());
             Socket client = connect(proxy)) {
            assertEquals("a", roundTrip(client, "a"));

            proxy.blackHole(true);
            assertThrows(SocketTimeoutException.class, () -> roundTrip(client, "b"), "bytes are dropped");
            try (Socket during = connect(proxy)) {
                assertThrows(SocketTimeoutException.class, () -> roundTrip(during, "c"),
                        "a new connection is accepted and black-holed");
            }

            proxy.heal();
            assertEquals(-1, client.getInputStream().read(), "a connection that dropped bytes is closed");
            try (Socket after = connect(proxy)) {
                assertEquals("d", roundTrip(after, "d"));
            }
        }
    }

    @Test
    void refusesNewConnectionsWhileCutAndListensAgainOnHeal() throws IOException {
        try (TcpProxy proxy = TcpProxy.inFrontOf("redis://127.0.0.1:" + echo.port())) {
            proxy.blackHole(false);
            assertThrows(ConnectException.class, () -> connect(proxy).close());
            proxy.heal();
            try (Socket after = connect(proxy)) {
                assertEquals("e", roundTrip(after, "e"));
            }
        }
    }

    @Test
    void delaysWhatTheServerSendsAndNotWhatTheClientSends() throws IOException {
        try (TcpProxy proxy = TcpProxy.inFrontOf("redis://127.0.0.1:" + echo.port());
             Socket client = connect(proxy)) {
            client.setSoTimeout(2_000);
            assertEquals("f", roundTrip(client, "f"));
            proxy.delayFromServer(Duration.ofMillis(400));
            long start = System.nanoTime();
            assertEquals("gh", roundTrip(client, "gh"), "bytes come, in order");
            long took = (System.nanoTime() - start) / 1_000_000;
            assertTrue(took >= 380, "the echo came back after " + took + " ms, before the 400 ms delay");
            proxy.delayFromServer(Duration.ZERO);
            assertEquals("i", roundTrip(client, "i"));
            assertThrows(IllegalArgumentException.class, () -> proxy.delayFromServer(Duration.ofMillis(-1)));
        }
    }

    @Test
    void keepsTheOrderOnceTheDelayIsLowered() throws IOException {
        try (TcpProxy proxy = TcpProxy.inFrontOf("redis://127.0.0.1:" + echo.port());
             Socket client = connect(proxy)) {
            client.setSoTimeout(2_000);
            client.setTcpNoDelay(true);
            OutputStream out = client.getOutputStream();
            for (int round = 0; round < 10; round++) {
                byte[] sent = new byte[100];
                proxy.delayFromServer(Duration.ofMillis(100));
                out.write(sent[0] = '<');
                out.flush();
                proxy.delayFromServer(Duration.ZERO);
                // each byte comes back on its own while the first is still held back: all are due with it
                for (int i = 1; i < sent.length; i++) {
                    sent[i] = (byte) ('a' + i % 26);
                    out.write(sent[i]);
                    out.flush();
                }
                assertEquals(new String(sent), new String(client.getInputStream().readNBytes(sent.length)),
                        "round " + round + ": the bytes come back in the order they were sent");
            }
        }
    }

    private static Socket connect(TcpProxy proxy) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(300);
        return socket;
    }

    private static String roundTrip(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes());
        out.flush();
        InputStream in = socket.getInputStream();
        byte[] back = in.readNBytes(text.length());
        return new String(back);
    }
}
