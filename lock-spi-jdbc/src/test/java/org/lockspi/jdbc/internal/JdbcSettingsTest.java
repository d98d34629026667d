package org.lockspi.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockUri;

/** Parsing and validation of the URI form and of a DataSource's parameters, without a database. */
class JdbcSettingsTest {

    private static JdbcSettings parse(String uri) {
        return JdbcSettings.parse(LockUri.parse(uri));
    }

    private static String refused(String uri) {
        return assertThrows(IllegalArgumentException.class, () -> parse(uri)).getMessage();
    }

    @Test
    void eachSchemeNamesItsDriverUrlAndDialect() {
        JdbcSettings pg = parse("jdbc+postgresql://app:secret@db:5432/orders?leaseTime=9s");
        assertEquals("jdbc:postgresql://db:5432/orders", pg.jdbcUrl());
        assertEquals("postgresql", pg.dialect().name());
        assertEquals("app", pg.driverProperties().get("user"));
        assertEquals("secret", pg.driverProperties().get("password"));
        assertEquals("2", pg.driverProperties().get("socketTimeout"), "pgjdbc counts seconds");
        assertFalse(pg.toString().contains("secret"), pg.toString());
        assertEquals(Duration.ofSeconds(3), pg.renewInterval());
        assertTrue(pg.wakeups(), "PostgreSQL wakes its waiters");
        assertEquals("jdbc:mariadb://db:3306/tck", parse("jdbc+mariadb://db:3306/tck").jdbcUrl());
        assertEquals("2000", parse("jdbc+mariadb://db:3306/tck").driverProperties().get("socketTimeout"));
        assertFalse(parse("jdbc+mariadb://db/tck").wakeups(), "MariaDB's waiters poll");
        assertEquals("jdbc:h2:tcp://localhost:9092/mem:locks", parse("jdbc+h2://localhost:9092/mem:locks").jdbcUrl());
        assertFalse(parse("jdbc+postgresql://db/x?wakeups=false").wakeups());
    }

    @Test
    void timeoutsAreCheckedAgainstTheLease() {
        assertEquals(Duration.ofSeconds(1), parse("jdbc+postgresql://db/x?leaseTime=3s").socketTimeout(),
                "the socket timeout shrinks to a third of the lease");
        assertTrue(refused("jdbc+postgresql://db/x?leaseTime=3s&socketTimeout=2s")
                .contains("socketTimeout PT2S is above leaseTime/3 = PT1S"));
        assertTrue(refused("jdbc+postgresql://db/x?leaseTime=500ms").contains("'leaseTime' out of range"));
        assertTrue(refused("jdbc+postgresql://db/x?retryInitial=2s&retryMax=1s").contains("'retryMax' out of range"));
        assertTrue(refused("jdbc+postgresql://db/x?poolSize=2").contains("'poolSize' out of range [3, 1024]: 2"));
    }

    @Test
    void malformedUrisFailAtOnceNamingTheProblem() {
        assertTrue(refused("jdbc+postgresql://db").contains("names the database in its path"));
        assertTrue(refused("jdbc+postgresql://a,b/x").contains("names one database server, got 2 hosts"));
        assertTrue(refused("jdbc+postgresql://db/x?dialect=h2").contains("'dialect' is for an application's own "
                + "DataSource"));
        assertTrue(refused("jdbc+postgresql://db/x?lease=1s").contains("unknown parameter 'lease'"));
        assertTrue(refused("jdbc+oracle://db/x").contains("not 'jdbc+oracle'"));
        assertTrue(refused("jdbc+postgresql://db/x?tablePrefix=Locks").contains("tablePrefix must be"));
        assertTrue(refused("jdbc+postgresql://db/x?createSchema=yes").contains("'createSchema' is not true or false"));
    }

    @Test
    void aDataSourcesParametersLeaveConnectionsToIt() {
        JdbcSettings s = JdbcSettings.forDataSource("leaseTime=10s", () -> "PostgreSQL", "DataSource d");
        assertEquals("postgresql", s.dialect().name());
        assertEquals(Duration.ofSeconds(10), s.leaseTime());
        assertEquals("mariadb", JdbcSettings.forDataSource("", () -> "MariaDB", "d").dialect().name());
        assertEquals("mariadb", JdbcSettings.forDataSource("", () -> "MySQL", "d").dialect().name());
        assertEquals("h2", JdbcSettings.forDataSource("dialect=h2", () -> {
            throw new AssertionError("a named dialect asks the database nothing");
        }, "d").dialect().name());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JdbcSettings.forDataSource("poolSize=4",
                () -> "H2", "d")).getMessage().contains("'poolSize' is for the URI form"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JdbcSettings.forDataSource("dialect=oracle",
                () -> "H2", "d")).getMessage().contains("unknown dialect 'oracle'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JdbcSettings.forDataSource("",
                () -> "Microsoft SQL Server", "d")).getMessage().contains("no lockspi dialect for the database "
                + "'Microsoft SQL Server'"));
    }
}
