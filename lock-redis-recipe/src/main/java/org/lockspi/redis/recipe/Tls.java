package org.lockspi.redis.recipe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.lockspi.spi.LockUri;

/**
 * The TLS options of a {@code rediss*://} URI: a trust store that replaces the JVM's default one, a key store
 * with the client certificate, their types and passwords, and whether the server's certificate must name the host
 * the client connects to. Immutable; {@link #toString()} shows paths and types, never a password.
 *
 * @param trustStore         the trust store file, or null for the JVM's default trust
 * @param trustStoreType     its {@link KeyStore} type ({@code PKCS12} by default, or {@code JKS})
 * @param trustStorePassword its password, or null
 * @param keyStore           the key store with the client's key and certificate, or null to send none
 * @param keyStoreType       its type
 * @param keyStorePassword   its password, also the key's password, or null
 * @param verifyHostname     whether the server certificate must name the host connected to (true by default)
 */
public record Tls(Path trustStore, String trustStoreType, String trustStorePassword, Path keyStore,
                  String keyStoreType, String keyStorePassword, boolean verifyHostname) {

    static Tls parse(LockUri uri) {
        Path trust = uri.parameter("trustStore").map(Path::of).orElse(null);
        Path key = uri.parameter("keyStore").map(Path::of).orElse(null);
        check(uri, trust, "trustStore", "trustStoreType", "trustStorePassword");
        check(uri, key, "keyStore", "keyStoreType", "keyStorePassword");
        return new Tls(trust, type(uri, "trustStoreType"), uri.parameter("trustStorePassword").orElse(null), key,
                type(uri, "keyStoreType"), uri.parameter("keyStorePassword").orElse(null),
                uri.bool("verifyHostname", true));
    }

    private static void check(LockUri uri, Path store, String name, String type, String password) {
        if (store == null) {
            for (String dependent : new String[] {type, password}) {
                if (uri.parameter(dependent).isPresent()) {
                    throw new IllegalArgumentException("parameter '" + dependent + "' needs '" + name + "': " + uri);
                }
            }
        } else if (!Files.isReadable(store)) {
            throw new IllegalArgumentException("parameter '" + name + "' names no readable file: " + store
                    + " in lock URI: " + uri);
        }
    }

    private static String type(LockUri uri, String name) {
        String type = uri.parameter(name).orElse("PKCS12");
        try {
            KeyStore.getInstance(type);
        } catch (java.security.KeyStoreException e) {
            throw new IllegalArgumentException("parameter '" + name + "' names no key store type of this JVM: '"
                    + type + "' in lock URI: " + uri);
        }
        return type;
    }

    /**
     * @return a socket factory with these stores, or null when neither is set (the JVM's default then)
     * @throws IllegalArgumentException if a store cannot be read (a wrong password, a wrong type, a bad file)
     */
    public SSLSocketFactory socketFactory() {
        if (trustStore == null && keyStore == null) {
            return null;
        }
        try {
            TrustManagerFactory trust = trustManagers();
            KeyManagerFactory keys = keyManagers();
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(),
                    null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS with " + this + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return the trust managers of {@code trustStore}, or null for the JVM's default trust
     * @throws IllegalArgumentException if the store cannot be read
     */
    public TrustManagerFactory trustManagers() {
        if (trustStore == null) {
            return null;
        }
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(trustStore, trustStoreType, trustStorePassword, "trustStore"));
            return trust;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS with " + this + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return the key managers of {@code keyStore} (the client certificate), or null to send none
     * @throws IllegalArgumentException if the store or its key cannot be read
     */
    public KeyManagerFactory keyManagers() {
        if (keyStore == null) {
            return null;
        }
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore, keyStoreType, keyStorePassword, "keyStore"),
                    keyStorePassword == null ? new char[0] : keyStorePassword.toCharArray());
            return keys;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS with " + this + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return parameters that make the handshake check the host name ({@code HTTPS} endpoint identification), or,
     *         unchecked, parameters without it (never null: Jedis 8 checks the host name when given none)
     */
    public SSLParameters parameters() {
        SSLParameters parameters = new SSLParameters();
        if (verifyHostname) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        return parameters;
    }

    private static KeyStore load(Path file, String type, String password, String name) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, chars(password));
            return store;
        } catch (IOException | GeneralSecurityException e) {
            // The message of a wrong password says so ("keystore password was incorrect"), never the password.
            throw new IllegalArgumentException("cannot read " + name + " " + file + " (type " + type + "): "
                    + e.getMessage(), e);
        }
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    @Override
    public String toString() {
        return "TLS[trustStore=" + (trustStore == null ? "JVM default" : trustStore + " (" + trustStoreType + ")")
                + (trustStorePassword != null ? ", trustStorePassword=***" : "")
                + (keyStore == null ? "" : ", keyStore=" + keyStore + " (" + keyStoreType + ")")
                + (keyStorePassword != null ? ", keyStorePassword=***" : "")
                + ", verifyHostname=" + verifyHostname + "]";
    }
}
