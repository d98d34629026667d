package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.internal.ProviderRegistry;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/** The selection rules documented on {@link Locks}, against the providers registered in the test resources. */
class ProviderSelectionTest {

    @BeforeEach
    @AfterEach
    void clean() {
        System.clearProperty(Locks.PROVIDER_PROPERTY);
        MemoryProvider.OPEN_LOG.clear();
    }

    private static String openedWith(String uri) {
        try (LockService s = Locks.open(uri)) {
            return s.providerName();
        }
    }

    private static String openedWith(String uri, String provider) {
        try (LockService s = Locks.open(uri, provider)) {
            return s.providerName();
        }
    }

    /** The message lists every installed provider and the three ways to pick one. */
    private static void assertListsInstalled(ProviderSelectionException e) {
        String m = e.getMessage();
        for (String name : List.of("alpha", "beta", "gamma", "delta")) {
            assertTrue(m.contains("\n  " + name + " 1.0-test"), () -> name + " not listed: " + m);
        }
        assertTrue(m.contains("schemes=") && m.contains("priority=5"), m);
        assertTrue(m.contains("Locks.open(uri, \"name\")") && m.contains("provider=name")
                && m.contains("-Dlockspi.provider=name"), m);
    }

    @Test
    void providersInPreferenceOrder() {
        List<String> names = Locks.providers().stream().map(LockProvider::name).collect(Collectors.toList());
        assertEquals(List.of("gamma", "alpha", "beta", "delta"), names);
        assertThrows(UnsupportedOperationException.class, () -> Locks.providers().clear());
    }

    /** A provider that does not override toString() still prints as name, version, class, schemes, features. */
    @Test
    void providersPrintReadably() {
        String printed = Locks.providers().toString();
        assertTrue(printed.startsWith("[gamma 1.0-test (org.lockspi.fixture.MemoryProvider$Gamma) schemes=["),
                printed);
        assertFalse(printed.contains("MemoryProvider["), "describes, does not call toString(): " + printed);
        String one = Locks.describe(Locks.providers().get(1));
        assertTrue(one.startsWith("alpha 1.0-test (org.lockspi.fixture.MemoryProvider$Alpha) schemes="), one);
        assertTrue(one.contains(" priority=0 features=[") && one.contains("REENTRANT_MUTEX"), one);
        assertThrows(NullPointerException.class, () -> Locks.describe(null));
    }

    @Test
    void uniqueSchemeNeedsNoPin() {
        assertEquals("delta", openedWith("solo://h"));
    }

    @Test
    void highestPriorityWins() {
        assertEquals("gamma", openedWith("fast://h"));
    }

    @Test
    void tieAtTheTopIsAmbiguous() {
        ProviderSelectionException e = assertThrows(ProviderSelectionException.class, () -> Locks.open("mem://h"));
        assertTrue(e.getMessage().startsWith("ambiguous lock provider for scheme 'mem': 'alpha', 'beta' have the "
                + "same priority 0"), e.getMessage());
        assertListsInstalled(e);
        assertTrue(MemoryProvider.OPEN_LOG.isEmpty());
    }

