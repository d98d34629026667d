package org.lockspi.tck.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * A loopback server for the proxy's tests that sends every byte back as it comes, and tells a listener of each line
 * it got (without its {@code '\n'}) before it sends that line's end back, so that a test that read an answer finds
 * its request among the lines heard.
 */
final class EchoServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;

    /** @param heard told of each whole line, in order */
    EchoServer(Consumer<String> heard) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(() -> {
            while (true) {
                try {
                    Socket s = socket.accept();
                    Thread t = new Thread(() -> echo(s, heard));
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    private static void echo(Socket s, Consumer<String> heard) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    heard.accept(line.toString());
                    line.setLength(0);
                } else {
                    line.append((char) b);
                }
                out.write(b);
            }
        } catch (IOException e) {
            // the test closed it
        }
    }

    /** @return its port on the loopback address */
    int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        socket.close();
        thread.join(5_000);
    }
}
