package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockConnectionException;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.redis.RedisProcess;
import redis.clients.jedis.Jedis;

/**
 * {@code rediss://} against a real {@code redis-server} (the embedded-redis binary, which is built with TLS)
 * serving TLS with certificates made by {@code keytool}, requiring a client certificate
 * ({@code tls-auth-clients yes}): the provider connects with the trust store and key store named in the URI, is
 * refused without either, checks the host name against the certificate unless told not to, and never shows a
 * store password. If the binary cannot serve TLS, every test is skipped with the server's own words.
 */
@Timeout(60)
class RedisTlsTest {
    private static final String OPTIONS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    private static Path dir;
    private static TestCertificates certs;
    private static RedisProcess server;
    private static int tlsPort;

    @BeforeAll
    static void startTlsServer() throws IOException {
        dir = Files.createTempDirectory("lockspi-redis-tls-");
        certs = TestCertificates.create(dir);
        tlsPort = Ports.freeLoopbackPort();
        try {
            server = RedisProcess.start(dir.resolve("server"), Ports.freeLoopbackPort(), List.of(
                    "tls-port " + tlsPort, "tls-cert-file " + certs.serverCertPem, "tls-key-file " + certs.serverKeyPem,
                    "tls-ca-cert-file " + certs.clientCertPem, "tls-auth-clients yes"));
        } catch (IllegalStateException e) {
            boolean noTls = e.getMessage().toLowerCase().contains("tls");
            Assumptions.assumeFalse(noTls, "this redis-server cannot serve TLS: " + e.getMessage());
            throw e;
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (dir != null) {
            FileTrees.delete(dir);
        }
    }

    private static String trust() {
        return "trustStore=" + certs.trustStore + "&trustStorePassword=" + TestCertificates.TRUST_STORE_PASSWORD;
    }

    private static String key(Path store) {
        return "keyStore=" + store + "&keyStorePassword=" + TestCertificates.CLIENT_STORE_PASSWORD;
    }

    private static String uri(String host, String parameters) {
        return "rediss://" + host + ":" + tlsPort + "?" + OPTIONS + "&" + parameters;
    }

    @Test
    void locksOverTlsWithAClientCertificate() {
        try (LockService service = Locks.open(uri("127.0.0.1", trust() + "&" + key(certs.clientKeyStore)),
                new RedisLockProvider())) {
            try (Lease lease = service.mutex("tls-orders").tryAcquire().orElseThrow()) {
                assertTrue(lease.fencingToken() > 0, "token " + lease.fencingToken());
                LockInfo info = service.inspect("tls-orders");
                assertEquals(1, info.holders().size(), info.toString());
            }
            String shown = service.toString();
            assertTrue(shown.contains("trustStorePassword=***") && shown.contains("keyStorePassword=***"), shown);
            assertFalse(shown.contains(TestCertificates.TRUST_STORE_PASSWORD), shown);
            assertFalse(shown.contains(TestCertificates.CLIENT_STORE_PASSWORD), shown);
            // The server saw the provider's connections on its TLS port.
            try (Jedis plain = new Jedis("127.0.0.1", server.port())) {
                String clients = plain.clientList();
                assertTrue(clients.lines().anyMatch(l -> l.contains("name=lockspi ")
                        && l.contains("laddr=127.0.0.1:" + tlsPort + " ")), clients);
            }
        }
    }

    @Test
    void refusedWithoutAClientCertificateTheServerTrusts() {
        assertThrows(LockConnectionException.class,
                () -> Locks.open(uri("127.0.0.1", trust()), new RedisLockProvider()).close());
        assertThrows(LockConnectionException.class, () -> Locks.open(uri("127.0.0.1",
                trust() + "&" + key(certs.otherClientKeyStore)), new RedisLockProvider()).close());
    }

    @Test
    void refusedWithoutTheTrustStore() {
        LockConnectionException e = assertThrows(LockConnectionException.class, () -> Locks.open(
                uri("127.0.0.1", key(certs.clientKeyStore)), new RedisLockProvider()).close());
        assertNoPassword(e);
    }

    @Test
    void theHostNameIsChecked() {
        // The certificate names IP 127.0.0.1 only, not "localhost".
        String parameters = trust() + "&" + key(certs.clientKeyStore);
        LockConnectionException e = assertThrows(LockConnectionException.class,
                () -> Locks.open(uri("localhost", parameters), new RedisLockProvider()).close());
        assertNoPassword(e);
        try (LockService service = Locks.open(uri("localhost", parameters + "&verifyHostname=false"),
                new RedisLockProvider())) {
            try (Lease lease = service.mutex("tls-unchecked").tryAcquire().orElseThrow()) {
                assertTrue(lease.fencingToken() > 0, "token " + lease.fencingToken());
            }
        }
    }

    @Test
    void aWrongStorePasswordIsRefusedWithoutShowingIt() {
        String wrong = "Wr0ngPassw0rd";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Locks.open(
                uri("127.0.0.1", "trustStore=" + certs.trustStore + "&trustStorePassword=" + wrong),
                new RedisLockProvider()).close());
        assertTrue(e.getMessage().contains("trustStore " + certs.trustStore), e.getMessage());
        assertFalse(describe(e).contains(wrong), describe(e));
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class, () -> Locks.open(
                "redis://127.0.0.1:" + tlsPort + "?" + trust(), new RedisLockProvider()).close());
        assertTrue(plain.getMessage().contains("needs TLS: use rediss://"), plain.getMessage());
        assertFalse(describe(plain).contains(TestCertificates.TRUST_STORE_PASSWORD), describe(plain));
    }

    private static void assertNoPassword(Exception e) {
        String text = describe(e);
        assertFalse(text.contains(TestCertificates.TRUST_STORE_PASSWORD), text);
        assertFalse(text.contains(TestCertificates.CLIENT_STORE_PASSWORD), text);
    }

    private static String describe(Throwable e) {
        java.io.StringWriter out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }
}
