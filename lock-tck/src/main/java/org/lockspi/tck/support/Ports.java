package org.lockspi.tck.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Local ports for backends. */
public final class Ports {
    private Ports() {
    }

    /**
     * @return a port on the loopback address where nothing listened a moment ago (the system's choice of a free
     *         ephemeral port, closed again)
     * @throws UncheckedIOException if no socket can be opened
     */
    public static int freeLoopbackPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on the loopback address", e);
        }
    }
}
