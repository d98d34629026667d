package org.lockspi.tck.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Version;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.ChildJvm;

/**
 * A real ZooKeeper server that serves TLS only, on a secure client port of {@code 127.0.0.1}, with certificates this
 * class makes for the run: a server key pair, a client key pair and a third, unrelated one (a "stranger"), each
 * self-signed with the subject alternative name {@code IP:127.0.0.1} (ZooKeeper verifies host names on both sides by
 * default), made by the running JDK's {@code keytool}; and trust stores built from their certificates. The server
 * trusts the client's certificate and asks for one ({@code ssl.clientAuth=need}).
 *
 * <p>The server runs in a child JVM ({@link SecureServerMain}): ZooKeeper's server reads its stores from system
 * properties only, and ZooKeeper clients read the same properties as defaults, so in this JVM they would make any
 * client trust the server whatever its own configuration says. Here a client connects only if its own
 * configuration (the lock URI's parameters) is right.
 *
 * <pre>{@code
 * try (SecureZooKeeperBackend tls = SecureZooKeeperBackend.start()) {
 *     try (LockService locks = Locks.open(tls.uri() + "?" + tls.tlsParameters())) { ... }
 * }
 * }</pre>
 *
 * <p>Thread-safe after start.
 */
public final class SecureZooKeeperBackend implements AutoCloseable {
    private static final Duration START_WAIT = Duration.ofSeconds(60);

    private final Path dir;
    private final String password;
    private ChildJvm server;
    private int port;
    private boolean closed;

    private SecureZooKeeperBackend(Path dir, String password) {
        this.dir = dir;
        this.password = password;
    }

    /**
     * Makes the certificates and stores in a new temporary directory and starts the server.
     *
     * @return the started backend; close it when done
     * @throws UncheckedIOException  if a file cannot be written or {@code keytool} cannot run
     * @throws IllegalStateException if {@code keytool} fails, the server does not come up within 60 s, or the thread
     *                               is interrupted
     */
    public static SecureZooKeeperBackend start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("lockspi-zookeeper-tls-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the TLS ZooKeeper", e);
        }
        String password = "tls" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        SecureZooKeeperBackend backend = new SecureZooKeeperBackend(dir, password);
        try {
            backend.makeStores();
            backend.startServer();
            return backend;
        } catch (RuntimeException | Error e) {
            backend.close();
            throw e;
        }
    }

    private void makeStores() {
        for (String name : List.of("server", "client", "stranger")) {
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=lockspi-test-" + name, "-ext", "SAN=IP:127.0.0.1,DNS:localhost",
                    "-validity", "2", "-storetype", "PKCS12", "-keystore", store(name).toString(),
                    "-storepass", password, "-keypass", password);
        }
        trustStore("server-trust", "client");
        trustStore("client-trust", "server");
        trustStore("stranger-trust", "stranger");
    }

    private Path store(String name) {
        return dir.resolve(name + ".p12");
    }

    /** Writes a PKCS12 trust store holding the certificate of {@code of}'s key pair. */
    private void trustStore(String name, String of) {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store(of))) {
                keys.load(in, password.toCharArray());
            }
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(of, keys.getCertificate(of));
            try (OutputStream out = Files.newOutputStream(store(name))) {
                trust.store(out, password.toCharArray());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trust store " + store(name), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build trust store " + store(name) + ": " + e, e);
        }
    }

    private void keytool(String... args) {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Path log = dir.resolve("keytool.log");
        List<String> command = new java.util.ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("keytool did not end within 60 s: " + args[0]);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed with exit " + p.exitValue() + ": "
                        + Files.readString(log, StandardCharsets.UTF_8).replace(password, "***"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + keytool, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }

    private synchronized void startServer() {
        Path data = dir.resolve("data");
        server = ChildJvm.start(SecureServerMain.class, data.toString(), store("server").toString(),
                store("server-trust").toString(), password);
        String line = server.awaitLine(START_WAIT, "SERVING ", "ERROR ");
        if (line.startsWith("ERROR ")) {
            throw new IllegalStateException("the TLS ZooKeeper did not start: " + line);
        }
        port = Integer.parseInt(line.substring("SERVING ".length()).trim());
    }

    /** @return a one-line description for reports */
    public String description() {
        return "ZooKeeper " + Version.getVersion() + " with TLS only at " + address() + " (child JVM)";
    }

    /** @return {@code 127.0.0.1:<port>}, the server's secure client address */
    public synchronized String address() {
        return "127.0.0.1:" + port;
    }

    /** @return {@code zookeeper://127.0.0.1:<port>/tls}, without parameters */
    public String uri() {
        return "zookeeper://" + address() + "/tls";
    }

    /**
     * @return the URI parameters of a client the server accepts: {@code tls=true}, the client's trust store (the
     *         server's certificate) and key store (the certificate the server trusts), with their password
     */
    public String tlsParameters() {
        return "tls=true&trustStore=" + clientTrustStore() + "&trustStorePassword=" + password
                + "&keyStore=" + clientKeyStore() + "&keyStorePassword=" + password;
    }

    /** @return the trust store with the server's certificate */
    public Path clientTrustStore() {
        return store("client-trust");
    }

    /** @return the client's key store, whose certificate the server trusts */
    public Path clientKeyStore() {
        return store("client");
    }

    /** @return a trust store with an unrelated certificate only: a client using it does not trust the server */
    public Path strangerTrustStore() {
        return store("stranger-trust");
    }

    /** @return a key store whose certificate the server does not trust */
    public Path strangerKeyStore() {
        return store("stranger");
    }

    /** @return the end of the server's standard error (its warnings), for failure messages; no password in it */
    public synchronized String serverLog() {
        return server == null ? "" : server.stderrTail().replace(password, "***");
    }

    /** @return the password of every store */
    public String storePassword() {
        return password;
    }

    /** Stops the server and deletes the certificates and data. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        if (server != null) {
            try {
                server.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        try {
            FileTrees.delete(dir);
        } catch (IOException e) {
            UncheckedIOException u = new UncheckedIOException("cannot delete " + dir, e);
            if (failure == null) {
                failure = u;
            } else {
                failure.addSuppressed(u);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return description();
    }
}
