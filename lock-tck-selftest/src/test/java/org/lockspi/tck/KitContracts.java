package org.lockspi.tck;

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
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The kit's contract tests, found twice so that a new contract interface cannot slip past the self-tests that read
 * their annotations: as the kit's interfaces {@link LockProviderTck} implements, and as every class of the package
 * with a test method.
 */
final class KitContracts {
    private KitContracts() {
    }

    /** @return every test method of the kit's contracts, sorted by interface and name */
    static List<Method> tests() throws IOException, URISyntaxException {
        Set<Class<?>> all = new LinkedHashSet<>(implemented());
        all.addAll(classesWithTests());
        return all.stream().flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
                .filter(m -> AnnotationSupport.isAnnotated(m, Testable.class))
                .sorted(Comparator.comparing(KitContracts::id)).collect(Collectors.toList());
    }

    /** @return {@code Interface.method} */
    static String id(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName();
    }

    /** @return the kit's contract interfaces: those {@link LockProviderTck} implements, directly or not */
    static Set<Class<?>> implemented() {
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
    static Set<Class<?>> classesWithTests() throws IOException, URISyntaxException {
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
