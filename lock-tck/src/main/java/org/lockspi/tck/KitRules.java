package org.lockspi.tck;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.security.CodeSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.lockspi.tck.coverage.CoverageMatrix;

/**
 * The kit's own rules for a TCK class, read from the kit's contract interfaces (never from the class under test):
 * which tests the class must run, which of them it replaced, and what to look at when each fails. The conformance
 * report judges a run against this list, so a rule whose test did not run, or ran in a replacement, is never
 * counted as passed.
 */
final class KitRules {
    /** Where the kit's classes come from: a contract interface elsewhere is not the kit's, whatever its package. */
    private static final CodeSource KIT = TckContext.class.getProtectionDomain().getCodeSource();

    private final Map<String, Method> tests = new LinkedHashMap<>();
    private final Map<String, String> overridden = new LinkedHashMap<>();
    private final Map<String, String> diagnoses = new LinkedHashMap<>();

    private KitRules() {
    }

    /**
     * @param testClass a class extending {@link LockProviderTck}
     * @return the kit's rules that class must run
     */
    static KitRules of(Class<?> testClass) {
        KitRules rules = new KitRules();
        for (Class<?> contract : contracts(testClass)) {
            for (Method method : contract.getDeclaredMethods()) {
                if (!AnnotationSupport.isAnnotated(method, Testable.class) || !inScope(method, testClass)) {
                    continue;
                }
                String name = displayName(method);
                rules.tests.put(name, method);
                AnnotationSupport.findAnnotation(method, Diagnosis.class)
                        .ifPresent(d -> rules.diagnoses.put(name, d.value()));
                String by = replacement(testClass, method);
                if (by != null) {
                    rules.overridden.put(name, by);
                }
            }
        }
        return rules;
    }

    /** @return the display names of the kit's tests the class must run */
    Set<String> catalogue() {
        return tests.keySet();
    }

    /** @return display names of the kit's tests the class replaced, with the replacing method */
    Map<String, String> overridden() {
        return overridden;
    }

    /** @return the coverage matrix of the kit's tests the class must run: their kinds and queue shapes */
    CoverageMatrix coverage() {
        return CoverageMatrix.of(tests.values());
    }

    /** @return display names of the kit's tests with what to look at when each fails */
    Map<String, String> diagnoses() {
        return diagnoses;
    }

    /**
     * Whether a contract belongs to the class: a class extending {@link EnsembleProviderTck} runs the ensemble
     * contracts (§19) alone, against its replicated backend; every other class runs everything else.
     */
    static boolean inScope(Method contract, Class<?> testClass) {
        boolean ensembleContract = contract.getDeclaringClass() == EnsembleFailureContracts.class;
        boolean ensembleClass = EnsembleProviderTck.class.isAssignableFrom(testClass);
        return ensembleContract == ensembleClass;
    }

    /** @return the kit's contract interfaces the class implements: in the kit's jar, extending TckContext */
    private static Set<Class<?>> contracts(Class<?> testClass) {
        Set<Class<?>> found = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>();
        for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
            todo.addAll(Arrays.asList(c.getInterfaces()));
        }
        while (!todo.isEmpty()) {
            Class<?> type = todo.poll();
            if (isKit(type) && TckContext.class.isAssignableFrom(type) && found.add(type)) {
                todo.addAll(Arrays.asList(type.getInterfaces()));
            }
        }
        return found;
    }

    private static boolean isKit(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return type.getPackageName().equals(TckContext.class.getPackageName())
                && Objects.equals(location(source), location(KIT));
    }

    private static String location(CodeSource source) {
        return source == null || source.getLocation() == null ? null : source.getLocation().toString();
    }

    /**
     * @return the method that replaces the kit's test in the class's hierarchy (a class below the kit's base
     *         classes, or an interface outside the kit, declaring the same signature), or null if none does
     */
    private static String replacement(Class<?> testClass, Method kitTest) {
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> c = testClass; c != null && !isKit(c); c = c.getSuperclass()) {
            types.add(c);
        }
        Deque<Class<?>> todo = new ArrayDeque<>();
        for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
            todo.addAll(Arrays.asList(c.getInterfaces()));
        }
        Set<Class<?>> seen = new LinkedHashSet<>();
        while (!todo.isEmpty()) {
            Class<?> type = todo.poll();
            if (seen.add(type)) {
                if (!isKit(type)) {
                    types.add(type);
                }
                todo.addAll(Arrays.asList(type.getInterfaces()));
            }
        }
        for (Class<?> type : types) {
            try {
                Method own = type.getDeclaredMethod(kitTest.getName(), kitTest.getParameterTypes());
                if (!Modifier.isStatic(own.getModifiers())) {
                    return type.getName() + "." + own.getName() + "()";
                }
            } catch (NoSuchMethodException e) {
                // not declared here: look further
            }
        }
        return null;
    }

    private static String displayName(Method method) {
        return AnnotationSupport.findAnnotation(method, DisplayName.class).map(DisplayName::value)
                .orElse(method.getName() + "()");
    }
}
