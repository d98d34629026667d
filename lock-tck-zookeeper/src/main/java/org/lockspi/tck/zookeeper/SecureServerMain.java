package org.lockspi.tck.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * The server of {@link SecureZooKeeperBackend}, run in a child JVM: a real standalone {@link ZooKeeperServer} behind
 * a {@link NettyServerCnxnFactory} that serves TLS only (a secure client port), with ZooKeeper's default
 * {@code ssl.clientAuth=need}. ZooKeeper's server takes its key and trust stores from system properties only
 * ({@code zookeeper.ssl.*}), which a client's {@code ZKClientConfig} would read as defaults too; in a JVM of its own
 * they cannot stand in for the clients' own configuration.
 *
 * <p>Arguments: {@code <dataDir> <keyStore> <trustStore> <password>} (PKCS12 files, one password for both). It
 * writes {@code SERVING <port>} once it accepts connections on {@code 127.0.0.1:<port>}, and ends when its standard
 * input closes. Any failure prints {@code ERROR <exception>} and exits with 2.
 */
public final class SecureServerMain {

    private SecureServerMain() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("zookeeper.admin.enableServer", "false");
        System.setProperty("zookeeper.forceSync", "no");
        System.setProperty("zookeeper.maxCnxns", "1000");
        if (args.length != 4) {
            System.err.println("usage: <dataDir> <keyStore> <trustStore> <password>");
            System.exit(64);
        }
        System.setProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY, NettyServerCnxnFactory.class.getName());
        System.setProperty("zookeeper.ssl.keyStore.location", args[1]);
        System.setProperty("zookeeper.ssl.keyStore.password", args[3]);
        System.setProperty("zookeeper.ssl.trustStore.location", args[2]);
        System.setProperty("zookeeper.ssl.trustStore.password", args[3]);
        // the server authenticates a TLS client by its certificate with this provider (x509 ids)
        System.setProperty("zookeeper.authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
        try {
            ZooKeeperServer server = new ZooKeeperServer(Path.of(args[0]).toFile(), Path.of(args[0]).toFile(), 500);
            server.setMinSessionTimeout(1_000);
            server.setMaxSessionTimeout(60_000);
            ServerCnxnFactory factory = ServerCnxnFactory.createFactory();
            factory.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1000, -1, true);
            factory.startup(server);
            say("SERVING " + factory.getLocalPort());
            awaitEndOfInput();
            factory.shutdown();
            System.exit(0);
        } catch (Exception | Error e) {
            e.printStackTrace();
            say("ERROR " + e);
            System.exit(2);
        }
    }

    private static void awaitEndOfInput() {
        try (InputStream in = System.in) {
            byte[] buffer = new byte[256];
            while (in.read(buffer) >= 0) {
                // commands are not used; only the end of the input counts
            }
        } catch (IOException e) {
            // the parent is gone as well
        }
    }

    private static synchronized void say(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        System.out.write(bytes, 0, bytes.length);
        System.out.flush();
    }
}
