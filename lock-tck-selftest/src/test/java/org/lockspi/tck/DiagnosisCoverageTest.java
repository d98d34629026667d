package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Every rule of the kit says where to look when it fails: each test method of a contract interface carries a
 * {@link Diagnosis} that is not blank. The contracts are found twice ({@link KitContracts}), so that a new
 * interface cannot slip past.
 */
class DiagnosisCoverageTest {

    @Test
    void everyContractTestHasADiagnosis() throws IOException, URISyntaxException {
        List<Method> tests = KitContracts.tests();
        assertTrue(tests.size() > 100, "the kit's contract tests were not found: " + tests.size());
        List<String> missing = tests.stream().filter(m -> diagnosis(m).isEmpty()).map(KitContracts::id)
                .collect(Collectors.toList());
        List<String> blank = tests.stream().filter(m -> diagnosis(m).filter(String::isBlank).isPresent())
                .map(KitContracts::id).collect(Collectors.toList());
        String of = " (of " + tests.size() + ")";
        assertAll(() -> assertEquals(List.of(), missing, "contract tests without @Diagnosis" + of),
                () -> assertEquals(List.of(), blank, "contract tests with a blank @Diagnosis" + of));
    }

    @Test
    void everyClassWithContractTestsIsAContractOfTheKit() throws IOException, URISyntaxException {
        Set<Class<?>> reached = KitContracts.implemented();
        List<String> outside = KitContracts.classesWithTests().stream().filter(c -> !reached.contains(c))
                .map(Class::getName).sorted().collect(Collectors.toList());
        assertEquals(List.of(), outside, "classes of " + LockProviderTck.class.getPackageName() + " with test methods "
                + "that LockProviderTck does not implement, so this coverage check would not see them");
    }

    private static Optional<String> diagnosis(Method m) {
        return AnnotationSupport.findAnnotation(m, Diagnosis.class).map(Diagnosis::value);
    }
}