    @Test
    void noProviderForScheme() {
        ProviderSelectionException e = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("redis://:secret@h"));
        assertTrue(e.getMessage().startsWith("no installed lock provider serves scheme 'redis'"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertListsInstalled(e);
    }

    @Test
    void argumentPins() {
        assertEquals("alpha", openedWith("mem://h", "alpha"));
        assertEquals("beta", openedWith("mem://h", "beta"));
        assertEquals("alpha", openedWith("fast://h", "alpha"), "a pin beats priority");
    }

    @Test
    void parameterPinsAndIsNotPassedOn() {
        assertEquals("beta", openedWith("mem://h?provider=beta&flag=true"));
        assertEquals(List.of("attempt beta mem://h?flag=true", "beta mem://h?flag=true"), MemoryProvider.OPEN_LOG);
        assertEquals("alpha", openedWith("fast://h?provider=alpha"));
    }

    @Test
    void systemPropertyPins() {
        System.setProperty(Locks.PROVIDER_PROPERTY, " beta ");
        assertEquals("beta", openedWith("mem://h"));
        System.setProperty(Locks.PROVIDER_PROPERTY, "alpha");
        assertEquals("alpha", openedWith("fast://h"), "the property beats priority");
        System.setProperty(Locks.PROVIDER_PROPERTY, "   ");
        assertEquals("gamma", openedWith("fast://h"), "a blank property pins nothing");
    }

    @Test
    void argumentAndParameterBeatTheProperty() {
        System.setProperty(Locks.PROVIDER_PROPERTY, "alpha");
        assertEquals("beta", openedWith("mem://h", "beta"));
        assertEquals("beta", openedWith("mem://h?provider=beta"));
        System.setProperty(Locks.PROVIDER_PROPERTY, "nope");
        assertEquals("beta", openedWith("mem://h?provider=beta"), "an unused property is not checked");
    }

    @Test
    void argumentAndParameterMustAgree() {
        assertEquals("beta", openedWith("mem://h?provider=beta", "beta"));
        ProviderSelectionException e = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("mem://u:secret@h?provider=beta", "alpha"));
        assertTrue(e.getMessage().startsWith("provider 'alpha' was asked for, but the URI says provider=beta"),
                e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertListsInstalled(e);
    }

    @Test
    void unknownName() {
        ProviderSelectionException arg = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("mem://h", "omega"));
        assertTrue(arg.getMessage().startsWith("no lock provider named 'omega' (from the provider argument) is "
                + "installed"), arg.getMessage());
        assertListsInstalled(arg);
        ProviderSelectionException param = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("mem://h?provider=omega"));
        assertTrue(param.getMessage().contains("(from the URI parameter provider)"), param.getMessage());
        assertListsInstalled(param);
        System.setProperty(Locks.PROVIDER_PROPERTY, "omega");
        ProviderSelectionException prop = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("solo://h"));
        assertTrue(prop.getMessage().contains("(from the system property lockspi.provider)"), prop.getMessage());
        assertListsInstalled(prop);
    }

    @Test
    void pinnedProviderMustServeTheScheme() {
        ProviderSelectionException e = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("solo://u:secret@h", "alpha"));
        assertTrue(e.getMessage().startsWith("provider 'alpha' (from the provider argument) does not serve scheme "
                + "'solo' of solo://u:***@h"), e.getMessage());
        assertListsInstalled(e);
        System.setProperty(Locks.PROVIDER_PROPERTY, "delta");
        ProviderSelectionException prop = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("mem://h"));
        assertTrue(prop.getMessage().contains("does not serve scheme 'mem'"), prop.getMessage());
    }

    @Test
    void unknownParametersRefusedBeforeOpen() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("solo://u:secret@h?timeout=1s&sessionTimeout=3s"));
        assertTrue(e.getMessage().startsWith("unknown parameter 'sessionTimeout' for lock provider 'delta' (it "
                + "accepts [flag, timeout], provider, failFast and revocable)"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertTrue(MemoryProvider.OPEN_LOG.isEmpty(), MemoryProvider.OPEN_LOG::toString);
        MemoryProvider given = MemoryProvider.full("given");
        assertThrows(IllegalArgumentException.class, () -> Locks.open("mem://h?bogus=1", given));
        assertTrue(given.opened().isEmpty());
    }

    @Test
    void malformedParameterValuesComeFromTheProvider() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("solo://u:secret@h?timeout=forever"));
        assertTrue(e.getMessage().contains("parameter 'timeout' is not a duration"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void malformedUriAndNulls() {
        assertThrows(IllegalArgumentException.class, () -> Locks.open("not a uri"));
        assertThrows(NullPointerException.class, () -> Locks.open(null));
        assertThrows(NullPointerException.class, () -> Locks.open(null, "alpha"));
        assertThrows(NullPointerException.class, () -> Locks.open("mem://h", (LockProvider) null));
        assertThrows(NullPointerException.class, () -> Locks.open(null, MemoryProvider.full("x")));
    }

    @Test
    void openWithProviderInstance() {
        MemoryProvider given = MemoryProvider.full("given");
        try (LockService s = Locks.open("mem://h/app?provider=given&timeout=2s", given)) {
            assertEquals("given", s.providerName());
            assertSame(given.lastBackend(), given.opened().get(0));
            assertEquals(LockUri.parse("mem://h/app?timeout=2s"), given.openedUris().get(0));
        }
        ProviderSelectionException other = assertThrows(ProviderSelectionException.class,
                () -> Locks.open("mem://u:secret@h?provider=alpha", given));
        assertTrue(other.getMessage().startsWith("provider 'given' was given, but the URI says provider=alpha"),
                other.getMessage());
        assertFalse(other.getMessage().contains("secret"), other.getMessage());
        IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("solo://u:secret@h", given));
        assertTrue(scheme.getMessage().startsWith("provider 'given' does not serve scheme 'solo' (it serves [mem])"),
                scheme.getMessage());
        assertFalse(scheme.getMessage().contains("secret"), scheme.getMessage());
        assertEquals(1, given.opened().size());
    }

    @Test
    void registrySelectDirectly() {
        LockUri mem = LockUri.parse("mem://h");
        assertEquals("alpha", ProviderRegistry.select(mem, "alpha", "beta").name());
        assertEquals("beta", ProviderRegistry.select(mem, null, "beta").name());
        assertEquals("gamma", ProviderRegistry.select(LockUri.parse("fast://h"), null, null).name());
        assertEquals(Set.of("mem", "fast"), ProviderRegistry.select(mem, "alpha", null).schemes());
    }

    @Test
    void contextClassLoaderIsConsultedAndNamesAreUnique() {
        Thread t = Thread.currentThread();
        ClassLoader saved = t.getContextClassLoader();
        t.setContextClassLoader(null);
        try {
            assertEquals(4, Locks.providers().size(), "found through the API's own loader");
        } finally {
            t.setContextClassLoader(saved);
        }
        assertEquals(4, Locks.providers().size(), "one per name though both loaders find them");
    }
}
