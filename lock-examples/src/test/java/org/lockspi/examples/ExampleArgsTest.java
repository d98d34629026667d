package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The examples' command line and URI handling: what is accepted, and precise refusals. */
class ExampleArgsTest {
    private static final Set<String> OPTIONS = Set.of("workers", "uri");
    private static final Set<String> SWITCHES = Set.of("redis");

    @Test
    void optionsSwitchesAndOneStringWithSpaces() {
        ExampleArgs a = ExampleArgs.parse("T", new String[] {" --workers=4  --redis "}, OPTIONS, SWITCHES);
        assertEquals(4, a.integer("workers", 15, 1, 10));
        assertTrue(a.flag("redis"));
        assertEquals("x", a.value("uri", "x"));
        assertFalse(ExampleArgs.parse("T", new String[0], OPTIONS, SWITCHES).flag("redis"));
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsAccepted() {
        assertEquals("T: unknown option: '--bogus'; accepted: --uri=... --workers=... --redis",
                refusal("--bogus"));
        assertEquals("T: option --workers needs a value: '--workers'; accepted: --uri=... --workers=... --redis",
                refusal("--workers"));
        assertTrue(refusal("--redis=yes").startsWith("T: switch --redis takes no value: '--redis=yes'"));
        assertTrue(refusal("--workers=1 --workers=2").startsWith("T: option --workers given twice"));
        assertTrue(refusal("--workers=").startsWith("T: option --workers has an empty value"));
        assertTrue(refusal("workers=1").startsWith("T: not an option: 'workers=1'"));
        ExampleArgs a = ExampleArgs.parse("T", new String[] {"--workers=0"}, OPTIONS, SWITCHES);
        assertEquals("T: --workers is not in [1, 10]: 0",
                assertThrows(IllegalArgumentException.class, () -> a.integer("workers", 15, 1, 10)).getMessage());
        ExampleArgs b = ExampleArgs.parse("T", new String[] {"--workers=many"}, OPTIONS, SWITCHES);
        assertEquals("T: --workers is not a number: 'many'",
                assertThrows(IllegalArgumentException.class, () -> b.integer("workers", 15, 1, 10)).getMessage());
    }

    @Test
    void parametersAreAddedUnlessTheUriHasThem() {
        assertEquals("zookeeper://h:1/app?sessionTimeout=3000ms",
                ExampleBackend.withParameter("zookeeper://h:1/app", "sessionTimeout", "3000ms", false));
        assertEquals("zookeeper://h:1/app?sessionTimeout=9s&provider=curator",
                ExampleBackend.withParameter("zookeeper://h:1/app?sessionTimeout=9s", "provider", "curator", true));
        assertEquals("zookeeper://h:1/app?sessionTimeout=9s",
                ExampleBackend.withParameter("zookeeper://h:1/app?sessionTimeout=9s", "sessionTimeout", "3s", false));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExampleBackend.withParameter(
                "zookeeper://u:secret@h:1/app?provider=zkclient", "provider", "curator", true));
        assertEquals("--provider=curator disagrees with the URI's provider=zkclient: "
                + "zookeeper://u:***@h:1/app?provider=zkclient", e.getMessage());
    }

    @Test
    void uriAndRedisTogetherAreRefusedBeforeAnyServerStarts() {
        ExampleArgs a = ExampleArgs.parse("T", new String[] {"--uri=redis://h:1 --redis"},
                ExampleBackend.OPTIONS, ExampleBackend.SWITCHES);
        assertEquals("give one of --uri, --redis, --postgres, --h2",
                assertThrows(IllegalArgumentException.class, () -> ExampleBackend.start(a, "/x", null)).getMessage());
    }

    private static String refusal(String args) {
        return assertThrows(IllegalArgumentException.class,
                () -> ExampleArgs.parse("T", new String[] {args}, OPTIONS, SWITCHES)).getMessage();
    }
}
