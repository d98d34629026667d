package org.lockspi.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates for a TLS test, made with the JDK's {@code keytool}: a server key pair whose certificate
 * names {@code IP:127.0.0.1} only, a client key pair, a trust store holding the server's certificate, and the PEM
 * files {@code redis-server} reads (the server's certificate and PKCS#8 key, the client's certificate as the CA
 * its clients' certificates must chain to).
 */
final class TestCertificates {
    static final String SERVER_STORE_PASSWORD = "server-st0re-pw";
    static final String CLIENT_STORE_PASSWORD = "client-k3ystore-pw";
    static final String TRUST_STORE_PASSWORD = "trust-st0re-pw";

    final Path trustStore;
    final Path clientKeyStore;
    final Path otherClientKeyStore;
    final Path serverCertPem;
    final Path serverKeyPem;
    final Path clientCertPem;

    private TestCertificates(Path dir) {
        this.trustStore = dir.resolve("trust.p12");
        this.clientKeyStore = dir.resolve("client.p12");
        this.otherClientKeyStore = dir.resolve("other-client.p12");
        this.serverCertPem = dir.resolve("server.crt");
        this.serverKeyPem = dir.resolve("server.key");
        this.clientCertPem = dir.resolve("client.crt");
    }

    /** Makes every file in {@code dir}. */
    static TestCertificates create(Path dir) {
        TestCertificates c = new TestCertificates(dir);
        Path server = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=lockspi test server", "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", server.toString(), "-storepass", SERVER_STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", server.toString(), "-storepass",
                SERVER_STORE_PASSWORD, "-file", c.serverCertPem.toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", c.serverCertPem.toString(), "-storetype",
                "PKCS12", "-keystore", c.trustStore.toString(), "-storepass", TRUST_STORE_PASSWORD);
        keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=lockspi test client", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                c.clientKeyStore.toString(), "-storepass", CLIENT_STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "client", "-keystore", c.clientKeyStore.toString(), "-storepass",
                CLIENT_STORE_PASSWORD, "-file", c.clientCertPem.toString());
        // A client certificate the server does not trust.
        keytool("-genkeypair", "-alias", "other", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=lockspi unknown client", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                c.otherClientKeyStore.toString(), "-storepass", CLIENT_STORE_PASSWORD);
        writeKeyPem(server, "server", SERVER_STORE_PASSWORD, c.serverKeyPem);
        return c;
    }

    private static void writeKeyPem(Path store, String alias, String password, Path pem) {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, password.toCharArray());
            Key key = keys.getKey(alias, password.toCharArray()); // PKCS#8 encoded
            String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.getEncoded());
            Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + pem, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the key of " + store, e);
        }
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + command + "\n" + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }
}
