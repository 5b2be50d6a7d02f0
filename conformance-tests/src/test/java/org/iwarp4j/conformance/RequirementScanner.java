package org.iwarp4j.conformance;

import org.junit.jupiter.api.DisplayName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Finds every {@link Requirement} on the compiled test classes of this module (reflectively, from the
 * test-classes directory) and checks how each is used: only on enabled test methods, and named in the
 * method's {@code @DisplayName}.
 */
final class RequirementScanner {

    private static final Set<String> TEST_ANNOTATIONS = Set.of(
            "org.junit.jupiter.api.Test",
            "org.junit.jupiter.params.ParameterizedTest",
            "org.junit.jupiter.api.RepeatedTest",
            "org.junit.jupiter.api.TestFactory",
            "org.junit.jupiter.api.TestTemplate",
            "com.code_intelligence.jazzer.junit.FuzzTest");

    /** Marks classes of deliberately wrong examples (the scanner's own tests): never scanned. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface NotScanned {}

    /** ID → tests citing it ({@code Class#method}), and every misuse found. */
    record Result(Map<String, List<String>> citations, List<String> problems, int citingTests) {}

    private RequirementScanner() {}

    static Result scan() {
        Map<String, List<String>> citations = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        int citing = 0;
        for (Class<?> c : testClasses()) {
            if (c.isAnnotationPresent(NotScanned.class)) {
                continue;
            }
            for (Method m : c.getDeclaredMethods()) {
                Requirement r = m.getAnnotation(Requirement.class);
                if (r == null) {
                    continue;
                }
                citing++;
                String name = c.getSimpleName() + "#" + m.getName();
                problems.addAll(misuse(c, m, r, name));
                for (String id : r.value()) {
                    citations.computeIfAbsent(id, k -> new ArrayList<>()).add(name);
                }
            }
        }
        return new Result(citations, problems, citing);
    }

    /** What is wrong with this use of {@code @Requirement}, if anything. */
    static List<String> misuse(Class<?> c, Method m, Requirement r, String name) {
        List<String> p = new ArrayList<>();
        if (r.value().length == 0) {
            p.add(name + " has an empty @Requirement");
        }
        for (String id : r.value()) {
            if (!RequirementCatalog.ID.matcher(id).matches()) {
                p.add(name + " cites \"" + id + "\", which is not a requirement ID (like MPA-07)");
            }
        }
        if (Arrays.stream(m.getAnnotations()).noneMatch(a -> TEST_ANNOTATIONS.contains(a.annotationType().getName()))) {
            p.add(name + " carries @Requirement but is not a test method");
        }
        if (Modifier.isAbstract(c.getModifiers())) {
            p.add(name + " is in an abstract class");
        }
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (disabling(k.getAnnotations())) {
                p.add(name + ": its class " + k.getSimpleName() + " is disabled or conditional");
            }
        }
        if (disabling(m.getAnnotations())) {
            p.add(name + " is disabled or conditional: a skipped test does not cover a requirement");
        }
        DisplayName dn = m.getAnnotation(DisplayName.class);
        if (dn == null) {
            p.add(name + " cites " + Arrays.toString(r.value()) + " but has no @DisplayName naming them");
        } else {
            for (String id : r.value()) {
                if (!dn.value().contains(id)) {
                    p.add(name + " cites " + id + " but its @DisplayName \"" + dn.value() + "\" does not name it");
                }
            }
        }
        return p;
    }

    private static boolean disabling(Annotation[] annotations) {
        return Arrays.stream(annotations).map(a -> a.annotationType().getName())
                .anyMatch(n ->
                        n.equals("org.junit.jupiter.api.Disabled") || n.startsWith("org.junit.jupiter.api.condition."));
    }

    /** Every class compiled into this module's test-classes directory. */
    static List<Class<?>> testClasses() {
        Path root;
        try {
            root = Path.of(RequirementScanner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String rel = root.relativize(f).toString();
                String name = rel.substring(0, rel.length() - ".class".length())
                        .replace(f.getFileSystem().getSeparator(), ".");
                try {
                    classes.add(Class.forName(name, false, RequirementScanner.class.getClassLoader()));
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IllegalStateException("cannot load test class " + name, e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return classes;
    }
}
