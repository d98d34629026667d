package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockUri;

class ExternalBackendTest {

    @Test
    void servesTheUriAsGivenAndMasksThePassword() {
        ExternalBackend backend = ExternalBackend.of("redis://:pw-123@cache:6379/2");
        assertEquals("redis://:pw-123@cache:6379/2", backend.uri());
        assertEquals("redis", backend.scheme());
        assertFalse(backend.description().contains("pw-123"), backend.description());
        assertEquals(Set.of(TckBackend.Capability.OTHER_PROCESSES), backend.capabilities());
        LockUri unreachable = LockUri.parse(backend.unreachableUri());
        assertTrue(unreachable.hostList().startsWith("127.0.0.1:"), unreachable.toString());
        assertEquals("/2", unreachable.path());
        backend.close();
        backend.close();
    }

    @Test
    void hasNoServerSideOperations() {
        ExternalBackend backend = ExternalBackend.of("zookeeper://zk1:2181/tck");
        assertThrows(UnsupportedOperationException.class, () -> backend.residue("a"));
        assertThrows(UnsupportedOperationException.class, () -> backend.forceLoss("a"));
        assertThrows(UnsupportedOperationException.class, backend::restart);
        assertThrows(UnsupportedOperationException.class, () -> backend.wakeupRegistrations("a"));
        assertThrows(UnsupportedOperationException.class, () -> backend.removeEmptyState("a"));
    }

    @Test
    void refusesParametersAndAMissingProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExternalBackend.of("zookeeper://zk1:2181/tck?sessionTimeout=3s"));
        assertTrue(e.getMessage().contains("no parameters"), e.getMessage());
        String before = System.getProperty(ExternalBackend.URI_PROPERTY);
        System.clearProperty(ExternalBackend.URI_PROPERTY);
        try {
            assertThrows(IllegalStateException.class, ExternalBackend::fromSystemProperty);
            try (TckBackend fallback = ExternalBackend.fromSystemPropertyOr(
                    () -> ExternalBackend.of("zookeeper://fallback:2181/tck"))) {
                assertEquals("zookeeper://fallback:2181/tck", fallback.uri());
            }
            System.setProperty(ExternalBackend.URI_PROPERTY, "zookeeper://zk9:2181/tck");
            try (TckBackend configured = ExternalBackend.fromSystemPropertyOr(
                    () -> ExternalBackend.of("zookeeper://fallback:2181/tck"))) {
                assertEquals("zookeeper://zk9:2181/tck", configured.uri());
            }
        } finally {
            if (before != null) {
                System.setProperty(ExternalBackend.URI_PROPERTY, before);
            } else {
                System.clearProperty(ExternalBackend.URI_PROPERTY);
            }
        }
    }
}
