package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Every rule of the kit says where to look when it fails: each test method of a contract interface carries a
 * {@link Diagnosis} that is not blank. The contracts are found twice, so that a new interface cannot slip past: as
 * the kit's interfaces {@link LockProviderTck} implements, and as every class of the package with a test method.
 */
class DiagnosisCoverageTest {

    @Test
    void everyContractTestHasADiagnosis() throws IOException, URISyntaxException {
        Set<Class<?>> contracts = contracts();
        List<Method> tests = contracts.stream().flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
                .filter(m -> AnnotationSupport.isAnnotated(m, Testable.class))
                .sorted(Comparator.comparing(DiagnosisCoverageTest::id)).collect(Collectors.toList());
        assertTrue(tests.size() > 100, "the kit's contract tests were not found: " + tests.size() + " in " + contracts);
        List<String> missing = tests.stream().filter(m -> diagnosis(m).isEmpty()).map(DiagnosisCoverageTest::id)
                .collect(Collectors.toList());
        List<String> blank = tests.stream().filter(m -> diagnosis(m).filter(String::isBlank).isPresent())
                .map(DiagnosisCoverageTest::id).collect(Collectors.toList());
        String of = " (of " + tests.size() + ")";
        assertAll(() -> assertEquals(List.of(), missing, "contract tests without @Diagnosis" + of),
                () -> assertEquals(List.of(), blank, "contract tests with a blank @Diagnosis" + of));
    }

    @Test
    void everyClassWithContractTestsIsAContractOfTheKit() throws IOException, URISyntaxException {
        Set<Class<?>> reached = implemented();
        List<String> outside = classesWithTests().stream().filter(c -> !reached.contains(c)).map(Class::getName)
                .sorted().collect(Collectors.toList());
        assertEquals(List.of(), outside, "classes of " + LockProviderTck.class.getPackageName() + " with test methods "
                + "that LockProviderTck does not implement, so this coverage check would not see them");
    }

    private static Optional<String> diagnosis(Method m) {
        return AnnotationSupport.findAnnotation(m, Diagnosis.class).map(Diagnosis::value);
    }

    private static String id(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName();
    }

    private static Set<Class<?>> contracts() throws IOException, URISyntaxException {
        Set<Class<?>> all = new LinkedHashSet<>(implemented());
        all.addAll(classesWithTests());
        return all;
    }

    /** @return the kit's contract interfaces: those {@link LockProviderTck} implements, directly or not */
    private static Set<Class<?>> implemented() {
        Set<Class<?>> found = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(Arrays.asList(LockProviderTck.class.getInterfaces()));
        while (!todo.isEmpty()) {
            Class<?> type = todo.poll();
            if (TckContext.class.isAssignableFrom(type) && type != TckContext.class && found.add(type)) {
                todo.addAll(Arrays.asList(type.getInterfaces()));
            }
        }
        return found;
    }

    /** @return the classes of the kit's package (not its subpackages) that declare a test method */
    private static Set<Class<?>> classesWithTests() throws IOException, URISyntaxException {
        String dir = LockProviderTck.class.getPackageName().replace('.', '/') + "/";
        Path location = Path.of(LockProviderTck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> entries;
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(dir))) {
                entries = files.map(p -> dir + p.getFileName()).collect(Collectors.toList());
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                entries = jar.stream().map(e -> e.getName()).collect(Collectors.toList());
            }
        }
        Set<Class<?>> found = new LinkedHashSet<>();
        for (String entry : entries) {
            String rest = entry.startsWith(dir) ? entry.substring(dir.length()) : "";
            if (rest.endsWith(".class") && !rest.contains("/")) {
                Class<?> type = load(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
                if (Arrays.stream(type.getDeclaredMethods())
                        .anyMatch(m -> AnnotationSupport.isAnnotated(m, Testable.class))) {
                    found.add(type);
                }
            }
        }
        return found;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, LockProviderTck.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("listed but not loadable: " + name, e);
        }
    }
}
