package org.lockspi.zookeeper.recipe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Exception;
import org.lockspi.spi.LockUri;

/**
 * TLS to ZooKeeper, as a {@code zookeeper://} URI asks for it: the Netty client socket with
 * {@code zookeeper.client.secure=true} and the key and trust stores, set on one client's {@link ZKClientConfig}
 * (never as system properties, so two services in one JVM may use different stores). Immutable; its
 * {@link #toString()} never shows a password.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@value #TLS} ({@code true} or {@code false}, default {@code false}): connect with TLS. Without
 *       {@code tls=true} the client is configured by ZooKeeper's own system properties, as before
 *       ({@code zookeeper.client.secure}, {@code zookeeper.ssl.*}); the store parameters below are refused
 *       then;</li>
 *   <li>{@value #TRUST_STORE}, {@value #TRUST_STORE_PASSWORD}: the certificates the client trusts (a file; its type
 *       from the extension as ZooKeeper reads it: {@code .jks}, {@code .p12}/{@code .pfx}, {@code .pem}); without
 *       it, the JVM's default trust store;</li>
 *   <li>{@value #KEY_STORE}, {@value #KEY_STORE_PASSWORD}: the client's own certificate and key, for a server that
 *       asks for client certificates ({@code ssl.clientAuth}, ZooKeeper's default {@code need}).</li>
 * </ul>
 * The server's host name is verified against its certificate, as ZooKeeper does by default.
 *
 * @see ZkSettings
 */
public final class ZkTls {
    /** The URI parameter that turns TLS on: {@value}. */
    public static final String TLS = "tls";
    /** The URI parameter naming the trust store file: {@value}. */
    public static final String TRUST_STORE = "trustStore";
    /** The URI parameter with the trust store's password: {@value}. Masked wherever the URI is shown. */
    public static final String TRUST_STORE_PASSWORD = "trustStorePassword";
    /** The URI parameter naming the key store file: {@value}. */
    public static final String KEY_STORE = "keyStore";
    /** The URI parameter with the key store's password: {@value}. Masked wherever the URI is shown. */
    public static final String KEY_STORE_PASSWORD = "keyStorePassword";
    /** The TLS parameters. */
    public static final Set<String> PARAMETERS =
            Set.of(TLS, TRUST_STORE, TRUST_STORE_PASSWORD, KEY_STORE, KEY_STORE_PASSWORD);

    private final String trustStore;
    private final String trustStorePassword;
    private final String keyStore;
    private final String keyStorePassword;

    private ZkTls(String trustStore, String trustStorePassword, String keyStore, String keyStorePassword) {
        this.trustStore = trustStore;
        this.trustStorePassword = trustStorePassword;
        this.keyStore = keyStore;
        this.keyStorePassword = keyStorePassword;
    }

    /**
     * Reads the TLS parameters of a URI and loads the stores once, so that a wrong path or password fails here
     * rather than as a connection that never comes.
     *
     * @param uri a {@code zookeeper://} URI
     * @return the TLS settings, or empty without {@code tls=true}
     * @throws IllegalArgumentException if {@code tls} is not {@code true} or {@code false}; a store parameter is
     *                                  given without {@code tls=true}; a password without its store; a store file
     *                                  is missing; or a store cannot be read with its password. The message names
     *                                  the parameter and shows the URI without passwords
     */
    public static Optional<ZkTls> of(LockUri uri) {
        Objects.requireNonNull(uri, "uri");
        if (!uri.bool(TLS, false)) {
            for (String p : new String[] {TRUST_STORE, TRUST_STORE_PASSWORD, KEY_STORE, KEY_STORE_PASSWORD}) {
                if (uri.parameter(p).isPresent()) {
                    throw new IllegalArgumentException("parameter '" + p + "' needs " + TLS + "=true in lock URI: "
                            + uri);
                }
            }
            return Optional.empty();
        }
        String trustStore = store(uri, TRUST_STORE, TRUST_STORE_PASSWORD);
        String keyStore = store(uri, KEY_STORE, KEY_STORE_PASSWORD);
        ZkTls tls = new ZkTls(trustStore, uri.parameter(TRUST_STORE_PASSWORD).orElse(null), keyStore,
                uri.parameter(KEY_STORE_PASSWORD).orElse(null));
        tls.check(uri);
        return Optional.of(tls);
    }

    private static String store(LockUri uri, String store, String password) {
        Optional<String> file = uri.parameter(store);
        if (file.isEmpty()) {
            if (uri.parameter(password).isPresent()) {
                throw new IllegalArgumentException("parameter '" + password + "' without '" + store
                        + "' in lock URI: " + uri);
            }
            return null;
        }
        if (!Files.isRegularFile(Path.of(file.get()))) {
            throw new IllegalArgumentException("parameter '" + store + "' names no readable file: " + file.get()
                    + " in lock URI: " + uri);
        }
        return file.get();
    }

    /** Builds the SSL context as the client will, once: a store that cannot be read fails here. */
    private void check(LockUri uri) {
        ZKClientConfig config = applyTo(new ZKClientConfig());
        try (ClientX509Util x509 = new ClientX509Util()) {
            x509.createSSLContext(config);
        } catch (X509Exception.SSLContextException e) {
            // ZooKeeper's messages name the failure and the file, never the password
            throw new IllegalArgumentException("cannot use the TLS stores of lock URI " + uri + ": "
                    + messages(e), e);
        }
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                b.append(b.length() == 0 ? "" : ": ").append(t.getMessage());
            }
        }
        return b.toString();
    }

    /**
     * Sets TLS on a client's configuration: the Netty client socket, {@code zookeeper.client.secure=true}, and the
     * stores given (each store and password set explicitly, empty when not given, so no {@code zookeeper.ssl.*}
     * system property fills them in).
     *
     * @param config the configuration of one client
     * @return {@code config}
     */
    public ZKClientConfig applyTo(ZKClientConfig config) {
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        try (ClientX509Util x509 = new ClientX509Util()) {
            set(config, x509.getSslTruststoreLocationProperty(), trustStore);
            set(config, x509.getSslTruststorePasswdProperty(), trustStorePassword);
            set(config, x509.getSslKeystoreLocationProperty(), keyStore);
            set(config, x509.getSslKeystorePasswdProperty(), keyStorePassword);
        }
        return config;
    }

    private static void set(ZKClientConfig config, String key, String value) {
        config.setProperty(key, value == null ? "" : value);
    }

    /** @return the trust store file, if given */
    public Optional<String> trustStore() {
        return Optional.ofNullable(trustStore);
    }

    /** @return the key store file, if given */
    public Optional<String> keyStore() {
        return Optional.ofNullable(keyStore);
    }

    /** @return the stores, without passwords */
    @Override
    public String toString() {
        return "ZkTls[trustStore=" + (trustStore == null ? "JVM default" : trustStore)
                + (trustStorePassword == null ? "" : ", trustStorePassword=***")
                + ", keyStore=" + (keyStore == null ? "none" : keyStore)
                + (keyStorePassword == null ? "" : ", keyStorePassword=***") + "]";
    }
}
