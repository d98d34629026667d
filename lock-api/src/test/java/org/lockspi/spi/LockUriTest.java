package org.lockspi.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LockUriTest {
    private static final Duration MIN = Duration.ZERO;
    private static final Duration MAX = Duration.ofDays(1);

    private static IllegalArgumentException malformed(String uri) {
        return assertThrows(IllegalArgumentException.class, () -> LockUri.parse(uri));
    }

    @Test
    void fullUri() {
        LockUri u = LockUri.parse("ZooKeeper://zk1:2181,zk2:2182,zk3/app/locks?sessionTimeout=30s&x=1");
        assertEquals("zookeeper", u.scheme());
        assertEquals(List.of("zk1:2181", "zk2:2182", "zk3"), u.hosts());
        assertEquals("zk1:2181,zk2:2182,zk3", u.hostList());
        assertEquals("/app/locks", u.path());
        assertEquals(Map.of("sessionTimeout", "30s", "x", "1"), u.parameters());
        assertEquals(List.of("sessionTimeout", "x"), List.copyOf(u.parameters().keySet()));
        assertEquals(Optional.empty(), u.user());
        assertEquals(Optional.empty(), u.password());
        assertEquals("zookeeper://zk1:2181,zk2:2182,zk3/app/locks?sessionTimeout=30s&x=1", u.toString());
    }

    @Test
    void credentials() {
        LockUri u = LockUri.parse("redis://bob:s3cret@cache:6379/0");
        assertEquals(Optional.of("bob"), u.user());
        assertEquals(Optional.of("s3cret"), u.password());
        assertEquals("redis://bob:***@cache:6379/0", u.toString());
        LockUri noUser = LockUri.parse("redis://:s3cret@cache");
        assertEquals(Optional.empty(), noUser.user());
        assertEquals(Optional.of("s3cret"), noUser.password());
        assertEquals("redis://:***@cache", noUser.toString());
        LockUri userOnly = LockUri.parse("redis://bob@cache");
        assertEquals(Optional.of("bob"), userOnly.user());
        assertEquals(Optional.empty(), userOnly.password());
        assertEquals("redis://bob@cache", userOnly.toString());
    }

    @Test
    void sentinelAndStoreSecretsMasked() {
        LockUri u = LockUri.parse("rediss-sentinel://s1,s2/m?sentinelPassword=s3cret&trustStore=/t.p12"
                + "&trustStorePassword=tru5t&KEYSTOREPASSWORD=k3y&leaseTime=3s");
        assertEquals("s3cret", u.parameter("sentinelPassword").orElseThrow());
        assertEquals("rediss-sentinel://s1,s2/m?sentinelPassword=***&trustStore=/t.p12&trustStorePassword=***"
                + "&KEYSTOREPASSWORD=***&leaseTime=3s", u.toString());
        assertTrue(LockUri.isSecretParameter("keyStorePassword"));
        assertFalse(LockUri.isSecretParameter("passwordFile"));
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> LockUri.parse("redis://h?keyStorePassword=s3cret&&x=1"));
        assertFalse(malformed.getMessage().contains("s3cret"), malformed.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> LockUri.parse("redis://h?sentinelPassword=s3cret&sentinelPassword=s3cret"));
        assertFalse(twice.getMessage().contains("s3cret"), twice.getMessage());
    }

    @Test
    void secretParametersAreMasked() {
        LockUri u = LockUri.parse("zookeeper://h:2181/app?tls=true&trustStore=/t.p12&trustStorePassword=s3cret"
                + "&KEYSTOREPASSWORD=k3y&password=p4ss&passwordless=x");
        assertEquals("s3cret", u.parameter("trustStorePassword").orElseThrow());
        assertEquals("zookeeper://h:2181/app?tls=true&trustStore=/t.p12&trustStorePassword=***"
                + "&KEYSTOREPASSWORD=***&password=***&passwordless=x", u.toString());
        assertTrue(LockUri.isSecretParameter("keyStorePassword"));
        assertFalse(LockUri.isSecretParameter("passwordFile"));
        assertFalse(u.withoutParameter("tls").toString().contains("s3cret"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "zookeeper://h/a//b?trustStorePassword=s3cret",            // empty path segment
            "zookeeper://h?trustStorePassword=s3cret&trustStorePassword=s3cret", // given twice
            "zookeeper://h?a=%zz&keyStorePassword=s3cret",              // bad escape elsewhere
            "zookeeper://h?keyStorePassword=s3c%zzret",                 // bad escape in the secret
            "zookeeper://h:0?keyStorePassword=s3cret",                  // port
            "zookeeper://h?x&TRUSTSTOREPASSWORD=s3cret",                // bare parameter
    })
    void secretParametersNeverInMessages(String uri) {
        IllegalArgumentException e = malformed(uri);
        assertFalse(e.getMessage().contains("s3c"), e.getMessage());
    }

    @Test
    void percentDecoding() {
        LockUri u = LockUri.parse("redis://b%C3%B6b:p%40ss%3Aw%2Fo%3Frd%25@cache?label=a%20b%26c");
        assertEquals(Optional.of("b\u00f6b"), u.user());
        assertEquals(Optional.of("p@ss:w/o?rd%"), u.password());
        assertEquals("a b&c", u.parameter("label").orElseThrow());
        assertFalse(u.toString().contains("p@ss"), u.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://:se%zzcret@h", "redis://:secret@h?a=%4", "redis://:secret@h?a=%"})
    void malformedPercentEscape(String uri) {
        IllegalArgumentException e = malformed(uri);
        assertTrue(e.getMessage().contains("percent"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void ipv6Hosts() {
        LockUri u = LockUri.parse("zookeeper://[::1]:2181,[fe80::1]:1,[2001:db8::7]/p");
        assertEquals(List.of("[::1]:2181", "[fe80::1]:1", "[2001:db8::7]"), u.hosts());
    }

    @Test
    void ipv6WithoutBracketsOrWithBadCharactersIsRefused() {
        malformed("zookeeper://::1:2181/p");
        IllegalArgumentException e = malformed("zookeeper://[zz::1]:2181");
        assertTrue(e.getMessage().contains("malformed host"), e.getMessage());
    }

    @Test
    void ipv6Accepted() {
        assertEquals(List.of("[::1]"), LockUri.parse("zookeeper://[::1]").hosts());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "65536", "99999"})
    void portOutOfRange(String port) {
        IllegalArgumentException e = malformed("zookeeper://a:1,b:" + port + "/p");
        assertTrue(e.getMessage().contains("port out of range 1..65535: " + Integer.parseInt(port)), e.getMessage());
    }

    @Test
    void portBounds() {
        assertEquals(List.of("a:1", "b:65535"), LockUri.parse("zookeeper://a:1,b:65535").hosts());
        malformed("zookeeper://a:123456");
        malformed("zookeeper://a:");
        malformed("zookeeper://a:x1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "zookeeper", "zookeeper:/h", "zookeeper://", "zookeeper:///p", "://h",
            "1zk://h", "zookeeper://h#frag", "zookeeper://a,,b", "zookeeper://a,", "zookeeper://,a",
            "zookeeper://a b", "zookeeper://h\u00e9"})
    void malformedUris(String uri) {
        IllegalArgumentException e = malformed(uri);
        assertTrue(e.getMessage().contains(uri.strip().isEmpty() ? "lock URI" : uri), e.getMessage());
    }

    @Test
    void nullUri() {
        assertThrows(NullPointerException.class, () -> LockUri.parse(null));
    }

    @Test
    void surroundingWhitespaceIsIgnored() {
        assertEquals("mem://h/p", LockUri.parse("  mem://h/p \n").toString());
    }

    @Test
    void pathNormalisation() {
        assertEquals("", LockUri.parse("zookeeper://h").path());
        assertEquals("", LockUri.parse("zookeeper://h/").path());
        assertEquals("", LockUri.parse("zookeeper://h/?a=1").path());
        assertEquals("/app", LockUri.parse("zookeeper://h/app").path());
        assertEquals("/app", LockUri.parse("zookeeper://h/app/").path());
        assertEquals("/app/locks", LockUri.parse("zookeeper://h/app/locks/?a=1").path());
        assertEquals("zookeeper://h/app/locks?a=1", LockUri.parse("zookeeper://h/app/locks/?a=1").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"zookeeper://h//", "zookeeper://h//app", "zookeeper://h/a//b", "zookeeper://h/a/b//"})
    void emptyPathSegmentsAreRefused(String uri) {
        IllegalArgumentException e = malformed(uri);
        assertTrue(e.getMessage().contains("empty path segment"), e.getMessage());
    }

    @Test
    void parameters() {
        assertEquals(Map.of(), LockUri.parse("mem://h?").parameters());
        assertEquals(Map.of("a", "x=y"), LockUri.parse("mem://h?a=x=y").parameters());
        IllegalArgumentException twice = malformed("mem://h?a=1&b=2&a=3");
        assertTrue(twice.getMessage().contains("parameter 'a' given twice"), twice.getMessage());
        IllegalArgumentException empty = malformed("mem://h?a=");
        assertTrue(empty.getMessage().contains("parameter 'a' has no value"), empty.getMessage());
        IllegalArgumentException bare = malformed("mem://h?a&b=1");
        assertTrue(bare.getMessage().contains("parameter 'a' has no value"), bare.getMessage());
        IllegalArgumentException noName = malformed("mem://h?=1");
        assertTrue(noName.getMessage().contains("empty parameter name"), noName.getMessage());
        IllegalArgumentException trailing = malformed("mem://h?a=1&");
        assertTrue(trailing.getMessage().contains("empty parameter name"), trailing.getMessage());
    }

    @Test
    void parametersAreImmutable() {
        LockUri u = LockUri.parse("mem://h?a=1");
        assertThrows(UnsupportedOperationException.class, () -> u.parameters().put("b", "2"));
        assertThrows(UnsupportedOperationException.class, () -> u.hosts().add("x"));
    }

    @Test
    void withoutParameter() {
        LockUri u = LockUri.parse("redis://u:pw@h/0?a=1&provider=x&b=2");
        LockUri w = u.withoutParameter("provider");
        assertEquals(Map.of("a", "1", "b", "2"), w.parameters());
        assertEquals(List.of("a", "b"), List.copyOf(w.parameters().keySet()));
        assertEquals(u.password(), w.password());
        assertEquals(u.user(), w.user());
        assertEquals(u.hosts(), w.hosts());
        assertEquals(u.path(), w.path());
        assertEquals(3, u.parameters().size(), "the original is unchanged");
        assertEquals(u, u.withoutParameter("absent"));
        assertEquals(LockUri.parse("redis://u:pw@h/0?a=1&b=2"), w);
    }

    @Test
    void equalsAndHashCode() {
        LockUri a = LockUri.parse("redis://u:pw@h/0?a=1");
        assertEquals(a, LockUri.parse("REDIS://u:pw@h/0?a=1"));
        assertEquals(a.hashCode(), LockUri.parse("redis://u:pw@h/0?a=1").hashCode());
        assertNotEquals(a, LockUri.parse("redis://u:other@h/0?a=1"));
        assertNotEquals(a, LockUri.parse("redis://u:pw@h/1?a=1"));
    }

    @Test
    void durations() {
        LockUri u = LockUri.parse("mem://h?ms=250ms&s=30s&m=5m&h=1h&iso=PT1M30S&zero=0s&isoDays=P1D");
        assertEquals(Duration.ofMillis(250), u.duration("ms", null, MIN, MAX));
        assertEquals(Duration.ofSeconds(30), u.duration("s", null, MIN, MAX));
        assertEquals(Duration.ofMinutes(5), u.duration("m", null, MIN, MAX));
        assertEquals(Duration.ofHours(1), u.duration("h", null, MIN, MAX));
        assertEquals(Duration.ofSeconds(90), u.duration("iso", null, MIN, MAX));
        assertEquals(Duration.ZERO, u.duration("zero", null, MIN, MAX));
        assertEquals(Duration.ofDays(1), u.duration("isoDays", null, MIN, MAX));
        assertEquals(Duration.ofSeconds(7), u.duration("absent", Duration.ofSeconds(7), MIN, MAX));
    }

    @ParameterizedTest
    @ValueSource(strings = {"30", "30sec", "-5s", "5S", "1.5s", "PT", "s", "30 s", "1d", "999999999999999h"})
    void malformedDurations(String value) {
        LockUri u = LockUri.parse("redis://:secret@h?t=" + value.replace(" ", "%20"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> u.duration("t", null, MIN, MAX));
        assertTrue(e.getMessage().contains("parameter 't' is not a duration") && e.getMessage().contains(value),
                e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void durationRange() {
        LockUri u = LockUri.parse("redis://:secret@h?t=2h&n=PT-1S&low=5ms&max=1d");
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> u.duration("t", null, MIN, Duration.ofHours(1)));
        assertTrue(high.getMessage().contains("parameter 't' out of range [PT0S, PT1H]: PT2H"), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> u.duration("n", null, MIN, MAX));
        assertThrows(IllegalArgumentException.class, () -> u.duration("low", null, Duration.ofMillis(10), MAX));
        assertEquals(Duration.ofHours(1), u.duration("absent", Duration.ofHours(1), MIN, MAX));
        for (IllegalArgumentException e : List.of(high)) {
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
        }
    }

    @Test
    void integers() {
        LockUri u = LockUri.parse("redis://:secret@h?n=42&neg=-3&bad=4x&big=99999999999&hi=11");
        assertEquals(42, u.integer("n", 0, 0, 100));
        assertEquals(-3, u.integer("neg", 0, -5, 5));
        assertEquals(9, u.integer("absent", 9, 0, 1));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> u.integer("bad", 0, 0, 10));
        assertTrue(bad.getMessage().contains("parameter 'bad' is not an integer: '4x'"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> u.integer("big", 0, 0, Integer.MAX_VALUE));
        IllegalArgumentException hi = assertThrows(IllegalArgumentException.class, () -> u.integer("hi", 0, 0, 10));
        assertTrue(hi.getMessage().contains("parameter 'hi' out of range [0, 10]: 11"), hi.getMessage());
        assertThrows(IllegalArgumentException.class, () -> u.integer("neg", 0, 0, 10));
        for (IllegalArgumentException e : List.of(bad, hi)) {
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
        }
    }

    @Test
    void booleans() {
        LockUri u = LockUri.parse("redis://:secret@h?t=true&f=false&bad=yes&upper=TRUE");
        assertTrue(u.bool("t", false));
        assertFalse(u.bool("f", true));
        assertTrue(u.bool("absent", true));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> u.bool("bad", false));
        assertTrue(bad.getMessage().contains("parameter 'bad' is not true or false: 'yes'"), bad.getMessage());
        assertFalse(bad.getMessage().contains("secret"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> u.bool("upper", false));
    }

    /** URIs with the password {@code secret} (or parts of it) that are malformed in every way we know. */
    @ParameterizedTest
    @ValueSource(strings = {
            "redis://:secret@",                      // no host
            "redis://:secret@h:0",                   // port
            "redis://:secret@h:99999",               // port
            "redis://user:secret@h,,x",              // empty host
            "redis://:secret@[zz]:1",                // bad IPv6
            "redis://:secret@h?a=1&a=2",             // duplicate parameter
            "redis://:secret@h?a=",                  // empty value
            "redis://:secret@h?=1",                  // empty name
            "redis://:sec%zzret@h",                  // bad escape in the password
            "redis://:secret@h#frag",                // fragment
            "redis:/:secret@h",                      // one slash
            "redis:secret@h",                        // no slashes
            ":secret@h",                             // no scheme
            "redis//:secret@h",                      // no colon after the scheme
            "redis://:se/cret@h",                    // unencoded '/' in the password
            "redis://:se?cret@h",                    // unencoded '?' in the password
            "redis://:se#cret@h",                    // unencoded '#' in the password
            "redis://:se@cret@h",                    // unencoded '@' in the password
            "redis://u:secret/x@h",                  // password that looks like a host and path
            "redis://u:1?secret=x@h",                // password that looks like a port and query
            "redis://u:1?a=secret@h",                // password that looks like a port and query
            "redis://u:1?a=1&a=secret@h",            // ... with a duplicate parameter
            "redis://u:1?secret&a@h",                // ... with a parameter without value
            "redis://u:1/secret@h",                  // password that looks like a port and a path
            "redis://u:12345678@h?bare",             // looks fine but has a bare parameter
            "redis://:secret@h/a//b",                // empty path segment
            "redis://:secret@h\u00e9",               // bad host character
    })
    void passwordNeverInMessages(String uri) {
        IllegalArgumentException e = malformed(uri);
        assertNoSecret(e.getMessage());
        for (Throwable s : e.getSuppressed()) {
            assertNoSecret(s.getMessage());
        }
        if (e.getCause() != null) {
            assertNoSecret(e.getCause().getMessage());
        }
    }

    private static void assertNoSecret(String message) {
        for (String part : List.of("secret", "sec", "cret", "ret", "12345678")) {
            assertFalse(message.contains(part), () -> "'" + part + "' leaked: " + message);
        }
    }

    @Test
    void passwordNeverInToString() {
        for (String uri : List.of("redis://:secret@h", "redis://u:secret@h:1/0?a=1",
                "redis://u:se%2Fcret@h", "redis://u:secret@[::1]:6379")) {
            LockUri u = LockUri.parse(uri);
            assertFalse(u.toString().contains("secret"), u.toString());
            assertFalse(u.toString().contains("se/cret"), u.toString());
            assertTrue(u.toString().contains(":***@"), u.toString());
            assertFalse(u.withoutParameter("a").toString().contains("secret"));
        }
    }
}
